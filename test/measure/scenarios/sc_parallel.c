/* sc_parallel.c -- a parallel region of 2 threads with a loop and its
   implicit barrier, a single, a master, a named critical section and an
   explicit barrier, instrumented by hand as pomp-opari would. */
#include <omp.h>
#include <stdio.h>

#include "sc.h"

DESCR(par, "parallel", "", "sc_parallel.c", 10, 40);
DESCR(loop, "for", "", "sc_parallel.c", 12, 14);
DESCR(single, "single", "", "sc_parallel.c", 16, 18);
DESCR(master, "master", "", "sc_parallel.c", 20, 21);
DESCR(crit, "critical", "acc", "sc_parallel.c", 23, 25);
DESCR(bar, "barrier", "", "sc_parallel.c", 27, 27);

int main(void) {
  int sum = 0, once = 0;
  POMP_Parallel_fork(&par);
#pragma omp parallel num_threads(2)
  {
    POMP_Parallel_begin(&par);
    POMP_For_enter(&loop);
#pragma omp for nowait
    for (int i = 0; i < 8; i++) sum += 0;
    POMP_Barrier_enter(&loop);
#pragma omp barrier
    POMP_Barrier_exit(&loop);
    POMP_For_exit(&loop);

    POMP_Single_enter(&single);
#pragma omp single nowait
    {
      POMP_Single_begin(&single);
      once++;
      POMP_Single_end(&single);
    }
    POMP_Barrier_enter(&single);
#pragma omp barrier
    POMP_Barrier_exit(&single);
    POMP_Single_exit(&single);

#pragma omp master
    {
      POMP_Master_begin(&master);
      POMP_Master_end(&master);
    }

    POMP_Critical_enter(&crit);
#pragma omp critical(acc)
    {
      POMP_Critical_begin(&crit);
      sum++;
      POMP_Critical_end(&crit);
    }
    POMP_Critical_exit(&crit);

    POMP_Barrier_enter(&bar);
#pragma omp barrier
    POMP_Barrier_exit(&bar);
    POMP_Barrier_enter(&par);
#pragma omp barrier
    POMP_Barrier_exit(&par);
    POMP_Parallel_end(&par);
  }
  POMP_Parallel_join(&par);
  printf("sum=%d once=%d\n", sum, once);
  return 0;
}
