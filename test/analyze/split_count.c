/* split_count.c -- preloaded into pomp-analyze by node_procs_test.sh:
   says each MPI_Comm_split_type on stderr, the collective that
   az_parallel_node_procs makes only where the launcher does not give the
   node's process count. */
#include <mpi.h>
#include <stdio.h>

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) {
  fputs("MPI_Comm_split_type\n", stderr);
  return PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
}
