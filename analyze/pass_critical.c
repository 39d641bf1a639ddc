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
 *   - Late Receiver: the receiver, at the Enter of the call that posted
 *     its receive (a blocking receive, or MPI_Irecv: cp_local.ipost), for
 *     a blocking send call, or an MPI_Wait* completing Isends, still open
 *     then whose message it receives (the call's leave is held back until
 *     its MpiSend, or the Isends, name the messages: cp_local.hold);
 *   - OpenMP barriers: the thread that entered last; the join: the thread
 *     that ended its team membership last; a worker's start: the master,
 *     at its fork (the worker keeps the path back to it: its start-up is
 *     path time on its parallel region, as in Scalasca 2.6).
 * Each location's time on the path, per call path, is critical_path.  The
 * master's fork time (the fork to the enter of its outermost parallel
 * region) and join time (the leave to the join) go to the parallel region,
 * where its time has them (omp_management) and Scalasca charges them; the
 * join is read before the leave that names the region, so the walk holds
 * that time back until it (cp_walker.join_open).
 *
 * Two stages.  The first (the handlers) sees one location's events,
 * latest first, and depends on nothing but them and the definitions: it
 * keeps the location's call stack (as call paths of its own, defined by
 * CP_PATH records, so that no call-tree node is needed) and the waits it
 * is in, and writes two flat arrays without pointers, a window at a time:
 * a record (cp_rec, 48 bytes) for each event the hand-over needs (a
 * barrier's leave and enter, a collective's end and enter, a receive and
 * the enter of its call, a send and a blocking send call's leave, a join,
 * a team end and begin; the
 * model's limits met, CP_LIMIT; the location's latest event, CP_START),
 * and a step (cp_step, 16 bytes: its time and the call path after it) for
 * every other Enter and Leave.  A record says how many steps come before
 * it.  In a parallel analysis the analysis process replaying the
 * location ships them to the one that walks, after each window
 * (az_critical.h: az_cp_link, az_cp_walker).  The second stage (the
 * walk) merges the records of all locations, latest first, and hands the
 * path over; the steps stay out of the merge.
 *
 * Why the walk is exact.  Before, every event was merged and walked, and a
 * plain Enter or Leave did two things: the time since the path's last
 * event went to the holder's innermost call path, and the location's call
 * path changed.  Neither is looked at by another location, and the call
 * path only matters while the location holds the path.  So the walk goes
 * through a location's steps only when it needs them: at each of its
 * records, those before it, charged one by one when the location holds the
 * path (the same charges as before), else only the call path after the
 * last one taken; and when the path leaves a location between two of its
 * records (another's arrival at t ends its wait), that location's steps at
 * t or later, up to its next record.  Were it to come to one between two
 * of them, the steps later than t would move no time, as before (the path
 * now always arrives at a record: a send, an enter, a team end, a fork).
 * Steps at t itself move zero time, so their order against the other's
 * record at t does not matter.  After each window, the
 * steps later than the records merged are walked too (no later record or
 * move of the path is earlier), so a location keeps a window's steps at
 * most.  The walk thus charges the same time to the same call paths as the
 * walk of every event, with a merge over the locations only for the records
 * (on bench_analyze's traces 28 % of the events with 8 ranks, 47 % with 4
 * ranks x 4 threads).
 *
 * Order: at equal times, events that open something backwards (a Leave,
 * the end of a collective, a receive, a join) come before those that
 * close it, then the lower location, so a wait of length 0 is seen as
 * one.  A location's events are not sorted by that key (a Leave after an
 * Enter at the same time); merging all locations' events head by head
 * gives the same order as sorting them by each event's key raised to the
 * largest key among the location's events before it (the record's
 * `opening` is that key's), and a sorted sequence keeps the order of what
 * remains when some of it is dropped: the records meet in the order their
 * events met before.
 * pass_critical_impact.c derives the other metrics at the end. */
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "az.h"
#include "az_calltree.h"
#include "az_cells.h"
#include "az_common.h"
#include "az_critical.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_metrics.h"
#include "az_pass.h"
#include "pomp_util.h"

/* ---- the records: what a location's events leave for the walk ---------- */

enum cp_kind {
  CP_START,      /* the location's latest event (a plain one) */
  CP_PATH,       /* a new call path of the location: v = id, parent, region */
  CP_LIMIT,      /* the model's limits met: v[0] (AZ_LIMIT_* bits) */
  CP_BAR_OPEN,   /* the leave of an OpenMP barrier: v[0] its number in the team */
  CP_ENTER,      /* an enter that ends waits: v[0] (CP_ENDS_* bits) */
  CP_COLL,       /* the end of an MPI collective: v = comm, class, root is me; w = instance */
  CP_RECV,       /* a receive: v = source process, comm, tag */
  CP_SEND,       /* a send: v = destination process, comm, tag */
  CP_SEND_LEAVE, /* the leave of a blocking send call: v = its send's destination process,
                    comm, tag (v[0] CP_NO_PEER: none); or of an MPI_Wait* call, one
                    per Isend it completed, w = the sends on the channel between
                    that Isend and the call, and above bit 32 the call's length + 1
                    (0: its Enter is a CP_ENDS_SEND record) */
  CP_JOIN,       /* the master's join */
  CP_TEAM_END,   /* ThreadTeamEnd */
  CP_TEAM_BEGIN, /* ThreadTeamBegin: v[0] a worker's parallel region's call path + 1 */
  CP_PAR_LEAVE,  /* the master's leave of its outermost parallel region */
  CP_PAR_ENTER,  /* ... its enter: v[0] the region's call path */
  CP_FORK,       /* the master's ThreadFork */
};

/* CP_ENDS_POST: the call that began posted a receive (a Late Receiver's
   end, walk_post): a blocking receive's (MpiRecv; w 0: the location's
   last receive), or an MPI_Irecv's (w: its CP_RECV's number + 1). */
/* CP_ENDS_SEND: the Enter of an MPI_Wait* call that completed Isends named
   by its CP_SEND_LEAVE records, where their w cannot hold the call's
   length (else the Enter is a step). */
enum { CP_ENDS_BAR = 1, CP_ENDS_COLL = 2, CP_ENDS_RECV = 4, CP_ENDS_POST = 8, CP_ENDS_SEND = 16 };
enum { CP_NO_PEER = UINT32_MAX };
/* A Wait* call's Isends followed for a Late Receiver (more: not followed),
   and the records a location may write while its Isends are looked for
   (then the hand-over is given up, cp_local.hold). */
enum { CP_WAIT_SENDS = 4, CP_TAIL_MAX = 256 };

/* What the first stage asks of a region (cp_state.rflags). */
enum {
  CPF_PARALLEL = 1,
  CPF_TASK = 2,
  CPF_MPI = 4,
  CPF_BARRIER = 8,
  CPF_BSEND = 16,
  CPF_WAIT = 32
};

/* A call path's parent: none (the root), or the master's call path at the
   fork (a worker's outermost region in a team). */
enum { CP_ROOT = -1, CP_BASE = -2 };

typedef struct { /* 48 bytes */
  az_time t;
  uint64_t steps; /* the location's steps before it (its stretch ends there) */
  uint64_t w;
  int32_t top; /* the location's innermost call path after it, -1: none */
  uint32_t v[3];
  uint8_t kind;    /* enum cp_kind */
  uint8_t opening; /* its order at equal times (the header comment) */
} cp_rec;

typedef struct { /* a plain event: 16 bytes */
  az_time t;
  int32_t top; /* the location's innermost call path after it, -1: none */
} cp_step;

typedef struct {   /* a call path of one location */
  int32_t parent;  /* a path of the location, CP_ROOT or CP_BASE */
  uint32_t region; /* the region it enters */
} cp_lpath;

/* How a collective hands the path over. */
enum { COLL_NONE, COLL_NXN, COLL_12N, COLL_N21 };

/* The first stage: what a location's own events say, backwards. */
typedef struct {
  int32_t *stack; /* its call paths */
  size_t depth, capstack;
  cp_lpath *paths; /* its call paths, by id */
  size_t npaths, cappaths;
  int32_t *slots; /* hash of paths by (parent, region): id + 1, 0 empty */
  size_t nslots;
  int32_t *last; /* per region: its path met last (most regions have one parent) */
  int master;
  int in_team;      /* between its team end and begin */
  int32_t team_par; /* a worker's outermost parallel region in the team, -1: none */
  int in_bar;       /* inside an OpenMP barrier, frame bar_depth */
  size_t bar_depth;
  uint32_t bar_seq; /* OpenMP barriers met in the team instance */
  size_t parallel;  /* parallel regions open */
  int coll_on;      /* inside an MPI collective, frame coll_depth */
  size_t coll_depth;
  uint64_t *seq;     /* per communicator: its collectives met so far */
  size_t recv_frame; /* frames open at its last receive (0: none) */
  int recv_post;     /* ... a blocking one (MpiRecv): its call's Enter posted it */
  uint64_t recvs;    /* CP_RECV records so far (the walk counts them alike) */
  struct {           /* Irecv completions met, by request: their CP_RECV's number */
    uint64_t *v;     /* pairs: request id, number */
    size_t n, cap;
  } ireq;
  struct { /* an MPI_Irecv call whose request a completion met has: its Enter posts */
    int on;
    size_t depth;
    uint64_t recv;
  } ipost;
  /* The leave of a blocking send call, held back until its MpiSend (read
     next) names the message: the walk must know it before it reaches a
     receive posted during the call (Late Receiver).  While held, the
     records no later than it are not walked (window_bound). */
  struct {
    int on;
    size_t depth; /* frames open in the call */
    cp_rec rec;
    /* An MPI_Wait* call's leave (wait): held until the Isends of the
       requests it completed (req) are read, which name the messages (msg:
       destination process, comm, tag and the sends on that channel
       between, as in CP_SEND_LEAVE; v[0] CP_NO_PEER: not yet).  Those may
       be far back: the records met meanwhile wait in `tail`, at most
       CP_TAIL_MAX, then the hand-over is given up (the leave goes without
       messages).  Depends on the location's events only (serial ==
       parallel). */
    int wait, entered;
    uint32_t nreq, named;
    uint32_t span; /* the Wait*'s length + 1, 0: too long (CP_ENDS_SEND) */
    uint64_t req[CP_WAIT_SENDS];
    uint32_t msg[CP_WAIT_SENDS][4];
    cp_rec *tail;
    size_t ntail, captail;
  } hold;
  unsigned limits;
  int started; /* its latest event was met */
  int closed;  /* an event that closes something was met at close_t */
  az_time close_t;
} cp_local;

/* The second stage: what the walk knows of a location. */
typedef struct {
  int32_t top;        /* its innermost call path */
  uint64_t step_next; /* its first step not walked */
  int32_t base;       /* a worker in a team: the master's call path at the fork */
  int in_bar, in_join, recv_frame;
  uint32_t bar_b;
  struct { /* inside an MPI collective: its instance */
    int on, cls, root_me;
    uint32_t comm;
    uint64_t seq;
  } coll;
  uint64_t recv_gen; /* receive calls closed so far */
  uint64_t recvs;    /* CP_RECV records walked (as cp_local.recvs) */
  struct {           /* inside a blocking send or Wait* call: its messages (CP_SEND_LEAVE) */
    int on;
    uint32_t n;
    az_time x;     /* the call's leave */
    az_time enter; /* a Wait*'s enter, when its records say (else 0) */
    struct {
      uint32_t dst, comm, tag, k; /* k: its receive is the channel's (k+1)-th */
    } m[CP_WAIT_SENDS];
  } send;
  /* the master's fork and join time goes to the parallel region, as its
     time (omp_management): from the enter back to the fork, fork_path;
     from the join back to the leave, charged once the leave names it */
  int32_t fork_path; /* a call path of its own, -1: none */
  int join_open;
  int64_t join_time;
  cp_lpath *paths; /* its call paths, from its CP_PATH records */
  int32_t *cnode;  /* ... as nodes of the call tree, CP_UNRESOLVED */
  size_t npaths, cappaths;
} cp_walker;

enum { CP_UNRESOLVED = -3 };

typedef struct {
  az_cursor cur;
  cp_local l;
  cp_rec *buf; /* records not walked yet, latest first */
  size_t n, cap, next;
  cp_step *log; /* steps not walked yet: log[0] is step number log_base */
  size_t nlog, caplog;
  uint64_t log_base;
  cp_walker w;
  struct cp_state *st;
} cp_loc;

typedef struct { /* a receive waiting for its send */
  uint32_t loc;
  uint64_t gen;
  uint64_t recv; /* its number on its location (cp_walker.recvs) */
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
  int64_t forked; /* a worker holding the path back to the master's fork, -1: none */
  int fork_met;   /* the master's fork met, at fork_t (the latest met first) */
  az_time fork_t;
} cp_proc;

/* A record's place in the merge, larger first: its time, then at equal
   times the opening kinds, then the lower location (the header comment);
   0: none (a location whose records are all merged).  64 bits: the time
   as counted from the slice's base (cp_state.key_base, merge_slice) above
   a tie of cp_state.tie_bits bits, the opening bit and the location's
   index.  With the absolute time above a 32-bit tie (128 bits) each match
   of the tournament took two compares and twice the moves: merge_after's
   own instructions on a 4 x 4-thread trace (1.07 M records, 756,000 runs)
   228 M then, 178 M now. */
typedef uint64_t cp_key;

typedef struct cp_state {
  az_analysis *a;
  cp_loc **locs; /* by location index; NULL: not replayed here */
  /* the merge: a tournament tree of losers over the locations with
     records (slots), tree[0] the winner; key[slot] its next record */
  cp_key *key;
  uint32_t *slot_loc, *tree, *win;
  cp_key *tie;       /* per slot: its key's tie of a closing record, of an opening one */
  az_time key_base;  /* the slice's earliest time keyed: earlier ones key as before it */
  az_time key_span;  /* the times a slice keys above its base */
  unsigned tie_bits; /* below the time in a key: the opening bit, the location's */
  int64_t holder;    /* location holding the path, -1 before the first event */
  az_time path_t;    /* the path reached this time on the holder */
  uint64_t *entered; /* per communicator: instances whose late member came */
  cp_proc *procs;
  cp_channel **channels;
  size_t nchannels;
  unsigned limits;
  uint8_t *rflags;   /* per region: CPF_* (from the definitions) */
  az_cp_link *link;  /* a parallel analysis: the first stage alone, shipped */
  az_cp_part *parts; /* ... a window's arrays of every location */
  cp_loc *own;       /* the second stage alone (az_cp_walker): its locations */
  /* where the walk charges: the analysis's call tree and cells, or an
     az_cp_walker's own (a walk on a thread of its own) */
  az_calltree *calltree;
  az_cells *cells;
} cp_state;

struct az_cp_walker {
  cp_state *st; /* NULL once ended */
  az_calltree tree;
  az_cells *cells; /* per location: its time on the path, on tree's call paths */
  size_t ncells;
};

/* ---- the first stage: a location's records ------------------------------- */

static int32_t local_top(const cp_local *l) { return l->depth ? l->stack[l->depth - 1] : -1; }

static void grow_buf(cp_loc *s) { pu_reserve((void **)&s->buf, &s->cap, s->n + 1, sizeof *s->buf); }

static void grow_log(cp_loc *s) {
  pu_reserve((void **)&s->log, &s->caplog, s->nlog + 1, sizeof *s->log);
}

static void release_send(cp_loc *s);

static cp_rec *tail_rec(cp_loc *s);

static inline cp_rec *push_rec(cp_loc *s, az_time t, uint8_t kind, int opening) {
  if (__builtin_expect(s->l.hold.on, 0)) { /* the records stay in time order */
    if (s->l.hold.wait && s->l.hold.ntail < CP_TAIL_MAX) {
      cp_rec *r = tail_rec(s);
      *r = (cp_rec){.t = t,
                    .steps = s->log_base + s->nlog,
                    .top = local_top(&s->l),
                    .kind = kind,
                    .opening = (uint8_t)opening};
      return r;
    }
    if (s->l.hold.wait || (kind != CP_PATH && kind != CP_LIMIT)) { /* a Wait*'s: given up */
      release_send(s);
    } else { /* a definition goes before the held record, at its time */
      t = s->l.hold.rec.t;
      opening = s->l.hold.rec.opening;
    }
  }
  if (s->n == s->cap) grow_buf(s);
  cp_rec *r = &s->buf[s->n++];
  *r = (cp_rec){.t = t,
                .steps = s->log_base + s->nlog,
                .top = local_top(&s->l),
                .kind = kind,
                .opening = (uint8_t)opening};
  return r;
}

/* An event at t: returns its order at equal times (the header comment). */
static inline int event_at(cp_local *l, az_time t, int opens) {
  int opening = opens && !(l->closed && l->close_t == t);
  if (!opens) {
    l->closed = 1;
    l->close_t = t;
  }
  return opening;
}

/* A plain event: a step (the location's latest event: a record, where the
   walk's path may start). */
static inline void plain(cp_loc *s, az_time t, int opening) {
  if (!s->l.started) {
    s->l.started = 1;
    push_rec(s, t, CP_START, opening);
    return;
  }
  if (s->nlog == s->caplog) grow_log(s);
  s->log[s->nlog++] = (cp_step){t, local_top(&s->l)};
}

/* A record met while a Wait*'s leave is held: to the tail. */
static cp_rec *tail_rec(cp_loc *s) {
  cp_local *l = &s->l;
  pu_reserve((void **)&l->hold.tail, &l->hold.captail, l->hold.ntail + 1, sizeof *l->hold.tail);
  return &l->hold.tail[l->hold.ntail++];
}

/* The held leave of a blocking send call goes to the records (with its
   message, or v[0] CP_NO_PEER); a Wait*'s, one per message named (none
   named: one with CP_NO_PEER), then the records met since. */
static void release_send(cp_loc *s) {
  cp_local *l = &s->l;
  l->hold.on = 0;
  size_t need = s->n + 1 + l->hold.nreq + l->hold.ntail;
  pu_reserve((void **)&s->buf, &s->cap, need, sizeof *s->buf);
  cp_rec *o = s->buf + s->n;
  if (!l->hold.wait || !l->hold.named) {
    *o++ = l->hold.rec;
  } else {
    for (uint32_t i = 0; i < l->hold.nreq; i++) {
      if (l->hold.msg[i][0] == CP_NO_PEER) continue;
      *o = l->hold.rec;
      memcpy(o->v, l->hold.msg[i], sizeof o->v);
      o->w = (uint64_t)l->hold.span << 32 | l->hold.msg[i][3];
      o++;
    }
  }
  if (l->hold.ntail) memcpy(o, l->hold.tail, l->hold.ntail * sizeof *o);
  s->n = (size_t)(o - s->buf) + l->hold.ntail;
  l->hold.ntail = 0;
}

/* The leave at t of a blocking send call or (wait) an MPI_Wait* call:
   held (cp_local.hold). */
static void hold_send(cp_loc *s, az_time t, int opening, int wait) {
  cp_local *l = &s->l;
  l->hold.on = 1;
  l->hold.wait = wait;
  l->hold.entered = 0;
  l->hold.nreq = l->hold.named = 0;
  l->hold.depth = l->depth;
  l->hold.rec = (cp_rec){.t = t,
                         .steps = s->log_base + s->nlog,
                         .top = local_top(l),
                         .v = {CP_NO_PEER, 0, 0},
                         .kind = CP_SEND_LEAVE,
                         .opening = (uint8_t)opening};
}

/* The held leave of a call without messages to look for: a plain step
   where nothing came after it (a Wait* completing no Isend: as before),
   else a record without a message. */
static void wait_done(cp_loc *s) {
  cp_local *l = &s->l;
  if (l->hold.wait && !l->hold.ntail && l->hold.rec.steps == s->log_base + s->nlog) {
    l->hold.on = 0;
    if (s->nlog == s->caplog) grow_log(s);
    s->log[s->nlog++] = (cp_step){l->hold.rec.t, l->hold.rec.top};
    return;
  }
  release_send(s);
}

/* A record the walk needs, at t (valid until the next record). */
static cp_rec *record(cp_loc *s, az_time t, uint8_t kind, int opening) {
  s->l.started = 1;
  return push_rec(s, t, kind, opening);
}

/* A limit of the model met at the event at t (its order: opening). */
static void limit(cp_loc *s, unsigned bit, az_time t, int opening) {
  if (s->l.limits & bit) return;
  s->l.limits |= bit;
  cp_rec *r = push_rec(s, t, CP_LIMIT, opening);
  r->v[0] = bit;
}

static size_t path_hash(int32_t parent, uint32_t region, size_t nslots) {
  return ((size_t)(uint32_t)parent * 2654435761u ^ (size_t)region * 40503u) & (nslots - 1);
}

static void paths_rehash(cp_local *l) {
  size_t nslots = l->nslots ? 2 * l->nslots : 64;
  int32_t *slots = pu_calloc(nslots, sizeof *slots);
  for (size_t id = 0; id < l->npaths; id++) {
    size_t h = path_hash(l->paths[id].parent, l->paths[id].region, nslots);
    while (slots[h]) h = (h + 1) & (nslots - 1);
    slots[h] = (int32_t)id + 1;
  }
  free(l->slots);
  l->slots = slots;
  l->nslots = nslots;
}

static void grow_stack(cp_local *l) {
  size_t cap = l->capstack ? 2 * l->capstack : 16;
  l->stack = pu_realloc(l->stack, cap * sizeof *l->stack);
  l->capstack = cap;
}

/* The location's call path of region under parent; a new one gets a
   CP_PATH record. */
static int32_t local_path(cp_loc *s, int32_t parent, uint32_t region, az_time t, int opening) {
  cp_local *l = &s->l;
  int32_t last = l->last[region];
  if (last >= 0 && l->paths[last].parent == parent) return last;
  if (2 * (l->npaths + 1) > l->nslots) paths_rehash(l);
  size_t h = path_hash(parent, region, l->nslots);
  for (; l->slots[h]; h = (h + 1) & (l->nslots - 1)) {
    const cp_lpath *p = &l->paths[l->slots[h] - 1];
    if (p->parent == parent && p->region == region) return l->slots[h] - 1;
  }
  int32_t id = (int32_t)l->npaths;
  cp_lpath p = {parent, region};
  PU_PUSH(l->paths, l->npaths, l->cappaths, p);
  l->slots[h] = id + 1;
  cp_rec *r = push_rec(s, t, CP_PATH, opening);
  r->v[0] = (uint32_t)id;
  r->v[1] = (uint32_t)parent;
  r->v[2] = region;
  return id;
}

static unsigned path_flags(const cp_loc *s, int32_t path) {
  return s->st->rflags[s->l.paths[path].region];
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef region) {
  (void)lr;
  (void)al;
  cp_loc *s = u;
  cp_local *l = &s->l;
  const az_defs *d = &s->cur.a->defs;
  if (region >= d->num_regions || !d->regions[region].defined) { /* the forward pass only warned */
    az_fail(&s->cur.a->diag, "%s: event %llu: Leave of undefined region %u", s->cur.label,
            (unsigned long long)pos, region);
    s->cur.failed = 1;
    return OTF2_CALLBACK_INTERRUPT;
  }
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  int opening = event_at(l, t, 1);
  int32_t parent = l->depth ? local_top(l) : l->in_team ? CP_BASE : CP_ROOT;
  if (l->depth + 1 >= l->capstack) grow_stack(l);
  int32_t path = local_path(s, parent, region, t, opening);
  l->last[region] = path;
  l->stack[l->depth++] = path;
  unsigned f = s->st->rflags[region];
  if ((f & CPF_PARALLEL) && (l->parallel++ || (!l->in_team && !l->master)))
    limit(s, AZ_LIMIT_NESTED, t, opening);
  if (f & CPF_TASK) limit(s, AZ_LIMIT_TASKS, t, opening);
  if ((f & CPF_MPI) && !l->master) limit(s, AZ_LIMIT_MPI_THREADS, t, opening);
  if ((f & CPF_BARRIER) && l->in_team && l->parallel == 1) {
    cp_rec *r = record(s, t, CP_BAR_OPEN, opening);
    l->in_bar = 1;
    r->v[0] = l->bar_seq++;
    l->bar_depth = l->depth;
  } else if ((f & CPF_PARALLEL) && l->master && l->parallel == 1) {
    record(s, t, CP_PAR_LEAVE, opening);
  } else if ((f & (CPF_BSEND | CPF_WAIT)) && l->started) {
    /* a blocking send gives up a Wait*'s hold (its own hand-over first); a
       Wait* the one before */
    if (l->hold.on && l->hold.wait) release_send(s);
    if (!l->hold.on) hold_send(s, t, opening, (f & CPF_WAIT) != 0);
    else plain(s, t, opening);
  } else {
    plain(s, t, opening);
  }
  return az_next_back(&s->cur);
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef region) {
  (void)lr;
  (void)al;
  (void)region;
  cp_loc *s = u;
  cp_local *l = &s->l;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  int opening = event_at(l, t, 0);
  if (!l->depth) { /* the forward pass warned */
    plain(s, t, opening);
    return az_next_back(&s->cur);
  }
  unsigned ends = 0;
  if (l->hold.on && !l->hold.entered && l->depth == l->hold.depth) {
    if (l->hold.wait && l->hold.nreq) { /* its Isends are looked for */
      l->hold.entered = 1;
      az_time len = l->hold.rec.t - t;
      l->hold.span = len < UINT32_MAX - 1 ? (uint32_t)len + 1 : 0;
      if (!l->hold.span) ends = CP_ENDS_SEND;
    } else {
      wait_done(s); /* no MpiSend, no Isend completed in the call */
    }
  }
  if (l->in_bar && l->depth == l->bar_depth) ends |= CP_ENDS_BAR;
  int32_t left = l->stack[--l->depth];
  int outermost = 0;
  if ((path_flags(s, left) & CPF_PARALLEL) && l->parallel) outermost = !--l->parallel;
  if (l->coll_on && l->depth == l->coll_depth) ends |= CP_ENDS_COLL;
  if (l->recv_frame && l->depth < l->recv_frame) /* its receive call began */
    ends |= CP_ENDS_RECV | (l->recv_post ? CP_ENDS_POST : 0);
  uint64_t posted = 0; /* an Irecv's receive: its number + 1 */
  if (l->ipost.on && l->depth < l->ipost.depth) {
    l->ipost.on = 0;
    ends |= CP_ENDS_POST;
    posted = l->ipost.recv + 1;
  }
  if (outermost && !l->master) l->team_par = left;
  if (!ends && outermost && l->master) {
    record(s, t, CP_PAR_ENTER, opening)->v[0] = (uint32_t)left;
    return az_next_back(&s->cur);
  }
  if (!ends) {
    plain(s, t, opening);
    return az_next_back(&s->cur);
  }
  cp_rec *r = record(s, t, CP_ENTER, opening);
  r->v[0] = ends;
  r->w = posted;
  if (ends & CP_ENDS_BAR) l->in_bar = 0;
  if (ends & CP_ENDS_COLL) l->coll_on = 0;
  if (ends & CP_ENDS_RECV) l->recv_frame = l->recv_post = 0;
  return az_next_back(&s->cur);
}

/* How a collective hands the path over, from the kind of its region's
   collective, which the other passes read too (az_region.coll, roles.c). */
static int coll_class(const az_region *reg) {
  switch (reg->coll) {
  case AZ_COLL_BARRIER:
  case AZ_COLL_NXN:
  case AZ_COLL_IO: return COLL_NXN;
  case AZ_COLL_12N: return COLL_12N;
  case AZ_COLL_N21: return COLL_N21;
  default: return COLL_NONE;
  }
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received) {
  (void)lr;
  (void)al;
  (void)op; /* the region's kind decides (coll_class) */
  (void)sent;
  (void)received;
  cp_loc *s = u;
  cp_local *l = &s->l;
  const az_defs *d = &s->cur.a->defs;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  int opening = event_at(l, t, 1);
  int cls = l->depth ? coll_class(&d->regions[l->paths[local_top(l)].region]) : COLL_NONE;
  if (comm >= d->num_comms || !l->depth) { /* warned */
    plain(s, t, opening);
  } else if (!(path_flags(s, local_top(l)) & CPF_MPI)) {
    l->seq[comm] += root; /* collectives not recorded (pass_waits) */
    plain(s, t, opening);
  } else if (l->seq[comm]++, d->comms[comm].self || cls == COLL_NONE) {
    plain(s, t, opening);
  } else {
    cp_rec *r = record(s, t, CP_COLL, opening);
    r->v[0] = comm;
    r->v[1] = (uint32_t)cls;
    r->v[2] = cls != COLL_NXN && az_comm_world(d, comm, root, s->cur.proc) == s->cur.proc;
    r->w = l->seq[comm] - 1;
    l->coll_on = 1;
    l->coll_depth = l->depth - 1;
  }
  return az_next_back(&s->cur);
}

/* A send or receive with a peer: its record (with the peer's process), or
   a plain event when the peer is not known (the forward pass warned). */
static cp_rec *message(cp_loc *s, az_time t, int opens, uint8_t kind, uint32_t peer, uint32_t comm,
                       uint32_t tag) {
  int opening = event_at(&s->l, t, opens);
  uint32_t proc = az_comm_world(&s->cur.a->defs, comm, peer, s->cur.proc);
  if (proc == UINT32_MAX) {
    plain(s, t, opening);
    return NULL;
  }
  if (kind == CP_RECV && !s->l.master) limit(s, AZ_LIMIT_MPI_THREADS, t, opening);
  cp_local *l = &s->l;
  if (kind == CP_SEND && l->hold.on && !l->hold.wait &&
      l->depth == l->hold.depth) { /* its call's */
    l->hold.rec.v[0] = proc;
    l->hold.rec.v[1] = comm;
    l->hold.rec.v[2] = tag;
  }
  cp_rec *r = record(s, t, kind, opening);
  r->v[0] = proc;
  r->v[1] = comm;
  r->v[2] = tag;
  return r;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes) {
  (void)lr;
  (void)al;
  (void)bytes;
  cp_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  message(s, t, 0, CP_SEND, peer, comm, tag);
  return az_next_back(&s->cur);
}

/* An Isend whose request the held Wait* completed names its message: its
   receive is the channel's k+1-th when the walk reaches the Wait*, k the
   sends on the channel between (in the tail). */
static void name_isend(cp_local *l, uint64_t req, const uint32_t v[3]) {
  for (uint32_t i = 0; i < l->hold.nreq; i++) {
    if (l->hold.req[i] != req || l->hold.msg[i][0] != CP_NO_PEER) continue;
    uint32_t k = 0;
    for (size_t j = 0; j < l->hold.ntail; j++) {
      const cp_rec *o = &l->hold.tail[j];
      k += o->kind == CP_SEND && !memcmp(o->v, v, sizeof o->v);
    }
    memcpy(l->hold.msg[i], v, 3 * sizeof *v);
    l->hold.msg[i][3] = k;
    l->hold.named++;
    return;
  }
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes, uint64_t req) {
  (void)lr, (void)al, (void)bytes;
  cp_loc *s = u;
  cp_local *l = &s->l;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  if (l->hold.on && l->hold.wait && l->hold.entered) { /* named before its record is written */
    uint32_t proc = az_comm_world(&s->cur.a->defs, comm, peer, s->cur.proc);
    if (proc != UINT32_MAX) {
      uint32_t v[3] = {proc, comm, tag};
      name_isend(l, req, v);
      if (l->hold.named == l->hold.nreq) release_send(s); /* the Isend's record after the tail */
    }
  }
  message(s, t, 0, CP_SEND, peer, comm, tag);
  return az_next_back(&s->cur);
}

/* MpiIsendComplete in the held Wait*: an Isend to look for. */
static OTF2_CallbackCode on_isend_complete(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos,
                                           void *u, OTF2_AttributeList *al, uint64_t req) {
  (void)lr, (void)al;
  cp_loc *s = u;
  cp_local *l = &s->l;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  if (l->hold.on && l->hold.wait && !l->hold.entered && l->depth == l->hold.depth &&
      l->hold.nreq < CP_WAIT_SENDS) {
    l->hold.req[l->hold.nreq] = req;
    l->hold.msg[l->hold.nreq][0] = CP_NO_PEER;
    l->hold.nreq++;
  }
  return az_next_back(&s->cur);
}

/* A receive completed by the call (blocking: posted by it too). */
static OTF2_CallbackCode receive(void *u, az_time t, uint64_t pos, uint32_t peer, uint32_t comm,
                                 uint32_t tag, int blocking, uint64_t req) {
  cp_loc *s = u;
  cp_local *l = &s->l;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  if (!message(s, t, 1, CP_RECV, peer, comm, tag)) return az_next_back(&s->cur);
  if (!blocking) { /* its MPI_Irecv, read later, posted it */
    pu_reserve((void **)&l->ireq.v, &l->ireq.cap, l->ireq.n + 2, sizeof *l->ireq.v);
    l->ireq.v[l->ireq.n++] = req;
    l->ireq.v[l->ireq.n++] = l->recvs;
  }
  l->recvs++;
  if (!l->recv_frame) {
    l->recv_frame = l->depth;
    l->recv_post = blocking;
  }
  return az_next_back(&s->cur);
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes) {
  (void)lr, (void)al, (void)bytes;
  return receive(u, t, pos, peer, comm, tag, 1, 0);
}

/* the completion of a non-blocking receive (in MPI_Wait & co.) */
static OTF2_CallbackCode on_irecv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes, uint64_t req) {
  (void)l, (void)al, (void)bytes;
  return receive(u, t, pos, peer, comm, tag, 0, req);
}

/* MpiIrecvRequest: the MPI_Irecv around it posted the receive of the
   completion met with this request (an Irecv never completed, or
   cancelled, has none). */
static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos,
                                          void *u, OTF2_AttributeList *al, uint64_t req) {
  (void)lr, (void)al;
  cp_loc *s = u;
  cp_local *l = &s->l;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  for (size_t i = l->ireq.n; i >= 2 && l->depth; i -= 2)
    if (l->ireq.v[i - 2] == req) {
      l->ipost.on = 1;
      l->ipost.depth = l->depth;
      l->ipost.recv = l->ireq.v[i - 1];
      l->ireq.v[i - 2] = l->ireq.v[l->ireq.n - 2];
      l->ireq.v[i - 1] = l->ireq.v[l->ireq.n - 1];
      l->ireq.n -= 2;
      break;
    }
  return az_next_back(&s->cur);
}

/* A join, team end or team begin (kind): a record, and the location's
   team membership. */
static OTF2_CallbackCode thread_event(void *u, az_time t, uint64_t pos, uint8_t kind, int opens) {
  cp_loc *s = u;
  cp_local *l = &s->l;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  int opening = event_at(l, t, opens);
  cp_rec *r = record(s, t, kind, opening);
  if (kind == CP_TEAM_END) { /* read backwards, a team instance starts */
    if (l->in_team) limit(s, AZ_LIMIT_NESTED, t, opening);
    l->in_team = 1;
    l->bar_seq = 0;
    l->team_par = -1;
  } else if (kind == CP_TEAM_BEGIN) {
    l->in_team = 0;
    r->v[0] = (uint32_t)(l->team_par + 1);
  }
  return az_next_back(&s->cur);
}

/* The master's fork: the end of its fork time, backwards. */
static OTF2_CallbackCode on_fork(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_Paradigm model, uint32_t threads) {
  (void)lr;
  (void)al;
  (void)model;
  (void)threads;
  cp_loc *s = u;
  if (s->l.master) return thread_event(u, t, pos, CP_FORK, 0);
  az_cursor_at_back(&s->cur, &t, pos); /* a fork off the master: the model's limits */
  return az_next_back(&s->cur);
}

static OTF2_CallbackCode on_join(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_Paradigm model) {
  (void)lr;
  (void)al;
  (void)model;
  return thread_event(u, t, pos, CP_JOIN, 1);
}

static OTF2_CallbackCode on_team_end(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)lr;
  (void)al;
  (void)team;
  return thread_event(u, t, pos, CP_TEAM_END, 0);
}

static OTF2_CallbackCode on_team_begin(OTF2_LocationRef lr, OTF2_TimeStamp t, uint64_t pos, void *u,
                                       OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)lr;
  (void)al;
  (void)team;
  return thread_event(u, t, pos, CP_TEAM_BEGIN, 0);
}

/* ---- the walk ------------------------------------------------------------ */

static uint32_t master_of(const cp_state *st, const cp_loc *s) {
  return st->a->defs.procs[s->cur.proc].first_loc;
}

/* A call path of the location as a node of the call tree (made when new,
   as the forward pass made it). */
static int32_t resolve(cp_state *st, cp_walker *w, int32_t path) {
  if (path < 0) return -1;
  if (w->cnode[path] != CP_UNRESOLVED) return w->cnode[path];
  int32_t parent = w->paths[path].parent;
  int32_t pnode = parent == CP_ROOT ? -1 : parent == CP_BASE ? w->base : resolve(st, w, parent);
  w->cnode[path] = az_calltree_child(st->calltree, pnode, (int32_t)w->paths[path].region);
  return w->cnode[path];
}

static void define_path(cp_state *st, cp_walker *w, const cp_rec *r) {
  size_t cap = w->cappaths;
  cp_lpath p = {(int32_t)r->v[1], r->v[2]};
  PU_PUSH(w->paths, w->npaths, w->cappaths, p);
  if (w->cappaths != cap) w->cnode = pu_realloc(w->cnode, w->cappaths * sizeof *w->cnode);
  w->cnode[w->npaths - 1] = CP_UNRESOLVED;
  resolve(st, w, (int32_t)r->v[0]);
}

/* A worker's base changed: its call paths under it are made again. */
static void rebase(cp_walker *w, int32_t base) {
  if (w->base == base) return;
  w->base = base;
  for (size_t i = 0; i < w->npaths; i++) w->cnode[i] = CP_UNRESOLVED;
}

/* Time on the path (charge_hook, the forward pass's, is never set in a
   backward pass). */
static void charge(cp_state *st, uint32_t loc, int32_t cnode, int64_t v) {
  az_cell(&st->cells[loc], cnode)[AZ_CRITICAL_PATH] += v;
}

/* The path on location h (its holder) goes back to time t: the time since
   it got there is h's, on its innermost call path (the parallel region
   in the master's fork and join time).  Times beyond
   INT64_MAX (a damaged trace) count as INT64_MAX: the path only goes
   back, so its charges add up to INT64_MAX at most. */
static void charge_to(cp_state *st, cp_loc *h, az_time t) {
  if (st->path_t <= t) return; /* the path never goes forward */
  az_time from = st->path_t < INT64_MAX ? st->path_t : INT64_MAX;
  az_time to = t < INT64_MAX ? t : INT64_MAX;
  int32_t path = h->w.fork_path >= 0 ? h->w.fork_path : h->w.top;
  if (h->w.join_open && from > to) h->w.join_time += (int64_t)(from - to);
  else if (path >= 0 && from > to)
    charge(st, h->cur.loc, resolve(st, &h->w, path), (int64_t)(from - to));
  st->path_t = t;
}

/* Walks location s's steps up to step number `end` (not included): the
   holder's are charged one by one, as its events; another location's are
   passed over (its record after them gives its call path). */
static void replay(cp_state *st, cp_loc *s, uint64_t end) {
  cp_walker *w = &s->w;
  if (end <= w->step_next) return;
  if (st->holder != (int64_t)s->cur.loc) { /* only at its record, which sets its call path */
    w->step_next = end;
    return;
  }
  for (; w->step_next < end; w->step_next++) {
    const cp_step *p = &s->log[w->step_next - s->log_base];
    charge_to(st, s, p->t);
    w->top = p->top;
  }
}

/* The number of s's first step earlier than t, or of the first after its
   next record not walked: the steps the path passes going back to t. */
static uint64_t steps_until(const cp_loc *s, az_time t) {
  uint64_t end = s->next < s->n ? s->buf[s->next].steps : s->log_base + s->nlog;
  uint64_t i = s->w.step_next;
  while (i < end && s->log[i - s->log_base].t >= t) i++;
  return i;
}

/* The path goes back to time t on its holder. */
static void advance(cp_state *st, az_time t) {
  if (st->holder < 0) return;
  cp_loc *h = st->locs[st->holder];
  replay(st, h, steps_until(h, t));
  charge_to(st, h, t);
}

/* The wait of the holder ended at t, when location `to` arrived.  The
   steps of `to` later than t that it has not walked yet move no time
   (the path comes at t): replay charges nothing for them. */
static void move_to(cp_state *st, uint32_t to, az_time t) {
  advance(st, t);
  st->holder = to;
}

/* An OpenMP barrier's first enter met backwards is the thread that came
   last: a holder waiting in that barrier moves to it. */
static void barrier_arrival(cp_state *st, cp_loc *s, az_time t) {
  cp_proc *p = &st->procs[s->cur.proc];
  uint32_t b = s->w.bar_b;
  s->w.in_bar = 0;
  if (b < p->bars_entered) return;
  p->bars_entered = b + 1;
  if (st->holder < 0 || (uint32_t)st->holder == s->cur.loc) return;
  const cp_loc *h = st->locs[st->holder];
  if (h->cur.proc == s->cur.proc && h->w.in_bar && h->w.bar_b == b) move_to(st, s->cur.loc, t);
}

/* The first enter met backwards that the others of the instance waited
   for: the last member (barrier, N x N), the root (1-to-N), the last
   non-root (N-to-1, only the root waits). */
static void coll_arrival(cp_state *st, cp_loc *s, az_time t) {
  int cls = s->w.coll.cls;
  s->w.coll.on = 0;
  if (cls == COLL_12N && !s->w.coll.root_me) return;
  if (cls == COLL_N21 && s->w.coll.root_me) return;
  uint32_t comm = s->w.coll.comm;
  if (s->w.coll.seq < st->entered[comm]) return;
  st->entered[comm] = s->w.coll.seq + 1;
  if (st->holder < 0 || (uint32_t)st->holder == s->cur.loc) return;
  const cp_walker *h = &st->locs[st->holder]->w;
  if (h->coll.on && h->coll.comm == comm && h->coll.seq == s->w.coll.seq &&
      (cls != COLL_N21 || h->coll.root_me))
    move_to(st, s->cur.loc, t);
}

static cp_channel *channel(cp_state *st, uint32_t src, uint32_t dst, uint32_t comm, uint32_t tag);

/* A Late Receiver: the Enter at t of s's call posted receive number
   `recv` (blocking, or MPI_Irecv), which the holder, inside a blocking
   send call (or an MPI_Wait* completing Isends) since before t and still
   in it after t, waits for (one of its messages' channel has this receive
   first, or k+1-th with k sends between the Isend and the Wait*: the send
   will take it, walk_send).  The sender's wait ended when the receiver came: the path
   moves to the receiver, as Scalasca's does (its send completion to the
   receive request). */
static void walk_post(cp_state *st, cp_loc *s, az_time t, uint64_t recv) {
  if (st->holder < 0 || (uint32_t)st->holder == s->cur.loc) return;
  const cp_loc *h = st->locs[st->holder];
  if (!h->w.send.on || !(t < h->w.send.x) || !(t > h->w.send.enter)) return;
  for (uint32_t i = 0; i < h->w.send.n; i++) {
    if (h->w.send.m[i].dst != s->cur.proc) continue;
    const cp_channel *c =
        channel(st, h->cur.proc, s->cur.proc, h->w.send.m[i].comm, h->w.send.m[i].tag);
    size_t k = h->w.send.m[i].k;
    if (c->len > k && !c->sends_ahead && c->q[c->head + k].loc == s->cur.loc &&
        c->q[c->head + k].recv == recv) {
      move_to(st, s->cur.loc, t);
      return;
    }
  }
}

/* A blocking send's or Wait*'s leave: its messages (several records of
   one call at its leave's time). */
static void walk_send_leave(cp_walker *w, const cp_rec *r) {
  if (!w->send.on || w->send.x != r->t) w->send.n = 0;
  if (r->v[0] != CP_NO_PEER && w->send.n < CP_WAIT_SENDS) {
    w->send.m[w->send.n].dst = r->v[0];
    w->send.m[w->send.n].comm = r->v[1];
    w->send.m[w->send.n].tag = r->v[2];
    w->send.m[w->send.n].k = (uint32_t)r->w;
    w->send.n++;
  }
  uint32_t span = (uint32_t)(r->w >> 32);
  w->send.on = w->send.n > 0;
  w->send.x = r->t;
  w->send.enter = span ? r->t - (span - 1) : 0;
}

static void walk_enter(cp_state *st, cp_loc *s, const cp_rec *r) {
  if (r->v[0] & CP_ENDS_BAR) barrier_arrival(st, s, r->t);
  if (r->v[0] & CP_ENDS_COLL) coll_arrival(st, s, r->t);
  if (r->v[0] & CP_ENDS_POST) walk_post(st, s, r->t, r->w ? r->w - 1 : s->w.recvs - 1);
  if (r->v[0] & CP_ENDS_SEND) s->w.send.on = 0; /* the Wait* began */
  if (r->v[0] & CP_ENDS_RECV) {
    s->w.recv_gen++;
    s->w.recv_frame = 0;
  }
}

static void walk_coll(cp_walker *w, const cp_rec *r) {
  w->coll.on = 1;
  w->coll.comm = r->v[0];
  w->coll.cls = (int)r->v[1];
  w->coll.root_me = (int)r->v[2];
  w->coll.seq = r->w;
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
  s->w.recvs++;
  cp_channel *c = channel(st, r->v[0], s->cur.proc, r->v[1], r->v[2]);
  s->w.recv_frame = 1;
  if (c->sends_ahead) {
    c->sends_ahead--;
    return;
  }
  if (c->head + c->len == c->cap && c->head) {
    memmove(c->q, c->q + c->head, c->len * sizeof *c->q);
    c->head = 0;
  }
  size_t end = c->head + c->len;
  cp_recv q = {s->cur.loc, s->w.recv_gen, s->w.recvs - 1};
  PU_PUSH(c->q, end, c->cap, q);
  c->len++;
}

/* A Late Sender: the receiver holding the path is still in the receive
   call (entered before this send): the path moves to the sender. */
static void walk_send(cp_state *st, cp_loc *s, const cp_rec *r) {
  cp_channel *c = channel(st, s->cur.proc, r->v[0], r->v[1], r->v[2]);
  if (!c->len) {
    c->sends_ahead++;
    return;
  }
  cp_recv q = c->q[c->head++];
  if (!--c->len) c->head = 0;
  const cp_walker *rw = &st->locs[q.loc]->w;
  if (st->holder == (int64_t)q.loc && rw->recv_gen == q.gen && rw->recv_frame)
    move_to(st, s->cur.loc, r->t);
}

/* The master's join: the last thread to end its part of the team made it
   wait. */
static void walk_join(cp_state *st, cp_loc *s) {
  cp_proc *p = &st->procs[s->cur.proc];
  p->worker_base = resolve(st, &s->w, s->w.top);
  p->bars_entered = 0;
  p->team_ended = 0;
  s->w.in_join = 1;
}

static void walk_team_end(cp_state *st, cp_loc *s, az_time t) {
  cp_proc *p = &st->procs[s->cur.proc];
  uint32_t master = master_of(st, s);
  rebase(&s->w, p->worker_base);
  if (!p->team_ended) {
    p->team_ended = 1;
    if (st->holder == (int64_t)master && st->locs[master]->w.in_join && s->cur.loc != master)
      move_to(st, s->cur.loc, t);
  }
  if (s->cur.loc == master) s->w.in_join = 0;
}

/* The master's join time held back since its join goes to path (the
   parallel region; or, where none came, the call path around it). */
static void join_close(cp_state *st, cp_loc *s, int32_t path) {
  if (!s->w.join_open) return;
  s->w.join_open = 0;
  if (s->w.join_time > 0 && path >= 0)
    charge(st, s->cur.loc, resolve(st, &s->w, path), s->w.join_time);
  s->w.join_time = 0;
}

/* The master's fork and join around its parallel regions (cp_walker). */
static void walk_fork_join(cp_state *st, cp_loc *s, const cp_rec *r) {
  switch (r->kind) {
  case CP_JOIN:
    join_close(st, s, r->top);
    s->w.join_open = 1;
    break;
  case CP_PAR_LEAVE: join_close(st, s, r->top); break;
  case CP_PAR_ENTER:
    join_close(st, s, r->top);
    s->w.fork_path = (int32_t)r->v[0];
    break;
  default: /* CP_FORK */
    join_close(st, s, r->top);
    s->w.fork_path = -1;
    break;
  }
}

/* A worker's start: the master forked it.  The worker keeps the path
   back to the fork, its time since then (its omp_management) on its
   parallel region, as Scalasca's (its timeline starts at the fork); the
   master's fork record hands the path over (walk_fork). */
static void walk_team_begin(cp_state *st, cp_loc *s, const cp_rec *r) {
  uint32_t master = master_of(st, s);
  if (s->cur.loc == master || st->holder != (int64_t)s->cur.loc || !st->locs[master]) return;
  const cp_proc *p = &st->procs[s->cur.proc];
  if (p->fork_met && p->fork_t == r->t) { /* the fork came first, at the same time */
    move_to(st, master, r->t);
    return;
  }
  s->w.fork_path = (int32_t)r->v[0] - 1;
  st->procs[s->cur.proc].forked = st->holder;
}

/* The master's fork: a worker holding the path since its start gives it
   to the master here. */
static void walk_fork(cp_state *st, cp_loc *s, az_time t) {
  cp_proc *p = &st->procs[s->cur.proc];
  p->fork_met = 1;
  p->fork_t = t;
  if (p->forked < 0) return;
  cp_loc *w = st->locs[p->forked];
  p->forked = -1;
  if (st->holder != (int64_t)w->cur.loc) return;
  charge_to(st, w, t);
  w->w.fork_path = -1;
  st->holder = s->cur.loc;
}

static void walk(cp_state *st, cp_loc *s, const cp_rec *r) {
  if (st->holder < 0) { /* the latest event of the run: the path starts */
    st->holder = s->cur.loc;
    st->path_t = r->t;
  }
  if (r->kind == CP_PATH) {
    define_path(st, &s->w, r);
    return;
  }
  if (r->kind == CP_LIMIT) {
    st->limits |= r->v[0];
    return;
  }
  if (st->holder == (int64_t)s->cur.loc) {
    replay(st, s, r->steps);
    charge_to(st, s, r->t);
  } else if (r->steps > s->w.step_next) /* replay's pass over another's steps, inline */
    s->w.step_next = r->steps;
  s->w.top = r->top;
  switch (r->kind) {
  case CP_BAR_OPEN:
    s->w.in_bar = 1;
    s->w.bar_b = r->v[0];
    break;
  case CP_ENTER: walk_enter(st, s, r); break;
  case CP_COLL: walk_coll(&s->w, r); break;
  case CP_RECV: walk_recv(st, s, r); break;
  case CP_SEND_LEAVE: walk_send_leave(&s->w, r); break;
  case CP_SEND:
    s->w.send.on = 0; /* its call began (at most this long before) */
    walk_send(st, s, r);
    break;
  case CP_JOIN:
    walk_join(st, s);
    walk_fork_join(st, s, r);
    break;
  case CP_PAR_LEAVE:
  case CP_PAR_ENTER: walk_fork_join(st, s, r); break;
  case CP_FORK:
    walk_fork_join(st, s, r);
    walk_fork(st, s, r->t);
    break;
  case CP_TEAM_END: walk_team_end(st, s, r->t); break;
  case CP_TEAM_BEGIN: walk_team_begin(st, s, r); break;
  default: break; /* CP_START */
  }
}

/* ---- the merge of a window's records, latest first ----------------------- */

/* The location's next record's key; the one after it is fetched into the
   cache meanwhile (the records of a window were written long before:
   without it the merge waits for memory at each record). */
static inline cp_key head_key(const cp_state *st, const cp_loc *s, uint32_t slot) {
  const cp_rec *r = &s->buf[s->next];
  if (s->next + 6 < s->n) __builtin_prefetch(r + 6);
  cp_key t = r->t >= st->key_base ? r->t - st->key_base + 1 : 0;
  return (t << st->tie_bits | st->tie[2 * slot + (r->opening != 0)]) + 1;
}

/* Slot `slot` holds location loc's records: its ties (larger first at
   equal times: the opening kinds, then the lower location). */
static void slot_ties(cp_state *st, uint32_t slot, uint32_t loc) {
  cp_key mask = ((cp_key)1 << st->tie_bits) - 1;
  st->tie[2 * slot] = ~((cp_key)1 << (st->tie_bits - 1) | loc) & mask;
  st->tie[2 * slot + 1] = ~(cp_key)loc & mask;
}

/* The tournament of k slots (leaf i is node k + i, node n's parent n / 2):
   each inner node keeps the loser of its match, tree[0] the winner.  A
   loser tree and not a heap: a new record of the winner's location plays
   one match per level on its way up (a heap's sift compares both
   children), without branches (the order of the locations' records is
   not predictable). */
static void build_tree(cp_state *st, size_t k) {
  uint32_t *win = st->win;
  for (size_t i = 0; i < k; i++) win[k + i] = (uint32_t)i;
  for (size_t n = k - 1; n >= 1; n--) {
    uint32_t x = win[2 * n], y = win[2 * n + 1];
    int x_first = st->key[x] > st->key[y];
    win[n] = x_first ? x : y;
    st->tree[n] = x_first ? y : x;
  }
  st->tree[0] = win[1];
}

/* Slot w, the last winner, has a new key: its matches on the way up. */
static inline void rematch(cp_state *st, size_t k, uint32_t w) {
  cp_key kw = st->key[w];
  for (size_t n = (k + w) / 2; n > 0; n /= 2) {
    uint32_t l = st->tree[n];
    cp_key kl = st->key[l];
    int l_first = kl > kw;
    st->tree[n] = l_first ? w : l;
    w = l_first ? l : w;
    kw = l_first ? kl : kw;
  }
  st->tree[0] = w;
}

/* The key of the runner-up when slot w won: the latest of those w beat on
   its way up (the runner-up lost to w only); 0 when w is alone.  Keys of
   different slots differ (the location is in the key), so w wins again
   exactly while its key is above this one. */
static inline cp_key runner_up(const cp_state *st, size_t k, uint32_t w) {
  cp_key best = 0;
  for (size_t n = (k + w) / 2; n > 0; n /= 2) {
    cp_key kl = st->key[st->tree[n]];
    best = kl > best ? kl : best;
  }
  return best;
}

/* Walks slot w's records (location s) while they stay later than key
   `next`, and keeps the key of the first that does not (0: none left).
   A record whose time is beyond next's is later whatever its order at
   equal times: its key is made only where the times may tie (a run's
   records cost a time comparison each, not a key). */
static inline void walk_run(cp_state *st, cp_loc *s, uint32_t w, cp_key next) {
  /* key - 1 >= next <=> key > next; next's time (at least 1: next is at
     least the slice's until) as a time of the trace */
  const az_time next_t = (next >> st->tie_bits) + st->key_base - 1;
  for (;;) {
    walk(st, s, &s->buf[s->next++]);
    if (s->next == s->n) {
      st->key[w] = 0;
      return;
    }
    const cp_rec *r = &s->buf[s->next];
    if (r->t > next_t) {
      if (s->next + 6 < s->n) __builtin_prefetch(r + 6);
      continue;
    }
    st->key[w] = head_key(st, s, w);
    if (st->key[w] <= next) return;
  }
}

/* After the records later than bound: s's steps later than bound are
   walked too, so that a location without records for long (a serial
   phase) keeps no more than a window of steps.  Its next records and the
   path's moves are at bound or earlier: the holder's steps are charged as
   they would be then, and another's move no time when the path comes to
   it later (only the call path after them counts). */
static void pass_steps(cp_state *st, cp_loc *s, az_time bound) {
  uint64_t end = s->w.step_next, all = s->log_base + s->nlog;
  while (end < all && s->log[end - s->log_base].t > bound) end++;
  if (end == s->w.step_next) return;
  if (st->holder == (int64_t)s->cur.loc) {
    replay(st, s, end);
    return;
  }
  s->w.top = s->log[end - 1 - s->log_base].top;
  s->w.step_next = end;
}

/* What the walk is done with leaves the location's buffers. */
static void drop_walked(cp_loc *s) {
  if (s->next) {
    memmove(s->buf, s->buf + s->next, (s->n - s->next) * sizeof *s->buf);
    s->n -= s->next;
    s->next = 0;
  }
  size_t walked = (size_t)(s->w.step_next - s->log_base);
  if (walked) {
    memmove(s->log, s->log + walked, (s->nlog - walked) * sizeof *s->log);
    s->nlog -= walked;
    s->log_base = s->w.step_next;
  }
}

/* Merges the kept records at `lo` or later, latest first, as far as a
   key reaches below the latest of them (cp_state.key_span; the whole
   window but in a trace of years of ticks or millions of locations): 1
   when records at lo or later are left for another slice. */
static int merge_slice(cp_state *st, az_time lo) {
  const az_defs *d = &st->a->defs;
  size_t k = 0;
  az_time latest = 0;
  for (uint32_t l = 0; l < d->num_locs; l++)
    if (st->locs[l] && st->locs[l]->next < st->locs[l]->n) {
      const cp_loc *s = st->locs[l];
      if (s->buf[s->next].t > latest) latest = s->buf[s->next].t;
      slot_ties(st, (uint32_t)k, l);
      st->slot_loc[k++] = l;
    }
  if (!k || latest < lo) return 0;
  st->key_base = latest - lo > st->key_span ? latest - st->key_span : lo;
  for (size_t i = 0; i < k; i++) st->key[i] = head_key(st, st->locs[st->slot_loc[i]], (uint32_t)i);
  /* the keys of the records before key_base are at most this one */
  const cp_key until = (cp_key)1 << st->tie_bits;
  build_tree(st, k);
  while (st->key[st->tree[0]] > until) {
    uint32_t w = st->tree[0];
    cp_loc *s = st->locs[st->slot_loc[w]];
    /* the winner's records while they stay later than every other's, no
       match played (runs of one location's records are common) */
    cp_key next = runner_up(st, k, w);
    if (next < until) next = until;
    walk_run(st, s, w, next);
    rematch(st, k, w);
  }
  return st->key_base > lo;
}

/* Merges the kept records later than `bound` (all with bound 0 and
   every location done), latest first; the rest stays kept. */
static void merge_after(cp_state *st, az_time bound, int all) {
  const az_defs *d = &st->a->defs;
  if (all || bound < UINT64_MAX)
    while (merge_slice(st, all ? 0 : bound + 1)) continue;
  for (uint32_t l = 0; l < d->num_locs; l++) {
    if (!st->locs[l]) continue;
    if (!all) pass_steps(st, st->locs[l], bound);
    drop_walked(st->locs[l]);
  }
}

/* After a window: a location's later records are no later than the last
   one it delivered, but a window's first record of a location may be
   later than records of others in the window before (the forward window
   it comes from ended with the first event at or after its end).  So
   only what is later than every location still reading is merged. */
static az_time window_bound(const cp_state *st) {
  const az_defs *d = &st->a->defs;
  az_time bound = 0;
  for (uint32_t l = 0; l < d->num_locs; l++) {
    const cp_loc *s = st->locs[l];
    if (s && !s->cur.done && s->cur.last > bound) bound = s->cur.last;
    if (s && s->l.hold.on && s->l.hold.rec.t > bound) bound = s->l.hold.rec.t; /* not yet named */
  }
  return bound;
}

/* ---- the pass ------------------------------------------------------------ */

/* A blocking send call (MPI_Send, _Ssend, _Bsend, _Rsend, _Sendrecv and
   _Sendrecv_replace, and their _c twins): one that may wait for its
   receiver (Late Receiver, p2p.c). */
static int blocking_send(const az_region *reg) {
  const char *n = reg->name;
  if (reg->paradigm != OTF2_PARADIGM_MPI || !n || strncasecmp(n, "MPI_", 4)) return 0;
  n += 4;
  if (strchr("sbrSBR", *n) && !strncasecmp(n + 1, "send", 4)) n++;
  return !strncasecmp(n, "send", 4) &&
         (!n[4] || !strncasecmp(n + 4, "recv", 4) || !strcasecmp(n + 4, "_c"));
}

/* MPI_Wait, _Waitall, _Waitany, _Waitsome: the calls whose Isend
   completions may wait for their receivers (Late Receiver; MPI_Test*
   ones do not, p2p.c). */
static int wait_call(const az_region *reg) {
  const char *n = reg->name;
  if (reg->paradigm != OTF2_PARADIGM_MPI || !n || strncasecmp(n, "MPI_Wait", 8)) return 0;
  n += 8;
  return !*n || !strcasecmp(n, "all") || !strcasecmp(n, "any") || !strcasecmp(n, "some");
}

static uint8_t *region_flags(const az_defs *d) {
  uint8_t *f = pu_calloc(d->num_regions ? d->num_regions : 1, 1);
  for (size_t i = 0; i < d->num_regions; i++) {
    const az_region *reg = &d->regions[i];
    if (reg->kind == AZ_RK_PARALLEL) f[i] |= CPF_PARALLEL;
    if (reg->role == OTF2_REGION_ROLE_TASK || reg->role == OTF2_REGION_ROLE_TASK_CREATE ||
        reg->role == OTF2_REGION_ROLE_TASK_UNTIED)
      f[i] |= CPF_TASK;
    if (reg->paradigm == OTF2_PARADIGM_MPI) f[i] |= CPF_MPI;
    if (reg->kind == AZ_RK_EBARRIER || reg->kind == AZ_RK_IBARRIER) f[i] |= CPF_BARRIER;
    if (blocking_send(reg)) f[i] |= CPF_BSEND;
    if (wait_call(reg)) f[i] |= CPF_WAIT;
  }
  return f;
}

static cp_state *state_new(az_analysis *a) {
  const az_defs *d = &a->defs;
  cp_state *st = pu_calloc(1, sizeof *st);
  st->a = a;
  st->calltree = &a->tree;
  st->cells = a->cells;
  st->holder = -1;
  st->locs = pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *st->locs);
  size_t nl = d->num_locs ? d->num_locs : 1;
  st->key = pu_calloc(nl, sizeof *st->key);
  st->slot_loc = pu_calloc(nl, sizeof *st->slot_loc);
  st->tree = pu_calloc(nl, sizeof *st->tree);
  st->win = pu_calloc(2 * nl, sizeof *st->win);
  st->tie = pu_calloc(2 * nl, sizeof *st->tie);
  st->tie_bits = 1; /* the opening bit, then the bits of the largest location index */
  while (st->tie_bits <= 32 && (nl - 1) >> (st->tie_bits - 1)) st->tie_bits++;
  st->key_span = ((az_time)1 << (63 - st->tie_bits)) - 2;
  st->entered = pu_calloc(d->num_comms ? d->num_comms : 1, sizeof *st->entered);
  st->procs = pu_calloc(d->num_procs ? d->num_procs : 1, sizeof *st->procs);
  for (size_t p = 0; p < d->num_procs; p++) {
    st->procs[p].worker_base = -1;
    st->procs[p].forked = -1;
  }
  st->nchannels = 1024;
  st->channels = pu_calloc(st->nchannels, sizeof *st->channels);
  st->rflags = region_flags(d);
  return st;
}

/* Location s of st, for the walk. */
static void walker_init(cp_state *st, cp_loc *s) {
  s->st = st;
  s->w.top = -1;
  s->w.base = -1;
  s->w.fork_path = -1;
  st->locs[s->cur.loc] = s;
}

static void critical_begin(az_replay *r) {
  const az_defs *d = &r->a->defs;
  cp_state *st = state_new(r->a);
  r->data = st;
  st->link = r->a->critical_link;
  if (st->link) {
    st->link->state = st;
    st->link->ended = 0;
    st->parts = pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *st->parts);
  }
  for (uint32_t l = 0; l < d->num_locs; l++) {
    cp_loc *s = (cp_loc *)az_replay_loc(r, l);
    if (!s->cur.a) continue;
    walker_init(st, s);
    s->l.master = s->cur.loc == master_of(st, s);
    s->l.team_par = -1;
    s->l.seq = pu_calloc(d->num_comms ? d->num_comms : 1, sizeof *s->l.seq);
    s->l.last = pu_malloc((d->num_regions ? d->num_regions : 1) * sizeof *s->l.last);
    memset(s->l.last, 0xff, (d->num_regions ? d->num_regions : 1) * sizeof *s->l.last);
  }
}

static void critical_window(az_replay *r, az_time stop) {
  (void)stop;
  cp_state *st = r->data;
  if (!st->link) merge_after(st, window_bound(st), 0); /* else az_critical_exchange */
}

/* The first stage's arrays of every location here to the link; they are
   emptied (the numbers of the steps go on: a record counts its steps
   from the location's first). */
static void ship(cp_state *st, enum az_cp_ship what) {
  const az_defs *d = &st->a->defs;
  for (uint32_t l = 0; l < d->num_locs; l++) {
    cp_loc *s = st->locs[l];
    int empty = !s || what == AZ_CP_FAILED;
    st->parts[l] = empty ? (az_cp_part){NULL, NULL, 0, 0, 0, 0}
                         : (az_cp_part){s->buf,
                                        s->log,
                                        s->n * sizeof *s->buf,
                                        s->nlog * sizeof *s->log,
                                        s->cap * sizeof *s->buf,
                                        s->caplog * sizeof *s->log};
  }
  st->link->ship(st->a, st->parts, what == AZ_CP_WINDOW ? window_bound(st) : 0, what);
  for (uint32_t l = 0; l < d->num_locs; l++) {
    cp_loc *s = st->locs[l];
    if (!s) continue;
    if (st->link->swaps && what != AZ_CP_FAILED) { /* the link's arrays now */
      s->buf = st->parts[l].recs;
      s->cap = st->parts[l].rec_room / sizeof *s->buf;
      s->log = st->parts[l].steps;
      s->caplog = st->parts[l].step_room / sizeof *s->log;
    }
    s->n = 0;
    s->log_base += s->nlog;
    s->nlog = 0;
  }
}

void az_critical_exchange(az_analysis *a, int last) {
  if (!last) ship(a->critical_link->state, AZ_CP_WINDOW);
}

void az_critical_derive(az_analysis *a, unsigned limits) {
  az_critical_impact(a);
  if (limits) az_critical_limits(a, limits);
}

static void loc_free(cp_loc *s) {
  free(s->buf);
  free(s->log);
  free(s->l.stack);
  free(s->l.last);
  free(s->l.paths);
  free(s->l.slots);
  free(s->l.seq);
  free(s->l.ireq.v);
  free(s->l.hold.tail);
  free(s->w.paths);
  free(s->w.cnode);
}

static void state_free(cp_state *st) {
  for (uint32_t l = 0; l < st->a->defs.num_locs; l++)
    if (st->locs[l]) loc_free(st->locs[l]);
  for (size_t h = 0; h < st->nchannels; h++)
    for (cp_channel *c = st->channels[h], *next; c; c = next) {
      next = c->next;
      free(c->q);
      free(c);
    }
  free(st->channels);
  free(st->rflags);
  free(st->procs);
  free(st->entered);
  free(st->key);
  free(st->tie);
  free(st->slot_loc);
  free(st->tree);
  free(st->win);
  free(st->locs);
  free(st->parts);
  free(st->own);
  free(st);
}

/* The rest of the walk; frees its state.  Returns the model's limits it
   met (AZ_LIMIT_* bits). */
static unsigned walk_end(cp_state *st, int ok) {
  if (ok) merge_after(st, 0, 1);
  if (ok && st->holder >= 0) { /* the holder's earliest events */
    cp_loc *h = st->locs[st->holder];
    replay(st, h, h->log_base + h->nlog);
  }
  for (size_t l = 0; ok && l < st->a->defs.num_locs; l++) /* a join whose region was cut off */
    if (st->locs[l]) join_close(st, st->locs[l], st->locs[l]->w.top);
  unsigned limits = st->limits;
  state_free(st);
  return limits;
}

static void critical_end(az_replay *r, int ok) {
  cp_state *st = r->data;
  for (uint32_t l = 0; l < r->a->defs.num_locs; l++) /* a send call whose Enter was cut off */
    if (st->locs[l] && st->locs[l]->l.hold.on) release_send(st->locs[l]);
  if (st->link) { /* the walk is elsewhere */
    ship(st, ok ? AZ_CP_LAST : AZ_CP_FAILED);
    st->link->ended = 1;
    st->link->state = NULL;
    state_free(st);
    return;
  }
  unsigned limits = walk_end(st, ok);
  if (ok) az_critical_derive(r->a, limits);
}

/* ---- the second stage alone (a parallel analysis) ------------------------ */

az_cp_walker *az_cp_walker_new(az_analysis *a) {
  const az_defs *d = &a->defs;
  az_cp_walker *w = pu_calloc(1, sizeof *w);
  w->st = state_new(a);
  w->ncells = d->num_locs;
  w->cells = pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *w->cells);
  az_calltree_init(&w->tree);
  w->st->calltree = &w->tree;
  w->st->cells = w->cells;
  w->st->own = pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *w->st->own);
  for (uint32_t l = 0; l < d->num_locs; l++) {
    cp_loc *s = &w->st->own[l];
    s->cur.a = a;
    s->cur.loc = l;
    s->cur.proc = d->locs[l].process;
    walker_init(w->st, s);
  }
  return w;
}

void az_cp_walker_add(az_cp_walker *w, uint32_t loc, const void *recs, size_t rec_bytes,
                      const void *steps, size_t step_bytes) {
  cp_loc *s = w->st->locs[loc];
  size_t nrec = rec_bytes / sizeof *s->buf, nstep = step_bytes / sizeof *s->log;
  pu_reserve((void **)&s->buf, &s->cap, s->n + nrec, sizeof *s->buf);
  if (rec_bytes) memcpy(s->buf + s->n, recs, rec_bytes);
  s->n += nrec;
  pu_reserve((void **)&s->log, &s->caplog, s->nlog + nstep, sizeof *s->log);
  if (step_bytes) memcpy(s->log + s->nlog, steps, step_bytes);
  s->nlog += nstep;
}

void az_cp_walker_window(az_cp_walker *w, az_time bound) { merge_after(w->st, bound, 0); }

unsigned az_cp_walker_end(az_cp_walker *w, int ok) {
  unsigned limits = walk_end(w->st, ok);
  w->st = NULL;
  return limits;
}

void az_cp_walker_free(az_cp_walker *w, az_analysis *into) {
  if (w->st) state_free(w->st);
  /* the walker's call paths as nodes of into's tree: parents come first */
  int32_t *node = pu_malloc((w->tree.len ? w->tree.len : 1) * sizeof *node);
  for (size_t i = 0; into && i < w->tree.len; i++) {
    const az_cnode *c = &w->tree.nodes[i];
    node[i] = az_calltree_child(&into->tree, c->parent < 0 ? -1 : node[c->parent], c->region);
  }
  for (size_t l = 0; l < w->ncells; l++) {
    const az_cells *c = &w->cells[l];
    for (size_t r = 0; into && r < c->nrows; r++)
      az_cell(&into->cells[l], node[c->row_cnode[r]])[AZ_CRITICAL_PATH] +=
          c->rows[r][AZ_CRITICAL_PATH];
    az_cells_free(&w->cells[l]);
  }
  free(node);
  free(w->cells);
  az_calltree_free(&w->tree);
  free(w);
}

/* The first stage's handlers: the pass's own, or run by the delay pass's
   (az_pass_critical_fed). */
#define CP_FIRST_STAGE                                                                             \
  {                                                                                                \
    .enter = on_enter, .leave = on_leave, .thread_fork = on_fork, .thread_join = on_join,          \
    .team_begin = on_team_begin, .team_end = on_team_end, .mpi_send = on_send,                     \
    .mpi_isend = on_isend, .mpi_isend_complete = on_isend_complete, .mpi_recv = on_recv,           \
    .mpi_irecv = on_irecv, .mpi_irecv_request = on_irecv_request,                                  \
    .mpi_collective_end = on_coll_end                                                              \
  }

const az_event_handlers az_cp_first_stage = CP_FIRST_STAGE;

/* The pass with those handlers and that begin; is_local: its handlers may
   run in the decoding threads (the first stage: a location's own state,
   cp_loc, alone). */
#define CP_PASS(handlers, begin_with, is_local)                                                    \
  {                                                                                                \
    .name = "critical", .direction = AZ_BACKWARD, .loc_size = sizeof(cp_loc), .on = handlers,      \
    .begin = begin_with, .window = critical_window, .end = critical_end, .local = is_local,        \
  }

const az_pass az_pass_critical = CP_PASS(CP_FIRST_STAGE, critical_begin, 1);

/* Its first stage fed by the delay pass's handlers: none of its own. */
static void critical_fed_begin(az_replay *r) {
  critical_begin(r);
  r->a->feed_critical(r->a, r);
}

const az_pass az_pass_critical_fed = CP_PASS({0}, critical_fed_begin, 0);
