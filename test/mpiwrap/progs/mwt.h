/*
 * mwt.h -- helpers of the libpomp-mpi transparency programs.
 *
 * Every program prints only from rank 0, values gathered from all ranks in
 * rank order, so its output is the same on every run and must not change
 * when libpomp-mpi is added. Each program also counts what it does: the
 * messages it sends (MWT_MSG), the collective operations it starts
 * (MWT_COLL) and the blocking collectives it runs while recording is off
 * (mwt_unrecorded). mwt_finish sums them over the ranks and, when
 * MWT_EXPECT names a file, rank 0 writes them there ("messages N" /
 * "collectives N" / "unrecorded N") for mw_check to compare with what the
 * trace holds.
 */
#ifndef MWT_H
#define MWT_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static long long mwt_msgs, mwt_colls, mwt_unrecorded;
/* Where >= 0 (set by rank 0): the MPI communicators and MPI member groups
   the trace must define ("comms N", "mpi_groups N"). */
static long long mwt_comms = -1, mwt_groups = -1;
static int mwt_rank, mwt_size;
/* The communicator of all processes: MPI_COMM_WORLD, or under MPI
   Sessions one made from the process set mpi://WORLD (mwt_sessions.c). */
static MPI_Comm mwt_world;

/* A message sent to dest (nothing for MPI_PROC_NULL). */
#define MWT_MSG(dest) (mwt_msgs += (dest) != MPI_PROC_NULL)
/* One collective operation started by this process. */
#define MWT_COLL() (mwt_colls++)

static inline void mwt_check(int rc, const char *what) {
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "rank %d: %s failed (%d)\n", mwt_rank, what, rc);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static inline void mwt_start(int *argc, char ***argv, int required) {
  int provided;
  mwt_check(MPI_Init_thread(argc, argv, required, &provided), "MPI_Init_thread");
  mwt_world = MPI_COMM_WORLD;
  MPI_Comm_rank(MPI_COMM_WORLD, &mwt_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mwt_size);
  if (provided < required) {
    fprintf(stderr, "thread level %d < %d\n", provided, required);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

/* Prints "label: v0 v1 ..." (the value of every rank) from rank 0. */
static inline void mwt_print(const char *label, long long v) {
  long long *all = malloc(sizeof *all * (size_t)mwt_size);
  MPI_Gather(&v, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG, 0, mwt_world);
  MWT_COLL();
  if (mwt_rank == 0) {
    printf("%s:", label);
    for (int i = 0; i < mwt_size; i++) printf(" %lld", all[i]);
    printf("\n");
    fflush(stdout);
  }
  free(all);
}

/* Sums the counts over the ranks; rank 0 writes them to $MWT_EXPECT. */
static inline void mwt_report(void) {
  long long mine[3], sum[3];
  mwt_colls++;   /* the reduction below */
  mine[0] = mwt_msgs;
  mine[1] = mwt_colls;
  mine[2] = mwt_unrecorded;
  MPI_Reduce(mine, sum, 3, MPI_LONG_LONG, MPI_SUM, 0, mwt_world);
  const char *path = getenv("MWT_EXPECT");
  if (mwt_rank == 0 && path && *path) {
    FILE *f = fopen(path, "w");
    if (!f ||
        fprintf(f, "messages %lld\ncollectives %lld\nunrecorded %lld\n", sum[0], sum[1],
                sum[2]) < 0 ||
        (mwt_comms >= 0 && fprintf(f, "comms %lld\n", mwt_comms) < 0) ||
        (mwt_groups >= 0 && fprintf(f, "mpi_groups %lld\n", mwt_groups) < 0) ||
        fclose(f) != 0) {
      perror(path);
      MPI_Abort(mwt_world, 1);
    }
  }
}

static inline int mwt_finish(void) {
  mwt_report();
  MPI_Finalize();
  return 0;
}

#endif /* MWT_H */
