/* bench_clock.h -- the clock of every bench program: seconds of the
   monotonic clock, for intervals measured in the same run (a baseline and
   what is compared with it).  Header only: each program includes it after
   its feature-test macros. */
#ifndef POMP_BENCH_CLOCK_H
#define POMP_BENCH_CLOCK_H

#include <time.h>

static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline double bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#endif
