/* Unit tests of the automated search (report_search.c) through its API,
   on the known-answer reports of search_fixture.c: which nodes are true,
   pruned or untestable, the bottlenecks, their call paths and location
   sets, thresholds given by the caller, and the same graph from a report
   built in memory and from its file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "search_fixture.h"

static pomp_report_search *run(const pomp_report *r, const double *thresholds) {
  pomp_report_error err;
  pomp_report_search *s = pomp_report_search_run(r, thresholds, &err);
  if (!s) fail_msg("search failed: %s", err.message);
  return s;
}

static const char *callpath(const pomp_report *r, const pomp_report_search_node *n, char *buf) {
  if (n->cnode < 0) return "";
  pomp_report_callpath(r, n->cnode, ";", buf, 256);
  return buf;
}

static int32_t bottleneck(const pomp_report_search *s, int32_t i) {
  int32_t id = pomp_report_search_bottleneck(s, i);
  assert_true(id > 0);
  return id;
}

static void a_loop_of_a_third_is_the_bottleneck_and_smaller_loops_are_pruned(void **state) {
  (void)state;
  pomp_report *r = search_fixture("search_paths");
  pomp_report_search *s = run(r, NULL);
  char buf[256];
  assert_int_equal(pomp_report_search_num_bottlenecks(s), 1);
  const pomp_report_search_node *b = pomp_report_search_node_at(s, bottleneck(s, 0));
  assert_string_equal(pomp_report_search_node_name(s, bottleneck(s, 0)), "cpu_bound");
  assert_string_equal(callpath(r, b, buf), "main;loop @a.c:10");
  assert_int_equal(b->num_locations, 0); /* the same everywhere: not split */
  assert_true(fabs(b->value - 0.35) < 1e-12);
  int pruned = 0;
  for (int32_t id = 0; id < pomp_report_search_num_nodes(s); id++) {
    const pomp_report_search_node *n = pomp_report_search_node_at(s, id);
    if (n->verdict != POMP_SEARCH_PRUNED) continue;
    pruned++;
    assert_true(n->value < n->threshold);
    assert_non_null(strstr(callpath(r, n, buf), "loop @a.c:"));
  }
  assert_int_equal(pruned, 2); /* loops at 25 % and 20 % */
  assert_int_equal(pomp_report_search_node_at(s, 0)->parent, -1);
  /* the root's children: the five hypotheses in order */
  int32_t kids[8];
  assert_int_equal(pomp_report_search_node_children(s, 0, kids, 8), POMP_SEARCH_HYPOTHESES);
  for (int32_t h = 0; h < POMP_SEARCH_HYPOTHESES; h++) {
    assert_int_equal(pomp_report_search_node_at(s, kids[h])->hypothesis, h);
    assert_int_equal(pomp_report_search_node_at(s, kids[h])->parent, 0);
  }
  /* main's children: the three loops, most seconds first */
  int32_t main_node = pomp_report_search_node_at(s, bottleneck(s, 0))->parent;
  assert_int_equal(pomp_report_search_node_children(s, main_node, kids, 8), 3);
  assert_int_equal(kids[0], bottleneck(s, 0));
  assert_true(pomp_report_search_node_at(s, kids[1])->seconds >
              pomp_report_search_node_at(s, kids[2])->seconds);
  pomp_report_search_free(s);
  pomp_report_free(r);
}

static void a_collective_wait_names_the_ranks_that_wait(void **state) {
  (void)state;
  pomp_report *r = search_fixture("search_collective");
  pomp_report_search *s = run(r, NULL);
  char buf[256];
  assert_int_equal(pomp_report_search_num_bottlenecks(s), 3);
  const pomp_report_search_node *w = pomp_report_search_node_at(s, bottleneck(s, 0));
  assert_int_equal(w->hypothesis, POMP_SEARCH_SYNC_WAIT);
  assert_string_equal(pomp_report_metric(r, w->metric)->name, "mpi_wait_nxn");
  assert_string_equal(callpath(r, w, buf), "main;MPI_Allreduce");
  assert_int_equal(w->num_locations, 3);
  assert_int_equal(w->locations[0], 0);
  assert_int_equal(w->locations[1], 2);
  assert_int_equal(w->locations[2], 3);
  assert_true(fabs(w->seconds - 12) < 1e-12);
  /* the late rank's loop: imbalance, and computation on rank 1 alone */
  const pomp_report_search_node *li = pomp_report_search_node_at(s, bottleneck(s, 1));
  assert_int_equal(li->hypothesis, POMP_SEARCH_LOAD_IMBALANCE);
  assert_string_equal(callpath(r, li, buf), "main;loop @b.c:5");
  const pomp_report_search_node *cpu = pomp_report_search_node_at(s, bottleneck(s, 2));
  assert_int_equal(cpu->hypothesis, POMP_SEARCH_CPU_BOUND);
  assert_int_equal(cpu->num_locations, 1);
  assert_int_equal(cpu->locations[0], 1);
  pomp_report_search_sentence(s, bottleneck(s, 0), buf, sizeof buf);
  assert_non_null(strstr(buf, "ranks 0, 2, 3 wait"));
  assert_non_null(strstr(buf, "(not waiting: rank 1)"));
  pomp_report_search_free(s);
  pomp_report_free(r);
}

static void an_imbalanced_openmp_loop_is_found_on_the_threads(void **state) {
  (void)state;
  pomp_report *r = search_fixture("search_omp");
  pomp_report_search *s = run(r, NULL);
  char buf[256];
  int found = 0;
  for (int32_t i = 0; i < pomp_report_search_num_bottlenecks(s); i++) {
    const pomp_report_search_node *n = pomp_report_search_node_at(s, bottleneck(s, i));
    if (n->hypothesis != POMP_SEARCH_LOAD_IMBALANCE) continue;
    found = 1;
    assert_string_equal(callpath(r, n, buf), "main;!$omp parallel @c.c:3;!$omp for @c.c:4");
    assert_int_equal(n->num_locations, 3); /* threads 1-3 lose 3 s each */
    assert_true(fabs(n->seconds - 9) < 1e-12);
  }
  assert_true(found);
  pomp_report_search_free(s);
  pomp_report_free(r);
}

/* MPI start-up is paid once by every MPI program: as pomp-analyze's
   summary and pomp-tui's problem list, the search leaves it out, so the
   idle threads of MPI_Init_thread (3 s a worker, the most of any call
   path) are no bottleneck and those at MPI_Recv are. */
static void mpi_start_up_is_no_bottleneck(void **state) {
  (void)state;
  pomp_report *r = search_fixture("search_startup");
  pomp_report_search *s = run(r, NULL);
  char buf[256];
  int32_t kids[8];
  assert_int_equal(pomp_report_search_node_children(s, 0, kids, 8), POMP_SEARCH_HYPOTHESES);
  const pomp_report_search_node *po =
      pomp_report_search_node_at(s, kids[POMP_SEARCH_PARALLEL_OVERHEAD]);
  assert_int_equal(po->verdict, POMP_SEARCH_TRUE);
  assert_true(fabs(po->seconds - 3) < 1e-12); /* was 15 with start-up */
  assert_int_equal(pomp_report_search_num_bottlenecks(s), 2);
  /* computation in main (10 s) first, then the idle threads */
  const pomp_report_search_node *idle = pomp_report_search_node_at(s, bottleneck(s, 1));
  assert_int_equal(idle->hypothesis, POMP_SEARCH_PARALLEL_OVERHEAD);
  assert_string_equal(pomp_report_metric(r, idle->metric)->name, "omp_idle_threads");
  assert_string_equal(callpath(r, idle, buf), "main;MPI_Recv");
  assert_int_equal(idle->num_locations, 2); /* the workers */
  assert_int_equal(idle->locations[0], 1);
  assert_int_equal(idle->locations[1], 3);
  assert_true(fabs(idle->seconds - 3) < 1e-12);
  for (int32_t id = 0; id < pomp_report_search_num_nodes(s); id++) {
    const pomp_report_search_node *n = pomp_report_search_node_at(s, id);
    if (n->verdict == POMP_SEARCH_TRUE) assert_null(strstr(callpath(r, n, buf), "MPI_Init_thread"));
  }
  pomp_report_search_free(s);
  pomp_report_free(r);
}

static void absent_metrics_make_a_hypothesis_untestable(void **state) {
  (void)state;
  pomp_report *r = search_fixture("search_profile");
  pomp_report_search *s = run(r, NULL);
  int untestable = 0;
  for (int32_t id = 1; id < pomp_report_search_num_nodes(s); id++) {
    const pomp_report_search_node *n = pomp_report_search_node_at(s, id);
    if (n->verdict != POMP_SEARCH_UNTESTABLE) continue;
    untestable++;
    assert_true(n->hypothesis == POMP_SEARCH_SYNC_WAIT ||
                n->hypothesis == POMP_SEARCH_IO_BLOCKING ||
                n->hypothesis == POMP_SEARCH_SMALL_IO_OPS);
    assert_non_null(pomp_report_search_untestable(s, n->hypothesis));
  }
  assert_int_equal(untestable, 3);
  assert_null(pomp_report_search_untestable(s, POMP_SEARCH_CPU_BOUND));
  pomp_report_search_free(s);
  pomp_report_free(r);
}

static void thresholds_of_the_caller_decide(void **state) {
  (void)state;
  pomp_report *r = search_fixture("search_paths");
  double t[POMP_SEARCH_HYPOTHESES];
  for (int32_t h = 0; h < POMP_SEARCH_HYPOTHESES; h++)
    t[h] = pomp_report_search_default_threshold(h);
  assert_true(t[POMP_SEARCH_CPU_BOUND] == 0.30 && t[POMP_SEARCH_SYNC_WAIT] == 0.20);
  t[POMP_SEARCH_CPU_BOUND] = 0.2;
  pomp_report_search *s = run(r, t);
  assert_int_equal(pomp_report_search_num_bottlenecks(s), 3); /* the three loops */
  pomp_report_search_free(s);
  t[POMP_SEARCH_CPU_BOUND] = 0.99;
  s = run(r, t);
  assert_int_equal(pomp_report_search_num_bottlenecks(s), 0);
  assert_int_equal(pomp_report_search_node_at(s, 1)->verdict, POMP_SEARCH_FALSE);
  pomp_report_search_free(s);
  assert_int_equal(pomp_report_search_find_hypothesis("load_imbalance"),
                   POMP_SEARCH_LOAD_IMBALANCE);
  assert_int_equal(pomp_report_search_find_hypothesis("cpu"), -1);
  pomp_report_free(r);
}

static void a_report_and_its_file_give_the_same_graph(void **state) {
  (void)state;
  pomp_report *r = search_fixture("search_collective");
  pomp_report *back = fixture_round_trip(r);
  pomp_report_search *a = run(r, NULL), *b = run(back, NULL);
  assert_int_equal(pomp_report_search_num_nodes(a), pomp_report_search_num_nodes(b));
  char la[512], lb[512];
  for (int32_t id = 0; id < pomp_report_search_num_nodes(a); id++) {
    pomp_report_search_node_label(a, id, la, sizeof la);
    pomp_report_search_node_label(b, id, lb, sizeof lb);
    assert_string_equal(la, lb);
  }
  pomp_report_search_free(a);
  pomp_report_search_free(b);
  pomp_report_free(back);
  pomp_report_free(r);
}

static void a_report_without_time_cannot_be_searched(void **state) {
  (void)state;
  pomp_report *r = pomp_report_new();
  pomp_report_add_metric(r, "visits", "Visits", POMP_UNIT_OCC, "", -1);
  pomp_report_error err;
  assert_null(pomp_report_search_run(r, NULL, &err));
  assert_non_null(strstr(err.message, "no metric 'time'"));
  pomp_report_search_free(NULL);
  pomp_report_free(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_loop_of_a_third_is_the_bottleneck_and_smaller_loops_are_pruned),
      cmocka_unit_test(a_collective_wait_names_the_ranks_that_wait),
      cmocka_unit_test(an_imbalanced_openmp_loop_is_found_on_the_threads),
      cmocka_unit_test(mpi_start_up_is_no_bottleneck),
      cmocka_unit_test(absent_metrics_make_a_hypothesis_untestable),
      cmocka_unit_test(thresholds_of_the_caller_decide),
      cmocka_unit_test(a_report_and_its_file_give_the_same_graph),
      cmocka_unit_test(a_report_without_time_cannot_be_searched),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
