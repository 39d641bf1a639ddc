/* mwt_flush.c -- enough MPI calls to fill libpomp's smallest event buffer
   (POMP_BUFFER=256k) several times: ring exchanges (Irecv + Isend +
   Waitall), blocking Sendrecv and Barriers. The records of one wrapper
   share a timestamp; a buffer flush caused by one of them is written as a
   region before the next, which must then move past the flush's end (test
   mpiwrap_flush_2: timestamps never go back, MPI records stay inside
   their call). */
#include "mwt.h"

#define ROUNDS 6000

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_SINGLE);
  int right = (mwt_rank + 1) % mwt_size, left = (mwt_rank + mwt_size - 1) % mwt_size;
  long long sum = 0;
  for (int i = 0; i < ROUNDS; i++) {
    int out = mwt_rank * ROUNDS + i, in = -1, back = -1;
    MPI_Request r[2];
    MPI_Irecv(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &r[1]);
    MWT_MSG(right);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    MPI_Sendrecv(&in, 1, MPI_INT, right, 2, &back, 1, MPI_INT, left, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MWT_MSG(right);
    sum += in + back;
    if (i % 8 == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      MWT_COLL();
    }
  }
  mwt_print("sum", sum);
  return mwt_finish();
}
