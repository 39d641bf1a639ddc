/* mwt_records.c -- a short fixed MPI sequence on 2 ranks whose exact
   records mw_check --dump compares with records.expected: wildcard
   receive, status ignored, Isend/Irecv + Waitall, Sendrecv, Bcast,
   Gather with MPI_IN_PLACE, Allreduce in place, Iallreduce, a cancelled
   receive, calls while MPI_Pcontrol(0) has switched recording off (a comm and
   persistent requests made then are used later), a comm from Comm_split, and a message to MPI_PROC_NULL. Runs
   on exactly 2 ranks. */
#include "mwt.h"

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_SINGLE);
  int me = mwt_rank, other = 1 - me, x[4] = {me, me, me, me}, y[8];
  MPI_Request r[2];
  mwt_msgs = 3 * (1 - me) + 2 * me + 1;   /* what the rank sends below */
  mwt_colls = 6;   /* + the reduction of mwt_finish */
  mwt_unrecorded = 1;   /* the Barrier while recording is off */
  if (me == 0) {
    MPI_Send(x, 2, MPI_INT, 1, 7, MPI_COMM_WORLD);
  } else {
    MPI_Recv(y, 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Irecv(y, 3, MPI_INT, other, 8, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(x, 3, MPI_INT, other, 8, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Sendrecv(x, 1, MPI_DOUBLE, other, 9, y, 1, MPI_DOUBLE, other, 9, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Send(x, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
  MPI_Bcast(x, 4, MPI_INT, 1, MPI_COMM_WORLD);
  if (me == 0)
    MPI_Gather(MPI_IN_PLACE, 2, MPI_INT, y, 2, MPI_INT, 0, MPI_COMM_WORLD);
  else
    MPI_Gather(x, 2, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, x, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Iallreduce(x, y, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Irecv(y, 1, MPI_INT, other, 99, MPI_COMM_WORLD, &r[0]);
  MPI_Cancel(&r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Pcontrol(0);   /* not recorded, but the comm and requests are kept: */
  MPI_Comm quiet;
  MPI_Comm_dup(MPI_COMM_WORLD, &quiet);
  MPI_Request p[2];
  MPI_Recv_init(y, 1, MPI_INT, other, 11, quiet, &p[0]);
  MPI_Send_init(x, 1, MPI_INT, other, 11, quiet, &p[1]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Send(x, 1, MPI_INT, other, 10, MPI_COMM_WORLD);
  MPI_Recv(y, 1, MPI_INT, other, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Pcontrol(1);
  MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_MIN, quiet);
  MPI_Startall(2, p);
  MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
  MPI_Request_free(&p[0]);
  MPI_Request_free(&p[1]);
  MPI_Comm_free(&quiet);
  MPI_Comm one;
  MPI_Comm_split(MPI_COMM_WORLD, me, 0, &one);
  MPI_Barrier(one);
  MPI_Comm_free(&one);
  if (me == 0) printf("done\n");
  return mwt_finish();
}
