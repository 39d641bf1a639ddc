/* mwt_rmawaits.c -- one-sided communication with planted wait states
 * (3 ranks; expectations in test/mpiwrap/rmawaits.expect, checked by
 * run_rma_waits_test.sh with pomp-analyze and pomp-e2e-check). Each phase
 * ends with a barrier, so the next starts together.
 *
 *   create       rank 0 sleeps CREATE_S before MPI_Win_create
 *                -> mpi_rma_wait_at_create CREATE_S on ranks 1, 2
 *   fence        rank 2 sleeps FENCE_S before the second MPI_Win_fence
 *                -> mpi_rma_wait_at_fence FENCE_S on ranks 0, 1
 *   early fence  in the next fence epoch rank 0 puts to rank 1, sleeps
 *                EARLY_FENCE_S and puts again; ranks 1 and 2 enter the
 *                closing fence at once
 *                -> mpi_rma_early_fence EARLY_FENCE_S on rank 1 (its wait
 *                   until the last put to it ended), mpi_rma_wait_at_fence
 *                   EARLY_FENCE_S on rank 2 (no operation targets it)
 *   late post    rank 1 sleeps POST_S before MPI_Win_post; rank 0 starts
 *                an access epoch to it at once (Put, complete)
 *                -> Late Post POST_S on rank 0 (in MPI_Win_start,
 *                   MPI_Put or MPI_Win_complete: wherever MPI blocks)
 *   early wait   rank 1 posts and waits at once; rank 0 sleeps WAIT_OP_S
 *                before its Put and WAIT_LATE_S after it, then completes
 *                -> mpi_rma_early_wait WAIT_OP_S, mpi_rma_late_complete
 *                   WAIT_LATE_S on rank 1 (MPI_Win_wait)
 *   groups       rank 1 sleeps GROUP_S before posting to rank 2; rank 2
 *                starts an access epoch to it at once, without operations
 *                (its targets come from the recorded group alone)
 *                -> Late Post GROUP_S on rank 2
 *   lock         rank 1 locks rank 2 exclusively, puts, flushes (the lock
 *                is held now), joins a barrier, sleeps LOCK_S, unlocks;
 *                rank 0 locks rank 2 exclusively after that barrier
 *                -> lock competition LOCK_S on rank 0
 * Bytes put: rank 0 3 x 4 ints and 3 ints (60 bytes), rank 1 1 int (4). */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

/* Large enough that 10 % covers the exit skew of the barriers between
   the phases: on a loaded 2-core machine, 3 busy-polling ranks leave a
   barrier up to ~70 ms apart. */
static const double CREATE_S = 0.600, FENCE_S = 0.700, POST_S = 0.800;
static const double WAIT_OP_S = 0.600, WAIT_LATE_S = 0.700, LOCK_S = 0.900, GROUP_S = 0.500;
static const double EARLY_FENCE_S = 0.600;

static void nap(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  while (nanosleep(&ts, &ts)) continue;
}

/* A group of one process of MPI_COMM_WORLD. */
static MPI_Group just(int rank) {
  MPI_Group world, g;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &rank, &g);
  MPI_Group_free(&world);
  return g;
}

/* An exposure epoch to origin, posted after delay seconds. */
static void expose(MPI_Win win, int origin, double delay) {
  MPI_Group g = just(origin);
  nap(delay);
  MPI_Win_post(g, 0, win);
  MPI_Win_wait(win);
  MPI_Group_free(&g);
}

/* An access epoch to target: after `before` seconds one put of 4 ints (if
   put), then `after` seconds before the complete. */
static void access_epoch(MPI_Win win, int target, const int *data, int put, double before,
                         double after) {
  MPI_Group g = just(target);
  MPI_Win_start(g, 0, win);
  nap(before);
  if (put) MPI_Put(data, 4, MPI_INT, target, 0, 4, MPI_INT, win);
  nap(after);
  MPI_Win_complete(win);
  MPI_Group_free(&g);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n != 3) {
    if (!me) fprintf(stderr, "mwt_rmawaits: needs 3 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int mem[4] = {0}, data[4] = {1, 2, 3, 4};
  MPI_Win win;
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) nap(CREATE_S);
  MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

  MPI_Win_fence(0, win);
  if (me == 0) MPI_Put(data, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
  if (me == 2) nap(FENCE_S);
  MPI_Win_fence(0, win);
  /* early fence: the fence above opens the epoch (no barrier's skew) */
  if (me == 0) {
    MPI_Put(data, 1, MPI_INT, 1, 2, 1, MPI_INT, win);
    nap(EARLY_FENCE_S);
    MPI_Put(data, 1, MPI_INT, 1, 3, 1, MPI_INT, win);
  }
  MPI_Win_fence(0, win);
  MPI_Barrier(MPI_COMM_WORLD);

  /* late post: 0 -> 1 */
  if (me == 0) access_epoch(win, 1, data, 1, 0, 0);
  else if (me == 1) expose(win, 0, POST_S);
  MPI_Barrier(MPI_COMM_WORLD);

  /* early wait and late complete: 0 -> 1 */
  if (me == 0) access_epoch(win, 1, data, 1, WAIT_OP_S, WAIT_LATE_S);
  else if (me == 1) expose(win, 0, 0);
  MPI_Barrier(MPI_COMM_WORLD);

  /* groups: 2 -> 1 with no operation; only the recorded groups tell that
     rank 1's second post is for rank 2 */
  if (me == 2) access_epoch(win, 1, data, 0, 0, 0);
  else if (me == 1) expose(win, 2, GROUP_S);
  MPI_Barrier(MPI_COMM_WORLD);

  /* lock competition on rank 2's window */
  if (me == 1) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
    MPI_Put(data, 1, MPI_INT, 2, 0, 1, MPI_INT, win);
    MPI_Win_flush(2, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 1) {
    nap(LOCK_S);
    MPI_Win_unlock(2, win);
  } else if (me == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 2, 0, win);
    MPI_Put(data, 1, MPI_INT, 2, 1, 1, MPI_INT, win);
    MPI_Win_unlock(2, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  if (me == 2) printf("rmawaits: %d %d\n", mem[0], mem[1]);
  MPI_Finalize();
  return 0;
}
