/* mwt_multiple.c -- MPI_THREAD_MULTIPLE with every thread issuing and
   completing its own requests (QA finding 5): thread t of each rank posts
   an Irecv and an Isend tagged t to its partner rank and waits for both
   with one Waitall, many times. The small sends complete at once, and
   MPICH then hands the same handle to the Isends of every thread, so only
   the thread that issued a request can tell which one it is completing:
   mw_check --complete-on-issuer verifies that each completion record lands
   on the request of its own thread. */
#include <omp.h>

#include "mwt.h"

#define THREADS 4
#define ROUNDS 200
#define INTS 64

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_MULTIPLE);
  int partner = mwt_rank ^ 1;
  if (partner >= mwt_size) partner = mwt_rank;   /* odd one out: itself */
  long long sum[THREADS] = {0};
#pragma omp parallel num_threads(THREADS)
  {
    int t = omp_get_thread_num();
    for (int round = 0; round < ROUNDS; round++) {
      int out[INTS], in[INTS];
      for (int i = 0; i < INTS; i++) out[i] = mwt_rank * 100000 + t * 1000 + round;
      MPI_Request q[2];
      MPI_Irecv(in, INTS, MPI_INT, partner, t, MPI_COMM_WORLD, &q[0]);
      MPI_Isend(out, INTS, MPI_INT, partner, t, MPI_COMM_WORLD, &q[1]);
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
      sum[t] += in[0] + in[INTS - 1];
    }
  }
  mwt_msgs += THREADS * ROUNDS;
  static const char *labels[THREADS] = {"thread 0 received", "thread 1 received",
                                        "thread 2 received", "thread 3 received"};
  for (int t = 0; t < THREADS; t++) mwt_print(labels[t], sum[t]);
  return mwt_finish();
}
