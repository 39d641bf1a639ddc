/* test_threads.c -- pomp-analyze's decoding threads (replay.c, --threads):
   the default thread count, a trace of one rank with more threads than
   locations analysed by 1, 2 and 16 threads: the same report; the delay
   pass's local handlers in the threads (az_pass.local): planted OpenMP
   barrier waits whose delay costs are known, and call paths that only
   the backward pass creates (deferred to the replay thread). */
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

/* Ticks thread k works in parallel region i. */
typedef int (*work_ticks)(int i, int k);

/* One rank, `threads` threads, `regions` parallel regions forked every
   `period` ticks, each thread working work(i, k) and then waiting in the
   region's barrier, which all leave `leave` ticks after the fork:
   tracegen text. */
static char *team_trace(int threads, int regions, int period, int leave, work_ticks work) {
  size_t size = 1 << 20, n = 0;
  char *t = malloc(size);
  assert_non_null(t);
  n += (size_t)snprintf(t + n, size - n,
                        "process 0 threads %d\nteam 5\nregion main compiler function main\n"
                        "region work user function work\n"
                        "region par openmp parallel !$omp parallel @t.c:1\n"
                        "region ibar openmp implicit_barrier !$omp implicit barrier @t.c:2\n",
                        threads);
  for (int k = 0; k < threads; k++) {
    n += (size_t)snprintf(t + n, size - n, "loc 0.%d\n", k);
    if (!k) n += (size_t)snprintf(t + n, size - n, "0 enter main\n");
    for (int i = 0, at = 10; i < regions; i++, at += period) {
      int w = work(i, k), out = at + leave;
      if (!k) n += (size_t)snprintf(t + n, size - n, "%d fork %d\n", at, threads);
      n += (size_t)snprintf(t + n, size - n,
                            "%d teambegin 5\n%d enter par\n%d enter work\n%d leave\n"
                            "%d enter ibar\n%d leave\n%d leave\n%d teamend 5\n",
                            at + 1, at + 2, at + 3, at + 3 + w, at + 3 + w, out, out + 1, out + 2);
      if (!k) n += (size_t)snprintf(t + n, size - n, "%d join\n", out + 3);
    }
    if (!k) n += (size_t)snprintf(t + n, size - n, "%d leave\n", regions * period + 100);
  }
  return t;
}

static int unequal_work(int i, int k) { return 20 + (i * 7 + k * 13) % 90; }

/* The trace in run's folder analysed with each of the n thread counts in
   windows of `window` events: run's event count and report, byte for
   byte. */
static void same_report_in(const az_run *run, const int *threads, size_t n, int window) {
  char anchor[300];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", run->dir);
  for (size_t i = 0; i < n; i++) {
    az_options opt = {.threads = threads[i], .window_events = window};
    az_analysis a;
    assert_int_equal(az_analyze(&a, anchor, &opt), 0);
    assert_int_equal(a.events_read, run->a.events_read);
    pomp_report *r = az_report_build(&a, anchor, NULL);
    az_run_assert_same(run->report, r);
    pomp_report_free(r);
    az_analysis_free(&a);
  }
}

static void more_threads_than_locations_same_report(void **state) {
  (void)state;
  az_run run;
  char *text = team_trace(6, 40, 200, 150, unequal_work);
  az_run_text(&run, text); /* threads 1; windows of 2 events with 1 and 3 */
  free(text);
  assert_non_null(run.report);
  assert_true(az_run_total(&run, "omp_ibarrier_wait") > 0);
  const int threads[] = {2, 16};
  same_report_in(&run, threads, sizeof threads / sizeof *threads, 16);
  az_run_free(&run);
}

/* same_report_in with 1, 2, 3 and 8 threads. */
static void same_report_with_threads(const az_run *run, int window) {
  const int threads[] = {1, 2, 3, 8};
  same_report_in(run, threads, sizeof threads / sizeof *threads, window);
}

enum { LATE_THREADS = 8, LATE_REGIONS = 35, LATE_EXTRA = 30 };

/* Every thread works 100 ticks, but in region i worker 1 + i % 7 works
   LATE_EXTRA more; all leave the barrier 10 after the late one entered. */
static int late_worker_work(int i, int k) {
  return 100 + (k == 1 + i % (LATE_THREADS - 1) ? LATE_EXTRA : 0);
}

/* Each of the 7 others waits LATE_EXTRA for the late worker, whose work
   is the only delay (the intervals start at the team's begin, the same
   on every thread; the late worker never waited before in them): all of
   it is charged to that work, short-term, on the late worker's location:
   7 x 30 ticks per region it was late in (5 each). */
static void planted_barrier_waits_have_their_delay_costs_in_threads(void **state) {
  (void)state;
  az_run run;
  char *text =
      team_trace(LATE_THREADS, LATE_REGIONS, 300, 3 + 100 + LATE_EXTRA + 10, late_worker_work);
  az_run_text(&run, text);
  free(text);
  assert_int_equal(run.status, 0);
  const char *work = "main;!$omp parallel @t.c:1;work";
  double each = LATE_REGIONS / (LATE_THREADS - 1) * (LATE_THREADS - 1) * LATE_EXTRA * 1e-9;
  for (int k = 1; k < LATE_THREADS; k++)
    assert_float_equal(az_run_value(&run, "delay_ompbarrier", work, k), each, 1e-15);
  assert_float_equal(az_run_value(&run, "delay_ompbarrier", work, 0), 0, 0);
  assert_float_equal(az_run_total(&run, "delay_ompbarrier"), (LATE_THREADS - 1) * each, 1e-14);
  same_report_with_threads(&run, 16);
  same_report_with_threads(&run, 3);
  az_run_free(&run);
}

/* Workers whose team bodies lack the parallel region: the forward pass
   puts their outermost region under the master's call path at the fork,
   the backward pass (worker_parent, pass_delay.c) at the root, a call
   path only the backward pass creates: in a thread its handler defers to
   the replay thread, which creates it in the serial order. */
static void call_paths_of_the_backward_pass_are_made_in_the_serial_order(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 3\nteam 5\nregion main compiler function main\n"
                    "region work user function work\nregion io user function io\n"
                    "region par openmp parallel !$omp parallel @t.c:1\n"
                    "region ibar openmp implicit_barrier !$omp implicit barrier @t.c:2\n"
                    "loc 0.0\n0 enter main\n10 fork 3\n11 teambegin 5\n12 enter par\n"
                    "13 enter work\n100 leave\n100 enter ibar\n200 leave\n201 leave\n"
                    "202 teamend 5\n203 join\n300 fork 3\n301 teambegin 5\n302 enter par\n"
                    "303 enter io\n350 leave\n350 enter ibar\n400 leave\n401 leave\n"
                    "402 teamend 5\n403 join\n500 leave\n"
                    "loc 0.1\n11 teambegin 5\n13 enter work\n150 leave\n150 enter ibar\n"
                    "200 leave\n202 teamend 5\n301 teambegin 5\n303 enter io\n390 leave\n"
                    "390 enter ibar\n400 leave\n402 teamend 5\n"
                    "loc 0.2\n11 teambegin 5\n13 enter io\n190 leave\n190 enter ibar\n"
                    "200 leave\n202 teamend 5\n301 teambegin 5\n303 enter work\n330 leave\n"
                    "330 enter ibar\n400 leave\n402 teamend 5\n");
  assert_int_equal(run.status, 0);
  same_report_with_threads(&run, 2);
  same_report_with_threads(&run, 5);
  az_run_free(&run);
}

enum { SHARED_THREADS = 5, SHARED_REGIONS = 24, SHARED_PERIOD = 400 };

/* When thread k enters the critical section of region i (shared_trace):
   after its work, the workers' own region and the message. */
static int shared_crit_enter(int i, int k) {
  int at = 10 + i * SHARED_PERIOD, x = at + 3 + unequal_work(i, k);
  if (k && i % 4 == 1) x += 1;
  if (k == 1 && i % 5 == 2) x += 3;
  if (!k && i % 5 == 2) x = at + 127;
  return x;
}

/* One rank of SHARED_THREADS threads in SHARED_REGIONS parallel regions,
   each thread working work(i, k) and then, one after the other 6 ticks
   apart, holding lock 1 in a critical section for 5 ticks before the
   region's barrier (entered a tick later: a window may end there), which
   all leave at 200 after the fork (each enters the
   critical section when done: shared_crit_enter).  From region 1
   on, every fourth, the workers enter a region the master never enters
   (the first time a call path new in the window); every fifth from
   region 2 on thread 1 sends the master a message (MPI on a worker). */
static char *shared_trace(void) {
  size_t size = 1 << 20, n = 0;
  char *t = malloc(size);
  assert_non_null(t);
  n += (size_t)snprintf(
      t + n, size - n,
      "process 0 threads %d\nteam 5\nregion main compiler function main\n"
      "region work user function work\nregion wonly user function wonly\n"
      "region send mpi point2point MPI_Send\nregion recv mpi point2point MPI_Recv\n"
      "region par openmp parallel !$omp parallel @t.c:1\n"
      "region ibar openmp implicit_barrier !$omp implicit barrier @t.c:2\n"
      "region crit openmp critical !$omp critical @t.c:3\n",
      SHARED_THREADS);
  for (int k = 0; k < SHARED_THREADS; k++) {
    n += (size_t)snprintf(t + n, size - n, "loc 0.%d\n", k);
    if (!k) n += (size_t)snprintf(t + n, size - n, "0 enter main\n");
    for (int i = 0, at = 10; i < SHARED_REGIONS; i++, at += SHARED_PERIOD) {
      int x = at + 3 + unequal_work(i, k), lock_at = at + 130 + 6 * k, out = at + 200;
      if (!k) n += (size_t)snprintf(t + n, size - n, "%d fork %d\n", at, SHARED_THREADS);
      n += (size_t)snprintf(t + n, size - n,
                            "%d teambegin 5\n%d enter par\n%d enter work\n%d leave\n", at + 1,
                            at + 2, at + 3, x);
      if (k && i % 4 == 1)
        n += (size_t)snprintf(t + n, size - n, "%d enter wonly\n%d leave\n", x, x + 1), x += 1;
      if (k == 1 && i % 5 == 2)
        n += (size_t)snprintf(t + n, size - n, "%d enter send\n%d send 0 0 7 64\n%d leave\n", x,
                              x + 1, x + 2);
      if (!k && i % 5 == 2)
        n += (size_t)snprintf(t + n, size - n, "%d enter recv\n%d recv 0 0 7 64\n%d leave\n", x,
                              at + 125, at + 126);
      n += (size_t)snprintf(t + n, size - n,
                            "%d enter crit\n%d acquire 1 %d\n%d release 1 %d\n%d leave\n"
                            "%d enter ibar\n%d leave\n%d leave\n%d teamend 5\n",
                            shared_crit_enter(i, k), lock_at, i * SHARED_THREADS + k + 1,
                            lock_at + 5, i * SHARED_THREADS + k + 1, lock_at + 5, lock_at + 6, out,
                            out + 1, out + 2);
      if (!k) n += (size_t)snprintf(t + n, size - n, "%d join\n", out + 3);
    }
    if (!k)
      n += (size_t)snprintf(t + n, size - n, "%d leave\n", SHARED_REGIONS * SHARED_PERIOD + 100);
  }
  return t;
}

/* The forward pass's workers' windows in jobs (az_pass.local, forward):
   team instances joined, barrier records, locks and leaves logged and
   applied in the serial order, MPI and a new call path deferred.  Thread
   k enters the barrier 6 x k ticks after the master, the last one 24
   after: it waits 6 x (4 - k) in each region; a worker acquires the lock
   when the previous thread released it, 1 tick before its own
   acquisition: it waited from its Enter of the critical section to
   there.  With 1, 3 and 5 threads, in windows of 7, 16 and 64 events,
   the same report. */
static void shared_team_updates_keep_the_serial_order_in_threads(void **state) {
  (void)state;
  az_run run;
  char *text = shared_trace();
  az_run_text(&run, text);
  free(text);
  assert_int_equal(run.status, 0);
  const char *ibar = "main;!$omp parallel @t.c:1;!$omp implicit barrier @t.c:2";
  for (int k = 0; k < SHARED_THREADS; k++)
    assert_float_equal(az_run_value(&run, "omp_ibarrier_wait", ibar, k),
                       SHARED_REGIONS * 6 * (SHARED_THREADS - 1 - k) * 1e-9, 1e-15);
  const char *crit = "main;!$omp parallel @t.c:1;!$omp critical @t.c:3";
  for (int k = 0; k < SHARED_THREADS; k++) {
    int64_t ticks = 0;
    for (int i = 0; k && i < SHARED_REGIONS; i++)
      ticks += 10 + i * SHARED_PERIOD + 130 + 6 * k - 1 - shared_crit_enter(i, k);
    assert_float_equal(az_run_value(&run, "omp_critical_contention", crit, k), (double)ticks * 1e-9,
                       1e-15);
  }
  const int windows[] = {7, 16, 64}, threads[] = {1, 3, 5};
  for (size_t w = 0; w < sizeof windows / sizeof *windows; w++)
    same_report_in(&run, threads, sizeof threads / sizeof *threads, windows[w]);
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(default_threads_follow_the_affinity_mask),
      cmocka_unit_test(more_threads_than_locations_same_report),
      cmocka_unit_test(planted_barrier_waits_have_their_delay_costs_in_threads),
      cmocka_unit_test(call_paths_of_the_backward_pass_are_made_in_the_serial_order),
      cmocka_unit_test(shared_team_updates_keep_the_serial_order_in_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
