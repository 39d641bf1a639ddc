/* mpi_signal.c -- each rank of an MPI run dies of SIGTERM after MPI_Init:
   no trace can be written (no MPI_Finalize), measure.log says so. */
#include <mpi.h>
#include <signal.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Barrier(MPI_COMM_WORLD);
  raise(SIGTERM);
  MPI_Finalize();
  return 0;
}
