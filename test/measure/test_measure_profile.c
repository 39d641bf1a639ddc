/* test_measure_profile.c -- POMP_MODE=profile: the call-path trees of
   pm_profile.c fed with events at known times (exact visits, inclusive
   times, grafting of a worker onto the master's path, the bound on call
   paths), and the report a hand-instrumented OpenMP program writes
   (scenarios/sc_profile.c: exact visits per call path and thread, the
   worker's paths under the master's, times that add up, no trace). */
#include <signal.h>
#include <unistd.h>

#include "measure_test.h"
#include "pm_profile.h"
#include "pomp_report.h"

/* ------------------------------------------------------------ the trees */

static pm_location loc(uint32_t thread) {
  pm_location l;
  memset(&l, 0, sizeof l);
  l.thread = thread;
  return l;
}

static void ev(pm_location *l, enum pm_event_kind k, uint64_t t, uint32_t region) {
  pm_profile_event(l, k, t, region);
}

/* The node of l's tree reached from the root by regions path[0..n). */
static const pm_pnode *node_at(uint32_t thread, const uint32_t *path, int n) {
  const pm_pnode *nodes;
  uint32_t count = pm_profile_nodes(pm_profile_of(thread), &nodes);
  uint32_t at = 0;
  for (int d = 0; d < n; d++) {
    uint32_t c = nodes[at].child;
    while (c != UINT32_MAX && nodes[c].region != path[d]) c = nodes[c].sibling;
    assert_true(c < count);
    at = c;
  }
  return &nodes[at];
}

static void nested_calls_count_visits_and_inclusive_time(void **state) {
  (void)state;
  pm_profile_reset();
  pm_location l = loc(0);
  ev(&l, PM_EV_ENTER, 100, 1);       /* main */
  for (uint64_t k = 0; k < 3; k++) { /* main > f > g, f twice calls g */
    uint64_t t = 200 + 100 * k;
    ev(&l, PM_EV_ENTER, t, 2);
    ev(&l, PM_EV_ENTER, t + 10, 3);
    ev(&l, PM_EV_LEAVE, t + 30, 3);
    ev(&l, PM_EV_ENTER, t + 40, 3);
    ev(&l, PM_EV_LEAVE, t + 45, 3);
    ev(&l, PM_EV_LEAVE, t + 50, 2);
  }
  ev(&l, PM_EV_LEAVE, 1000, 1);
  const pm_pnode *main_ = node_at(0, (uint32_t[]){1}, 1);
  const pm_pnode *f = node_at(0, (uint32_t[]){1, 2}, 2);
  const pm_pnode *g = node_at(0, (uint32_t[]){1, 2, 3}, 3);
  assert_int_equal(main_->visits, 1);
  assert_int_equal(main_->incl_ns, 900);
  assert_int_equal(f->visits, 3);
  assert_int_equal(f->incl_ns, 150);
  assert_int_equal(g->visits, 6);
  assert_int_equal(g->incl_ns, 75);
  const pm_pnode *nodes;
  assert_int_equal(pm_profile_nodes(pm_profile_of(0), &nodes), 4); /* root + 3 paths */
  pm_profile_reset();
}

static void a_worker_is_grafted_where_the_master_forked(void **state) {
  (void)state;
  pm_profile_reset();
  pm_location m = loc(0), w = loc(1);
  ev(&m, PM_EV_ENTER, 0, 1); /* main */
  ev(&m, PM_EV_ENTER, 5, 2); /* step */
  ev(&m, PM_EV_FORK, 6, 2);
  ev(&m, PM_EV_TEAM_BEGIN, 7, 0);
  ev(&m, PM_EV_ENTER, 7, 9); /* the parallel region under main > step */
  ev(&w, PM_EV_TEAM_BEGIN, 8, 0);
  ev(&w, PM_EV_ENTER, 8, 9);
  ev(&w, PM_EV_LEAVE, 20, 9);
  ev(&m, PM_EV_LEAVE, 21, 9);
  const pm_pnode *mnodes, *wnodes;
  pm_profile_nodes(pm_profile_of(0), &mnodes);
  assert_int_equal(pm_profile_nodes(pm_profile_of(1), &wnodes), 3); /* root, graft, region */
  const pm_pnode *step = node_at(0, (uint32_t[]){1, 2}, 2);
  const pm_pnode *graft = &wnodes[wnodes[0].child];
  assert_int_equal(graft->region, PM_NO_REGION);
  assert_ptr_equal(&mnodes[graft->graft], step);
  const pm_pnode *par = &wnodes[graft->child];
  assert_int_equal(par->region, 9);
  assert_int_equal(par->visits, 1);
  assert_int_equal(par->incl_ns, 12);
  pm_profile_reset();
}

static void call_paths_beyond_the_bound_count_in_their_caller(void **state) {
  (void)state;
  pm_profile_reset();
  pm_location l = loc(2);
  uint32_t extra = 100, n = PM_PROFILE_MAX_NODES + extra; /* a recursion n deep */
  for (uint32_t r = 0; r < n; r++) ev(&l, PM_EV_ENTER, 10 + r, r);
  for (uint32_t r = n; r-- > 0;) ev(&l, PM_EV_LEAVE, 10 + 2 * n - r, r);
  const pm_pnode *nodes;
  assert_int_equal(pm_profile_nodes(pm_profile_of(2), &nodes), PM_PROFILE_MAX_NODES);
  /* root + 65535 paths fit; the deeper enters were counted in the last */
  assert_int_equal(pm_profile_dropped(pm_profile_of(2)), extra + 1);
  const pm_pnode *last = &nodes[PM_PROFILE_MAX_NODES - 1];
  assert_int_equal(last->visits, 1);
  uint32_t r = PM_PROFILE_MAX_NODES - 2; /* its region: entered at 10 + r */
  assert_int_equal(last->region, r);
  assert_int_equal(last->incl_ns, (10 + 2 * n - r) - (10 + r));
  pm_profile_reset();
}

/* The node of region in a copy (each region once in these trees). */
static const pm_pnode *copied(const pm_pnode *copy, uint32_t n, uint32_t region) {
  for (uint32_t i = 1; i < n; i++)
    if (copy[i].region == region) return &copy[i];
  fail_msg("region %u not in the copy", region);
  return NULL;
}

/* A snapshot's copy (pm_profile_copy): the regions still open get their
   time up to the snapshot, the finished ones their own; the copy stays as
   it was while the tree grows on (its arrays move); without a time, open
   regions have none yet. */
static void a_copy_gives_open_regions_their_time_so_far(void **state) {
  (void)state;
  pm_profile_reset();
  pm_location l = loc(0);
  ev(&l, PM_EV_ENTER, 100, 1); /* main, open */
  ev(&l, PM_EV_ENTER, 200, 2); /* f, 100 ns */
  ev(&l, PM_EV_LEAVE, 300, 2);
  ev(&l, PM_EV_ENTER, 400, 3); /* g, open */
  pm_pnode *copy;
  uint32_t n = pm_profile_copy(pm_profile_of(0), 1000, &copy);
  assert_int_equal(n, 4);
  assert_int_equal(copied(copy, n, 1)->incl_ns, 900);
  assert_int_equal(copied(copy, n, 2)->incl_ns, 100);
  assert_int_equal(copied(copy, n, 3)->incl_ns, 600);
  assert_int_equal(copied(copy, n, 3)->visits, 1);
  for (uint32_t r = 10; r < 300; r++) { /* 290 new paths under g */
    ev(&l, PM_EV_ENTER, 1000 + r, r);
    ev(&l, PM_EV_LEAVE, 1001 + r, r);
  }
  assert_int_equal(copied(copy, n, 1)->incl_ns, 900);
  free(copy);
  n = pm_profile_copy(pm_profile_of(0), 0, &copy);
  assert_int_equal(n, 4 + 290);
  assert_int_equal(copied(copy, n, 1)->incl_ns, 0); /* open, no time given */
  assert_int_equal(copied(copy, n, 299)->visits, 1);
  free(copy);
  pm_profile_reset();
}

/* ------------------------------------------------- the scenario's report */

static int32_t cnode_of(const pomp_report *r, const char *path) {
  char buf[512];
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++) {
    pomp_report_callpath(r, c, ";", buf, sizeof buf);
    if (!strcmp(buf, path)) return c;
  }
  fail_msg("no call path %s", path);
  return -1;
}

#define PAR "main;step;!$omp parallel @sc_profile.c:30"

/* Inclusive time of cnode on location loc over the time metrics. */
static double incl_time(const pomp_report *r, int32_t cnode, int32_t loc) {
  pomp_report_selection s = {pomp_report_find_metric(r, "time"), 1, cnode, 1};
  double *v = calloc((size_t)pomp_report_num_locations(r), sizeof *v);
  pomp_report_error err;
  assert_int_equal(pomp_report_location_values(r, &s, v, &err), POMP_REPORT_OK);
  double x = v[loc];
  free(v);
  return x;
}

static void an_openmp_program_writes_its_profile_as_a_report(void **state) {
  (void)state;
  sc_result res;
  sc_run("sc_profile", "profile", NULL, (const char *[]){"POMP_MODE=profile", NULL}, &res);
  assert_true(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0);
  assert_string_equal(res.out, "done\n");
  assert_string_equal(res.err, "");
  assert_int_not_equal(access(res.trace, F_OK), 0); /* no trace */
  pomp_report_error err;
  pomp_report *r = pomp_report_open(res.dir, &err);
  assert_non_null(r);
  assert_string_equal(pomp_report_attr(r, "mode"), "profile");
  assert_string_equal(pomp_report_mode_note(r),
                      "profile: wait-state properties need a trace (POMP_MODE=trace)");
  assert_int_equal(pomp_report_num_locations(r), 2);
  assert_int_equal(pomp_report_num_cnodes(r), 12);
  int32_t visits = pomp_report_find_metric(r, "visits");
  static const struct {
    const char *path;
    double master, worker;
  } expect[] = {
      {"main", 1, 0},
      {"main;nap", 1, 0},
      {"main;nap;nap;nap;nap;nap", 1, 0},
      {"main;step", 3, 0},
      {PAR, 3, 3},
      {PAR ";work", 15, 15},
      {PAR ";work;leaf", 30, 30},
      {PAR ";!$omp barrier @sc_profile.c:38", 3, 3},
      {PAR ";!$omp implicit barrier @sc_profile.c:45", 3, 3},
  };
  for (size_t i = 0; i < sizeof expect / sizeof *expect; i++) {
    int32_t c = cnode_of(r, expect[i].path);
    assert_true(pomp_report_value(r, visits, c, 0) == expect[i].master);
    assert_true(pomp_report_value(r, visits, c, 1) == expect[i].worker);
  }
  /* nap sleeps 20 ms at the deepest level: its own time, comp, on the master */
  double nap = pomp_report_value(r, pomp_report_find_metric(r, "comp"),
                                 cnode_of(r, "main;nap;nap;nap;nap;nap"), 0);
  assert_true(nap >= 0.020);
  /* the worker's part of the region lies inside the master's step; each
     path's inclusive time covers its children's */
  int32_t step = cnode_of(r, "main;step"), par = cnode_of(r, PAR), work = cnode_of(r, PAR ";work");
  assert_true(incl_time(r, par, 1) <= incl_time(r, step, 0));
  assert_true(incl_time(r, par, 0) <= incl_time(r, step, 0));
  assert_true(incl_time(r, work, 1) <= incl_time(r, par, 1));
  assert_true(incl_time(r, cnode_of(r, "main"), 0) >= incl_time(r, step, 0) + nap);
  assert_non_null(strstr(sc_file(res.dir, "measure.log"), "profile written to"));
  pomp_report_free(r);
}

/* The join barrier in profile mode: each member's implicit barrier at the
   end of the region runs from its arrival to the master's join, so the
   planted imbalance (the master sleeps 100 ms in the loop) is barrier time
   on the worker, as in the trace (test_measure_omp). */
static void the_join_barrier_times_the_imbalance(void **state) {
  (void)state;
  sc_result res;
  sc_run("sc_join", "profile_join", (const char *[]){"2", "100", NULL},
         (const char *[]){"POMP_MODE=profile", NULL}, &res);
  assert_true(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0);
  assert_string_equal(res.out, "sum=8 inner=4\n");
  pomp_report_error err;
  pomp_report *r = pomp_report_open(res.dir, &err);
  assert_non_null(r);
  int32_t barrier = cnode_of(r, "!$omp parallel @sc_join.c:21;!$omp for @sc_join.c:21;"
                                "!$omp implicit barrier @sc_join.c:25");
  int32_t visits = pomp_report_find_metric(r, "visits");
  assert_true(pomp_report_value(r, visits, barrier, 0) == 1);
  assert_true(pomp_report_value(r, visits, barrier, 1) == 1);
  int32_t omp_barrier = pomp_report_find_metric(r, "omp_barrier");
  double master = pomp_report_value(r, omp_barrier, barrier, 0);
  double worker = pomp_report_value(r, omp_barrier, barrier, 1);
  assert_true(worker >= 0.050);
  assert_true(master < worker);
  /* the region that ends in a single: its barrier once on each thread */
  int32_t single = cnode_of(r, "!$omp parallel @sc_join.c:44;!$omp single @sc_join.c:46;"
                               "!$omp implicit barrier @sc_join.c:47");
  assert_true(pomp_report_value(r, visits, single, 0) == 1);
  assert_true(pomp_report_value(r, visits, single, 1) == 1);
  pomp_report_free(r);
}

/* sc_signal raises SIGTERM inside its region "doomed", after 3 "work"s. */
static void a_program_killed_by_a_signal_writes_its_profile_so_far(void **state) {
  (void)state;
  sc_result res;
  sc_run("sc_signal", "profile_term", (const char *[]){"term", NULL},
         (const char *[]){"POMP_MODE=profile", NULL}, &res);
  assert_true(WIFSIGNALED(res.status));
  assert_int_equal(WTERMSIG(res.status), SIGTERM);
  pomp_report_error err;
  pomp_report *r = pomp_report_open(res.dir, &err);
  assert_non_null(r);
  int32_t visits = pomp_report_find_metric(r, "visits");
  assert_true(pomp_report_value(r, visits, cnode_of(r, "work"), 0) == 3);
  assert_true(pomp_report_value(r, visits, cnode_of(r, "doomed"), 0) == 1);
  pomp_report_free(r);
}

static void an_unknown_mode_is_reported_and_traces(void **state) {
  (void)state;
  sc_result res;
  sc_run("sc_profile", "badmode", NULL, (const char *[]){"POMP_MODE=both", NULL}, &res);
  assert_true(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0);
  assert_string_equal(res.err, "libpomp: warning: POMP_MODE=both is not valid (accepted: "
                               "trace, profile); using the default trace\n");
  assert_int_equal(access(res.trace, F_OK), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(nested_calls_count_visits_and_inclusive_time),
      cmocka_unit_test(a_worker_is_grafted_where_the_master_forked),
      cmocka_unit_test(call_paths_beyond_the_bound_count_in_their_caller),
      cmocka_unit_test(a_copy_gives_open_regions_their_time_so_far),
      cmocka_unit_test(an_openmp_program_writes_its_profile_as_a_report),
      cmocka_unit_test(the_join_barrier_times_the_imbalance),
      cmocka_unit_test(a_program_killed_by_a_signal_writes_its_profile_so_far),
      cmocka_unit_test(an_unknown_mode_is_reported_and_traces),
  };
  return cmocka_run_group_tests(tests, NULL, mt_teardown);
}
