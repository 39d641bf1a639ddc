/* test_measure_run.c -- the life of an experiment: a program killed by
   SIGTERM/SIGINT or abort() leaves a readable trace and says so in
   measure.log; an existing experiment directory is never touched;
   POMP_ENABLE=0 measures nothing. */
#include <signal.h>
#include <sys/stat.h>

#include "measure_test.h"

static const char died_events[] =
    "Enter work\nLeave work\n"
    "Enter work\nLeave work\n"
    "Enter work\nLeave work\n"
    "Enter doomed\nLeave doomed\n"; /* left when the trace was written */

static void check_died(const char *how, int sig, const char *name) {
  const char *args[] = {how, NULL};
  char tag[32];
  snprintf(tag, sizeof tag, "died_%s", how);
  sc_result r;
  sc_run("sc_signal", tag, args, NULL, &r);
  assert_true(WIFSIGNALED(r.status));
  assert_int_equal(WTERMSIG(r.status), sig);
  tr_trace t;
  assert_int_equal(tr_read(r.trace, &t, TR_LINES), 0);
  assert_int_equal(t.nlocs, 1);
  mt_expect_events(&t.locs[0], died_events);
  char expected[256];
  snprintf(expected, sizeof expected,
           "signal %s received: writing the trace of the events so far\n", name);
  const char *log = sc_file(r.dir, "measure.log");
  assert_non_null(strstr(log, expected));
  snprintf(expected, sizeof expected, "measurement finished (%s)\n", name);
  assert_non_null(strstr(log, expected));
  snprintf(expected, sizeof expected, "trace written; the program dies of %s\n", name);
  assert_non_null(strstr(log, expected));
  tr_free(&t);
}

static void test_sigterm(void **state) {
  (void)state;
  check_died("term", SIGTERM, "SIGTERM");
}

static void test_sigint(void **state) {
  (void)state;
  check_died("int", SIGINT, "SIGINT");
}

static void test_abort(void **state) {
  (void)state;
  check_died("abort", SIGABRT, "SIGABRT");
}

/* SIGTERM while another thread records as fast as it can: the trace is
   still readable, and every location's events are properly nested. */
static void test_sigterm_while_recording(void **state) {
  (void)state;
  sc_result r;
  sc_run("sc_signal", "died_omp", (const char *[]){"omp", NULL}, NULL, &r);
  assert_true(WIFSIGNALED(r.status));
  assert_int_equal(WTERMSIG(r.status), SIGTERM);
  tr_trace t;
  assert_int_equal(tr_read(r.trace, &t, TR_LINES), 0);
  assert_int_equal(t.nlocs, 2);
  for (size_t i = 0; i < t.nlocs; i++) {
    tr_location *l = &t.locs[i];
    assert_int_equal(l->decreasing, 0);
    assert_int_equal(l->declared_events, l->nevents);
    assert_int_equal(tr_count(l, "Enter spin"), tr_count(l, "Leave spin"));
  }
  /* the interrupted region's team ends on both, the fork joins on the master */
  assert_string_equal(t.locs[0].lines[t.locs[0].nevents - 2], "ThreadTeamEnd OpenMP thread team");
  assert_string_equal(t.locs[0].lines[t.locs[0].nevents - 1], "ThreadJoin");
  assert_string_equal(t.locs[1].lines[t.locs[1].nevents - 1], "ThreadTeamEnd OpenMP thread team");
  assert_true(tr_count(&t.locs[1], "Enter spin") >= 1000);
  assert_non_null(
      strstr(sc_file(r.dir, "measure.log"), "trace written; the program dies of SIGTERM\n"));
  tr_free(&t);
}

/* A forked child (no exec) is not measured and does not write the trace
   at its exit: the experiment holds the parent's events only. */
static void test_forked_child_not_measured(void **state) {
  (void)state;
  mt_expect_single_location("sc_fork", "fork", "child exit 0\n", "Enter parent\nLeave parent\n");
}

/* An existing experiment directory is kept as it is; the run writes the
   first free numbered successor and says so on stderr and in its log. */
static void test_existing_directory_kept(void **state) {
  (void)state;
  char dir[600], marker[700], next[700];
  snprintf(dir, sizeof dir, "%s/taken", sc_tmpdir());
  assert_int_equal(mkdir(dir, 0755), 0);
  snprintf(marker, sizeof marker, "%s/mine.txt", dir);
  FILE *f = fopen(marker, "w");
  fputs("precious\n", f);
  fclose(f);
  sc_result r;
  sc_run("sc_flush", "taken", (const char *[]){"10", NULL}, NULL, &r);
  assert_true(WIFEXITED(r.status));
  assert_int_equal(WEXITSTATUS(r.status), 0);
  assert_string_equal(r.out, "10 visits\n");
  char expected[2048];
  snprintf(expected, sizeof expected,
           "libpomp: warning: experiment directory '%s' exists; writing '%s.1' "
           "(POMP_EXPERIMENT names another)\n",
           dir, dir);
  assert_string_equal(r.err, expected);
  assert_string_equal(sc_file(dir, "mine.txt"), "precious\n");
  struct stat st;
  assert_int_not_equal(stat(r.trace, &st), 0);
  snprintf(next, sizeof next, "%s.1/traces.otf2", dir);
  assert_int_equal(stat(next, &st), 0);
  snprintf(next, sizeof next, "%s.1", dir);
  assert_non_null(strstr(sc_file(next, "measure.log"), "exists; writing"));
}

/* POMP_Init/POMP_Finalize: the trace is written at POMP_Finalize and
   later events are ignored. */
static void test_explicit_init_finalize(void **state) {
  (void)state;
  sc_result r;
  tr_trace t;
  mt_run("sc_flush", "explicit", (const char *[]){"7", "explicit", NULL}, NULL, NULL, &r, &t);
  assert_int_equal(tr_count(&t.locs[0], "Enter step"), 7);
  assert_int_equal(tr_count(&t.locs[0], "Leave step"), 7);
  assert_non_null(strstr(sc_file(r.dir, "measure.log"), "measurement finished (POMP_Finalize)"));
  tr_free(&t);
}

static void test_disabled(void **state) {
  (void)state;
  const char *envs[] = {"POMP_ENABLE=no", NULL};
  sc_result r;
  sc_run("sc_flush", "disabled", (const char *[]){"10", NULL}, envs, &r);
  assert_true(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
  assert_string_equal(r.out, "10 visits\n");
  assert_string_equal(r.err, "");
  struct stat st;
  assert_int_not_equal(stat(r.dir, &st), 0);
}

static void test_bad_variable_warns(void **state) {
  (void)state;
  const char *envs[] = {"POMP_BUFFER=lots", NULL};
  sc_result r;
  sc_run("sc_flush", "badvar", (const char *[]){"10", NULL}, envs, &r);
  assert_true(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
  assert_string_equal(r.err, "libpomp: warning: POMP_BUFFER=lots is not valid (accepted: bytes "
                             "with an optional k, M or G (512k, 16M, 1G), from 256k to this "
                             "machine's memory); using the default 16M\n");
  tr_trace t;
  assert_int_equal(tr_read(r.trace, &t, TR_LINES), 0);
  assert_int_equal(tr_count(&t.locs[0], "Enter step"), 10);
  /* every variable is documented in the log */
  const char *log = sc_file(r.dir, "measure.log");
  const char *vars[] = {"POMP_ENABLE",    "POMP_EXPERIMENT", "POMP_FILTER", "POMP_BUFFER",
                        "POMP_FUNCTIONS", "POMP_SIGNALS",    "POMP_VERBOSE"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) assert_non_null(strstr(log, vars[i]));
  tr_free(&t);
}

/* Every POMP_ variable is checked alike (issue 18): a value outside the
   accepted forms is one warning naming them, and the default is used. */
static void every_variable_is_validated_with_the_accepted_forms(void **state) {
  (void)state;
  static const struct {
    const char *env, *warning;
  } cases[] = {
      {"POMP_BUFFER=16MB", "POMP_BUFFER=16MB is not valid (accepted: bytes with an optional k, "
                           "M or G (512k, 16M, 1G), from 256k to this machine's memory); using "
                           "the default 16M"},
      {"POMP_BUFFER=99999999G", "POMP_BUFFER=99999999G is not valid (accepted: bytes with an "
                                "optional k, M or G (512k, 16M, 1G), from 256k to this machine's "
                                "memory); using the default 16M"},
      {"POMP_FUNCTIONS=maybe", "POMP_FUNCTIONS=maybe is not valid (accepted: 1, 0, yes, no, "
                               "true, false, on, off); using the default 1"},
      {"POMP_MPI_CLOCKSYNC=maybe", "POMP_MPI_CLOCKSYNC=maybe is not valid (accepted: auto, "
                                   "always); using the default auto"},
      {"POMP_VERBOSE=3", "POMP_VERBOSE=3 is not valid (accepted: 0, 1, 2); using the default 0"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char tag[32], want[400];
    snprintf(tag, sizeof tag, "badvar%zu", i);
    sc_result r;
    sc_run("sc_flush", tag, (const char *[]){"10", NULL}, (const char *[]){cases[i].env, NULL}, &r);
    assert_true(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
    snprintf(want, sizeof want, "libpomp: warning: %s\n", cases[i].warning);
    assert_string_equal(r.err, want);
    tr_trace t;
    assert_int_equal(tr_read(r.trace, &t, TR_LINES), 0);
    assert_int_equal(tr_count(&t.locs[0], "Enter step"), 10);
    tr_free(&t);
  }
  /* the accepted forms are accepted silently */
  sc_result r;
  sc_run(
      "sc_flush", "goodvar", (const char *[]){"10", NULL},
      (const char *[]){"POMP_BUFFER=512k", "POMP_FUNCTIONS=yes", "POMP_MPI_CLOCKSYNC=always", NULL},
      &r);
  assert_string_equal(r.err, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_variable_is_validated_with_the_accepted_forms),
      cmocka_unit_test(test_sigterm),
      cmocka_unit_test(test_sigint),
      cmocka_unit_test(test_abort),
      cmocka_unit_test(test_sigterm_while_recording),
      cmocka_unit_test(test_forked_child_not_measured),
      cmocka_unit_test(test_existing_directory_kept),
      cmocka_unit_test(test_explicit_init_finalize),
      cmocka_unit_test(test_disabled),
      cmocka_unit_test(test_bad_variable_warns),
  };
  return cmocka_run_group_tests(tests, NULL, mt_teardown);
}
