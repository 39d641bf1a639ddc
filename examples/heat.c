/*
 * heat.c -- a hybrid MPI + OpenMP mini-application: 2-D heat diffusion on a
 * square plate, solved with Jacobi sweeps.  The kind of code pomp is for.
 *
 * The plate has GRID x GRID points; its edge is held fixed (top edge at 1.0,
 * the other edges at 0.0).  The GRID-2 interior rows are split in blocks over
 * the ranks; each rank keeps one halo row above and below its block.  Every
 * step:
 *   exchange_halos   MPI_Irecv/MPI_Isend with the neighbours, MPI_Waitall
 *   jacobi_sweep     each point becomes the mean of its 4 neighbours
 *                    (OpenMP parallel loop over the rows)
 * every CHECKPOINT_EVERY steps:
 *   write_checkpoint rank 0 saves its block of the field to heat.ckpt (text,
 *                    one fputs per row, then fflush and fsync), or, with
 *                    a CHECKPOINT_SECONDS argument, simulates that
 *                    (machine-independent time, see below)
 *   global_residual  norm of the change: OpenMP reduction, then MPI_Allreduce
 * and at the end mean_temperature (MPI_Reduce) is printed by rank 0.
 * Works with any number of ranks that divides GRID-2 (1, 2, 4, 8, ...) and
 * any number of threads.
 *
 * usage: heat [STEPS [CHECKPOINT_SECONDS | file]]   (default 30 and file:
 * real checkpoints, so that a run shows its I/O; the end-to-end tests give
 * 0.300, simulated checkpoints of known time; the benchmark of the
 * pipeline runs it longer and without checkpoints, 0)
 *
 * Planted problem (see expect/heat.txt, with simulated checkpoints):
 *   rank 0 alone writes the checkpoints, serially on its master thread, just
 *   before a residual is computed (simulated I/O of CHECKPOINT_SECONDS each;
 *   STEPS / CHECKPOINT_EVERY = 3 checkpoints = 0.900 s at 0.300).  A real
 *   checkpoint takes what the file system takes: the same waits, of that
 *   size, with the I/O in the report (posix_io, io_bytes_written).
 *   -> mpi_wait_nxn 0.900 at solve;global_residual;MPI_Allreduce on every
 *      other rank (master thread): they wait for rank 0 to join;
 *   -> omp_idle_threads 0.900 at solve;write_checkpoint;simulate_work on the
 *      workers of rank 0, idle while their master writes.
 * Everything else (halo waits, loop imbalance) is real computation and only
 * as large as the machine's noise.
 */
#define _POSIX_C_SOURCE 200809L /* fileno, fsync */
#include "plant.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
  GRID = 258, /* points per side, edge included: 256 interior rows */
  STEPS = 30,
  CHECKPOINT_EVERY = 10
};

/* What the command line may change. */
typedef struct {
  int steps;
  int checkpoint_file; /* real checkpoints to CHECKPOINT_FILE */
  double checkpoint_s; /* else simulated ones of this time; 0: none */
} run_options;
static const char CHECKPOINT_FILE[] = "heat.ckpt";

enum { TAG_UP = 1, TAG_DOWN = 2 };

/* One rank's block: rows 1..rows are its own, rows 0 and rows+1 are halos
   (or the plate's fixed edge at the first and last rank). */
typedef struct {
  int rows;
  int up, down; /* neighbour ranks, MPI_PROC_NULL at the plate's edge */
  double *old, *next;
} block;

/* Row i of a block's field.  A macro, not a function: -finstrument-functions
   would record every call, millions per run. */
#define row(field, i) ((field) + (size_t)(i)*GRID)

static block init_field(const plant_world *w) {
  block b;
  b.rows = (GRID - 2) / w->ranks;
  b.up = w->rank > 0 ? w->rank - 1 : MPI_PROC_NULL;
  b.down = w->rank < w->ranks - 1 ? w->rank + 1 : MPI_PROC_NULL;
  size_t points = (size_t)(b.rows + 2) * GRID;
  b.old = calloc(points, sizeof *b.old);
  b.next = calloc(points, sizeof *b.next);
  if (!b.old || !b.next) {
    fprintf(stderr, "heat: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (w->rank == 0) /* the hot top edge, never overwritten */
    for (int j = 0; j < GRID; j++) row(b.old, 0)[j] = row(b.next, 0)[j] = 1.0;
  return b;
}

static void exchange_halos(block *b) {
  MPI_Request req[4];
  MPI_Irecv(row(b->old, 0), GRID, MPI_DOUBLE, b->up, TAG_DOWN, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(row(b->old, b->rows + 1), GRID, MPI_DOUBLE, b->down, TAG_UP, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(row(b->old, 1), GRID, MPI_DOUBLE, b->up, TAG_UP, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(row(b->old, b->rows), GRID, MPI_DOUBLE, b->down, TAG_DOWN, MPI_COMM_WORLD, &req[3]);
  /* A real status array: GCC warns about MPICH's MPI_STATUSES_IGNORE. */
  MPI_Status status[4];
  MPI_Waitall(4, req, status);
}

static void jacobi_sweep(block *b) {
#pragma omp parallel for schedule(static)
  for (int i = 1; i <= b->rows; i++) {
    const double *above = row(b->old, i - 1), *here = row(b->old, i), *below = row(b->old, i + 1);
    double *out = row(b->next, i);
    for (int j = 1; j < GRID - 1; j++)
      out[j] = 0.25 * (above[j] + below[j] + here[j - 1] + here[j + 1]);
  }
}

/* Euclidean norm of the last sweep's change over the whole plate. */
static double global_residual(const block *b) {
  double local = 0.0, global = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : local)
  for (int i = 1; i <= b->rows; i++)
    for (int j = 1; j < GRID - 1; j++) {
      double d = row(b->next, i)[j] - row(b->old, i)[j];
      local += d * d;
    }
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sqrt(global);
}

/* A real checkpoint: rank 0's block as text, one line (one fputs) per row,
   then fflush and fsync so that it is on disk when the step goes on. */
static void write_checkpoint_file(const block *b) {
  FILE *f = fopen(CHECKPOINT_FILE, "w");
  if (!f) {
    perror(CHECKPOINT_FILE);
    return;
  }
  static char line[GRID * 16 + 2]; /* "%.6e " per point */
  for (int i = 1; i <= b->rows; i++) {
    const double *r = row(b->next, i);
    size_t n = 0;
    for (int j = 0; j < GRID; j++) n += (size_t)snprintf(line + n, sizeof line - n, "%.6e ", r[j]);
    line[n - 1] = '\n';
    fputs(line, f);
  }
  if (fflush(f) != 0 || fsync(fileno(f)) != 0) perror(CHECKPOINT_FILE);
  if (fclose(f) != 0) perror(CHECKPOINT_FILE);
}

/* The planted bottleneck: serial output on one thread of one rank. */
static void write_checkpoint(const run_options *o, const block *b) {
  if (o->checkpoint_file) write_checkpoint_file(b);
  else simulate_work(o->checkpoint_s);
}

static double solve(const plant_world *w, const run_options *o, block *b) {
  double residual = 0.0;
  for (int step = 1; step <= o->steps; step++) {
    exchange_halos(b);
    jacobi_sweep(b);
    if (step % CHECKPOINT_EVERY == 0) {
      if (w->rank == 0 && (o->checkpoint_file || o->checkpoint_s > 0.0)) write_checkpoint(o, b);
      residual = global_residual(b);
    }
    double *t = b->old;
    b->old = b->next;
    b->next = t;
  }
  return residual;
}

static double mean_temperature(const block *b) {
  double local = 0.0, total = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : local)
  for (int i = 1; i <= b->rows; i++)
    for (int j = 1; j < GRID - 1; j++) local += row(b->old, i)[j];
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return total / ((double)(GRID - 2) * (GRID - 2));
}

/* Reads [STEPS [CHECKPOINT_SECONDS | file]]; 0 on success.  Every rank
   reads the same arguments, so every rank comes to the same verdict. */
static int parse_options(int argc, char **argv, run_options *o) {
  o->steps = STEPS;
  o->checkpoint_file = 1;
  o->checkpoint_s = 0.0;
  char *end;
  if (argc > 3) return -1;
  if (argc > 1) {
    long steps = strtol(argv[1], &end, 10);
    if (end == argv[1] || *end || steps < 1 || steps > 1000000) return -1;
    o->steps = (int)steps;
  }
  if (argc > 2 && strcmp(argv[2], "file") != 0) {
    o->checkpoint_file = 0;
    o->checkpoint_s = strtod(argv[2], &end);
    if (end == argv[2] || *end || !(o->checkpoint_s >= 0.0) || o->checkpoint_s > 10.0) return -1;
  }
  return 0;
}

/* Ends a run that cannot start, with exit status 2 (bad command line). */
static int refuse(const plant_world *w, const char *why) {
  if (w->rank == 0) fprintf(stderr, "heat: %s\n", why);
  MPI_Finalize();
  return 2;
}

int main(int argc, char **argv) {
  plant_world w = plant_init(&argc, &argv, "heat");
  run_options o;
  if (parse_options(argc, argv, &o) != 0)
    return refuse(&w, "usage: heat [STEPS (1..1000000) [CHECKPOINT_SECONDS "
                      "(0..10) | file]]");
  if ((GRID - 2) % w.ranks != 0)
    return refuse(&w, "the 256 interior rows do not divide over the ranks");
  block b = init_field(&w);
  double residual = solve(&w, &o, &b);
  double mean = mean_temperature(&b);
  if (w.rank == 0)
    printf("heat: %d steps, residual %.6e, mean temperature %.6e\n", o.steps, residual, mean);
  free(b.old);
  free(b.next);
  /* The mean is reduced to rank 0 only. */
  return plant_finish(&w, "heat", residual > 0.0 && (w.rank != 0 || mean > 0.0));
}
