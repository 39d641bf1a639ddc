/* sc_join.c -- parallel regions as pomp-opari instruments them now (built
   through pomp-opari): one barrier per region, the runtime's join.
   usage: sc_join THREADS SLEEP_MS
   A `parallel for` whose iteration 0 (thread 0, schedule(static, 1)) sleeps
   SLEEP_MS: the planted imbalance; a `parallel` with a loop inside (its
   explicit barrier) then the region's end; a nested region (libpomp makes
   its barrier explicit); regions ending in a loop, in a single (the join). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void sleep_ms(int ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

int main(int argc, char **argv) {
  int n = argc > 2 ? atoi(argv[1]) : 2, ms = argc > 2 ? atoi(argv[2]) : 0;
  long sum = 0, inner = 0;
#pragma omp parallel for num_threads(n) schedule(static, 1) reduction(+ : sum)
  for (int i = 0; i < n; i++) {
    if (i == 0) sleep_ms(ms);
    sum += i;
  }
#pragma omp parallel num_threads(n) reduction(+ : sum)
  {
#pragma omp for schedule(static, 1)
    for (int i = 0; i < n; i++) sum += i;
    sum += 1;
  }
  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) reduction(+ : inner)
  {
#pragma omp parallel num_threads(2) reduction(+ : inner)
    inner++;
  }
#pragma omp parallel num_threads(n) reduction(+ : sum)
  {
    sum += 1;
#pragma omp for schedule(static, 1)
    for (int i = 0; i < n; i++) sum += i;
  }
#pragma omp parallel num_threads(n) reduction(+ : sum)
  {
#pragma omp single
    sum += 1;
  }
  printf("sum=%ld inner=%ld\n", sum, inner);
  return 0;
}
