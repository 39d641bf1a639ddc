/* test_measure_throttle.c -- automatic throttling (POMP_THROTTLE): a tiny
   function called very often is switched off after exactly the first
   CALLS calls of a thread, the others are counted as not recorded
   (measure.log, stderr, throttled.txt), the trace stays balanced; the
   end-of-run advice when a few functions make most of the events. */
#include "measure_test.h"

static size_t count_all(const tr_trace *t, const char *line) {
  size_t n = 0;
  for (size_t i = 0; i < t->nlocs; i++) n += tr_count(&t->locs[i], line);
  return n;
}

static void test_tiny_function_recorded_for_its_first_100000_calls(void **state) {
  (void)state;
  sc_result r;
  tr_trace t;
  mt_run("sc_throttle", "throttle_default", NULL, NULL, "150000 200\n", &r, &t);
  assert_int_equal(tr_count(&t.locs[0], "Enter tiny"), 100000);
  assert_int_equal(tr_count(&t.locs[0], "Leave tiny"), 100000);
  assert_int_equal(tr_count(&t.locs[0], "Enter slow"), 200); /* 200 calls: never tested */
  assert_string_equal(sc_file(r.dir, "throttled.txt"),
                      "# pomp throttled functions 1: rank, calls recorded, calls not recorded, "
                      "function (POMP_THROTTLE=100000,10)\n"
                      "0\t100000\t200000\ttiny\n");
  assert_non_null(strstr(sc_file(r.dir, "measure.log"),
                         "throttled: tiny: 100000 calls recorded, then 200000 not recorded\n"));
  assert_non_null(strstr(r.err, "libpomp: 1 function switched off (POMP_THROTTLE: 100000 calls "
                                "of under 10 us each), 200000 calls not recorded: tiny "
                                "(200000 calls not recorded)\n"));
  tr_free(&t);
}

static void test_throttle_off_records_every_call(void **state) {
  (void)state;
  const char *args[] = {"30000", NULL};
  const char *envs[] = {"POMP_THROTTLE=0", NULL};
  sc_result r;
  tr_trace t;
  mt_run("sc_throttle", "throttle_off", args, envs, "15000 200\n", &r, &t);
  assert_int_equal(tr_count(&t.locs[0], "Enter tiny"), 30000);
  assert_string_equal(sc_file(r.dir, "throttled.txt"), "");
  assert_null(strstr(r.err, "switched off"));
  tr_free(&t);
}

/* 50 calls under 1 ms: slow() too; the limit takes fractions. */
static void test_throttle_calls_and_time_are_tunable(void **state) {
  (void)state;
  const char *args[] = {"1000", NULL};
  const char *envs[] = {"POMP_THROTTLE=50,999.5", NULL};
  sc_result r;
  tr_trace t;
  mt_run("sc_throttle", "throttle_tuned", args, envs, "500 200\n", &r, &t);
  assert_int_equal(tr_count(&t.locs[0], "Enter tiny"), 50);
  assert_int_equal(tr_count(&t.locs[0], "Enter slow"), 50);
  assert_int_equal(tr_count(&t.locs[0], "Leave slow"), 50);
  const char *log = sc_file(r.dir, "measure.log");
  assert_non_null(strstr(log, "throttled: tiny: 50 calls recorded, then 950 not recorded\n"));
  assert_non_null(strstr(log, "throttled: slow: 50 calls recorded, then 150 not recorded\n"));
  assert_non_null(strstr(log, "  POMP_THROTTLE       50,999.5"));
  tr_free(&t);
}

static void test_bad_throttle_value_keeps_the_default(void **state) {
  (void)state;
  const char *args[] = {"1000", NULL};
  const char *envs[] = {"POMP_THROTTLE=50", NULL};
  sc_result r;
  tr_trace t;
  mt_run("sc_throttle", "throttle_bad", args, envs, "500 200\n", &r, &t);
  assert_int_equal(tr_count(&t.locs[0], "Enter tiny"), 1000);
  assert_non_null(strstr(r.err, "POMP_THROTTLE=50 is not valid (accepted: CALLS,US (100000,10; "
                                "US may have a fraction), 0 or off); using the default "
                                "100000,10"));
  tr_free(&t);
}

/* Two threads: each records at most the first 1000 of its calls, every
   call is either recorded or counted as not recorded, the trace is
   balanced on every location. */
static void test_threads_share_the_decision_and_count_every_call(void **state) {
  (void)state;
  const char *args[] = {"100000", "2", NULL};
  const char *envs[] = {"POMP_THROTTLE=1000,10", "OMP_WAIT_POLICY=passive", NULL};
  sc_result r;
  tr_trace t;
  mt_run("sc_throttle", "throttle_omp", args, envs, "100000 200\n", &r, &t);
  assert_int_equal(t.nlocs, 2);
  size_t recorded = 0;
  for (size_t i = 0; i < t.nlocs; i++) {
    size_t enters = tr_count(&t.locs[i], "Enter tiny");
    assert_int_equal(enters, tr_count(&t.locs[i], "Leave tiny"));
    assert_true(enters <= 1000);
    recorded += enters;
  }
  assert_true(recorded >= 1000);
  unsigned long long calls = 0, dropped = 0;
  const char *line = strchr(sc_file(r.dir, "throttled.txt"), '\n');
  assert_non_null(line);
  assert_int_equal(sscanf(line + 1, "0\t%llu\t%llu\ttiny\n", &calls, &dropped), 2);
  assert_int_equal(calls, recorded);
  assert_int_equal(calls + dropped, 200000);
  tr_free(&t);
}

/* sc_throttle_nest's events, as they must be with POMP_THROTTLE=50,...:
   mid(1001), mid's 50th finished call, switches it off inside mid(49)
   inside outer(24); the Leave of mid(49), skipped, is written with
   outer(24)'s; from outer(25) on, mid's calls are gone and leaf, which
   they call, stays (one per outer). */
static char *throttle_nest_expected(void) {
  size_t size = 8192, used = 0;
  char *s = malloc(size);
  used += (size_t)snprintf(s + used, size - used, "Enter main\n");
  for (int k = 0; k < 40; k++) {
    used += (size_t)snprintf(s + used, size - used, "Enter outer\n");
    if (k < 24)
      used += (size_t)snprintf(s + used, size - used,
                               "Enter mid\nLeave mid\n"
                               "Enter mid\nEnter leaf\nLeave leaf\nLeave mid\n");
    else if (k == 24)
      used += (size_t)snprintf(s + used, size - used,
                               "Enter mid\nLeave mid\n"
                               "Enter mid\nEnter mid\nEnter leaf\nLeave leaf\nLeave mid\n"
                               "Enter leaf\nLeave leaf\nLeave mid\n");
    else used += (size_t)snprintf(s + used, size - used, "Enter leaf\nLeave leaf\n");
    used += (size_t)snprintf(s + used, size - used, "Leave outer\n");
  }
  snprintf(s + used, size - used, "Leave main\n");
  return s;
}

/* A function switched off while nested inside a recorded one, around a
   third, with an outer call of itself in flight: every call up to the
   switch-off recorded, none after, the in-flight call left with its
   caller, the trace well nested and in time order (mt_read_ok). */
static void test_function_switched_off_inside_and_around_others(void **state) {
  (void)state;
  const char *envs[] = {"POMP_THROTTLE=50,1000", NULL};
  sc_result r;
  tr_trace t;
  mt_run("sc_throttle_nest", "throttle_nest", NULL, envs, "6843\n", &r, &t);
  assert_int_equal(t.nlocs, 1);
  char *expected = throttle_nest_expected();
  mt_expect_events(&t.locs[0], expected);
  free(expected);
  /* mid(49)'s Leave at outer(24)'s: the 51st "Leave mid" is the last */
  const tr_location *l = &t.locs[0];
  size_t mid_leaves = 0, outer_leaves = 0;
  uint64_t mid49_left = 0, outer24_left = 0;
  for (size_t i = 0; i < l->nevents; i++) {
    uint64_t time = t.events[l->at[i]].time;
    if (!strcmp(l->lines[i], "Leave mid") && ++mid_leaves == 51) mid49_left = time;
    if (!strcmp(l->lines[i], "Leave outer") && ++outer_leaves == 25) outer24_left = time;
  }
  assert_int_equal(mid_leaves, 51);
  assert_int_equal(mid49_left, outer24_left);
  /* recorded: the 51 calls entered (mid(49)'s too); not recorded: two
     per outer(25..39) */
  assert_string_equal(sc_file(r.dir, "throttled.txt"),
                      "# pomp throttled functions 1: rank, calls recorded, calls not recorded, "
                      "function (POMP_THROTTLE=50,1000)\n"
                      "0\t51\t30\tmid\n");
  tr_free(&t);
}

/* gfortran's module procedure, throttled like a C function. */
static void test_fortran_function_is_throttled(void **state) {
  (void)state;
  sc_result r;
  tr_trace t;
  mt_run("sc_fthrottle", "throttle_fortran", NULL, NULL, "150000\n", &r, &t);
  assert_int_equal(count_all(&t, "Enter sc_tiny::tiny"), 100000);
  assert_int_equal(count_all(&t, "Leave sc_tiny::tiny"), 100000);
  assert_non_null(strstr(sc_file(r.dir, "throttled.txt"), "\n0\t100000\t200000\tsc_tiny::tiny\n"));
  tr_free(&t);
}

/* 1.2 M events, nearly all from tiny: the end of the run names it and
   the score command; 400 k events do not. */
static void test_heavy_functions_get_the_filter_advice(void **state) {
  (void)state;
  const char *args[] = {"600000", NULL};
  const char *envs[] = {"POMP_THROTTLE=0", NULL};
  sc_result r;
  tr_trace t;
  mt_run("sc_throttle", "advice", args, envs, "300000 200\n", &r, &t);
  char expected[1200];
  snprintf(expected, sizeof expected,
           "libpomp: 4 functions made 100%% of the 1200404 user-function events (tiny, slow, "
           "main, start); to filter them: pomp-report score %s --suggest-filter\n",
           r.dir);
  assert_non_null(strstr(r.err, expected));
  assert_non_null(strstr(sc_file(r.dir, "measure.log"), expected + strlen("libpomp: ")));
  tr_free(&t);
  const char *few[] = {"200000", NULL};
  mt_run("sc_throttle", "no_advice", few, envs, "100000 200\n", &r, &t);
  assert_null(strstr(r.err, "suggest-filter"));
  tr_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tiny_function_recorded_for_its_first_100000_calls),
      cmocka_unit_test(test_throttle_off_records_every_call),
      cmocka_unit_test(test_throttle_calls_and_time_are_tunable),
      cmocka_unit_test(test_bad_throttle_value_keeps_the_default),
      cmocka_unit_test(test_threads_share_the_decision_and_count_every_call),
      cmocka_unit_test(test_function_switched_off_inside_and_around_others),
#ifdef POMP_TEST_FORTRAN
      cmocka_unit_test(test_fortran_function_is_throttled),
#endif
      cmocka_unit_test(test_heavy_functions_get_the_filter_advice),
  };
  return cmocka_run_group_tests(tests, NULL, mt_teardown);
}
