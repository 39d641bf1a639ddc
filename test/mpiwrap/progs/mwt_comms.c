/* mwt_comms.c -- many short-lived communicators (MPICH's comm/ctxalloc
   pattern): N dup/free and split/free pairs of MPI_COMM_WORLD (N =
   argv[1], default 1000), a few kept alive to the end. Every 100th one
   carries a barrier and a ring message, so mw_check sees whether the
   unification at MPI_Finalize gave the same comm the same id on every
   rank (its k-th comm with a member list is the same comm everywhere), and
   mw_check counts the comms and groups defined: each comm once, each
   member list one group. */
#include "mwt.h"

/* A barrier and a ring message on comm. */
static void use(MPI_Comm comm) {
  int me, n, x = mwt_rank, got = -1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  MPI_Barrier(comm), MWT_COLL();
  int right = (me + 1) % n, left = (me + n - 1) % n;
  MPI_Sendrecv(&x, 1, MPI_INT, right, 3, &got, 1, MPI_INT, left, 3, comm, MPI_STATUS_IGNORE);
  MWT_MSG(right);
}

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_SINGLE);
  long n = argc > 1 ? atol(argv[1]) : 1000;
  enum { KEPT = 8 };
  MPI_Comm kept[KEPT];
  int nkept = 0;
  long used = 0, dups = 0, splits = 0;
  for (long i = 0; i < n; i++) {
    MPI_Comm c;
    if (i % 3 == 2) MPI_Comm_split(MPI_COMM_WORLD, mwt_rank % 2, mwt_rank, &c), splits++;
    else MPI_Comm_dup(MPI_COMM_WORLD, &c), dups++;
    if (i % 100 == 0) {
      use(c);
      used++;
    }
    if (i % 125 == 1 && nkept < KEPT) kept[nkept++] = c;
    else MPI_Comm_free(&c);
  }
  for (int k = 0; k < nkept; k++) {
    use(kept[k]);
    MPI_Comm_free(&kept[k]);
  }
  mwt_print("communicators used", used + nkept);
  /* WORLD, SELF, the duplicates, the splits of each half; groups: WORLD's
     members, SELF, one per half (one half is WORLD's members when alone) */
  int halves = mwt_size > 1 ? 2 : 1;
  mwt_comms = 2 + dups + halves * splits;
  mwt_groups = 2 + (mwt_size > 1 ? halves : 0);
  return mwt_finish();
}
