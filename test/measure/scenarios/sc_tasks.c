/* sc_tasks.c -- OpenMP tasks, instrumented by pomp-opari, where the
   runtime runs them deterministically: outside a parallel region (no
   team: libgomp runs a task at once) a task that creates a task and waits
   for it; in a region of 2 threads an undeferred task on thread 1. */
#include <omp.h>
#include <stdio.h>

static int nested(void) {
  int a = 0, b = 0;
#pragma omp task shared(a, b)
  {
#pragma omp task shared(b)
    b = 2;
#pragma omp taskwait
    a = 1 + b;
  }
#pragma omp taskwait
  return a;
}

int main(void) {
  int r = nested(), s = 0;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1) {
#pragma omp task if (0) shared(s)
      s = 5;
    }
  }
  printf("%d %d\n", r, s);
  return 0;
}
