/* mpi_signal.c -- rank 1 of an MPI run dies of SIGTERM after MPI_Init, while
   rank 0 waits for a message that never comes (mpiexec then ends it): no
   trace can be written (no MPI_Finalize), and rank 1's measure.log line
   says why.  Only one rank raises the signal: when both did, mpiexec
   could kill the second before its handler ran, and the test was flaky. */
#include <mpi.h>
#include <signal.h>

int main(int argc, char **argv) {
  int rank, never;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) raise(SIGTERM);
  MPI_Recv(&never, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
