/* Unit tests of the in-memory report model: definitions, trees, values and
   the inclusive helpers, on the fixture of fixture.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

static void ids_are_dense_and_parents_checked(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  assert_int_equal(pomp_report_num_metrics(r), 5);
  assert_int_equal(pomp_report_num_regions(r), 3);
  assert_int_equal(pomp_report_num_cnodes(r), 4);
  assert_int_equal(pomp_report_num_sysnodes(r), 8);
  assert_int_equal(pomp_report_num_locations(r), 4);
  /* duplicate metric name, bad parents */
  assert_int_equal(pomp_report_add_metric(r, "comp", "", POMP_UNIT_SEC, "", -1), -1);
  assert_int_equal(pomp_report_add_metric(r, "x", "", POMP_UNIT_SEC, "", 5), -1);
  assert_int_equal(pomp_report_add_cnode(r, 3, -1), -1);
  assert_int_equal(pomp_report_add_cnode(r, 0, 4), -1);
  /* (region, parent) is deduplicated */
  assert_int_equal(pomp_report_add_cnode(r, 2, 1), 2);
  assert_int_equal(pomp_report_add_cnode(r, 0, -1), 0);
  assert_int_equal(pomp_report_num_cnodes(r), 4);
  /* system tree levels: thread under node and a root process are refused */
  assert_int_equal(pomp_report_add_sysnode(r, POMP_SYS_THREAD, "t", 1, 0, 0), -1);
  assert_int_equal(pomp_report_add_sysnode(r, POMP_SYS_PROCESS, "p", -1, 0, -1), -1);
  assert_int_equal(pomp_report_num_sysnodes(r), 8);
  pomp_report_free(r);
}

static void definitions_read_back(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  const pomp_metric *m = pomp_report_metric(r, 3);
  assert_string_equal(m->name, "mpi_latesender");
  assert_string_equal(m->display, "Late Sender");
  assert_int_equal(m->parent, 2);
  assert_int_equal(pomp_report_metric(r, 4)->unit, POMP_UNIT_OCC);
  assert_null(pomp_report_metric(r, 5));
  assert_null(pomp_report_metric(r, -1));
  const pomp_region *g = pomp_report_region(r, 1);
  assert_string_equal(g->name, "solve");
  assert_string_equal(g->file, "a.c");
  assert_int_equal(g->begin_line, 50);
  assert_int_equal(g->end_line, 90);
  assert_string_equal(g->paradigm, "user");
  assert_string_equal(g->role, "function");
  assert_int_equal(pomp_report_cnode(r, 3)->region, 2);
  assert_int_equal(pomp_report_cnode(r, 3)->parent, 0);
  const pomp_sysnode *s = pomp_report_sysnode(r, 6);
  assert_int_equal(s->kind, POMP_SYS_THREAD);
  assert_int_equal(s->rank, 1);
  assert_int_equal(s->thread, 0);
  assert_int_equal(s->location, 2);
  assert_int_equal(pomp_report_sysnode(r, 1)->rank, -1);
  assert_int_equal(pomp_report_sysnode(r, 5)->rank, 1);
  assert_int_equal(pomp_report_sysnode(r, 5)->location, -1);
  assert_int_equal(pomp_report_location_sysnode(r, 2), 6);
  assert_int_equal(pomp_report_location_sysnode(r, 4), -1);
  assert_int_equal(pomp_report_find_metric(r, "visits"), 4);
  assert_int_equal(pomp_report_find_metric(r, "nope"), -1);
  pomp_report_free(r);
}

static void children_in_definition_order(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  int32_t out[8];
  assert_int_equal(pomp_report_metric_children(r, -1, out, 8), 2);
  assert_int_equal(out[0], 0);
  assert_int_equal(out[1], 4);
  assert_int_equal(pomp_report_metric_children(r, 0, out, 8), 2);
  assert_int_equal(out[0], 1);
  assert_int_equal(out[1], 2);
  assert_int_equal(pomp_report_metric_children(r, 3, out, 8), 0);
  assert_int_equal(pomp_report_cnode_children(r, 0, out, 8), 2);
  assert_int_equal(out[0], 1);
  assert_int_equal(out[1], 3);
  out[1] = 99; /* cap is respected, the count is still complete */
  assert_int_equal(pomp_report_sysnode_children(r, 2, out, 1), 2);
  assert_int_equal(out[0], 3);
  assert_int_equal(out[1], 99);
  assert_int_equal(pomp_report_sysnode_children(r, 1, out, 8), 2);
  assert_int_equal(out[0], 2);
  assert_int_equal(out[1], 5);
  assert_int_equal(pomp_report_cnode_children(r, 17, out, 8), 0);
  pomp_report_free(r);
}

static void callpath_joins_and_truncates(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  char buf[64];
  assert_int_equal(pomp_report_callpath(r, 2, ";", buf, sizeof buf), 19);
  assert_string_equal(buf, "main;solve;MPI_Recv");
  assert_int_equal(pomp_report_callpath(r, 3, " / ", buf, sizeof buf), 15);
  assert_string_equal(buf, "main / MPI_Recv");
  assert_int_equal(pomp_report_callpath(r, 2, ";", buf, 8), 19);
  assert_string_equal(buf, "main;so");
  assert_int_equal(pomp_report_callpath(r, 2, ";", NULL, 0), 19);
  assert_int_equal(pomp_report_callpath(r, 0, ";", buf, sizeof buf), 4);
  assert_string_equal(buf, "main");
  pomp_report_free(r);
}

static void attributes_replace_and_keep_order(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  pomp_report_set_attr(r, "application", "again");
  pomp_report_set_attr(r, "threads", "2");
  assert_int_equal(pomp_report_num_attrs(r), 3);
  assert_string_equal(pomp_report_attr_key(r, 0), "application");
  assert_string_equal(pomp_report_attr_key(r, 2), "threads");
  assert_null(pomp_report_attr_key(r, 3));
  assert_string_equal(pomp_report_attr(r, "application"), "again");
  assert_string_equal(pomp_report_attr(r, "ranks"), "2");
  assert_null(pomp_report_attr(r, "created"));
  pomp_report_free(r);
}

/* run_status: absent, empty or "complete" is a complete run; otherwise the
   description, without the analyzer's "incomplete: " prefix. */
static void run_status_names_incomplete_runs(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  assert_null(pomp_report_run_incomplete(r));
  static const char *const cases[][2] = {
      {"complete", NULL},
      {"", NULL},
      {"incomplete: rank 1 called MPI_Abort(MPI_COMM_WORLD, 3)",
       "rank 1 called MPI_Abort(MPI_COMM_WORLD, 3)"},
      {"killed by SIGKILL", "killed by SIGKILL"},
      {"incomplete: ", "incomplete: "},
      {"Complete", "Complete"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pomp_report_set_attr(r, POMP_REPORT_RUN_STATUS, cases[i][0]);
    const char *got = pomp_report_run_incomplete(r);
    if (cases[i][1]) assert_string_equal(got, cases[i][1]);
    else assert_null(got);
  }
  pomp_report_free(r);
}

/* mode: only "profile" (libpomp's POMP_MODE=profile) has the note. */
static void mode_profile_says_wait_states_need_a_trace(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  assert_null(pomp_report_mode_note(r));
  pomp_report_set_attr(r, POMP_REPORT_MODE, "trace");
  assert_null(pomp_report_mode_note(r));
  pomp_report_set_attr(r, POMP_REPORT_MODE, "profile");
  assert_string_equal(pomp_report_mode_note(r),
                      "profile: wait-state properties need a trace (POMP_MODE=trace)");
  pomp_report_free(r);
}

static void values_accumulate_and_refreeze(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  assert_true(pomp_report_value(r, 1, 1, 0) == 4.0);
  assert_true(pomp_report_value(r, 1, 1, 3) == 1.0);
  assert_true(pomp_report_value(r, 1, 2, 0) == 0.0);
  assert_true(pomp_report_row_sum(r, 1, 1) == 10.0);
  assert_int_equal(pomp_report_num_rows(r), 8);
  /* adding after a query is seen by the next query */
  assert_int_equal(pomp_report_add_value(r, 1, 1, 0, 0.5), POMP_REPORT_OK);
  assert_int_equal(pomp_report_add_value(r, 1, 3, 2, 2.0), POMP_REPORT_OK);
  assert_true(pomp_report_value(r, 1, 1, 0) == 4.5);
  assert_true(pomp_report_row_sum(r, 1, 1) == 10.5);
  assert_true(pomp_report_row_sum(r, 1, 3) == 2.0);
  assert_int_equal(pomp_report_num_rows(r), 9);
  assert_int_equal(pomp_report_add_value(r, 5, 0, 0, 1), POMP_REPORT_ERR_ARG);
  assert_int_equal(pomp_report_add_value(r, 0, 4, 0, 1), POMP_REPORT_ERR_ARG);
  assert_int_equal(pomp_report_add_value(r, 0, 0, 4, 1), POMP_REPORT_ERR_ARG);
  pomp_report_free(r);
}

static void rows_decode_in_location_order(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  double acc[4] = {1, 1, 1, 1};
  assert_int_equal(pomp_report_row_add(r, 3, 2, acc, NULL), 1);
  assert_true(acc[0] == 1 && acc[1] == 2.5 && acc[2] == 3.5 && acc[3] == 1);
  assert_int_equal(pomp_report_row_add(r, 3, 1, acc, NULL), 0);
  int32_t locs[4];
  double vals[4];
  assert_int_equal(pomp_report_row_get(r, 2, 2, locs, vals, NULL), 2);
  assert_int_equal(locs[0], 0);
  assert_int_equal(locs[1], 3);
  assert_true(vals[0] == 0.25 && vals[1] == 0.75);
  int32_t m, c, n;
  double sum;
  assert_int_equal(pomp_report_row_at(r, 0, &m, &c, &n, &sum), 1);
  assert_int_equal(m, 0);
  assert_int_equal(c, 0);
  assert_int_equal(n, 1);
  assert_true(sum == 0.5);
  assert_int_equal(pomp_report_row_at(r, 7, &m, &c, &n, &sum), 1);
  assert_int_equal(m, 4);
  assert_int_equal(c, 2);
  assert_int_equal(pomp_report_row_at(r, 8, &m, &c, &n, &sum), 0);
  pomp_report_free(r);
}

static void inclusive_helpers(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  assert_true(pomp_report_metric_total(r, 0, 1) == 15.625);
  assert_true(pomp_report_metric_total(r, 0, 0) == 0.5);
  assert_true(pomp_report_metric_total(r, 2, 1) == 5.125);
  assert_true(pomp_report_metric_total(r, 4, 1) == 48.0);

  double cv[4];
  pomp_report_cnode_values(r, 0, 1, cv);
  assert_true(cv[0] == 0.5 && cv[1] == 10 && cv[2] == 5 && cv[3] == 0.125);
  int32_t parents[4] = {-1, 0, 1, 0};
  pomp_report_accumulate(parents, 4, cv);
  assert_true(cv[0] == 15.625 && cv[1] == 15 && cv[2] == 5 && cv[3] == 0.125);
  pomp_report_cnode_values(r, 3, 0, cv);
  assert_true(cv[0] == 0 && cv[1] == 0 && cv[2] == 4 && cv[3] == 0.125);

  double lv[4];
  pomp_report_selection all_time = {0, 1, -1, 1};
  assert_int_equal(pomp_report_location_values(r, &all_time, lv, NULL), POMP_REPORT_OK);
  assert_true(lv[0] == 4.875 && lv[1] == 4.5 && lv[2] == 4.5 && lv[3] == 1.75);
  pomp_report_selection mpi_solve = {2, 1, 1, 1};
  pomp_report_location_values(r, &mpi_solve, lv, NULL);
  assert_true(lv[0] == 0.25 && lv[1] == 1.5 && lv[2] == 2.5 && lv[3] == 0.75);
  pomp_report_selection mpi_main_excl = {2, 0, 0, 0};
  pomp_report_location_values(r, &mpi_main_excl, lv, NULL);
  assert_true(lv[0] == 0 && lv[1] == 0 && lv[2] == 0 && lv[3] == 0);
  pomp_report_selection bad = {9, 1, 0, 1};
  pomp_report_error err;
  assert_int_equal(pomp_report_location_values(r, &bad, lv, &err), POMP_REPORT_ERR_ARG);
  assert_int_equal(err.status, POMP_REPORT_ERR_ARG);

  pomp_report_location_values(r, &all_time, lv, NULL);
  double sv[8];
  pomp_report_sysnode_values(r, lv, sv);
  assert_true(sv[0] == 15.625 && sv[1] == 15.625 && sv[2] == 9.375 && sv[3] == 4.875 &&
              sv[4] == 4.5 && sv[5] == 6.25 && sv[6] == 4.5 && sv[7] == 1.75);
  pomp_report_free(r);
}

/* The exact tree of docs/ARCHITECTURE.md §4, as (name, parent) pairs. */
static void catalogue_is_the_architecture_tree(void **state) {
  (void)state;
  static const char *const expect[][2] = {
      {"time", NULL},
      {"execution", "time"},
      {"comp", "execution"},
      {"mpi", "execution"},
      {"mpi_management", "mpi"},
      {"mpi_synchronization", "mpi"},
      {"mpi_barrier_wait", "mpi_synchronization"},
      {"mpi_barrier_completion", "mpi_synchronization"},
      {"mpi_communication", "mpi"},
      {"mpi_point2point", "mpi_communication"},
      {"mpi_latesender", "mpi_point2point"},
      {"mpi_latesender_wo", "mpi_latesender"},
      {"mpi_latereceiver", "mpi_point2point"},
      {"mpi_collective", "mpi_communication"},
      {"mpi_earlyreduce", "mpi_collective"},
      {"mpi_latebroadcast", "mpi_collective"},
      {"mpi_wait_nxn", "mpi_collective"},
      {"mpi_nxn_completion", "mpi_collective"},
      {"omp", "execution"},
      {"omp_management", "omp"},
      {"omp_synchronization", "omp"},
      {"omp_barrier", "omp_synchronization"},
      {"omp_ebarrier_wait", "omp_barrier"},
      {"omp_ibarrier_wait", "omp_barrier"},
      {"omp_critical_contention", "omp_synchronization"},
      {"omp_lock_contention", "omp_synchronization"},
      {"omp_flush", "omp"},
      {"omp_idle_threads", "time"},
      {"omp_limited_parallelism", "omp_idle_threads"},
      {"visits", NULL},
      {"bytes_sent", NULL},
      {"bytes_received", NULL},
      /* Scalasca parity, appended after v1 so that v1's ids stay */
      {"mpi_earlyscan", "mpi_collective"},
      {"omp_ordered", "omp_synchronization"},
      {"omp_taskwait", "omp_synchronization"},
      /* delay costs (issue 15), appended */
      {"delay", NULL},
      {"delay_mpi", "delay"},
      {"delay_collective", "delay_mpi"},
      {"delay_barrier_aggregate", "delay_collective"},
      {"delay_barrier", "delay_barrier_aggregate"},
      {"delay_barrier_longterm", "delay_barrier_aggregate"},
      {"delay_n2n_aggregate", "delay_collective"},
      {"delay_n2n", "delay_n2n_aggregate"},
      {"delay_n2n_longterm", "delay_n2n_aggregate"},
      /* more delay costs and the wait-state classification (issue 15) */
      {"delay_n21_aggregate", "delay_collective"},
      {"delay_n21", "delay_n21_aggregate"},
      {"delay_n21_longterm", "delay_n21_aggregate"},
      {"delay_12n_aggregate", "delay_collective"},
      {"delay_12n", "delay_12n_aggregate"},
      {"delay_12n_longterm", "delay_12n_aggregate"},
      {"delay_p2p", "delay_mpi"},
      {"delay_latesender_aggregate", "delay_p2p"},
      {"delay_latesender", "delay_latesender_aggregate"},
      {"delay_latesender_longterm", "delay_latesender_aggregate"},
      {"delay_latereceiver_aggregate", "delay_p2p"},
      {"delay_latereceiver", "delay_latereceiver_aggregate"},
      {"delay_latereceiver_longterm", "delay_latereceiver_aggregate"},
      {"waitstates_propagating_vs_terminal", NULL},
      {"mpi_wait_propagating", "waitstates_propagating_vs_terminal"},
      {"mpi_wait_propagating_latesender", "mpi_wait_propagating"},
      {"mpi_wait_propagating_latereceiver", "mpi_wait_propagating"},
      {"mpi_wait_terminal", "waitstates_propagating_vs_terminal"},
      {"mpi_wait_terminal_latesender", "mpi_wait_terminal"},
      {"mpi_wait_terminal_latereceiver", "mpi_wait_terminal"},
      {"waitstates_direct_vs_indirect", NULL},
      {"mpi_wait_direct", "waitstates_direct_vs_indirect"},
      {"mpi_wait_direct_latesender", "mpi_wait_direct"},
      {"mpi_wait_direct_latereceiver", "mpi_wait_direct"},
      {"mpi_wait_indirect", "waitstates_direct_vs_indirect"},
      {"mpi_wait_indirect_latesender", "mpi_wait_indirect"},
      {"mpi_wait_indirect_latereceiver", "mpi_wait_indirect"},
      /* OpenMP delay costs (issue 15) */
      {"delay_omp", "delay"},
      {"delay_ompbarrier_aggregate", "delay_omp"},
      {"delay_ompbarrier", "delay_ompbarrier_aggregate"},
      {"delay_ompbarrier_longterm", "delay_ompbarrier_aggregate"},
      {"delay_ompidle_aggregate", "delay_omp"},
      {"delay_ompidle", "delay_ompidle_aggregate"},
      {"delay_ompidle_longterm", "delay_ompidle_aggregate"},
      /* critical path (issue 15), appended */
      {"critical_path", NULL},
      {"critical_path_imbalance", "critical_path"},
      {"performance_impact", NULL},
      {"performance_impact_criticalpath", "performance_impact"},
      {"critical_path_activities", "performance_impact_criticalpath"},
      {"critical_imbalance_impact", "performance_impact_criticalpath"},
      {"non_critical_path_activities", "performance_impact"},
      /* file I/O (issue 19), appended */
      {"io", "execution"},
      {"posix_io", "io"},
      {"mpi_io", "io"},
      {"io_bytes_written", NULL},
      {"io_bytes_read", NULL},
      {"mpi_io_collective_wait", "mpi_io"},
      /* one-sided communication (issue 21), appended */
      {"mpi_rma_synchronization", "mpi_synchronization"},
      {"mpi_rma_sync_active", "mpi_rma_synchronization"},
      {"mpi_rma_wait_at_fence", "mpi_rma_sync_active"},
      {"mpi_rma_sync_late_post", "mpi_rma_sync_active"},
      {"mpi_rma_early_wait", "mpi_rma_sync_active"},
      {"mpi_rma_late_complete", "mpi_rma_early_wait"},
      {"mpi_rma_sync_passive", "mpi_rma_synchronization"},
      {"mpi_rma_sync_lock_competition", "mpi_rma_sync_passive"},
      {"mpi_rma_communication", "mpi_communication"},
      {"mpi_rma_comm_late_post", "mpi_rma_communication"},
      {"mpi_rma_comm_lock_competition", "mpi_rma_communication"},
      {"mpi_rma_wait_at_create", "mpi_management"},
      {"mpi_rma_wait_at_free", "mpi_management"},
      {"bytes_put", NULL},
      {"bytes_get", NULL},
      {"mpi_rma_early_fence", "mpi_rma_wait_at_fence"},
      {"mpi_finalize_wait", "mpi_management"},
  };
  int n = (int)(sizeof expect / sizeof expect[0]);
  pomp_report *r = pomp_report_new();
  assert_int_equal(pomp_report_catalogue_size(), n);
  assert_int_equal(pomp_report_add_catalogue(r), n);
  for (int i = 0; i < n; i++) {
    const pomp_metric *m = pomp_report_metric(r, i);
    assert_string_equal(m->name, expect[i][0]);
    if (expect[i][1]) assert_string_equal(pomp_report_metric(r, m->parent)->name, expect[i][1]);
    else assert_int_equal(m->parent, -1);
    assert_true(strlen(m->description) > 20);
    assert_true(strlen(m->display) > 0);
    int bytes = (i >= 30 && i <= 31) || !strncmp(m->name, "io_bytes_", 9) ||
                !strcmp(m->name, "bytes_put") || !strcmp(m->name, "bytes_get");
    assert_int_equal(m->unit, bytes ? POMP_UNIT_BYTES : i == 29 ? POMP_UNIT_OCC : POMP_UNIT_SEC);
  }
  assert_string_equal(pomp_report_metric(r, 10)->display, "Late Sender");
  assert_string_equal(pomp_report_metric(r, 32)->display, "Early Scan");
  assert_string_equal(pomp_report_metric(r, 33)->display, "OpenMP Ordered");
  assert_string_equal(pomp_report_metric(r, 34)->display, "OpenMP Taskwait");
  /* a second catalogue adds nothing: names are unique */
  assert_int_equal(pomp_report_add_catalogue(r), 0);
  pomp_report_free(r);
  r = pomp_report_new();
  assert_int_equal(pomp_report_add_catalogue_n(r, 25), 25);
  assert_string_equal(pomp_report_metric(r, 24)->name, "omp_critical_contention");
  pomp_report_free(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ids_are_dense_and_parents_checked),
      cmocka_unit_test(definitions_read_back),
      cmocka_unit_test(children_in_definition_order),
      cmocka_unit_test(callpath_joins_and_truncates),
      cmocka_unit_test(attributes_replace_and_keep_order),
      cmocka_unit_test(run_status_names_incomplete_runs),
      cmocka_unit_test(mode_profile_says_wait_states_need_a_trace),
      cmocka_unit_test(values_accumulate_and_refreeze),
      cmocka_unit_test(rows_decode_in_location_order),
      cmocka_unit_test(inclusive_helpers),
      cmocka_unit_test(catalogue_is_the_architecture_tree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
