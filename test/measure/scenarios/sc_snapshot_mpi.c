/* sc_snapshot_mpi.c -- an MPI program that runs while its ranks' profile
   snapshots are read (POMP_MODE=profile POMP_SNAPSHOT, through libpomp-mpi;
   snapshot_mpi_test.sh): every rank calls MPI_Allreduce (2 ms apart)
   until rank 0 sees the file named by argv[1], which the test creates
   once it has read the snapshots it wants (a bound of 120 s ends it
   otherwise); the allreduce carries rank 0's decision to every rank. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc != 2) {
    if (rank == 0) fprintf(stderr, "usage: sc_snapshot_mpi STOP_FILE\n");
    MPI_Finalize();
    return 2;
  }
  time_t end = time(NULL) + 120;
  int stop = 0, rounds = 0;
  while (!stop) {
    struct timespec d = {0, 2000000L};
    nanosleep(&d, NULL);
    int mine = rank == 0 && (access(argv[1], F_OK) == 0 || time(NULL) >= end);
    MPI_Allreduce(&mine, &stop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    rounds++;
  }
  if (rank == 0) printf("rounds=%d\n", rounds);
  MPI_Finalize();
  return 0;
}
