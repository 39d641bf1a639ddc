/* pop_fixture.c -- see pop_fixture.h.  Each fixture is a table of cells
   (metric, call path, rank, thread, seconds), stored metric-exclusive as
   pomp-analyze stores them; the hand computation of its efficiencies is
   written above it (U = comp of a location, R = the largest location's
   time, O = time - mpi of a master thread, I = the critical path's
   computation). */
#include "pop_fixture.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  const char *metric, *path;
  int rank, thread;
  double value;
} pop_cell;

typedef struct {
  const char *name;
  int ranks, threads;
  int critical_path; /* 1: define the critical-path metrics, 2: and fill them */
  const pop_cell *cells;
} pop_case;

#define CELLS_END                                                                                  \
  { NULL, NULL, 0, 0, 0 }

/* R = 10 on both ranks, U = 8, 8: PE = 8/10, LB = 1, CommE = 0.8; O = 8,
   8: MPI PE = 0.8, MPI LB = 1, MPI CommE = 0.8, OpenMP all 1. */
static const pop_cell balanced[] = {{"comp", "main;compute(double*)", 0, 0, 8},
                                    {"mpi_collective", "main;MPI_Allreduce", 0, 0, 2},
                                    {"comp", "main;compute(double*)", 1, 0, 8},
                                    {"mpi_collective", "main;MPI_Allreduce", 1, 0, 2},
                                    CELLS_END};

/* R = 9 (8 + 1 on rank 0, 4 + 4 + 1 on the others), U = 8, 4, 4, 4:
   avg 5, PE = 5/9, LB = 5/8, CommE = 8/9.  The critical path runs on
   rank 0: 8 in compute (5 + 3 of imbalance, its child), 1 in
   MPI_Allreduce (no computation there): I = 8, SerE = 8/8 = 1, TE = 8/9.
   O = U (no OpenMP): MPI = the same, OpenMP all 1.  Sub-tree
   main;compute: R = 8, PE = 5/8, LB = 5/8, CommE = 1, I = 8, SerE = TE =
   1.  Sub-tree main;MPI_Allreduce: R = 5, U = 0: PE = CommE = 0, LB n/a;
   the path crosses it without computation: I = 0, SerE n/a, TE = 0. */
static const pop_cell imbalanced[] = {{"comp", "main;compute(double*)", 0, 0, 8},
                                      {"mpi_collective", "main;MPI_Allreduce", 0, 0, 1},
                                      {"comp", "main;compute(double*)", 1, 0, 4},
                                      {"mpi_wait_nxn", "main;MPI_Allreduce", 1, 0, 4},
                                      {"mpi_collective", "main;MPI_Allreduce", 1, 0, 1},
                                      {"comp", "main;compute(double*)", 2, 0, 4},
                                      {"mpi_wait_nxn", "main;MPI_Allreduce", 2, 0, 4},
                                      {"mpi_collective", "main;MPI_Allreduce", 2, 0, 1},
                                      {"comp", "main;compute(double*)", 3, 0, 4},
                                      {"mpi_wait_nxn", "main;MPI_Allreduce", 3, 0, 4},
                                      {"mpi_collective", "main;MPI_Allreduce", 3, 0, 1},
                                      {"critical_path", "main;compute(double*)", 0, 0, 5},
                                      {"critical_path_imbalance", "main;compute(double*)", 0, 0, 3},
                                      {"critical_path", "main;MPI_Allreduce", 0, 0, 1},
                                      CELLS_END};

/* A chain: rank 0 works 4, sends (0.5), receives rank 1's answer (waits
   4, transfer 0.5); rank 1 receives (waits 4, 0.5), works 4, sends (0.5).
   R = 9, U = 4, 4: PE = 4/9, LB = 1, CommE = 4/9.  The critical path:
   work on rank 0 (4), the transfer into rank 1 (0.5), work on rank 1 (4),
   the transfer back (0.5): I = 8, SerE = 4/8 = 0.5, TE = 8/9.  O = U:
   MPI = the same, OpenMP all 1. */
static const pop_cell mpi_wait[] = {{"comp", "main;work", 0, 0, 4},
                                    {"mpi_point2point", "main;MPI_Send", 0, 0, 0.5},
                                    {"mpi_latesender", "main;MPI_Recv", 0, 0, 4},
                                    {"mpi_point2point", "main;MPI_Recv", 0, 0, 0.5},
                                    {"mpi_latesender", "main;MPI_Recv", 1, 0, 4},
                                    {"mpi_point2point", "main;MPI_Recv", 1, 0, 0.5},
                                    {"comp", "main;work", 1, 0, 4},
                                    {"mpi_point2point", "main;MPI_Send", 1, 0, 0.5},
                                    {"critical_path", "main;work", 0, 0, 4},
                                    {"critical_path", "main;MPI_Recv", 1, 0, 0.5},
                                    {"critical_path", "main;work", 1, 0, 4},
                                    {"critical_path", "main;MPI_Recv", 0, 0, 0.5},
                                    CELLS_END};

/* Masters: 2 serial + 6 in the parallel region; workers: idle 2 in the
   serial part, 3 of work and 3 waiting in the implicit barrier.  R = 8,
   U = 8, 3, 8, 3: avg 5.5, PE = LB = 5.5/8 = 0.6875, CommE = 1.  No MPI:
   O = 8, 8, MPI all 1, so OpenMP PE = 0.6875, OpenMP LB = 0.6875,
   OpenMP CommE = 1.  The critical path stays on rank 0's master: I = 8,
   SerE = TE = 1.  Sub-tree main;!$omp parallel @a.c:5: R = 6, U = 6, 3,
   6, 3: PE = LB = 0.75, CommE = 1, I = 6, SerE = TE = 1, MPI 1, OpenMP
   PE = LB = 0.75. */
static const pop_cell hybrid[] = {
    {"comp", "main", 0, 0, 2},
    {"comp", "main;!$omp parallel @a.c:5", 0, 0, 6},
    {"omp_idle_threads", "main", 0, 1, 2},
    {"comp", "main;!$omp parallel @a.c:5", 0, 1, 3},
    {"omp_ibarrier_wait", "main;!$omp parallel @a.c:5;!$omp implicit barrier @a.c:9", 0, 1, 3},
    {"comp", "main", 1, 0, 2},
    {"comp", "main;!$omp parallel @a.c:5", 1, 0, 6},
    {"omp_idle_threads", "main", 1, 1, 2},
    {"comp", "main;!$omp parallel @a.c:5", 1, 1, 3},
    {"omp_ibarrier_wait", "main;!$omp parallel @a.c:5;!$omp implicit barrier @a.c:9", 1, 1, 3},
    {"critical_path", "main", 0, 0, 2},
    {"critical_path", "main;!$omp parallel @a.c:5", 0, 0, 6},
    CELLS_END};

/* The critical path crosses slow MPI time and passes by the busiest
   location's work (LULESH 8 x 1 on 2 cores): rank 0 works 3, then 7 in
   MPI_Recv without waiting (transfer); rank 1 works 4, waits 5 and
   receives in 1.  The path: rank 0's work and MPI_Recv, 10, of which 3
   computation; rank 1's 4 of work must happen too, so I = max(3, 4) = 4:
   SerE = 4/4 = 1, TE = 4/10 (3 would make SerE 4/3).  R = 10, U = 3, 4:
   PE = 3.5/10, LB = 3.5/4, CommE = 4/10; O = U: MPI the same, OpenMP 1. */
static const pop_cell path_in_mpi[] = {{"comp", "main;work", 0, 0, 3},
                                       {"mpi_point2point", "main;MPI_Recv", 0, 0, 7},
                                       {"comp", "main;work", 1, 0, 4},
                                       {"mpi_latesender", "main;MPI_Recv", 1, 0, 5},
                                       {"mpi_point2point", "main;MPI_Recv", 1, 0, 1},
                                       {"critical_path", "main;work", 0, 0, 3},
                                       {"critical_path", "main;MPI_Recv", 0, 0, 7},
                                       CELLS_END};

static const pop_case cases[] = {
    {"pop_balanced", 2, 1, 0, balanced},
    {"pop_imbalanced", 4, 1, 2, imbalanced},
    {"pop_mpi_wait", 2, 1, 2, mpi_wait},
    {"pop_hybrid", 2, 2, 2, hybrid},
    {"pop_path_in_mpi", 2, 1, 2, path_in_mpi},
    /* pop_imbalanced's cells without those of the critical path */
    {"pop_no_cp", 4, 1, 1, imbalanced},
};

/* The region of a call-path component: MPI and OpenMP by their names. */
static int32_t region_of(pomp_report *r, const char *name) {
  for (int32_t g = 0; g < pomp_report_num_regions(r); g++)
    if (strcmp(pomp_report_region(r, g)->name, name) == 0) return g;
  const char *paradigm = "user", *role = "function";
  if (strncmp(name, "MPI_", 4) == 0) paradigm = "mpi", role = "point2point";
  if (strncmp(name, "!$omp parallel", 14) == 0) paradigm = "openmp", role = "parallel";
  if (strncmp(name, "!$omp implicit", 14) == 0) paradigm = "openmp", role = "implicit_barrier";
  return pomp_report_add_region(r, name, "a.c", 1, 2, paradigm, role);
}

/* The cnode of "a;b;c", made on first use. */
static int32_t cnode_of(pomp_report *r, const char *path) {
  int32_t parent = -1;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *save = NULL, *part = strtok_r(buf, ";", &save); part;
       part = strtok_r(NULL, ";", &save)) {
    int32_t g = region_of(r, part), found = -1;
    for (int32_t c = 0; c < pomp_report_num_cnodes(r) && found < 0; c++) {
      const pomp_cnode *cn = pomp_report_cnode(r, c);
      if (cn->region == g && cn->parent == parent) found = c;
    }
    parent = found >= 0 ? found : pomp_report_add_cnode(r, g, parent);
  }
  return parent;
}

static void add_system(pomp_report *r, int ranks, int threads) {
  int32_t machine = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "cluster", -1, -1, -1);
  int32_t node = pomp_report_add_sysnode(r, POMP_SYS_NODE, "n01", machine, -1, -1);
  for (int rank = 0; rank < ranks; rank++) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", rank);
    int32_t p = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, name, node, rank, -1);
    for (int t = 0; t < threads; t++) {
      snprintf(name, sizeof name, "thread %d", t);
      pomp_report_add_sysnode(r, POMP_SYS_THREAD, name, p, rank, t);
    }
  }
}

pomp_report *pop_fixture_new(const char *name) {
  const pop_case *k = NULL;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (strcmp(cases[i].name, name) == 0) k = &cases[i];
  if (!k) return NULL;
  pomp_report *r = pomp_report_new();
  pomp_report_add_catalogue(r);
  if (k->critical_path) {
    int32_t cp = pomp_report_add_metric(r, "critical_path", "Critical path", POMP_UNIT_SEC,
                                        "Time on the critical path.", -1);
    pomp_report_add_metric(r, "critical_path_imbalance", "Imbalance", POMP_UNIT_SEC,
                           "Critical-path time above the average.", cp);
  }
  add_system(r, k->ranks, k->threads);
  for (const pop_cell *c = k->cells; c->metric; c++)
    if (k->critical_path == 2 || strncmp(c->metric, "critical_path", 13) != 0)
      pomp_report_add_value(r, pomp_report_find_metric(r, c->metric), cnode_of(r, c->path),
                            c->rank * k->threads + c->thread, c->value);
  return r;
}
