/* Bad traces: missing archive, missing and truncated event files,
   undefined regions, bad nesting.  Never a crash; a message naming the
   location and the event position. */
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

/* After OTF2 3.0.2 failed on a damaged event file, the next reader in the
   process can behave differently on another damaged file (it may take a
   truncated file for complete): the damaged-file tests analyse once. */
static int analyse_once(void **state) {
  (void)state;
  az_run_cross_check = 0;
  return 0;
}

static int cross_check_again(void **state) {
  (void)state;
  az_run_cross_check = 1;
  return 0;
}

static void missing_archive(void **state) {
  (void)state;
  az_run run;
  az_run_mkdir(&run);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  assert_non_null(strstr(run.a.diag.first_error, "traces.otf2: cannot open"));
  az_run_free(&run);
}

static void missing_event_file(void **state) {
  (void)state;
  az_run run;
  az_run_write(&run, two_ranks);
  char evt[400];
  snprintf(evt, sizeof evt, "%s/traces/%llu.evt", run.dir, 1ull << 32);
  assert_int_equal(unlink(evt), 0);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  assert_null(run.report);
  assert_non_null(strstr(run.a.diag.first_error,
                         "rank 1 thread 0 (location 4294967296): event 1: "
                         "cannot read the event file"));
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
  assert_non_null(strstr(run.a.diag.first_error, "rank 0 thread 0"));
  assert_non_null(strstr(run.a.diag.first_error, "cannot read the event file"));
  az_run_free(&run);
}

static void undefined_region(void **state) {
  (void)state;
  az_run run;
  az_run_mkdir(&run);
  char err[256];
  tg_writer *w = tg_open(run.dir, err, sizeof err);
  assert_int_equal(tg_text(w, "process 0 threads 1\n"
                              "region main compiler function main\n"
                              "loc 0.0\n0 enter main\n", err, sizeof err), 0);
  OTF2_EvtWriter_Enter(tg_evt_writer(w, 0, 0), NULL, 5, 99);
  assert_int_equal(tg_close(w, err, sizeof err), 0);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  assert_string_equal(run.a.diag.first_error,
                      "rank 0 thread 0 (location 0): event 2: Enter of "
                      "undefined region 99");
  az_run_free(&run);
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
      cmocka_unit_test_setup_teardown(missing_event_file, analyse_once,
                                      cross_check_again),
      cmocka_unit_test_setup_teardown(truncated_event_file, analyse_once,
                                      cross_check_again),
      cmocka_unit_test(undefined_region),
      cmocka_unit_test(bad_nesting_is_repaired),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
