/* mpi_order.c -- ranks define their regions in different orders (rank 0
   calls alpha then beta, rank 1 beta then alpha) and create communicators
   (a split and a dup), so the trace is right only if definitions are
   unified across ranks. */
#include <mpi.h>

__attribute__((noinline)) static int alpha(int x) { return x + 1; }
__attribute__((noinline)) static int beta(int x) { return x * 2; }

int main(int argc, char **argv) {
  int rank, v;
  MPI_Comm half, copy;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  v = rank == 0 ? beta(alpha(rank)) : alpha(beta(rank));
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_dup(MPI_COMM_WORLD, &copy);
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, copy);
  MPI_Barrier(half);
  MPI_Comm_free(&half);
  MPI_Comm_free(&copy);
  MPI_Finalize();
  return v == 5 ? 0 : 1;
}
