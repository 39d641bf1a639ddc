/* test_measure_clock.c -- the events' clock (pm_clock.h): which source is
   chosen and why, the TSC conversion driven by a synthetic clock (exact:
   no timing), and the real clock against clock_gettime on several
   threads. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pm_clock.h"

/* ------------------------------------------------------------ the choice */

static void test_decide(void **state) {
  (void)state;
  const pm_tsc_facts good = {1, 1, 1, "tsc"}, vm = {1, 1, 1, "kvm-clock"};
  const pm_tsc_facts flags_only = {1, 0, 1, "tsc"}, cpuid_only = {1, 1, 0, "tsc"};
  const pm_tsc_facts variant = {1, 0, 0, "tsc"}, arm = {0, 0, 0, "arch_sys_counter"};
  const char *why;
  assert_int_equal(pm_clock_decide(PM_CLOCK_AUTO, &good, &why), PM_CLOCK_TSC);
  assert_string_equal(why, "invariant TSC, and the kernel's clocksource is tsc");
  assert_int_equal(pm_clock_decide(PM_CLOCK_AUTO, &flags_only, &why), PM_CLOCK_TSC);
  assert_int_equal(pm_clock_decide(PM_CLOCK_AUTO, &cpuid_only, &why), PM_CLOCK_TSC);
  assert_int_equal(pm_clock_decide(PM_CLOCK_AUTO, &vm, &why), PM_CLOCK_MONOTONIC);
  assert_string_equal(why, "the kernel does not keep time with the TSC (clocksource is not tsc)");
  assert_int_equal(pm_clock_decide(PM_CLOCK_AUTO, &variant, &why), PM_CLOCK_MONOTONIC);
  assert_string_equal(why, "the TSC is not invariant (cpuid, /proc/cpuinfo)");
  assert_int_equal(pm_clock_decide(PM_CLOCK_AUTO, &arm, &why), PM_CLOCK_MONOTONIC);
  assert_string_equal(why, "no TSC on this architecture");
  assert_int_equal(pm_clock_decide(PM_CLOCK_TSC, &arm, &why), PM_CLOCK_MONOTONIC);
  assert_int_equal(pm_clock_decide(PM_CLOCK_MONOTONIC, &good, &why), PM_CLOCK_MONOTONIC);
  assert_string_equal(why, "POMP_CLOCK=monotonic");
  assert_int_equal(pm_clock_decide(PM_CLOCK_TSC, &vm, &why), PM_CLOCK_TSC); /* forced */
  assert_string_equal(why, "POMP_CLOCK=tsc although the kernel's clocksource is not tsc");
  assert_int_equal(pm_clock_decide(PM_CLOCK_TSC, &variant, &why), PM_CLOCK_TSC);
  assert_string_equal(why, "POMP_CLOCK=tsc although the TSC is not invariant");
}

/* ------------------------------------------- the conversion, synthetic */

/* A 3 GHz TSC; CLOCK_MONOTONIC runs `extra_ppm` faster from tick `change`
   on (an NTP frequency correction). */
#define GHZ3 3
#define T0 3000000000ull /* ticks at the first reference pair (1 s) */
#define M0 1000000000ull
static uint64_t change = UINT64_MAX;
static double extra_ppm;

static uint64_t mono(uint64_t t) {
  double ns = (double)(t - T0) / GHZ3;
  if (t > change) ns += (double)(t - change) / GHZ3 * extra_ppm * 1e-6;
  return M0 + (uint64_t)ns;
}

/* Starts like pm_clock_init, the second pair 20 ns off (a bracket's
   error): the first rate is 10 ppm wrong. */
static void start_synthetic(void) {
  change = UINT64_MAX;
  uint64_t t1 = T0 + 6000000; /* 2 ms */
  pm_tsc_start(T0, mono(T0), t1, mono(t1) + 20);
}

/* Re-anchors like pm_clock_slow once the refresh point is passed. */
static void maybe_anchor(uint64_t t) {
  const pm_clock_epoch *e = atomic_load(&pm_clock_current);
  if (t >= e->tsc0 && t - e->tsc0 >= e->refresh) pm_tsc_anchor(t, mono(t));
}

typedef struct sweep {
  uint64_t max_error, max_step;
  int decreases;
} sweep;

/* Converts every `step` ticks from `from` to `to`, anchoring as a thread
   reading the clock would. */
static sweep run(uint64_t from, uint64_t to, uint64_t step) {
  sweep s = {0, 0, 0};
  uint64_t last = 0;
  for (uint64_t t = from; t < to; t += step) {
    maybe_anchor(t);
    uint64_t ns = pm_tsc_convert(t), m = mono(t);
    uint64_t err = ns > m ? ns - m : m - ns;
    if (err > s.max_error) s.max_error = err;
    if (last && ns < last) s.decreases++;
    if (last && ns - last > s.max_step) s.max_step = ns - last;
    last = ns;
  }
  return s;
}

static void test_tsc_tracks_monotonic(void **state) {
  (void)state;
  start_synthetic();
  uint64_t step = 30000; /* 10 us */
  /* first second: the 10 ppm start error (100 ns after 10 ms) is slewed
     away; the slope never differs from the rate by more than 1/1024 */
  sweep a = run(T0 + 6000000, T0 + 3000000000ull, step);
  assert_int_equal(a.decreases, 0);
  assert_true(a.max_error <= 200);
  assert_true(a.max_step <= 10000 + 10000 / 1024 + 1);
  /* 9 more seconds, re-anchored every second: error at rounding level */
  sweep b = run(T0 + 3000000000ull, T0 + 30000000000ull, step * 100);
  assert_int_equal(b.decreases, 0);
  assert_true(b.max_error <= 5);
  unsigned epochs = pm_tsc_epochs();
  assert_int_equal(epochs, 41); /* every age/8 (>= 10 ms, <= 1 s) over 10 s */
  printf("synthetic: %u epochs, max error %llu ns in the first s, %llu ns after\n", epochs,
         (unsigned long long)a.max_error, (unsigned long long)b.max_error);
}

static void test_tsc_follows_ntp_change(void **state) {
  (void)state;
  start_synthetic();
  run(T0 + 6000000, T0 + 6000000000ull, 3000000);
  change = T0 + 6000000000ull; /* CLOCK_MONOTONIC 100 ppm faster from 2 s */
  extra_ppm = 100;
  sweep s = run(T0 + 6000000000ull, T0 + 60000000000ull, 300000);
  assert_int_equal(s.decreases, 0);
  /* behind by at most the change over about two intervals (1 s) */
  assert_true(s.max_error <= 250000);
  printf("synthetic, +100 ppm at 2 s: max error %llu ns\n", (unsigned long long)s.max_error);
  extra_ppm = 0;
}

/* A thread that loaded the old epoch and reads ticks past its validity
   sees time stand still until the next epoch; the next epoch gives every
   tick before its start exactly the old value (one function for all). */
static void test_tsc_epoch_hand_over(void **state) {
  (void)state;
  start_synthetic();
  const pm_clock_epoch *e = atomic_load(&pm_clock_current);
  uint64_t end = e->tsc0 + e->valid;
  uint64_t flat = pm_tsc_convert(end);
  assert_int_equal(pm_tsc_convert(end + 12345), flat);
  uint64_t before[8];
  for (int i = 0; i < 8; i++) before[i] = pm_tsc_convert(e->tsc0 + e->valid / 8 * (uint64_t)i);
  pm_tsc_anchor(e->tsc0 + e->refresh, mono(e->tsc0 + e->refresh));
  const pm_clock_epoch *n = atomic_load(&pm_clock_current);
  assert_ptr_not_equal(n, e);
  assert_int_equal(n->tsc0, end); /* the new line starts where the old one ends */
  assert_int_equal(n->ns0, flat);
  for (int i = 0; i < 8; i++)
    assert_int_equal(pm_tsc_convert(e->tsc0 + e->valid / 8 * (uint64_t)i), before[i]);
  assert_true(pm_tsc_convert(end + 12345) > flat);
  /* an anchor that comes too early (another thread anchored) is ignored */
  pm_tsc_anchor(n->tsc0 + 1, mono(n->tsc0 + 1));
  assert_ptr_equal(atomic_load(&pm_clock_current), n);
}

/* No clock read for 3 s (the first line, 10 ppm off, would be 30 us off
   by then): the next epoch starts on CLOCK_MONOTONIC itself. */
static void test_tsc_after_a_gap(void **state) {
  (void)state;
  start_synthetic();
  const pm_clock_epoch *e = atomic_load(&pm_clock_current);
  uint64_t flat = pm_tsc_convert(e->tsc0 + e->valid);
  uint64_t t = T0 + 9000000000ull;
  assert_true(pm_tsc_convert(t) == flat); /* time stood still past the end */
  pm_tsc_anchor(t, mono(t));
  const pm_clock_epoch *n = atomic_load(&pm_clock_current);
  assert_int_equal(n->tsc0, t);
  assert_int_equal(n->ns0, mono(t));
  assert_int_equal(pm_tsc_convert(t), mono(t));
  assert_true(pm_tsc_convert(t - 1000) >= flat); /* before the anchor: in between */
  assert_true(pm_tsc_convert(t - 1000) <= mono(t));
}

/* ------------------------------------------ the real clock, 4 threads */

#define THREADS 4
#define RUN_NS 300000000ull /* 300 ms */
#define BOUND_NS 10000      /* far above the error, far below what matters */
#define WINDOW 256

typedef struct probe {
  uint64_t max_dev; /* of the best-bracketed triple of each window */
  int windows, decreases;
} probe;

/* Triples (CLOCK_MONOTONIC, pm_clock, CLOCK_MONOTONIC); in each window
   of 256 the one with the shortest bracket counts (a preemption between
   the reads only widens a bracket): its pm_clock must lie within the
   bracket widened by BOUND_NS. */
static void *compare(void *arg) {
  probe *p = arg;
  uint64_t start = pm_clock_monotonic(), last = 0;
  while (pm_clock_monotonic() - start < RUN_NS) {
    uint64_t best = UINT64_MAX, dev = 0;
    for (int i = 0; i < WINDOW; i++) {
      uint64_t a = pm_clock_monotonic(), c = pm_clock(), b = pm_clock_monotonic();
      if (c < last) p->decreases++;
      last = c;
      if (b - a >= best) continue;
      best = b - a;
      dev = c < a ? a - c : c > b ? c - b : 0;
    }
    if (best > BOUND_NS) continue; /* preempted throughout: no verdict */
    p->windows++;
    if (dev > p->max_dev) p->max_dev = dev;
  }
  return NULL;
}

static void test_clock_against_clock_gettime(void **state) {
  (void)state;
  pm_clock_init(PM_CLOCK_AUTO);
  if (pm_clock_source() != PM_CLOCK_TSC) skip(); /* nothing to compare */
  pthread_t th[THREADS];
  probe p[THREADS];
  memset(p, 0, sizeof p);
  for (int i = 0; i < THREADS; i++) pthread_create(&th[i], NULL, compare, &p[i]);
  uint64_t max_dev = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(th[i], NULL);
    assert_int_equal(p[i].decreases, 0);
    assert_true(p[i].windows >= 10);
    assert_true(p[i].max_dev <= BOUND_NS);
    if (p[i].max_dev > max_dev) max_dev = p[i].max_dev;
  }
  assert_true(pm_tsc_epochs() >= 3); /* re-anchored during the run */
  printf("real TSC: %u epochs in 300 ms, max deviation %llu ns outside the bracket, "
         "max error at an anchor %llu ns\n",
         pm_tsc_epochs(), (unsigned long long)max_dev, (unsigned long long)pm_tsc_max_error());
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decide),
      cmocka_unit_test(test_tsc_tracks_monotonic),
      cmocka_unit_test(test_tsc_follows_ntp_change),
      cmocka_unit_test(test_tsc_epoch_hand_over),
      cmocka_unit_test(test_tsc_after_a_gap),
      cmocka_unit_test(test_clock_against_clock_gettime),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
