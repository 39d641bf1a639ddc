/* OpenMP directives written by macros (_Pragma in a #define): the
   preprocessor turns them into #pragma lines, which pomp-cc instruments. */
#include <stdio.h>

#define PARALLEL_FOR _Pragma("omp parallel for")
#define CRITICAL _Pragma("omp critical(sum)")
#define BARRIER _Pragma("omp barrier")
#define N 8

int main(void) {
  int a[N], sum = 0;
  PARALLEL_FOR
  for (int i = 0; i < N; i++)
    a[i] = i * i;
#pragma omp parallel
  {
    BARRIER
    CRITICAL
    sum += 1;
  }
  for (int i = 0; i < N; i++) sum += a[i];
  printf("sum=%d\n", sum);
  return 0;
}
