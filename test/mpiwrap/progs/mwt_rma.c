/* mwt_rma.c -- one-sided communication (OTF2 RMA records, mw_rma.c): a
   window per rank, fence epochs with Put, Get and Accumulate, a passive
   lock epoch, Fetch_and_op and Compare_and_swap, a request-based Rput. */
#include "mwt.h"

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_SINGLE);
  int n = mwt_size, me = mwt_rank, right = (me + 1) % n;
  int *base;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < 4; i++) base[i] = -1;
  int v = 10 * me, got = -1, one = 1, old = -1, swapped = -1;
  MPI_Win_fence(0, win);
  MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
  MPI_Accumulate(&one, 1, MPI_INT, right, 1, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  MPI_Get(&got, 1, MPI_INT, right, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  mwt_print("put/get", got);
  mwt_print("accumulate", base[1]);
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 2, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  MPI_Barrier(MPI_COMM_WORLD), MWT_COLL();
  MPI_Win_lock_all(0, win);
  int expect = -1, mine = me;
  MPI_Compare_and_swap(&mine, &expect, &swapped, MPI_INT, 0, 3, win);
  MPI_Win_flush_all(win);
  MPI_Request r;
  MPI_Rput(&v, 1, MPI_INT, right, 3, 0, MPI_INT, win, &r);   /* 0 ints */
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD), MWT_COLL();
  /* only the totals are deterministic: who came first is not */
  int fetched = me == 0 ? base[2] : 0, winner = me == 0 ? (base[3] >= 0) : 0;
  mwt_print("fetch_and_op total", fetched);
  mwt_print("compare_and_swap took", winner);
  MPI_Win_free(&win);
  return mwt_finish();
}
