/* app.c -- an OpenMP program for the pomp-cc tests. */
#include <omp.h>
#include <stdio.h>

int twice(int i);

static int work(int i) { return twice(i) + 1; }

int main(void) {
  int sum = 0;
#pragma omp parallel for reduction(+ : sum) num_threads(2)
  for (int i = 0; i < 8; i++) sum += work(i);
#pragma omp parallel num_threads(2)
  {
#pragma omp critical(total)
    sum += 1;
  }
  printf("sum=%d\n", sum);
  return 0;
}
