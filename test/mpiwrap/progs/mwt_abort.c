/* mwt_abort.c -- rank 1 calls MPI_Abort(MPI_COMM_WORLD, 3) after some
   traffic while rank 0 waits in a receive that never completes: the run
   must end the same way with and without libpomp-mpi (no hang). */
#include "mwt.h"

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_SINGLE);
  int x = 0;
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (mwt_rank == 1 || mwt_size == 1) MPI_Abort(MPI_COMM_WORLD, 3);
  MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return mwt_finish();
}
