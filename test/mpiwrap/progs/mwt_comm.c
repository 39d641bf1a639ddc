/* mwt_comm.c -- communicator and group management: dup, idup (also in
   opposite orders on different ranks), split, create,
   create_group, Cart (create, shift, sub), Graph, Dist_graph, an
   intercommunicator (create, p2p, rooted and all-to-all collectives,
   merge), group operations, and traffic on each new communicator. */
#include "mwt.h"

/* A ring message on comm with tag; what came from the left. */
static int ring(MPI_Comm comm, int tag, int x) {
  int me, n, got = -1;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int right = (me + 1) % n, left = (me + n - 1) % n;
  MPI_Sendrecv(&x, 1, MPI_INT, right, tag, &got, 1, MPI_INT, left, tag, comm, MPI_STATUS_IGNORE);
  MWT_MSG(right);
  return got;
}

/* Sum over comm of (rank in comm + 1) * weight, and a ring message. */
static long long use(MPI_Comm comm, int weight) {
  int me, sum = 0, x;
  MPI_Comm_rank(comm, &me);
  x = (me + 1) * weight;
  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, comm), MWT_COLL();
  return (long long)sum * 1000 + ring(comm, 5, x);
}

static void intercomm(MPI_Comm half, int color) {
  MPI_Comm inter, merged;
  /* leaders: world rank 0 (even half) and 1 (odd half) */
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? 1 : 0, 77, &inter);
  int me, nremote, x = mwt_rank, got = -1;
  MPI_Comm_rank(inter, &me);
  MPI_Comm_remote_size(inter, &nremote);
  /* rank i of each group exchanges with rank i of the other, if any */
  if (me < nremote) {
    MPI_Sendrecv(&x, 1, MPI_INT, me, 8, &got, 1, MPI_INT, me, 8, inter,
                 MPI_STATUS_IGNORE);
    MWT_MSG(me);
  }
  mwt_print("intercomm sendrecv", got);
  int sum = 0;
  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, inter), MWT_COLL();
  mwt_print("intercomm allreduce", sum);
  /* even group's rank 0 broadcasts to the odd group */
  int root = color == 0 ? (me == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, v = 1234;
  if (color == 1) v = 0;
  MPI_Bcast(&v, 1, MPI_INT, root, inter), MWT_COLL();
  mwt_print("intercomm bcast", v);
  MPI_Intercomm_merge(inter, color, &merged);
  mwt_print("merged", use(merged, 3));
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
}

static void topologies(int n) {
  MPI_Comm cart, row, graph, dist;
  int dims[2] = {0, 0}, periods[2] = {1, 0}, src, dst;
  MPI_Dims_create(n, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Cart_shift(cart, 0, 1, &src, &dst);
  int x = mwt_rank, got = -1;
  MPI_Sendrecv(&x, 1, MPI_INT, dst, 6, &got, 1, MPI_INT, src, 6, cart, MPI_STATUS_IGNORE);
  MWT_MSG(dst);
  mwt_print("cart shift", got);
  int remain[2] = {0, 1};
  MPI_Cart_sub(cart, remain, &row);
  mwt_print("cart sub", use(row, 2));
  /* a ring as a graph */
  int *index = malloc(sizeof *index * (size_t)n), *edges = malloc(sizeof *edges * 2 * (size_t)n);
  for (int i = 0; i < n; i++) {
    index[i] = 2 * (i + 1);
    edges[2 * i] = (i + 1) % n;
    edges[2 * i + 1] = (i + n - 1) % n;
  }
  MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &graph);
  mwt_print("graph", use(graph, 4));
  int right = (mwt_rank + 1) % n, left = (mwt_rank + n - 1) % n;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1,
                                 &right, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist);
  mwt_print("dist graph", use(dist, 5));
  free(index), free(edges);
  MPI_Comm_free(&dist);
  MPI_Comm_free(&graph);
  MPI_Comm_free(&row);
  MPI_Comm_free(&cart);
}

/* Duplicates of a and of b (same members) made by Comm_idup in opposite
   orders on even and odd ranks, legal since their parents differ (MPICH's
   comm/idup_with_info): each is one communicator in the trace, so every
   message on it is matched. */
static void crossed(MPI_Comm a, MPI_Comm b) {
  MPI_Comm from_a, from_b;
  MPI_Request r[2];
  if (mwt_rank % 2 == 0) {
    MPI_Comm_idup(a, &from_a, &r[0]);
    MPI_Comm_idup(b, &from_b, &r[1]);
  } else {
    MPI_Comm_idup(b, &from_b, &r[1]);
    MPI_Comm_idup(a, &from_a, &r[0]);
  }
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  /* a tag of each: a message on a duplicate unified with the other one
     would be unmatched */
  mwt_print("crossed a", use(from_a, 11) + ring(from_a, 11, mwt_rank));
  mwt_print("crossed b", use(from_b, 12) + ring(from_b, 12, mwt_rank));
  MPI_Comm_free(&from_a), MPI_Comm_free(&from_b);
}

int main(int argc, char **argv) {
  mwt_start(&argc, &argv, MPI_THREAD_SINGLE);
  MPI_Comm dup, half, first, firstg;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  mwt_print("dup", use(dup, 1));
  MPI_Comm idup;
  MPI_Request r;
  MPI_Comm_idup(dup, &idup, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  mwt_print("idup", use(idup, 9));
  MPI_Comm_free(&idup);
  MPI_Comm dup2;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup2);
  crossed(dup, dup2);
  MPI_Comm_free(&dup2);
  int color = mwt_rank % 2;
  MPI_Comm_split(MPI_COMM_WORLD, color, mwt_rank, &half);
  mwt_print("split", use(half, 2));

  /* groups: the first half of world, by incl and by range_excl */
  MPI_Group world, low, high, both, common;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int nlow = (mwt_size + 1) / 2, range[1][3] = {{nlow, mwt_size - 1, 1}};
  int *ranks = malloc(sizeof *ranks * (size_t)nlow);
  for (int i = 0; i < nlow; i++) ranks[i] = i;
  MPI_Group_incl(world, nlow, ranks, &low);
  if (nlow < mwt_size)
    MPI_Group_range_excl(world, 1, range, &high);
  else
    MPI_Group_excl(world, 0, NULL, &high);
  MPI_Group_union(low, high, &both);
  MPI_Group_intersection(low, both, &common);
  int sizes[3], cmp;
  MPI_Group_size(both, &sizes[0]);
  MPI_Group_size(common, &sizes[1]);
  MPI_Group_compare(world, high, &cmp);
  sizes[2] = cmp;
  mwt_print("groups", sizes[0] * 10000 + sizes[1] * 100 + sizes[2]);
  MPI_Comm_create(MPI_COMM_WORLD, low, &first);
  MPI_Comm_create_group(MPI_COMM_WORLD, low, 9, &firstg);
  mwt_print("create", first == MPI_COMM_NULL ? -1 : use(first, 7));
  mwt_print("create_group", firstg == MPI_COMM_NULL ? -1 : use(firstg, 8));
  if (first != MPI_COMM_NULL) MPI_Comm_free(&first);
  if (firstg != MPI_COMM_NULL) MPI_Comm_free(&firstg);
  MPI_Group_free(&common), MPI_Group_free(&both), MPI_Group_free(&high);
  MPI_Group_free(&low), MPI_Group_free(&world);
  free(ranks);

  topologies(mwt_size);
  if (mwt_size >= 2) intercomm(half, color);
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
  return mwt_finish();
}
