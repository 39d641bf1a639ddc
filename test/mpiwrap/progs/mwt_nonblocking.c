/* mwt_nonblocking.c -- non-blocking and persistent point-to-point through
   every completion call (Wait, Waitall, Waitany, Waitsome, Test, Testall,
   Testany, Testsome, Request_get_status), Start/Startall, Cancel,
   Request_free (of an active Isend, and of an Irecv whose message arrived, too), Isendrecv and the large-count twins. Ring exchanges: each
   rank sends to its right neighbour and receives from its left one. */
#include "mwt.h"

#define K 4   /* messages per exchange */

static int right(void) { return (mwt_rank + 1) % mwt_size; }
static int left(void) { return (mwt_rank + mwt_size - 1) % mwt_size; }

/* Posts K receives and K sends (requests 0..K-1 receive, K..2K-1 send). */
static void post(MPI_Request *r, int *in, int *out, int tag, int large) {
  for (int i = 0; i < K; i++) {
    out[i] = 1000 * mwt_rank + 10 * tag + i;
    if (large)
      MPI_Irecv_c(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, tag + i, MPI_COMM_WORLD, &r[i]);
    else
      MPI_Irecv(&in[i], 1, MPI_INT, left(), tag + i, MPI_COMM_WORLD, &r[i]);
  }
  for (int i = 0; i < K; i++) {
    if (large)
      MPI_Isend_c(&out[i], 1, MPI_INT, right(), tag + i, MPI_COMM_WORLD, &r[K + i]);
    else if (i % 2)
      MPI_Issend(&out[i], 1, MPI_INT, right(), tag + i, MPI_COMM_WORLD, &r[K + i]);
    else
      MPI_Isend(&out[i], 1, MPI_INT, right(), tag + i, MPI_COMM_WORLD, &r[K + i]);
    MWT_MSG(right());
  }
}

static long long sum(const int *v) {
  long long s = 0;
  for (int i = 0; i < K; i++) s = s * 7 + v[i];
  return s;
}

/* Completes all 2K requests with the completion call `how`. */
static long long exchange(int how, int tag) {
  MPI_Request r[2 * K];
  MPI_Status st[2 * K];
  int in[K], out[K], done = 0, idx[2 * K], n, flag;
  post(r, in, out, tag, how == 8);
  switch (how) {
  case 0:
    for (int i = 0; i < 2 * K; i++) MPI_Wait(&r[i], i % 2 ? MPI_STATUS_IGNORE : &st[0]);
    break;
  case 1:
  case 8:
    MPI_Waitall(2 * K, r, how == 1 ? MPI_STATUSES_IGNORE : st);
    break;
  case 2:
    for (; done < 2 * K; done++) MPI_Waitany(2 * K, r, &idx[0], MPI_STATUS_IGNORE);
    break;
  case 3:
    while (done < 2 * K) {
      MPI_Waitsome(2 * K, r, &n, idx, st);
      done += n;
    }
    break;
  case 4:
    for (int i = 0; i < 2 * K; i++)
      for (flag = 0; !flag;) MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE);
    break;
  case 5:
    for (flag = 0; !flag;) MPI_Testall(2 * K, r, &flag, st);
    break;
  case 6:
    while (done < 2 * K) {
      MPI_Testany(2 * K, r, &idx[0], &flag, MPI_STATUS_IGNORE);
      done += flag && idx[0] != MPI_UNDEFINED;
    }
    break;
  case 7:
    while (done < 2 * K) {
      MPI_Testsome(2 * K, r, &n, idx, MPI_STATUSES_IGNORE);
      done += n;
    }
    break;
  }
  return sum(in);
}

/* Persistent requests started three times, then freed. */
static long long persistent(void) {
  int in[K], out[K];
  MPI_Request r[2 * K];
  for (int i = 0; i < K; i++) {
    MPI_Recv_init(&in[i], 1, MPI_INT, left(), 200 + i, MPI_COMM_WORLD, &r[i]);
    MPI_Send_init(&out[i], 1, MPI_INT, right(), 200 + i, MPI_COMM_WORLD, &r[K + i]);
  }
  long long s = 0;
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < K; i++) out[i] = round * 100 + mwt_rank * 10 + i;
    if (round == 1) {
      for (int i = 0; i < 2 * K; i++) MPI_Start(&r[i]);
    } else {
      MPI_Startall(2 * K, r);
    }
    for (int i = 0; i < K; i++) MWT_MSG(right());
    MPI_Waitall(2 * K, r, MPI_STATUSES_IGNORE);
    s = s * 3 + sum(in);
  }
  for (int i = 0; i < 2 * K; i++) MPI_Request_free(&r[i]);
  return s;
}

/* A receive nobody sends to, cancelled. */
static long long cancelled(void) {
  int x;
  MPI_Request r;
  MPI_Status st;
  MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &r);
  MPI_Cancel(&r);
  MPI_Wait(&r, &st);
  int flag = 0;
  MPI_Test_cancelled(&st, &flag);
  return flag;
}

/* An Isend whose request is freed while active (legal MPI: MPICH's
   pt2pt/rqfree): its message is still received. */
static long long freed(void) {
  static int out; /* must outlive the freed request */
  int in = -1;
  MPI_Request r;
  out = mwt_rank + 40;
  MPI_Isend(&out, 1, MPI_INT, right(), 500, MPI_COMM_WORLD, &r);
  MWT_MSG(right());
  MPI_Request_free(&r);
  MPI_Recv(&in, 1, MPI_INT, left(), 500, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD), MWT_COLL(); /* every freed send was received */
  return in;
}

/* An Irecv whose request is freed once its message has arrived, without
   a Wait or Test (legal MPI: MPICH's pt2pt/rqfreeb): the message is
   received all the same, and the trace says so. */
static long long freed_receive(void) {
  static int in = -1; /* the freed receive's buffer */
  int out = mwt_rank + 50, arrived = 0;
  MPI_Request r;
  MPI_Irecv(&in, 1, MPI_INT, left(), 501, MPI_COMM_WORLD, &r);
  MPI_Send(&out, 1, MPI_INT, right(), 501, MPI_COMM_WORLD), MWT_MSG(right());
  while (!arrived) MPI_Request_get_status(r, &arrived, MPI_STATUS_IGNORE);
  MPI_Request_free(&r);
  return in;
}

/* More requests than a wrapper keeps on its stack (16): 20 receives and
   20 sends completed by Waitsome and Testall with ignored statuses. */
static long long many(int tag) {
  enum { M = 20 };
  MPI_Request r[2 * M];
  int in[M], out[M], idx[2 * M], n, done = 0;
  for (int i = 0; i < M; i++) {
    out[i] = mwt_rank * 100 + i;
    MPI_Irecv(&in[i], 1, MPI_INT, left(), tag + i, MPI_COMM_WORLD, &r[i]);
  }
  for (int i = 0; i < M; i++) {
    MPI_Isend(&out[i], 1, MPI_INT, right(), tag + i, MPI_COMM_WORLD, &r[M + i]);
    MWT_MSG(right());
  }
  while (done < M) {   /* the receives first, the sends by Testall */
    MPI_Waitsome(M, r, &n, idx, MPI_STATUSES_IGNORE);
    done += n;
  }
  for (int flag = 0; !flag;) MPI_Testall(M, r + M, &flag, MPI_STATUSES_IGNORE);
  long long s = 0;
  for (int i = 0; i < M; i++) s = s * 3 + in[i];
  return s;
}

/* MPI 4 Isendrecv, and Request_get_status before the Wait. */
static long long isendrecv(void) {
  int out = mwt_rank * 3, in = -1, flag = 0;
  MPI_Request r;
  MPI_Isendrecv(&out, 1, MPI_INT, right(), 300, &in, 1, MPI_INT, left(), 300,
                MPI_COMM_WORLD, &r);
  MWT_MSG(right());
  while (!flag) MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  return in;
}

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_SINGLE);
  const char *how[] = {"wait", "waitall", "waitany", "waitsome", "test",
                       "testall", "testany", "testsome", "isend_c"};
  for (int i = 0; i < 9; i++) mwt_print(how[i], exchange(i, 10 * (i + 1)));
  mwt_print("many", many(400));
  mwt_print("persistent", persistent());
  mwt_print("cancelled", cancelled());
  mwt_print("isendrecv", isendrecv());
  mwt_print("freed", freed());
  mwt_print("freed_receive", freed_receive());
  return mwt_finish();
}
