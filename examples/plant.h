/*
 * plant.h -- what every example program shares: start-up and shutdown of a
 * hybrid MPI + OpenMP run, and "work" whose length is known exactly.
 *
 * The planted problems must have a size that the code states, not one that
 * depends on the CPU or on how many engineers share the machine.  So work is
 * simulated with nanosleep: a sleeping thread costs no CPU, wakes within a
 * few ms even on an oversubscribed 2-core machine, and shows up in a trace
 * exactly like computation (time spent in user code).
 *
 * These functions are ordinary user code: when an example is instrumented
 * with pomp-cc they appear in call paths (main;late_sender;team_work;...),
 * which is what the expectation files in expect/ are written against.  The
 * few messages they exchange to time the problems go through MPI's
 * profiling interface (PMPI_*) on a communicator of their own: no tool sees
 * them, so they add no call, message or wait state to what a trace shows.
 */
#ifndef PLANT_H
#define PLANT_H

/* The rank/thread configuration of this run. */
typedef struct {
  int rank;          /* rank in MPI_COMM_WORLD */
  int ranks;         /* size of MPI_COMM_WORLD */
  int threads;       /* OpenMP team size of a parallel region (OMP_NUM_THREADS) */
  double next_start; /* real-time clock instant of the next problem's start */
} plant_world;

/* MPI_Init_thread (FUNNELED: only master threads call MPI), a first barrier
   that absorbs the start-up skew of the processes, and the instant at which
   the first problem starts (rank 0's clock, broadcast).  Prints the
   configuration on rank 0. */
plant_world plant_init(int *argc, char ***argv, const char *program);

/* Prints "PROGRAM: RESULT" on rank 0, then MPI_Finalize.  Returns the exit
   status for main: 0 when every rank reported ok, 1 otherwise. */
int plant_finish(const plant_world *w, const char *program, int ok);

/* 1 when the run has at least min_ranks ranks and min_threads threads;
   otherwise rank 0 prints why PROBLEM is skipped and 0 is returned. */
int plant_needs(const plant_world *w, int min_ranks, int min_threads, const char *problem);

/* Starts a planted problem on every rank at the same instant, and books a
   time slot for it of planted_seconds plus a margin, after which the next
   problem starts.  Every thread of the rank sleeps until the start (a team
   that sleeps is neither waiting in MPI nor idle, so this scaffolding plants
   nothing itself).  Why not a barrier: on an oversubscribed machine its
   exits are skewed by a scheduler time slice per message hop, which would
   add to or hide the planted waits.  The ranks that sleep do not all wake on
   time either (a few ms late, 40 ms now and then with 8 ranks on 2 cores),
   so each rank then tells every other one when it really started (its
   wake-up, just before the problem's first MPI call): team_work plants a
   late rank's delay from there. */
void start_problem(plant_world *w, double planted_seconds);

/* The calling thread works (sleeps) for the given number of seconds. */
void simulate_work(double seconds);

/* Whether rank `rank` waits, in the current problem, for the calling rank
   (w->rank), which is late: 1 or 0. */
typedef int plant_waiter(const plant_world *w, int rank);

/* The late rank's planted computation: every thread of a new team works
   (balanced hybrid computation, so no thread idles while it runs) until
   `seconds` after the ranks that `waiting` selects started the problem
   (start_problem): the midpoint of their starts, so that a waiter woken
   late does not shorten its wait and one woken early does not lengthen it
   by more than half their spread.  The late rank's own wake-up delay does
   not count.  Until it knows their starts, the team naps and looks
   (computation too).  With no waiter, counts from the rank's own start. */
void team_work(const plant_world *w, plant_waiter *waiting, double seconds);

#endif /* PLANT_H */
