/* test_switches.c -- pomp-analyze --no-rootcause and --no-critical-path
   (az_options.switched_off) and the report attribute not_computed: a
   switched-off analysis gives the very values of the full one except the
   metrics it marks not computed, which hold none; where the model does not
   hold (OpenMP tasks, nested parallelism, MPI calls on several threads)
   the voided metrics are marked with the limit as the reason.  Run on
   every trace of test/analyze/data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
// clang-format off
#include <cmocka.h>
// clang-format on

#include "az_critical.h"
#include "az_pass.h"
#include "az_test.h"
#include "pomp_util.h"

static const char *const traces[] = {"late_sender", "delay_chain", "delay_p2p", "critical_chain",
                                     "hybrid",      "nested",      "omp_tasks", "early_scan"};

static char *read_trace(const char *name) {
  const char *dir = getenv("POMP_TEST_DATA");
  char path[1024];
  snprintf(path, sizeof path, "%s/data/%s.trace", dir ? dir : ".", name);
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("%s: cannot open", path);
  char *text = pu_malloc(1 << 20);
  size_t n = fread(text, 1, (1 << 20) - 1, f);
  text[n] = '\0';
  fclose(f);
  return text;
}

static void analyse(az_run *run, const char *text, unsigned off) {
  az_run_switched_off = off;
  az_run_text(run, text);
  az_run_switched_off = 0;
  assert_int_equal(run->status, 0);
}

/* Whether every value of metric m in r is absent (0). */
static int empty(const pomp_report *r, int32_t m) {
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++)
    if (pomp_report_row_sum(r, m, c) != 0) return 0;
  return 1;
}

static void same_call_tree(const pomp_report *a, const pomp_report *b) {
  assert_int_equal(pomp_report_num_cnodes(a), pomp_report_num_cnodes(b));
  assert_int_equal(pomp_report_num_locations(a), pomp_report_num_locations(b));
  for (int32_t c = 0; c < pomp_report_num_cnodes(a); c++) {
    char pa[1024], pb[1024];
    pomp_report_callpath(a, c, ";", pa, sizeof pa);
    pomp_report_callpath(b, c, ";", pb, sizeof pb);
    assert_string_equal(pa, pb);
  }
}

/* The switched report equals the full one but for what it marks not
   computed, which is empty there.  Returns how many metrics it marks. */
static int equal_but_not_computed(const pomp_report *full, const pomp_report *sw) {
  same_call_tree(full, sw);
  int marked = 0;
  for (int32_t m = 0; m < pomp_report_num_metrics(sw); m++) {
    if (pomp_report_not_computed(sw, m)) {
      marked++;
      assert_true(empty(sw, m));
      continue;
    }
    assert_null(pomp_report_not_computed(full, m));
    for (int32_t c = 0; c < pomp_report_num_cnodes(sw); c++)
      for (int32_t l = 0; l < pomp_report_num_locations(sw); l++) {
        double a = pomp_report_value(full, m, c, l), b = pomp_report_value(sw, m, c, l);
        if (memcmp(&a, &b, sizeof a))
          fail_msg("%s at cnode %d location %d: %.17g, switched off %.17g",
                   pomp_report_metric(sw, m)->name, (int)c, (int)l, a, b);
      }
  }
  return marked;
}

static const char *why(const pomp_report *r, const char *metric) {
  return pomp_report_not_computed(r, pomp_report_find_metric(r, metric));
}

/* The reason for each metric tree the switches leave out. */
static void check_reasons(const pomp_report *r, unsigned off) {
  const char *rootcause = "switched off: --no-rootcause";
  const char *critical = "switched off: --no-critical-path";
  if (off & AZ_OFF_ROOTCAUSE) {
    assert_string_equal(why(r, "delay_n2n_longterm"), rootcause);
    assert_string_equal(why(r, "delay_ompidle"), rootcause);
    assert_string_equal(why(r, "mpi_wait_direct_latesender"), rootcause);
    assert_string_equal(why(r, "mpi_wait_terminal"), rootcause);
  }
  if (off & AZ_OFF_CRITICAL_PATH) {
    assert_string_equal(why(r, "critical_path_imbalance"), critical);
    assert_string_equal(why(r, "non_critical_path_activities"), critical);
  }
  assert_null(why(r, "time"));
  assert_null(why(r, "mpi_latesender"));
  assert_null(why(r, "omp_ibarrier_wait"));
}

static void each_switch_leaves_out_only_its_metrics(void **state) {
  (void)state;
  const unsigned offs[] = {AZ_OFF_ROOTCAUSE, AZ_OFF_CRITICAL_PATH,
                           AZ_OFF_ROOTCAUSE | AZ_OFF_CRITICAL_PATH};
  for (size_t t = 0; t < sizeof traces / sizeof *traces; t++) {
    char *text = read_trace(traces[t]);
    az_run full;
    analyse(&full, text, 0);
    for (size_t i = 0; i < sizeof offs / sizeof *offs; i++) {
      az_run sw;
      analyse(&sw, text, offs[i]);
      print_message("%s, switched off %u\n", traces[t], offs[i]);
      /* the delay costs and the classifications, the critical path and
         the performance impact: every metric of their slots */
      int expect =
          (offs[i] & AZ_OFF_ROOTCAUSE ? AZ_DELAY_OMPIDLE_LONGTERM - AZ_DELAY + 1 : 0) +
          (offs[i] & AZ_OFF_CRITICAL_PATH ? AZ_NON_CRITICAL_PATH_ACTIVITIES - AZ_CRITICAL_PATH + 1
                                          : 0);
      int marked = equal_but_not_computed(full.report, sw.report);
      if (!full.a.model_limits) assert_int_equal(marked, expect);
      check_reasons(sw.report, offs[i]);
      /* without the walk the call paths show the same limits */
      if (offs[i] == AZ_OFF_CRITICAL_PATH) assert_int_equal(sw.a.model_limits, full.a.model_limits);
      az_run_free(&sw);
    }
    az_run_free(&full);
    free(text);
  }
}

/* The report of the passes of pomp-analyze's analysis, the backward ones
   fused or apart (az_pass_delay_feeding), with `threads` threads and
   replay windows of window_events events (0: the default). */
static pomp_report *analyse_passes(const char *text, int fused, int threads,
                                   uint64_t window_events) {
  az_run run;
  az_run_write(&run, text);
  char anchor[300];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", run.dir);
  az_options opt = {.threads = threads, .window_events = window_events};
  const az_pass *passes[] = {&az_pass_waits, &az_pass_rma,
                             fused ? &az_pass_delay_feeding : &az_pass_delay,
                             fused ? &az_pass_critical_fed : &az_pass_critical};
  run.status = az_analyze_passes(&run.a, anchor, &opt, passes, 4);
  assert_int_equal(run.status, 0);
  pomp_report *r = az_report_build(&run.a, anchor, NULL);
  az_run_free(&run);
  return r;
}

/* The delay pass feeding the critical path's first stage gives every
   value of the two passes run apart: serially, and with decoding threads
   (their handlers in jobs, a new call path deferred to the replay
   thread), in windows of the default size and of two events. */
static void fused_backward_passes_give_the_values_of_the_passes_apart(void **state) {
  (void)state;
  const int threads[] = {1, 3};
  const uint64_t windows[] = {0, 2};
  for (size_t t = 0; t < sizeof traces / sizeof *traces; t++) {
    char *text = read_trace(traces[t]);
    for (size_t i = 0; i < 2; i++)
      for (size_t w = 0; w < 2; w++) {
        print_message("%s, %d threads, windows %llu\n", traces[t], threads[i],
                      (unsigned long long)windows[w]);
        pomp_report *apart = analyse_passes(text, 0, threads[i], windows[w]);
        pomp_report *fused = analyse_passes(text, 1, threads[i], windows[w]);
        az_run_assert_same(apart, fused);
        pomp_report_free(apart);
        pomp_report_free(fused);
      }
    free(text);
  }
}

/* OpenMP tasks: the OpenMP delay costs and the critical path are voided
   and marked with the limit, the MPI delay costs stay (rank 1's work made
   rank 0 wait 180 ns in the Allreduce); without the critical-path walk
   (--no-critical-path) the limit is found all the same. */
static void tasks_mark_the_voided_metrics_with_the_limit(void **state) {
  (void)state;
  char *text = read_trace("omp_tasks");
  const char *limit = "model limit: the trace has OpenMP tasks";
  az_run run;
  analyse(&run, text, 0);
  assert_string_equal(pomp_report_attr(run.report, POMP_REPORT_NOT_COMPUTED),
                      "delay_omp critical_path performance_impact (" /* */
                      "model limit: the trace has OpenMP tasks)");
  assert_string_equal(why(run.report, "delay_ompbarrier_longterm"), limit);
  assert_string_equal(why(run.report, "critical_path"), limit);
  assert_string_equal(why(run.report, "critical_imbalance_impact"), limit);
  assert_null(why(run.report, "delay"));
  assert_null(why(run.report, "delay_n2n"));
  assert_null(why(run.report, "mpi_wait_direct"));
  assert_true(az_run_value(&run, "delay_n2n", "main;work", 2) == 180e-9);
  az_run_free(&run);

  analyse(&run, text, AZ_OFF_CRITICAL_PATH);
  assert_int_equal(run.a.model_limits, AZ_LIMIT_TASKS);
  assert_string_equal(pomp_report_attr(run.report, POMP_REPORT_NOT_COMPUTED),
                      "critical_path performance_impact (switched off: --no-critical-path); "
                      "delay_omp (model limit: the trace has OpenMP tasks)");
  assert_string_equal(why(run.report, "delay_ompidle"), limit);
  az_run_free(&run);
  free(text);
}

/* MPI calls on a second thread void every delay cost and the
   classification too; the call paths show it as the walk does. */
static void mpi_on_threads_void_the_classification_too(void **state) {
  (void)state;
  const char *const text = "process 0 threads 2\nprocess 1 threads 1\n"
                           "region main compiler function main\n"
                           "region work user function work\n"
                           "region send mpi point2point MPI_Send\n"
                           "region recv mpi point2point MPI_Recv\n"
                           "loc 0.0\n0 enter main\n0 enter work\n300 leave\n1000 leave\n"
                           "loc 0.1\n0 enter main\n400 enter send\n400 send 1 0 0 8\n"
                           "410 leave\n900 leave\n"
                           "loc 1.0\n0 enter main\n100 enter recv\n420 recv 0 0 0 8\n"
                           "420 leave\n1000 leave\n";
  az_run full, sw;
  analyse(&full, text, 0);
  analyse(&sw, text, AZ_OFF_CRITICAL_PATH);
  assert_int_equal(full.a.model_limits, AZ_LIMIT_MPI_THREADS);
  assert_int_equal(sw.a.model_limits, AZ_LIMIT_MPI_THREADS);
  const char *limit =
      "model limit: the trace has MPI calls on threads other than a process's first";
  assert_string_equal(why(full.report, "delay_latesender"), limit);
  assert_string_equal(why(full.report, "mpi_wait_direct"), limit);
  assert_string_equal(why(full.report, "critical_path"), limit);
  assert_string_equal(pomp_report_attr(sw.report, POMP_REPORT_NOT_COMPUTED),
                      "critical_path performance_impact (switched off: --no-critical-path); "
                      "delay waitstates_propagating_vs_terminal waitstates_direct_vs_indirect "
                      "(model limit: the trace has MPI calls on threads other than a process's "
                      "first)");
  assert_int_equal(equal_but_not_computed(full.report, sw.report),
                   AZ_RECOUNT_LAST - AZ_RECOUNT_FIRST + 1);
  az_run_free(&sw);
  az_run_free(&full);
}

/* A report without the attribute (every report written before it) has
   every metric computed; text that does not parse marks what it names. */
static void old_and_odd_attributes_read(void **state) {
  (void)state;
  pomp_report *r = pomp_report_new();
  pomp_report_add_catalogue(r);
  for (int32_t m = 0; m < pomp_report_num_metrics(r); m++)
    assert_null(pomp_report_not_computed(r, m));
  pomp_report_set_attr(r, POMP_REPORT_NOT_COMPUTED, "critical_path;  delay_mpi ( a (b) c ) ;;");
  assert_string_equal(why(r, "critical_path_imbalance"), "unknown");
  assert_string_equal(why(r, "delay_n2n"), " a (b) c ");
  assert_null(why(r, "delay"));
  assert_null(why(r, "delay_ompbarrier"));
  assert_null(why(r, "critical_path_activities"));
  pomp_report_set_attr(r, POMP_REPORT_NOT_COMPUTED, "");
  assert_null(why(r, "critical_path"));
  assert_null(pomp_report_not_computed(r, -1));
  assert_null(pomp_report_not_computed(r, pomp_report_num_metrics(r)));
  pomp_report_free(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(each_switch_leaves_out_only_its_metrics),
      cmocka_unit_test(fused_backward_passes_give_the_values_of_the_passes_apart),
      cmocka_unit_test(tasks_mark_the_voided_metrics_with_the_limit),
      cmocka_unit_test(mpi_on_threads_void_the_classification_too),
      cmocka_unit_test(old_and_odd_attributes_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
