/* sc_nested.c -- a parallel region of 2 threads, each opening a nested
   parallel region of 2 threads: recorded flattened. */
#include <omp.h>
#include <stdio.h>

#include "sc.h"

DESCR(outer, "parallel", "", "sc_nested.c", 10, 20);
DESCR(inner, "parallel", "", "sc_nested.c", 12, 18);

int main(void) {
  omp_set_max_active_levels(2);
  POMP_Parallel_fork(&outer);
#pragma omp parallel num_threads(2)
  {
    POMP_Parallel_begin(&outer);
    POMP_Parallel_fork(&inner);
#pragma omp parallel num_threads(2)
    {
      POMP_Parallel_begin(&inner);
      POMP_Parallel_end(&inner);
    }
    POMP_Parallel_join(&inner);
    POMP_Parallel_end(&outer);
  }
  POMP_Parallel_join(&outer);
  puts("done");
  return 0;
}
