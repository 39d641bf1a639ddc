/*
 * collective_waits.c -- wait states in MPI collectives on MPI_COMM_WORLD.
 *
 * Needs at least 2 ranks; any number of threads.  Every "computation" is
 * team_work (all threads of a rank busy), so while a master waits in MPI its
 * workers are idle threads; it lasts until its planted time after the ranks
 * it keeps waiting started the problem (plant.h), however late the scheduler
 * woke them.  "last" is rank ranks-1; the root is rank 0.
 *
 * Planted problems (sizes in seconds; see expect/collective_waits.txt):
 *
 *   allreduce_imbalance  the last rank computes NXN_S before MPI_Allreduce.
 *                        -> mpi_wait_nxn 0.300 at
 *                           allreduce_imbalance;MPI_Allreduce, every rank but
 *                           the last, master thread.
 *   barrier_wait         rank 0 computes BARRIER_S before MPI_Barrier.
 *                        -> mpi_barrier_wait 0.320 at barrier_wait;MPI_Barrier,
 *                           every rank but 0.
 *   early_reduce         the root enters MPI_Reduce at once; every other rank
 *                        computes EARLY_REDUCE_S first.
 *                        -> mpi_earlyreduce 0.340 at early_reduce;MPI_Reduce,
 *                           rank 0 only.
 *   late_broadcast       the root computes LATE_BROADCAST_S before MPI_Bcast.
 *                        -> mpi_latebroadcast 0.360 at
 *                           late_broadcast;MPI_Bcast, every rank but 0.
 *   early_scan           the inner ranks (neither first nor last) compute
 *                        EARLY_SCAN_S before MPI_Scan; ranks 0 and last
 *                        enter at once.  Rank r of a scan needs ranks
 *                        0..r-1 only: the last rank waits for the inner
 *                        ones, rank 0 waits for nobody although they come
 *                        later (an N x N wait would charge it).
 *                        -> mpi_earlyscan 0.380 at early_scan;MPI_Scan, the
 *                           last rank only (needs 3+ ranks).
 *
 * With T >= 2 threads, the workers of a waiting master are idle meanwhile
 * (omp_idle_threads at the same call path, threads 1..T-1): for the wait,
 * plus the time the collective then needs to complete.
 */
#include "plant.h"

#include <mpi.h>

static const double NXN_S = 0.300;
static const double BARRIER_S = 0.320;
static const double EARLY_REDUCE_S = 0.340;
static const double LATE_BROADCAST_S = 0.360;
static const double EARLY_SCAN_S = 0.380;

enum { ROOT = 0 };

/* Whom a late rank keeps waiting (plant.h: its team_work ends the planted
   time after they started). */
static int any_other(const plant_world *w, int rank) { return rank != w->rank; }
static int is_root(const plant_world *w, int rank) {
  (void)w;
  return rank == ROOT;
}
static int is_last(const plant_world *w, int rank) { return rank == w->ranks - 1; }

/* Sum of 1..ranks, what the reductions below must produce. */
static int rank_sum(const plant_world *w) { return w->ranks * (w->ranks + 1) / 2; }

static int allreduce_imbalance(const plant_world *w) {
  if (w->rank == w->ranks - 1) team_work(w, any_other, NXN_S);
  int mine = w->rank + 1, sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return sum == rank_sum(w);
}

static int barrier_wait(const plant_world *w) {
  if (w->rank == 0) team_work(w, any_other, BARRIER_S);
  MPI_Barrier(MPI_COMM_WORLD);
  return 1;
}

static int early_reduce(const plant_world *w) {
  if (w->rank != ROOT) team_work(w, is_root, EARLY_REDUCE_S);
  int mine = w->rank + 1, sum = 0;
  MPI_Reduce(&mine, &sum, 1, MPI_INT, MPI_SUM, ROOT, MPI_COMM_WORLD);
  return w->rank != ROOT || sum == rank_sum(w);
}

static int late_broadcast(const plant_world *w) {
  int value = 0;
  if (w->rank == ROOT) {
    team_work(w, any_other, LATE_BROADCAST_S);
    value = 4242;
  }
  MPI_Bcast(&value, 1, MPI_INT, ROOT, MPI_COMM_WORLD);
  return value == 4242;
}

/* Why the inner ranks and not rank 0 are late: whatever the MPI's scan
   algorithm, the last rank cannot finish before their contributions came,
   so it leaves when they arrive and its workers are idle exactly as long
   as it waits.  Rank 0 may stay in the call too (a recursive doubling
   exchanges with higher ranks): that is no Early Scan, it stays
   mpi_collective time. */
static int early_scan(const plant_world *w) {
  int inner = w->rank > 0 && w->rank < w->ranks - 1;
  if (inner) team_work(w, is_last, EARLY_SCAN_S);
  int mine = w->rank + 1, prefix = 0;
  MPI_Scan(&mine, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return prefix == (w->rank + 1) * (w->rank + 2) / 2; /* sum of 1..rank+1 */
}

int main(int argc, char **argv) {
  plant_world w = plant_init(&argc, &argv, "collective_waits");
  int ok = 1;
  if (plant_needs(&w, 2, 1, "collective wait states")) {
    start_problem(&w, NXN_S);
    ok &= allreduce_imbalance(&w);
    start_problem(&w, BARRIER_S);
    ok &= barrier_wait(&w);
    start_problem(&w, EARLY_REDUCE_S);
    ok &= early_reduce(&w);
    start_problem(&w, LATE_BROADCAST_S);
    ok &= late_broadcast(&w);
    start_problem(&w, EARLY_SCAN_S);
    ok &= early_scan(&w);
    start_problem(&w, 0.0); /* the last slot ends before the result */
  }
  return plant_finish(&w, "collective_waits", ok);
}
