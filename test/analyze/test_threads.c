/* test_threads.c -- pomp-analyze's decoding threads (replay.c, --threads):
   the default thread count, and a trace of one rank with more threads
   than locations analysed by 1, 2 and 16 threads: the same report. */
#define _GNU_SOURCE /* sched_setaffinity */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "az_test.h"

/* The default: the CPUs of the affinity mask shared among the analysis
   processes of the node, 1 .. AZ_THREADS_USEFUL. */
static void default_threads_follow_the_affinity_mask(void **state) {
  (void)state;
  cpu_set_t all, one;
  assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
  int cpus = CPU_COUNT(&all);
  int want = cpus < AZ_THREADS_USEFUL ? cpus : AZ_THREADS_USEFUL;
  assert_int_equal(az_default_threads(1), want);
  assert_int_equal(az_default_threads(0), want); /* no count: one process */
  assert_int_equal(az_default_threads(cpus), 1);
  assert_int_equal(az_default_threads(4 * cpus + 1), 1); /* never 0 */
  CPU_ZERO(&one);
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET(c, &all)) {
      CPU_SET(c, &one);
      break;
    }
  assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
  int bound = az_default_threads(1);
  assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
  assert_int_equal(bound, 1);
}

/* One rank, 6 threads, 40 parallel regions of unequal work with a
   barrier, written as tracegen text. */
static char *team_trace(void) {
  size_t size = 1 << 20, n = 0;
  char *t = malloc(size);
  assert_non_null(t);
  n += (size_t)snprintf(t + n, size - n,
                        "process 0 threads 6\nteam 5\nregion main compiler function main\n"
                        "region work user function work\n"
                        "region par openmp parallel !$omp parallel @t.c:1\n"
                        "region ibar openmp implicit_barrier !$omp implicit barrier @t.c:2\n");
  for (int k = 0; k < 6; k++) {
    n += (size_t)snprintf(t + n, size - n, "loc 0.%d\n", k);
    if (!k) n += (size_t)snprintf(t + n, size - n, "0 enter main\n");
    for (int i = 0, at = 10; i < 40; i++, at += 200) {
      int w = 20 + (i * 7 + k * 13) % 90;
      if (!k) n += (size_t)snprintf(t + n, size - n, "%d fork 6\n", at);
      n += (size_t)snprintf(t + n, size - n,
                            "%d teambegin 5\n%d enter par\n%d enter work\n%d leave\n"
                            "%d enter ibar\n%d leave\n%d leave\n%d teamend 5\n",
                            at + 1, at + 2, at + 3, at + 3 + w, at + 3 + w, at + 150, at + 151,
                            at + 152);
      if (!k) n += (size_t)snprintf(t + n, size - n, "%d join\n", at + 153);
    }
    if (!k) n += (size_t)snprintf(t + n, size - n, "8100 leave\n");
  }
  return t;
}

static void more_threads_than_locations_same_report(void **state) {
  (void)state;
  az_run run;
  char *text = team_trace();
  az_run_text(&run, text); /* threads 1; windows of 2 events with 1 and 3 */
  free(text);
  assert_non_null(run.report);
  assert_true(az_run_total(&run, "omp_ibarrier_wait") > 0);
  char anchor[300];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", run.dir);
  const int threads[] = {2, 16};
  for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
    az_options opt = {.threads = threads[i], .window_events = 16};
    az_analysis a;
    assert_int_equal(az_analyze(&a, anchor, &opt), 0);
    assert_int_equal(a.events_read, run.a.events_read);
    pomp_report *r = az_report_build(&a, anchor, NULL);
    az_run_assert_same(run.report, r);
    pomp_report_free(r);
    az_analysis_free(&a);
  }
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(default_threads_follow_the_affinity_mask),
      cmocka_unit_test(more_threads_than_locations_same_report),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
