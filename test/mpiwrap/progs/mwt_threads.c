/* mwt_threads.c -- many short-lived threads under MPI_THREAD_MULTIPLE
   (MPICH's threads/pt2pt pattern): N threads (argv[1], default 10000)
   started one after another, each making one MPI_Sendrecv with itself on
   MPI_COMM_SELF (threads never wait for one another). Each ended
   thread's location serves the next (measure/pm_location.c), so every rank
   records exactly 2 locations (mw_check --locations 2). With argv[2] =
   "term", every rank then raises SIGTERM on itself after a barrier: its
   complete fragment must be written before mpirun gives up on it
   (pomp-recover completes the trace, test mpiwrap_threads_term_2). */
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "mwt.h"

static void *one_exchange(void *arg) {
  int x = (int)(long)arg, y = -1;
  MPI_Sendrecv(&x, 1, MPI_INT, 0, 7, &y, 1, MPI_INT, 0, 7, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  return (void *)(long)(y == x);
}

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_MULTIPLE);
  long n = argc > 1 ? atol(argv[1]) : 10000, good = 0;
  for (long i = 0; i < n; i++) {
    pthread_t t;
    void *ok = NULL;
    if (pthread_create(&t, NULL, one_exchange, (void *)i) != 0 || pthread_join(t, &ok) != 0) {
      fprintf(stderr, "rank %d: thread %ld failed\n", mwt_rank, i);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    good += ok != NULL;
    MWT_MSG(0);
  }
  mwt_print("exchanges", good);
  if (argc > 2 && !strcmp(argv[2], "term")) {
    MPI_Barrier(MPI_COMM_WORLD);
    raise(SIGTERM);
  }
  return mwt_finish();
}
