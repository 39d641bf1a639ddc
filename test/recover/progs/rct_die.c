/* rct_die.c -- an MPI run that dies: a known sequence, then rank 1 ends
   the run, once every other rank has told it (tag 8) that it is done and
   waits outside MPI, so that every rank's last record is known.
     rct_die abort|segv|exit|hang [PROBES [READY_FILE]]
   abort: MPI_Abort(MPI_COMM_WORLD, 3); segv: SIGSEGV; exit: returns from
   main without MPI_Finalize; hang: every rank waits after a last barrier
   (rank 0 then creates READY_FILE) until mpirun is interrupted (Ctrl-C);
   busy: like hang, but every rank keeps recording (parallel regions,
   MPI_Allreduce) and rank 0 creates READY_FILE after 50 rounds. PROBES MPI_Iprobe calls come first on every
   rank, so that a small POMP_BUFFER is flushed to disk before the end.
   Built with RCT_OMP (and -fopenmp -finstrument-functions), every rank
   first runs work() on 2 OpenMP threads: a location per thread. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef RCT_OMP
#include <omp.h>
void work(int *sum);
void work(int *sum) {
#pragma omp atomic
  *sum += omp_get_thread_num();
}
#endif

int main(int argc, char **argv) {
  int rank, size, x = 0, flag;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *how = argc > 1 ? argv[1] : "abort";
  long probes = argc > 2 ? atol(argv[2]) : 0;
#ifdef RCT_OMP
#pragma omp parallel num_threads(2)
  work(&x);
  x = 0;
#endif
  for (long i = 0; i < probes; i++)
    MPI_Iprobe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  if (rank == 0) MPI_Send(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (!strcmp(how, "busy")) { /* recording all the time when interrupted */
    for (long i = 0;; i++) {
#ifdef RCT_OMP
#pragma omp parallel num_threads(2)
      work(&x);
#endif
      MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      FILE *ready = i == 50 && rank == 0 && argc > 3 ? fopen(argv[3], "w") : NULL;
      if (ready) fclose(ready);
    }
  }
  if (!strcmp(how, "hang")) {
    MPI_Barrier(MPI_COMM_WORLD);
    FILE *ready = rank == 0 && argc > 3 ? fopen(argv[3], "w") : NULL;
    if (ready) fclose(ready);
    for (;;) pause();
  }
  if (rank == 1) {
    for (int r = 0; r < size; r++)
      if (r != 1) MPI_Recv(&x, 1, MPI_INT, r, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (!strcmp(how, "segv")) raise(SIGSEGV); /* as a bad pointer would, without UB */
    if (!strcmp(how, "exit")) return 0;
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Send(&x, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);
  for (;;) pause(); /* until mpirun ends this process */
}
