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

/* The first problem's start after plant_init's barrier, and what each
   problem's slot adds to its planted time: room for the MPI calls that end
   it to complete on an oversubscribed machine (8 ranks on 2 cores). */
static const double ALIGN_S = 0.050;
static const double SLOT_MARGIN_S = 0.100;
/* A clock far off on another node must not stall the run for longer. */
static const double MAX_WAIT_S = 1.0;

static double realtime_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

plant_world plant_init(int *argc, char ***argv, const char *program) {
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  plant_world w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.ranks);
  /* The team size a parallel region really gets; asking from inside one
     also starts every thread, so that each rank's workers exist (and are
     seen idle) even on a rank that never computes in parallel. */
  w.threads = 1;
#pragma omp parallel
  {
#pragma omp single
    w.threads = omp_get_num_threads();
  }
  if (w.rank == 0) printf("%s: %dx%d (ranks x threads)\n", program, w.ranks, w.threads);
  /* Processes start at different times (hundreds of ms apart on a loaded
     machine); this barrier takes that skew so that no planted problem does. */
  MPI_Barrier(MPI_COMM_WORLD);
  /* The first problem starts ALIGN_S after rank 0 leaves the barrier, on
     the real-time clock, which NTP keeps within a millisecond or so between
     nodes: long enough for the broadcast to reach every rank. */
  w.next_start = w.rank == 0 ? realtime_now() + ALIGN_S : 0.0;
  MPI_Bcast(&w.next_start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
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

int plant_needs(const plant_world *w, int min_ranks, int min_threads, const char *problem) {
  if (w->ranks >= min_ranks && w->threads >= min_threads) return 1;
  if (w->rank == 0)
    printf("skipped %s: needs %d+ ranks and %d+ threads\n", problem, min_ranks, min_threads);
  return 0;
}

void start_problem(plant_world *w, double planted_seconds) {
  double wait = w->next_start - realtime_now();
  /* Late (the previous problem overran its slot): start at once. */
  if (wait > 0.0 && wait <= MAX_WAIT_S) team_work(wait);
  w->next_start += planted_seconds + SLOT_MARGIN_S;
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
