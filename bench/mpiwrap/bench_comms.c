/* bench_comms.c -- many communicators (MPICH's comm/ctxalloc pattern)
 * under libpomp-mpi: N MPI_Comm_dup/MPI_Comm_free pairs recorded, then
 * MPI_Finalize, which unifies the N communicators of every rank
 * (unify/pm_merge.c) and writes the trace. The baseline, in the same run,
 * is N PMPI_Comm_dup/PMPI_Comm_free pairs (nothing recorded): the
 * wrappers' cost per pair and MPI_Finalize's cost per communicator are
 * printed against it. Before the unification was linear, 40,000 pairs
 * made MPI_Finalize take 11.3 s (0.01 s plain) and 200,000 did not finish
 * in 60 s.
 * run: mpirun -n 2 bench-mpiwrap-comms [N]   (default 100000)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "bench_clock.h"

static double pairs(long n, int (*dup)(MPI_Comm, MPI_Comm *), int (*release)(MPI_Comm *)) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = bench_now();
  for (long i = 0; i < n; i++) {
    MPI_Comm c;
    dup(MPI_COMM_WORLD, &c);
    release(&c);
  }
  return bench_now() - t0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long n = argc > 1 ? atol(argv[1]) : 100000;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (n < 1) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -n 2 bench-mpiwrap-comms [N >= 1]\n");
    MPI_Finalize();
    return 2;
  }
  double plain = pairs(n, PMPI_Comm_dup, PMPI_Comm_free);
  double wrapped = pairs(n, MPI_Comm_dup, MPI_Comm_free);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = bench_now();
  MPI_Finalize();
  double fin = bench_now() - t0;
  if (rank == 0) {
    printf("bench-mpiwrap-comms: %ld communicators (dup/free pairs), shared machine\n", n);
    printf("  PMPI dup+free     %8.3f s  %8.2f us per pair (baseline)\n", plain, plain / n * 1e6);
    printf("  MPI dup+free      %8.3f s  %8.2f us per pair (%.2fx)\n", wrapped, wrapped / n * 1e6,
           wrapped / plain);
    printf("  MPI_Finalize      %8.3f s  %8.2f us per communicator (%.2fx the PMPI pairs)\n", fin,
           fin / n * 1e6, fin / plain);
  }
  return 0;
}
