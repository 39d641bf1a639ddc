/* mwt_p2p.c -- blocking point-to-point: every send mode, wildcard receives
   with and without a status, Sendrecv(_replace), (M/I)probe + (M)recv, and
   the large-count twins. Ranks work in pairs (r, r^1); the last rank of an
   odd count talks to MPI_PROC_NULL. */
#include <string.h>

#include "mwt.h"

static int partner(void) {
  int p = mwt_rank ^ 1;
  return p < mwt_size ? p : MPI_PROC_NULL;
}

/* Sends one int in the given mode; returns what came back. */
static long long pair_exchange(int mode, int value) {
  int p = partner(), got = -1;
  MPI_Status st;
  if (p == MPI_PROC_NULL) return -2;
  int first = mwt_rank < p;
  for (int turn = 0; turn < 2; turn++) {
    if ((turn == 0) == first) {
      if (mode == 0) MPI_Send(&value, 1, MPI_INT, p, 10 + mode, MPI_COMM_WORLD);
      if (mode == 1) MPI_Ssend(&value, 1, MPI_INT, p, 10 + mode, MPI_COMM_WORLD);
      if (mode == 2) MPI_Bsend(&value, 1, MPI_INT, p, 10 + mode, MPI_COMM_WORLD);
      if (mode == 3) MPI_Send_c(&value, 1, MPI_INT, p, 10 + mode, MPI_COMM_WORLD);
      MWT_MSG(p);
    } else if (mode == 3) {
      MPI_Recv_c(&got, 1, MPI_INT, p, MPI_ANY_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    } else {
      /* wildcards: other pairs use other tags, and our partner other
         phases, so each may only match the intended message */
      int source = mode == 1 ? p : MPI_ANY_SOURCE;
      int tag = mode == 1 ? MPI_ANY_TAG : 10 + mode;
      MPI_Recv(&got, 1, MPI_INT, source, tag, MPI_COMM_WORLD, &st);
      got += 1000 * st.MPI_TAG + 100000 * st.MPI_SOURCE;
    }
  }
  return got;
}

/* Rsend needs the receive posted first: the receiver says so with a token. */
static long long ready_send(void) {
  int p = partner(), value = 7 * mwt_rank, got = -1;
  if (p == MPI_PROC_NULL) return -2;
  if (mwt_rank < p) {
    MPI_Recv(NULL, 0, MPI_BYTE, p, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Rsend(&value, 1, MPI_INT, p, 21, MPI_COMM_WORLD);
    MWT_MSG(p);
    return 0;
  }
  MPI_Request r;
  MPI_Irecv(&got, 1, MPI_INT, p, 21, MPI_COMM_WORLD, &r);
  MPI_Send(NULL, 0, MPI_BYTE, p, 20, MPI_COMM_WORLD);
  MWT_MSG(p);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  return got;
}

static long long ring_sendrecv(void) {
  int right = (mwt_rank + 1) % mwt_size, left = (mwt_rank + mwt_size - 1) % mwt_size;
  double out[3] = {mwt_rank, mwt_rank * 2.0, 3}, in[3];
  MPI_Status st;
  MPI_Sendrecv(out, 3, MPI_DOUBLE, right, 30, in, 3, MPI_DOUBLE, MPI_ANY_SOURCE,
               30, MPI_COMM_WORLD, &st);
  MWT_MSG(right);
  int buf[2] = {mwt_rank, -mwt_rank};
  MPI_Sendrecv_replace(buf, 2, MPI_INT, left, 31, right, 31, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE);
  MWT_MSG(left);
  /* to and from nobody: no message, no record */
  MPI_Sendrecv(out, 1, MPI_DOUBLE, MPI_PROC_NULL, 32, in + 2, 1, MPI_DOUBLE,
               MPI_PROC_NULL, 32, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return (long long)(in[0] + in[1] * 10) * 100 + buf[0] + st.MPI_SOURCE * 10000;
}

/* The receiver learns sizes by probing: Probe, Iprobe, Mprobe, Improbe. */
static long long probes(void) {
  int p = partner();
  if (p == MPI_PROC_NULL) return -2;
  long long sum = 0;
  if (mwt_rank < p) {
    int data[40];
    for (int i = 0; i < 40; i++) data[i] = i + mwt_rank;
    for (int k = 1; k <= 4; k++) {
      MPI_Send(data, 10 * k, MPI_INT, p, 40 + k, MPI_COMM_WORLD);
      MWT_MSG(p);
    }
    return 0;
  }
  int buf[40], n, flag = 0;
  MPI_Status st;
  MPI_Message m;
  MPI_Probe(MPI_ANY_SOURCE, 41, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_INT, &n);
  MPI_Recv(buf, n, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
  sum += n + buf[n - 1];
  while (!flag) MPI_Iprobe(p, 42, MPI_COMM_WORLD, &flag, &st);
  MPI_Get_count(&st, MPI_INT, &n);
  MPI_Recv(buf, n, MPI_INT, p, 42, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  sum += n + buf[n - 1];
  MPI_Mprobe(p, 43, MPI_COMM_WORLD, &m, &st);
  MPI_Get_count(&st, MPI_INT, &n);
  MPI_Mrecv(buf, n, MPI_INT, &m, MPI_STATUS_IGNORE);
  sum += n + buf[n - 1];
  for (flag = 0; !flag;) MPI_Improbe(p, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st);
  MPI_Get_count(&st, MPI_INT, &n);
  MPI_Mrecv_c(buf, n, MPI_INT, &m, &st);
  sum += n + buf[n - 1] + st.MPI_TAG;
  return sum;
}

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_SINGLE);
  static char bsend_buffer[1024];
  MPI_Buffer_attach(bsend_buffer, sizeof bsend_buffer);
  const char *modes[] = {"send", "ssend", "bsend", "send_c"};
  for (int mode = 0; mode < 4; mode++)
    mwt_print(modes[mode], pair_exchange(mode, 100 + mwt_rank));
  mwt_print("rsend", ready_send());
  mwt_print("sendrecv", ring_sendrecv());
  mwt_print("probes", probes());
  void *b;
  int size;
  MPI_Buffer_detach(&b, &size);
  mwt_print("bsend buffer", size);
  return mwt_finish();
}
