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
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The first problem's start after plant_init's barrier, and what each
   problem's slot adds to its planted time: room for the MPI calls that end
   it to complete on an oversubscribed machine (8 ranks on 2 cores: up to
   120 ms with a load of 15; a rank whose slot is over starts the next
   problem at once, as late as its call ended). */
static const double ALIGN_S = 0.050;
static const double SLOT_MARGIN_S = 0.200;
/* A clock far off on another node must not stall the run for longer. */
static const double MAX_WAIT_S = 1.0;
/* How often a late rank's team looks whether the starts have come. */
static const double POLL_S = 0.001;

/* When each rank really started the current problem (start_problem's
   wake-up), gathered by a nonblocking allgather through the profiling
   interface on the scaffolding's own communicator: invisible to a tracing
   tool, and progressed by the waiters' MPI calls meanwhile. */
static struct {
  MPI_Comm comm;
  MPI_Request gather; /* MPI_REQUEST_NULL once complete */
  double mine;
  double *all; /* one per rank of MPI_COMM_WORLD */
} starts = {MPI_COMM_NULL, MPI_REQUEST_NULL, 0.0, NULL};

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
  /* The starts' communicator, and a first gather on it that makes the MPI
     set up what it needs for one: both before the barrier, whose exit the
     first problem's start follows by ALIGN_S only. */
  starts.all = calloc((size_t)w.ranks, sizeof *starts.all);
  if (!starts.all) {
    fprintf(stderr, "%s: out of memory\n", program);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  PMPI_Comm_dup(MPI_COMM_WORLD, &starts.comm);
  PMPI_Allgather(&starts.mine, 1, MPI_DOUBLE, starts.all, 1, MPI_DOUBLE, starts.comm);
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
  PMPI_Wait(&starts.gather, MPI_STATUS_IGNORE);
  PMPI_Comm_free(&starts.comm);
  free(starts.all);
  starts.all = NULL;
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

/* Every thread of a new team sleeps for the given number of seconds. */
static void team_sleep(double seconds) {
#pragma omp parallel
  simulate_work(seconds);
}

void start_problem(plant_world *w, double planted_seconds) {
  /* The previous problem's gather, complete long since on a late rank; a
     waiter's finishes here. */
  PMPI_Wait(&starts.gather, MPI_STATUS_IGNORE);
  double wait = w->next_start - realtime_now();
  /* Late (the previous problem overran its slot): start at once. */
  if (wait > 0.0 && wait <= MAX_WAIT_S) team_sleep(wait);
  w->next_start += planted_seconds + SLOT_MARGIN_S;
  starts.mine = realtime_now();
  PMPI_Iallgather(&starts.mine, 1, MPI_DOUBLE, starts.all, 1, MPI_DOUBLE, starts.comm,
                  &starts.gather);
}

/* simulate_work stays a call of its own where this file calls it: a
   compiler may inline it here, and an instrumentation after inlining (pomp's
   GCC plugin) would then record its time as the caller's; the expectations
   name simulate_work. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
void simulate_work(double seconds) {
  struct timespec left;
  left.tv_sec = (time_t)seconds;
  left.tv_nsec = (long)((seconds - (double)left.tv_sec) * 1e9);
  /* A signal may cut the sleep short; sleep the rest. */
  while (nanosleep(&left, &left) != 0 && errno == EINTR) {
  }
}

/* The midpoint of the earliest and the latest start of the ranks `waiting`
   selects, once every rank's start has come; the calling rank's own start
   when it selects none.  Called by the master thread only (FUNNELED).  It
   naps before it looks: on a machine with more busy processes than cores a
   rank that runs is soon descheduled, and the time until it runs again
   belongs in simulate_work, the planted computation, where the
   expectations look for the cause of the waits. */
static double waiters_start(const plant_world *w, plant_waiter *waiting) {
  int done = 0;
  do {
    simulate_work(POLL_S);
    PMPI_Test(&starts.gather, &done, MPI_STATUS_IGNORE);
  } while (!done);
  double first = 0.0, last = 0.0;
  int found = 0;
  for (int r = 0; r < w->ranks; r++) {
    if (!waiting(w, r)) continue;
    if (!found || starts.all[r] < first) first = starts.all[r];
    if (!found || starts.all[r] > last) last = starts.all[r];
    found = 1;
  }
  return found ? 0.5 * (first + last) : starts.mine;
}

void team_work(const plant_world *w, plant_waiter *waiting, double seconds) {
  double end = 0.0;
  atomic_int known = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) {
      end = waiters_start(w, waiting) + seconds;
      atomic_store(&known, 1);
    } else {
      while (!atomic_load(&known)) simulate_work(POLL_S);
    }
    double left = end - realtime_now();
    if (left > 0.0) simulate_work(left);
  }
}
