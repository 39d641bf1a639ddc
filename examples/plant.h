/*
 * plant.h -- what every example program shares: start-up and shutdown of a
 * hybrid MPI + OpenMP run, and "work" whose length is known exactly.
 *
 * The planted problems must have a size that the code states, not one that
 * depends on the CPU or on how many engineers share the machine.  So work is
 * simulated with nanosleep: a sleeping thread costs no CPU, wakes on time
 * even on an oversubscribed 2-core machine, and shows up in a trace exactly
 * like computation (time spent in user code).
 *
 * These functions are ordinary user code: when an example is instrumented
 * with pomp-cc they appear in call paths (main;late_sender;team_work;...),
 * which is what the expectation files in expect/ are written against.
 */
#ifndef PLANT_H
#define PLANT_H

/* The rank/thread configuration of this run. */
typedef struct {
  int rank;    /* rank in MPI_COMM_WORLD */
  int ranks;   /* size of MPI_COMM_WORLD */
  int threads; /* OpenMP team size of a parallel region (OMP_NUM_THREADS) */
} plant_world;

/* MPI_Init_thread (FUNNELED: only master threads call MPI) and a first
   barrier that absorbs the start-up skew of the processes, so that the
   planted problems start aligned.  Prints the configuration on rank 0. */
plant_world plant_init(int *argc, char ***argv, const char *program);

/* Prints "PROGRAM: RESULT" on rank 0, then MPI_Finalize.  Returns the exit
   status for main: 0 when every rank reported ok, 1 otherwise. */
int plant_finish(const plant_world *w, const char *program, int ok);

/* 1 when the run has at least min_ranks ranks and min_threads threads;
   otherwise rank 0 prints why PROBLEM is skipped and 0 is returned. */
int plant_needs(const plant_world *w, int min_ranks, int min_threads,
                const char *problem);

/* Lines every rank up before a planted problem: MPI_Barrier, then every rank
   sleeps until one common instant (at most 30 ms later), so that all ranks
   start the problem together even when the barrier's exits are skewed. */
void sync_ranks(void);

/* The calling thread works (sleeps) for the given number of seconds. */
void simulate_work(double seconds);

/* Every thread of a new team works for the given number of seconds: balanced
   hybrid computation, so no thread idles while it runs. */
void team_work(double seconds);

#endif /* PLANT_H */
