/* Constructs as unbraced loop and if/else bodies keep their meaning: the
   region runs 3 times (OPARI 1.1 made the inserted call the loop body). */
#include <stdio.h>

int main(void) {
  int n = 0, i, c = 1;
  for (i = 0; i < 3; i++)
#pragma omp parallel num_threads(2)
#pragma omp atomic
    n++;
  if (c)
#pragma omp parallel for num_threads(2) reduction(+:n)
    for (i = 0; i < 4; i++) n += 10;
  else
#pragma omp parallel num_threads(2)
    n = -1;
  printf("n=%d\n", n);
  return 0;
}
