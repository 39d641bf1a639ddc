/* mwt_hybrid.c -- MPI called from inside OpenMP parallel regions
   (MPI_THREAD_MULTIPLE): thread t of every rank exchanges messages tagged
   t with thread t of its partner rank and reduces over its own duplicate
   of MPI_COMM_WORLD, so mw_check --tag-is-thread can tell that each call
   was recorded on the thread that made it. */
#include <omp.h>

#include "mwt.h"

#define THREADS 2
#define ROUNDS 3

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_MULTIPLE);
  MPI_Comm comm[THREADS];
  for (int t = 0; t < THREADS; t++) MPI_Comm_dup(MPI_COMM_WORLD, &comm[t]);
  int partner = mwt_rank ^ 1;
  if (partner >= mwt_size) partner = mwt_rank;   /* odd one out: itself */
  long long got[THREADS] = {0}, sum[THREADS] = {0};
#pragma omp parallel num_threads(THREADS)
  {
    int t = omp_get_thread_num();
    for (int round = 0; round < ROUNDS; round++) {
      int out = 100 * mwt_rank + 10 * t + round, in = -1;
      MPI_Request r;
      MPI_Irecv(&in, 1, MPI_INT, partner, t, MPI_COMM_WORLD, &r);
      MPI_Send(&out, 1, MPI_INT, partner, t, MPI_COMM_WORLD);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      got[t] = got[t] * 1000 + in;
      long long one = out, all = 0;
      MPI_Allreduce(&one, &all, 1, MPI_LONG_LONG, MPI_SUM, comm[t]);
      sum[t] += all;
    }
  }
  mwt_msgs += THREADS * ROUNDS;
  mwt_colls += THREADS * ROUNDS;
  for (int t = 0; t < THREADS; t++) {
    mwt_print(t ? "thread 1 received" : "thread 0 received", got[t]);
    mwt_print(t ? "thread 1 sums" : "thread 0 sums", sum[t]);
    MPI_Comm_free(&comm[t]);
  }
  return mwt_finish();
}
