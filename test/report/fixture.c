/* fixture.c -- see fixture.h. */
#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const fixture_cell fixture_cells[] = {
    {0, 0, 0, 0.5},  {1, 1, 0, 4.0},   {1, 1, 1, 3.0},  {1, 1, 2, 2.0},
    {1, 1, 3, 1.0},  {2, 2, 0, 0.25},  {2, 2, 3, 0.75}, {3, 2, 1, 1.5},
    {3, 2, 2, 2.5},  {3, 3, 0, 0.125}, {4, 0, 0, 1.0},  {4, 1, 0, 10.0},
    {4, 1, 1, 10.0}, {4, 1, 2, 10.0},  {4, 1, 3, 10.0}, {4, 2, 3, 7.0},
};
const int fixture_ncells = (int)(sizeof fixture_cells / sizeof fixture_cells[0]);

pomp_report *fixture_new(void) {
  pomp_report *r = pomp_report_new();
  int32_t time = pomp_report_add_metric(r, "time", "Time", POMP_UNIT_SEC,
                                        "all", -1);
  pomp_report_add_metric(r, "comp", "Computation", POMP_UNIT_SEC, "", time);
  int32_t mpi =
      pomp_report_add_metric(r, "mpi", "MPI", POMP_UNIT_SEC, "", time);
  pomp_report_add_metric(r, "mpi_latesender", "Late Sender", POMP_UNIT_SEC,
                         "", mpi);
  pomp_report_add_metric(r, "visits", "Visits", POMP_UNIT_OCC, "", -1);
  int32_t main_ = pomp_report_add_region(r, "main", "a.c", 1, 40, "user",
                                         "function");
  int32_t solve = pomp_report_add_region(r, "solve", "a.c", 50, 90, "user",
                                         "function");
  int32_t recv = pomp_report_add_region(r, "MPI_Recv", "", 0, 0, "mpi",
                                        "point2point");
  int32_t c0 = pomp_report_add_cnode(r, main_, -1);
  int32_t c1 = pomp_report_add_cnode(r, solve, c0);
  pomp_report_add_cnode(r, recv, c1);
  pomp_report_add_cnode(r, recv, c0);
  int32_t machine =
      pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "cluster", -1, -1, -1);
  int32_t node = pomp_report_add_sysnode(r, POMP_SYS_NODE, "n01", machine,
                                         -1, -1);
  for (int rank = 0; rank < 2; rank++) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", rank);
    int32_t p =
        pomp_report_add_sysnode(r, POMP_SYS_PROCESS, name, node, rank, -1);
    for (int t = 0; t < 2; t++) {
      snprintf(name, sizeof name, "thread %d", t);
      pomp_report_add_sysnode(r, POMP_SYS_THREAD, name, p, rank, t);
    }
  }
  pomp_report_set_attr(r, "application", "fixture");
  pomp_report_set_attr(r, "ranks", "2");
  for (int i = 0; i < fixture_ncells; i++) {
    const fixture_cell *c = &fixture_cells[i];
    pomp_report_add_value(r, c->metric, c->cnode, c->location, c->value);
  }
  return r;
}

char *fixture_tmpname(const char *tag) {
  static int serial;
  const char *dir = getenv("TMPDIR");
  char *buf = malloc(512);
  snprintf(buf, 512, "%s/pomp-test-%ld-%d-%s.pomp", dir ? dir : "/tmp",
           (long)getpid(), serial++, tag);
  return buf;
}
