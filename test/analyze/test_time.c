/* Time breakdown by region role, visits, the call tree and the report
   as written: every executed nanosecond lands in exactly one metric. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>

#include "az_test.h"

static const char *const roles_trace =
    "process 0 threads 1\n"
    "region main compiler function main\n"
    "region solve user function solve\n"
    "region init mpi function MPI_Init\n"
    "region rank mpi function MPI_Comm_rank\n"
    "region wtime mpi function MPI_Wtime\n"
    "region flush openmp flush !$omp flush @a.c:5\n"
    "region atomic openmp atomic !$omp atomic @a.c:6\n"
    "region buf measurement artificial TRACE BUFFER FLUSH\n"
    "loc 0.0\n0 enter main\n10 enter init\n30 leave\n"
    "40 enter rank\n43 leave\n50 enter wtime\n51 leave\n"
    "60 enter solve\n70 enter flush\n75 leave\n80 enter atomic\n82 leave\n"
    "90 enter buf\n190 leave\n200 leave\n"
    "210 enter solve\n220 leave\n300 leave\n";

static void regions_go_to_their_buckets(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, roles_trace);
  assert_true(az_run_value(&run, "mpi_management", "main;MPI_Init", 0) == 20e-9);
  assert_true(az_run_value(&run, "mpi_management", "main;MPI_Comm_rank", 0) == 3e-9);
  assert_true(az_run_value(&run, "mpi", "main;MPI_Wtime", 0) == 1e-9);
  assert_true(az_run_value(&run, "omp_flush", "main;solve;!$omp flush @a.c:5", 0) == 5e-9);
  assert_true(az_run_value(&run, "omp_synchronization", "main;solve;!$omp atomic @a.c:6", 0) ==
              2e-9);
  /* measurement overhead is execution time outside comp, mpi and omp */
  assert_true(az_run_value(&run, "execution", "main;solve;TRACE BUFFER FLUSH", 0) == 100e-9);
  /* solve: 140 + 10 minus 5 + 2 + 100 in children */
  assert_true(az_run_value(&run, "comp", "main;solve", 0) == 43e-9);
  assert_true(az_run_value(&run, "visits", "main;solve", 0) == 2);
  assert_true(az_run_value(&run, "comp", "main", 0) == 126e-9);
  assert_true(az_run_value(&run, "time", "main", 0) == 0);
  int32_t time = pomp_report_find_metric(run.report, "time");
  assert_float_equal(pomp_report_metric_total(run.report, time, 1), 300e-9, 1e-18);
  az_run_free(&run);
}

static void call_tree_is_canonical(void **state) {
  (void)state;
  az_run run;
  /* rank 1 discovers solve before MPI_Init; the report orders siblings by
     region definition order, whatever the replay met first */
  az_run_text(&run, "process 0 threads 1\nprocess 1 threads 1\n"
                    "region main compiler function main\n"
                    "region init mpi function MPI_Init\n"
                    "region solve user function solve\n"
                    "loc 1.0\n0 enter main\n1 enter solve\n2 leave\n3 enter init\n"
                    "4 leave\n5 leave\n"
                    "loc 0.0\n0 enter main\n1 enter init\n2 leave\n5 leave\n");
  char path[64];
  const char *want[] = {"main", "main;MPI_Init", "main;solve"};
  assert_int_equal(pomp_report_num_cnodes(run.report), 3);
  for (int32_t c = 0; c < 3; c++) {
    pomp_report_callpath(run.report, c, ";", path, sizeof path);
    assert_string_equal(path, want[c]);
  }
  assert_int_equal(pomp_report_num_locations(run.report), 2);
  assert_string_equal(pomp_report_attr(run.report, "ranks"), "2");
  az_run_free(&run);
}

static void report_file_round_trip(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, roles_trace);
  char path[300];
  snprintf(path, sizeof path, "%s/report.pomp", run.dir);
  pomp_report_error err;
  assert_int_equal(pomp_report_write(run.report, path, &err), POMP_REPORT_OK);
  pomp_report *back = pomp_report_open(run.dir, &err);
  assert_non_null(back);
  int32_t m = pomp_report_find_metric(back, "mpi_management");
  assert_true(pomp_report_metric_total(back, m, 0) == 23e-9);
  pomp_report_free(back);
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(regions_go_to_their_buckets),
      cmocka_unit_test(call_tree_is_canonical),
      cmocka_unit_test(report_file_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
