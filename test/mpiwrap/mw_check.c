/*
 * mw_check.c -- reads a libpomp-mpi trace back and checks its MPI records.
 *
 *   mw_check [--expect FILE] [--ranks N] [--locations N] [--tag-is-thread]
 *            [--clock-offsets] [--complete-on-issuer] [--flushes] [--dump FILE] ARCHIVE
 *
 * - every message sent (MpiSend/MpiIsend) has exactly one receive
 *   (MpiRecv/MpiIrecv) with the same communicator, source, destination and
 *   tag, matched in order, with the same length;
 * - every MpiIsend/MpiIrecvRequest/NonBlockingCollectiveRequest is
 *   completed exactly once on its process (or cancelled);
 * - every collective instance (the k-th blocking, or the k-th non-blocking,
 *   collective of each member on a communicator) has one record per member
 *   of the communicator, the same operation and root everywhere, and as
 *   many bytes sent as received; a placeholder of instances not recorded
 *   (MpiCollectiveEnd outside MpiCollectiveBegin, docs/TRACE.md) stands
 *   for its count of the member's instances, which are not compared;
 * - --ranks N: the trace has events of exactly ranks 0..N-1;
 * - --locations N: every rank has exactly N locations (threads);
 * - --tag-is-thread: every point-to-point record with tag t is on thread t;
 * - --complete-on-issuer: every request completes on the location (thread)
 *   that issued it (for programs that never complete another thread's
 *   request: MPICH hands one handle to several such requests at once);
 * - --clock-offsets: every location has two ClockOffsets (MPI_Init and
 *   MPI_Finalize), those of rank 0 being 0;
 * - always: timestamps never decrease on a location, and every MPI record
 *   (but a placeholder) lies inside an MPI region's Enter/Leave;
 *   MpiIsend and MpiIrecvRequest carry their call's Enter time (unless a
 *   buffer flush came between); no rank leaves MPI_Finalize before every
 *   rank entered it; Score-P's conventions: location ids thread << 32 |
 *   rank, MPI regions in source file "MPI" (docs/TRACE.md);
 * - always, one-sided communication: every RmaPut/RmaGet/RmaAtomic is
 *   completed (RmaOpCompleteBlocking of its matching id) on its location,
 *   every RmaRequestLock is followed by its RmaAcquireLock and released
 *   (RmaReleaseLock), every RmaCollectiveBegin has its RmaCollectiveEnd,
 *   every window created (RmaWinCreate) is destroyed, and every member of
 *   a window has as many fences (creates, frees) as the others;
 * - --flushes: some buffer flush (region "TRACE BUFFER FLUSH") was written
 *   inside an MPI call, between records that share a timestamp (mpiwrap's
 *   shared clock reads, measure's pm_evt_writer_at);
 * - --dump FILE: writes every location's Enter/Leave and MPI records as
 *   text (no timestamps; the MPI dump form of test/otf2read's
 *   trace_reader.h), location by location, for golden-file tests;
 * - --expect FILE: "messages N" / "collectives N" / "unrecorded N" (written
 *   by the test program itself; unrecorded 0 if absent) equal the matched
 *   messages, collective records and instances of placeholders; "comms N"
 *   and "mpi_groups N" (where the program says them) equal the MPI
 *   communicators and the MPI member groups (COMM_GROUP, COMM_SELF)
 *   defined: the unification gave one id to the same comm on every rank,
 *   and comms with the same members share one group; "call:MPI_X N"
 *   lines: region MPI_X is entered N times over all locations.
 * Prints "messages N", "collectives N" (records) and "unrecorded N"
 * (instances of placeholders); exit 0 ok, 1 failed check,
 * 2 usage. Ranks and threads come from the location ids, which must
 * have Score-P's layout (thread << 32 | rank, docs/TRACE.md). The trace is read with
 * trace_reader.h; its records are then replayed in the global reader's
 * order through the checks.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "trace_reader.h"

typedef struct message { /* one send or one receive */
  uint32_t comm, src, dst, tag;
  uint64_t seq, bytes;
} message;

typedef struct coll { /* one member's record of one collective */
  uint32_t comm, rank, op, root;
  uint64_t seq, sent, received;
  int done;       /* non-blocking: completion seen */
  int nbc;        /* non-blocking: its own sequence of instances */
  int unrecorded; /* stands in for an instance not recorded */
} coll;

typedef struct pending { /* an open request */
  uint64_t loc, id;
  int kind;    /* 0 isend, 1 irecv, 2 collective */
  size_t coll; /* index in colls for kind 2 */
} pending;

typedef struct loc_order { /* one location's records so far */
  uint64_t last;           /* latest timestamp */
  uint32_t mpi_depth;      /* MPI regions entered and not left */
  uint64_t flushes, flushes_in_mpi;
  uint64_t mpi_enter; /* time of the Enter of the MPI call it is in */
  int flushed;        /* a buffer flush inside that call */
} loc_order;

typedef struct rma_item { /* an open RMA operation or lock, or a count */
  uint64_t loc;
  uint32_t win, target; /* target: the lock's; op: the collective op */
  uint64_t id;          /* an operation's matching id; a count */
  int state;            /* lock: 1 requested, 2 acquired */
} rma_item;

typedef struct check {
  const tr_trace *t; /* definitions and records (trace_reader.h) */
  message *sends, *recvs;
  size_t nsends, cap_sends, nrecvs, cap_recvs;
  coll *colls;
  size_t ncolls, cap_colls, nunrecorded;
  pending *open;
  size_t nopen, cap_open;
  uint64_t seq;
  int tag_is_thread, clock_offsets, complete_on_issuer, flushes;
  loc_order *order;                          /* by index in t->locs */
  rma_item *rma_ops, *rma_locks, *rma_colls; /* open operations, locks; counts */
  size_t nrma_ops, cap_rma_ops, nrma_locks, cap_rma_locks, nrma_colls, cap_rma_colls;
  long long rma_open_colls, rma_windows;    /* RMA collectives, windows open */
  uint64_t seen_ranks[64];                  /* bit set of ranks with events (< 4096) */
  uint64_t finalize_entered, finalize_left; /* latest Enter, earliest Leave */
  int errors;
} check;

static void fail(check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(check *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (c->errors++ < 20) {
    fprintf(stderr, "%s: ", pu_progname());
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
  }
  va_end(ap);
}

static uint32_t rank_of(uint64_t loc) { return (uint32_t)loc; }
static uint32_t thread_of(uint64_t loc) { return (uint32_t)(loc >> 32); }

/* The group of comm's members, or NULL if comm or its group is undefined. */
static const tr_group *comm_group(const check *c, uint32_t comm) {
  const tr_trace *t = c->t;
  if (comm >= t->ncomms || t->comms[comm].group >= t->ngroups) return NULL;
  return &t->groups[t->comms[comm].group];
}

/* World rank of member `index` of comm, for a record on location loc. */
static uint32_t world_rank(check *c, uint64_t loc, uint32_t comm, uint32_t index) {
  const tr_group *g = comm_group(c, comm);
  if (!g) {
    fail(c, "location %llu: communicator %u is not defined", (unsigned long long)loc, comm);
    return UINT32_MAX;
  }
  if (g->type == OTF2_GROUP_TYPE_COMM_SELF) return rank_of(loc);
  if (index >= g->n) {
    fail(c, "location %llu: rank %u outside communicator %u of %u members", (unsigned long long)loc,
         index, comm, g->n);
    return UINT32_MAX;
  }
  return (uint32_t)g->members[index];
}

/* Rank 0's clock is the reference: its offsets are all 0. */
static void check_rank0_offsets(check *c) {
  for (size_t i = 0; i < c->t->nlocs; i++) {
    const tr_location *l = &c->t->locs[i];
    for (size_t k = 0; k < l->noffsets && rank_of(l->id) == 0; k++)
      if (l->offsets[k].offset != 0)
        fail(c, "location %llu: rank 0 has clock offset %lld", (unsigned long long)l->id,
             (long long)l->offsets[k].offset);
  }
}

/* ------------------------------------------- timestamps and nesting */

/* The order state of e's location, after checking that e does not go back. */
static loc_order *ordered(check *c, const tr_event *e) {
  loc_order *o = &c->order[e->loc];
  if (e->time < o->last)
    fail(c, "location %llu: timestamp %llu after %llu", (unsigned long long)c->t->locs[e->loc].id,
         (unsigned long long)e->time, (unsigned long long)o->last);
  else o->last = e->time;
  return o;
}

/* An MPI record: in order, and inside an MPI call. */
static void in_call(check *c, const tr_event *e) {
  if (!ordered(c, e)->mpi_depth)
    fail(c, "location %llu: %s outside any MPI region", (unsigned long long)c->t->locs[e->loc].id,
         tr_kind_name(e->kind));
}

/* A record written before the PMPI call (MpiIsend, MpiIrecvRequest):
   stamped with its call's Enter, unless a buffer flush came between. */
static void at_enter(check *c, const tr_event *e) {
  const loc_order *o = &c->order[e->loc];
  if (o->mpi_depth && !o->flushed && e->time != o->mpi_enter)
    fail(c, "location %llu: %s at %llu, its call entered at %llu",
         (unsigned long long)c->t->locs[e->loc].id, tr_kind_name(e->kind),
         (unsigned long long)e->time, (unsigned long long)o->mpi_enter);
}

/* Score-P's conventions that Scalasca relies on (docs/TRACE.md): location
   ids thread << 32 | rank, MPI regions in source file "MPI", locations
   named "Master thread" / "OMP thread T". */
static void scorep_conventions(check *c) {
  const tr_trace *t = c->t;
  if (t->id_layout == TR_IDS_RANK_MAJOR || t->id_layout == TR_IDS_OTHER)
    fail(c, "location ids are not Score-P's thread << 32 | rank");
  for (size_t i = 0; i < t->nregions; i++)
    if (t->regions[i].paradigm == OTF2_PARADIGM_MPI && strcmp(t->regions[i].file, "MPI"))
      fail(c, "MPI region %s: source file '%s', not 'MPI'", t->regions[i].name, t->regions[i].file);
  for (size_t i = 0; i < t->nlocs; i++) { /* Score-P's names, by the thread of the id */
    char want[32];
    if (thread_of(t->locs[i].id))
      snprintf(want, sizeof want, "OMP thread %u", thread_of(t->locs[i].id));
    else snprintf(want, sizeof want, "Master thread");
    if (strcmp(t->locs[i].name, want))
      fail(c, "location %llu: named '%s', not '%s'", (unsigned long long)t->locs[i].id,
           t->locs[i].name, want);
  }
}

/* Enter (+1) or Leave (-1) of e's region. */
static void nest(check *c, const tr_event *e, int step) {
  loc_order *o = ordered(c, e);
  if (e->region >= c->t->nregions) return;
  int paradigm = c->t->regions[e->region].paradigm;
  if (paradigm == OTF2_PARADIGM_MEASUREMENT_SYSTEM && step > 0) { /* a buffer flush */
    o->flushes++;
    o->flushes_in_mpi += o->mpi_depth > 0;
    o->flushed |= o->mpi_depth > 0;
  }
  if (paradigm != OTF2_PARADIGM_MPI) return;
  if (step > 0 && !o->mpi_depth) o->mpi_enter = e->time, o->flushed = 0;
  if (!strcmp(c->t->regions[e->region].name, "MPI_Finalize")) {
    if (step > 0 && e->time > c->finalize_entered) c->finalize_entered = e->time;
    if (step < 0 && e->time < c->finalize_left) c->finalize_left = e->time;
  }
  if (step < 0 && !o->mpi_depth)
    fail(c, "location %llu: Leave of an MPI region not entered",
         (unsigned long long)c->t->locs[e->loc].id);
  else o->mpi_depth += (uint32_t)step;
}

/* ----------------------------------------------------------------- records */

static void seen(check *c, uint64_t loc) {
  uint32_t r = rank_of(loc);
  if (r < 4096) c->seen_ranks[r / 64] |= UINT64_C(1) << (r % 64);
}

/* e's half of a message (MpiSend/MpiIsend, MpiRecv/MpiIrecv). */
static void p2p(check *c, uint64_t loc, const tr_event *e) {
  int is_send = e->kind == TR_MPI_SEND || e->kind == TR_MPI_ISEND;
  seen(c, loc);
  if (c->tag_is_thread && e->tag != thread_of(loc))
    fail(c, "location %llu: message with tag %u recorded on thread %u", (unsigned long long)loc,
         e->tag, thread_of(loc));
  uint32_t me = rank_of(loc), other = world_rank(c, loc, e->comm, e->peer);
  message m = {e->comm, is_send ? me : other, is_send ? other : me, e->tag, c->seq++, e->bytes};
  if (is_send) PU_PUSH(c->sends, c->nsends, c->cap_sends, m);
  else PU_PUSH(c->recvs, c->nrecvs, c->cap_recvs, m);
}

static void open_request(check *c, uint64_t loc, uint64_t id, int kind, size_t coll) {
  seen(c, loc);
  for (size_t i = 0; i < c->nopen; i++)
    if (rank_of(c->open[i].loc) == rank_of(loc) && c->open[i].id == id)
      fail(c, "location %llu: request %llu opened twice", (unsigned long long)loc,
           (unsigned long long)id);
  PU_PUSH(c->open, c->nopen, c->cap_open, ((pending){loc, id, kind, coll}));
}

/* Removes the open request id of loc's process into *out; 0 if none. */
static int close_request(check *c, uint64_t loc, uint64_t id, int kind, pending *out) {
  for (size_t i = 0; i < c->nopen; i++)
    if (rank_of(c->open[i].loc) == rank_of(loc) && c->open[i].id == id &&
        (kind < 0 || c->open[i].kind == kind)) {
      *out = c->open[i];
      c->open[i] = c->open[--c->nopen];
      if (c->complete_on_issuer && out->loc != loc)
        fail(c, "location %llu: completes request %llu issued on location %llu",
             (unsigned long long)loc, (unsigned long long)id, (unsigned long long)out->loc);
      return 1;
    }
  fail(c, "location %llu: completion of request %llu that is not open", (unsigned long long)loc,
       (unsigned long long)id);
  return 0;
}

/* A MpiCollectiveEnd: one member's record, or a placeholder standing for
   `root` instances not recorded. */
static void collective_end(check *c, uint64_t loc, const tr_event *e) {
  seen(c, loc);
  if (e->placeholder) {
    ordered(c, e);
    for (uint32_t i = 0; i < e->root; i++) {
      coll k = {e->comm, rank_of(loc), e->op, e->root, c->seq++, 0, 0, 1, 0, 1};
      PU_PUSH(c->colls, c->ncolls, c->cap_colls, k);
    }
    c->nunrecorded += e->root;
    return;
  }
  in_call(c, e);
  coll k = {e->comm, rank_of(loc), e->op, e->root, c->seq++, e->bytes, e->received, 1, 0, 0};
  PU_PUSH(c->colls, c->ncolls, c->cap_colls, k);
}

/* The item of (loc, win, target) in v (target UINT32_MAX: any), or NULL. */
static rma_item *rma_find(rma_item *v, size_t n, uint64_t loc, uint32_t win, uint32_t target,
                          uint64_t id) {
  for (size_t i = 0; i < n; i++)
    if (v[i].loc == loc && v[i].win == win && v[i].target == target && v[i].id == id) return &v[i];
  return NULL;
}

static void rma_lock(check *c, uint64_t loc, const tr_event *e) {
  rma_item *it = rma_find(c->rma_locks, c->nrma_locks, loc, e->comm, e->peer, 0);
  if (e->kind == TR_RMA_REQUEST_LOCK) {
    if (it && it->state)
      fail(c, "location %llu: lock of %u requested twice", (unsigned long long)loc, e->peer);
    if (!it) {
      rma_item k = {loc, e->comm, e->peer, 0, 0};
      PU_PUSH(c->rma_locks, c->nrma_locks, c->cap_rma_locks, k);
      it = &c->rma_locks[c->nrma_locks - 1];
    }
    it->state = 1;
  } else if (e->kind == TR_RMA_ACQUIRE_LOCK) {
    if (!it || it->state != 1)
      fail(c, "location %llu: lock of %u acquired, not requested", (unsigned long long)loc,
           e->peer);
    else it->state = 2;
  } else if (!it || it->state != 2) {
    fail(c, "location %llu: lock of %u released, not held", (unsigned long long)loc, e->peer);
  } else it->state = 0;
}

static void rma_count_coll(check *c, uint64_t loc, const tr_event *e) {
  c->rma_open_colls--;
  if (e->op == OTF2_COLLECTIVE_OP_CREATE_HANDLE) c->rma_windows++;
  if (e->op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE) c->rma_windows--;
  rma_item *it = rma_find(c->rma_colls, c->nrma_colls, rank_of(loc), e->comm, e->op, 0);
  if (!it) {
    rma_item k = {rank_of(loc), e->comm, e->op, 0, 0};
    PU_PUSH(c->rma_colls, c->nrma_colls, c->cap_rma_colls, k);
    it = &c->rma_colls[c->nrma_colls - 1];
  }
  it->state++;
}

/* One-sided records: in an MPI call, and balanced (checked at the end). */
static void rma(check *c, uint64_t loc, const tr_event *e) {
  in_call(c, e);
  switch (e->kind) {
  case TR_RMA_COLLECTIVE_BEGIN: c->rma_open_colls++; break;
  case TR_RMA_COLLECTIVE_END: rma_count_coll(c, loc, e); break;
  case TR_RMA_REQUEST_LOCK:
  case TR_RMA_ACQUIRE_LOCK:
  case TR_RMA_RELEASE_LOCK: rma_lock(c, loc, e); break;
  case TR_RMA_PUT:
  case TR_RMA_GET:
  case TR_RMA_ATOMIC: {
    rma_item k = {loc, e->comm, 0, e->request, 1};
    PU_PUSH(c->rma_ops, c->nrma_ops, c->cap_rma_ops, k);
    break;
  }
  case TR_RMA_OP_COMPLETE_BLOCKING: {
    rma_item *it = rma_find(c->rma_ops, c->nrma_ops, loc, e->comm, 0, e->request);
    if (!it || !it->state)
      fail(c, "location %llu: RMA operation %llu completed, not started", (unsigned long long)loc,
           (unsigned long long)e->request);
    else it->state = 0;
    break;
  }
  default: break;
  }
}

/* At the end: nothing left open, every member of a window with as many
   instances of each RMA collective as the others. */
static void rma_balanced(check *c) {
  for (size_t i = 0; i < c->nrma_ops; i++)
    if (c->rma_ops[i].state)
      fail(c, "location %llu: RMA operation %llu never completed",
           (unsigned long long)c->rma_ops[i].loc, (unsigned long long)c->rma_ops[i].id);
  for (size_t i = 0; i < c->nrma_locks; i++)
    if (c->rma_locks[i].state)
      fail(c, "location %llu: lock of %u on window %u never released",
           (unsigned long long)c->rma_locks[i].loc, c->rma_locks[i].target, c->rma_locks[i].win);
  if (c->rma_open_colls > 0)
    fail(c, "%lld RmaCollectiveBegin without their end", c->rma_open_colls);
  if (c->rma_open_colls < 0)
    fail(c, "%lld RmaCollectiveEnd without their begin", -c->rma_open_colls);
  if (c->rma_windows) fail(c, "%lld windows created and not destroyed", c->rma_windows);
  for (size_t i = 0; i < c->nrma_colls; i++)
    for (size_t j = 0; j < i; j++) {
      const rma_item *a = &c->rma_colls[i], *b = &c->rma_colls[j];
      if (a->win == b->win && a->target == b->target && a->state != b->state)
        fail(c, "window %u: rank %llu has %d RMA collectives (op %u), rank %llu has %d", a->win,
             (unsigned long long)a->loc, a->state, a->target, (unsigned long long)b->loc, b->state);
    }
  printf("rma operations %zu\n", c->nrma_ops);
}

/* Checks record e and adds it to the messages, collectives and requests. */
static void replay(check *c, const tr_event *e) {
  uint64_t loc = c->t->locs[e->loc].id;
  pending p;
  switch (e->kind) {
  case TR_ENTER:
  case TR_LEAVE: nest(c, e, e->kind == TR_ENTER ? 1 : -1); break;
  case TR_MPI_SEND:
  case TR_MPI_RECV:
    in_call(c, e);
    p2p(c, loc, e);
    break;
  case TR_MPI_ISEND:
    in_call(c, e);
    at_enter(c, e);
    p2p(c, loc, e);
    open_request(c, loc, e->request, 0, 0);
    break;
  case TR_MPI_ISEND_COMPLETE:
    in_call(c, e);
    close_request(c, loc, e->request, 0, &p);
    break;
  case TR_MPI_IRECV_REQUEST:
    in_call(c, e);
    at_enter(c, e);
    open_request(c, loc, e->request, 1, 0);
    break;
  case TR_MPI_IRECV:
    in_call(c, e);
    close_request(c, loc, e->request, 1, &p);
    p2p(c, loc, e);
    break;
  case TR_MPI_REQUEST_TEST:
  case TR_MPI_COLLECTIVE_BEGIN: in_call(c, e); break;
  case TR_MPI_REQUEST_CANCELLED:
    in_call(c, e);
    /* a cancelled collective request would leave a hole in its instance */
    if (close_request(c, loc, e->request, -1, &p) && p.kind == 2)
      fail(c, "location %llu: collective request %llu cancelled", (unsigned long long)loc,
           (unsigned long long)e->request);
    break;
  case TR_MPI_COLLECTIVE_END: collective_end(c, loc, e); break;
  case TR_NBC_REQUEST: { /* takes its place in the order at the request */
    in_call(c, e);
    coll k = {UINT32_MAX, rank_of(loc), 0, 0, c->seq++, 0, 0, 0, 1, 0};
    PU_PUSH(c->colls, c->ncolls, c->cap_colls, k);
    open_request(c, loc, e->request, 2, c->ncolls - 1);
    break;
  }
  case TR_NBC_COMPLETE:
    in_call(c, e);
    if (close_request(c, loc, e->request, 2, &p)) {
      coll *k = &c->colls[p.coll];
      k->comm = e->comm, k->op = e->op, k->root = e->root;
      k->sent = e->bytes, k->received = e->received, k->done = 1;
    }
    break;
  default:
    if (e->kind >= TR_RMA_WIN_CREATE) rma(c, loc, e);
    /* OpenMP and measurement records: not checked */
    break;
  }
}

/* ------------------------------------------------------------ the checks */

static int by_key(const void *pa, const void *pb) {
  const message *a = pa, *b = pb;
  if (a->comm != b->comm) return a->comm < b->comm ? -1 : 1;
  if (a->src != b->src) return a->src < b->src ? -1 : 1;
  if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
  if (a->tag != b->tag) return a->tag < b->tag ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int same_key(const message *a, const message *b) {
  return a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag;
}

/* Sends and receives sorted by (key, order) must pair up one to one. */
static uint64_t match_messages(check *c) {
  if (c->nsends) qsort(c->sends, c->nsends, sizeof *c->sends, by_key);
  if (c->nrecvs) qsort(c->recvs, c->nrecvs, sizeof *c->recvs, by_key);
  size_t i = 0, j = 0;
  uint64_t matched = 0;
  while (i < c->nsends || j < c->nrecvs) {
    message *s = i < c->nsends ? &c->sends[i] : NULL;
    message *r = j < c->nrecvs ? &c->recvs[j] : NULL;
    int cmp = !s ? 1 : !r ? -1 : same_key(s, r) ? 0 : by_key(s, r);
    if (cmp == 0) {
      if (s->bytes != r->bytes)
        fail(c, "comm %u %u->%u tag %u: %llu bytes sent, %llu received", s->comm, s->src, s->dst,
             s->tag, (unsigned long long)s->bytes, (unsigned long long)r->bytes);
      matched++, i++, j++;
    } else if (cmp < 0) {
      fail(c, "comm %u %u->%u tag %u: send without receive", s->comm, s->src, s->dst, s->tag);
      i++;
    } else {
      fail(c, "comm %u %u->%u tag %u: receive without send", r->comm, r->src, r->dst, r->tag);
      j++;
    }
  }
  return matched;
}

/* Instances: blocking and non-blocking collectives of a comm are two
   sequences (placeholders stand for blocking ones only). */
static int same_sequence(const coll *a, const coll *b) {
  return a->comm == b->comm && a->nbc == b->nbc;
}

static int by_comm_rank(const void *pa, const void *pb) {
  const coll *a = pa, *b = pb;
  if (a->comm != b->comm) return a->comm < b->comm ? -1 : 1;
  if (a->nbc != b->nbc) return a->nbc < b->nbc ? -1 : 1;
  if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Whether a member's record of the instance at x (members' records per
   apart) is a placeholder: then nothing of it can be compared. */
static int any_unrecorded(const coll *x, size_t per, uint32_t members) {
  for (uint32_t m = 0; m < members; m++)
    if (x[m * per].unrecorded) return 1;
  return 0;
}

/* Per comm, every member's k-th collective forms instance k. */
static void match_collectives(check *c) {
  if (c->ncolls) qsort(c->colls, c->ncolls, sizeof *c->colls, by_comm_rank);
  for (size_t at = 0; at < c->ncolls;) {
    uint32_t comm = c->colls[at].comm;
    size_t end = at;
    while (end < c->ncolls && same_sequence(&c->colls[end], &c->colls[at])) end++;
    const tr_group *g = comm_group(c, comm);
    if (!g) {
      fail(c, "collective on undefined communicator %u", comm);
      at = end;
      continue;
    }
    uint32_t members = g->type == OTF2_GROUP_TYPE_COMM_SELF ? 1 : g->n;
    /* the first rank's count is the instance count; every member has it */
    size_t per = 0;
    while (at + per < end && c->colls[at + per].rank == c->colls[at].rank) per++;
    int uneven = 0;
    for (size_t i = at; i + per < end && !uneven; i += per)
      uneven = c->colls[i + per - 1].rank != c->colls[i].rank ||
               c->colls[i + per].rank == c->colls[i].rank;
    if ((end - at) != per * members || uneven)
      fail(c, "comm %u: %zu collective records, expected %zu instances x %u members", comm,
           end - at, per, members);
    else
      for (size_t k = 0; k < per; k++) {
        if (any_unrecorded(&c->colls[at + k], per, members)) continue;
        uint64_t sent = 0, received = 0;
        for (uint32_t m = 0; m < members; m++) {
          const coll *x = &c->colls[at + m * per + k], *first = &c->colls[at + k];
          /* processes not taking part in an intercomm's rooted operation
             (MPI_PROC_NULL) do not know the root: undefined matches */
          int roots_differ = x->root != first->root && x->root != OTF2_UNDEFINED_UINT32 &&
                             first->root != OTF2_UNDEFINED_UINT32;
          if (x->op != first->op || roots_differ)
            fail(c, "comm %u instance %zu: rank %u has op %u root %u, rank %u op %u root %u", comm,
                 k, first->rank, first->op, first->root, x->rank, x->op, x->root);
          sent += x->sent, received += x->received;
        }
        if (sent != received)
          fail(c, "comm %u instance %zu (op %u): %llu bytes sent, %llu received", comm, k,
               c->colls[at + k].op, (unsigned long long)sent, (unsigned long long)received);
      }
    at = end;
  }
}

/* The value of the "what N" line of path; fallback when it has none, or
   an error if fallback < 0. */
/* Every rank that has locations has exactly n of them. */
static void check_locations(check *c, int n) {
  const tr_trace *t = c->t;
  for (size_t i = 0; i < t->nlocs; i++) {
    if (i > 0 && rank_of(t->locs[i - 1].id) == rank_of(t->locs[i].id)) continue;
    int k = 0;
    for (size_t j = 0; j < t->nlocs; j++) k += rank_of(t->locs[j].id) == rank_of(t->locs[i].id);
    if (k != n) fail(c, "rank %u has %d locations, expected %d", rank_of(t->locs[i].id), k, n);
  }
}

/* MPI communicators and MPI member groups defined in the trace. */
static void count_mpi_defs(const tr_trace *t, long long *comms, long long *groups) {
  *comms = *groups = 0;
  for (size_t i = 0; i < t->ngroups; i++)
    *groups += t->groups[i].paradigm == OTF2_PARADIGM_MPI &&
               t->groups[i].type != OTF2_GROUP_TYPE_COMM_LOCATIONS;
  for (size_t i = 0; i < t->ncomms; i++)
    *comms += t->comms[i].group < t->ngroups &&
              t->groups[t->comms[i].group].paradigm == OTF2_PARADIGM_MPI;
}

static long long expected(const char *path, const char *what, long long fallback) {
  FILE *f = fopen(path, "r");
  if (!f) pu_die(POMP_EXIT_FAILURE, "%s: cannot open", path);
  char key[64];
  long long v, found = -1;
  while (fscanf(f, "%63s %lld", key, &v) == 2)
    if (!strcmp(key, what)) found = v;
  fclose(f);
  if (found < 0 && fallback >= 0) return fallback;
  if (found < 0) pu_die(POMP_EXIT_FAILURE, "%s: no '%s' line", path, what);
  return found;
}

/* Calls of one region (Enter records) on all locations. */
static long long enters_of(const tr_trace *t, const char *region) {
  long long n = 0;
  for (size_t i = 0; i < t->nlocs; i++)
    for (size_t k = 0; k < t->locs[i].nevents; k++) {
      const tr_event *e = tr_event_of(t, &t->locs[i], k);
      n += e->kind == TR_ENTER && !strcmp(t->regions[e->region].name, region);
    }
  return n;
}

/* The expect file's "call:MPI_X N" lines: MPI_X entered N times in all. */
static void check_calls(check *c, const tr_trace *t, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) pu_die(POMP_EXIT_FAILURE, "%s: cannot open", path);
  char key[64];
  long long want;
  while (fscanf(f, "%63s %lld", key, &want) == 2) {
    if (strncmp(key, "call:", 5)) continue;
    long long got = enters_of(t, key + 5);
    if (got != want)
      fail(c, "%s entered %lld times in the trace, the program says %lld", key + 5, got, want);
  }
  fclose(f);
}

/* "rank.thread record" lines (tr_dump form), location by location in
   their own order. */
static void write_dump(const tr_trace *t, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) pu_die(POMP_EXIT_FAILURE, "%s: cannot create", path);
  char line[512];
  for (size_t i = 0; i < t->nlocs; i++)
    for (size_t k = 0; k < t->locs[i].nevents; k++)
      if (tr_dump(t, tr_event_of(t, &t->locs[i], k), line, sizeof line))
        fprintf(f, "%u.%u %s\n", rank_of(t->locs[i].id), thread_of(t->locs[i].id), line);
  if (fclose(f) != 0) pu_die(POMP_EXIT_FAILURE, "%s: write error", path);
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: %s [--expect FILE] [--ranks N] [--locations N] [--tag-is-thread]\n"
          "       [--clock-offsets] [--complete-on-issuer] [--flushes] [--dump FILE] ARCHIVE\n"
          "Checks the MPI records of a libpomp-mpi trace (traces.otf2).\n",
          pu_progname());
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  check c = {0};
  const char *expect = NULL, *path = NULL, *dump = NULL;
  int ranks = -1, locations = -1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help")) {
      usage(stdout);
      return POMP_EXIT_OK;
    } else if (!strcmp(argv[i], "--version")) {
      pu_print_version();
      return POMP_EXIT_OK;
    } else if (!strcmp(argv[i], "--expect") && i + 1 < argc) {
      expect = argv[++i];
    } else if (!strcmp(argv[i], "--ranks") && i + 1 < argc) {
      ranks = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--locations") && i + 1 < argc) {
      locations = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--dump") && i + 1 < argc) {
      dump = argv[++i];
    } else if (!strcmp(argv[i], "--clock-offsets")) {
      c.clock_offsets = 1;
    } else if (!strcmp(argv[i], "--tag-is-thread")) {
      c.tag_is_thread = 1;
    } else if (!strcmp(argv[i], "--complete-on-issuer")) {
      c.complete_on_issuer = 1;
    } else if (!strcmp(argv[i], "--flushes")) {
      c.flushes = 1;
    } else if (argv[i][0] != '-' && !path) {
      path = argv[i];
    } else {
      usage(stderr);
      return POMP_EXIT_USAGE;
    }
  }
  if (!path) {
    usage(stderr);
    return POMP_EXIT_USAGE;
  }
  tr_trace t;
  if (tr_read(path, &t, 0)) return POMP_EXIT_FAILURE;
  c.t = &t;
  c.finalize_left = UINT64_MAX;
  if (dump) write_dump(&t, dump);
  scorep_conventions(&c);
  c.order = pu_calloc(t.nlocs + 1, sizeof *c.order);
  for (size_t i = 0; i < t.nevents; i++) replay(&c, &t.events[i]);
  check_rank0_offsets(&c);
  if (c.finalize_left != UINT64_MAX && c.finalize_entered > c.finalize_left)
    fail(&c, "a rank leaves MPI_Finalize at %llu, before another enters it at %llu",
         (unsigned long long)c.finalize_left, (unsigned long long)c.finalize_entered);
  uint64_t messages = match_messages(&c);
  match_collectives(&c);
  rma_balanced(&c);
  for (size_t i = 0; i < c.nopen; i++)
    fail(&c, "location %llu: request %llu never completed", (unsigned long long)c.open[i].loc,
         (unsigned long long)c.open[i].id);
  if (ranks >= 0)
    for (int r = 0; r < 4096; r++) {
      int has = (c.seen_ranks[r / 64] >> (r % 64)) & 1;
      if (has != (r < ranks)) fail(&c, "rank %d %s MPI records", r, has ? "has" : "has no");
    }
  if (locations >= 0) check_locations(&c, locations);
  for (size_t i = 0; i < t.nlocs && c.clock_offsets; i++)
    if (t.locs[i].noffsets != 2)
      fail(&c, "location %llu: %zu clock offsets, expected 2", (unsigned long long)t.locs[i].id,
           t.locs[i].noffsets);
  if (c.flushes) {
    uint64_t all = 0, in_mpi = 0;
    for (size_t i = 0; i < t.nlocs; i++)
      all += c.order[i].flushes, in_mpi += c.order[i].flushes_in_mpi;
    printf("flushes %llu\nflushes in MPI calls %llu\n", (unsigned long long)all,
           (unsigned long long)in_mpi);
    if (!in_mpi) fail(&c, "no buffer flush inside an MPI call");
  }
  size_t recorded = c.ncolls - c.nunrecorded;
  printf("messages %llu\ncollectives %zu\nunrecorded %zu\n", (unsigned long long)messages, recorded,
         c.nunrecorded);
  if (expect) {
    long long m = expected(expect, "messages", -1), k = expected(expect, "collectives", -1);
    long long u = expected(expect, "unrecorded", 0);
    long long nc = expected(expect, "comms", LLONG_MAX),
              ng = expected(expect, "mpi_groups", LLONG_MAX);
    long long comms, groups;
    count_mpi_defs(&t, &comms, &groups);
    if (nc != LLONG_MAX && nc != comms)
      fail(&c, "%lld MPI communicators defined in the trace, the program made %lld", comms, nc);
    if (ng != LLONG_MAX && ng != groups)
      fail(&c, "%lld MPI groups defined in the trace, expected %lld", groups, ng);
    if (u != (long long)c.nunrecorded)
      fail(&c, "%zu collective instances not recorded in the trace, the program says %lld",
           c.nunrecorded, u);
    if (m != (long long)messages)
      fail(&c, "%llu messages in the trace, the program sent %lld", (unsigned long long)messages,
           m);
    if (k != (long long)recorded)
      fail(&c, "%zu collective records in the trace, the program recorded %lld", recorded, k);
    check_calls(&c, &t, expect);
  }
  free(c.order), free(c.sends), free(c.recvs), free(c.colls), free(c.open);
  free(c.rma_ops), free(c.rma_locks), free(c.rma_colls);
  tr_free(&t);
  if (c.errors) fprintf(stderr, "%s: %d problem(s)\n", pu_progname(), c.errors);
  return c.errors ? POMP_EXIT_FAILURE : POMP_EXIT_OK;
}
