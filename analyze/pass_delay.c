/* pass_delay.c -- delay costs (root causes) of MPI and OpenMP wait states, short-term
 * and long-term, and the classification of point-to-point waits: a
 * backward pass.
 *
 * A synchronisation point is an MPI collective (barrier, N x N, 1-to-N,
 * N-to-1) or a message (its send and its receive).  A wait there is caused
 * by the late party: the member that entered a barrier or N x N last, the
 * root of a 1-to-N, the last non-root of an N-to-1 (the root waits), the
 * sender of a Late Sender message, the receiver of a Late Receiver one.
 * Between the previous synchronisation the parties had in common (for a
 * collective: an operation on a communicator holding all its members; for
 * a message: an earlier message between the same two processes or a
 * collective both took part in) and this one, the late party ran longer
 * than the waiting one on some call paths: its delay on call path c is
 * max(0, late(c) - waiter(c)), each side's time on c in its own interval,
 * minus what it waited there.  The wait is charged to those call paths on
 * the late party's location (short-term, delay_<kind>), scaled by
 * w / (sum of delays + time the late party waited in its interval), at
 * most 1.  The part of the wait its own waiting explains (that waiting
 * time times the same scale) is passed on to the waits in its interval,
 * in proportion to each, and charged the same way, with the scale
 * cost / (sum of delays + waiting), to their causes as long-term cost
 * (delay_<kind>_longterm), and so on backwards.
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
 * docs/PROPERTIES.md, "Delay costs", states the rules; analyze/README.md
 * the limits. */
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_calltree.h"
#include "az_cells.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_metrics.h"
#include "az_pass.h"
#include "pomp_util.h"

typedef struct dl_inst dl_inst;
typedef struct dl_call dl_call;

typedef struct { /* a wait inside an interval: member `m` of `in` */
  dl_inst *in;
  uint32_t m;
} dl_ref;

typedef struct { /* time per call path in an interval, ticks */
  int32_t cnode;
  int64_t ticks;
} dl_slot;

typedef struct {
  uint32_t loc;
  int32_t cnode;   /* the operation's call path */
  az_time e, x;    /* enter and leave */
  int root;        /* the root of a rooted collective */
  int blocking;    /* a message sent or received by a blocking call */
  dl_call *call;   /* a receive: the receives completed by the same call */
  int posted;      /* met its operation's Enter */
  uint32_t nouter; /* the intervals its wait lies in */
  int64_t wait;    /* known once every member posted */
  double incoming; /* later waiting this wait caused, ticks */
  double idle;     /* idleness of OpenMP workers this wait caused, ticks */
  double prop;     /* the largest part of it that explains one later wait */
  dl_slot *map;    /* its interval's time per call path */
  size_t nmap, capmap;
  /* the map of a short interval (a loop of compute and a few MPI calls)
     without an allocation: malloc was 8 % of all passes with three */
  dl_slot few[6];
  dl_ref *inner; /* waits of this member inside its interval */
  size_t ninner, capinner;
  dl_ref few_inner[2]; /* the usual one or two, without an allocation */
  int closed;
} dl_member;

/* What an instance is: a collective (comm, seq) or a message (comm, src,
   dst, tag, seq); seq is counted from the end of the run. */
typedef struct {
  uint32_t comm, src, dst, tag; /* src, dst: process indices */
  int p2p;
  int omp; /* DL_OMP_BARRIER: (process, team, barrier from the end in
              instance seq); DL_OMP_IDLE: (process, idle workers in tag) */
  uint64_t seq;
} dl_key;

enum { DL_MPI, DL_OMP_BARRIER, DL_OMP_IDLE }; /* dl_key.omp */

/* Instances of fewer members than this are reused when freed: messages
   (two) and collectives of small communicators; a collective's, over 1 KiB,
   made glibc's malloc sort its free lists each time (malloc_consolidate). */
enum { DL_POOLED = 65 };

/* The kinds of synchronisation, their delay metrics in dl_metrics. */
enum dl_kind { DK_BARRIER, DK_N2N, DK_N21, DK_12N, DK_LS, DK_LR, DK_OMPBAR, DK_OMPIDLE, DK_NONE };

static const struct {
  int short_term, long_term;
} dl_metrics[DK_NONE] = {
    [DK_BARRIER] = {AZ_DELAY_BARRIER, AZ_DELAY_BARRIER_LONGTERM},
    [DK_N2N] = {AZ_DELAY_N2N, AZ_DELAY_N2N_LONGTERM},
    [DK_N21] = {AZ_DELAY_N21, AZ_DELAY_N21_LONGTERM},
    [DK_12N] = {AZ_DELAY_12N, AZ_DELAY_12N_LONGTERM},
    [DK_LS] = {AZ_DELAY_LATESENDER, AZ_DELAY_LATESENDER_LONGTERM},
    [DK_LR] = {AZ_DELAY_LATERECEIVER, AZ_DELAY_LATERECEIVER_LONGTERM},
    [DK_OMPBAR] = {AZ_DELAY_OMPBARRIER, AZ_DELAY_OMPBARRIER_LONGTERM},
    [DK_OMPIDLE] = {AZ_DELAY_OMPIDLE, AZ_DELAY_OMPIDLE_LONGTERM},
};

/* The classification of a point-to-point wait of kind LS or LR. */
static const struct {
  int direct, indirect, propagating, terminal;
} dl_classes[2] = {
    {AZ_MPI_WAIT_DIRECT_LATESENDER, AZ_MPI_WAIT_INDIRECT_LATESENDER,
     AZ_MPI_WAIT_PROPAGATING_LATESENDER, AZ_MPI_WAIT_TERMINAL_LATESENDER},
    {AZ_MPI_WAIT_DIRECT_LATERECEIVER, AZ_MPI_WAIT_INDIRECT_LATERECEIVER,
     AZ_MPI_WAIT_PROPAGATING_LATERECEIVER, AZ_MPI_WAIT_TERMINAL_LATERECEIVER},
};

struct dl_inst {
  dl_key key;
  int kind;                      /* enum dl_kind; a message's is known once posted */
  uint32_t late;                 /* the member the others waited for */
  uint32_t size, posted, closed; /* members (size: DL_SIZE_UNKNOWN until its team is read) */
  uint32_t cap;                  /* members allocated */
  uint32_t incoming_pending;     /* intervals holding one of its waits, not evaluated */
  uint32_t inner_unknown;        /* waits in its members' intervals not yet known */
  dl_inst **dependents;          /* instances waiting to know its waits */
  size_t ndep, capdep;
  dl_inst *hash_next; /* also the free list's link (dl_state.pool) */
  size_t hash;        /* key_hash(&key) */
  int settled;        /* its waits are final: those who need them may go on */
  int evaluated;
  uint32_t refs; /* references to its members from open or later intervals */
  int queued;
  dl_member m[]; /* size members, allocated with it */
};

/* The receives one call completed (MPI_Waitall, ...): their waits overlap,
   all from the call's Enter; as in p2p.c, only the longest is a wait, so
   the waits are final once every one of them is known. */
struct dl_call {
  dl_ref *recv;
  size_t n, cap, unknown, refs;
};

enum { DL_SEND, DL_RECV }; /* a message member's index */

/* An OpenMP barrier's team size is known once every member is read: after
   the window in which its master's fork was read (every member's events of
   the instance come after the fork). */
#define DL_SIZE_UNKNOWN UINT32_MAX

typedef struct { /* a message of the call whose Enter comes next */
  dl_key key;
  int side, blocking;
} dl_msg;

typedef struct {
  az_cursor cur;
  int32_t *stack; /* call path of each open region, innermost last */
  size_t depth, capstack;
  dl_ref *open; /* intervals open on this location */
  size_t nopen, capopen;
  dl_slot *acc; /* time per call path not yet added to the open intervals */
  size_t nacc, capacc;
  uint64_t *seq;   /* per communicator: its collectives met so far */
  az_time leave_t; /* the latest Leave met (the next in time) */
  struct {         /* the collective whose Enter comes next */
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
  int no_mpi; /* a worker thread: no MPI here */
  struct {    /* OpenMP: the team instance this thread is in */
    int in_team, master;
    uint32_t team, bar_seq, pdepth; /* pdepth: parallel regions open */
    uint64_t inst;                  /* instance of team, from the end */
    uint64_t *seen;                 /* per team: instances met */
    dl_inst **bars;                 /* master: the instance's barriers */
    size_t nbars, capbars;
    uint64_t idle_seq;
    struct { /* the barrier whose Enter comes next */
      int on;
      size_t depth;
      az_time x;
    } next;
  } omp;
  struct dl_state *st;
} dl_loc;

typedef struct { /* messages met so far on one channel and side */
  dl_key key;    /* seq unused */
  int side, used;
  uint64_t count;
} dl_chan;

typedef struct dl_state {
  dl_inst **hash; /* a power of two, at most one instance per bucket on average */
  size_t nhash, nlive;
  dl_inst **ready; /* instances to evaluate, in the order they became so */
  size_t nready, capready;
  dl_chan *chan; /* open addressing, a power of two */
  size_t nchan, capchan;
  int32_t *par_cnode;       /* per region: its only parallel call path, or -2 */
  int32_t *master_par;      /* per process: the master's parallel call path met last */
  uint32_t *idle;           /* per process: its OpenMP workers (omp_idle_threads) */
  dl_inst *pool[DL_POOLED]; /* freed instances by members (cap), for reuse */
  dl_inst **sizing;         /* OpenMP barriers whose fork was read in this window */
  size_t nsizing, capsizing;
} dl_state;

static uint64_t mix(uint64_t h, uint64_t v) { /* splitmix64's finaliser */
  h ^= v + 0x9e3779b97f4a7c15u;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
  return h ^ (h >> 31);
}

static size_t key_hash(const dl_key *k) {
  uint64_t h = mix(k->seq, ((uint64_t)k->comm << 32) | k->tag);
  return (size_t)mix(h, ((uint64_t)k->src << 34) ^ ((uint64_t)k->dst << 2) ^
                            ((uint64_t)k->omp << 1) ^ (uint64_t)k->p2p);
}

static int key_equal(const dl_key *a, const dl_key *b) {
  return a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag &&
         a->p2p == b->p2p && a->omp == b->omp && a->seq == b->seq;
}

static void grow_hash(dl_state *st) {
  size_t n = 2 * st->nhash;
  dl_inst **now = pu_calloc(n, sizeof *now);
  for (size_t h = 0; h < st->nhash; h++)
    while (st->hash[h]) {
      dl_inst *in = st->hash[h];
      st->hash[h] = in->hash_next;
      dl_inst **slot = &now[in->hash & (n - 1)];
      in->hash_next = *slot;
      *slot = in;
    }
  free(st->hash);
  st->hash = now;
  st->nhash = n;
}

/* The instance of key, created with room for cap members. */
static dl_inst *find_inst(dl_state *st, const dl_key *key, uint32_t size, uint32_t cap, int kind) {
  size_t hash = key_hash(key);
  dl_inst **slot = &st->hash[hash & (st->nhash - 1)];
  for (dl_inst *in = *slot; in; in = in->hash_next)
    if (in->hash == hash && key_equal(&in->key, key)) return in;
  size_t bytes = sizeof(dl_inst) + (cap ? cap : 1) * sizeof(dl_member);
  dl_inst *in = NULL;
  if (cap < DL_POOLED && st->pool[cap]) { /* most instances are messages */
    in = st->pool[cap];
    st->pool[cap] = in->hash_next;
    memset(in, 0, bytes);
  } else {
    in = pu_calloc(1, bytes);
  }
  in->hash = hash;
  in->key = *key;
  in->size = size;
  in->cap = cap;
  in->kind = kind;
  in->hash_next = *slot;
  *slot = in;
  if (++st->nlive > st->nhash) grow_hash(st);
  return in;
}

static void drop_inst(dl_state *st, dl_inst *in) {
  dl_inst **p = &st->hash[in->hash & (st->nhash - 1)];
  while (*p != in) p = &(*p)->hash_next;
  *p = in->hash_next;
  st->nlive--;
  for (uint32_t i = 0; i < in->cap; i++) {
    if (in->m[i].map != in->m[i].few) free(in->m[i].map);
    if (in->m[i].inner != in->m[i].few_inner) free(in->m[i].inner);
    dl_call *call = in->m[i].call;
    if (call && !--call->refs) {
      free(call->recv);
      free(call);
    }
  }
  free(in->dependents);
  if (in->cap < DL_POOLED) {
    in->hash_next = st->pool[in->cap];
    st->pool[in->cap] = in;
  } else {
    free(in);
  }
}

/* Room for one more of n elements in arr, an array that starts in the
   inline storage `few` (nfew elements) and doubles on the heap. */
static void *room(void *arr, void *few, size_t nfew, size_t n, size_t *cap, size_t elem) {
  if (!arr) {
    *cap = nfew;
    return few;
  }
  if (n < *cap) return arr;
  void *more = pu_malloc(2 * *cap * elem);
  memcpy(more, arr, n * elem);
  if (arr != few) free(arr);
  *cap *= 2;
  return more;
}

/* Appends r to the waits inside mb's interval. */
static void add_inner(dl_member *mb, dl_ref r) {
  mb->inner = room(mb->inner, mb->few_inner, sizeof mb->few_inner / sizeof mb->few_inner[0],
                   mb->ninner, &mb->capinner, sizeof *mb->inner);
  mb->inner[mb->ninner++] = r;
}

/* The number of messages met before on this channel and side (counted
   from the end), and one more. */
static uint64_t chan_next(dl_state *st, dl_key key, int side) {
  key.seq = 0;
  if (2 * (st->nchan + 1) > st->capchan) { /* grow: rehash */
    size_t cap = st->capchan ? 2 * st->capchan : 256;
    dl_chan *old = st->chan, *now = pu_calloc(cap, sizeof *now);
    for (size_t i = 0; i < st->capchan; i++) {
      if (!old[i].used) continue;
      size_t h = (key_hash(&old[i].key) + (size_t)old[i].side) & (cap - 1);
      while (now[h].used) h = (h + 1) & (cap - 1);
      now[h] = old[i];
    }
    free(old);
    st->chan = now;
    st->capchan = cap;
  }
  size_t h = (key_hash(&key) + (size_t)side) & (st->capchan - 1);
  while (st->chan[h].used && !(st->chan[h].side == side && key_equal(&st->chan[h].key, &key)))
    h = (h + 1) & (st->capchan - 1);
  if (!st->chan[h].used) {
    st->chan[h] = (dl_chan){.key = key, .side = side, .used = 1};
    st->nchan++;
  }
  return st->chan[h].count++;
}

static dl_member *member(dl_ref r) { return &r.in->m[r.m]; }

/* The collectives analysed and their kind (DK_NONE: no synchronisation
   point here; analyze/README.md, limits).  Barrier and N x N by the
   operation, 1-to-N and N-to-1 by the region's role, as collective.c. */
static int coll_kind(OTF2_CollectiveOp op, int role) {
  switch (op) {
  case OTF2_COLLECTIVE_OP_BARRIER: return DK_BARRIER;
  case OTF2_COLLECTIVE_OP_ALLREDUCE:
  case OTF2_COLLECTIVE_OP_ALLGATHER:
  case OTF2_COLLECTIVE_OP_ALLGATHERV:
  case OTF2_COLLECTIVE_OP_ALLTOALL:
  case OTF2_COLLECTIVE_OP_ALLTOALLV:
  case OTF2_COLLECTIVE_OP_ALLTOALLW:
  case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
  case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: return DK_N2N;
  case OTF2_COLLECTIVE_OP_SCAN:
  case OTF2_COLLECTIVE_OP_EXSCAN: return DK_NONE;
  default: break;
  }
  if (role == OTF2_REGION_ROLE_COLL_ONE2ALL) return DK_12N;
  if (role == OTF2_REGION_ROLE_COLL_ALL2ONE) return DK_N21;
  return DK_NONE;
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

/* 1 when a collective on comm is a synchronisation every member of `in`
   took part in. */
static int coll_covers(const az_defs *d, const dl_inst *in, uint32_t comm) {
  if (in->key.omp) return 0; /* threads of one process: MPI does not end it */
  if (in->key.p2p) return comm_has(d, comm, in->key.src) && comm_has(d, comm, in->key.dst);
  return comm_within(d, in->key.comm, comm);
}

static void map_add(dl_member *mb, int32_t cnode, int64_t ticks) {
  for (size_t i = 0; i < mb->nmap; i++)
    if (mb->map[i].cnode == cnode) {
      mb->map[i].ticks += ticks;
      return;
    }
  mb->map = room(mb->map, mb->few, sizeof mb->few / sizeof mb->few[0], mb->nmap, &mb->capmap,
                 sizeof *mb->map);
  mb->map[mb->nmap++] = (dl_slot){cnode, ticks};
}

static int64_t map_get(const dl_member *mb, int32_t cnode) {
  for (size_t i = 0; i < mb->nmap; i++)
    if (mb->map[i].cnode == cnode) return mb->map[i].ticks;
  return 0;
}

/* A member's map holds its time per call path (slot cnode >= 0) and,
   once net_map ran, its waiting per call path (slot wait_slot(cnode)). */
static int32_t wait_slot(int32_t cnode) { return -2 - cnode; }

/* Moves the member's waits inside its interval out of its time into its
   waiting; returns their sum. */
static int64_t net_map(dl_member *mb) {
  int64_t waited = 0;
  for (size_t i = 0; i < mb->ninner; i++) {
    const dl_member *w = member(mb->inner[i]);
    if (!w->wait) continue;
    map_add(mb, w->cnode, -w->wait);
    map_add(mb, wait_slot(w->cnode), w->wait);
    waited += w->wait;
  }
  return waited;
}

static int ready(const dl_inst *in) {
  return in->settled && in->closed == in->size && !in->inner_unknown && !in->incoming_pending;
}

/* Costs are not negative: rounded to the nearest tick. */
static int64_t ticks_of(double v) { return (int64_t)(v + 0.5); }

/* Charges one waiter's wait (short-term) and its incoming cost (long-term)
   to the late member's delays; passes the part its waiting explains on
   to the waits in its interval.  Waiting explains only as far as the late
   member waited longer than the waiter on the same call path (*explained):
   waits both had, such as the noise of a halo exchange, cancel as time
   does.  Returns the short-term scale (wait over delays and explaining
   waiting, at most 1), or -1 when nothing explains the wait. */
static double charge_waiter(az_analysis *a, const dl_inst *in, dl_member *late, int64_t waited,
                            const dl_member *w, double *explained) {
  double sum = 0, excess = 0;
  for (size_t i = 0; i < late->nmap; i++) {
    int64_t d = late->map[i].ticks - map_get(w, late->map[i].cnode);
    if (d <= 0) continue;
    if (late->map[i].cnode < -1) excess += (double)d;
    sum += (double)d;
  }
  *explained = excess;
  if (sum <= 0) return -1; /* nothing the late member did explains it */
  double s = (double)w->wait / sum, l = w->incoming / sum, idle = w->idle / sum;
  if (s > 1) s = 1;
  for (size_t i = 0; i < late->nmap; i++) {
    int64_t d = late->map[i].ticks - map_get(w, late->map[i].cnode);
    if (d <= 0 || late->map[i].cnode < 0) continue;
    if (s > 0)
      az_charge(a, late->loc, late->map[i].cnode, dl_metrics[in->kind].short_term,
                ticks_of((double)d * s));
    if (l > 0)
      az_charge(a, late->loc, late->map[i].cnode, dl_metrics[in->kind].long_term,
                ticks_of((double)d * l));
    if (idle > 0)
      az_charge(a, late->loc, late->map[i].cnode, AZ_DELAY_OMPIDLE_LONGTERM,
                ticks_of((double)d * idle));
  }
  double passed = excess * (s + l);
  for (size_t i = 0; i < late->ninner && waited > 0; i++) {
    dl_member *inner = member(late->inner[i]);
    double share = (double)inner->wait / (double)waited;
    inner->incoming += passed * share;
    inner->idle += excess * idle * share;
    if (s * excess * share > inner->prop) inner->prop = s * excess * share;
  }
  return s;
}

/* A point-to-point wait split into direct / indirect (scale: what
   charge_waiter returned) and propagating / terminal. */
static void classify(az_analysis *a, const dl_inst *in, const dl_member *w, double explained,
                     double scale) {
  int k = in->kind == DK_LS ? 0 : 1;
  int64_t indirect = scale > 0 ? ticks_of(scale * explained) : 0;
  if (indirect > w->wait) indirect = w->wait;
  int64_t propagating = ticks_of(w->prop);
  if (propagating > w->wait) propagating = w->wait;
  az_charge(a, w->loc, w->cnode, dl_classes[k].direct, w->wait - indirect);
  az_charge(a, w->loc, w->cnode, dl_classes[k].indirect, indirect);
  az_charge(a, w->loc, w->cnode, dl_classes[k].propagating, propagating);
  az_charge(a, w->loc, w->cnode, dl_classes[k].terminal, w->wait - propagating);
}

static void check_ready(dl_state *st, dl_inst *in) {
  if (in->queued || !ready(in)) return;
  in->queued = 1;
  PU_PUSH(st->ready, st->nready, st->capready, in);
}

/* A serial phase of the master: its `idle` workers wait for it all along.
   Its time on each call path, times idle, is their short-term cost; its
   waits there pass the idleness on to their causes (long-term). */
static void charge_idle(az_analysis *a, dl_inst *in) {
  dl_member *master = &in->m[0];
  double idle = (double)in->key.tag;
  net_map(master);
  for (size_t i = 0; i < master->nmap; i++)
    if (master->map[i].cnode >= 0 && master->map[i].ticks > 0)
      az_charge(a, master->loc, master->map[i].cnode, AZ_DELAY_OMPIDLE,
                ticks_of((double)master->map[i].ticks * idle));
  for (size_t i = 0; i < master->ninner; i++) {
    dl_member *inner = member(master->inner[i]);
    if (inner->wait > 0) inner->idle += idle * (double)inner->wait;
  }
}

static void evaluate(az_analysis *a, dl_state *st, dl_inst *in) {
  int64_t waited = 0;
  if (in->kind == DK_OMPIDLE) charge_idle(a, in);
  for (uint32_t i = 0; in->kind != DK_OMPIDLE && i < in->size; i++) {
    int64_t own = net_map(&in->m[i]);
    if (i == in->late) waited = own;
  }
  for (uint32_t i = 0; in->kind != DK_NONE && in->kind != DK_OMPIDLE && i < in->size; i++) {
    dl_member *w = &in->m[i];
    if (i == in->late || (w->wait <= 0 && w->incoming <= 0 && w->idle <= 0)) continue;
    double explained = 0;
    double scale = charge_waiter(a, in, &in->m[in->late], waited, w, &explained);
    if (in->key.p2p && w->wait > 0) classify(a, in, w, explained, scale);
  }
  /* the earlier instances whose waits lie in these intervals now have
     every cost these passed on */
  for (uint32_t i = 0; i < in->size; i++)
    for (size_t k = 0; k < in->m[i].ninner; k++) {
      dl_inst *earlier = in->m[i].inner[k].in;
      if (member(in->m[i].inner[k])->wait > 0) { /* else not counted: settle */
        earlier->incoming_pending--;
        check_ready(st, earlier);
      }
      if (!--earlier->refs && earlier->evaluated) drop_inst(st, earlier);
    }
  /* kept while a later interval still refers to one of its members */
  in->evaluated = 1;
  if (!in->refs) drop_inst(st, in);
}

/* Evaluates what became ready (a queue, not recursion: a chain of
   instances is as long as the run). */
static void drain(az_analysis *a, dl_state *st) {
  while (st->nready) {
    dl_inst *in = st->ready[--st->nready];
    evaluate(a, st, in);
  }
}

static int64_t positive(az_time from, az_time to) { return to > from ? (int64_t)(to - from) : 0; }
static az_time earlier_of(az_time a, az_time b) { return a < b ? a : b; }

/* Barrier, N x N: everyone waits for the last to enter. */
static void waits_nxn(dl_inst *in) {
  for (uint32_t i = 1; i < in->size; i++)
    if (in->m[i].e > in->m[in->late].e ||
        (in->m[i].e == in->m[in->late].e && in->m[i].loc < in->m[in->late].loc))
      in->late = i;
  az_time latest = in->m[in->late].e;
  for (uint32_t i = 0; i < in->size; i++)
    in->m[i].wait = positive(in->m[i].e, earlier_of(latest, in->m[i].x));
}

/* 1-to-N: the others wait for the root; N-to-1: the root waits for the
   last of the others (collective.c's Late Broadcast and Early Reduce). */
static void waits_rooted(dl_inst *in) {
  uint32_t root = in->size;
  if (in->size < 2) {
    in->kind = DK_NONE;
    return;
  }
  for (uint32_t i = 0; i < in->size; i++)
    if (in->m[i].root) root = i;
  if (root == in->size) { /* no root recorded: no waits */
    in->kind = DK_NONE;
    return;
  }
  if (in->kind == DK_12N) {
    in->late = root;
    for (uint32_t i = 0; i < in->size; i++)
      if (i != root) in->m[i].wait = positive(in->m[i].e, earlier_of(in->m[root].e, in->m[i].x));
    return;
  }
  in->late = root ? 0 : 1;
  for (uint32_t i = 0; i < in->size; i++)
    if (i != root && in->m[i].e > in->m[in->late].e) in->late = i;
  in->m[root].wait = positive(in->m[root].e, earlier_of(in->m[in->late].e, in->m[root].x));
}

/* A message: Late Sender (the receiver entered its completing call before
   the send), else Late Receiver (a blocking send that waited for its
   blocking receive to be posted, as p2p.c), else no wait. */
static void waits_message(dl_inst *in) {
  dl_member *snd = &in->m[DL_SEND], *rcv = &in->m[DL_RECV];
  int64_t ls = positive(rcv->e, earlier_of(snd->e, rcv->x));
  if (ls > 0) {
    in->kind = DK_LS, in->late = DL_SEND, rcv->wait = ls;
  } else if (snd->blocking && rcv->blocking && rcv->e > snd->e && rcv->e < snd->x) {
    in->kind = DK_LR, in->late = DL_RECV, snd->wait = (int64_t)(rcv->e - snd->e);
  } else {
    in->kind = DK_NONE;
  }
}

/* The instance's waits are final: the instances waiting to know them. */
static void settle(dl_state *st, dl_inst *in) {
  in->settled = 1;
  /* a member that did not wait passes nothing back: no need to wait for
     the intervals it lies in (so waits go back in time, never around a
     ring of messages) */
  for (uint32_t i = 0; i < in->size; i++)
    if (in->m[i].wait <= 0) {
      in->incoming_pending -= in->m[i].nouter;
      in->m[i].nouter = 0;
    }
  for (size_t k = 0; k < in->ndep; k++) {
    in->dependents[k]->inner_unknown--;
    check_ready(st, in->dependents[k]);
  }
  in->ndep = 0;
  check_ready(st, in);
}

/* Every receive of the call is known: the longest wait stays (the first
   of equal ones), the others are no waits. */
static void settle_call(dl_state *st, dl_call *call) {
  size_t longest = 0;
  for (size_t i = 1; i < call->n; i++)
    if (member(call->recv[i])->wait > member(call->recv[longest])->wait) longest = i;
  for (size_t i = 0; i < call->n; i++)
    if (i != longest) member(call->recv[i])->wait = 0;
  for (size_t i = 0; i < call->n; i++) settle(st, call->recv[i].in);
}

/* Every member is in: the waits, final once the receiving call's are. */
static void all_posted(dl_state *st, dl_inst *in) {
  if (in->key.p2p) waits_message(in);
  else if (in->kind == DK_12N || in->kind == DK_N21) waits_rooted(in);
  else waits_nxn(in);
  dl_call *call = in->key.p2p ? in->m[DL_RECV].call : NULL;
  if (!call) settle(st, in);
  else if (!--call->unknown) settle_call(st, call);
}

/* The member's interval reached its start. */
static void close_interval(dl_state *st, dl_ref r) {
  dl_member *mb = member(r);
  mb->closed = 1;
  r.in->closed++;
  for (size_t i = 0; i < mb->ninner; i++) {
    dl_inst *earlier = mb->inner[i].in;
    if (earlier->settled) continue;
    r.in->inner_unknown++;
    PU_PUSH(earlier->dependents, earlier->ndep, earlier->capdep, r.in);
  }
  check_ready(st, r.in);
}

/* The time since the event after this one (in time), on the innermost
   region, for every interval open here.  It is added up per call path
   and given to them when the set of open intervals changes (flush): one
   look-up per event instead of one per event and open interval. */
static void attribute(dl_loc *s) {
  if (!s->nopen || !s->depth || s->cur.prev == UINT64_MAX || s->cur.prev <= s->cur.last) return;
  int64_t ticks = (int64_t)(s->cur.prev - s->cur.last);
  int32_t cnode = s->stack[s->depth - 1];
  for (size_t k = s->nacc; k-- > 0;)
    if (s->acc[k].cnode == cnode) {
      s->acc[k].ticks += ticks;
      return;
    }
  dl_slot slot = {cnode, ticks};
  PU_PUSH(s->acc, s->nacc, s->capacc, slot);
}

/* Before an interval opens or closes here: the time added up so far
   belongs to those open now. */
static void flush(dl_loc *s) {
  for (size_t k = 0; k < s->nacc; k++)
    for (size_t i = 0; i < s->nopen; i++)
      map_add(member(s->open[i]), s->acc[k].cnode, s->acc[k].ticks);
  s->nacc = 0;
}

/* The call path a worker's outermost region gets: under the master's
   call path at the fork, as the forward pass gives it.  Not known here
   (the master's fork is read later); the region's only parallel call path,
   else the one the master met last. */
static int32_t worker_parent(const dl_loc *s, int32_t region) {
  const az_calltree *tree = &s->cur.a->tree;
  int32_t c = s->st->par_cnode[region];
  if (c == -2) c = s->st->master_par[s->cur.proc];
  if (c >= 0 && tree->nodes[c].region == region) return tree->nodes[c].parent;
  return -1;
}

/* Closes the open intervals a synchronisation ends: those for which
   `ends` holds. */
static void close_where(dl_loc *s, int (*ends)(const dl_loc *, const dl_inst *, uint32_t),
                        uint32_t arg) {
  size_t kept = 0;
  for (size_t i = 0; i < s->nopen; i++) {
    if (!ends(s, s->open[i].in, arg)) {
      s->open[kept++] = s->open[i];
      continue;
    }
    if (kept == i) flush(s); /* the first to close: the set is still whole */
    close_interval(s->st, s->open[i]);
  }
  s->nopen = kept;
}

/* OpenMP intervals of kind (DL_OMP_BARRIER, DL_OMP_IDLE). */
static int omp_ends(const dl_loc *s, const dl_inst *in, uint32_t kind) {
  (void)s;
  return in->key.omp == (int)kind;
}

/* An OpenMP barrier of the outermost team instance. */
static int team_barrier(const dl_loc *s, const az_region *rg) {
  return s->omp.in_team && s->omp.pdepth == 1 &&
         (rg->kind == AZ_RK_EBARRIER || rg->kind == AZ_RK_IBARRIER);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  const az_defs *d = &s->cur.a->defs;
  if (r >= d->num_regions || !d->regions[r].defined) { /* the forward pass only warned */
    az_fail(&s->cur.a->diag, "%s: event %llu: Leave of undefined region %u", s->cur.label,
            (unsigned long long)pos, r);
    s->cur.failed = 1;
    return OTF2_CALLBACK_INTERRUPT;
  }
  attribute(s);
  const az_region *rg = &d->regions[r];
  int32_t parent = s->depth                           ? s->stack[s->depth - 1]
                   : s->omp.in_team && !s->omp.master ? worker_parent(s, (int32_t)r)
                                                      : -1;
  int32_t cnode = az_calltree_child(&s->cur.a->tree, parent, (int32_t)r);
  if (rg->kind == AZ_RK_PARALLEL) {
    s->omp.pdepth++;
    if (s->omp.master) s->st->master_par[s->cur.proc] = cnode;
  }
  if (team_barrier(s, rg)) { /* the time after it is the next barrier's */
    close_where(s, omp_ends, DL_OMP_BARRIER);
    s->omp.next.on = 1;
    s->omp.next.depth = s->depth;
    s->omp.next.x = t;
  }
  PU_PUSH(s->stack, s->depth, s->capstack, cnode);
  s->leave_t = t;
  return az_next_back(&s->cur);
}

/* Member `index` of `in` met its operation's Enter: its wait lies in every
   interval open here (its own interval opens afterwards: open_interval);
   a member that cannot wait is in none. */
static dl_ref post(dl_loc *s, dl_inst *in, uint32_t index, int32_t cnode, az_time e, az_time x,
                   int can_wait) {
  dl_ref r = {in, index};
  dl_member *mb = member(r);
  in->posted++;
  mb->posted = 1;
  mb->loc = s->cur.loc;
  mb->cnode = cnode;
  mb->e = e;
  mb->x = x;
  for (size_t i = 0; can_wait && i < s->nopen; i++) {
    dl_member *outer = member(s->open[i]);
    add_inner(outer, r);
    in->incoming_pending++;
    in->refs++;
    mb->nouter++;
  }
  return r;
}

static void open_interval(dl_loc *s, dl_ref r) {
  flush(s);
  PU_PUSH(s->open, s->nopen, s->capopen, r);
  if (r.in->posted == r.in->size) all_posted(s->st, r.in);
}

static void post_collective(dl_loc *s, int32_t cnode, az_time e) {
  const az_defs *d = &s->cur.a->defs;
  dl_key key = {.comm = s->coll.comm, .seq = s->coll.seq};
  uint32_t size = d->comms[key.comm].size;
  dl_inst *in = find_inst(s->st, &key, size, size, s->coll.kind);
  if (in->posted == in->size) return; /* more members than the communicator: not analysed */
  /* the root of a 1-to-N and the others of an N-to-1 never wait */
  int can_wait = s->coll.kind == DK_12N ? !s->coll.root : s->coll.kind == DK_N21 ? s->coll.root : 1;
  dl_ref r = post(s, in, in->posted, cnode, e, s->coll.x, can_wait);
  member(r)->root = s->coll.root;
  open_interval(s, r);
}

/* The messages of one call (MPI_Sendrecv, MPI_Waitall, ...) all wait from
   its Enter: none lies in another's interval. */
static void post_messages(dl_loc *s, int32_t cnode, az_time e) {
  dl_ref few[8], *refs = s->msgs.n <= 8 ? few : pu_malloc(s->msgs.n * sizeof *refs);
  size_t n = 0, nrecv = 0;
  for (size_t i = 0; i < s->msgs.n; i++) nrecv += s->msgs.v[i].side == DL_RECV;
  dl_call *call = nrecv > 1 ? pu_calloc(1, sizeof *call) : NULL;
  for (size_t i = 0; i < s->msgs.n; i++) {
    const dl_msg *m = &s->msgs.v[i];
    dl_inst *in = find_inst(s->st, &m->key, 2, 2, DK_NONE);
    if (in->m[m->side].posted) continue; /* posted twice: not analysed */
    /* a non-blocking send never waits (Late Receiver: blocking only) */
    int can_wait = m->side == DL_RECV || m->blocking;
    refs[n] = post(s, in, (uint32_t)m->side, cnode, e, s->msgs.x, can_wait);
    member(refs[n])->blocking = m->blocking;
    if (call && m->side == DL_RECV) {
      member(refs[n])->call = call;
      PU_PUSH(call->recv, call->n, call->cap, refs[n]);
    }
    n++;
  }
  if (call) call->unknown = call->refs = call->n;
  if (call && !call->n) free(call);
  for (size_t i = 0; i < n; i++) open_interval(s, refs[i]);
  if (refs != few) free(refs);
  s->msgs.n = 0;
}

/* Member of the OpenMP barrier whose Enter this is: the j-th from the end
   of its team instance on every member. */
static void post_omp_barrier(dl_loc *s, int32_t cnode, az_time e) {
  const az_process *p = &s->cur.a->defs.procs[s->cur.proc];
  dl_key key = {.comm = s->cur.proc,
                .tag = s->omp.team,
                .src = s->omp.bar_seq++,
                .omp = DL_OMP_BARRIER,
                .seq = s->omp.inst};
  dl_inst *in = find_inst(s->st, &key, DL_SIZE_UNKNOWN, p->num_locs, DK_OMPBAR);
  if (in->posted == in->cap || in->posted == in->size) return; /* not analysed */
  dl_ref r = post(s, in, in->posted, cnode, e, s->omp.next.x, 1);
  if (s->omp.master) PU_PUSH(s->omp.bars, s->omp.nbars, s->omp.capbars, in);
  open_interval(s, r);
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s);
  if (!s->depth) return az_next_back(&s->cur); /* the forward pass warned */
  int32_t cnode = s->stack[--s->depth];
  if (r < s->cur.a->defs.num_regions && s->cur.a->defs.regions[r].kind == AZ_RK_PARALLEL &&
      s->omp.pdepth)
    s->omp.pdepth--;
  if (s->omp.next.on && s->omp.next.depth == s->depth) {
    s->omp.next.on = 0;
    post_omp_barrier(s, cnode, t);
    drain(s->cur.a, s->st);
  }
  if (s->coll.on && s->coll.depth == s->depth) {
    s->coll.on = 0;
    post_collective(s, cnode, t);
    drain(s->cur.a, s->st);
  }
  if (s->msgs.n && s->msgs.depth == s->depth) {
    post_messages(s, cnode, t);
    drain(s->cur.a, s->st);
  }
  return az_next_back(&s->cur);
}

static int coll_ends(const dl_loc *s, const dl_inst *in, uint32_t comm) {
  return coll_covers(&s->cur.a->defs, in, comm);
}

/* A message with process `peer` ends the intervals of earlier messages
   (later in time) between the same two processes. */
static int message_ends(const dl_loc *s, const dl_inst *in, uint32_t peer) {
  uint32_t me = s->cur.proc;
  return in->key.p2p &&
         ((in->key.src == me && in->key.dst == peer) || (in->key.src == peer && in->key.dst == me));
}

/* 1 when this process is the root (communicator rank `root`) of comm. */
static int is_root(const dl_loc *s, uint32_t comm, uint32_t root) {
  return az_comm_world(&s->cur.a->defs, comm, root, s->cur.proc) == s->cur.proc;
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received) {
  (void)l;
  (void)al;
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
  int kind = coll_kind(op, rg->role);
  if (d->comms[comm].self || kind == DK_NONE) {
    attribute(s);
    return az_next_back(&s->cur);
  }
  /* the time after this collective's Leave belongs to the intervals it
     ends, its own time to those still open */
  close_where(s, coll_ends, comm);
  attribute(s);
  s->coll.on = 1;
  s->coll.kind = kind;
  s->coll.root = (kind == DK_12N || kind == DK_N21) && is_root(s, comm, root);
  s->coll.comm = comm;
  s->coll.seq = seq;
  s->coll.depth = s->depth - 1;
  s->coll.x = s->leave_t;
  drain(s->cur.a, s->st);
  return az_next_back(&s->cur);
}

/* A send or a completed receive: the message's member posts at its
   call's Enter. */
static OTF2_CallbackCode on_message(dl_loc *s, OTF2_TimeStamp t, uint64_t pos, uint32_t peer_rank,
                                    OTF2_CommRef comm, uint32_t tag, int side, int blocking) {
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  const az_defs *d = &s->cur.a->defs;
  if (s->no_mpi) {
    attribute(s);
    return az_next_back(&s->cur);
  }
  uint32_t peer = az_comm_world(d, comm, peer_rank, s->cur.proc);
  if (!s->depth || peer == UINT32_MAX || d->comms[comm].self || peer == s->cur.proc) {
    attribute(s); /* warned by the forward pass, or no synchronisation */
    return az_next_back(&s->cur);
  }
  dl_key key = {.comm = comm, .tag = tag, .p2p = 1};
  key.src = side == DL_SEND ? s->cur.proc : peer;
  key.dst = side == DL_SEND ? peer : s->cur.proc;
  key.seq = chan_next(s->st, key, side);
  close_where(s, message_ends, peer);
  attribute(s);
  if (s->msgs.n && s->msgs.depth != s->depth - 1) s->msgs.n = 0; /* not in one call */
  dl_msg m = {key, side, blocking};
  PU_PUSH(s->msgs.v, s->msgs.n, s->msgs.cap, m);
  s->msgs.depth = s->depth - 1;
  s->msgs.x = s->leave_t;
  drain(s->cur.a, s->st);
  return az_next_back(&s->cur);
}

static OTF2_CallbackCode on_send(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, uint32_t receiver, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t length) {
  (void)l, (void)al, (void)length;
  return on_message(u, t, pos, receiver, comm, tag, DL_SEND, 1);
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t receiver, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t length, uint64_t request) {
  (void)l, (void)al, (void)length, (void)request;
  return on_message(u, t, pos, receiver, comm, tag, DL_SEND, 0);
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, uint32_t sender, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t length) {
  (void)l, (void)al, (void)length;
  return on_message(u, t, pos, sender, comm, tag, DL_RECV, 1);
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t sender, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t length, uint64_t request) {
  (void)l, (void)al, (void)length, (void)request;
  return on_message(u, t, pos, sender, comm, tag, DL_RECV, 0);
}

/* ---- OpenMP: team instances and the master's serial phases ------------ */

/* The master's serial phase that ends at t (its fork, or the end of its
   record): an instance of one member whose interval goes back to the
   previous join. */
static void open_idle(dl_loc *s, az_time t) {
  uint32_t idle = s->st->idle[s->cur.proc];
  if (!idle) return;
  dl_key key = {.comm = s->cur.proc, .tag = idle, .omp = DL_OMP_IDLE, .seq = s->omp.idle_seq++};
  dl_inst *in = find_inst(s->st, &key, 1, 1, DK_OMPIDLE);
  open_interval(s, post(s, in, 0, s->depth ? s->stack[s->depth - 1] : -1, t, t, 0));
}

/* The window in which the masters' forks were read is over: every member
   of their barriers posted (a worker cut off before one of them is no
   member of it). */
static void size_barriers(dl_state *st) {
  for (size_t i = 0; i < st->nsizing; i++) {
    dl_inst *in = st->sizing[i];
    in->size = in->posted;
    all_posted(st, in);
  }
  st->nsizing = 0;
}

static void delay_window(az_replay *r, az_time stop) {
  (void)stop;
  dl_state *st = r->data;
  size_barriers(st);
  drain(r->a, st);
}

static OTF2_CallbackCode on_fork(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_Paradigm model, uint32_t n) {
  (void)l, (void)al, (void)model, (void)n;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s);
  for (size_t i = 0; i < s->omp.nbars; i++) /* the team is read after this window */
    PU_PUSH(s->st->sizing, s->st->nsizing, s->st->capsizing, s->omp.bars[i]);
  s->omp.nbars = 0;
  open_idle(s, t);
  drain(s->cur.a, s->st);
  return az_next_back(&s->cur);
}

static OTF2_CallbackCode on_join(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_Paradigm model) {
  (void)l, (void)al, (void)model;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s); /* the time after the join is serial */
  close_where(s, omp_ends, DL_OMP_IDLE);
  drain(s->cur.a, s->st);
  return az_next_back(&s->cur);
}

/* Read backwards, a team instance starts at ThreadTeamEnd. */
static OTF2_CallbackCode on_team_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_CommRef team) {
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

static OTF2_CallbackCode on_team_begin(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                       OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)l, (void)al, (void)team;
  dl_loc *s = u;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s);
  close_where(s, omp_ends, DL_OMP_BARRIER);
  s->omp.in_team = 0;
  drain(s->cur.a, s->st);
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

/* Per process: its OpenMP workers, the threads the forward pass found idle. */
static uint32_t *idle_workers(const az_analysis *a) {
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

static void delay_begin(az_replay *r) {
  dl_state *st = pu_calloc(1, sizeof *st);
  st->nhash = 4096;
  st->hash = pu_calloc(st->nhash, sizeof *st->hash);
  r->data = st;
  const az_defs *d = &r->a->defs;
  st->par_cnode = parallel_cnodes(r->a);
  st->idle = idle_workers(r->a);
  st->master_par = pu_malloc((d->num_procs ? d->num_procs : 1) * sizeof *st->master_par);
  for (uint32_t p = 0; p < d->num_procs; p++) st->master_par[p] = -1;
  for (uint32_t l = 0; l < d->num_locs; l++) {
    dl_loc *s = (dl_loc *)az_replay_loc(r, l);
    if (!s->cur.a) continue;
    s->st = st;
    s->no_mpi = d->locs[l].thread != 0;
    s->omp.master = d->locs[l].thread == 0;
    s->seq = pu_calloc(d->num_comms ? d->num_comms : 1, sizeof *s->seq);
    s->omp.seen = pu_calloc(d->num_comms ? d->num_comms : 1, sizeof *s->omp.seen);
    if (s->omp.master) open_idle(s, 0); /* the serial phase that ends the run */
  }
}

/* The location's first event: its open intervals start with the run. */
static void delay_loc_end(az_replay *r, az_cursor *c, const char *cut) {
  (void)cut;
  dl_loc *s = (dl_loc *)c;
  flush(s);
  for (size_t i = 0; i < s->nopen; i++) close_interval(s->st, s->open[i]);
  s->nopen = 0;
  drain(r->a, s->st);
}

static void delay_end(az_replay *r, int ok) {
  (void)ok;
  dl_state *st = r->data;
  size_barriers(st);
  drain(r->a, st);
  /* instances never completed (members missing): no delay costs */
  for (size_t h = 0; h < st->nhash; h++)
    while (st->hash[h]) drop_inst(st, st->hash[h]);
  for (uint32_t l = 0; l < r->a->defs.num_locs; l++) {
    dl_loc *s = (dl_loc *)az_replay_loc(r, l);
    free(s->stack);
    free(s->open);
    free(s->acc);
    free(s->seq);
    free(s->msgs.v);
    free(s->omp.seen);
    free(s->omp.bars);
  }
  free(st->par_cnode);
  free(st->master_par);
  free(st->idle);
  free(st->sizing);
  for (size_t cap = 0; cap < DL_POOLED; cap++)
    while (st->pool[cap]) {
      dl_inst *in = st->pool[cap];
      st->pool[cap] = in->hash_next;
      free(in);
    }
  free(st->chan);
  free(st->ready);
  free(st->hash);
  free(st);
}

const az_pass az_pass_delay = {
    .name = "delay",
    .direction = AZ_BACKWARD,
    .loc_size = sizeof(dl_loc),
    .on = {.enter = on_enter,
           .leave = on_leave,
           .thread_fork = on_fork,
           .thread_join = on_join,
           .team_begin = on_team_begin,
           .team_end = on_team_end,
           .mpi_collective_end = on_coll_end,
           .mpi_send = on_send,
           .mpi_isend = on_isend,
           .mpi_recv = on_recv,
           .mpi_irecv = on_irecv},
    .begin = delay_begin,
    .window = delay_window,
    .loc_end = delay_loc_end,
    .end = delay_end,
};
