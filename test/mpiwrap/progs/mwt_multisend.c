/* mwt_multisend.c -- MPI_THREAD_MULTIPLE as in MPICH's threads/pt2pt
   multisend tests: on every rank 4 threads send N messages each to the
   next rank on one communicator and one tag (Isend), while 4 threads
   receive N each from the previous rank on that tag (Recv); thread 0 of
   the senders then completes every sender's requests with one Waitall.
   The trace must have every message matched and every request completed
   on its process (mw_check), and pomp-analyze must find it without a
   warning (run_mpi_test.sh --analyze). */
#include <pthread.h>

#include "mwt.h"

enum { THREADS = 4, N = 50, TAG = 21 };

static MPI_Request reqs[THREADS][N];
static int outbox[THREADS][N];
static pthread_barrier_t posted;

static int next(void) { return (mwt_rank + 1) % mwt_size; }
static int prev(void) { return (mwt_rank + mwt_size - 1) % mwt_size; }

static void *sender(void *arg) {
  int t = (int)(long)arg;
  for (int i = 0; i < N; i++) {
    outbox[t][i] = mwt_rank * 10000 + t * 100 + i;
    MPI_Isend(&outbox[t][i], 1, MPI_INT, next(), TAG, MPI_COMM_WORLD, &reqs[t][i]);
  }
  pthread_barrier_wait(&posted);
  if (t == 0) /* one thread completes what all of them started */
    MPI_Waitall(THREADS * N, &reqs[0][0], MPI_STATUSES_IGNORE);
  return NULL;
}

static void *receiver(void *arg) {
  long long *sum = arg;
  for (int i = 0; i < N; i++) {
    int x;
    MPI_Recv(&x, 1, MPI_INT, prev(), TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    *sum += x;
  }
  return NULL;
}

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_MULTIPLE);
  pthread_t th[2 * THREADS];
  long long sums[THREADS] = {0}, total = 0;
  pthread_barrier_init(&posted, NULL, THREADS);
  for (long t = 0; t < THREADS; t++) {
    pthread_create(&th[t], NULL, sender, (void *)t);
    pthread_create(&th[THREADS + t], NULL, receiver, &sums[t]);
  }
  for (int t = 0; t < 2 * THREADS; t++) pthread_join(th[t], NULL);
  pthread_barrier_destroy(&posted);
  for (int t = 0; t < THREADS; t++) total += sums[t];
  mwt_msgs += (long long)THREADS * N;
  mwt_print("received sum", total);
  return mwt_finish();
}
