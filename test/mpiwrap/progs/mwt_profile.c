/* mwt_profile.c -- known messages for POMP_MODE=profile on 2 ranks (a
   rank beyond 1 only joins the collective): rank 0 sends 3 x 100 ints
   (MPI_Send, 400 bytes each) to rank 1; then both exchange 8 doubles
   (64 bytes) with MPI_Isend/MPI_Irecv completed by MPI_Waitall; then an
   MPI_Allreduce of 4 ints (16 bytes a block) over all ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int ints[100] = {0};
  for (int k = 0; k < 3 && size > 1; k++) {
    if (rank == 0) MPI_Send(ints, 100, MPI_INT, 1, k, MPI_COMM_WORLD);
    if (rank == 1) MPI_Recv(ints, 100, MPI_INT, 0, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  double out[8] = {0}, in[8];
  MPI_Request req[2];
  if (rank < 2 && size > 1) {
    int peer = 1 - rank;
    MPI_Irecv(in, 8, MPI_DOUBLE, peer, 9, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, 8, MPI_DOUBLE, peer, 9, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  int mine[4] = {rank, rank, rank, rank}, sum[4];
  MPI_Allreduce(mine, sum, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("sum %d\n", sum[0]);
  MPI_Finalize();
  return 0;
}
