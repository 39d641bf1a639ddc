/* mwt_pcontrol.c -- some ranks switch recording off (MPI_Pcontrol(0))
   around collectives the others record (QA finding 7): every process
   still counts its instances per communicator, and the trace stands in
   for those not recorded with a placeholder, so mw_check pairs the k-th
   collective of every rank with the same operation and root. First
   rank 0 misses one Allreduce (the QA reproduction), then the odd ranks
   miss a Bcast on a duplicate of MPI_COMM_WORLD, an Allreduce on the world
   and a Reduce on the duplicate. */
#include "mwt.h"

/* A blocking collective: recorded unless this rank has switched off. */
static void counted(int off) {
  if (off)
    mwt_unrecorded++;
  else
    MWT_COLL();
}

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_SINGLE);
  long long x = mwt_rank + 1, all = 0, sum = 0;
  int first_off = mwt_rank == 0;
  if (first_off) MPI_Pcontrol(0);
  MPI_Allreduce(&x, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  counted(first_off);
  if (first_off) MPI_Pcontrol(1);
  sum += all;
  MPI_Barrier(MPI_COMM_WORLD);
  MWT_COLL();

  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  int odd_off = mwt_rank % 2 == 1;
  if (odd_off) MPI_Pcontrol(0);
  long long b = mwt_rank == 0 ? 42 : 0;
  MPI_Bcast(&b, 1, MPI_LONG_LONG, 0, dup);
  counted(odd_off);
  MPI_Allreduce(&x, &all, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  counted(odd_off);
  MPI_Reduce(&x, &all, 1, MPI_LONG_LONG, MPI_SUM, mwt_size - 1, dup);
  counted(odd_off);
  if (odd_off) MPI_Pcontrol(1);
  sum += b + (mwt_rank == mwt_size - 1 ? all : 0);
  MPI_Allreduce(&x, &all, 1, MPI_LONG_LONG, MPI_MIN, dup);
  MWT_COLL();
  sum += all;
  MPI_Comm_free(&dup);
  mwt_print("sum", sum);
  return mwt_finish();
}
