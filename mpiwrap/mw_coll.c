/* mw_coll.c -- records of collective operations and the bytes they move.

   Bytes are counted from the calling process's side, each block a process
   contributes to or takes from the operation counting once, the process's
   own block included (as Score-P does), so that over all members
   sum(sent) == sum(received):
     Bcast        root sends n*b, every member receives b
     Scatter(v)   root sends every block, every member receives its block
     Gather(v)    every member sends its block, root receives every block
     Reduce       every member sends b, root receives n*b
     All*, Alltoall*, Reduce_scatter*   every block sent and received
     Scan         rank r sends b to the n-r ranks >= r, receives (r+1)*b
     Exscan       rank r sends b to the n-r-1 ranks > r, receives r*b
     neighbours   sends to out-neighbours, receives from in-neighbours
   With MPI_IN_PLACE the process's own block does not move and is left out
   on both sides. On an intercommunicator n is the remote group's size and
   the root side sends (MPI_ROOT) or does nothing (MPI_PROC_NULL). */
#include "mw.h"

/* ------------------------------------------------ instances and records */

/* The placeholder of n blocking collectives on c that were not recorded
   (recording off, docs/TRACE.md): MpiCollectiveEnd outside any MPI
   region, op BARRIER, no bytes, the count in the root field (a count of
   OTF2_UNDEFINED_UINT32 would read as "no root": split). */
static void unrecorded(mw_frame *f, const mw_comm *c, uint64_t n) {
  OTF2_EvtWriter *w;
  f->t = pm_now(); /* before the Enter, which reads the clock again */
  for (uint64_t part; n && (w = mw_writer(f)); n -= part) {
    part = n < OTF2_UNDEFINED_UINT32 - 1 ? n : OTF2_UNDEFINED_UINT32 - 1;
    OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, f->t, OTF2_COLLECTIVE_OP_BARRIER, c->id,
                                    (uint32_t)part, 0, 0);
  }
}

/* The k-th blocking collective of this process on comm is instance k on
   every member, recorded or not; so that a process that paused recording
   still pairs its later instances with the right ones elsewhere, the
   trace accounts for every instance: a record, or a placeholder. The
   program orders the collectives of one comm (concurrent collectives on
   one comm are erroneous, so threads calling them in turn synchronise in
   between): counting needs neither a lock nor a read-modify-write, only
   atomic loads and stores that the program's own ordering publishes. The
   comm objects are never const: mw_comm_of only hands them out so. */
static void count_instance(mw_frame *f, const mw_comm *of) {
  mw_comm *c = (mw_comm *)of;
  if (!c || !mw_live()) return;
  uint64_t k = atomic_load_explicit(&c->instances, memory_order_relaxed);
  atomic_store_explicit(&c->instances, k + 1, memory_order_relaxed);
  if (!f->l) return;
  uint64_t done = atomic_load_explicit(&c->accounted, memory_order_relaxed);
  atomic_store_explicit(&c->accounted, k + 1, memory_order_relaxed);
  if (k > done) unrecorded(f, c, k - done);
}

int mw_begin_coll_on(mw_frame *f, enum mw_fn fn, const mw_comm *c) {
  f->l = pm_location_recording();
  count_instance(f, c);
  if (!mw_enter(f, fn)) return 0;
  OTF2_EvtWriter *w = mw_writer(f);
  if (w) OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, f->t);
  return 1;
}

int mw_begin_coll(mw_frame *f, enum mw_fn fn, MPI_Comm comm) {
  return mw_begin_coll_on(f, fn, mw_comm_of(comm));
}

void mw_coll_end_on(mw_frame *f, const mw_comm *c) {
  OTF2_EvtWriter *w = mw_writer(f);
  if (w)
    OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, f->t, OTF2_COLLECTIVE_OP_BARRIER, mw_comm_ref(c),
                                    OTF2_UNDEFINED_UINT32, 0, 0);
}

static int is_inter(MPI_Comm comm) { return mw_comm_shape(comm).inter; }
static int rank_in(MPI_Comm comm) { return mw_comm_shape(comm).rank; }

uint32_t mw_root(MPI_Comm comm, int root) {
  const mw_comm *c = mw_comm_of(comm);
  if (root == MPI_ROOT && c && c->peer) {
    /* Our own index in the union of the intercomm's groups: the remote
       group comes first exactly when remote rank 0 is at index 0. */
    return (uint32_t)(c->peer[0] == 0 ? c->peers + c->rank : c->rank);
  }
  return root >= 0 ? mw_comm_peer(c, root) : OTF2_UNDEFINED_UINT32;
}

void mw_coll_end(mw_frame *f, OTF2_CollectiveOp op, MPI_Comm comm, int root, mw_xfer x) {
  const mw_comm *c = mw_comm_of(comm);
  OTF2_EvtWriter *w = mw_writer(f);
  if (w)
    OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, f->t, op, mw_comm_ref(c), mw_root(comm, root), x.sent,
                                    x.received);
  else pm_bytes(f->l, x.sent, x.received);
}

/* ------------------------------------------------------------ the bytes */

static mw_xfer xfer(uint64_t sent, uint64_t received) { return (mw_xfer){sent, received}; }

mw_xfer mw_xfer_none(void) { return xfer(0, 0); }

static uint64_t count_at(mw_counts c, int i) {
  MPI_Count n = c.i ? c.i[i] : c.c[i];
  return n > 0 ? (uint64_t)n : 0;
}

static uint64_t sum(mw_counts c, int n, int skip) {
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    if (i != skip) s += count_at(c, i);
  return s;
}

/* Role of this process in a rooted collective. */
enum role { NONE, ROOT, MEMBER };

static enum role role_of(MPI_Comm comm, int root, int *n) {
  *n = mw_comm_peers(comm);
  if (!is_inter(comm)) return rank_in(comm) == root ? ROOT : MEMBER;
  return root == MPI_ROOT ? ROOT : root == MPI_PROC_NULL ? NONE : MEMBER;
}

mw_xfer mw_xfer_bcast(MPI_Comm comm, int root, MPI_Count count, MPI_Datatype t) {
  int n;
  enum role r = role_of(comm, root, &n);
  uint64_t b = mw_type_bytes(count, t);
  int intra = !is_inter(comm);
  if (r == ROOT) return xfer((uint64_t)n * b, intra ? b : 0);
  return xfer(0, r == MEMBER ? b : 0);
}

/* A rooted collective from this process's side: `own` is the block it
   contributes or takes (not moved by the root itself when in place, nor
   on the root side of an intercomm), `at_root` what the root moves in all. */
static mw_xfer rooted(MPI_Comm comm, enum role r, int in_place, uint64_t own, uint64_t at_root,
                      int to_root) {
  uint64_t mine = r == MEMBER || (r == ROOT && !in_place && !is_inter(comm)) ? own : 0;
  uint64_t many = r == ROOT ? at_root : 0;
  return to_root ? xfer(mine, many) : xfer(many, mine);
}

mw_xfer mw_xfer_scatter(MPI_Comm comm, int root, MPI_Count scount, MPI_Datatype st,
                        const void *recvbuf, MPI_Count rcount, MPI_Datatype rt) {
  int n, in_place = recvbuf == MPI_IN_PLACE;
  enum role r = role_of(comm, root, &n);
  return rooted(comm, r, in_place, mw_type_bytes(rcount, rt),
                (uint64_t)(n - in_place) * mw_type_bytes(scount, st), 0);
}

/* The counts array is significant at the root only. */
mw_xfer mw_xfer_scatterv(MPI_Comm comm, int root, mw_counts scounts, MPI_Datatype st,
                         const void *recvbuf, MPI_Count rcount, MPI_Datatype rt) {
  int n, in_place = recvbuf == MPI_IN_PLACE;
  enum role r = role_of(comm, root, &n);
  uint64_t all = r == ROOT ? sum(scounts, n, in_place ? rank_in(comm) : -1) : 0;
  return rooted(comm, r, in_place, mw_type_bytes(rcount, rt), mw_type_bytes((MPI_Count)all, st), 0);
}

mw_xfer mw_xfer_gather(MPI_Comm comm, int root, const void *sendbuf, MPI_Count scount,
                       MPI_Datatype st, MPI_Count rcount, MPI_Datatype rt) {
  int n, in_place = sendbuf == MPI_IN_PLACE;
  enum role r = role_of(comm, root, &n);
  return rooted(comm, r, in_place, mw_type_bytes(scount, st),
                (uint64_t)(n - in_place) * mw_type_bytes(rcount, rt), 1);
}

mw_xfer mw_xfer_gatherv(MPI_Comm comm, int root, const void *sendbuf, MPI_Count scount,
                        MPI_Datatype st, mw_counts rcounts, MPI_Datatype rt) {
  int n, in_place = sendbuf == MPI_IN_PLACE;
  enum role r = role_of(comm, root, &n);
  uint64_t all = r == ROOT ? sum(rcounts, n, in_place ? rank_in(comm) : -1) : 0;
  return rooted(comm, r, in_place, mw_type_bytes(scount, st), mw_type_bytes((MPI_Count)all, rt), 1);
}

mw_xfer mw_xfer_reduce(MPI_Comm comm, int root, const void *sendbuf, MPI_Count count,
                       MPI_Datatype t) {
  return mw_xfer_gather(comm, root, sendbuf, count, t, count, t);
}

/* The all-to-all family: n blocks out and n in, minus the own block when
   it stays in place. */
static mw_xfer all(MPI_Comm comm, const void *sendbuf, uint64_t out_block, uint64_t in_block) {
  int n = mw_comm_peers(comm);
  if (sendbuf == MPI_IN_PLACE)
    return xfer((uint64_t)(n - 1) * in_block, (uint64_t)(n - 1) * in_block);
  return xfer((uint64_t)n * out_block, (uint64_t)n * in_block);
}

mw_xfer mw_xfer_allgather(MPI_Comm comm, const void *sendbuf, MPI_Count scount, MPI_Datatype st,
                          MPI_Count rcount, MPI_Datatype rt) {
  return all(comm, sendbuf, mw_type_bytes(scount, st), mw_type_bytes(rcount, rt));
}

mw_xfer mw_xfer_alltoall(MPI_Comm comm, const void *sendbuf, MPI_Count scount, MPI_Datatype st,
                         MPI_Count rcount, MPI_Datatype rt) {
  return all(comm, sendbuf, mw_type_bytes(scount, st), mw_type_bytes(rcount, rt));
}

mw_xfer mw_xfer_allreduce(MPI_Comm comm, const void *sendbuf, MPI_Count count, MPI_Datatype t) {
  uint64_t b = mw_type_bytes(count, t);
  return all(comm, sendbuf, b, b);
}

mw_xfer mw_xfer_reduce_scatter_block(MPI_Comm comm, const void *sendbuf, MPI_Count rcount,
                                     MPI_Datatype t) {
  uint64_t b = mw_type_bytes(rcount, t);
  return all(comm, sendbuf, b, b);
}

mw_xfer mw_xfer_allgatherv(MPI_Comm comm, const void *sendbuf, MPI_Count scount, MPI_Datatype st,
                           mw_counts rcounts, MPI_Datatype rt) {
  int n = mw_comm_peers(comm);
  if (sendbuf != MPI_IN_PLACE)
    return xfer((uint64_t)n * mw_type_bytes(scount, st),
                mw_type_bytes((MPI_Count)sum(rcounts, n, -1), rt));
  int me = rank_in(comm);
  uint64_t own = mw_type_bytes((MPI_Count)count_at(rcounts, me), rt);
  return xfer((uint64_t)(n - 1) * own, mw_type_bytes((MPI_Count)sum(rcounts, n, me), rt));
}

mw_xfer mw_xfer_alltoallv(MPI_Comm comm, const void *sendbuf, mw_counts scounts, MPI_Datatype st,
                          mw_counts rcounts, MPI_Datatype rt) {
  int n = mw_comm_peers(comm);
  if (sendbuf != MPI_IN_PLACE)
    return xfer(mw_type_bytes((MPI_Count)sum(scounts, n, -1), st),
                mw_type_bytes((MPI_Count)sum(rcounts, n, -1), rt));
  uint64_t b = mw_type_bytes((MPI_Count)sum(rcounts, n, rank_in(comm)), rt);
  return xfer(b, b);
}

/* Sum of counts[i] x size(types[i]) over i < n except skip. */
static uint64_t typed_sum(mw_counts counts, const MPI_Datatype *types, int n, int skip) {
  uint64_t s = 0;
  for (int i = 0; i < n; i++)
    if (i != skip) s += mw_type_bytes((MPI_Count)count_at(counts, i), types[i]);
  return s;
}

mw_xfer mw_xfer_alltoallw(MPI_Comm comm, const void *sendbuf, mw_counts scounts,
                          const MPI_Datatype *sts, mw_counts rcounts, const MPI_Datatype *rts) {
  int n = mw_comm_peers(comm);
  if (sendbuf != MPI_IN_PLACE)
    return xfer(typed_sum(scounts, sts, n, -1), typed_sum(rcounts, rts, n, -1));
  uint64_t b = typed_sum(rcounts, rts, n, rank_in(comm));
  return xfer(b, b);
}

mw_xfer mw_xfer_reduce_scatter(MPI_Comm comm, const void *sendbuf, mw_counts rcounts,
                               MPI_Datatype t) {
  int n = mw_comm_peers(comm);
  int me = rank_in(comm);
  uint64_t own = mw_type_bytes((MPI_Count)count_at(rcounts, me), t);
  if (sendbuf != MPI_IN_PLACE)
    return xfer(mw_type_bytes((MPI_Count)sum(rcounts, n, -1), t), (uint64_t)n * own);
  return xfer(mw_type_bytes((MPI_Count)sum(rcounts, n, me), t), (uint64_t)(n - 1) * own);
}

mw_xfer mw_xfer_scan(MPI_Comm comm, const void *sendbuf, MPI_Count count, MPI_Datatype t,
                     int exclusive) {
  int n = mw_comm_peers(comm);
  int me = rank_in(comm);
  uint64_t b = mw_type_bytes(count, t);
  int self = !exclusive && sendbuf != MPI_IN_PLACE; /* own block counted */
  return xfer((uint64_t)(n - me - 1 + self) * b, (uint64_t)(me + self) * b);
}

/* ------------------------------------------------------- neighbourhoods */

static void degrees(MPI_Comm comm, int *in, int *out) {
  int topo = MPI_UNDEFINED, weighted;
  *in = *out = 0;
  PMPI_Topo_test(comm, &topo);
  if (topo == MPI_CART) {
    int ndims = 0;
    PMPI_Cartdim_get(comm, &ndims);
    *in = *out = 2 * ndims;
  } else if (topo == MPI_GRAPH) {
    PMPI_Graph_neighbors_count(comm, rank_in(comm), in);
    *out = *in;
  } else if (topo == MPI_DIST_GRAPH) {
    PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted);
  }
}

mw_xfer mw_xfer_neighbor(MPI_Comm comm, MPI_Count scount, MPI_Datatype st, MPI_Count rcount,
                         MPI_Datatype rt) {
  int in, out;
  degrees(comm, &in, &out);
  return xfer((uint64_t)out * mw_type_bytes(scount, st), (uint64_t)in * mw_type_bytes(rcount, rt));
}

mw_xfer mw_xfer_neighbor_v(MPI_Comm comm, MPI_Count scount, MPI_Datatype st, mw_counts rcounts,
                           MPI_Datatype rt) {
  int in, out;
  degrees(comm, &in, &out);
  return xfer((uint64_t)out * mw_type_bytes(scount, st),
              mw_type_bytes((MPI_Count)sum(rcounts, in, -1), rt));
}

mw_xfer mw_xfer_neighbor_vv(MPI_Comm comm, mw_counts scounts, MPI_Datatype st, mw_counts rcounts,
                            MPI_Datatype rt) {
  int in, out;
  degrees(comm, &in, &out);
  return xfer(mw_type_bytes((MPI_Count)sum(scounts, out, -1), st),
              mw_type_bytes((MPI_Count)sum(rcounts, in, -1), rt));
}

mw_xfer mw_xfer_neighbor_w(MPI_Comm comm, mw_counts scounts, const MPI_Datatype *sts,
                           mw_counts rcounts, const MPI_Datatype *rts) {
  int in, out;
  degrees(comm, &in, &out);
  return xfer(typed_sum(scounts, sts, out, -1), typed_sum(rcounts, rts, in, -1));
}
