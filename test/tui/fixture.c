/* fixture.c -- see fixture.h.  Values per location are listed in location
   order (rank 0 thread 0, rank 0 thread 1, rank 1 thread 0, rank 1 thread 1). */
#include "fixture.h"

#include "pop_fixture.h"

#include <stddef.h>
#include <string.h>

static void add4(pomp_report *r, int32_t metric, int32_t cnode, double a, double b, double c,
                 double d) {
  const double v[4] = {a, b, c, d};
  for (int32_t l = 0; l < 4; l++)
    if (v[l] != 0) pomp_report_add_value(r, metric, cnode, l, v[l]);
}

/* time > execution > comp, mpi; *time_out gets time, out[0] comp, out[1] mpi. */
static void add_time_metrics(pomp_report *r, int32_t *time_out, int32_t out[2]) {
  int32_t time =
      pomp_report_add_metric(r, "time", "Time", POMP_UNIT_SEC, "Total CPU allocation time.", -1);
  int32_t exec = pomp_report_add_metric(r, "execution", "Execution", POMP_UNIT_SEC,
                                        "Time spent executing the program.", time);
  out[0] = pomp_report_add_metric(r, "comp", "Computation", POMP_UNIT_SEC,
                                  "Time outside MPI and OpenMP.", exec);
  out[1] = pomp_report_add_metric(r, "mpi", "MPI", POMP_UNIT_SEC, "Time in MPI calls.", exec);
  *time_out = time;
}

/* cluster > node0 > 2 ranks x 2 threads, as the trace names them
   (pomp-tui shows "rank 1", "thread 0"). */
static void add_two_ranks(pomp_report *r) {
  int32_t mach = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "cluster", -1, -1, -1);
  int32_t node = pomp_report_add_sysnode(r, POMP_SYS_NODE, "node0", mach, -1, -1);
  for (int32_t rank = 0; rank < 2; rank++) {
    const char *pname = rank ? "MPI Rank 1" : "MPI Rank 0";
    int32_t proc = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, pname, node, rank, -1);
    pomp_report_add_sysnode(r, POMP_SYS_THREAD, "Master thread", proc, rank, 0);
    pomp_report_add_sysnode(r, POMP_SYS_THREAD, "OMP thread 1", proc, rank, 1);
  }
}

/* One location: rank 0's thread 0 on node0. */
static void add_one_thread(pomp_report *r) {
  int32_t mach = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "cluster", -1, -1, -1);
  int32_t node = pomp_report_add_sysnode(r, POMP_SYS_NODE, "node0", mach, -1, -1);
  int32_t proc = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, "rank 0", node, 0, -1);
  pomp_report_add_sysnode(r, POMP_SYS_THREAD, "thread 0", proc, 0, 0);
}

static pomp_report *small(double sign) {
  pomp_report *r = pomp_report_new();
  int32_t time, cm[2];
  add_time_metrics(r, &time, cm);
  int32_t comp = cm[0], mpi = cm[1];
  int32_t ls = pomp_report_add_metric(r, "mpi_latesender", "Late Sender", POMP_UNIT_SEC,
                                      "A receive was posted before the matching send.", mpi);
  int32_t idle = pomp_report_add_metric(r, "omp_idle_threads", "Idle threads", POMP_UNIT_SEC,
                                        "Workers idle outside parallel regions.", time);
  int32_t visits = pomp_report_add_metric(r, "visits", "Visits", POMP_UNIT_OCC,
                                          "Number of times a call path was entered.", -1);
  int32_t rmain = pomp_report_add_region(r, "main", "app.c", 1, 50, "user", "function");
  int32_t rinit = pomp_report_add_region(r, "init", "app.c", 52, 60, "user", "function");
  int32_t rsolve = pomp_report_add_region(r, "solve", "app.c", 10, 30, "user", "function");
  int32_t rrecv = pomp_report_add_region(r, "MPI_Recv", "", 0, 0, "mpi", "point2point");
  int32_t rsend = pomp_report_add_region(r, "MPI_Send", "", 0, 0, "mpi", "point2point");
  int32_t cmain = pomp_report_add_cnode(r, rmain, -1);
  int32_t cinit = pomp_report_add_cnode(r, rinit, cmain);
  int32_t csolve = pomp_report_add_cnode(r, rsolve, cmain);
  int32_t crecv = pomp_report_add_cnode(r, rrecv, csolve);
  int32_t csend = pomp_report_add_cnode(r, rsend, csolve);
  add_two_ranks(r);
  pomp_report_set_attr(r, "application", "app");
  pomp_report_set_attr(r, "ranks", "2");
  pomp_report_set_attr(r, "threads", "2");
  double s = sign;
  add4(r, comp, cmain, s * 1, 1, 1, 1);
  add4(r, comp, cinit, 3.5, 3.5, 2.5, 2.5);
  add4(r, comp, csolve, 13, 13, 8, 8);
  add4(r, mpi, crecv, 1, 0, 1, 0);
  add4(r, mpi, csend, 3, 0, 3, 0);
  add4(r, ls, crecv, s * 8, 0, 0, 0);
  add4(r, idle, cmain, 0, 10, 0, 10);
  add4(r, idle, csolve, 0, 3, 0, 3);
  add4(r, visits, cmain, 1, 1, 1, 1);
  add4(r, visits, cinit, 1, 1, 1, 1);
  add4(r, visits, csolve, 1, 1, 1, 1);
  add4(r, visits, crecv, 10, 0, 10, 0);
  add4(r, visits, csend, 10, 0, 10, 0);
  return r;
}

static pomp_report *wide(void) {
  pomp_report *r = pomp_report_new();
  int32_t time = pomp_report_add_metric(r, "time", "Time", POMP_UNIT_SEC, "Total time.", -1);
  int32_t rmain = pomp_report_add_region(r, "main", "app.c", 1, 50, "user", "function");
  int32_t cmain = pomp_report_add_cnode(r, rmain, -1);
  int32_t mach = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "cluster", -1, -1, -1);
  int32_t node = pomp_report_add_sysnode(r, POMP_SYS_NODE, "node0", mach, -1, -1);
  int32_t proc = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, "rank 0", node, 0, -1);
  for (int32_t t = 0; t < 12; t++) {
    char name[16] = "thread ";
    name[7] = (char)('a' + t); /* distinct names: thread a .. thread l */
    pomp_report_add_sysnode(r, POMP_SYS_THREAD, name, proc, 0, t);
    pomp_report_add_value(r, time, cmain, t, t + 1);
  }
  return r;
}

/* The small report of a run that did not finish, as pomp-analyze marks it. */
static pomp_report *incomplete(void) {
  pomp_report *r = small(1);
  pomp_report_set_attr(r, POMP_REPORT_RUN_STATUS,
                       "incomplete: rank 1 called MPI_Abort(MPI_COMM_WORLD, 3); "
                       "rank 0 ended at its last flush");
  return r;
}

/* The same with the kind of description a recovered trace gets, whose
   tail (the missing ranks) a one-line warning cannot show, a trace
   path too long for one line, and keys longer than the key column's 14
   (the values still start in one column). */
static pomp_report *incomplete_long(void) {
  pomp_report *r = small(1);
  pomp_report_set_attr(r, "trace", "/scratch/project/user/experiments/pomp_heat_4x2/traces.otf2");
  pomp_report_set_attr(r, "analysis_warnings", "0");
  pomp_report_set_attr(r, POMP_REPORT_RUN_STATUS,
                       "incomplete: rank 1 called MPI_Abort(MPI_COMM_WORLD, 3); "
                       "trace recovered from 4 ranks (1 complete, 0 up to their last "
                       "flush, 3 missing); missing: ranks 0, 2, 3");
  return r;
}

/* Loops in the call tree: main > loop @heat.c:118 > solve > !$omp for
   (an OpenMP loop: no loop mark) and MPI_Recv. */
static pomp_report *loops(void) {
  pomp_report *r = pomp_report_new();
  int32_t time = pomp_report_add_metric(r, "time", "Time", POMP_UNIT_SEC, "Total time.", -1);
  int32_t rmain = pomp_report_add_region(r, "main", "heat.c", 1, 200, "user", "function");
  int32_t rloop = pomp_report_add_region(r, "loop @heat.c:118", "heat.c", 118, 130, "user", "loop");
  int32_t rsolve = pomp_report_add_region(r, "solve", "heat.c", 90, 110, "compiler", "function");
  int32_t rfor =
      pomp_report_add_region(r, "!$omp for @heat.c:96", "heat.c", 96, 102, "openmp", "loop");
  int32_t rrecv = pomp_report_add_region(r, "MPI_Recv", "", 0, 0, "mpi", "point2point");
  int32_t cmain = pomp_report_add_cnode(r, rmain, -1);
  int32_t cloop = pomp_report_add_cnode(r, rloop, cmain);
  int32_t csolve = pomp_report_add_cnode(r, rsolve, cloop);
  int32_t cfor = pomp_report_add_cnode(r, rfor, csolve);
  int32_t crecv = pomp_report_add_cnode(r, rrecv, cloop);
  add_one_thread(r);
  pomp_report_add_value(r, time, cmain, 0, 1);
  pomp_report_add_value(r, time, cloop, 0, 2);
  pomp_report_add_value(r, time, csolve, 0, 3);
  pomp_report_add_value(r, time, cfor, 0, 4);
  pomp_report_add_value(r, time, crecv, 0, 5);
  return r;
}

/* A profile snapshot of the small run at 2.0 s (libpomp, POMP_SNAPSHOT):
   main, solve and MPI_Recv so far, no init and no MPI_Send yet, so the
   final report ("small") numbers its call paths differently (main;solve
   is call node 1 here, 2 there). */
static pomp_report *snapshot(void) {
  pomp_report *r = pomp_report_new();
  int32_t time, cm[2];
  add_time_metrics(r, &time, cm);
  int32_t comp = cm[0], mpi = cm[1];
  int32_t rmain = pomp_report_add_region(r, "main", "app.c", 1, 50, "user", "function");
  int32_t rsolve = pomp_report_add_region(r, "solve", "app.c", 10, 30, "user", "function");
  int32_t rrecv = pomp_report_add_region(r, "MPI_Recv", "", 0, 0, "mpi", "point2point");
  int32_t cmain = pomp_report_add_cnode(r, rmain, -1);
  int32_t csolve = pomp_report_add_cnode(r, rsolve, cmain);
  int32_t crecv = pomp_report_add_cnode(r, rrecv, csolve);
  add_two_ranks(r);
  pomp_report_set_attr(r, "application", "app");
  pomp_report_set_attr(r, POMP_REPORT_RUN_STATUS, "running");
  pomp_report_set_attr(r, "snapshot_seconds", "2.0");
  add4(r, comp, cmain, 0.5, 0.5, 0.5, 0.5);
  add4(r, comp, csolve, 5, 5, 3, 3);
  add4(r, mpi, crecv, 1, 0, 1, 0);
  return r;
}

/* Names that tell apart only at their ends: two properties alike for
   31 characters, and MPI_Recv twice, the heavier one (4 s) in the lighter
   subtree (solve, 5 s; setup 9.5 s), defined second.  One location. */
static pomp_report *alike(void) {
  pomp_report *r = pomp_report_new();
  int32_t time = pomp_report_add_metric(r, "time", "Time", POMP_UNIT_SEC, "Total time.", -1);
  int32_t prop = pomp_report_add_metric(r, "waitstates_propagating_vs_terminal",
                                        "MPI Point-to-point Wait States (propagating vs. terminal)",
                                        POMP_UNIT_SEC, "", time);
  int32_t direct = pomp_report_add_metric(r, "waitstates_direct_vs_indirect",
                                          "MPI Point-to-point Wait States (direct vs. indirect)",
                                          POMP_UNIT_SEC, "", time);
  int32_t rmain = pomp_report_add_region(r, "main", "app.c", 1, 50, "user", "function");
  int32_t rsetup = pomp_report_add_region(r, "setup", "app.c", 52, 60, "user", "function");
  int32_t rsolve = pomp_report_add_region(r, "solve", "app.c", 10, 30, "user", "function");
  int32_t rrecv = pomp_report_add_region(r, "MPI_Recv", "", 0, 0, "mpi", "point2point");
  int32_t cmain = pomp_report_add_cnode(r, rmain, -1);
  int32_t csetup = pomp_report_add_cnode(r, rsetup, cmain);
  int32_t crecv_setup = pomp_report_add_cnode(r, rrecv, csetup);
  int32_t csolve = pomp_report_add_cnode(r, rsolve, cmain);
  int32_t crecv_solve = pomp_report_add_cnode(r, rrecv, csolve);
  add_one_thread(r);
  pomp_report_add_value(r, time, csetup, 0, 9);
  pomp_report_add_value(r, time, crecv_setup, 0, 0.5);
  pomp_report_add_value(r, time, csolve, 0, 1);
  pomp_report_add_value(r, time, crecv_solve, 0, 4);
  pomp_report_add_value(r, prop, crecv_solve, 0, 3);
  pomp_report_add_value(r, direct, crecv_setup, 0, 0.4);
  return r;
}

/* The small report negated, as pomp-report diff marks a difference. */
static pomp_report *difference(void) {
  pomp_report *r = small(-1);
  pomp_report_set_attr(r, "diff", "after.pomp - before.pomp");
  return r;
}

/* pop_balanced analysed from a trace with OpenMP tasks: the critical
   path and the OpenMP delay costs not computed (model limit). */
static pomp_report *not_computed(void) {
  pomp_report *r = pop_fixture_new("pop_balanced");
  pomp_report_set_attr(r, POMP_REPORT_NOT_COMPUTED,
                       "delay_omp critical_path performance_impact (model limit: the trace has "
                       "OpenMP tasks)");
  return r;
}

pomp_report *tui_fixture(const char *name) {
  if (strcmp(name, "snapshot") == 0) return snapshot();
  if (strcmp(name, "small") == 0) return small(1);
  if (strcmp(name, "incomplete") == 0) return incomplete();
  if (strcmp(name, "incomplete_long") == 0) return incomplete_long();
  if (strcmp(name, "diff") == 0) return difference();
  if (strcmp(name, "wide") == 0) return wide();
  if (strncmp(name, "pop_", 4) == 0) return pop_fixture_new(name);
  if (strcmp(name, "loops") == 0) return loops();
  if (strcmp(name, "not_computed") == 0) return not_computed();
  if (strcmp(name, "alike") == 0) return alike();
  return NULL;
}
