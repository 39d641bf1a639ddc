/* mwt_coll.c -- every blocking collective (with MPI_IN_PLACE where MPI
   allows it, v and w variants, large-count twins), the non-blocking ones,
   persistent ones (MPI 4) and neighbourhood collectives on a ring. */
#include <string.h>

#include "mwt.h"

#define W MPI_COMM_WORLD

static long long digest(const int *v, int n) {
  long long s = 0;
  for (int i = 0; i < n; i++) s = (s * 31 + v[i]) % 1000000007;
  return s;
}

static void blocking(int n, int me) {
  int *a = calloc((size_t)n * 4, sizeof *a), *b = calloc((size_t)n * 4, sizeof *b);
  int *counts = malloc(sizeof *counts * (size_t)n), *displs = malloc(sizeof *displs * (size_t)n);
  MPI_Datatype *types = malloc(sizeof *types * (size_t)n);
  for (int i = 0; i < n; i++) counts[i] = 1 + i % 2, displs[i] = 2 * i, types[i] = MPI_INT;
  int root = n - 1, x = me + 1, y = 0;

  MPI_Barrier(W), MWT_COLL();
  y = me == root ? 42 : 0;
  MPI_Bcast(&y, 1, MPI_INT, root, W), MWT_COLL();
  mwt_print("bcast", y);
  MPI_Bcast_c(&x, 1, MPI_INT, 0, W), MWT_COLL();
  mwt_print("bcast_c", x);
  for (int i = 0; i < 2 * n; i++) a[i] = 10 * me + i;
  MPI_Gather(a, 2, MPI_INT, b, 2, MPI_INT, root, W), MWT_COLL();
  mwt_print("gather", me == root ? digest(b, 2 * n) : 0);
  MPI_Gatherv(a, counts[me], MPI_INT, b, counts, displs, MPI_INT, 0, W), MWT_COLL();
  mwt_print("gatherv", me == 0 ? digest(b, 2 * n) : 0);
  if (me == 0) {
    for (int i = 0; i < 2 * n; i++) b[i] = i;
    MPI_Gather(MPI_IN_PLACE, 2, MPI_INT, b, 2, MPI_INT, 0, W), MWT_COLL();
  } else {
    MPI_Gather(a, 2, MPI_INT, NULL, 2, MPI_INT, 0, W), MWT_COLL();
  }
  mwt_print("gather in place", me == 0 ? digest(b, 2 * n) : 0);
  MPI_Scatter(a, 2, MPI_INT, b, 2, MPI_INT, 0, W), MWT_COLL();
  mwt_print("scatter", digest(b, 2));
  MPI_Scatterv(a, counts, displs, MPI_INT, b, counts[me], MPI_INT, root, W), MWT_COLL();
  mwt_print("scatterv", digest(b, counts[me]));
  MPI_Allgather(&x, 1, MPI_INT, b, 1, MPI_INT, W), MWT_COLL();
  mwt_print("allgather", digest(b, n));
  MPI_Allgatherv(a, counts[me], MPI_INT, b, counts, displs, MPI_INT, W), MWT_COLL();
  mwt_print("allgatherv", digest(b, 2 * n));
  MPI_Alltoall(a, 2, MPI_INT, b, 2, MPI_INT, W), MWT_COLL();
  mwt_print("alltoall", digest(b, 2 * n));
  /* pairwise counts must agree: me sends j as many as j expects from me */
  for (int i = 0; i < n; i++) counts[i] = 1 + (me + i) % 2;
  MPI_Alltoallv(a, counts, displs, MPI_INT, b, counts, displs, MPI_INT, W), MWT_COLL();
  mwt_print("alltoallv", digest(b, 2 * n));
  for (int i = 0; i < n; i++) displs[i] *= (int)sizeof(int);   /* bytes for w */
  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, W), MWT_COLL();
  for (int i = 0; i < n; i++) displs[i] /= (int)sizeof(int);
  mwt_print("alltoallw", digest(b, 2 * n));
  for (int i = 0; i < n; i++) counts[i] = 1 + i % 2;
  MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, 0, W), MWT_COLL();
  mwt_print("reduce", me == 0 ? y : 0);
  MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MAX, W), MWT_COLL();
  mwt_print("allreduce", y);
  y = x;
  MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, W), MWT_COLL();
  mwt_print("allreduce in place", y);
  long long big = x, bigsum;
  MPI_Allreduce_c(&big, &bigsum, 1, MPI_LONG_LONG, MPI_SUM, W), MWT_COLL();
  mwt_print("allreduce_c", bigsum);
  for (int i = 0; i < 2 * n; i++) a[i] = me + i;
  MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, W), MWT_COLL();
  mwt_print("reduce_scatter", digest(b, counts[me]));
  MPI_Reduce_scatter_block(a, b, 2, MPI_INT, MPI_SUM, W), MWT_COLL();
  mwt_print("reduce_scatter_block", digest(b, 2));
  MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, W), MWT_COLL();
  mwt_print("scan", y);
  y = -1;
  MPI_Exscan(&x, &y, 1, MPI_INT, MPI_SUM, W), MWT_COLL();
  mwt_print("exscan", me == 0 ? 0 : y);
  free(a), free(b), free(counts), free(displs), free(types);
}

static void nonblocking(int n, int me) {
  MPI_Request r[6];
  int x = me + 1, sum = 0, max = 0, root = 0;
  int *all = malloc(sizeof *all * (size_t)n), *g = malloc(sizeof *g * (size_t)n);
  root = me == 0 ? 7 : 0;
  MPI_Ibarrier(W, &r[0]), MWT_COLL();
  MPI_Ibcast(&root, 1, MPI_INT, 0, W, &r[1]), MWT_COLL();
  MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, W, &r[2]), MWT_COLL();
  MPI_Ireduce(&x, &max, 1, MPI_INT, MPI_MAX, n - 1, W, &r[3]), MWT_COLL();
  MPI_Iallgather(&x, 1, MPI_INT, all, 1, MPI_INT, W, &r[4]), MWT_COLL();
  MPI_Ialltoall(all, 0, MPI_INT, g, 0, MPI_INT, W, &r[5]), MWT_COLL();
  MPI_Waitall(6, r, MPI_STATUSES_IGNORE);
  mwt_print("ibcast", root);
  mwt_print("iallreduce", sum);
  mwt_print("ireduce", me == n - 1 ? max : 0);
  mwt_print("iallgather", digest(all, n));
  MPI_Igather(&x, 1, MPI_INT, g, 1, MPI_INT, 0, W, &r[0]), MWT_COLL();
  int flag = 0;
  while (!flag) MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
  mwt_print("igather", me == 0 ? digest(g, n) : 0);
  int scan = 0, exscan = 0;
  MPI_Iscan(&x, &scan, 1, MPI_INT, MPI_SUM, W, &r[0]), MWT_COLL();
  MPI_Iexscan(&x, &exscan, 1, MPI_INT, MPI_SUM, W, &r[1]), MWT_COLL();
  MPI_Iscatter(all, 1, MPI_INT, &sum, 1, MPI_INT, n - 1, W, &r[2]), MWT_COLL();
  int done = 0, idx;
  while (done < 3) {   /* completed in any order */
    MPI_Waitany(3, r, &idx, MPI_STATUS_IGNORE);
    done++;
  }
  mwt_print("iscan", scan);
  mwt_print("iexscan", me == 0 ? 0 : exscan);
  mwt_print("iscatter", sum);
  free(all), free(g);
}

static void persistent(int me) {
  int x = me, y = 0;
  MPI_Request r;
  MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, W, MPI_INFO_NULL, &r);
  long long s = 0;
  for (int round = 0; round < 3; round++) {
    x = me * (round + 1);
    MPI_Start(&r), MWT_COLL();
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    s = s * 100 + y;
  }
  MPI_Request_free(&r);
  mwt_print("allreduce_init", s);
}

static void neighbours(int n, int me) {
  MPI_Comm ring;
  int dims[1] = {n}, periods[1] = {1}, in[2], out[2] = {me, 10 * me};
  MPI_Cart_create(W, 1, dims, periods, 0, &ring);
  MPI_Neighbor_allgather(&me, 1, MPI_INT, in, 1, MPI_INT, ring), MWT_COLL();
  mwt_print("neighbor_allgather", in[0] * 1000 + in[1]);
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring), MWT_COLL();
  mwt_print("neighbor_alltoall", in[0] * 1000 + in[1]);
  int counts[2] = {1, 1}, displs[2] = {0, 1};
  MPI_Aint bdispls[2] = {0, sizeof(int)};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  MPI_Neighbor_alltoallv(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, ring),
      MWT_COLL();
  mwt_print("neighbor_alltoallv", in[0] * 1000 + in[1]);
  MPI_Neighbor_alltoallw(out, counts, bdispls, types, in, counts, bdispls, types, ring),
      MWT_COLL();
  mwt_print("neighbor_alltoallw", in[0] * 1000 + in[1]);
  MPI_Request r;
  MPI_Ineighbor_allgather(&me, 1, MPI_INT, in, 1, MPI_INT, ring, &r), MWT_COLL();
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  mwt_print("ineighbor_allgather", in[0] * 1000 + in[1]);
  /* persistent (MPI 4), started twice each */
  MPI_Request p[2];
  MPI_Neighbor_allgather_init(&me, 1, MPI_INT, in, 1, MPI_INT, ring, MPI_INFO_NULL, &p[0]);
  MPI_Neighbor_alltoallv_init(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, ring,
                              MPI_INFO_NULL, &p[1]);
  long long got = 0;
  for (int round = 0; round < 2; round++)
    for (int k = 0; k < 2; k++) {
      MPI_Start(&p[k]), MWT_COLL();
      MPI_Wait(&p[k], MPI_STATUS_IGNORE);
      got = got * 7 + in[0] * 1000 + in[1];
    }
  MPI_Request_free(&p[0]);
  MPI_Request_free(&p[1]);
  mwt_print("neighbor_init", got);
  MPI_Comm_free(&ring);
}

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_SINGLE);
  blocking(mwt_size, mwt_rank);
  nonblocking(mwt_size, mwt_rank);
  persistent(mwt_rank);
  neighbours(mwt_size, mwt_rank);
  return mwt_finish();
}
