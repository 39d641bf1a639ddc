/* Bad traces: missing archive, a log without trace, missing and
   truncated event and local definition files, undefined regions, bad
   nesting.  Never a crash; a message naming the file, the location and
   the event position. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "az_test.h"
#include "tracegen.h"

static const char *const two_ranks =
    "process 0 threads 1\nprocess 1 threads 1\n"
    "region main compiler function main\n"
    "region recv mpi point2point MPI_Recv\n"
    "loc 0.0\n0 enter main\n10 enter recv\n20 leave\n30 enter recv\n40 leave\n"
    "50 leave\n"
    "loc 1.0\n0 enter main\n50 leave\n";

static void missing_archive(void **state) {
  (void)state;
  az_run run;
  az_run_mkdir(&run);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  char want[600];
  snprintf(want, sizeof want, "%s/traces.otf2: No such file or directory", run.dir);
  assert_string_equal(run.a.diag.first_error, want);
  az_run_free(&run);
}

/* A run that wrote its log but no trace (MPI_Abort, a signal): the log
   says why. */
static void log_without_trace(void **state) {
  (void)state;
  az_run run;
  az_run_mkdir(&run);
  char log[400];
  snprintf(log, sizeof log, "%s/measure.log", run.dir);
  FILE *f = fopen(log, "w");
  assert_non_null(f);
  fclose(f);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  char want[900];
  snprintf(want, sizeof want, "%s: no trace was written; see %s", run.dir, log);
  assert_string_equal(run.a.diag.first_error, want);
  unlink(log);
  az_run_free(&run);
}

/* traces/ID.def of the location, or its .evt */
static void loc_file(const az_run *run, unsigned long long id, const char *ext, char *buf,
                     size_t size) {
  snprintf(buf, size, "%s/traces/%llu.%s", run->dir, id, ext);
}

/* The local definitions hold the id mapping tables: without them the
   events would name the wrong regions, so no report is written. */
static void missing_definition_file(void **state) {
  (void)state;
  az_run run;
  az_run_write(&run, two_ranks);
  char def[400], want[900];
  loc_file(&run, 0, "def", def, sizeof def);
  assert_int_equal(unlink(def), 0);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  assert_null(run.report);
  snprintf(want, sizeof want,
           "%s: rank 0 thread 0 (location 0): local definitions: No such "
           "file or directory",
           def);
  assert_string_equal(run.a.diag.first_error, want);
  az_run_free(&run);
}

static void truncated_definition_file(void **state) {
  (void)state;
  az_run run;
  az_run_write(&run, two_ranks);
  char def[400], want[900];
  loc_file(&run, 1, "def", def, sizeof def); /* rank 1 thread 0: thread << 32 | rank */
  assert_int_equal(truncate(def, 10), 0);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  assert_null(run.report);
  snprintf(want, sizeof want,
           "%s: rank 1 thread 0 (location 1): local definitions: "
           "truncated or corrupt (",
           def);
  assert_memory_equal(run.a.diag.first_error, want, strlen(want));
  az_run_free(&run);
}

static void missing_event_file(void **state) {
  (void)state;
  az_run run;
  az_run_write(&run, two_ranks);
  char evt[400];
  snprintf(evt, sizeof evt, "%s/traces/%llu.evt", run.dir, 1ull); /* rank 1 thread 0 */
  assert_int_equal(unlink(evt), 0);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  assert_null(run.report);
  char want[900];
  snprintf(want, sizeof want,
           "%s: rank 1 thread 0 (location 1): event 1: cannot read "
           "the event file: No such file or directory (",
           evt);
  assert_memory_equal(run.a.diag.first_error, want, strlen(want));
  az_run_free(&run);
}

static void truncated_event_file(void **state) {
  (void)state;
  az_run run;
  az_run_write(&run, two_ranks);
  char evt[400];
  snprintf(evt, sizeof evt, "%s/traces/0.evt", run.dir);
  FILE *f = fopen(evt, "r+");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fclose(f);
  assert_int_equal(truncate(evt, size - 7), 0);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  char want[900];
  snprintf(want, sizeof want, "%s: rank 0 thread 0 (location 0): event ", evt);
  assert_memory_equal(run.a.diag.first_error, want, strlen(want));
  assert_non_null(
      strstr(run.a.diag.first_error, ": cannot read the event file: truncated or corrupt ("));
  az_run_free(&run);
}

static void undefined_region(void **state) {
  (void)state;
  az_run run;
  az_run_mkdir(&run);
  char err[256];
  tg_writer *w = tg_open(run.dir, err, sizeof err);
  assert_int_equal(tg_text(w,
                           "process 0 threads 1\n"
                           "region main compiler function main\n"
                           "loc 0.0\n0 enter main\n",
                           err, sizeof err),
                   0);
  OTF2_EvtWriter_Enter(tg_evt_writer(w, 0, 0), NULL, 5, 99);
  assert_int_equal(tg_close(w, err, sizeof err), 0);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  assert_string_equal(run.a.diag.first_error, "rank 0 thread 0 (location 0): event 2: Enter of "
                                              "undefined region 99");
  az_run_free(&run);
}

/* A Leave of an undefined region: the forward pass only warns, the
   backward passes fail at it.  Two locations with one each, so that the
   first error is the one the serial replay meets first (the window
   holding the later one, backwards); the critical path's handlers run in
   the decoding threads (az_run_dir's third analysis) and must say the
   same first error, alone (--no-rootcause) or after the delay pass's. */
static void leave_of_undefined_region(unsigned off, const char *first) {
  az_run run;
  az_run_mkdir(&run);
  char err[256];
  tg_writer *w = tg_open(run.dir, err, sizeof err);
  assert_int_equal(tg_text(w,
                           "process 0 threads 1\nprocess 1 threads 1\n"
                           "region main compiler function main\n"
                           "loc 0.0\n0 enter main\n10 leave main\n"
                           "loc 1.0\n0 enter main\n10 leave main\n",
                           err, sizeof err),
                   0);
  OTF2_EvtWriter_Leave(tg_evt_writer(w, 0, 0), NULL, 14, 99);
  OTF2_EvtWriter_Leave(tg_evt_writer(w, 1, 0), NULL, 12, 98);
  OTF2_EvtWriter_Enter(tg_evt_writer(w, 1, 0), NULL, 20, 0);
  OTF2_EvtWriter_Leave(tg_evt_writer(w, 1, 0), NULL, 30, 0);
  assert_int_equal(tg_close(w, err, sizeof err), 0);
  az_run_switched_off = off;
  az_run_dir(&run);
  az_run_switched_off = 0;
  assert_int_not_equal(run.status, 0);
  assert_string_equal(run.a.diag.first_error, first);
  az_run_free(&run);
}

static void undefined_region_backwards(void **state) {
  (void)state;
  const char *first = "rank 0 thread 0 (location 0): event 3: Leave of undefined region 99";
  leave_of_undefined_region(0, first);
  leave_of_undefined_region(AZ_OFF_ROOTCAUSE, first);
}

static void bad_nesting_is_repaired(void **state) {
  (void)state;
  az_run run;
  /* a Leave too many, and main never left */
  az_run_text(&run, "process 0 threads 1\n"
                    "region main compiler function main\n"
                    "region f user function f\n"
                    "loc 0.0\n0 leave main\n10 enter main\n20 enter f\n30 leave f\n"
                    "100 enter f\n");
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_NESTING], 2);
  /* the open regions end at the last timestamp */
  assert_true(az_run_value(&run, "comp", "main", 0) == 80e-9);
  assert_true(az_run_value(&run, "comp", "main;f", 0) == 10e-9);
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(missing_archive),
      cmocka_unit_test(log_without_trace),
      cmocka_unit_test_setup_teardown(missing_definition_file, az_run_once,
                                      az_run_cross_check_again),
      cmocka_unit_test_setup_teardown(truncated_definition_file, az_run_once,
                                      az_run_cross_check_again),
      cmocka_unit_test_setup_teardown(missing_event_file, az_run_once, az_run_cross_check_again),
      cmocka_unit_test_setup_teardown(truncated_event_file, az_run_once, az_run_cross_check_again),
      cmocka_unit_test(undefined_region),
      cmocka_unit_test(undefined_region_backwards),
      cmocka_unit_test(bad_nesting_is_repaired),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
