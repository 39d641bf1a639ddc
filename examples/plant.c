/*
 * plant.c -- the helpers of plant.h.  Compiled into every example, and
 * instrumented with it (pomp-cc ... example.c plant.c).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* nanosleep in strict C11 */
#endif
#include "plant.h"

#include <errno.h>
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <time.h>

plant_world plant_init(int *argc, char ***argv, const char *program) {
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  plant_world w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.ranks);
  w.threads = omp_get_max_threads();
  if (w.rank == 0)
    printf("%s: %dx%d (ranks x threads)\n", program, w.ranks, w.threads);
  /* Processes start at different times (hundreds of ms apart on a loaded
     machine); this barrier takes that skew so that no planted problem does. */
  MPI_Barrier(MPI_COMM_WORLD);
  return w;
}

int plant_finish(const plant_world *w, const char *program, int ok) {
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (w->rank == 0) {
    printf("%s: %s\n", program, all_ok ? "ok" : "FAILED");
    fflush(stdout);
  }
  MPI_Finalize();
  return all_ok ? 0 : 1;
}

int plant_needs(const plant_world *w, int min_ranks, int min_threads,
                const char *problem) {
  if (w->ranks >= min_ranks && w->threads >= min_threads) return 1;
  if (w->rank == 0)
    printf("skipped %s: needs %d+ ranks and %d+ threads\n", problem,
           min_ranks, min_threads);
  return 0;
}

/* How far ahead of rank 0's clock the next problem starts: longer than the
   broadcast below takes on a loaded machine, short next to the problems. */
static const double ALIGN_S = 0.030;

static double realtime_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void sync_ranks(void) {
  /* A barrier alone is not enough: on an oversubscribed machine the ranks
     leave it up to a scheduler time slice per message hop apart (10-30 ms at
     8 ranks on 2 cores), and that skew would add to or hide a planted wait.
     So rank 0 names an instant on the real-time clock, which NTP keeps
     within a millisecond or so between nodes, and every rank sleeps until
     then: sleeping ranks all wake on time. */
  MPI_Barrier(MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double start = rank == 0 ? realtime_now() + ALIGN_S : 0.0;
  MPI_Bcast(&start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double wait = start - realtime_now();
  /* A clock far off on some node must not stall the run. */
  if (wait > 0.0 && wait <= ALIGN_S) simulate_work(wait);
}

void simulate_work(double seconds) {
  struct timespec left;
  left.tv_sec = (time_t)seconds;
  left.tv_nsec = (long)((seconds - (double)left.tv_sec) * 1e9);
  /* A signal may cut the sleep short; sleep the rest. */
  while (nanosleep(&left, &left) != 0 && errno == EINTR) {
  }
}

void team_work(double seconds) {
#pragma omp parallel
  simulate_work(seconds);
}
