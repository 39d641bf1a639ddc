/* make_fixture VARIANT FILE -- writes a fixture report for the CLI tests:
     plain  the fixture of fixture.h
     empty  its definitions without values
     extra  the fixture plus 1 on comp/main;solve/rank 0 thread 0, and a
            new metric bytes_sent = 64 on a new call path main;MPI_Send of
            a new location rank 2 thread 0
     incomplete  the fixture of a run that did not finish (run_status)
     own    the fixture with more in the own parts of time and mpi: time
            0.5 s on main;TRACE BUFFER FLUSH (rank 1 thread 0) and 0.25 s
            on main;solve;TRACE BUFFER FLUSH (rank 0 thread 0), so its own
            part is 1.25 s, 60 % flush; mpi 0.6 s each on main;MPI_Init
            and main;MPI_Barrier (rank 0 thread 0), so its own part is
            2.2 s, 45 % MPI_Recv
     score  a run of known visits for pomp-report score (score_fixture):
            1 rank x 2 threads, compiler-instrumented functions, one with
            MPI below it, buffer flushes of 14 % of the time, C++ static
            initialisers as the first root, a long C++ call path
     pop_*  the planted POP reports of pop_fixture.h
     search_*  the known-answer reports of search_fixture.c */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "fixture.h"
#include "pop_fixture.h"
#include "search_fixture.h"

/* One call path of the score fixture: region (by name, made on first
   use) under parent, with per-location (master, worker) visits and
   values of one time metric. */
typedef struct {
  const char *name, *paradigm, *role;
  int parent; /* index into the table, -1: a root */
  double visits[2];
  const char *metric;
  double value[2];
} score_path;

static const score_path score_paths[] = {
    /* C++ static initialisers run first: the first root */
    /* 0 */ {"_GLOBAL__sub_I_a.cc", "compiler", "function", -1, {1, 0}, "comp", {0.001, 0}},
    /* 1 */
    {"__static_initialization_and_destruction_0(int, int)",
     "compiler",
     "function",
     0,
     {1, 0},
     "comp",
     {0.001, 0}},
    /* 2 */ {"main", "compiler", "function", -1, {1, 0}, "comp", {0.1, 0}},
    /* 3 */ {"solve", "compiler", "function", 2, {1, 0}, "comp", {0.2, 0}},
    /* 4 */ {"tiny", "compiler", "function", 3, {1e6, 0}, "comp", {0.05, 0}},
    /* 5 */
    {"Vec<double>::operator[](unsigned long) const",
     "compiler",
     "function",
     3,
     {4e5, 0},
     "comp",
     {0.02, 0}},
    /* 6 */ {"exchange(int*)", "compiler", "function", 3, {5e5, 0}, "comp", {0.1, 0}},
    /* 7 */ {"exchange(int*)", "compiler", "function", 2, {10, 0}, "comp", {0.001, 0}},
    /* 8 */ {"MPI_Send", "mpi", "point2point", 7, {10, 0}, "mpi_point2point", {0.004, 0}},
    /* 9 */
    {"!$omp parallel @a.c:10", "openmp", "parallel", 2, {1, 1}, "omp_management", {0.01, 0.01}},
    /* 10 */ {"kernel", "compiler", "function", 9, {100, 100}, "comp", {0.1, 0.1}},
    /* 11 */ {"helper", "compiler", "function", 10, {2e5, 2e5}, "comp", {0.1, 0.1}},
    /* 12 */ {"TRACE BUFFER FLUSH", "measurement", "artificial", 4, {2, 0}, "execution", {0.1, 0}},
    /* serial time: the worker idles while the master flushes */
    /* 13 */
    {"TRACE BUFFER FLUSH", "measurement", "artificial", 4, {0, 0}, "omp_idle_threads", {0, 0.1}},
    /* a deep C++ path whose summary line is cut at the root end */
    /* 14 */
    {"physics::hydro::LagrangeNodal(physics::Domain&, double)",
     "compiler",
     "function",
     3,
     {1, 0},
     "comp",
     {0, 0}},
    /* 15 */
    {"physics::hydro::CalcForceForNodes(physics::Domain&)",
     "compiler",
     "function",
     14,
     {1, 0},
     "comp",
     {0, 0}},
    /* 16 */
    {"physics::hydro::CalcVolumeForceForElems(physics::Domain&, int)",
     "compiler",
     "function",
     15,
     {1, 0},
     "comp",
     {0, 0}},
    /* 17 */ {"MPI_Allreduce", "mpi", "coll_all2all", 16, {1, 0}, "mpi_wait_nxn", {0.3, 0}},
};

static pomp_report *score_fixture(void) {
  pomp_report *r = pomp_report_new();
  pomp_report_add_catalogue(r);
  int32_t machine = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "cluster", -1, -1, -1);
  int32_t node = pomp_report_add_sysnode(r, POMP_SYS_NODE, "n01", machine, -1, -1);
  int32_t p = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, "rank 0", node, 0, -1);
  pomp_report_add_sysnode(r, POMP_SYS_THREAD, "thread 0", p, 0, 0);
  pomp_report_add_sysnode(r, POMP_SYS_THREAD, "thread 1", p, 0, 1);
  int32_t visits = pomp_report_find_metric(r, "visits");
  int32_t cnode[sizeof score_paths / sizeof score_paths[0]];
  for (size_t i = 0; i < sizeof score_paths / sizeof score_paths[0]; i++) {
    const score_path *s = &score_paths[i];
    int32_t g = -1;
    for (int32_t k = 0; k < pomp_report_num_regions(r); k++)
      if (strcmp(pomp_report_region(r, k)->name, s->name) == 0) g = k;
    if (g < 0) g = pomp_report_add_region(r, s->name, "a.c", 0, 0, s->paradigm, s->role);
    cnode[i] = pomp_report_add_cnode(r, g, s->parent < 0 ? -1 : cnode[s->parent]);
    for (int32_t l = 0; l < 2; l++) {
      if (s->visits[l] > 0) pomp_report_add_value(r, visits, cnode[i], l, s->visits[l]);
      if (s->value[l] > 0)
        pomp_report_add_value(r, pomp_report_find_metric(r, s->metric), cnode[i], l, s->value[l]);
    }
  }
  pomp_report_set_attr(r, "application", "score");
  return r;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr,
            "usage: make_fixture "
            "plain|empty|extra|incomplete|profile|own|micro|latin1|score|pop_*|search_* FILE\n");
    return 2;
  }
  pomp_report *r = search_fixture(argv[1]);
  if (!r)
    r = strcmp(argv[1], "score") == 0      ? score_fixture()
        : strncmp(argv[1], "pop_", 4) == 0 ? pop_fixture_new(argv[1])
                                           : fixture_new();
  if (!r) {
    fprintf(stderr, "make_fixture: unknown variant %s\n", argv[1]);
    return 1;
  }
  if (strcmp(argv[1], "empty") == 0) { /* the writer with no rows */
    pomp_report_writer *w = pomp_report_write_begin(r, argv[2], NULL);
    int rc = !w || pomp_report_write_end(w, NULL) != POMP_REPORT_OK;
    pomp_report_free(r);
    return rc;
  }
  if (strcmp(argv[1], "extra") == 0) {
    pomp_report_add_value(r, 1, 1, 0, 1.0);
    int32_t bytes = pomp_report_add_metric(r, "bytes_sent", "Bytes Sent", POMP_UNIT_BYTES, "", -1);
    int32_t send = pomp_report_add_region(r, "MPI_Send", "", 0, 0, "mpi", "point2point");
    int32_t cnode = pomp_report_add_cnode(r, send, 0);
    int32_t p = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, "rank 2", 1, 2, -1);
    pomp_report_add_sysnode(r, POMP_SYS_THREAD, "thread 0", p, 2, 0);
    pomp_report_add_value(r, bytes, cnode, 4, 64.0);
  }
  if (strcmp(argv[1], "own") == 0) {
    int32_t flush =
        pomp_report_add_region(r, "TRACE BUFFER FLUSH", "", 0, 0, "measurement", "artificial");
    pomp_report_add_value(r, 0, pomp_report_add_cnode(r, flush, 0), 2, 0.5);
    pomp_report_add_value(r, 0, pomp_report_add_cnode(r, flush, 1), 0, 0.25);
    static const char *const mpi_calls[] = {"MPI_Init", "MPI_Barrier"};
    for (int i = 0; i < 2; i++) {
      int32_t g = pomp_report_add_region(r, mpi_calls[i], "", 0, 0, "mpi", "function");
      pomp_report_add_value(r, 2, pomp_report_add_cnode(r, g, 0), 0, 0.6);
    }
  }
  if (strcmp(argv[1], "micro") == 0) { /* a call under a millisecond: stat's µs column */
    int32_t g = pomp_report_add_region(r, "MPI_Barrier", "", 0, 0, "mpi", "function");
    pomp_report_add_value(r, 2, pomp_report_add_cnode(r, g, 0), 0, 0.000394109);
  }
  if (strcmp(argv[1], "latin1") == 0) /* a file name measured as Latin-1 bytes */
    pomp_report_add_value(
        r, 0,
        pomp_report_add_cnode(r, pomp_report_add_region(r, "caf\xe9", "", 0, 0, "user", "function"),
                              0),
        0, 0.5);
  if (strcmp(argv[1], "incomplete") == 0)
    pomp_report_set_attr(r, POMP_REPORT_RUN_STATUS,
                         "incomplete: rank 1 called MPI_Abort(MPI_COMM_WORLD, "
                         "3); rank 0 ended at its last flush");
  if (strcmp(argv[1], "profile") == 0) /* libpomp's own, POMP_MODE=profile */
    pomp_report_set_attr(r, POMP_REPORT_MODE, "profile");
  pomp_report_error err;
  if (pomp_report_write(r, argv[2], &err) != POMP_REPORT_OK) {
    fprintf(stderr, "make_fixture: %s\n", err.message);
    return 1;
  }
  pomp_report_free(r);
  return 0;
}
