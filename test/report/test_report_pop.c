/* test_report_pop.c -- pomp_report_pop_compute on the planted reports of
   pop_fixture.c: every efficiency exactly as computed by hand there, the
   reasons of the missing ones, sub-trees, and the report read back from
   its file. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "pop_fixture.h"

/* NA: expect NAN with a reason. */
#define NA (-1.0)

typedef struct {
  double runtime, useful_avg, useful_max, ideal;
  double value[POMP_REPORT_POP_COUNT];
} pop_expect;

/* The cnode of a call path of region names. */
static int32_t find(const pomp_report *r, const char *path) {
  char buf[512];
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++) {
    pomp_report_callpath(r, c, ";", buf, sizeof buf);
    if (strcmp(buf, path) == 0) return c;
  }
  fail_msg("no call path %s", path);
  return -1;
}

static void check_value(const pomp_report_pop *p, int k, double want) {
  const char *name = pomp_report_pop_describe((pomp_report_pop_kind)k)->name;
  if (want == NA) {
    if (!isnan(p->value[k]) || !p->why[k]) fail_msg("%s = %.17g, want n/a", name, p->value[k]);
  } else if (p->value[k] != want || p->why[k]) {
    fail_msg("%s = %.17g (%s), want %.17g", name, p->value[k], p->why[k] ? p->why[k] : "", want);
  }
}

/* Computes the efficiencies of fixture `name` (sub-tree `path`, or the
   run) in memory and read back from a file, and checks them. */
static pomp_report_pop check_fixture(const char *name, const char *path, const pop_expect *e) {
  pomp_report *built = pop_fixture_new(name);
  assert_non_null(built);
  pomp_report *r = fixture_round_trip(built);
  pomp_report_pop p = {0};
  for (int pass = 0; pass < 2; pass++) {
    const pomp_report *on = pass ? r : built;
    int32_t root = path ? find(on, path) : -1;
    pomp_report_error err;
    assert_int_equal(pomp_report_pop_compute(on, &root, path ? 1 : 0, &p, &err), POMP_REPORT_OK);
    assert_true(p.runtime == e->runtime);
    assert_true(p.useful_avg == e->useful_avg);
    assert_true(p.useful_max == e->useful_max);
    if (e->ideal == NA) assert_true(isnan(p.ideal_runtime));
    else assert_true(p.ideal_runtime == e->ideal);
    for (int k = 0; k < POMP_REPORT_POP_COUNT; k++) check_value(&p, k, e->value[k]);
  }
  pomp_report_free(built);
  pomp_report_free(r);
  return p;
}

static void balanced_run_has_load_balance_one(void **state) {
  (void)state;
  const pop_expect e = {10, 8, 8, NA, {0.8, 1, 0.8, NA, NA, 0.8, 1, 0.8, 1, 1, 1}};
  pomp_report_pop p = check_fixture("pop_balanced", NULL, &e);
  assert_int_equal(p.processes, 2);
  assert_int_equal(p.locations, 2);
  assert_false(p.has_critical_path);
  assert_string_equal(p.why[POMP_REPORT_POP_SERIALISATION],
                      "needs the critical path: pomp-analyze a trace");
  assert_string_equal(p.why[POMP_REPORT_POP_TRANSFER],
                      "needs the critical path: pomp-analyze a trace");
}

static void double_work_on_one_rank_gives_load_balance_five_eighths(void **state) {
  (void)state;
  const pop_expect e = {
      9, 5, 8, 8, {5.0 / 9, 0.625, 8.0 / 9, 1, 8.0 / 9, 5.0 / 9, 0.625, 8.0 / 9, 1, 1, 1}};
  pomp_report_pop p = check_fixture("pop_imbalanced", NULL, &e);
  assert_int_equal(p.processes, 4);
  assert_true(p.has_critical_path);
}

static void subtree_of_the_compute_phase(void **state) {
  (void)state;
  const pop_expect e = {8, 5, 8, 8, {0.625, 0.625, 1, 1, 1, 0.625, 0.625, 1, 1, 1, 1}};
  check_fixture("pop_imbalanced", "main;compute(double*)", &e);
}

static void subtree_without_computation_says_why(void **state) {
  (void)state;
  const pop_expect e = {5, 0, 0, 0, {0, NA, 0, NA, 0, 0, NA, 0, NA, NA, NA}};
  pomp_report_pop p = check_fixture("pop_imbalanced", "main;MPI_Allreduce", &e);
  assert_string_equal(p.why[POMP_REPORT_POP_LOAD_BALANCE], "no computation here");
  assert_string_equal(p.why[POMP_REPORT_POP_SERIALISATION],
                      "no computation on the critical path here");
  assert_string_equal(p.why[POMP_REPORT_POP_OMP_PARALLEL], "no time outside MPI here");
}

static void mpi_waits_in_a_chain_are_serialisation(void **state) {
  (void)state;
  const pop_expect e = {
      9, 4, 4, 8, {4.0 / 9, 1, 4.0 / 9, 0.5, 8.0 / 9, 4.0 / 9, 1, 4.0 / 9, 1, 1, 1}};
  check_fixture("pop_mpi_wait", NULL, &e);
}

static void ideal_runtime_is_at_least_the_busiest_locations_work(void **state) {
  (void)state;
  const pop_expect e = {
      10,
      3.5,
      4,
      4,
      {3.5 / 10, 3.5 / 4, 4.0 / 10, 1, 4.0 / 10, 3.5 / 10, 3.5 / 4, 4.0 / 10, 1, 1, 1}};
  check_fixture("pop_path_in_mpi", NULL, &e);
}

static void idle_openmp_threads_lower_openmp_efficiency_only(void **state) {
  (void)state;
  const pop_expect e = {8, 5.5, 8, 8, {0.6875, 0.6875, 1, 1, 1, 1, 1, 1, 0.6875, 0.6875, 1}};
  pomp_report_pop p = check_fixture("pop_hybrid", NULL, &e);
  assert_int_equal(p.processes, 2);
  assert_int_equal(p.locations, 4);
  assert_true(p.outside_mpi_avg == 8 && p.outside_mpi_max == 8);
}

static void subtree_of_a_parallel_region(void **state) {
  (void)state;
  const pop_expect e = {6, 4.5, 6, 6, {0.75, 0.75, 1, 1, 1, 1, 1, 1, 0.75, 0.75, 1}};
  check_fixture("pop_hybrid", "main;!$omp parallel @a.c:5", &e);
}

static void critical_path_metric_without_values_is_no_critical_path(void **state) {
  (void)state;
  const pop_expect e = {
      9, 5, 8, NA, {5.0 / 9, 0.625, 8.0 / 9, NA, NA, 5.0 / 9, 0.625, 8.0 / 9, 1, 1, 1}};
  pomp_report_pop p = check_fixture("pop_no_cp", NULL, &e);
  assert_false(p.has_critical_path);
}

static void report_without_computation_metric_is_refused(void **state) {
  (void)state;
  pomp_report *r = pomp_report_new();
  pomp_report_add_metric(r, "time", "Time", POMP_UNIT_SEC, "", -1);
  pomp_report_pop p;
  pomp_report_error err;
  assert_int_equal(pomp_report_pop_compute(r, NULL, 0, &p, &err), POMP_REPORT_ERR_ARG);
  assert_non_null(strstr(err.message, "no metric 'comp'"));
  int32_t bad = 7;
  pomp_report_add_metric(r, "comp", "Computation", POMP_UNIT_SEC, "", 0);
  assert_int_equal(pomp_report_pop_compute(r, &bad, 1, &p, &err), POMP_REPORT_ERR_ARG);
  pomp_report_free(r);
}

static void factors_multiply_to_their_parent(void **state) {
  (void)state;
  static const char *const names[] = {"pop_balanced", "pop_imbalanced", "pop_mpi_wait",
                                      "pop_hybrid", "pop_path_in_mpi"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    pomp_report *r = pop_fixture_new(names[i]);
    pomp_report_pop p;
    assert_int_equal(pomp_report_pop_compute(r, NULL, 0, &p, NULL), POMP_REPORT_OK);
    const double *v = p.value;
    assert_true(fabs(v[POMP_REPORT_POP_PARALLEL] -
                     v[POMP_REPORT_POP_LOAD_BALANCE] * v[POMP_REPORT_POP_COMMUNICATION]) < 1e-15);
    assert_true(fabs(v[POMP_REPORT_POP_PARALLEL] -
                     v[POMP_REPORT_POP_MPI_PARALLEL] * v[POMP_REPORT_POP_OMP_PARALLEL]) < 1e-15);
    if (p.has_critical_path)
      assert_true(fabs(v[POMP_REPORT_POP_COMMUNICATION] -
                       v[POMP_REPORT_POP_SERIALISATION] * v[POMP_REPORT_POP_TRANSFER]) < 1e-15);
    pomp_report_free(r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(balanced_run_has_load_balance_one),
      cmocka_unit_test(double_work_on_one_rank_gives_load_balance_five_eighths),
      cmocka_unit_test(subtree_of_the_compute_phase),
      cmocka_unit_test(subtree_without_computation_says_why),
      cmocka_unit_test(mpi_waits_in_a_chain_are_serialisation),
      cmocka_unit_test(ideal_runtime_is_at_least_the_busiest_locations_work),
      cmocka_unit_test(idle_openmp_threads_lower_openmp_efficiency_only),
      cmocka_unit_test(subtree_of_a_parallel_region),
      cmocka_unit_test(critical_path_metric_without_values_is_no_critical_path),
      cmocka_unit_test(report_without_computation_metric_is_refused),
      cmocka_unit_test(factors_multiply_to_their_parent),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
