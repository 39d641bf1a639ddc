/* unfinished_mpi.c -- an MPI run that dies after a Late Sender of known
   size (test/analyze/unfinished_test.sh): rank 0 waits in MPI_Recv while
   rank 1 sleeps 0.2 s before its MPI_Send; once rank 0 said it is done
   (tag 8), rank 1 calls MPI_Abort(MPI_COMM_WORLD, 3). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <mpi.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int rank, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Recv(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);
    for (;;) pause(); /* until mpirun ends this process */
  }
  if (rank == 1) {
    struct timespec late = {0, 200000000};
    nanosleep(&late, NULL);
    MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    MPI_Recv(&x, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Finalize();
  return 0;
}
