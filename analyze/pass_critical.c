/* pass_critical.c -- the critical path: a backward pass.
 *
 * The critical path is the chain of work without wait states that set
 * the run's length (Böhme et al., IPDPS 2012).  Walking back from the end
 * of the location that finished last, the path stays on one location
 * until that location waited; the wait ended when the location that
 * caused it arrived, and there the path moves to that one:
 *   - MPI barrier and N x N collectives: the member that entered last;
 *     1-to-N (Bcast, Scatter): the root, for a non-root that entered
 *     first; N-to-1 (Reduce, Gather): the non-root that entered last, for
 *     the root;
 *   - Late Sender: the sender, at its send, for a receive (or the wait of
 *     a non-blocking one) entered before it;
 *   - OpenMP barriers: the thread that entered last; the join: the thread
 *     that ended its team membership last; a worker's start (the fork):
 *     the master.
 * Each location's time on the path, per call path, is critical_path.
 *
 * The driver delivers a window's events location by location; the path
 * needs them in time order across locations.  So the handlers only keep
 * a window's events (compact records), and after the window the records
 * of all locations are merged, latest first, and walked: memory holds one
 * window.  At equal times, events that open something backwards (a Leave,
 * the end of a collective, a receive, a join) come before those that
 * close it, so a wait of length 0 is seen as one.
 * pass_critical_impact.c derives the other metrics at the end. */
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_calltree.h"
#include "az_common.h"
#include "az_critical.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_metrics.h"
#include "az_pass.h"
#include "pomp_util.h"

enum { CP_LEAVE, CP_COLL_END, CP_RECV, CP_JOIN, CP_ENTER, CP_SEND, CP_TEAM_END, CP_TEAM_BEGIN };

typedef struct { /* one event, as the walk needs it */
  az_time t;
  uint8_t kind;
  uint32_t v[3]; /* region; op, comm, root; peer, comm, tag */
} cp_rec;

/* How a collective hands the path over. */
enum { COLL_NONE, COLL_NXN, COLL_12N, COLL_N21 };

typedef struct {
  az_cursor cur;
  cp_rec *buf; /* this window's records, latest first */
  size_t n, cap, next;
  /* the walk's state of this location, backwards */
  int32_t *stack;
  size_t depth, capstack;
  int32_t base;     /* a worker in a team: the master's call path at the fork */
  int in_team;      /* between its team end and begin */
  int in_join;      /* master: between its join and its team end */
  uint32_t bar_seq; /* OpenMP barriers met in the team instance */
  int in_bar;       /* inside barrier bar_b, frame bar_depth */
  uint32_t bar_b;
  size_t bar_depth;
  size_t parallel; /* parallel regions open */
  struct {         /* inside an MPI collective: its instance */
    int on, cls, root_me;
    uint32_t comm;
    uint64_t seq;
    size_t depth;
  } coll;
  uint64_t *seq;     /* per communicator: its collectives met so far */
  size_t recv_frame; /* frames open at its last receive (0: none) */
  uint64_t recv_gen; /* receive calls closed so far */
  struct cp_state *st;
} cp_loc;

typedef struct { /* a receive waiting for its send */
  uint32_t loc;
  uint64_t gen;
} cp_recv;

typedef struct cp_channel { /* messages from one rank to another */
  uint32_t src, dst, comm, tag;
  cp_recv *q;
  size_t head, len, cap;
  uint64_t sends_ahead; /* sends met before their receive (clocks) */
  struct cp_channel *next;
} cp_channel;

typedef struct {
  int32_t worker_base; /* the master's call path at its join */
  uint32_t bars_entered;
  int team_ended;
} cp_proc;

struct cp_head { /* a location's next record in the merge */
  az_time t;
  uint32_t opening; /* 1: a kind that opens something backwards */
  uint32_t loc;
};

typedef struct cp_state {
  az_analysis *a;
  cp_loc **locs;        /* by location index; NULL: not replayed here */
  struct cp_head *heap; /* each location's next record, latest first */
  size_t nheap;
  int64_t holder;    /* location holding the path, -1 before the first event */
  az_time path_t;    /* the path reached this time on the holder */
  uint64_t *entered; /* per communicator: instances whose late member came */
  cp_proc *procs;
  cp_channel **channels;
  size_t nchannels;
  unsigned limits;
} cp_state;

/* ---- the handlers: a window's records ---------------------------------- */

static OTF2_CallbackCode keep(void *u, az_time t, uint64_t pos, uint8_t kind, uint32_t v0,
                              uint32_t v1, uint32_t v2) {
  cp_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  cp_rec r = {t, kind, {v0, v1, v2}};
  PU_PUSH(s->buf, s->n, s->cap, r);
  return az_next_back(&s->cur);
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  return keep(u, t, pos, CP_ENTER, r, 0, 0);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  cp_loc *s = u;
  const az_defs *d = &s->cur.a->defs;
  if (r >= d->num_regions || !d->regions[r].defined) { /* the forward pass only warned */
    az_fail(&s->cur.a->diag, "%s: event %llu: Leave of undefined region %u", s->cur.label,
            (unsigned long long)pos, r);
    s->cur.failed = 1;
    return OTF2_CALLBACK_INTERRUPT;
  }
  return keep(u, t, pos, CP_LEAVE, r, 0, 0);
}

static OTF2_CallbackCode on_join(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_Paradigm model) {
  (void)l;
  (void)al;
  (void)model;
  return keep(u, t, pos, CP_JOIN, 0, 0, 0);
}

static OTF2_CallbackCode on_team_begin(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                       OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)l;
  (void)al;
  return keep(u, t, pos, CP_TEAM_BEGIN, team, 0, 0);
}

static OTF2_CallbackCode on_team_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)l;
  (void)al;
  return keep(u, t, pos, CP_TEAM_END, team, 0, 0);
}

static OTF2_CallbackCode on_send(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes) {
  (void)l;
  (void)al;
  (void)bytes;
  return keep(u, t, pos, CP_SEND, peer, comm, tag);
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes, uint64_t req) {
  (void)req;
  return on_send(l, t, pos, u, al, peer, comm, tag, bytes);
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes) {
  (void)l;
  (void)al;
  (void)bytes;
  return keep(u, t, pos, CP_RECV, peer, comm, tag);
}

/* the completion of a non-blocking receive (in MPI_Wait & co.) */
static OTF2_CallbackCode on_irecv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes, uint64_t req) {
  (void)req;
  return on_recv(l, t, pos, u, al, peer, comm, tag, bytes);
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received) {
  (void)l;
  (void)al;
  (void)sent;
  (void)received;
  return keep(u, t, pos, CP_COLL_END, op, comm, root);
}

/* ---- the walk ------------------------------------------------------------ */

static int32_t top(const cp_loc *s) { return s->depth ? s->stack[s->depth - 1] : -1; }

static uint32_t master_of(const cp_state *st, const cp_loc *s) {
  return st->a->defs.procs[s->cur.proc].first_loc;
}

/* The path goes back to time t on its holder: the time since it got there
   is the holder's, on its innermost call path. */
static void advance(cp_state *st, az_time t) {
  if (st->holder < 0 || st->path_t <= t) return; /* the path never goes forward */
  const cp_loc *h = st->locs[st->holder];
  /* times beyond INT64_MAX (a damaged trace) count as INT64_MAX: the path
     only goes back, so its charges add up to INT64_MAX at most */
  az_time from = st->path_t < INT64_MAX ? st->path_t : INT64_MAX;
  az_time to = t < INT64_MAX ? t : INT64_MAX;
  if (h->depth && from > to)
    az_charge(st->a, h->cur.loc, top(h), AZ_CRITICAL_PATH, (int64_t)(from - to));
  st->path_t = t;
}

/* The wait of the holder ended at t, when location `to` arrived. */
static void move_to(cp_state *st, uint32_t to, az_time t) {
  advance(st, t);
  st->holder = to;
}

static void limit(cp_state *st, unsigned bit) { st->limits |= bit; }

static void walk_leave(cp_state *st, cp_loc *s, uint32_t region) {
  const az_region *reg = &st->a->defs.regions[region];
  int32_t parent = s->depth ? top(s) : s->in_team ? s->base : -1;
  int32_t cnode = az_calltree_child(&st->a->tree, parent, (int32_t)region);
  PU_PUSH(s->stack, s->depth, s->capstack, cnode);
  if (reg->kind == AZ_RK_PARALLEL) {
    if (s->parallel++ || (!s->in_team && s->cur.loc != master_of(st, s)))
      limit(st, AZ_LIMIT_NESTED);
  }
  if (reg->role == OTF2_REGION_ROLE_TASK || reg->role == OTF2_REGION_ROLE_TASK_CREATE ||
      reg->role == OTF2_REGION_ROLE_TASK_UNTIED)
    limit(st, AZ_LIMIT_TASKS);
  if (reg->paradigm == OTF2_PARADIGM_MPI && s->cur.loc != master_of(st, s))
    limit(st, AZ_LIMIT_MPI_THREADS);
  if ((reg->kind == AZ_RK_EBARRIER || reg->kind == AZ_RK_IBARRIER) && s->in_team &&
      s->parallel == 1) {
    s->in_bar = 1;
    s->bar_b = s->bar_seq++;
    s->bar_depth = s->depth;
  }
}

/* An OpenMP barrier's first enter met backwards is the thread that came
   last: a holder waiting in that barrier moves to it. */
static void barrier_arrival(cp_state *st, cp_loc *s, az_time t) {
  cp_proc *p = &st->procs[s->cur.proc];
  uint32_t b = s->bar_b;
  s->in_bar = 0;
  if (b < p->bars_entered) return;
  p->bars_entered = b + 1;
  if (st->holder < 0 || (uint32_t)st->holder == s->cur.loc) return;
  const cp_loc *h = st->locs[st->holder];
  if (h->cur.proc == s->cur.proc && h->in_bar && h->bar_b == b) move_to(st, s->cur.loc, t);
}

/* The first enter met backwards that the others of the instance waited
   for: the last member (barrier, N x N), the root (1-to-N), the last
   non-root (N-to-1, only the root waits). */
static void coll_arrival(cp_state *st, cp_loc *s, az_time t) {
  int cls = s->coll.cls;
  s->coll.on = 0;
  if (cls == COLL_12N && !s->coll.root_me) return;
  if (cls == COLL_N21 && s->coll.root_me) return;
  uint32_t comm = s->coll.comm;
  if (s->coll.seq < st->entered[comm]) return;
  st->entered[comm] = s->coll.seq + 1;
  if (st->holder < 0 || (uint32_t)st->holder == s->cur.loc) return;
  const cp_loc *h = st->locs[st->holder];
  if (h->coll.on && h->coll.comm == comm && h->coll.seq == s->coll.seq &&
      (cls != COLL_N21 || h->coll.root_me))
    move_to(st, s->cur.loc, t);
}

static void walk_enter(cp_state *st, cp_loc *s, az_time t) {
  if (!s->depth) return; /* the forward pass warned */
  if (s->in_bar && s->depth == s->bar_depth) barrier_arrival(st, s, t);
  int32_t region = st->a->tree.nodes[s->stack[--s->depth]].region;
  if (st->a->defs.regions[region].kind == AZ_RK_PARALLEL && s->parallel) s->parallel--;
  if (s->coll.on && s->depth == s->coll.depth) coll_arrival(st, s, t);
  if (s->recv_frame && s->depth < s->recv_frame) { /* its receive call began */
    s->recv_gen++;
    s->recv_frame = 0;
  }
}

static int coll_class(OTF2_CollectiveOp op) {
  switch (op) {
  case OTF2_COLLECTIVE_OP_BARRIER:
  case OTF2_COLLECTIVE_OP_ALLREDUCE:
  case OTF2_COLLECTIVE_OP_ALLGATHER:
  case OTF2_COLLECTIVE_OP_ALLGATHERV:
  case OTF2_COLLECTIVE_OP_ALLTOALL:
  case OTF2_COLLECTIVE_OP_ALLTOALLV:
  case OTF2_COLLECTIVE_OP_ALLTOALLW:
  case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
  case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: return COLL_NXN;
  case OTF2_COLLECTIVE_OP_BCAST:
  case OTF2_COLLECTIVE_OP_SCATTER:
  case OTF2_COLLECTIVE_OP_SCATTERV: return COLL_12N;
  case OTF2_COLLECTIVE_OP_REDUCE:
  case OTF2_COLLECTIVE_OP_GATHER:
  case OTF2_COLLECTIVE_OP_GATHERV: return COLL_N21;
  default: return COLL_NONE;
  }
}

static void walk_coll_end(cp_state *st, cp_loc *s, const cp_rec *r) {
  const az_defs *d = &st->a->defs;
  uint32_t op = r->v[0], comm = r->v[1], root = r->v[2];
  if (comm >= d->num_comms || !s->depth) return; /* warned */
  const az_region *reg = &d->regions[st->a->tree.nodes[top(s)].region];
  if (reg->paradigm != OTF2_PARADIGM_MPI) { /* collectives not recorded (pass_waits) */
    s->seq[comm] += root;
    return;
  }
  uint64_t seq = s->seq[comm]++;
  int cls = coll_class((OTF2_CollectiveOp)op);
  if (d->comms[comm].self || cls == COLL_NONE) return;
  s->coll.on = 1;
  s->coll.cls = cls;
  s->coll.comm = comm;
  s->coll.seq = seq;
  s->coll.depth = s->depth - 1;
  s->coll.root_me = cls != COLL_NXN && az_comm_world(d, comm, root, s->cur.proc) == s->cur.proc;
}

static cp_channel *channel(cp_state *st, uint32_t src, uint32_t dst, uint32_t comm, uint32_t tag) {
  size_t h = ((size_t)src * 2654435761u ^ (size_t)dst * 40503u ^ comm * 97u ^ tag) % st->nchannels;
  for (cp_channel *c = st->channels[h]; c; c = c->next)
    if (c->src == src && c->dst == dst && c->comm == comm && c->tag == tag) return c;
  cp_channel *c = pu_calloc(1, sizeof *c);
  *c = (cp_channel){src, dst, comm, tag, NULL, 0, 0, 0, 0, st->channels[h]};
  st->channels[h] = c;
  return c;
}

/* Backwards a receive comes before its send: receives wait in their
   channel, in the order met; a send takes the first (messages between two
   ranks on one communicator and tag do not overtake). */
static void walk_recv(cp_state *st, cp_loc *s, const cp_rec *r) {
  uint32_t src = az_comm_world(&st->a->defs, r->v[1], r->v[0], s->cur.proc);
  if (src == UINT32_MAX) return; /* the forward pass warned */
  cp_channel *c = channel(st, src, s->cur.proc, r->v[1], r->v[2]);
  if (s->cur.loc != master_of(st, s)) limit(st, AZ_LIMIT_MPI_THREADS);
  if (!s->recv_frame) s->recv_frame = s->depth;
  if (c->sends_ahead) {
    c->sends_ahead--;
    return;
  }
  if (c->head + c->len == c->cap && c->head) {
    memmove(c->q, c->q + c->head, c->len * sizeof *c->q);
    c->head = 0;
  }
  size_t end = c->head + c->len;
  cp_recv q = {s->cur.loc, s->recv_gen};
  PU_PUSH(c->q, end, c->cap, q);
  c->len++;
}

/* A Late Sender: the receiver holding the path is still in the receive
   call (entered before this send): the path moves to the sender. */
static void walk_send(cp_state *st, cp_loc *s, const cp_rec *r, az_time t) {
  uint32_t dst = az_comm_world(&st->a->defs, r->v[1], r->v[0], s->cur.proc);
  if (dst == UINT32_MAX) return;
  cp_channel *c = channel(st, s->cur.proc, dst, r->v[1], r->v[2]);
  if (!c->len) {
    c->sends_ahead++;
    return;
  }
  cp_recv q = c->q[c->head++];
  if (!--c->len) c->head = 0;
  if (st->holder == (int64_t)q.loc && st->locs[q.loc]->recv_gen == q.gen &&
      st->locs[q.loc]->recv_frame)
    move_to(st, s->cur.loc, t);
}

/* The master's join: the last thread to end its part of the team made it
   wait. */
static void walk_join(cp_state *st, cp_loc *s) {
  cp_proc *p = &st->procs[s->cur.proc];
  p->worker_base = top(s);
  p->bars_entered = 0;
  p->team_ended = 0;
  s->in_join = 1;
}

static void walk_team_end(cp_state *st, cp_loc *s, az_time t) {
  cp_proc *p = &st->procs[s->cur.proc];
  uint32_t master = master_of(st, s);
  if (s->in_team) limit(st, AZ_LIMIT_NESTED);
  s->in_team = 1;
  s->bar_seq = 0;
  s->base = p->worker_base;
  if (!p->team_ended) {
    p->team_ended = 1;
    if (st->holder == (int64_t)master && st->locs[master]->in_join && s->cur.loc != master)
      move_to(st, s->cur.loc, t);
  }
  if (s->cur.loc == master) s->in_join = 0;
}

/* A worker's start: the master forked it. */
static void walk_team_begin(cp_state *st, cp_loc *s, az_time t) {
  uint32_t master = master_of(st, s);
  s->in_team = 0;
  if (s->cur.loc != master && st->holder == (int64_t)s->cur.loc && st->locs[master])
    move_to(st, master, t);
}

static void walk(cp_state *st, cp_loc *s, const cp_rec *r) {
  if (st->holder < 0) { /* the latest event of the run: the path starts */
    st->holder = s->cur.loc;
    st->path_t = r->t;
  }
  if (st->holder == (int64_t)s->cur.loc) advance(st, r->t);
  switch (r->kind) {
  case CP_LEAVE: walk_leave(st, s, r->v[0]); break;
  case CP_ENTER: walk_enter(st, s, r->t); break;
  case CP_COLL_END: walk_coll_end(st, s, r); break;
  case CP_RECV: walk_recv(st, s, r); break;
  case CP_SEND: walk_send(st, s, r, r->t); break;
  case CP_JOIN: walk_join(st, s); break;
  case CP_TEAM_END: walk_team_end(st, s, r->t); break;
  default: walk_team_begin(st, s, r->t); break;
  }
}

/* ---- the merge of a window's records, latest first ----------------------- */

static struct cp_head head_of(const cp_loc *s) {
  const cp_rec *r = &s->buf[s->next];
  return (struct cp_head){r->t, r->kind < CP_ENTER, s->cur.loc};
}

/* 1 when record x comes before record y: latest first, at equal times
   the opening kinds, then the lower location. */
static int before(const struct cp_head *x, const struct cp_head *y) {
  if (x->t != y->t) return x->t > y->t;
  if (x->opening != y->opening) return x->opening > y->opening;
  return x->loc < y->loc;
}

static void sift_down(cp_state *st, size_t i) {
  struct cp_head *h = st->heap;
  for (;;) {
    size_t l = 2 * i + 1, m = i;
    if (l < st->nheap && before(&h[l], &h[m])) m = l;
    if (l + 1 < st->nheap && before(&h[l + 1], &h[m])) m = l + 1;
    if (m == i) return;
    struct cp_head tmp = h[i];
    h[i] = h[m];
    h[m] = tmp;
    i = m;
  }
}

/* Merges the kept records later than `bound` (all with bound 0 and
   every location done), latest first; the rest stays kept. */
static void merge_after(cp_state *st, az_time bound, int all) {
  const az_defs *d = &st->a->defs;
  st->nheap = 0;
  for (uint32_t l = 0; l < d->num_locs; l++)
    if (st->locs[l] && st->locs[l]->next < st->locs[l]->n)
      st->heap[st->nheap++] = head_of(st->locs[l]);
  for (size_t i = st->nheap; i-- > 0;) sift_down(st, i);
  while (st->nheap && (all || st->heap[0].t > bound)) {
    cp_loc *s = st->locs[st->heap[0].loc];
    /* the location's records go on while they come before every other
       location's next one */
    const struct cp_head *other = st->nheap < 2 ? NULL : &st->heap[1];
    if (st->nheap > 2 && before(&st->heap[2], other)) other = &st->heap[2];
    struct cp_head next;
    do {
      walk(st, s, &s->buf[s->next++]);
      if (s->next == s->n) break;
      next = head_of(s);
    } while ((all || next.t > bound) && (!other || before(&next, other)));
    if (s->next == s->n) st->heap[0] = st->heap[--st->nheap];
    else st->heap[0] = next;
    sift_down(st, 0);
  }
  for (uint32_t l = 0; l < d->num_locs; l++) {
    cp_loc *s = st->locs[l];
    if (!s || !s->next) continue;
    memmove(s->buf, s->buf + s->next, (s->n - s->next) * sizeof *s->buf);
    s->n -= s->next;
    s->next = 0;
  }
}

/* After a window: a location's later records are no later than the last
   one it delivered, but a window's first record of a location may be
   later than records of others in the window before (the forward window
   it comes from ended with the first event at or after its end).  So
   only what is later than every location still reading is merged. */
static void merge_window(cp_state *st) {
  const az_defs *d = &st->a->defs;
  az_time bound = 0;
  for (uint32_t l = 0; l < d->num_locs; l++) {
    const cp_loc *s = st->locs[l];
    if (s && !s->cur.done && s->cur.last > bound) bound = s->cur.last;
  }
  merge_after(st, bound, 0);
}

/* ---- the pass ------------------------------------------------------------ */

static void critical_begin(az_replay *r) {
  const az_defs *d = &r->a->defs;
  cp_state *st = pu_calloc(1, sizeof *st);
  st->a = r->a;
  st->holder = -1;
  st->locs = pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *st->locs);
  st->heap = pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *st->heap);
  st->entered = pu_calloc(d->num_comms ? d->num_comms : 1, sizeof *st->entered);
  st->procs = pu_calloc(d->num_procs ? d->num_procs : 1, sizeof *st->procs);
  for (size_t p = 0; p < d->num_procs; p++) st->procs[p].worker_base = -1;
  st->nchannels = 1024;
  st->channels = pu_calloc(st->nchannels, sizeof *st->channels);
  r->data = st;
  for (uint32_t l = 0; l < d->num_locs; l++) {
    cp_loc *s = (cp_loc *)az_replay_loc(r, l);
    if (!s->cur.a) continue;
    s->st = st;
    s->base = -1;
    s->seq = pu_calloc(d->num_comms ? d->num_comms : 1, sizeof *s->seq);
    st->locs[l] = s;
  }
}

static void critical_window(az_replay *r, az_time stop) {
  (void)stop;
  merge_window(r->data);
}

void az_critical_derive(az_analysis *a, unsigned limits) {
  az_critical_impact(a);
  if (limits) az_critical_limits(a, limits);
}

/* The rest of the walk; frees its state.  Returns the model's limits it
   met (AZ_LIMIT_* bits). */
static unsigned walk_end(az_replay *r, int ok) {
  cp_state *st = r->data;
  if (ok) merge_after(st, 0, 1);
  unsigned limits = st->limits;
  for (uint32_t l = 0; l < r->a->defs.num_locs; l++) {
    cp_loc *s = st->locs[l];
    if (!s) continue;
    free(s->buf);
    free(s->stack);
    free(s->seq);
  }
  for (size_t h = 0; h < st->nchannels; h++)
    for (cp_channel *c = st->channels[h], *next; c; c = next) {
      next = c->next;
      free(c->q);
      free(c);
    }
  free(st->channels);
  free(st->procs);
  free(st->entered);
  free(st->heap);
  free(st->locs);
  free(st);
  return limits;
}

static void critical_end(az_replay *r, int ok) {
  unsigned limits = walk_end(r, ok);
  if (ok) az_critical_derive(r->a, limits);
}

static void critical_walk_end(az_replay *r, int ok) {
  unsigned limits = walk_end(r, ok);
  if (ok) r->a->model_limits = limits;
}

/* The events the walk needs. */
#define CP_HANDLERS                                                                                \
  {                                                                                                \
    .enter = on_enter, .leave = on_leave, .thread_join = on_join, .team_begin = on_team_begin,     \
    .team_end = on_team_end, .mpi_send = on_send, .mpi_isend = on_isend, .mpi_recv = on_recv,      \
    .mpi_irecv = on_irecv, .mpi_collective_end = on_coll_end                                       \
  }

/* The pass, with what it does at its end. */
#define CP_PASS(end_fn)                                                                            \
  {                                                                                                \
    .name = "critical", .direction = AZ_BACKWARD, .loc_size = sizeof(cp_loc), .on = CP_HANDLERS,   \
    .begin = critical_begin, .window = critical_window, .end = end_fn                              \
  }

const az_pass az_pass_critical = CP_PASS(critical_end);
const az_pass az_pass_critical_walk = CP_PASS(critical_walk_end);
