/* sc_untied.c -- an untied task that changes threads, as a runtime that
   resumes suspended untied tasks elsewhere (LLVM's libomp) would run it,
   made by hand: thread 0 creates it, thread 1 starts it, thread 0 ends it
   (GCC's libgomp never does this). */
#include <omp.h>
#include <stdio.h>

#include "sc.h"

DESCR(par, "parallel", "", "sc_untied.c", 10, 30);
DESCR(task, "task", "", "sc_untied.c", 12, 14);

int main(void) {
  unsigned long long id = 0;
  POMP_Parallel_fork(&par);
#pragma omp parallel num_threads(2)
  {
    POMP_Parallel_begin(&par);
    if (omp_get_thread_num() == 0) {
      id = POMP_Task_new(&task);
      POMP_Task_create_end(&task);
    }
#pragma omp barrier
    if (omp_get_thread_num() == 1) POMP_Task_run_begin(&task, id);
#pragma omp barrier
    if (omp_get_thread_num() == 0) POMP_Task_run_end(&task, id);
#pragma omp barrier
    POMP_Parallel_end(&par);
  }
  POMP_Parallel_join(&par);
  puts("done");
  return 0;
}
