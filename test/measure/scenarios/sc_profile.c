/* sc_profile.c -- a call tree with known visits for POMP_MODE=profile:
   main calls nap once (which recurses 5 deep: 5 call paths, so that the
   master's tree has more nodes than a worker's) and step 3 times; each step runs a parallel region
   of 2 threads in which every thread calls work 5 times (work calls leaf
   twice) and meets an explicit barrier, then the region's implicit one.
   User functions through -finstrument-functions, OpenMP by hand as
   pomp-opari would instrument it. */
#include <omp.h>
#include <stdio.h>
#include <time.h>

#include "sc.h"

DESCR(par, "parallel", "", "sc_profile.c", 30, 45);
DESCR(bar, "barrier", "", "sc_profile.c", 38, 38);

static void __attribute__((noinline)) leaf(volatile int *x) { (*x)++; }
static void __attribute__((noinline)) work(volatile int *x) {
  leaf(x);
  leaf(x);
}

/* 20 ms of exclusive time on the master, at the deepest level */
static void __attribute__((noinline)) nap(int depth) {
  if (depth > 1) {
    nap(depth - 1);
    __asm__ volatile(""); /* not a tail call */
    return;
  }
  struct timespec d = {0, 20000000L};
  nanosleep(&d, NULL);
}

static void __attribute__((noinline)) step(void) {
  POMP_Parallel_fork(&par);
#pragma omp parallel num_threads(2)
  {
    POMP_Parallel_begin(&par);
    volatile int x = 0;
    for (int i = 0; i < 5; i++) work(&x);
    SC_BARRIER(&bar);
    SC_BARRIER(&par); /* the region's implicit barrier */
    POMP_Parallel_end(&par);
  }
  POMP_Parallel_join(&par);
}

int main(void) {
  nap(5);
  for (int k = 0; k < 3; k++) step();
  printf("done\n");
  return 0;
}
