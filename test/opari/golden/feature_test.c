/* The instrumented unit includes no system header before the user's
   feature-test macros (OPARI2 broke CPU_ZERO here). */
#define _GNU_SOURCE
#include <sched.h>
int ft(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  int n = 0;
#pragma omp parallel reduction(+:n)
  n = 1;
  return n + CPU_COUNT(&set);
}
