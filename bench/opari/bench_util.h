/*
 * bench_util.h -- what the pomp-opari benchmarks share: the generated C
 * unit (one OpenMP directive per 20 lines: five constructs per 100-line
 * function, lock calls, decoy `#pragma omp` in comments and strings) and
 * timing a command, best of 3, by the CPU time of it and its children.
 */
#ifndef BENCH_OPARI_UTIL_H
#define BENCH_OPARI_UTIL_H

#include <stdio.h>

typedef struct {
  double seconds; /* CPU: user + system, of the command and its children */
  double wall;
  long rss_kb;
  int status;
} Run;

/* Writes a C file of about `want` lines; *lines and *pragmas get its size. */
void bench_generate(const char *path, long want, long *lines, long *pragmas);
/* Runs argv (stdout and stderr to /dev/null) three times: the best. */
Run bench_run(char *const argv[]);

#endif
