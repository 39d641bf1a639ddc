/* parallel master and parallel masked: fork/join once on thread 0, the
   master events on thread 0 only, every thread through the barrier. */
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel master num_threads(4)
  x += 10;
#pragma omp parallel masked filter(0) num_threads(4)
  x += 1;
  printf("x=%d\n", x);
  return 0;
}
