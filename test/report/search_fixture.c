/* search_fixture.c -- reports with known answers for pomp-report search
   (make_fixture search_paths|search_collective|search_omp|search_profile).
   Each is a table of (call path, metric, value per location); a call path
   is named by its leaf region and the row of its parent.
     search_paths       2 ranks x 2 threads, the same on every location:
                        main;loop @a.c:10 computes 35 % of the time (a
                        third: true), loop @a.c:20 25 % and loop @a.c:30
                        20 % (under cpu_bound's 30 %: pruned), 5 % MPI.
     search_collective  4 ranks x 1 thread: rank 1's loop @b.c:5 computes
                        6 s, the others' 2 s, so ranks 0, 2, 3 wait 4 s
                        each in MPI_Allreduce (Wait at N x N).
     search_omp         1 rank x 4 threads: thread 0 computes 4 s in the
                        worksharing loop, threads 1-3 1 s and wait 3 s at
                        its implicit barrier; the workers idle 1 s while
                        the master runs main serially.
     search_startup     2 ranks x 2 threads: MPI_Init_thread takes 3 s
                        (management on the masters, idle threads on the
                        workers), then a loop of 2 s everywhere and an
                        MPI_Recv where the masters spend 1.5 s and the
                        workers idle 1.5 s: the start-up is left out, the
                        idle threads at MPI_Recv are the overhead (3 s of
                        28, 10.7 %).
     search_profile     search_collective written as a profile (no wait
                        states: sync_wait untestable) before I/O was
                        recorded (no I/O metrics: io_blocking and
                        small_io_ops untestable). */
#include <string.h>

#include "search_fixture.h"

typedef struct {
  const char *region, *paradigm, *role;
  int parent; /* row index, -1: a root */
  const char *metric;
  double v[4];
} sf_row;

/* Rows naming a call path already made reuse it (add_cnode). */
static const sf_row paths_rows[] = {
    /* 0 */ {"main", "user", "function", -1, "comp", {1.5, 1.5, 1.5, 1.5}},
    /* 1 */ {"loop @a.c:10", "user", "loop", 0, "comp", {3.5, 3.5, 3.5, 3.5}},
    /* 2 */ {"loop @a.c:20", "user", "loop", 0, "comp", {2.5, 2.5, 2.5, 2.5}},
    /* 3 */ {"loop @a.c:30", "user", "loop", 0, "comp", {2, 2, 2, 2}},
    /* 4 */ {"MPI_Allreduce", "mpi", "coll_all2all", 0, "mpi_collective", {.5, .5, .5, .5}},
    {"main", "user", "function", -1, "visits", {1, 1, 1, 1}},
    {"loop @a.c:10", "user", "loop", 0, "visits", {1, 1, 1, 1}},
    {"loop @a.c:20", "user", "loop", 0, "visits", {1, 1, 1, 1}},
    {"loop @a.c:30", "user", "loop", 0, "visits", {1, 1, 1, 1}},
    {"MPI_Allreduce", "mpi", "coll_all2all", 0, "visits", {1, 1, 1, 1}},
};

static const sf_row collective_rows[] = {
    /* 0 */ {"main", "user", "function", -1, "comp", {1, 1, 1, 1}},
    /* 1 */ {"loop @b.c:5", "user", "loop", 0, "comp", {2, 6, 2, 2}},
    /* 2 */ {"MPI_Allreduce", "mpi", "coll_all2all", 0, "mpi_wait_nxn", {4, 0, 4, 4}},
    {"MPI_Allreduce", "mpi", "coll_all2all", 0, "mpi_collective", {.1, .1, .1, .1}},
    {"main", "user", "function", -1, "visits", {1, 1, 1, 1}},
    {"loop @b.c:5", "user", "loop", 0, "visits", {1, 1, 1, 1}},
    {"MPI_Allreduce", "mpi", "coll_all2all", 0, "visits", {1, 1, 1, 1}},
};

static const sf_row omp_rows[] = {
    /* 0 */ {"main", "user", "function", -1, "comp", {1, 0, 0, 0}},
    /* 1 */ {"!$omp parallel @c.c:3", "openmp", "parallel", 0, "visits", {1, 1, 1, 1}},
    /* 2 */ {"!$omp for @c.c:4", "openmp", "loop", 1, "comp", {4, 1, 1, 1}},
    /* 3 */
    {"!$omp ibarrier @c.c:4", "openmp", "implicit_barrier", 2, "omp_ibarrier_wait", {0, 3, 3, 3}},
    {"main", "user", "function", -1, "omp_idle_threads", {0, 1, 1, 1}},
    {"main", "user", "function", -1, "visits", {1, 0, 0, 0}},
    {"!$omp for @c.c:4", "openmp", "loop", 1, "visits", {1, 1, 1, 1}},
    {"!$omp ibarrier @c.c:4", "openmp", "implicit_barrier", 2, "visits", {1, 1, 1, 1}},
};

static const sf_row startup_rows[] = {
    /* 0 */ {"main", "user", "function", -1, "comp", {1, 0, 1, 0}},
    /* 1 */ {"MPI_Init_thread", "mpi", "function", 0, "mpi_management", {3, 0, 3, 0}},
    {"MPI_Init_thread", "mpi", "function", 0, "omp_idle_threads", {0, 3, 0, 3}},
    /* 3 */ {"loop @d.c:5", "user", "loop", 0, "comp", {2, 2, 2, 2}},
    /* 4 */ {"MPI_Recv", "mpi", "point2point", 0, "mpi_point2point", {1.5, 0, 1.5, 0}},
    {"MPI_Recv", "mpi", "point2point", 0, "omp_idle_threads", {0, 1.5, 0, 1.5}},
};

/* The system tree: ranks x threads = 4 locations. */
static void add_locations(pomp_report *r, int ranks, int threads) {
  int32_t machine = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "cluster", -1, -1, -1);
  int32_t node = pomp_report_add_sysnode(r, POMP_SYS_NODE, "n01", machine, -1, -1);
  for (int p = 0; p < ranks; p++) {
    char name[32];
    snprintf(name, sizeof name, "rank %d", p);
    int32_t proc = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, name, node, p, -1);
    for (int t = 0; t < threads; t++) {
      snprintf(name, sizeof name, "thread %d", t);
      pomp_report_add_sysnode(r, POMP_SYS_THREAD, name, proc, p, t);
    }
  }
}

static int32_t region_of(pomp_report *r, const sf_row *row) {
  for (int32_t g = 0; g < pomp_report_num_regions(r); g++)
    if (strcmp(pomp_report_region(r, g)->name, row->region) == 0) return g;
  return pomp_report_add_region(r, row->region, "a.c", 0, 0, row->paradigm, row->role);
}

/* How many catalogue entries come before the I/O metrics (issue 19): a
   report of that catalogue was written before I/O was recorded. */
static int32_t before_io(void) {
  pomp_report *full = pomp_report_new();
  pomp_report_add_catalogue(full);
  int32_t n = pomp_report_find_metric(full, "io");
  pomp_report_free(full);
  return n;
}

static pomp_report *from_rows_of(const sf_row *rows, size_t n, int ranks, int threads,
                                 int32_t metrics) {
  pomp_report *r = pomp_report_new();
  pomp_report_add_catalogue_n(r, metrics);
  add_locations(r, ranks, threads);
  int32_t cnode[16];
  for (size_t i = 0; i < n && i < 16; i++) {
    int32_t parent = rows[i].parent < 0 ? -1 : cnode[rows[i].parent];
    cnode[i] = pomp_report_add_cnode(r, region_of(r, &rows[i]), parent);
    int32_t m = pomp_report_find_metric(r, rows[i].metric);
    for (int32_t l = 0; l < 4; l++)
      if (rows[i].v[l] != 0) pomp_report_add_value(r, m, cnode[i], l, rows[i].v[l]);
  }
  pomp_report_set_attr(r, "application", "search");
  return r;
}

static pomp_report *from_rows(const sf_row *rows, size_t n, int ranks, int threads) {
  return from_rows_of(rows, n, ranks, threads, pomp_report_catalogue_size());
}

#define ROWS(t) t, sizeof t / sizeof t[0]

pomp_report *search_fixture(const char *variant) {
  if (strcmp(variant, "search_paths") == 0) return from_rows(ROWS(paths_rows), 2, 2);
  if (strcmp(variant, "search_collective") == 0) return from_rows(ROWS(collective_rows), 4, 1);
  if (strcmp(variant, "search_omp") == 0) return from_rows(ROWS(omp_rows), 1, 4);
  if (strcmp(variant, "search_startup") == 0) return from_rows(ROWS(startup_rows), 2, 2);
  if (strcmp(variant, "search_profile") == 0) {
    pomp_report *r = from_rows_of(ROWS(collective_rows), 4, 1, before_io());
    pomp_report_set_attr(r, POMP_REPORT_MODE, "profile");
    return r;
  }
  return NULL;
}
