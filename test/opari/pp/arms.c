/* #ifdef arms around a loop body and around a directive: compiled with and
   without -DSQUARES, each build's events close where its own arm ends. */
#include <stdio.h>

int main(void) {
  int a[6], n = 0;
#pragma omp parallel for
#ifdef SQUARES
  for (int i = 0; i < 6; i++)
    a[i] = i * i;
#else
  for (int i = 0; i < 6; i++) {
    a[i] = i;
  }
#endif
#pragma omp parallel
  {
#ifdef SQUARES
#pragma omp critical
#else
#pragma omp master
#endif
    n++;
  }
  printf("%d %d %d\n", a[2], a[5], n);
  return 0;
}
