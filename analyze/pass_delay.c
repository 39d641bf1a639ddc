/* pass_delay.c -- delay costs (root causes) of MPI and OpenMP wait states, short-term
 * and long-term, and the classification of point-to-point waits: a
 * backward pass.
 *
 * A synchronisation point is an MPI collective (barrier, N x N, 1-to-N,
 * N-to-1) or a message (its send and its receive).  A wait there is caused
 * by the late party: the member that entered a barrier or N x N last, the
 * root of a 1-to-N, the last non-root of an N-to-1 (the root waits), the
 * sender of a Late Sender message (its send call; the receive's completing
 * call waits), the receiver of a Late Receiver one (its posting call,
 * MPI_Recv or MPI_Irecv; the send's completing call waits: the MPI_Send
 * itself or the MPI_Wait* of an MPI_Isend).  The MPI_Wait* of an Isend and
 * the MPI_Irecv of a receive are parts of the message, instances of one
 * member (az_delay.h): an Isend's completion is read before its Isend,
 * which names its message.
 * Between the previous synchronisation the parties had in common (for a
 * collective: an operation on a communicator holding all its members; for
 * a message: an earlier message between the same two processes or a
 * collective both took part in) and this one, the late party ran longer
 * than the waiting one on some call paths: its delay on call path c is
 * max(0, late(c) - waiter(c)), each side's time on c in its own interval,
 * minus what it waited there.  MPI_Init is a synchronisation of all
 * processes; when both intervals start at one operation, each holds the
 * time its call took there after the first of the two left it (Scalasca's
 * completion: dl_start, charged on the central side), and the master's
 * fork and join are its parallel region's time.  The wait is charged to those call paths on
 * the late party's location (short-term, delay_<kind>), scaled by
 * w / (sum of delays + time the late party waited in its interval), at
 * most 1.  The part of the wait its own waiting explains (that waiting
 * time times the same scale) is passed on to the waits in its interval,
 * in proportion to each, and charged the same way, with the scale
 * cost / (sum of delays + waiting), to their causes as long-term cost
 * (delay_<kind>_longterm, in the kind of the wait it came from), and so on
 * backwards.
 *
 * A point-to-point wait is also classified: the part its late party's own
 * waiting explains is indirect, the rest direct; the part of it that
 * explains a later wait (the largest such part) is propagating, the rest
 * terminal (mpi_wait_{direct,indirect,propagating,terminal}_*).
 *
 * Reading backwards, each member of an instance (a collective, or a
 * message: sender and receiver) opens its interval at the operation's
 * enter and closes it at its previous common synchronisation (or its
 * first event); an instance is evaluated once every member closed its
 * interval, every wait inside the late member's interval is known, and
 * every later instance whose interval holds one of its waits was evaluated
 * (its incoming cost is complete).  So memory holds the instances in
 * flight, not the trace.  Messages are matched by (communicator, sender,
 * receiver, tag) counted from the end of the run, as MPI's non-overtaking
 * rule orders them.
 *
 * OpenMP: the j-th barrier (from the end) of each member of a team
 * instance is an instance whose intervals go back to the member's previous
 * barrier or team begin; its team is who posted, known once the window
 * that holds the master's fork is read.
 * A serial phase of the master (join to fork) is an instance of one member
 * whose idle workers wait for all of it: its time is their short-term
 * cost, its waits pass the idleness on to their causes (long-term, kept
 * apart from other incoming cost so that it stays delay_ompidle_longterm).
 * docs/PROPERTIES.md, "Delay costs", states the rules; docs/analyze/delay.md
 * the limits ("Limits of the delay costs").
 *
 * This file is the local part (az_delay.h): per location, its call paths,
 * the time per call path of its open intervals, the counters that name
 * its messages, collectives and OpenMP instances; what the instances must
 * do it writes into the location's op log, which the central part
 * (delay_central.c) applies after each window, the locations in order. */
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_calltree.h"
#include "az_cells.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_delay.h"
#include "az_metrics.h"
#include "az_pass.h"
#include "az_replay.h"
#include "pomp_util.h"

typedef struct { /* an interval open on this location */
  dl_key key;    /* its instance: which synchronisations end it */
  dl_slot *map;  /* its time per call path up to the segments from `from` */
  uint32_t nmap, capmap;
  size_t from;     /* its first segment slot in dl_loc.acc */
  uint32_t nseg;   /* a collective's: rooted collectives it went on through */
  uint64_t opened; /* dl_loc.nmsg when it opened (mark_at_message) */
} dl_open;

typedef struct { /* a message of the call whose Enter comes next */
  dl_key key;    /* DL_SEND_DONE: none yet */
  int side;      /* what it posts: DL_SEND ... DL_RECV_POST */
  int blocking;  /* DL_SEND, DL_RECV: posted and completed by this call */
  int done;      /* DL_SEND of an Isend whose completion was read */
  uint64_t req;  /* a non-blocking member's request */
  uint64_t id;   /* DL_SEND_DONE, DL_SEND with done: the completion's id */
} dl_msg;

/* A completion whose posting call is not read yet, by request: an Isend's
   (DL_SEND_DONE: its id) or an Irecv's (DL_RECV_POST: its message). */
typedef struct {
  uint64_t req;
  int side;
  dl_key key;
  uint64_t id;
} dl_pending;

typedef struct { /* a peer process this location exchanged messages with */
  uint32_t peer;
  uint64_t last; /* dl_loc.nmsg at its latest message read (0: a free slot) */
} dl_peer;

typedef struct { /* messages met so far on one channel and side */
  dl_key key;    /* seq unused */
  int side, used;
  uint64_t count;
} dl_chan;

typedef struct {
  az_cursor cur;
  int32_t *stack; /* call path of each open region, innermost last */
  size_t depth, capstack;
  int32_t *last; /* per region: its call path met last here (-1 none): most
                    regions have one parent, so the call tree's hash is
                    looked up only when the parent changed */
  dl_open *open; /* intervals open on this location, as the central part's list */
  size_t nopen, capopen;
  dl_slot *acc; /* time per call path not yet in the open intervals' maps */
  size_t nacc, capacc;
  size_t segment; /* acc[segment ..]: the time since an interval opened */
  struct {        /* maps of closed intervals, for the next ones */
    dl_open *v;
    size_t n, cap;
  } spare;
  dl_log *log;    /* this location's ops of the window (dl_state.logs) */
  size_t drained; /* log->n after its last DL_OP_DRAIN */
  uint64_t *seq;  /* per communicator: its collectives met so far */
  dl_chan *chan;  /* a (channel, side) is met on one location only: open addressing */
  dl_peer *peers; /* open addressing too (peer_seen) */
  size_t npeers, cappeers;
  uint64_t nmsg; /* messages read */
  size_t nchan, capchan;
  size_t chan_hit[2]; /* per side (DL_SEND, DL_RECV): its slot met last */
  az_time leave_t;    /* the latest Leave met (the next in time) */
  struct {            /* the collective whose Enter comes next */
    int on, kind, root;
    uint32_t comm;
    uint64_t seq;
    size_t depth; /* its frame */
    az_time x;
  } coll;
  struct { /* the messages of the call whose Enter comes next */
    dl_msg *v;
    size_t n, cap;
    size_t depth;
    az_time x;
  } msgs;
  struct { /* completions whose posting call is not read yet */
    dl_pending *v;
    size_t n, cap;
    uint64_t count; /* Isend completions met: their ids */
  } pend;
  int no_mpi; /* a worker thread: no MPI here */
  struct {    /* OpenMP: the team instance this thread is in */
    int in_team, master;
    int single;                     /* its process has no other location (post_omp_barrier) */
    uint32_t team, bar_seq, pdepth; /* pdepth: parallel regions open */
    uint64_t inst;                  /* instance of team, from the end */
    uint64_t *seen;                 /* per team: instances met */
    uint64_t idle_seq;
    /* The master's team management (Scalasca's fork and join time) is
       its parallel region's time, not the parent's: mgmt, the region's
       call path while the time between the fork and the region's Enter
       is read; join_gap, the time between the region's Leave and the
       join, kept until the Leave names the region (gap_ticks). */
    int32_t mgmt;
    int32_t region; /* the outermost parallel region's call path met last */
    int join_gap;
    int64_t gap_ticks;
    struct { /* the barrier whose Enter comes next */
      int on;
      size_t depth;
      az_time x;
    } next;
  } omp;
  struct dl_state *st;
  void *feed; /* the critical pass's state of this location, fed here
                 (az_pass_delay_feeding), or NULL */
} dl_loc;

typedef struct { /* a master's team instance: its parallel region's call path */
  uint32_t team;
  uint64_t inst; /* from the end, as dl_loc.omp.inst */
  int32_t cnode;
} dl_team_path;

typedef struct { /* per process: the instances its master read lately */
  dl_team_path *v;
  size_t n, cap, kept; /* kept: those read before this window */
} dl_team_paths;

/* complete_map's index of one thread, alone on its cache lines: each
   map bumps its serial, and two threads' serials in one line made every
   bump a cache miss on the other's core (complete_map 5.9x slower with a
   decoding thread running the delay jobs, 1 rank x 16 threads). */
typedef struct {
  dl_map_index ix;
  char pad[128 - sizeof(dl_map_index)]; /* 2 lines: apart whatever malloc's alignment */
} dl_thread_index;

typedef struct dl_state {
  int32_t *par_cnode;   /* per region: its only parallel call path, or -2 */
  int32_t *master_par;  /* per process: the master's parallel call path met last */
  dl_team_paths *paths; /* per process: its master's instances of the last two windows */
  uint8_t *init;        /* per region: MPI_Init or MPI_Init_thread (Scalasca's
                          synchronisation point of all processes) */
  uint32_t *idle;       /* per process: its OpenMP workers (omp_idle_threads) */
  int64_t *finalize;    /* per location: its Wait at Finalize, until read */
  dl_log *logs;         /* per location: its ops of the window */
  dl_central *central;  /* this analysis process's share (parallel: az_delay.h) */
  dl_link *link;        /* a parallel analysis's (az_delay.h); NULL: serial */
  az_replay *r;
  dl_thread_index *maps; /* complete_map's, one per thread (az_pool_slot) */
  int nmaps;
} dl_state;

/* The segments' slots at most (dl_loc.acc) before every open map takes
   them (fold_segments). */
enum { DL_SEGMENT_SLOTS = 1 << 12 };

static void grow_log(dl_log *lg, size_t k) {
  lg->cap = lg->cap ? 2 * lg->cap : 1024;
  if (lg->cap < lg->n + k) lg->cap = lg->n + k;
  lg->w = pu_realloc(lg->w, lg->cap * sizeof *lg->w);
}

/* Room for k more words in the log. */
static inline uint64_t *log_room(dl_log *lg, size_t k) {
  if (lg->n + k > lg->cap) grow_log(lg, k);
  uint64_t *w = lg->w + lg->n;
  lg->n += k;
  return w;
}

/* Where the serial pass evaluated what became ready (two in a row are
   one). */
static inline void drain(dl_loc *s) {
  if (s->log->n == s->drained && s->log->n) return;
  *log_room(s->log, 1) = DL_OP_DRAIN;
  s->drained = s->log->n;
}

static uint64_t cnode_word(int32_t cnode) { return (uint32_t)cnode; }

/* The number of messages met before on this channel and side (counted
   from the end), and one more. */
static uint64_t chan_next(dl_loc *s, dl_key key, int side) {
  key.seq = 0;
  dl_chan *hit = s->capchan ? &s->chan[s->chan_hit[side] & (s->capchan - 1)] : NULL;
  if (hit && hit->used && hit->side == side && dl_key_equal(&hit->key, &key)) return hit->count++;
  if (2 * (s->nchan + 1) > s->capchan) { /* grow: rehash */
    size_t cap = s->capchan ? 2 * s->capchan : 64;
    dl_chan *old = s->chan, *now = pu_calloc(cap, sizeof *now);
    for (size_t i = 0; i < s->capchan; i++) {
      if (!old[i].used) continue;
      size_t h = (dl_key_hash(&old[i].key) + (size_t)old[i].side) & (cap - 1);
      while (now[h].used) h = (h + 1) & (cap - 1);
      now[h] = old[i];
    }
    free(old);
    s->chan = now;
    s->capchan = cap;
  }
  size_t h = (dl_key_hash(&key) + (size_t)side) & (s->capchan - 1);
  while (s->chan[h].used && !(s->chan[h].side == side && dl_key_equal(&s->chan[h].key, &key)))
    h = (h + 1) & (s->capchan - 1);
  if (!s->chan[h].used) {
    s->chan[h] = (dl_chan){.key = key, .side = side, .used = 1};
    s->nchan++;
  }
  s->chan_hit[side] = h;
  return s->chan[h].count++;
}

/* The collectives analysed and their kind (DK_NONE: no synchronisation
   point here; docs/analyze/delay.md, "Limits of the delay costs"), from
   the kind of the region's collective, which the other passes read too
   (az_region.coll, roles.c).
   A collective MPI-IO transfer synchronises as a barrier. */
static int coll_kind(const az_region *rg) {
  switch (rg->coll) {
  case AZ_COLL_BARRIER:
  case AZ_COLL_IO: return DK_BARRIER;
  case AZ_COLL_NXN: return DK_N2N;
  case AZ_COLL_12N: return DK_12N;
  case AZ_COLL_N21: return DK_N21;
  default: return DK_NONE;
  }
}

/* 1 when process p is a member of communicator comm. */
static int comm_has(const az_defs *d, uint32_t comm, uint32_t p) {
  const az_comm *c = &d->comms[comm];
  if (c->self || !c->world) return 0;
  for (uint32_t i = 0; i < c->size; i++)
    if (c->world[i] == p) return 1;
  return 0;
}

/* 1 when every process of communicator `inner` is in `outer`. */
static int comm_within(const az_defs *d, uint32_t inner, uint32_t outer) {
  const az_comm *ci = &d->comms[inner];
  if (inner == outer) return 1;
  if (ci->self || !ci->world) return 0;
  for (uint32_t i = 0; i < ci->size; i++)
    if (!comm_has(d, outer, ci->world[i])) return 0;
  return 1;
}

/* 1 when a collective on comm is a synchronisation every member of instance `key`
   took part in. */
static int coll_covers(const az_defs *d, const dl_key *key, uint32_t comm) {
  if (key->omp) return 0; /* threads of one process: MPI does not end it */
  if (key->p2p) return comm_has(d, comm, key->src) && comm_has(d, comm, key->dst);
  return comm_within(d, key->comm, comm);
}

/* The time since the event after this one (in time), on the innermost
   region, for every interval open here.  It is added up per call path in
   segments (dl_loc.acc), a segment each time an interval opens
   (new_segment); an interval takes the segments since it opened when it
   closes (complete_map): one look-up per event instead of one per event
   and open interval, and the time goes to the intervals that close, not
   to all open ones at each change (the flushes merged each segment into
   every open map: a sixth of the delay pass on heat 4x1). */
static void fold_segments(dl_loc *s);

static inline void acc_add(dl_loc *s, int32_t cnode, int64_t ticks) {
  for (size_t k = s->nacc; k-- > s->segment;)
    if (s->acc[k].cnode == cnode) {
      s->acc[k].ticks += ticks;
      return;
    }
  if (s->nacc == DL_SEGMENT_SLOTS) fold_segments(s);
  dl_slot slot = {cnode, ticks};
  PU_PUSH(s->acc, s->nacc, s->capacc, slot);
}

static inline void attribute(dl_loc *s) {
  if (!s->nopen || !s->depth || s->cur.prev == UINT64_MAX || s->cur.prev <= s->cur.last) return;
  int64_t ticks = (int64_t)(s->cur.prev - s->cur.last);
  if (s->omp.join_gap) { /* its region is named by its Leave, read later */
    s->omp.gap_ticks += ticks;
    return;
  }
  acc_add(s, s->omp.mgmt >= 0 ? s->omp.mgmt : s->stack[s->depth - 1], ticks);
}

/* At a Leave, read backwards: the time between it and the master's join
   is the region's (cnode) when it is a parallel region, else (a trace
   without one) the enclosing region's as any other time. */
static void end_join_gap(dl_loc *s, const az_region *rg, int32_t cnode) {
  s->omp.mgmt = -1;
  if (!s->omp.join_gap) return;
  s->omp.join_gap = 0;
  if (s->omp.gap_ticks && s->depth)
    acc_add(s, rg->kind == AZ_RK_PARALLEL ? cnode : s->stack[s->depth - 1], s->omp.gap_ticks);
  s->omp.gap_ticks = 0;
}

/* Before an interval opens here: the time added up so far belongs to
   those open now, a segment of its own (none open: to none).  A closing
   interval takes its time itself (complete_map): the set of intervals
   that the later time goes to loses it, and no new segment is needed. */
static void new_segment(dl_loc *s) {
  if (!s->nopen) s->nacc = 0;
  s->segment = s->nacc;
}

/* Open interval o takes the time of the segments since it opened: its
   map holds the call paths in the order their time first came, as when
   each segment was added to every open map. */
static void complete_map(dl_loc *s, dl_open *o) {
  if (o->from >= s->nacc) return;
  dl_state *st = s->st;
  dl_map_index *ix = &st->maps[az_pool_slot()].ix;
  uint32_t serial = dl_map_index_begin(ix, st->r->a->tree.len), n = o->nmap;
  dl_map_at *at = ix->at;
  dl_slot *map = o->map;
  for (uint32_t i = 0; i < n; i++) at[map[i].cnode] = (dl_map_at){serial, i};
  for (size_t k = o->from; k < s->nacc; k++) {
    dl_slot a = s->acc[k];
    dl_map_at *x = &at[a.cnode];
    if (x->serial == serial) {
      map[x->slot].ticks += a.ticks;
      continue;
    }
    if (n == o->capmap) {
      o->capmap = o->capmap ? 2 * o->capmap : 8;
      map = o->map = pu_realloc(map, o->capmap * sizeof *map);
    }
    *x = (dl_map_at){serial, n};
    map[n++] = a;
  }
  o->nmap = n;
  o->from = s->nacc;
}

/* The segments grew long (intervals that stay open while many others open
   and close): every open map takes them, and they start again. */
static void fold_segments(dl_loc *s) {
  for (size_t i = 0; i < s->nopen; i++) {
    complete_map(s, &s->open[i]);
    s->open[i].from = 0;
  }
  s->nacc = s->segment = 0;
}

/* The interval of instance key opens here (its member was posted). */
static void open_interval(dl_loc *s, const dl_key *key) {
  new_segment(s);
  dl_open o = {.key = *key, .from = s->nacc, .opened = s->nmsg};
  if (s->spare.n) { /* a map's storage again */
    dl_open *sp = &s->spare.v[--s->spare.n];
    o.map = sp->map;
    o.capmap = sp->capmap;
  }
  PU_PUSH(s->open, s->nopen, s->capopen, o);
}

/* The open interval o, at index j of the list once those closed before it
   left, reached its start: its map goes to the central part. */
static void close_interval(dl_loc *s, dl_open *o, size_t j, const dl_start *start) {
  complete_map(s, o);
  uint64_t *w = log_room(s->log, DL_CLOSE_WORDS + 2 * (size_t)o->nmap);
  *w++ = DL_OP_CLOSE | (uint64_t)j << 8 | (uint64_t)o->nmap << 32;
  *w++ = start->id;
  *w++ = start->x;
  *w++ = dl_start_word(start);
  for (uint32_t i = 0; i < o->nmap; i++) {
    *w++ = cnode_word(o->map[i].cnode);
    *w++ = (uint64_t)o->map[i].ticks;
  }
  o->nmap = 0;
  PU_PUSH(s->spare.v, s->spare.n, s->spare.cap, *o);
}

/* The master's call path of this worker's team instance, read in this
   window or the one before (the master's Leave of the region comes at the
   worker's, or later: read first, its location comes first), or -2. */
static int32_t master_path(const dl_loc *s) {
  const dl_team_paths *tp = &s->st->paths[s->cur.proc];
  for (size_t i = tp->n; i-- > 0;)
    if (tp->v[i].inst == s->omp.inst && tp->v[i].team == s->omp.team) return tp->v[i].cnode;
  return -2;
}

/* The open interval o of a collective, at index j of the list, reached
   instance key of kind (a rooted collective, a message): its time so far
   is a segment, the interval goes on (the central part decides per pair
   of members where it starts, delay_central.c, "segments"). */
static void mark_interval(dl_loc *s, dl_open *o, size_t j, const dl_start *start, int kind,
                          const dl_key *key) {
  complete_map(s, o);
  s->segment = s->nacc; /* the later time: slots after the map's end */
  uint64_t *w = log_room(s->log, DL_MARK_WORDS + 2 * (size_t)o->nmap);
  *w++ = DL_OP_MARK | (uint64_t)j << 8 | (uint64_t)o->nmap << 32;
  *w++ = start->id;
  *w++ = start->x;
  *w++ = dl_start_word(start);
  *w++ = key->comm | (uint64_t)key->tag << 32;
  *w++ = key->src | (uint64_t)key->dst << 32;
  *w++ = key->seq;
  *w++ = (uint64_t)kind | (uint64_t)(key->p2p != 0) << 8;
  for (uint32_t i = 0; i < o->nmap; i++) {
    *w++ = cnode_word(o->map[i].cnode);
    *w++ = (uint64_t)o->map[i].ticks;
  }
  o->nmap = 0;
}

/* The call path a worker's outermost region gets: under the master's
   call path at the fork, as the forward pass gives it: the region's only
   parallel call path, else the master's of the same team instance, else
   (not read: a master cut off) the one the master met last. */
static int32_t worker_parent(const dl_loc *s, int32_t region) {
  const az_calltree *tree = &s->cur.a->tree;
  int32_t c = s->st->par_cnode[region];
  if (c == -2) c = master_path(s);
  if (c == -2) c = s->st->master_par[s->cur.proc];
  if (c >= 0 && tree->nodes[c].region == region) return tree->nodes[c].parent;
  return -1;
}

/* Closes the open intervals a synchronisation ends: those for which
   `ends` holds (inline: each caller's predicate inline in its loop). */
static const dl_start no_start = {DL_START_NONE, 0, -1, 0, 0, 0};

/* The synchronisation of the call being read (its Leave met last) as a
   start of the intervals it closes. */
static dl_start start_here(const dl_loc *s, uint64_t id, int bcast_root) {
  return (dl_start){id, s->leave_t, s->depth ? s->stack[s->depth - 1] : -1, bcast_root, 0, 0};
}

/* Interval i stays open, at index kept (the list closes up; an interval
   of 72 bytes is copied only where one before it closed). */
static inline void keep_open(dl_loc *s, size_t i, size_t *kept) {
  if (*kept != i) s->open[*kept] = s->open[i];
  ++*kept;
}

static inline void close_where(dl_loc *s, int (*ends)(const dl_loc *, const dl_key *, uint64_t),
                               uint64_t arg, const dl_start *start) {
  size_t kept = 0;
  for (size_t i = 0; i < s->nopen; i++) {
    if (!ends(s, &s->open[i].key, arg)) {
      keep_open(s, i, &kept);
      continue;
    }
    close_interval(s, &s->open[i], kept, start);
  }
  s->nopen = kept;
}

/* OpenMP intervals of kind (DL_OMP_BARRIER, DL_OMP_IDLE). */
static int omp_ends(const dl_loc *s, const dl_key *key, uint64_t kind) {
  (void)s;
  return key->omp == (int)kind;
}

/* MPI intervals (MPI_Init ends them all). */
static int mpi_ends(const dl_loc *s, const dl_key *key, uint64_t unused) {
  (void)s, (void)unused;
  return key->omp == DL_MPI;
}

/* An OpenMP barrier of the outermost team instance. */
static int team_barrier(const dl_loc *s, const az_region *rg) {
  return s->omp.in_team && s->omp.pdepth == 1 &&
         (rg->kind == AZ_RK_EBARRIER || rg->kind == AZ_RK_IBARRIER);
}

/* What on_enter and on_leave return: where the critical path's first
   stage is fed here (az_pass_delay_feeding), its handler h of the event,
   a tail call (the one dispatch of the event); else az_next_back.  The
   event's time and position from the cursor (the first stage clamps the
   time as the delay pass did), and no location id or attributes (the
   first stage reads neither; the backward reading has none), nor, for
   an Enter, the region (its Enter reads its own stack): so the handler
   keeps no more than a Leave's region live for the call. */
static inline OTF2_CallbackCode fed_next(dl_loc *s, OTF2_EvtReaderCallback_Enter h,
                                         OTF2_RegionRef r) {
  if (s->feed) return h(0, s->cur.last, s->cur.pos, s->feed, NULL, r);
  return az_next_back(&s->cur);
}

/* The call path of region r whose Leave is read, created where it is
   new; -1 in a job (cur.in_job) where it is new: only the replay thread
   creates call paths, in the serial order (az_pass.local). */
static int32_t leave_path(dl_loc *s, int32_t r) {
  int32_t parent = s->depth                           ? s->stack[s->depth - 1]
                   : s->omp.in_team && !s->omp.master ? worker_parent(s, r)
                                                      : -1;
  int32_t cnode = s->last[r];
  if (cnode >= 0 && s->cur.a->tree.nodes[cnode].parent == parent) return cnode;
  az_calltree *tree = &s->cur.a->tree;
  cnode = s->cur.in_job ? az_calltree_find(tree, parent, r) : az_calltree_child(tree, parent, r);
  if (cnode >= 0) s->last[r] = cnode;
  return cnode;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  dl_loc *s = u;
  const az_defs *d = &s->cur.a->defs;
  if (r >= d->num_regions || !d->regions[r].defined) { /* the forward pass only warned */
    az_cursor_at_back(&s->cur, &t, pos);
    az_fail(&s->cur.a->diag, "%s: event %llu: Leave of undefined region %u", s->cur.label,
            (unsigned long long)pos, r);
    s->cur.failed = 1;
    return OTF2_CALLBACK_INTERRUPT;
  }
  int32_t cnode = leave_path(s, (int32_t)r);
  if (cnode < 0) { /* a new call path, in a job: for the replay thread */
    s->cur.failed = AZ_DEFERRED;
    return OTF2_CALLBACK_INTERRUPT;
  }
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s);
  const az_region *rg = &d->regions[r];
  end_join_gap(s, rg, cnode);
  if (s->st->init[r] && !s->no_mpi) { /* every process synchronises there */
    dl_start start = {DL_START_INIT, t, cnode, 0, 0, 0};
    close_where(s, mpi_ends, 0, &start);
  }
  if (rg->kind == AZ_RK_PARALLEL) {
    s->omp.pdepth++;
    if (s->omp.master) s->st->master_par[s->cur.proc] = cnode;
    if (s->omp.master && s->omp.in_team && s->omp.pdepth == 1) {
      dl_team_paths *tp = &s->st->paths[s->cur.proc];
      dl_team_path p = {s->omp.team, s->omp.inst, cnode};
      PU_PUSH(tp->v, tp->n, tp->cap, p);
    }
  }
  if (team_barrier(s, rg)) { /* the time after it is the next barrier's */
    if (!s->omp.single) close_where(s, omp_ends, DL_OMP_BARRIER, &no_start);
    s->omp.next.on = 1;
    s->omp.next.depth = s->depth;
    s->omp.next.x = t;
  }
  PU_PUSH(s->stack, s->depth, s->capstack, cnode);
  s->leave_t = t;
  return fed_next(s, az_cp_first_stage.leave, r);
}

static void post_collective(dl_loc *s, int32_t cnode, az_time e) {
  dl_key key = {.comm = s->coll.comm, .seq = s->coll.seq};
  PU_PUSH(s->log->colls, s->log->ncolls, s->log->capcolls, s->log->n);
  uint64_t *w = log_room(s->log, 5);
  w[0] = DL_OP_COLL | (uint64_t)s->coll.kind << 8 | (uint64_t)s->coll.root << 16;
  w[1] = key.comm | cnode_word(cnode) << 32;
  w[2] = key.seq;
  w[3] = e;
  w[4] = s->coll.x;
  open_interval(s, &key);
}

/* The key of the interval of Isend completion id until its Isend is read:
   no synchronisation ends it. */
static dl_key pending_key(const dl_loc *s, uint64_t id) {
  return (dl_key){.comm = s->cur.loc, .omp = DL_PENDING, .seq = id};
}

/* The interval of Isend completion id (close_where, pending_interval). */
static int pending_ends(const dl_loc *s, const dl_key *key, uint64_t id) {
  (void)s;
  return key->omp == DL_PENDING && key->seq == id;
}

/* The open interval of Isend completion id, or NULL. */
static dl_open *pending_interval(dl_loc *s, uint64_t id) {
  for (size_t i = 0; i < s->nopen; i++)
    if (pending_ends(s, &s->open[i].key, id)) return &s->open[i];
  return NULL;
}

/* Remembers what the posting call of a non-blocking member must find. */
static void expect_posting(dl_loc *s, const dl_msg *m, int side) {
  dl_pending p = {.req = m->req, .side = side, .key = m->key, .id = m->id};
  PU_PUSH(s->pend.v, s->pend.n, s->pend.cap, p);
}

/* After posting m: what its posting call must find, and the interval of
   an Isend's completion named by its Isend (ended by its partner's
   messages from now on). */
static void after_post(dl_loc *s, const dl_msg *m) {
  if (m->side == DL_SEND_DONE) expect_posting(s, m, DL_SEND_DONE);
  else if (m->side == DL_RECV && !m->blocking) expect_posting(s, m, DL_RECV_POST);
  dl_open *o = m->side == DL_SEND && m->done ? pending_interval(s, m->id) : NULL;
  if (o) o->key = m->key;
}

/* The messages of one call (MPI_Sendrecv, MPI_Waitall, ...): posted
   together at its Enter. */
static void post_messages(dl_loc *s, int32_t cnode, az_time e) {
  uint64_t *w = log_room(s->log, 4 + 4 * s->msgs.n);
  *w++ = DL_OP_MSGS | (uint64_t)s->msgs.n << 8;
  *w++ = cnode_word(cnode);
  *w++ = e;
  *w++ = s->msgs.x;
  for (size_t i = 0; i < s->msgs.n; i++) {
    const dl_msg *m = &s->msgs.v[i];
    *w++ = m->key.comm | (uint64_t)m->key.tag << 32;
    *w++ = m->key.src | (uint64_t)m->key.dst << 32;
    *w++ = m->key.seq;
    *w++ =
        (uint64_t)m->side | (uint64_t)m->blocking << 2 | (uint64_t)(m->done != 0) << 3 | m->id << 8;
  }
  for (size_t i = 0; i < s->msgs.n; i++) {
    const dl_msg *m = &s->msgs.v[i];
    dl_key key = m->side == DL_SEND_DONE ? pending_key(s, m->id) : m->key;
    open_interval(s, &key);
    after_post(s, m);
  }
  s->msgs.n = 0;
}

/* Member of the OpenMP barrier whose Enter this is: the j-th from the end
   of its team instance on every member.  None in a process of one
   location (dl_loc.omp.single): its teams have one thread, a barrier one
   member and no waiter, so it charges nothing and passes no cost to the
   waits in its interval, and OpenMP intervals end at OpenMP events only,
   so it ends no other interval.  Its instance only held the waits in its
   interval until evaluated (heat 4x1: 132,008 barriers, each posted, its
   interval mapped, closed, sized at its fork's window, settled, evaluated
   and dropped); no fork needs to size one either. */
static void post_omp_barrier(dl_loc *s, int32_t cnode, az_time e) {
  if (s->omp.single) return;
  dl_key key = {.comm = s->cur.proc,
                .tag = s->omp.team,
                .src = s->omp.bar_seq++,
                .omp = DL_OMP_BARRIER,
                .seq = s->omp.inst};
  uint64_t *w = log_room(s->log, 6);
  w[0] = DL_OP_OMPBAR | (uint64_t)(s->omp.master != 0) << 8;
  w[1] = key.comm | (uint64_t)key.tag << 32;
  w[2] = key.src | cnode_word(cnode) << 32;
  w[3] = key.seq;
  w[4] = e;
  w[5] = s->omp.next.x;
  open_interval(s, &key);
}

/* At the Enter of an MPI_Finalize: its Wait at Finalize (the forward
   pass's, in this location's cells) is taken out of the time read there.
   Scalasca's master idles in it as in any MPI wait, so it is no
   delay_ompidle of its serial phase; and as its Finalize has no delay
   costs, that idleness is charged to nobody (no cost passed on).  Only
   the serial phase that ends the run is open here.  Once per location:
   the wait is its first call's. */
static void finalize_wait(dl_loc *s, int32_t cnode) {
  int64_t *wait = &s->st->finalize[s->cur.loc];
  if (*wait > 0 && s->nopen) acc_add(s, cnode, -*wait);
  *wait = 0;
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s);
  if (!s->depth) return fed_next(s, az_cp_first_stage.enter, 0); /* warned */
  int32_t cnode = s->stack[--s->depth];
  int parallel = r < s->cur.a->defs.num_regions && s->cur.a->defs.regions[r].kind == AZ_RK_PARALLEL;
  if (r < s->cur.a->defs.num_regions && s->cur.a->defs.regions[r].coll == AZ_COLL_FINALIZE)
    finalize_wait(s, cnode);
  if (parallel && s->omp.pdepth) s->omp.pdepth--;
  if (parallel && !s->omp.pdepth) s->omp.region = cnode;
  /* the time from the fork to here, read next, is the region's */
  s->omp.mgmt = parallel && s->omp.master && s->omp.pdepth == 0 ? cnode : -1;
  if (s->omp.next.on && s->omp.next.depth == s->depth) {
    s->omp.next.on = 0;
    post_omp_barrier(s, cnode, t);
    drain(s);
  }
  if (s->coll.on && s->coll.depth == s->depth) {
    s->coll.on = 0;
    post_collective(s, cnode, t);
    drain(s);
  }
  if (s->msgs.n && s->msgs.depth == s->depth) {
    post_messages(s, cnode, t);
    drain(s);
  }
  return fed_next(s, az_cp_first_stage.enter, 0);
}

static int coll_ends(const dl_loc *s, const dl_key *key, uint64_t comm) {
  return coll_covers(&s->cur.a->defs, key, (uint32_t)comm);
}

/* Its slot (process indices: dense, their own hash). */
static size_t peer_slot(const dl_peer *peers, size_t cap, uint32_t peer) {
  size_t h = peer & (cap - 1);
  while (peers[h].last && peers[h].peer != peer) h = (h + 1) & (cap - 1);
  return h;
}

/* The count (dl_loc.nmsg) at the latest message with process peer read
   before (0: none); the one read now, `now`, becomes its latest. */
static uint64_t peer_seen(dl_loc *s, uint32_t peer, uint64_t now) {
  if (2 * (s->npeers + 1) > s->cappeers) { /* grow: rehash */
    size_t cap = s->cappeers ? 2 * s->cappeers : 16;
    dl_peer *now_v = pu_calloc(cap, sizeof *now_v);
    for (size_t i = 0; i < s->cappeers; i++)
      if (s->peers[i].last) now_v[peer_slot(now_v, cap, s->peers[i].peer)] = s->peers[i];
    free(s->peers);
    s->peers = now_v;
    s->cappeers = cap;
  }
  dl_peer *p = &s->peers[peer_slot(s->peers, s->cappeers, peer)];
  uint64_t before = p->last;
  s->npeers += !before;
  *p = (dl_peer){peer, now};
  return before;
}

/* A message (key, its start): the open intervals of collectives get a
   segment there when it is the latest of its pair in them (read first):
   the pair synchronised there if it waited, else where the message's own
   interval starts (the central part follows it back, op_mark; an
   earlier message of the pair is no boundary of theirs then). */
static void mark_at_message(dl_loc *s, const dl_key *key, const dl_start *start) {
  uint32_t peer = key->src == s->cur.proc ? key->dst : key->src;
  uint64_t before = peer_seen(s, peer, ++s->nmsg);
  for (size_t i = 0; i < s->nopen; i++) {
    dl_open *o = &s->open[i];
    if (o->key.p2p || o->key.omp != DL_MPI || before > o->opened) continue;
    mark_interval(s, o, i, start, DK_NONE, key);
  }
}

/* Collective (comm, seq) of kind ends the intervals it covers; a rooted
   one (1-to-N, N-to-1) synchronises only some pairs of its members
   (Scalasca's rule): the intervals of other collectives go on through
   it, up to DL_SEG_BOUND times (mark_interval). */
static void coll_close(dl_loc *s, uint32_t comm, uint64_t seq, int kind, const dl_start *start) {
  int rooted = kind == DK_12N || kind == DK_N21;
  size_t kept = 0;
  for (size_t i = 0; i < s->nopen; i++) {
    dl_open *o = &s->open[i];
    if (!coll_ends(s, &o->key, comm)) {
      keep_open(s, i, &kept);
      continue;
    }
    if (rooted && o->key.omp == DL_MPI && o->nseg < DL_SEG_BOUND) {
      mark_interval(s, o, kept, start, kind, &(dl_key){.comm = comm, .seq = seq});
      o->nseg++;
      keep_open(s, i, &kept);
      continue;
    }
    close_interval(s, o, kept, start);
  }
  s->nopen = kept;
}

/* A message with process `peer` ends the intervals of earlier messages
   (later in time) between the same two processes. */
static int message_ends(const dl_loc *s, const dl_key *key, uint64_t peer) {
  uint32_t me = s->cur.proc;
  return key->p2p && ((key->src == me && key->dst == peer) || (key->src == peer && key->dst == me));
}

/* 1 when this process is the root (communicator rank `root`) of comm. */
static int is_root(const dl_loc *s, uint32_t comm, uint32_t root) {
  return az_comm_world(&s->cur.a->defs, comm, root, s->cur.proc) == s->cur.proc;
}

static inline OTF2_CallbackCode on_coll_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                            void *u, OTF2_AttributeList *al, OTF2_CollectiveOp op,
                                            OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                            uint64_t received) {
  (void)l;
  (void)al;
  (void)op; /* the region's kind decides (coll_kind) */
  (void)sent;
  (void)received;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  const az_defs *d = &s->cur.a->defs;
  if (s->no_mpi) {
    attribute(s);
    return az_next_back(&s->cur);
  }
  if (comm >= d->num_comms || !s->depth) return az_next_back(&s->cur); /* warned */
  const az_region *rg = &d->regions[s->cur.a->tree.nodes[s->stack[s->depth - 1]].region];
  if (rg->paradigm != OTF2_PARADIGM_MPI) { /* a placeholder for collectives not recorded */
    s->seq[comm] += root;
    return az_next_back(&s->cur);
  }
  uint64_t seq = s->seq[comm]++;
  int kind = coll_kind(rg);
  if (d->comms[comm].self || kind == DK_NONE) {
    attribute(s);
    return az_next_back(&s->cur);
  }
  /* the time after this collective's Leave belongs to the intervals it
     ends, its own time to those still open */
  int root_here = (kind == DK_12N || kind == DK_N21) && is_root(s, comm, root);
  dl_start start =
      start_here(s, dl_start_id(&(dl_key){.comm = comm, .seq = seq}), kind == DK_12N && root_here);
  coll_close(s, (uint32_t)comm, seq, kind, &start);
  attribute(s);
  s->coll.on = 1;
  s->coll.kind = kind;
  s->coll.root = root_here;
  s->coll.comm = comm;
  s->coll.seq = seq;
  s->coll.depth = s->depth - 1;
  s->coll.x = s->leave_t;
  drain(s);
  return az_next_back(&s->cur);
}

/* The latest pending completion of request req and side (removed), or 0. */
static int take_pending(dl_loc *s, uint64_t req, int side, dl_pending *out) {
  for (size_t i = s->pend.n; i-- > 0;)
    if (s->pend.v[i].req == req && s->pend.v[i].side == side) {
      *out = s->pend.v[i];
      for (size_t k = i + 1; k < s->pend.n; k++) /* the latest first: a few, no memmove */
        s->pend.v[k - 1] = s->pend.v[k];
      s->pend.n--;
      return 1;
    }
  return 0;
}

/* Isend completion id gets no message (its Isend is to itself, on another
   thread, cut off): no wait.  Its interval, still open, ends here (else it
   would hold every wait before it until the run's start). */
static void give_up_done(dl_loc *s, uint64_t id) {
  close_where(s, pending_ends, id, &no_start);
  uint64_t *w = log_room(s->log, 2);
  w[0] = DL_OP_GIVEUP | (uint64_t)DL_SEND_DONE << 8;
  w[1] = id;
}

/* The Irecv of message key is not read: its receive has no posting. */
static void give_up_post(dl_loc *s, const dl_key *key) {
  uint64_t *w = log_room(s->log, 4);
  w[0] = DL_OP_GIVEUP | (uint64_t)DL_RECV_POST << 8;
  w[1] = key->comm | (uint64_t)key->tag << 32;
  w[2] = key->src | (uint64_t)key->dst << 32;
  w[3] = key->seq;
}

/* A message member read but not posted (its call not found): what it
   promised is given up. */
static void forget_msg(dl_loc *s, const dl_msg *m) {
  if (m->side == DL_SEND && m->done) give_up_done(s, m->id);
  else if (m->side == DL_RECV_POST) give_up_post(s, &m->key);
}

/* Message member m posts at the Enter of the call being read. */
static void add_msg(dl_loc *s, dl_msg m) {
  if (s->msgs.n && s->msgs.depth != s->depth - 1) { /* not in one call */
    for (size_t i = 0; i < s->msgs.n; i++) forget_msg(s, &s->msgs.v[i]);
    s->msgs.n = 0;
  }
  PU_PUSH(s->msgs.v, s->msgs.n, s->msgs.cap, m);
  s->msgs.depth = s->depth - 1;
  s->msgs.x = s->leave_t;
}

/* A send or a completed receive: the message's member posts at its
   call's Enter. */
static inline OTF2_CallbackCode on_message(dl_loc *s, OTF2_TimeStamp t, uint64_t pos,
                                           uint32_t peer_rank, OTF2_CommRef comm, uint32_t tag,
                                           int side, int blocking, uint64_t req) {
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  const az_defs *d = &s->cur.a->defs;
  if (s->no_mpi) {
    attribute(s);
    return az_next_back(&s->cur);
  }
  dl_pending done;
  int isend = side == DL_SEND && !blocking;
  uint32_t peer = az_comm_world(d, comm, peer_rank, s->cur.proc);
  if (!s->depth || peer == UINT32_MAX || d->comms[comm].self || peer == s->cur.proc) {
    attribute(s); /* warned by the forward pass, or no synchronisation */
    if (isend && take_pending(s, req, DL_SEND_DONE, &done)) give_up_done(s, done.id);
    return az_next_back(&s->cur);
  }
  dl_key key = {.comm = comm, .tag = tag, .p2p = 1};
  key.src = side == DL_SEND ? s->cur.proc : peer;
  key.dst = side == DL_SEND ? peer : s->cur.proc;
  key.seq = chan_next(s, key, side);
  dl_start start = start_here(s, dl_start_id(&key), 0);
  start.p2p = 1; /* no synchronisation of the pair unless it waited (the central part) */
  close_where(s, message_ends, peer, &start);
  mark_at_message(s, &key, &start);
  attribute(s);
  dl_msg m = {.key = key, .side = side, .blocking = blocking, .req = req};
  if (isend && take_pending(s, req, DL_SEND_DONE, &done)) m.done = 1, m.id = done.id;
  add_msg(s, m);
  drain(s);
  return az_next_back(&s->cur);
}

/* The region of the call being read completes a send without waiting
   (az_region.no_wait: MPI_Test*, MPI_Request_free; p2p.c). */
static int completes_without_wait(const dl_loc *s) {
  const az_analysis *a = s->cur.a;
  return a->defs.regions[a->tree.nodes[s->stack[s->depth - 1]].region].no_wait;
}

/* An Isend's completion: its member waits from its call's Enter; its
   message is known when its Isend is read. */
static inline OTF2_CallbackCode on_isend_complete(OTF2_LocationRef l, OTF2_TimeStamp t,
                                                  uint64_t pos, void *u, OTF2_AttributeList *al,
                                                  uint64_t req) {
  (void)l, (void)al;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s);
  if (s->no_mpi || !s->depth || completes_without_wait(s)) return az_next_back(&s->cur);
  add_msg(s, (dl_msg){.side = DL_SEND_DONE, .req = req, .id = s->pend.count++});
  return az_next_back(&s->cur);
}

/* An Irecv whose completion was read: its member is the receive's posting. */
static inline OTF2_CallbackCode on_irecv_request(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                                 void *u, OTF2_AttributeList *al, uint64_t req) {
  (void)l, (void)al;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s);
  dl_pending p;
  if (s->no_mpi || !s->depth || !take_pending(s, req, DL_RECV_POST, &p))
    return az_next_back(&s->cur);
  add_msg(s, (dl_msg){.key = p.key, .side = DL_RECV_POST, .req = req});
  return az_next_back(&s->cur);
}

static inline OTF2_CallbackCode on_send(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                        OTF2_AttributeList *al, uint32_t receiver,
                                        OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  (void)l, (void)al, (void)length;
  return on_message(u, t, pos, receiver, comm, tag, DL_SEND, 1, 0);
}

static inline OTF2_CallbackCode on_isend(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                         void *u, OTF2_AttributeList *al, uint32_t receiver,
                                         OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                         uint64_t request) {
  (void)l, (void)al, (void)length;
  return on_message(u, t, pos, receiver, comm, tag, DL_SEND, 0, request);
}

static inline OTF2_CallbackCode on_recv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                        OTF2_AttributeList *al, uint32_t sender, OTF2_CommRef comm,
                                        uint32_t tag, uint64_t length) {
  (void)l, (void)al, (void)length;
  return on_message(u, t, pos, sender, comm, tag, DL_RECV, 1, 0);
}

static inline OTF2_CallbackCode on_irecv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                         void *u, OTF2_AttributeList *al, uint32_t sender,
                                         OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                         uint64_t request) {
  (void)l, (void)al, (void)length;
  return on_message(u, t, pos, sender, comm, tag, DL_RECV, 0, request);
}

/* ---- OpenMP: team instances and the master's serial phases ------------ */

/* The master's serial phase that ends at t (its fork, or the end of its
   record): an instance of one member whose interval goes back to the
   previous join. */
static void open_idle(dl_loc *s, az_time t) {
  uint32_t idle = s->st->idle[s->cur.proc];
  if (!idle) return;
  dl_key key = {.comm = s->cur.proc, .tag = idle, .omp = DL_OMP_IDLE, .seq = s->omp.idle_seq++};
  uint64_t *w = log_room(s->log, 5);
  w[0] = DL_OP_IDLE;
  w[1] = key.comm | (uint64_t)idle << 32;
  w[2] = key.seq;
  w[3] = cnode_word(s->depth ? s->stack[s->depth - 1] : -1);
  w[4] = t;
  open_interval(s, &key);
}

/* After each window (last: after the pass): the logs to the central part
   (a parallel analysis: after the exchange of its records, az_delay.h). */
static void deliver_logs(az_replay *r, int last) {
  dl_state *st = r->data;
  const az_defs *d = &r->a->defs;
  if (st->link) st->link->ship(r->a, st->logs, last);
  if (st->central) {
    for (uint32_t l = 0; l < d->num_locs; l++)
      if (st->logs[l].n) dl_central_apply(st->central, l, st->logs[l].w, st->logs[l].n);
    if (!last) dl_central_window(st->central);
  }
  for (uint32_t l = 0; l < d->num_locs; l++) {
    st->logs[l].n = st->logs[l].ncolls = 0;
    dl_loc *s = (dl_loc *)az_replay_loc(r, l);
    if (s->cur.a) s->drained = 0;
  }
  for (uint32_t p = 0; p < d->num_procs; p++) { /* the instances of this window stay */
    dl_team_paths *tp = &st->paths[p];
    if (!tp->kept) {
      tp->kept = tp->n;
      continue;
    }
    memmove(tp->v, tp->v + tp->kept, (tp->n - tp->kept) * sizeof *tp->v);
    tp->n -= tp->kept;
    tp->kept = tp->n;
  }
}

static void delay_window(az_replay *r, az_time stop) {
  (void)stop;
  dl_state *st = r->data;
  if (!st->link) deliver_logs(r, 0); /* else once all agreed: az_delay_deliver */
}

void az_delay_deliver(az_analysis *a) {
  dl_state *st = a->delay_link->state;
  deliver_logs(st->r, 0);
}

static inline OTF2_CallbackCode on_fork(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                        OTF2_AttributeList *al, OTF2_Paradigm model, uint32_t n) {
  (void)l, (void)al, (void)model, (void)n;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s); /* the fork's time, up to its region's Enter, is the region's */
  s->omp.mgmt = -1;
  if (s->omp.master && !s->omp.single) { /* the team is read after this window */
    uint64_t *w = log_room(s->log, 2);
    w[0] = DL_OP_FORK;
    w[1] = t;
  }
  open_idle(s, t);
  drain(s);
  return az_next_back(&s->cur);
}

static inline OTF2_CallbackCode on_join(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                        OTF2_AttributeList *al, OTF2_Paradigm model) {
  (void)l, (void)al, (void)model;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s); /* the time after the join is serial */
  if (s->st->idle[s->cur.proc]) close_where(s, omp_ends, DL_OMP_IDLE, &no_start);
  if (s->omp.master && !s->omp.pdepth) s->omp.join_gap = 1; /* up to the region's Leave */
  drain(s);
  return az_next_back(&s->cur);
}

/* Read backwards, a team instance starts at ThreadTeamEnd. */
static inline OTF2_CallbackCode on_team_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                            void *u, OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)l, (void)al;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s);
  if (team >= s->cur.a->defs.num_comms) return az_next_back(&s->cur); /* warned */
  s->omp.in_team = 1;
  s->omp.team = team;
  s->omp.inst = s->omp.seen[team]++;
  s->omp.bar_seq = 0;
  return az_next_back(&s->cur);
}

static inline OTF2_CallbackCode on_team_begin(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                              void *u, OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)l, (void)al, (void)team;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s);
  /* the first barrier's interval also holds the fork, from the master's
     ThreadFork to here, on the parallel region (Scalasca's fork time;
     omp_management): added once the fork is read (az_delay.h) */
  dl_start start = {DL_START_TEAM, t, s->omp.region, 0, 0, 0};
  if (!s->omp.single) close_where(s, omp_ends, DL_OMP_BARRIER, &start);
  s->omp.in_team = 0;
  drain(s);
  return az_next_back(&s->cur);
}

/* Per region: its only parallel call path (-1 none, -2 several). */
static int32_t *parallel_cnodes(const az_analysis *a) {
  int32_t *par = pu_malloc((a->defs.num_regions ? a->defs.num_regions : 1) * sizeof *par);
  for (size_t r = 0; r < a->defs.num_regions; r++) par[r] = -1;
  for (size_t c = 0; c < a->tree.len; c++) {
    int32_t r = a->tree.nodes[c].region;
    if (r < 0 || (size_t)r >= a->defs.num_regions || a->defs.regions[r].kind != AZ_RK_PARALLEL)
      continue;
    par[r] = par[r] == -1 ? (int32_t)c : -2;
  }
  return par;
}

/* Per region: 1 for MPI_Init and MPI_Init_thread. */
static uint8_t *init_regions(const az_defs *d) {
  uint8_t *init = pu_calloc(d->num_regions ? d->num_regions : 1, 1);
  for (size_t r = 0; r < d->num_regions; r++) {
    const az_region *rg = &d->regions[r];
    init[r] = rg->defined && rg->paradigm == OTF2_PARADIGM_MPI && rg->name &&
              (!strcmp(rg->name, "MPI_Init") || !strcmp(rg->name, "MPI_Init_thread"));
  }
  return init;
}

uint32_t *dl_idle_workers(const az_analysis *a) {
  const az_defs *d = &a->defs;
  uint32_t *idle = pu_calloc(d->num_procs ? d->num_procs : 1, sizeof *idle);
  for (uint32_t p = 0; p < d->num_procs; p++)
    for (uint32_t w = 1; w < d->procs[p].num_locs; w++) {
      const az_cells *c = &a->cells[d->procs[p].first_loc + w];
      for (size_t row = 0; row < c->nrows; row++)
        if (c->rows[row][AZ_OMP_IDLE_THREADS] > 0) {
          idle[p]++;
          break;
        }
    }
  return idle;
}

int64_t *dl_finalize_waits(const az_analysis *a) {
  const az_defs *d = &a->defs;
  int64_t *wait = pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *wait);
  for (uint32_t l = 0; l < d->num_locs; l++)
    for (size_t row = 0; row < a->cells[l].nrows; row++)
      wait[l] += a->cells[l].rows[row][AZ_MPI_FINALIZE_WAIT];
  return wait;
}

/* A copy of n entries of size bytes each (at least one allocated). */
static void *copy_table(const void *from, size_t n, size_t size) {
  void *to = pu_malloc((n ? n : 1) * size);
  memcpy(to, from, n * size);
  return to;
}

/* The analysis process that applies the logs: in parallel, the link
   (parallel.c) says whether it is this one and how logs travel. */
static void feed_critical(az_analysis *a, const az_replay *critical);

static void delay_begin(az_replay *r) {
  dl_state *st = pu_calloc(1, sizeof *st);
  r->data = st;
  const az_defs *d = &r->a->defs;
  st->r = r;
  r->a->delay_run = r;
  r->a->feed_critical = feed_critical;
  st->link = r->a->delay_link;
  if (st->link) st->link->state = st;
  st->central = dl_central_new(r->a);
  st->logs = pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *st->logs);
  st->par_cnode = parallel_cnodes(r->a);
  st->init = init_regions(&r->a->defs);
  /* in parallel, process 0's tables (its cells hold every location's
     figures), computed here only where the link brings none */
  st->idle = st->link && st->link->idle ? copy_table(st->link->idle, d->num_procs, sizeof *st->idle)
                                        : dl_idle_workers(r->a);
  st->finalize = st->link && st->link->finalize
                     ? copy_table(st->link->finalize, d->num_locs, sizeof *st->finalize)
                     : dl_finalize_waits(r->a);
  st->master_par = pu_malloc((d->num_procs ? d->num_procs : 1) * sizeof *st->master_par);
  for (uint32_t p = 0; p < d->num_procs; p++) st->master_par[p] = -1;
  st->paths = pu_calloc(d->num_procs ? d->num_procs : 1, sizeof *st->paths);
  st->nmaps = r->a->threads > 1 ? r->a->threads : 1;
  st->maps = pu_calloc((size_t)st->nmaps, sizeof *st->maps);
  for (uint32_t l = 0; l < d->num_locs; l++) {
    dl_loc *s = (dl_loc *)az_replay_loc(r, l);
    if (!s->cur.a) continue;
    s->st = st;
    s->log = &st->logs[l];
    s->no_mpi = d->locs[l].thread != 0;
    s->omp.master = d->locs[l].thread == 0;
    s->omp.single = d->procs[d->locs[l].process].num_locs == 1;
    s->seq = pu_calloc(d->num_comms ? d->num_comms : 1, sizeof *s->seq);
    s->last = pu_malloc((d->num_regions ? d->num_regions : 1) * sizeof *s->last);
    for (size_t g = 0; g < d->num_regions; g++) s->last[g] = -1;
    s->omp.seen = pu_calloc(d->num_comms ? d->num_comms : 1, sizeof *s->omp.seen);
    s->omp.mgmt = -1;
    if (s->omp.master) open_idle(s, 0); /* the serial phase that ends the run */
  }
}

/* The location's first event: its open intervals start with the run;
   the postings still expected never come (cut off, or on another thread):
   completions without a wait, receives without a posting. */
static void delay_loc_end(az_replay *r, az_cursor *c, const char *cut) {
  (void)r, (void)cut;
  dl_loc *s = (dl_loc *)c;
  for (size_t i = 0; i < s->nopen; i++) close_interval(s, &s->open[i], 0, &no_start);
  s->nopen = 0;
  for (size_t i = 0; i < s->msgs.n; i++) forget_msg(s, &s->msgs.v[i]);
  s->msgs.n = 0;
  for (size_t i = 0; i < s->pend.n; i++) {
    const dl_pending *p = &s->pend.v[i];
    if (p->side == DL_SEND_DONE) give_up_done(s, p->id);
    else give_up_post(s, &p->key);
  }
  s->pend.n = 0;
  drain(s);
}

static void delay_end(az_replay *r, int ok) {
  (void)ok;
  dl_state *st = r->data;
  /* in parallel, after a failure all agreed on: the others ship nothing */
  if (ok || !st->link) deliver_logs(r, 1);
  if (st->central) dl_central_end(st->central);
  if (st->link) st->link->state = NULL;
  r->a->delay_run = NULL;
  r->a->feed_critical = NULL;
  for (uint32_t l = 0; l < r->a->defs.num_locs; l++) {
    dl_loc *s = (dl_loc *)az_replay_loc(r, l);
    free(s->stack);
    free(s->last);
    for (size_t i = 0; i < s->nopen; i++) free(s->open[i].map);
    for (size_t i = 0; i < s->spare.n; i++) free(s->spare.v[i].map);
    free(s->spare.v);
    free(s->open);
    free(s->acc);
    free(s->seq);
    free(s->chan);
    free(s->peers);
    free(s->msgs.v);
    free(s->pend.v);
    free(s->omp.seen);
    free(st->logs[l].w);
    free(st->logs[l].colls);
  }
  free(st->logs);
  free(st->par_cnode);
  for (int i = 0; i < st->nmaps; i++) free(st->maps[i].ix.at);
  free(st->maps);
  free(st->init);
  free(st->master_par);
  for (uint32_t p = 0; p < r->a->defs.num_procs; p++) free(st->paths[p].v);
  free(st->paths);
  free(st->idle);
  free(st->finalize);
  free(st);
}

/* az_analysis.feed_critical: the critical pass's locations fed by the
   delay pass's. */
static void feed_critical(az_analysis *a, const az_replay *critical) {
  for (uint32_t l = 0; l < a->defs.num_locs; l++) {
    dl_loc *s = (dl_loc *)az_replay_loc(a->delay_run, l);
    if (s->cur.a) s->feed = az_replay_loc(critical, l);
  }
}

/* fed_NAME: on_NAME, then the first stage's handler of the event (its
   user data u the critical pass's location state), not at an event the
   delay pass deferred (it comes again) or failed at.  The first stage
   fails only where the delay pass failed first (a Leave of an undefined
   region); were it to fail alone, its replay (no handlers) would stop
   the pass after the window.  A tail call: the first stage's code is the
   event's.  The handlers are declared inline so that they are inlined
   here too (t44: 6 M fewer instructions than a call per event). */
#define DL_FED(name, member, params, args)                                                         \
  static OTF2_CallbackCode fed_##name params {                                                     \
    dl_loc *s = u;                                                                                 \
    OTF2_CallbackCode own = on_##name args;                                                        \
    if (s->cur.failed) return own;                                                                 \
    u = s->feed;                                                                                   \
    return az_cp_first_stage.member args;                                                          \
  }

#define DL_EVENT OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u, OTF2_AttributeList *al
DL_FED(fork, thread_fork, (DL_EVENT, OTF2_Paradigm m, uint32_t n), (l, t, pos, u, al, m, n))
DL_FED(join, thread_join, (DL_EVENT, OTF2_Paradigm m), (l, t, pos, u, al, m))
DL_FED(team_begin, team_begin, (DL_EVENT, OTF2_CommRef team), (l, t, pos, u, al, team))
DL_FED(team_end, team_end, (DL_EVENT, OTF2_CommRef team), (l, t, pos, u, al, team))
DL_FED(coll_end, mpi_collective_end,
       (DL_EVENT, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
        uint64_t received),
       (l, t, pos, u, al, op, comm, root, sent, received))
DL_FED(send, mpi_send, (DL_EVENT, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t length),
       (l, t, pos, u, al, peer, comm, tag, length))
DL_FED(isend, mpi_isend,
       (DL_EVENT, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t req),
       (l, t, pos, u, al, peer, comm, tag, length, req))
DL_FED(isend_complete, mpi_isend_complete, (DL_EVENT, uint64_t req), (l, t, pos, u, al, req))
DL_FED(irecv_request, mpi_irecv_request, (DL_EVENT, uint64_t req), (l, t, pos, u, al, req))
DL_FED(recv, mpi_recv, (DL_EVENT, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t length),
       (l, t, pos, u, al, peer, comm, tag, length))
DL_FED(irecv, mpi_irecv,
       (DL_EVENT, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t req),
       (l, t, pos, u, al, peer, comm, tag, length, req))

/* The pass with the handlers of prefix p (on_: its own; fed_: feeding the
   critical path's first stage; on_enter and on_leave feed it themselves,
   fed_next). */
#define DL_PASS(p)                                                                                 \
  {                                                                                                \
    .name = "delay", .direction = AZ_BACKWARD, .loc_size = sizeof(dl_loc),                         \
    .on = {.enter = on_enter,                                                                      \
           .leave = on_leave,                                                                      \
           .thread_fork = p##fork,                                                                 \
           .thread_join = p##join,                                                                 \
           .team_begin = p##team_begin,                                                            \
           .team_end = p##team_end,                                                                \
           .mpi_collective_end = p##coll_end,                                                      \
           .mpi_send = p##send,                                                                    \
           .mpi_isend = p##isend,                                                                  \
           .mpi_isend_complete = p##isend_complete,                                                \
           .mpi_irecv_request = p##irecv_request,                                                  \
           .mpi_recv = p##recv,                                                                    \
           .mpi_irecv = p##irecv},                                                                 \
    .begin = delay_begin, .window = delay_window, .loc_end = delay_loc_end, .end = delay_end,      \
    .local = 1, .local_min_decoders = 2,                                                           \
  }

const az_pass az_pass_delay = DL_PASS(on_);
const az_pass az_pass_delay_feeding = DL_PASS(fed_);
