/* unfinished_mpi.c -- an MPI run that dies after a Late Sender of known
   size (test/analyze/unfinished_test.sh): rank 0 waits in MPI_Recv while
   rank 1 sleeps 0.2 s before its MPI_Send; once rank 0 said it is done
   (tag 8), rank 1 calls MPI_Abort(MPI_COMM_WORLD, 3).  On a loaded
   machine the ranks do not start waiting exactly together, so the message
   carries the time rank 1 entered MPI_Send, and rank 0 prints the wait it
   saw ("late sender S"; MPI_Wtime is one clock on one node). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <mpi.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int rank;
  double t = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    double posted = MPI_Wtime();
    MPI_Recv(&t, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("late sender %.6f\n", t - posted);
    fflush(stdout);
    MPI_Send(&t, 1, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD);
    for (;;) pause(); /* until mpirun ends this process */
  }
  if (rank == 1) {
    struct timespec late = {0, 200000000};
    nanosleep(&late, NULL);
    t = MPI_Wtime();
    MPI_Send(&t, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    MPI_Recv(&t, 1, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Finalize();
  return 0;
}
