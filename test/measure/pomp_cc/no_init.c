/* no_init.c -- built with pomp-cc mpicc, but never calls MPI_Init: its
   OpenMP events are recorded all the same (a process without MPI). */
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n += 1;
  printf("%d\n", n);
  return 0;
}
