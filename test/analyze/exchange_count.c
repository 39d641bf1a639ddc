/* exchange_count.c -- preloaded into pomp-analyze by exchanges_test.sh:
   says on stderr each collective of MPI_COMM_WORLD that the first pass
   makes after a window (parallel.c): the agreement (an MPI_Iallreduce of
   two ints) and the exchange's all-to-alls. */
#include <mpi.h>
#include <stdio.h>

int MPI_Iallreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request *req) {
  if (comm == MPI_COMM_WORLD && count == 2 && type == MPI_INT) fputs("agreement\n", stderr);
  return PMPI_Iallreduce(in, out, count, type, op, comm, req);
}

int MPI_Ialltoall(const void *out, int scount, MPI_Datatype stype, void *in, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req) {
  if (comm == MPI_COMM_WORLD) fputs("MPI_Ialltoall\n", stderr);
  return PMPI_Ialltoall(out, scount, stype, in, rcount, rtype, comm, req);
}

int MPI_Ialltoallv(const void *out, const int *scounts, const int *sdispl, MPI_Datatype stype,
                   void *in, const int *rcounts, const int *rdispl, MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request *req) {
  if (comm == MPI_COMM_WORLD) fputs("MPI_Ialltoallv\n", stderr);
  return PMPI_Ialltoallv(out, scounts, sdispl, stype, in, rcounts, rdispl, rtype, comm, req);
}
