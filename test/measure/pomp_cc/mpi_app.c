/* mpi_app.c -- an MPI program for pomp-cc: rank 0 sends to rank 1. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank, x = 42;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) MPI_Send(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
