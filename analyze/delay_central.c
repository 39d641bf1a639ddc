/* delay_central.c -- the central part of the delay pass (az_delay.h): the
 * instances (collectives, messages, OpenMP barriers and serial phases),
 * their waits, and the delay costs and wait classes they charge.
 *
 * It applies the op logs of the local part (pass_delay.c) after each
 * backward window, the locations in order.  Each member of an instance
 * opens its interval at the operation's enter and closes it at its
 * previous common synchronisation (or its first event); an instance is
 * evaluated once every member closed its interval, every wait inside the
 * late member's interval is known, and every later instance whose
 * interval holds one of its waits was evaluated (its incoming cost is
 * complete).  So memory holds the instances in flight, not the trace.
 * pass_delay.c's head states the model; docs/PROPERTIES.md, "Delay
 * costs", the rules. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_defs.h"
#include "az_delay.h"
#include "az_metrics.h"
#include "pomp_util.h"

typedef struct dl_inst dl_inst;
typedef struct dl_call dl_call;
typedef struct dl_member dl_member;

/* A sum of costs passed on (incoming, idle), in fixed point: whole ticks
   and 2^-32 of a tick.  Each contribution is rounded to 2^-32 tick once
   and the sum is integer addition, so it does not depend on the order in
   which the later instances are evaluated (the serial pass's ready stack,
   the window size, or, divided, the order records arrive): sums of
   doubles differ in their last bits with the order, and a long-term
   cell near .5 tick with them.  Bound: the costs passed on are
   conserved along the chains (a waiter passes at most its wait plus its
   incoming on, split in shares that sum to 1; idleness: idle workers
   times a wait, passed on the same way), so a sum is at most the
   locations' total time in ticks, far below 2^62 (146 years of ns);
   the whole ticks saturate there rather than wrap.  The fraction, 2^-32
   tick, keeps 2^-33 tick of error per contribution: below a tick unless
   a wait gathers 2^32 contributions. */
typedef struct {
  int64_t ticks;
  uint32_t frac; /* 2^-32 tick */
} dl_fixed;

#define DL_FIXED_MAX ((int64_t)1 << 62)
#define DL_FIXED_ONE 4294967296.0 /* 2^32 */

/* Adds v (ticks, not negative) rounded to the nearest 2^-32 tick;
   saturates at DL_FIXED_MAX (an infinite v too). */
static void fixed_add(dl_fixed *sum, double v) {
  if (!(v > 0)) return;
  int64_t whole = DL_FIXED_MAX;
  uint64_t frac = 0;
  if (v < (double)DL_FIXED_MAX) {
    whole = (int64_t)v;
    frac = (uint64_t)((v - (double)whole) * DL_FIXED_ONE + 0.5); /* v - whole: exact */
  }
  uint64_t f = (uint64_t)sum->frac + frac; /* < 2^34 */
  whole += (int64_t)(f >> 32);
  sum->frac = (uint32_t)f;
  sum->ticks = whole < DL_FIXED_MAX - sum->ticks ? sum->ticks + whole : DL_FIXED_MAX;
}

static double fixed_value(dl_fixed v) { return (double)v.ticks + (double)v.frac / DL_FIXED_ONE; }
static int fixed_positive(dl_fixed v) { return v.ticks > 0 || v.frac > 0; }

typedef struct { /* a wait inside an interval: member `m` of `in` */
  dl_inst *in;
  uint32_t m;
} dl_ref;

/* A collective member's interval in segments (pass_delay.c,
   mark_interval): segment i runs from the later boundary (the operation's
   Enter for i = 0) back to rooted collective `at`, whose start info it
   keeps; the member's map and start are the last segment's.  Which of
   them a pair of members shares as a synchronisation is known once `at`
   is settled (synchronises).  slots: the segments' maps one after the
   other (slots_end: where segment i's ends); inner_end: the member's
   waits posted before it (in segment i or earlier).  A segment at a
   message (the latest of its pair in the interval, pass_delay.c's
   mark_at_message) that did not wait: ext, the pair's interval on from
   there, the message's own as it resolved through the messages before
   it (dl_thru: back to the pair's previous synchronisation). */
typedef struct {
  dl_start start;
  dl_inst *at;
  uint32_t slots_end, inner_end;
  dl_member *ext; /* NULL: none (yet) */
} dl_seg;
struct dl_segs {
  dl_seg *v;
  dl_slot *slots;
  size_t n, cap, nslots, capslots;
};

/* dl_member.closed: its interval reached its start (op_close), or,
   divided, it was posted on another process's location (remote_member):
   its interval is there, and no later interval here goes on through it
   (closed_resolved). */
enum { DL_CLOSED_HERE = 1, DL_CLOSED_ELSEWHERE };

/* The fields before few_inner are cleared when an instance is reused; the
   inline storage after them is not (its counts are): a message's two
   members clear 2 x 144 bytes, not the 2 x 576 of the whole members. */
struct dl_member {
  int64_t wait; /* known once every member posted */
  az_time e, x; /* enter and leave */
  uint32_t loc;
  int32_t cnode;        /* the operation's call path */
  uint32_t nouter;      /* the intervals its wait lies in */
  uint8_t root;         /* the root of a rooted collective */
  uint8_t blocking;     /* a message sent or received by a blocking call */
  uint8_t posted;       /* met its operation's Enter */
  uint8_t closed;       /* DL_CLOSED_HERE, DL_CLOSED_ELSEWHERE (above) */
  uint8_t thru;         /* its interval starts at a message not yet known to be a
                   synchronisation of the pair (dl_thru) */
  uint16_t thru_depth;  /* later intervals that go on through it (bounded) */
  uint8_t cost_kinds;   /* bit k: incoming[k] > 0 (most waits have none) */
  double prop;          /* the largest part of it that explains one later p2p wait */
  dl_start start;       /* the synchronisation its interval starts at */
  dl_call *call;        /* a receive: the receives completed by the same call */
  struct dl_segs *segs; /* a collective's: the rooted collectives its interval
                           went on through (NULL: none) */
  dl_slot *map;         /* its interval's time per call path (segments: the last) */
  dl_ref *inner;        /* waits inside its interval (drop_no_waits: not those known to be 0) */
  uint32_t nmap, capmap, ninner, capinner;
  dl_ref few_inner[3]; /* the usual one to three (an Isend's completion in a
                          loop), without an allocation; up to four in a
                          block (dl_block) */
  /* later waiting this wait caused, ticks, per kind of that waiting (as
     Scalasca keeps long-term costs: in the kind of the wait at the end of
     the chain; DK_OMPIDLE: idleness of OpenMP workers); incoming[k] is
     set only where cost_kinds has bit k (past few_inner: not cleared,
     incoming_of) */
  dl_fixed incoming[DK_NONE];
  /* the map of a short interval, without an allocation (a message
     between two iterations of a loop: its call paths and waits; 16 since
     intervals go on through the messages that did not wait: with 8, a
     third of heat 4x1's maps went to the heap) */
  dl_slot few[16];
};

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

struct dl_inst {      /* what a look-up reads first: its hash, link and key */
  size_t hash;        /* dl_key_hash(&key) */
  dl_inst *hash_next; /* also the free list's link (dl_central.pool) */
  dl_key key;
  int kind;                      /* enum dl_kind; a message's is known once posted */
  uint32_t late;                 /* the member the others waited for */
  uint32_t size, posted, closed; /* members (size: DL_SIZE_UNKNOWN until its team is read) */
  uint32_t cap;                  /* members allocated */
  uint32_t incoming_pending;     /* intervals holding one of its waits, not evaluated */
  uint32_t inner_unknown;        /* waits in its members' intervals not yet known */
  uint32_t refs;                 /* references to its members from open or later intervals */
  uint32_t through_unknown;      /* members whose interval may go on through an
                                    earlier message (dl_member.thru) */
  uint32_t holds;                /* later intervals that may go on through one of
                                    its members, not resolved (dl_thru) */
  uint8_t settled;               /* its waits are final: those who need them may go on
                     (DL_RELEASED: and its members released, release_early) */
  uint8_t evaluated;
  uint8_t queued;
  uint8_t heap;            /* evaluated: a member holds storage on the heap or a call */
  uint8_t expect_post;     /* a message received by MPI_Irecv: its posting part to come */
  uint8_t parts_unready;   /* parts not ready: it is evaluated with them */
  uint8_t calls;           /* calls completing its members, not resolved */
  uint8_t elsewhere;       /* divided: its late member is another analysis process's
                            (DL_KEPT: a collective, kept until evaluated there) */
  uint32_t remote_waiting; /* divided: waiters of other processes not yet received */
  /* divided, a message whose waiter is another process's: its final wait
     (DL_REC_SETTLE, resolve_call there) not yet known (DL_FINAL_AWAITED),
     or known (DL_FINAL_KNOWN; before its own waits: in final_wait) */
  uint8_t final_state;
  uint8_t final_index; /* the waiter's member (DL_SEND_DONE: its part) */
  /* a message: whether it waited, once known (1 no, 2 yes): its parts
     may be dropped with its evaluation while the instances whose
     segments end here (marks) still read it */
  uint8_t waited;
  uint8_t thru_queued; /* in dl_central.thru_work */
  /* divided, a message whose side is another process's: that side's part
     kept as a stub (DL_STUB_DONE, DL_STUB_POST; below, stub) */
  uint8_t stubbed;
  int64_t final_wait;
  /* a message: the instances whose segments end here, waiting to know
     whether it waited (boundary_known) */
  dl_inst **marks;
  size_t nmarks, capmarks;
  struct dl_thru *thru; /* the later intervals that start at one of its
                              members (a message), not resolved */
  uint32_t nthru, capthru;
  dl_inst **dependents; /* instances waiting to know its waits (up to eight
                            in a block, dl_block; freed once settled) */
  size_t ndep, capdep;
  /* a message: its parts, the Isend's completion and the Irecv's posting
     (non-blocking calls only); a part: part[0] its message */
  dl_inst *part[2];
  union {
    az_time fork; /* an OpenMP barrier: its master's ThreadFork, once sized */
    struct {      /* a message, stubbed: the part's enter and leave */
      az_time e, x;
    } stub;
  };
  dl_member m[]; /* size members, allocated with it */
};

enum { DL_FINAL_AWAITED = 1, DL_FINAL_KNOWN }; /* dl_inst.final_state */

/* dl_inst.stubbed.  Divided, a message's side replayed on another process
   comes in a record (DL_REC_MSG) with its part, where it has one: an
   Isend's completion (DL_STUB_DONE) or an Irecv's posting (DL_STUB_POST).
   Here that part is read for the message's waits only (waits_message:
   its enter and leave), so it is kept in the message as a stub
   (dl_inst.stub), not built as an instance (built, settled, made ready,
   evaluated and dropped with the message, as the serial pass's parts).
   One exception: an Isend's completion that waited, the waiter of a Late
   Receiver whose receive is replayed here, is evaluated here from its
   process's record, so it becomes a part when the waits are computed
   (part_of_stub).  The posting, a Late Receiver's late party, is
   replayed where its receive is: late_member takes the receive there. */
enum { DL_STUB_DONE = 1, DL_STUB_POST };

/* The messages one call completed (MPI_Waitall, MPI_Sendrecv, ...): their
   waits overlap, all from the call's Enter; as in p2p.c, only the longest
   Late Sender is a wait, and without one the longest Late Receiver, so the
   waits are final once every one of them is known. */
struct dl_call { /* one allocation with its members (new_call) */
  size_t n, unknown, refs;
  dl_ref mb[]; /* receives, blocking sends, Isend completions */
};

/* An OpenMP barrier's team size is known once every member is read: after
   the window in which its master's fork was read (every member's events of
   the instance come after the fork). */
#define DL_SIZE_UNKNOWN UINT32_MAX

/* Freed instances are kept for reuse by the number of members allocated,
   up to this: a collective's instance (a kilobyte or more) freed and
   allocated again cost malloc a consolidation of its fast bins each time
   (perf: 5% of the serial analysis on bench_analyze's trace). */
enum { DL_POOLS = 64 };

/* dl_inst.elsewhere: evaluated on another process; a collective there is
   kept here until that process dropped it (DL_REC_DONE), so a member
   posted here meanwhile finds it as a serial analysis does (posted once
   more than the communicator's size: not analysed). */
enum { DL_THERE = 1, DL_KEPT };

/* The small arrays outside the instances (a member's waits past the three
   inline, an instance's dependents) come from blocks of 64 bytes kept for
   reuse: nearly every message had one or two of them (in a ring of
   Isend / Recv / Wait an Isend's completion holds three waits: its
   iteration's receive, the previous iteration's receive and completion),
   and malloc and free took 7 % of the samples (perf, bench_analyze's
   8.14 M-event trace). */
enum { DL_BLOCK = 64, DL_BLOCKS_PER_CHUNK = 256 };
typedef union dl_block {
  union dl_block *next; /* in the free list */
  unsigned char bytes[DL_BLOCK];
} dl_block;
enum { DL_BLOCK_REFS = DL_BLOCK / sizeof(dl_ref), DL_BLOCK_DEPS = DL_BLOCK / sizeof(dl_inst *) };

typedef struct { /* an Isend completion (a part, az_delay.h) by its id */
  uint64_t id;
  dl_inst *in;
} dl_done;

typedef struct { /* a collective member posted on another process's location */
  uint32_t loc;
  uint32_t order; /* as received: the posts of one location keep theirs */
  uint64_t op, w[4];
} dl_rpost;

typedef struct { /* the central part's view of one location */
  dl_ref *open;  /* its open intervals, as the local part's list; in NULL:
                    a member not analysed */
  size_t nopen, capopen;
  dl_inst **bars; /* a master: the barriers of its team instance */
  size_t nbars, capbars;
  dl_done *done;          /* Isend completions whose Isend is not read yet */
  struct dl_await *await; /* intervals closed at a message whose member is
                             posted next here */
  size_t nawait, capawait;
  size_t ndone, capdone;
  size_t fresh; /* waits posted here since the last window (sweep_open) */
} dl_cloc;

struct dl_central {
  az_analysis *a;
  dl_inst **hash; /* a power of two, at most one instance per bucket on average */
  size_t nhash, nlive;
  dl_inst **ready; /* instances to evaluate, in the order they became so */
  size_t nready, capready;
  dl_inst *pool[DL_POOLS]; /* freed instances by members allocated, for reuse */
  struct dl_sizing {       /* OpenMP barriers whose fork was read in this window */
    dl_inst *in;
    az_time fork; /* the master's ThreadFork */
  } * sizing;
  size_t nsizing, capsizing;
  dl_inst **parts; /* the parts of messages (not in the hash: linked to their
                      message, or found by id, dl_cloc.done); a part's hash
                      is its index here */
  size_t nparts, capparts;
  dl_cloc *locs;     /* per location */
  dl_block *blocks;  /* free blocks */
  dl_block **chunks; /* what they were allocated in */
  size_t nchunks, capchunks;
  /* a divided analysis (az_delay.h, dl_link.owner; NULL serially): */
  dl_link *link;
  int *loc_owner;                     /* per location: the analysis process replaying it */
  dl_log *out;                        /* per analysis process: the records for it */
  dl_log *coll_out;                   /* per analysis process: the window's collective posts */
  dl_rpost *colls;                    /* other processes' collective posts of the window, */
  size_t ncolls, capcolls, next_coll; /* applied in location order */
  int colls_sorted;
  int ending;          /* the last drops: no records */
  dl_inst **thru_work; /* instances whose dl_thru may be resolved now */
  size_t nthru_work, capthru_work;
  int thru_busy;
  dl_map_index maps; /* merge_slots' */
  struct {           /* effective's maps */
    dl_slot *map;
    uint32_t cap;
  } eff[2];
};

static void *block_take(dl_central *st) {
  if (!st->blocks) {
    dl_block *chunk = pu_malloc(DL_BLOCKS_PER_CHUNK * sizeof *chunk);
    PU_PUSH(st->chunks, st->nchunks, st->capchunks, chunk);
    for (size_t i = DL_BLOCKS_PER_CHUNK; i-- > 0;) {
      chunk[i].next = st->blocks;
      st->blocks = &chunk[i];
    }
  }
  dl_block *b = st->blocks;
  st->blocks = b->next;
  return b;
}

static void block_give(dl_central *st, void *p) {
  dl_block *b = p;
  b->next = st->blocks;
  st->blocks = b;
}

/* An array of elements of `elem` bytes that lives in a block while it
   fits one (block_cap of them) and on the heap past that: freed, and
   grown to twice its capacity (*cap) keeping its n elements. */
static void blocked_free(dl_central *st, void *arr, size_t cap, size_t block_cap) {
  if (cap == block_cap) block_give(st, arr);
  else if (arr) free(arr); /* most instances have none: no call */
}

static void *blocked_grow(dl_central *st, void *arr, size_t n, size_t *cap, size_t block_cap,
                          size_t elem) {
  size_t more_cap = *cap ? 2 * *cap : block_cap;
  void *more = more_cap == block_cap ? block_take(st) : pu_malloc(more_cap * elem);
  if (n) memcpy(more, arr, n * elem);
  if (*cap) blocked_free(st, arr, *cap, block_cap);
  *cap = more_cap;
  return more;
}

/* Frees in's dependents (a block, or the heap past it). */
static void free_dependents(dl_central *st, dl_inst *in) {
  blocked_free(st, in->dependents, in->capdep, DL_BLOCK_DEPS);
  in->dependents = NULL;
  in->ndep = in->capdep = 0;
}

/* Instance `in` waits to know earlier's waits. */
static void add_dependent(dl_central *st, dl_inst *earlier, dl_inst *in) {
  if (earlier->ndep == earlier->capdep)
    earlier->dependents = blocked_grow(st, earlier->dependents, earlier->ndep, &earlier->capdep,
                                       DL_BLOCK_DEPS, sizeof *earlier->dependents);
  earlier->dependents[earlier->ndep++] = in;
}
static void grow_hash(dl_central *st) {
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

/* A new instance of key with room for cap members (in no list yet). */
static dl_inst *new_inst(dl_central *st, const dl_key *key, uint32_t size, uint32_t cap, int kind) {
  uint32_t nm = cap ? cap : 1;
  dl_inst *in = NULL;
  if (cap < DL_POOLS && st->pool[cap]) { /* messages, collectives: the same sizes again */
    in = st->pool[cap];
    st->pool[cap] = in->hash_next;
    memset(in, 0, sizeof *in); /* the members' inline storage need not be */
    for (uint32_t i = 0; i < nm; i++) memset(&in->m[i], 0, offsetof(dl_member, few_inner));
  } else {
    in = pu_calloc(1, sizeof(dl_inst) + nm * sizeof(dl_member));
  }
  in->key = *key;
  in->size = size;
  in->cap = cap;
  in->kind = kind;
  return in;
}

void dl_map_index_grow(dl_map_index *ix, size_t ncnodes) {
  if (ncnodes >= ix->n) {
    size_t n = ix->n ? 2 * ix->n : 256;
    while (n <= ncnodes) n *= 2;
    ix->at = pu_realloc(ix->at, n * sizeof *ix->at);
    memset(ix->at + ix->n, 0, (n - ix->n) * sizeof *ix->at);
    ix->n = n;
  }
  if (ix->serial == UINT32_MAX) { /* wrapped: no mark may be current */
    memset(ix->at, 0, ix->n * sizeof *ix->at);
    ix->serial = 0;
  }
}

/* The instance of key (its hash) in the hash, or NULL. */
static dl_inst *in_hash(const dl_central *st, const dl_key *key, size_t hash) {
  for (dl_inst *in = st->hash[hash & (st->nhash - 1)]; in; in = in->hash_next)
    if (in->hash == hash && dl_key_equal(&in->key, key)) return in;
  return NULL;
}

/* The instance of key, created with room for cap members. */
static dl_inst *find_inst(dl_central *st, const dl_key *key, uint32_t size, uint32_t cap,
                          int kind) {
  size_t hash = dl_key_hash(key);
  dl_inst *in = in_hash(st, key, hash);
  if (in) return in;
  dl_inst **slot = &st->hash[hash & (st->nhash - 1)];
  in = new_inst(st, key, size, cap, kind);
  in->hash = hash;
  in->hash_next = *slot;
  *slot = in;
  if (++st->nlive > st->nhash) grow_hash(st);
  return in;
}

/* A part of a message, instance of one member (az_delay.h: kind
   DL_PENDING or DL_PART_POST): never looked up by its key, so kept out of
   the hash (one look-up and one miss on a bucket less per part). */
static dl_inst *new_part(dl_central *st, const dl_key *key) {
  dl_inst *in = new_inst(st, key, 1, 1, DK_NONE);
  in->hash = st->nparts;
  PU_PUSH(st->parts, st->nparts, st->capparts, in);
  return in;
}

static int is_part(const dl_inst *in) { return in->key.omp >= DL_PENDING; }

/* dl_start_id of the key of in, an instance in the hash (not a part): its
   hash kept, not computed again. */
static uint64_t inst_start_id(const dl_inst *in) { return (uint64_t)in->hash | 2; }

/* A message's parts, NULL where it has none; none for other instances (a
   part's part[0] is its message, not a part of it). */
static void parts_of(const dl_inst *in, dl_inst *part[2]) {
  part[0] = in->key.p2p ? in->part[0] : NULL;
  part[1] = in->key.p2p ? in->part[1] : NULL;
}

static void send_done(dl_central *st, const dl_inst *in);

static void free_thru(dl_central *st, dl_inst *in);

/* A member's map and list of waits, where not inline. */
static void free_member(dl_central *st, dl_member *mb) {
  if (mb->map && mb->map != mb->few) free(mb->map);
  if (mb->capinner == DL_BLOCK_REFS) block_give(st, mb->inner);
  else if (mb->inner && mb->inner != mb->few_inner) free(mb->inner);
}

/* A segment's ext. */
static void free_ext(dl_central *st, dl_member *ext) {
  if (!ext) return;
  free_member(st, ext);
  free(ext);
}

static void drop_inst(dl_central *st, dl_inst *in) {
  if (st->link && !in->elsewhere && in->evaluated && !in->key.p2p && in->key.omp == DL_MPI)
    send_done(st, in);
  if (is_part(in)) { /* the last part takes its place */
    dl_inst *last = st->parts[--st->nparts];
    st->parts[in->hash] = last;
    last->hash = in->hash;
  } else {
    dl_inst **p = &st->hash[in->hash & (st->nhash - 1)];
    while (*p != in) p = &(*p)->hash_next;
    *p = in->hash_next;
    st->nlive--;
  }
  /* an instance evaluated long before is dropped cold: its members are
     not read again unless they hold something to free */
  for (uint32_t i = 0; (!in->evaluated || in->heap) && i < in->cap; i++) {
    free_member(st, &in->m[i]);
    struct dl_segs *segs = in->m[i].segs;
    for (size_t k = 0; segs && k < segs->n; k++) free_ext(st, segs->v[k].ext);
    if (segs) {
      free(segs->v);
      free(segs->slots);
      free(segs);
    }
    dl_call *call = in->m[i].call;
    if (call && !--call->refs) free(call);
  }
  free_dependents(st, in);
  free_thru(st, in);
  if (in->marks) free(in->marks);
  if (in->cap < DL_POOLS) {
    in->hash_next = st->pool[in->cap];
    st->pool[in->cap] = in;
  } else {
    free(in);
  }
}

/* Room for one more of n elements in arr, an array that starts in the
   inline storage `few` (nfew elements) and doubles on the heap. */
static void *room(void *arr, void *few, uint32_t nfew, uint32_t n, uint32_t *cap, size_t elem) {
  if (!arr) {
    *cap = nfew;
    return few;
  }
  if (n < *cap) return arr;
  void *more = pu_malloc(2 * (size_t)*cap * elem);
  memcpy(more, arr, (size_t)n * elem);
  if (arr != few) free(arr);
  *cap *= 2;
  return more;
}

static void release_refs(dl_central *st, const dl_ref *inner, size_t n);

/* Where mb's waits past its segments' start (their ends index the list,
   dl_seg.inner_end: those before stay). */
static uint32_t past_segments(const dl_member *mb) {
  const struct dl_segs *sg = mb->segs;
  return sg && sg->n ? sg->v[sg->n - 1].inner_end : 0;
}

/* Takes the members that did not wait out of mb's list of waits, from
   index `from` on but never before its segments' end (their instance
   settled, so their wait is final): nothing reads them but release_refs,
   which only gives their reference back (net_waits, charge_waiter and
   charge_idle skip a wait of 0), so it gives it back now and an instance
   evaluated meanwhile is dropped.  An
   interval open for the whole run held every barrier of its location
   until the run's start was read: BT-MZ W 2 x 2's last collectives, back
   to the first ones, 50,852 OpenMP barrier instances of 1.35 KB at the
   peak.  The waits that remain keep their order. */
static void drop_no_waits(dl_central *st, dl_member *mb, uint32_t from) {
  if (from < past_segments(mb)) from = past_segments(mb);
  uint32_t kept = from, n = mb->ninner;
  for (uint32_t i = from; i < n; i++) {
    dl_ref r = mb->inner[i];
    if (r.in->settled && !r.in->m[r.m].wait) release_refs(st, &r, 1);
    else mb->inner[kept++] = r;
  }
  mb->ninner = kept;
}

/* Room for one more in mb's full list of waits on the heap: those that
   are none go first (past its segments'); it doubles when they were fewer
   than half, so each pass over the list is paid by as many appends. */
static void inner_room(dl_central *st, dl_member *mb) {
  drop_no_waits(st, mb, 0);
  if (mb->ninner <= mb->capinner / 2) return;
  mb->inner = pu_realloc(mb->inner, 2 * (size_t)mb->capinner * sizeof *mb->inner);
  mb->capinner *= 2;
}

/* Appends r to the waits inside mb's interval: three inline, then a
   block, then the heap. */
static void add_inner(dl_central *st, dl_member *mb, dl_ref r) {
  enum { FEW = sizeof mb->few_inner / sizeof mb->few_inner[0] };
  if (mb->inner && mb->ninner == FEW && mb->capinner == FEW) {
    dl_ref *more = block_take(st);
    memcpy(more, mb->inner, FEW * sizeof *more);
    mb->inner = more;
    mb->capinner = DL_BLOCK_REFS;
  } else if (mb->inner && mb->ninner == DL_BLOCK_REFS && mb->capinner == DL_BLOCK_REFS) {
    dl_ref *more = pu_malloc(2 * DL_BLOCK_REFS * sizeof *more);
    memcpy(more, mb->inner, DL_BLOCK_REFS * sizeof *more);
    block_give(st, mb->inner);
    mb->inner = more;
    mb->capinner = 2 * DL_BLOCK_REFS;
  } else if (mb->ninner == mb->capinner && mb->capinner > DL_BLOCK_REFS) {
    inner_room(st, mb);
  } else {
    mb->inner = room(mb->inner, mb->few_inner, FEW, mb->ninner, &mb->capinner, sizeof *mb->inner);
  }
  mb->inner[mb->ninner++] = r;
}
static dl_member *member(dl_ref r) { return &r.in->m[r.m]; }
/* Appends a slot for cnode, which mb's map has none of. */
static void map_append(dl_member *mb, int32_t cnode, int64_t ticks) {
  mb->map = room(mb->map, mb->few, sizeof mb->few / sizeof mb->few[0], mb->nmap, &mb->capmap,
                 sizeof *mb->map);
  mb->map[mb->nmap++] = (dl_slot){cnode, ticks};
}

static void map_add(dl_member *mb, int32_t cnode, int64_t ticks) {
  if (!dl_slot_add(mb->map, mb->nmap, cnode, ticks)) map_append(mb, cnode, ticks);
}

/* mb's map made room for exactly nmap slots (inline when they fit), to
   be filled: an interval's map as it arrives whole (op_close, a waiter's
   record). */
static void map_sized(dl_member *mb, uint32_t nmap) {
  enum { FEW = sizeof mb->few / sizeof mb->few[0] };
  mb->map = nmap <= FEW ? mb->few : pu_malloc(nmap * sizeof *mb->map);
  mb->capmap = nmap <= FEW ? FEW : nmap;
  mb->nmap = nmap;
}

/* n (cnode, ticks) pairs of log words as slots (op_close, op_mark).  On
   a little-endian host a pair is a dl_slot byte for byte (the cnode's word
   holds it in its low half, zeros in the padding above), so it is copied
   whole: the conversion slot by slot took 44 M instructions on heat 4x1. */
static void slots_from_log(dl_slot *slots, const uint64_t *w, size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  _Static_assert(sizeof(dl_slot) == 2 * sizeof(uint64_t) && offsetof(dl_slot, ticks) == 8,
                 "a slot is two log words");
  if (n) memcpy(slots, w, n * sizeof *slots);
#else
  for (size_t i = 0; i < n; i++)
    slots[i] = (dl_slot){(int32_t)(uint32_t)w[2 * i], (int64_t)w[2 * i + 1]};
#endif
}

/* map_get, looking at slot *next first (then past the slot found). */
static int64_t map_get_near(const dl_member *mb, int32_t cnode, uint32_t *next) {
  uint32_t i = *next < mb->nmap && mb->map[*next].cnode == cnode ? *next : 0;
  while (i < mb->nmap && mb->map[i].cnode != cnode) i++;
  if (i == mb->nmap) return 0;
  *next = i + 1;
  return mb->map[i].ticks;
}

/* A member's map holds its time per call path (slot cnode >= 0) and,
   once net_map ran, its waiting per call path (slot wait_slot(cnode)). */
static int32_t wait_slot(int32_t cnode) { return -2 - cnode; }

/* Moves the waits inner[0 .. n-1] out of mb's time into its waiting;
   returns their sum. */
static int64_t net_waits(dl_member *mb, const dl_ref *inner, uint32_t n) {
  int64_t waited = 0;
  for (uint32_t i = 0; i < n; i++) {
    const dl_member *w = member(inner[i]);
    if (!w->wait) continue;
    map_add(mb, w->cnode, -w->wait);
    map_add(mb, wait_slot(w->cnode), w->wait);
    waited += w->wait;
  }
  return waited;
}

/* ... the member's own waits inside its interval. */
static int64_t net_map(dl_member *mb) { return net_waits(mb, mb->inner, mb->ninner); }

static int ready(const dl_inst *in) {
  return in->settled && in->closed == in->size && !in->inner_unknown && !in->incoming_pending &&
         !in->parts_unready && !in->remote_waiting && !in->holds && !in->through_unknown;
}

/* Costs are not negative: rounded to the nearest tick. */
static int64_t ticks_of(double v) { return (int64_t)(v + 0.5); }

/* A member's incoming cost of kind k. */
static dl_fixed incoming_of(const dl_member *mb, int k) {
  return mb->cost_kinds >> k & 1 ? mb->incoming[k] : (dl_fixed){0, 0};
}

/* The sum of a member's incoming costs of the kinds from..to-1. */
static double incoming_sum(const dl_member *mb, int from, int to) {
  double sum = 0;
  for (int k = from; k < to; k++) sum += fixed_value(incoming_of(mb, k));
  return sum;
}

/* Adds v (ticks) to a member's incoming cost of kind k. */
static void add_incoming(dl_member *mb, int k, double v) {
  if (!(v > 0)) return;
  if (!(mb->cost_kinds >> k & 1)) mb->incoming[k] = (dl_fixed){0, 0};
  fixed_add(&mb->incoming[k], v);
  mb->cost_kinds |= (uint8_t)(1u << k);
}

/* The completion of the synchronisation the intervals of the late member
   and waiter w start at, when it is one instance: the time each spent in
   its call after the first of the two left it (of a 1-to-N: after the
   receiver left it), as Scalasca counts it (its time on that call's
   path); else 0. */
static void completions(const dl_member *late, const dl_member *w, int64_t *late_done,
                        int64_t *w_done) {
  *late_done = *w_done = 0;
  if (late->start.id == DL_START_NONE || late->start.id != w->start.id) return;
  /* known for all members (rooted_completion), else of the two */
  az_time first = late->start.first ? late->start.first : w->start.first;
  if (!first) {
    first = late->start.x < w->start.x ? late->start.x : w->start.x;
    if (late->start.bcast_root) first = w->start.x; /* the receiver's leave */
    if (w->start.bcast_root) first = late->start.x;
  }
  *late_done = late->start.x > first ? (int64_t)(late->start.x - first) : 0;
  *w_done = w->start.x > first ? (int64_t)(w->start.x - first) : 0;
}

/* ---- segments: a collective's interval through rooted collectives ----

   Scalasca's synchronisation points are per pair of ranks: a 1-to-N
   synchronises its root with the receivers that waited for it, an N-to-1
   its root, when it waited, with its last sender; the others' intervals
   reach back over it (findPreviousMpiGroupSynchpoints).  The local part
   marks a collective member's interval at each rooted collective it meets
   (segments, up to DL_SEG_BOUND); per waiter, the late member's interval
   and the waiter's run back to the first boundary that synchronises the
   two (the late member's differs per waiter: scout's per-rank maps of
   CalculateCollectiveDelay), the waits in the segments taken in with
   them.  A barrier, an N x N and MPI_Init synchronise every pair. */

/* 1 when message at is one between locations x and y. */
static int of_pair(const dl_inst *at, uint32_t x, uint32_t y) {
  return (at->m[DL_SEND].loc == x && at->m[DL_RECV].loc == y) ||
         (at->m[DL_SEND].loc == y && at->m[DL_RECV].loc == x);
}

/* 1 when collective at (settled) synchronises the members on locations
   x and y; a member not found there: taken as one. */
static int synchronises(const dl_inst *at, uint32_t x, uint32_t y) {
  if (at->key.p2p) /* a message: its pair, if it waited */
    return at->waited == 2 && of_pair(at, x, y);
  uint32_t ix = at->size, iy = at->size, root = at->size;
  for (uint32_t i = 0; i < at->size && i < at->cap; i++) {
    if (at->m[i].loc == x) ix = i;
    if (at->m[i].loc == y) iy = i;
    if (at->m[i].root) root = i;
  }
  if (ix == at->size || iy == at->size || root == at->size) return 1;
  if (at->kind == DK_12N) /* the root with a receiver that waited */
    return (ix == root && at->m[iy].wait > 0) || (iy == root && at->m[ix].wait > 0);
  if (at->kind == DK_N21) /* the root that waited with its last sender */
    return at->m[root].wait > 0 &&
           ((ix == root && iy == at->late) || (iy == root && ix == at->late));
  return 1;
}

/* A start at segment boundary `at` (settled), with the time its completion
   counts from as Scalasca's (first): at a 1-to-N from the first of *all* the
   receivers that waited to leave (its earliest end, cb_pre_coll_12n), not
   only of the pair's two, at most from the root's enter; until then
   pomp's counted from the receiver's leave, so the root's pair lost the
   time a receiver stayed in the call after another one had left
   (collective_waits 3x1: 3.84 ms of rank 1's MPI_Bcast).  An N-to-1
   synchronises only its two (the earliest end is theirs: the rule of
   completions), the others are no boundaries. */
static dl_start rooted_completion(const dl_inst *at, dl_start start) {
  if (at->key.p2p || at->kind != DK_12N) return start;
  az_time first = 0, root_e = 0;
  int any = 0;
  for (uint32_t i = 0; i < at->size && i < at->cap; i++) {
    const dl_member *m = &at->m[i];
    if (m->root) root_e = m->e;
    else if (m->wait > 0 && (!any || m->x < first)) first = m->x, any = 1;
  }
  if (!any) return start;
  start.first = first > root_e ? first : root_e;
  return start;
}

static void merge_slots(dl_central *st, dl_member *mb, const dl_slot *slots, uint32_t n);

/* 1 when segment boundary seg ends mb's interval as it counts against
   the member on location partner: a synchronisation of the two, or the
   latest message of their pair, which did not wait (its ext goes on). */
static int ends_pair(const dl_seg *seg, uint32_t loc, uint32_t partner) {
  return synchronises(seg->at, loc, partner) || (seg->ext && of_pair(seg->at, loc, partner));
}

/* The segments of mb's interval before its first boundary with the
   member on location partner (ends_pair; all: its whole interval). */
static uint32_t segments_with(const dl_member *mb, uint32_t partner) {
  uint32_t n = mb->segs ? (uint32_t)mb->segs->n : 0, i = 0;
  while (i < n && !ends_pair(&mb->segs->v[i], mb->loc, partner)) i++;
  return i;
}

/* mb's interval as it counts against the member on location partner:
   into *eff (its map on the heap, netted: the waits in it moved to wait
   slots, as net_map), its start, its waits (at a message that did not
   wait, with the pair's interval before it: on the heap too); returns
   their sum.  Its map is the central part's buffer `buf` (0 or 1: a pair
   at a time), kept for the next: a large malloc and free per call were a
   third of its cost on heat 4x1; free_effective gives it back. */
static int64_t effective(dl_central *st, const dl_member *mb, uint32_t partner, dl_member *eff,
                         int buf) {
  *eff = *mb;
  const struct dl_segs *sg = mb->segs;
  uint32_t k = segments_with(mb, partner), nseg = sg ? (uint32_t)sg->n : 0;
  const dl_member *ext = k < nseg ? sg->v[k].ext : NULL;
  uint32_t slots = nseg ? (k < nseg ? sg->v[k].slots_end : (uint32_t)sg->nslots) : 0;
  uint32_t ninner = k < nseg ? sg->v[k].inner_end : mb->ninner;
  uint32_t next = ext ? ext->ninner : 0;
  uint32_t need =
      slots + (k == nseg ? mb->nmap : 0) + (ext ? ext->nmap : 0) + 2 * (ninner + next) + 1;
  if (st->eff[buf].cap < need) {
    free(st->eff[buf].map);
    st->eff[buf].map = pu_malloc(need * sizeof *eff->map);
    st->eff[buf].cap = need;
  }
  eff->map = st->eff[buf].map;
  eff->capmap = st->eff[buf].cap;
  eff->nmap = 0;
  eff->ninner = ninner;
  eff->segs = NULL;
  if (nseg) merge_slots(st, eff, sg->slots, slots);
  if (k == nseg) merge_slots(st, eff, mb->map, mb->nmap);
  if (ext) { /* the waits in both, one list */
    merge_slots(st, eff, ext->map, ext->nmap);
    eff->inner = pu_malloc((ninner + next + 1) * sizeof *eff->inner);
    if (ninner) memcpy(eff->inner, mb->inner, ninner * sizeof *eff->inner);
    if (next) memcpy(eff->inner + ninner, ext->inner, next * sizeof *eff->inner);
    eff->ninner += next;
    eff->start = ext->start;
  } else if (k < nseg) {
    eff->start = rooted_completion(sg->v[k].at, sg->v[k].start);
  }
  return net_waits(eff, eff->inner, eff->ninner);
}

static void free_effective(dl_central *st, const dl_member *mb, dl_member *eff, int buf) {
  st->eff[buf].map = eff->map; /* grown past its bound (room freed the buffer): this one */
  st->eff[buf].cap = eff->capmap;
  if (eff->inner != mb->inner) free(eff->inner);
}

static int has_slot(const dl_member *mb, int32_t cnode) {
  for (size_t i = 0; i < mb->nmap; i++)
    if (mb->map[i].cnode == cnode) return 1;
  return 0;
}

/* The call path of the late member's slot i (charge_waiter): past its
   map, its completion's. */
static int32_t slot_cnode(const dl_member *late, size_t i) {
  return i < late->nmap ? late->map[i].cnode : late->start.cnode;
}

/* Charges one waiter's wait (short-term) and its incoming cost (long-term)
   to the late member's delays; passes the part its waiting explains on
   to the waits in its interval.  All the late member's waiting in its
   interval explains (*explained), as Scalasca's scale counts it (its
   propWait, w.mSum): until 2026-11-27 only what it waited longer than the
   waiter on the same call path, so that waits both had (a halo exchange)
   cancelled as time does; with the per-pair intervals scout's rule made
   181 of the 291 cells that still differed from scout agree, none moved
   away.  Returns the short-term scale (wait over delays and explaining
   waiting, at most 1), or -1 when nothing explains the wait. */
static double charge_waiter(az_analysis *a, const dl_inst *in, dl_member *late, int64_t waited,
                            const dl_member *w, double *explained) {
  double sum = 0, excess = 0;
  int64_t late_done, w_done;
  completions(late, w, &late_done, &w_done);
  /* the late member's slots, and its completion's when its map has none */
  size_t n = late->nmap + (late_done > 0 && !has_slot(late, late->start.cnode));
  int64_t few[16], *delay = n <= 16 ? few : pu_malloc(n * sizeof *delay);
  uint32_t next = 0;               /* the two maps are mostly in one order: look there first */
  for (size_t i = 0; i < n; i++) { /* each delay once: a look-up in w's map */
    int32_t c = slot_cnode(late, i);
    int64_t own =
        (i < late->nmap ? late->map[i].ticks : 0) + (c == late->start.cnode ? late_done : 0);
    /* a wait slot: all of it; a call path: its time less the waiter's */
    int64_t d = delay[i] =
        c < -1 ? own : own - map_get_near(w, c, &next) - (c == w->start.cnode ? w_done : 0);
    if (d <= 0) continue;
    if (c < -1) excess += (double)d;
    sum += (double)d;
  }
  *explained = excess;
  if (sum <= 0) { /* nothing the late member did explains it */
    if (delay != few) free(delay);
    return -1;
  }
  double s = (double)w->wait / sum, l[DK_NONE] = {0};
  unsigned kinds = w->cost_kinds;
  for (int k = 0; kinds >> k; k++)
    if (kinds >> k & 1) l[k] = fixed_value(w->incoming[k]) / sum;
  /* at most 1, but at an OpenMP barrier (Scalasca's OpenMP scale is not
     capped: the whole wait goes to the delays and the waiting explaining
     it, D s + V s = w, where the waiter's interval started later) */
  if (s > 1 && in->kind != DK_OMPBAR) s = 1;
  for (size_t i = 0; i < n; i++) {
    int64_t d = delay[i];
    int32_t c = slot_cnode(late, i);
    if (d <= 0 || c < 0) continue;
    if (s > 0) az_charge(a, late->loc, c, dl_metrics[in->kind].short_term, ticks_of((double)d * s));
    for (int k = 0; kinds >> k; k++)
      if (kinds >> k & 1)
        az_charge(a, late->loc, c, dl_metrics[k].long_term, ticks_of((double)d * l[k]));
  }
  if (delay != few) free(delay);
  if (excess <= 0 || waited <= 0) return s; /* nothing passed on */
  /* propagating: only a later point-to-point wait makes a wait so
     (Scalasca's MPI_WAIT_PROPAGATING listens to its Late Sender and Late
     Receiver delay analyses alone; a wait that explains only collective or
     OpenMP waits is terminal, as rank 0's in the heat example) */
  int p2p = in->kind == DK_LS || in->kind == DK_LR;
  /* passed on in its kind: this wait's own (s) in the instance's */
  l[in->kind] += s;
  if (s > 0) kinds |= 1u << in->kind;
  for (size_t i = 0; i < late->ninner; i++) {
    dl_member *inner = member(late->inner[i]);
    double share = (double)inner->wait / (double)waited;
    for (int k = 0; kinds >> k; k++)
      if (kinds >> k & 1) add_incoming(inner, k, excess * l[k] * share);
    if (p2p && s * excess * share > inner->prop) inner->prop = s * excess * share;
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

static void part_ready(dl_central *st, dl_inst *part);

static void release_early(dl_central *st, dl_inst *in);

/* dl_inst.settled: settled, and (divided) the intervals of its members that
   are not late released (release_early). */
enum { DL_RELEASED = 2 };

static void want_through(dl_central *st, dl_inst *in);

/* in may be released early or be ready (no later interval to resolve).
   Most calls find it held (unhold, through_done: the messages of a call
   hold each other) and return at once. */
static void check_release(dl_central *st, dl_inst *in) {
  if (in->holds || in->through_unknown) return; /* neither released nor ready */
  if (st->link && in->settled == 1 && in->closed == in->size && !in->inner_unknown &&
      !in->evaluated)
    release_early(st, in);
  if (in->queued || !ready(in)) return;
  in->queued = 1;
  if (is_part(in) && in->part[0]) part_ready(st, in);
  else PU_PUSH(st->ready, st->nready, st->capready, in);
}

/* want_through (out of line: check_ready is called often) resolves the later
   intervals that can be. */
static void check_ready(dl_central *st, dl_inst *in) {
  if (in->nthru && in->settled && !in->inner_unknown) want_through(st, in);
  check_release(st, in);
}

/* ---- intervals through messages that did not wait ---------------------

   Scalasca's synchronisation points are the calls that waited: a message
   without a wait is none, and the intervals of a later message between
   the same two processes that start there go on through it, back to the
   previous synchronisation of the pair (docs/PROPERTIES.md, "Delay
   costs").  The local part closes those intervals at the message (its
   start has p2p set); the member of that message posted next on the
   location is linked (dl_thru) and, once its message is settled, its own
   interval closed and resolved, and the waits in it known, the later
   interval takes it over when the message had no wait: its time per call
   path, its call's time as time on its call path, the waits in it (which
   so get cost from the later interval too), and its start.  Until then
   the later instance is not evaluated (through_unknown) and the earlier
   one neither (holds: the waits in its member's interval must still get
   the later cost; a message of the same call, whose wait the later
   interval would hold too, is held the same way).  Nothing here waits for
   an evaluation, so two messages that start each other's intervals (one
   each way) cannot hold each other. */
typedef struct dl_thru { /* a later interval, by_m of by_in, starting at member m */
  dl_inst *by_in;        /* (not a dl_ref: 16 bytes, four in a block) */
  uint32_t by_m, m;      /* m: the member | seg << 2 (thru_segment) */
} dl_thru;
static dl_ref thru_by(const dl_thru *t) { return (dl_ref){t->by_in, t->by_m}; }
static uint32_t thru_member(const dl_thru *t) { return t->m & 3; }
/* A collective's segment at the message (op_mark): its index + 1; 0: an
   interval closed there. */
static uint32_t thru_segment(const dl_thru *t) { return t->m >> 2; }

typedef struct dl_await { /* interval `by` closed (seg: marked) at the message of start id */
  dl_ref by;
  uint64_t id;
  uint32_t seg; /* as thru_segment */
} dl_await;

static void hold(dl_inst *in) {
  in->holds++;
  in->refs++;
}

/* No later interval of in becomes resolvable here (through_resolvable reads
   no hold): each that may is tried when its message settles, the member
   there closes or resolves its own (settle, close_interval, through_done).
   Trying in's again at each unhold scanned its list a million times more on
   a 3.78 M-event trace (heat), resolving nothing. */
static void unhold(dl_central *st, dl_inst *in) {
  in->holds--;
  in->refs--;
  check_release(st, in);
}

/* by's interval does not go on (its start was a synchronisation). */
static void through_done(dl_central *st, dl_ref by) {
  member(by)->thru = 0;
  by.in->through_unknown--;
  check_ready(st, by.in);
}

/* by's interval starts at member r (posted now): linked, r's instance and
   the other messages of r's call held. */
enum { DL_BLOCK_THRU = DL_BLOCK / sizeof(dl_thru) };

/* Frees in's list of later intervals (a block, or the heap past it). */
static void free_thru(dl_central *st, dl_inst *in) {
  blocked_free(st, in->thru, in->capthru, DL_BLOCK_THRU);
  in->thru = NULL;
  in->nthru = in->capthru = 0;
}

static void link_through(dl_central *st, dl_ref by, dl_ref r, uint32_t seg) {
  dl_inst *in = r.in;
  if (in->nthru == in->capthru) { /* most have up to four: a block */
    size_t cap = in->capthru;
    in->thru = blocked_grow(st, in->thru, in->nthru, &cap, DL_BLOCK_THRU, sizeof *in->thru);
    in->capthru = (uint32_t)cap;
  }
  in->thru[in->nthru++] = (dl_thru){by.in, by.m, r.m | seg << 2};
  hold(in);
  const dl_call *call = member(r)->call;
  for (size_t i = 0; call && i < call->n; i++)
    if (call->mb[i].in != in || call->mb[i].m != r.m) hold(call->mb[i].in);
}

/* Wait r lies in mb's interval too: it gets mb's cost (not evaluated
   before: its own interval holds it, see link_through). */
static void hold_wait(dl_central *st, dl_member *mb, dl_ref r) {
  add_inner(st, mb, r);
  r.in->incoming_pending++;
  r.in->refs++;
}

/* Adds n slots to mb's map (in their order: a new call path's slot after
   the others).  Each call path's slot found through the index
   (dl_map_index): the search from the last slot found took 330
   instructions a merge on heat 4x1, the maps' orders differing.  A map's
   call paths are distinct; wait slots (negative) are looked for. */
static void merge_slots(dl_central *st, dl_member *mb, const dl_slot *slots, uint32_t n) {
  if (!n) return;
  size_t ncnodes = st->a->tree.len;
  uint32_t serial = dl_map_index_begin(&st->maps, ncnodes);
  dl_map_at *at = st->maps.at;
  for (uint32_t i = 0; i < mb->nmap; i++)
    if (mb->map[i].cnode >= 0 && (size_t)mb->map[i].cnode < ncnodes)
      at[mb->map[i].cnode] = (dl_map_at){serial, i};
  for (uint32_t i = 0; i < n; i++) {
    int32_t c = slots[i].cnode;
    if (c < 0 || (size_t)c >= ncnodes) { /* not indexed */
      map_add(mb, c, slots[i].ticks);
      continue;
    }
    if (at[c].serial == serial) {
      mb->map[at[c].slot].ticks += slots[i].ticks;
      continue;
    }
    at[c] = (dl_map_at){serial, mb->nmap};
    if (mb->map && mb->nmap < mb->capmap) mb->map[mb->nmap++] = slots[i];
    else map_append(mb, c, slots[i].ticks);
  }
}

/* mb's interval goes on through `from`, a member of a message without a
   wait: from's time, its call's, the waits in its interval, its start,
   from's interval as it counts against its partner on location partner
   (the same pair: through its segments up to the first rooted collective
   that synchronised the two). */
static void extend(dl_central *st, dl_member *mb, const dl_member *from, uint32_t partner) {
  const struct dl_segs *sg = from->segs;
  uint32_t nseg = sg ? (uint32_t)sg->n : 0, k = segments_with(from, partner);
  if (nseg) merge_slots(st, mb, sg->slots, k < nseg ? sg->v[k].slots_end : (uint32_t)sg->nslots);
  if (k == nseg) merge_slots(st, mb, from->map, from->nmap);
  if (from->x > from->e) map_add(mb, from->cnode, (int64_t)(from->x - from->e));
  uint32_t ninner = k < nseg ? sg->v[k].inner_end : from->ninner;
  for (uint32_t i = 0; i < ninner; i++)
    if (member(from->inner[i])->wait > 0) hold_wait(st, mb, from->inner[i]);
  mb->start = k < nseg ? rooted_completion(sg->v[k].at, sg->v[k].start) : from->start;
}

/* Whether the member a later interval starts at is closed here and
   resolved itself.  Every later interval's entry names a member posted
   on this process (link_throughs), never one closed elsewhere: taking such a member for
   closed and resolved, try_through scanned the list of every message
   with one at each try (t8 at -n 8: four times the serial pass's entries
   a process, none of them resolvable). */
static int closed_resolved(const dl_member *from) {
  return from->closed == DL_CLOSED_HERE && !from->thru;
}

/* The later interval of entry t may go on now: its start's message is
   settled, the member there closed and resolved itself, the waits in it
   known (settled). */
static int through_resolvable(const dl_inst *in, const dl_thru *t) {
  return in->settled && closed_resolved(&in->m[thru_member(t)]) && !in->inner_unknown &&
         in->final_state != DL_FINAL_AWAITED && (!in->part[0] || in->part[0]->settled);
}

/* 1 when message msg (settled) had a wait: a Late Sender or Late Receiver
   that stayed one in the calls completing it (of a call's messages only
   the longest is a wait, resolve_call).  Scalasca's synchronisation
   points are the waits alone: a message whose wait a longer one of its
   call took is none (its receive is no Late Sender event, its send no
   synchronisation of the pair), an interval goes on through it. */
static int message_waited(const dl_inst *msg) {
  if (msg->kind == DK_NONE) return 0;
  for (int k = 0; k < 2; k++)
    if (msg->m[k].wait > 0 || (msg->part[k] && msg->part[k]->m[0].wait > 0)) return 1;
  return 0;
}

static const dl_member *late_member(const dl_inst *in);
static int charges(const dl_member *w);

/* 1 unless by's map is known to be read by nobody.  A message that
   waited is a synchronisation, no later interval goes on through it
   (resolve_through): its own instance alone reads the map, of a waiter
   that passes a cost and of the late member (evaluate; divided, a
   waiter's record carries its map only then).  One that did not: the
   later intervals that go on through it (linked before by's own interval
   closes).  Most messages wait for nothing, and of a message that waited
   two of its four members and parts mostly pass nothing: their maps
   would grow along every chain of them (until 2026-11-28 every member of
   a message that waited took its map, 212,382 merges on heat 4x1, now
   159,082). */
static int map_needed(dl_ref by) {
  const dl_inst *msg = is_part(by.in) ? by.in->part[0] : by.in;
  if (!msg || !msg->settled || msg->final_state == DL_FINAL_AWAITED ||
      (msg->part[0] && !msg->part[0]->settled))
    return 1;
  if (message_waited(msg)) return charges(member(by)) || member(by) == late_member(msg);
  for (uint32_t i = 0; msg == by.in && i < by.in->nthru; i++)
    if (thru_member(&by.in->thru[i]) == by.m) return 1;
  return 0;
}

/* A collective's segment at a message is no boundary to wait for (its
   instance may be ready). */
static void segment_done(dl_central *st, dl_ref by) {
  by.in->through_unknown--;
  check_ready(st, by.in);
}

/* Entry t of in resolved: the later interval went on through its member
   (through) or starts there (a segment: its ext, the pair's interval
   before it); the holds link_through took are given back. */
static void finish_through(dl_central *st, dl_inst *in, dl_thru t, int through) {
  uint32_t m = thru_member(&t), seg = thru_segment(&t);
  dl_member *from = &in->m[m], *mb = member(thru_by(&t));
  if (through && seg) mb = mb->segs->v[seg - 1].ext = pu_calloc(1, sizeof *mb);
  if (through) extend(st, mb, from, in->m[1 - m].loc);
  const dl_call *call = from->call;
  for (size_t i = 0; call && i < call->n; i++) {
    dl_ref q = call->mb[i];
    if (q.in == in && q.m == m) continue;
    if (through && member(q)->wait > 0) hold_wait(st, mb, q);
    unhold(st, q.in);
  }
  if (seg) segment_done(st, thru_by(&t));
  else through_done(st, thru_by(&t));
  unhold(st, in);
}

/* The interval of aw starts at its message (a segment: ends there for
   the pair). */
static void await_done(dl_central *st, const dl_await *aw) {
  if (aw->seg) segment_done(st, aw->by);
  else through_done(st, aw->by);
}

static void resolve_through(dl_central *st, dl_inst *in, dl_thru t) {
  /* no wait: no synchronisation */
  finish_through(st, in, t, !message_waited(in) && (thru_segment(&t) || map_needed(thru_by(&t))));
}

/* Resolves what can be of in's later intervals (entries in order). */
static void try_through(dl_central *st, dl_inst *in) {
  /* most tries find neither of the message's members closed and resolved:
     no entry can be (about eight tries an entry on heat 4x1) */
  if (in->nthru && !closed_resolved(&in->m[0]) && !closed_resolved(&in->m[1])) return;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < in->nthru; i++) {
    dl_thru t = in->thru[i];
    if (!through_resolvable(in, &t)) {
      in->thru[kept++] = t;
      continue;
    }
    resolve_through(st, in, t);
  }
  in->nthru = kept;
  if (!kept) free_thru(st, in);
}

/* in may resolve its later intervals: a work list, not recursion (a chain
   of messages without waits is as long as the run). */
__attribute__((noinline)) static void want_through(dl_central *st, dl_inst *in) {
  if (in->thru_queued) return;
  in->thru_queued = 1;
  PU_PUSH(st->thru_work, st->nthru_work, st->capthru_work, in);
  if (st->thru_busy) return;
  st->thru_busy = 1;
  while (st->nthru_work) {
    dl_inst *next = st->thru_work[--st->nthru_work];
    next->thru_queued = 0;
    try_through(st, next);
  }
  st->thru_busy = 0;
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
    if (inner->wait > 0) add_incoming(inner, DK_OMPIDLE, idle * (double)inner->wait);
  }
}

/* 1 when waiter w of an instance with waits passes a cost to its late
   member (charge_waiter). */
static int charges(const dl_member *w) { return w->wait > 0 || w->cost_kinds; }

/* Waiter w's charges and, at a message, its wait's classes. */
static void charge(az_analysis *a, const dl_inst *in, dl_member *late, int64_t waited,
                   const dl_member *w) {
  if (!charges(w)) return;
  if (a->delay_hooks && a->delay_hooks->charged)
    a->delay_hooks->charged(incoming_sum(w, 0, DK_OMPIDLE), incoming_sum(w, DK_OMPIDLE, DK_NONE));
  double explained = 0;
  double scale = charge_waiter(a, in, late, waited, w, &explained);
  if (in->key.p2p && w->wait > 0) classify(a, in, w, explained, scale);
}

/* The earlier instances whose waits lie in mb's interval now have every
   cost it passed on. */
static void release_refs(dl_central *st, const dl_ref *inner, size_t n) {
  for (size_t k = 0; k < n; k++) {
    dl_inst *earlier = inner[k].in;
    if (member(inner[k])->wait > 0) { /* else not counted: settle */
      earlier->incoming_pending--;
      check_ready(st, earlier);
    }
    if (!--earlier->refs && earlier->evaluated && earlier->elsewhere != DL_KEPT)
      drop_inst(st, earlier);
  }
}

static void release_inner(dl_central *st, const dl_member *mb) {
  release_refs(st, mb->inner, mb->ninner);
}

/* Marks in evaluated, noting whether a member holds storage drop_inst must
   free (it reads no other evaluated instance's members). */
static void mark_evaluated(dl_inst *in) {
  for (uint32_t i = 0; i < in->cap; i++) {
    const dl_member *mb = &in->m[i];
    if ((mb->map && mb->map != mb->few) || (mb->inner && mb->inner != mb->few_inner) || mb->call ||
        mb->segs)
      in->heap = 1;
  }
  in->evaluated = 1;
}

static void hand_off(dl_central *st, dl_inst *in);

static void release_segments(dl_central *st, const dl_inst *in);

static int segmented(const dl_inst *in) {
  for (uint32_t i = 0; in->key.omp == DL_MPI && i < in->size && i < in->cap; i++)
    if (in->m[i].segs) return 1;
  return 0;
}

/* A collective whose members' intervals are in segments: each waiter
   against the late member, both intervals as they count for that pair
   (effective). */
static void charge_against(az_analysis *a, dl_central *st, const dl_inst *in, const dl_member *late,
                           const dl_member *w) {
  if (!charges(w)) return;
  dl_member eff_late, eff_w;
  int64_t waited = effective(st, late, w->loc, &eff_late, 0);
  effective(st, w, late->loc, &eff_w, 1);
  charge(a, in, &eff_late, waited, &eff_w);
  free_effective(st, late, &eff_late, 0);
  free_effective(st, w, &eff_w, 1);
}

static void charge_segmented(az_analysis *a, dl_central *st, dl_inst *in) {
  dl_inst *part[2];
  parts_of(in, part);
  /* a message's late Irecv: its part; else a member */
  const dl_member *late = part[1] && in->late == DL_RECV_POST ? &part[1]->m[0] : &in->m[in->late];
  for (uint32_t i = 0; i < in->size; i++)
    if (i != in->late) charge_against(a, st, in, late, &in->m[i]);
  if (part[0]) charge_against(a, st, in, late, &part[0]->m[0]);
}

static void evaluate(az_analysis *a, dl_central *st, dl_inst *in) {
  dl_inst *part[2];
  parts_of(in, part);
  /* no early release any more (the releases below may come back to it
     through a later interval that went on through an earlier message) */
  in->settled = DL_RELEASED;
  for (int k = 0; k < 2; k++)
    if (part[k]) part[k]->settled = DL_RELEASED;
  if (in->elsewhere) hand_off(st, in); /* then only released here */
  int waits = in->kind != DK_NONE && in->kind != DK_OMPIDLE && !in->elsewhere;
  int64_t waited = 0;
  if (in->kind == DK_OMPIDLE) charge_idle(a, in);
  if (waits && segmented(in)) {
    charge_segmented(a, st, in);
    waits = 0;
  }
  /* the maps charge_waiter reads (the late member's and its waiters'):
     the others' are dropped unread, and netting one reads the members
     of earlier instances */
  for (uint32_t i = 0; waits && i < in->size; i++) {
    if (i != in->late && !charges(&in->m[i])) continue;
    int64_t own = net_map(&in->m[i]);
    if (i == in->late) waited = own;
  }
  if (waits && part[0] && charges(&part[0]->m[0])) net_map(&part[0]->m[0]);
  if (waits && part[1] && in->late == DL_RECV_POST) waited = net_map(&part[1]->m[0]);
  /* a message's late Irecv: its part (evaluated here: replayed here, not
     a stub); else a member */
  dl_member *late = !waits                                ? NULL
                    : part[1] && in->late == DL_RECV_POST ? &part[1]->m[0]
                                                          : &in->m[in->late];
  for (uint32_t i = 0; waits && i < in->size; i++)
    if (i != in->late) charge(a, in, late, waited, &in->m[i]);
  if (waits && part[0]) charge(a, in, late, waited, &part[0]->m[0]);
  for (uint32_t i = 0; i < in->size; i++) release_inner(st, &in->m[i]);
  if (in->key.omp == DL_MPI) release_segments(st, in);
  /* kept while a later interval still refers to one of its members */
  for (int k = 0; k < 2; k++) {
    if (!part[k]) continue;
    release_inner(st, &part[k]->m[0]);
    mark_evaluated(part[k]);
    if (!part[k]->refs) drop_inst(st, part[k]);
  }
  mark_evaluated(in);
  if (!in->refs && in->elsewhere != DL_KEPT) drop_inst(st, in);
}

/* Evaluates what became ready (a queue, not recursion: a chain of
   instances is as long as the run). */
static void drain(az_analysis *a, dl_central *st) {
  if (a->delay_hooks && a->delay_hooks->ready_fifo) { /* first in, first evaluated */
    for (size_t i = 0; i < st->nready; i++) evaluate(a, st, st->ready[i]);
    st->nready = 0;
    return;
  }
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

/* The enter and leave of message in's part k (0: its Isend's completion,
   1: its Irecv's posting), the part's or its stub's; 0 where it has
   neither. */
static int part_times(const dl_inst *in, int k, az_time *e, az_time *x) {
  if (in->part[k]) {
    *e = in->part[k]->m[0].e;
    *x = in->part[k]->m[0].x;
    return 1;
  }
  if (in->stubbed != (k ? DL_STUB_POST : DL_STUB_DONE)) return 0;
  *e = in->stub.e;
  *x = in->stub.x;
  return 1;
}

/* A message: Late Sender (the receiver entered its completing call before
   the send), else Late Receiver (the call completing the send, the send
   itself or its Isend's completion, waited for the receive to be posted,
   by the receive itself or its Irecv's posting, as p2p.c), else no wait.
   Returns the wait of a stubbed completion (its part is still to be
   built: part_of_stub), else 0. */
static int64_t waits_message(dl_inst *in) {
  dl_member *snd = &in->m[DL_SEND], *rcv = &in->m[DL_RECV];
  int64_t ls = positive(rcv->e, earlier_of(snd->e, rcv->x));
  if (ls > 0) {
    in->kind = DK_LS, in->late = DL_SEND, rcv->wait = ls;
    return 0;
  }
  in->kind = DK_NONE;
  az_time we = snd->e, wx = snd->x, le = rcv->e, lx;
  if ((!snd->blocking && !part_times(in, 0, &we, &wx)) ||
      (!rcv->blocking && !part_times(in, 1, &le, &lx)) || !(le > we && le < wx))
    return 0;
  in->kind = DK_LR, in->late = rcv->blocking ? DL_RECV : DL_RECV_POST;
  int64_t wait = (int64_t)(le - we);
  if (snd->blocking) snd->wait = wait;
  else if (in->part[0]) in->part[0]->m[0].wait = wait;
  else return wait;
  return 0;
}

static void send_final(dl_central *st, dl_ref r);
static void marks_known(dl_central *st, dl_inst *msg);
static inline int raw_waiter(const dl_inst *in, uint32_t i);

/* Divided: a settled message's waiter (a part: its message's Isend
   completion, if that waited) to send_final, the others not even asked
   (two members and a part a message, one waiter at most). */
static void settle_final(dl_central *st, dl_inst *in) {
  if (is_part(in)) {
    if (in->part[0] && raw_waiter(in->part[0], DL_SEND_DONE)) send_final(st, (dl_ref){in, 0});
    return;
  }
  for (uint32_t m = DL_SEND; m <= DL_RECV; m++)
    if (raw_waiter(in, m)) send_final(st, (dl_ref){in, m});
}

/* The waits in in's closed intervals are known and in is not ready (a
   later interval holds one of its own waits, another member's interval is
   open, one goes on through it): the members there that did not wait go,
   not to hold their instances until in is evaluated (BT-MZ: a message between the masters
   waits for the last collectives' evaluation, at the run's start, and
   its interval held the OpenMP barriers of a time step).  Lists of up to
   a block are left alone: they hold a few instances each, and most are
   released soon after (t44: 12 M instructions on 133,000 of them). */
static void drop_known_no_waits(dl_central *st, dl_inst *in) {
  if (ready(in)) return; /* evaluated in this drain: released there */
  for (uint32_t i = 0; i < in->size && i < in->cap; i++)
    if (in->m[i].closed == DL_CLOSED_HERE && in->m[i].capinner > DL_BLOCK_REFS)
      drop_no_waits(st, &in->m[i], 0);
}

/* The instance's waits are final: the instances waiting to know them. */
static void settle(dl_central *st, dl_inst *in) {
  in->settled = 1;
  if (st->link && (in->key.p2p || is_part(in))) settle_final(st, in);
  /* a member that did not wait passes nothing back: no need to wait for
     the intervals it lies in (so waits go back in time, never around a
     ring of messages) */
  for (uint32_t i = 0; i < in->size; i++)
    if (in->m[i].wait <= 0) {
      in->incoming_pending -= in->m[i].nouter;
      in->m[i].nouter = 0;
    }
  for (size_t k = 0; k < in->ndep; k++) {
    if (!--in->dependents[k]->inner_unknown) drop_known_no_waits(st, in->dependents[k]);
    check_ready(st, in->dependents[k]);
  }
  free_dependents(st, in); /* settled: none comes any more */
  check_ready(st, in);
  /* an Isend's completion: its message's later intervals may go on now */
  if (is_part(in) && in->part[0] && in->part[0]->nthru) check_ready(st, in->part[0]);
  if (in->key.p2p || is_part(in)) marks_known(st, is_part(in) ? in->part[0] : in);
}

static int is_receive(dl_ref r) { return r.in->key.omp == DL_MPI && r.m == DL_RECV; }

/* Every message of the call is known: the longest Late Sender stays (the
   first of equal ones); without one, the longest Late Receiver; the
   others are no waits.  An instance's waits are final once all the calls
   completing its members are resolved. */
static void resolve_call(dl_central *st, dl_call *call) {
  size_t longest = SIZE_MAX;
  for (int recv = 1; longest == SIZE_MAX && recv >= 0; recv--)
    for (size_t i = 0; i < call->n; i++) {
      int64_t wait = member(call->mb[i])->wait;
      if (is_receive(call->mb[i]) != recv || wait <= 0) continue;
      if (longest == SIZE_MAX || wait > member(call->mb[longest])->wait) longest = i;
    }
  for (size_t i = 0; i < call->n; i++)
    if (i != longest) member(call->mb[i])->wait = 0;
  for (size_t i = 0; i < call->n; i++)
    if (!--call->mb[i].in->calls) settle(st, call->mb[i].in);
}

/* The waits of in's members are computed: final once the calls that
   complete them (a message's: up to two) are resolved. */
static void waits_known(dl_central *st, dl_inst *in) {
  dl_call *calls[2];
  uint32_t n = 0, members = is_part(in) ? 1 : in->key.p2p ? 2 : 0;
  for (uint32_t i = 0; i < members; i++)
    if (in->m[i].call) calls[n++] = in->m[i].call;
  in->calls = (uint8_t)n;
  if (!n) settle(st, in);
  for (uint32_t i = 0; i < n; i++)
    if (!--calls[i]->unknown) resolve_call(st, calls[i]);
}

static void divide(dl_central *st, dl_inst *in);
static void part_of_stub(dl_central *st, dl_inst *in, int64_t wait);

/* Every member is in: the waits, final once the completing calls' are. */
static void all_posted(dl_central *st, dl_inst *in) {
  dl_inst *done = NULL; /* a message's Isend completion */
  if (in->key.p2p) {
    int64_t stub_wait = waits_message(in);
    if (stub_wait > 0) part_of_stub(st, in, stub_wait);
    done = in->part[0];
  } else if (in->kind == DK_12N || in->kind == DK_N21) {
    waits_rooted(in);
  } else {
    waits_nxn(in);
  }
  if (st->link && in->key.omp == DL_MPI) divide(st, in);
  waits_known(st, in);
  if (done) waits_known(st, done);
}

/* The member's interval reached its start. */
static void close_interval(dl_central *st, dl_ref r) {
  dl_member *mb = member(r);
  mb->closed = DL_CLOSED_HERE;
  r.in->closed++;
  uint32_t unknown = r.in->inner_unknown;
  for (size_t i = 0; i < mb->ninner; i++) {
    dl_inst *earlier = mb->inner[i].in;
    if (earlier->settled) continue;
    r.in->inner_unknown++;
    add_dependent(st, earlier, r.in);
  }
  if (r.in->inner_unknown == unknown && mb->capinner > DL_BLOCK_REFS && !ready(r.in))
    drop_no_waits(st, mb, 0);
  check_ready(st, r.in);
}

/* ---- the parts of a non-blocking message ------------------------------ */

/* An Isend's MPI_Wait* and an Irecv's posting are instances of one member
   linked to their message (dl_inst.part; az_delay.h, DL_PENDING and
   DL_PART_POST), so a message of blocking calls keeps its two members.  A
   part is not evaluated on its own: once ready, with its message. */

static dl_inst *lookup_inst(const dl_central *st, const dl_key *key) {
  return in_hash(st, key, dl_key_hash(key));
}

static void part_ready(dl_central *st, dl_inst *part) {
  dl_inst *msg = part->part[0];
  msg->parts_unready--;
  check_ready(st, msg);
}

/* Part `index` (0: an Isend's completion, 1: an Irecv's posting) of msg. */
static void link_part(dl_inst *msg, int index, dl_inst *part) {
  msg->part[index] = part;
  part->part[0] = msg;
  msg->parts_unready++;
}

/* Isend completion id of location cl, posted before (removed), or NULL:
   the latest first (its Isend is usually the next one read). */
static dl_inst *take_done(dl_cloc *cl, uint64_t id) {
  for (size_t i = cl->ndone; i-- > 0;)
    if (cl->done[i].id == id) {
      dl_inst *in = cl->done[i].in;
      memmove(cl->done + i, cl->done + i + 1, (cl->ndone - i - 1) * sizeof *cl->done);
      cl->ndone--;
      return in;
    }
  return NULL;
}

/* Every member and part of in is posted (a part never is whole). */
static int complete(const dl_inst *in) {
  return in->posted == in->size && !is_part(in) && !(in->expect_post && !in->part[1]);
}

/* The Isend of message `msg` was posted: Isend completion `id` read on loc
   before it becomes its part (keyed as it was). */
static void adopt_done(dl_central *st, uint32_t loc, dl_inst *msg, uint64_t id) {
  dl_inst *done = take_done(&st->locs[loc], id);
  if (done) link_part(msg, 0, done);
}

/* Isend completion `id` read on loc has no message: no wait. */
static void give_up_done(dl_central *st, uint32_t loc, uint64_t id) {
  dl_inst *done = take_done(&st->locs[loc], id);
  if (done) waits_known(st, done);
}

/* ---- the ops of a location's log --------------------------------------- */

/* Member `index` of `in` met its operation's Enter on location loc: its
   wait lies in every interval open there (its own opens afterwards:
   open_interval); a member that cannot wait is in none. */
static dl_ref post(dl_central *st, uint32_t loc, dl_inst *in, uint32_t index, int32_t cnode,
                   az_time e, az_time x, int can_wait) {
  dl_ref r = {in, index};
  dl_member *mb = member(r);
  dl_cloc *cl = &st->locs[loc];
  cl->fresh += (size_t)can_wait;
  in->posted++;
  mb->posted = 1;
  mb->loc = loc;
  mb->cnode = cnode;
  mb->e = e;
  mb->x = x;
  for (size_t i = 0; can_wait && i < cl->nopen; i++) {
    if (!cl->open[i].in) continue; /* not analysed */
    add_inner(st, member(cl->open[i]), r);
    in->incoming_pending++;
    in->refs++;
    mb->nouter++;
  }
  return r;
}

/* The interval of r opens on loc (r.in NULL: a member not analysed, whose
   interval the local part keeps open all the same). */
static void open_interval(dl_central *st, uint32_t loc, dl_ref r) {
  dl_cloc *cl = &st->locs[loc];
  PU_PUSH(cl->open, cl->nopen, cl->capopen, r);
  dl_inst *whole = r.in && r.in->key.omp == DL_PART_POST ? r.in->part[0] : r.in;
  if (whole && complete(whole)) all_posted(st, whole);
}

static const dl_ref not_analysed = {NULL, 0};

/* A member posted on another analysis process's location: its interval
   is there (closed here, as far as this instance goes). */
static void remote_member(dl_inst *in, dl_member *mb, uint32_t loc, az_time e, az_time x) {
  in->posted++;
  in->closed++;
  mb->posted = 1;
  mb->closed = DL_CLOSED_ELSEWHERE;
  mb->loc = loc;
  mb->cnode = -1; /* a waiter's comes with it (rec_waiter) */
  mb->e = e;
  mb->x = x;
}

/* A collective's member; remote: posted on another process's location
   (divided, dl_rpost), in the same order on every process that has a
   member, so all take the same decisions. */
static void post_coll(dl_central *st, uint32_t loc, uint64_t op, const uint64_t *w, int remote) {
  int kind = (int)(op >> 8 & 0xff), root = (int)(op >> 16 & 1);
  dl_key key = {.comm = (uint32_t)w[0], .seq = w[1]};
  int32_t cnode = (int32_t)(uint32_t)(w[0] >> 32);
  uint32_t size = st->a->defs.comms[key.comm].size;
  dl_inst *in = find_inst(st, &key, size, size, kind);
  if (in->posted == in->size) { /* more members than the communicator: not analysed */
    if (!remote) open_interval(st, loc, not_analysed);
    return;
  }
  if (remote) {
    dl_member *mb = &in->m[in->posted];
    remote_member(in, mb, loc, w[2], w[3]);
    mb->root = (uint8_t)root;
    if (complete(in)) all_posted(st, in);
    return;
  }
  /* the root of a 1-to-N and the others of an N-to-1 never wait */
  int can_wait = kind == DK_12N ? !root : kind == DK_N21 ? root : 1;
  dl_ref r = post(st, loc, in, in->posted, cnode, w[2], w[3], can_wait);
  member(r)->root = (uint8_t)root;
  open_interval(st, loc, r);
}

static const uint64_t *op_coll(dl_central *st, uint32_t loc, uint64_t op, const uint64_t *w) {
  post_coll(st, loc, op, w, 0);
  return w + 4;
}

/* A message's key, from an op's words. */
static dl_key message_key(const uint64_t *m) {
  return (dl_key){.comm = (uint32_t)m[0],
                  .tag = (uint32_t)(m[0] >> 32),
                  .src = (uint32_t)m[1],
                  .dst = (uint32_t)(m[1] >> 32),
                  .p2p = 1,
                  .seq = m[2]};
}

/* The item of DL_OP_MSGS that can wait for its partner: a receive's
   completion (Late Sender), a blocking send or an Isend's completion
   (Late Receiver). */
static int item_can_wait(uint64_t flags) {
  int side = (int)(flags & 3);
  return side == DL_RECV || side == DL_SEND_DONE || (side == DL_SEND && (flags >> 2 & 1));
}

static void send_side(dl_central *st, const dl_inst *in, int side);

/* The Irecv of message key, posted on loc: the late party of a Late
   Receiver, never a waiter. */
static dl_ref post_posting(dl_central *st, uint32_t loc, dl_key key, int32_t cnode, az_time e,
                           az_time x) {
  dl_inst *msg = lookup_inst(st, &key);
  if (!msg || !msg->expect_post || msg->part[1]) return not_analysed;
  key.omp = DL_PART_POST;
  dl_inst *posting = new_part(st, &key);
  dl_ref r = post(st, loc, posting, 0, cnode, e, x, 0);
  posting->settled = 1;
  link_part(msg, 1, posting);
  if (st->link) send_side(st, msg, DL_RECV);
  return r;
}

/* One item of DL_OP_MSGS: a member of its message, or a part. */
static dl_ref post_item(dl_central *st, uint32_t loc, const uint64_t *m, int32_t cnode, az_time e,
                        az_time x) {
  dl_key key = message_key(m);
  int side = (int)(m[3] & 3), blocking = (int)(m[3] >> 2 & 1), done = (int)(m[3] >> 3 & 1);
  uint64_t id = m[3] >> 8;
  if (side == DL_SEND_DONE) { /* its message is known at its Isend */
    dl_key pending = {.comm = loc, .omp = DL_PENDING, .seq = id};
    dl_inst *done = new_part(st, &pending);
    dl_cloc *cl = &st->locs[loc];
    PU_PUSH(cl->done, cl->ndone, cl->capdone, ((dl_done){id, done}));
    return post(st, loc, done, 0, cnode, e, x, 1);
  }
  if (side == DL_RECV_POST) return post_posting(st, loc, key, cnode, e, x);
  dl_inst *in = find_inst(st, &key, 2, 2, DK_NONE);
  if (in->m[side].posted) { /* posted twice: not analysed */
    if (done) give_up_done(st, loc, id);
    return not_analysed;
  }
  /* a non-blocking send waits in its completion, a part */
  dl_ref r = post(st, loc, in, (uint32_t)side, cnode, e, x, item_can_wait(m[3]));
  member(r)->blocking = blocking;
  if (side == DL_RECV && !blocking) in->expect_post = 1;
  if (done) adopt_done(st, loc, in, id);
  if (st->link && (side == DL_SEND || !in->expect_post)) /* else with its posting */
    send_side(st, in, side);
  return r;
}

/* A chain of intervals through messages that did not wait holds every
   message of it until the pair's previous synchronisation is read, which
   may be the start of the run: 400,000 eager messages of one pair without
   a collective held 466 MB.  After DL_THROUGH_BOUND links the message is
   taken as a synchronisation (pomp's rule before Scalasca's), which keeps
   the memory bounded; a chain that long has spread any delay thin. */
enum { DL_THROUGH_BOUND = 1024 };

static uint32_t through_bound(const dl_central *st) {
  const az_delay_hooks *h = st->a->delay_hooks;
  uint32_t bound = h && h->through_bound ? h->through_bound : DL_THROUGH_BOUND;
  return bound < UINT16_MAX ? bound : UINT16_MAX; /* thru_depth's range */
}

/* The intervals closed at a message of the call posted now on loc go on
   through its member there if it did not wait; those whose message is
   not among them (not analysed) start there. */
static void link_throughs(dl_central *st, uint32_t loc, const dl_ref *refs, size_t n) {
  dl_cloc *cl = &st->locs[loc];
  for (size_t k = 0; k < cl->nawait; k++) {
    size_t i = 0;
    dl_ref by = cl->await[k].by;
    while (i < n && !(refs[i].in && refs[i].in->key.p2p && !is_part(refs[i].in) &&
                      inst_start_id(refs[i].in) == cl->await[k].id))
      i++;
    uint32_t seg = cl->await[k].seg, depth = member(by)->thru_depth + 1u;
    if (i < n && (seg || depth < through_bound(st))) {
      if (!seg) member(refs[i])->thru_depth = (uint16_t)depth;
      link_through(st, by, refs[i], seg);
    } else {
      await_done(st, &cl->await[k]);
    }
  }
  cl->nawait = 0;
}

/* The messages of one call (MPI_Sendrecv, MPI_Waitall, ...) all wait from
   its Enter: none lies in another's interval. */
static const uint64_t *op_msgs(dl_central *st, uint32_t loc, uint64_t op, const uint64_t *w) {
  size_t nmsg = (size_t)(op >> 8);
  int32_t cnode = (int32_t)(uint32_t)w[0];
  az_time e = w[1], x = w[2];
  const uint64_t *m = w + 3;
  dl_ref few[8], *refs = nmsg <= 8 ? few : pu_malloc(nmsg * sizeof *refs);
  size_t nwait = 0;
  for (size_t i = 0; i < nmsg; i++) nwait += (size_t)item_can_wait(m[4 * i + 3]);
  /* room for every member that can wait: a call and its list in one
     allocation (two, and the list grown, took 37 M instructions on heat) */
  dl_call *call = nwait > 1 ? pu_malloc(sizeof *call + nwait * sizeof *call->mb) : NULL;
  if (call) call->n = 0;
  for (size_t i = 0; i < nmsg; i++, m += 4) {
    refs[i] = post_item(st, loc, m, cnode, e, x);
    if (call && refs[i].in && item_can_wait(m[3])) {
      member(refs[i])->call = call;
      call->mb[call->n++] = refs[i];
    }
  }
  if (call) call->unknown = call->refs = call->n;
  if (call && !call->n) free(call);
  link_throughs(st, loc, refs, nmsg);
  for (size_t i = 0; i < nmsg; i++) open_interval(st, loc, refs[i]);
  if (refs != few) free(refs);
  return m;
}

/* A member whose interval starts at its ThreadTeamBegin (its team's first
   barrier): the fork before it, from the master's ThreadFork, is time on
   its parallel region (Scalasca's fork time, pomp's omp_management; the
   master's own too, read before its region's Enter). */
static void add_fork(dl_member *mb, az_time fork) {
  if (mb->start.id != DL_START_TEAM) return;
  int64_t ticks = mb->start.x > fork ? (int64_t)(mb->start.x - fork) : 0;
  int32_t cnode = mb->start.cnode;
  mb->start = (dl_start){DL_START_NONE, 0, -1, 0, 0, 0};
  if (ticks && cnode >= 0) map_add(mb, cnode, ticks);
}

/* A member of the OpenMP barrier whose Enter this is: the j-th from the
   end of its team instance on every member. */
static const uint64_t *op_ompbar(dl_central *st, uint32_t loc, uint64_t op, const uint64_t *w) {
  dl_key key = {.comm = (uint32_t)w[0],
                .tag = (uint32_t)(w[0] >> 32),
                .src = (uint32_t)w[1],
                .omp = DL_OMP_BARRIER,
                .seq = w[2]};
  int32_t cnode = (int32_t)(uint32_t)(w[1] >> 32);
  dl_inst *in =
      find_inst(st, &key, DL_SIZE_UNKNOWN, st->a->defs.procs[key.comm].num_locs, DK_OMPBAR);
  if (in->posted == in->cap || in->posted == in->size) { /* not analysed */
    open_interval(st, loc, not_analysed);
    return w + 5;
  }
  dl_ref r = post(st, loc, in, in->posted, cnode, w[3], w[4], 1);
  dl_cloc *cl = &st->locs[loc];
  if (op >> 8 & 1) PU_PUSH(cl->bars, cl->nbars, cl->capbars, in);
  open_interval(st, loc, r);
  return w + 5;
}

/* The master's serial phase that ends here: an instance of one member
   whose interval goes back to the previous join. */
static const uint64_t *op_idle(dl_central *st, uint32_t loc, const uint64_t *w) {
  dl_key key = {
      .comm = (uint32_t)w[0], .tag = (uint32_t)(w[0] >> 32), .omp = DL_OMP_IDLE, .seq = w[1]};
  dl_inst *in = find_inst(st, &key, 1, 1, DK_OMPIDLE);
  open_interval(st, loc, post(st, loc, in, 0, (int32_t)(uint32_t)w[2], w[3], w[3], 0));
  return w + 4;
}

/* A promised member never comes: an Isend's completion without message,
   a receive without its Irecv. */
static const uint64_t *op_giveup(dl_central *st, uint32_t loc, uint64_t op, const uint64_t *w) {
  if ((op >> 8) == DL_SEND_DONE) {
    give_up_done(st, loc, w[0]);
    return w + 1;
  }
  dl_key key = message_key(w);
  dl_inst *in = lookup_inst(st, &key);
  if (in && in->expect_post && !in->part[1]) {
    in->expect_post = 0;
    if (st->link) send_side(st, in, DL_RECV);
    if (complete(in)) all_posted(st, in);
  }
  return w + 3;
}

/* The open interval at index j reached its start: with its time per call
   path (copied once, into the member). */
static const uint64_t *op_close(dl_central *st, uint32_t loc, uint64_t op, const uint64_t *w) {
  size_t j = (size_t)(op >> 8 & 0xffffff), nmap = (size_t)(op >> 32);
  dl_cloc *cl = &st->locs[loc];
  dl_ref r = cl->open[j];
  for (size_t k = j + 1; k < cl->nopen; k++) /* a few: no call to memmove */
    cl->open[k - 1] = cl->open[k];
  cl->nopen--;
  dl_start start = dl_start_of(w);
  w += DL_CLOSE_WORDS - 1;
  if (!r.in) return w + 2 * nmap;
  dl_member *mb = member(r);
  mb->start = start;
  map_sized(mb, (uint32_t)nmap);
  slots_from_log(mb->map, w, nmap);
  /* a team member read after its fork's window (the windows need not
     hold both): its fork now */
  if (start.id == DL_START_TEAM && r.in->size != DL_SIZE_UNKNOWN) add_fork(mb, r.in->fork);
  if (start.p2p) { /* its message's member comes next here (link_throughs) */
    mb->thru = 1;
    r.in->through_unknown++;
    PU_PUSH(cl->await, cl->nawait, cl->capawait, ((dl_await){r, start.id, 0}));
  }
  close_interval(st, r);
  return w + 2 * nmap;
}

/* Whether message msg waited is known (message_waited): settled, its
   Isend completion's call resolved, its remote waiter's final wait in. */
static int boundary_known(const dl_inst *msg) {
  return msg->settled && (!msg->part[0] || msg->part[0]->settled) &&
         msg->final_state != DL_FINAL_AWAITED;
}

/* The instances whose segments end at message msg may go on. */
static void marks_known(dl_central *st, dl_inst *msg) {
  if (!msg || !msg->nmarks || !boundary_known(msg)) return;
  msg->waited = message_waited(msg) ? 2 : 1;
  size_t n = msg->nmarks;
  msg->nmarks = 0;
  for (size_t k = 0; k < n; k++) {
    msg->marks[k]->inner_unknown--;
    check_ready(st, msg->marks[k]);
  }
}

/* The open interval at index j (a collective's) reached rooted collective
   `at`: a segment (its time so far, its start), the interval goes on.
   Its instance waits until `at` is settled, and keeps it until evaluated. */
static const uint64_t *op_mark(dl_central *st, uint32_t loc, uint64_t op, const uint64_t *w) {
  size_t j = (size_t)(op >> 8 & 0xffffff), nmap = (size_t)(op >> 32);
  dl_ref r = st->locs[loc].open[j];
  const uint64_t *slots = w + DL_MARK_WORDS - 1;
  if (!r.in) return slots + 2 * nmap;
  int p2p = (int)(w[6] >> 8 & 1);
  dl_key key = p2p ? message_key(w + 3) : (dl_key){.comm = (uint32_t)w[3], .seq = w[5]};
  uint32_t size = p2p ? 2 : st->a->defs.comms[key.comm].size;
  dl_inst *at = find_inst(st, &key, size, size, (int)(w[6] & 0xff));
  at->refs++;
  if (p2p && boundary_known(at)) {
    at->waited = message_waited(at) ? 2 : 1;
  } else if (p2p) { /* whether it waited: marks_known */
    r.in->inner_unknown++;
    PU_PUSH(at->marks, at->nmarks, at->capmarks, r.in);
  } else if (!p2p && !at->settled) {
    r.in->inner_unknown++;
    add_dependent(st, at, r.in);
  }
  dl_member *mb = member(r);
  struct dl_segs *sg = mb->segs;
  if (!sg) sg = mb->segs = pu_calloc(1, sizeof *sg);
  pu_reserve((void **)&sg->slots, &sg->capslots, sg->nslots + nmap, sizeof *sg->slots);
  slots_from_log(sg->slots + sg->nslots, slots, nmap);
  sg->nslots += nmap;
  dl_seg seg = {dl_start_of(w), at, sg->nslots, mb->ninner, NULL};
  PU_PUSH(sg->v, sg->n, sg->cap, seg);
  if (p2p) { /* the pair's interval before it: its message's member posted next here */
    r.in->through_unknown++;
    dl_cloc *cl = &st->locs[loc];
    PU_PUSH(cl->await, cl->nawait, cl->capawait, ((dl_await){r, seg.start.id, (uint32_t)sg->n}));
  }
  return slots + 2 * nmap;
}

/* The rooted collectives of in's members' segments are no longer needed. */
static void release_segments(dl_central *st, const dl_inst *in) {
  for (uint32_t i = 0; i < in->size && i < in->cap; i++)
    for (uint32_t k = 0; in->m[i].segs && k < in->m[i].segs->n; k++) {
      dl_inst *at = in->m[i].segs->v[k].at;
      const dl_member *ext = in->m[i].segs->v[k].ext;
      if (ext) release_refs(st, ext->inner, ext->ninner);
      if (!--at->refs && at->evaluated && at->elsewhere != DL_KEPT) drop_inst(st, at);
    }
}

/* ---- the central part divided among the analysis processes ------------

   (docs/analyze/parallel.md, "Dividing the central part".)  Each delay process
   applies the logs of its own locations and keeps the instances one of
   them is a member of; an instance is evaluated where its late member's
   location is.  Between the processes, records of 64-bit words, one
   exchange per window (parallel.c):
     DL_REC_MSG   a message's side once it is whole (its member and part),
                  to the peer's process: side << 8 | blocking << 10 |
                  part << 11; key (3 words); loc, e, x, part's e, x
     DL_REC_WAITER a waiting member, final (closed, its incoming cost
                  complete), to its late member's process: p2p << 8 |
                  member << 32; key (3); wait, incoming per kind of
                  cost (ticks, fraction; DLW_*), prop, cnode | nmap << 32,
                  its interval's start (dl_start: id, x, cnode), then
                  nmap (cnode, ticks): its interval's map, waits moved out
                  (net_map)
     DL_REC_DONE  a collective evaluated and dropped, to every other
                  process (DL_KEPT): comm, seq
     DL_REC_FINAL a message's waiter's final wait, once the call that
                  completes it is resolved, to its late member's process:
                  member << 32; key (3); wait
   and, taken from the logs before they are applied (dl_central_scan), a
   collective's members to every other process (dl_rpost: loc, op and its
   four words), applied in location
   order among the local logs, so every process posts them in the serial
   order.  Every process computes an instance's waits from the same posts;
   a waiter's own process resolves the call that completes it. */
enum { DL_REC_MSG = 1, DL_REC_WAITER, DL_REC_DONE, DL_REC_FINAL };
enum { DL_REC_MSG_WORDS = 9, DL_REC_DONE_WORDS = 3, DL_REC_FINAL_WORDS = 5, DL_RPOST_WORDS = 6 };
/* DL_REC_WAITER's words: after its key, wait, incoming per kind (ticks,
   fraction), prop, cnode | nmap << 32, start (3: as in a log) and its first */
enum {
  DLW_WAIT = 4,
  DLW_INCOMING,
  DLW_PROP = DLW_INCOMING + 2 * DK_NONE,
  DLW_CNODE,
  DLW_START,
  DL_REC_WAITER_WORDS = DLW_START + 4
};

static int owner_of(const dl_central *st, uint32_t loc) { return st->loc_owner[loc]; }

static int remote_loc(const dl_central *st, uint32_t loc) {
  return owner_of(st, loc) != st->link->rank;
}

/* Room for k more words in lg. */
static uint64_t *words_room(dl_log *lg, size_t k) {
  pu_reserve((void **)&lg->w, &lg->cap, lg->n + k, sizeof *lg->w);
  uint64_t *w = lg->w + lg->n;
  lg->n += k;
  return w;
}

static void put_key(uint64_t *w, const dl_key *k) {
  w[0] = k->comm | (uint64_t)k->tag << 32;
  w[1] = k->src | (uint64_t)k->dst << 32;
  w[2] = k->seq;
}

/* The member the others waited for (a Late Receiver's Irecv: its part;
   a stub, DL_STUB_POST: its receive, on the same location). */
static const dl_member *late_member(const dl_inst *in) {
  if (!in->key.p2p || in->late != DL_RECV_POST) return &in->m[in->late];
  return in->part[1] ? &in->part[1]->m[0] : &in->m[DL_RECV];
}

/* Member mb of in (or of its part `owner`, NULL: in) is closed, not the
   late one, and the waits in its interval are known: a waiter's map is
   netted and the waits released now (evaluate would do both). */
static void release_waits(dl_central *st, const dl_inst *in, dl_member *mb) {
  /* a member in segments keeps its waits: which of them lie in its
     interval depends on its partner (effective) */
  if (!mb->closed || mb == late_member(in) || mb->segs) return;
  if (mb->wait > 0) net_map(mb);
  /* released: evaluate and net_map pass over it (before the releases:
     they may reach a later interval that goes on through an earlier
     message, whose check comes back here) */
  uint32_t n = mb->ninner;
  mb->ninner = 0;
  release_refs(st, mb->inner, n);
}

/* (most members hold no waits: no call) */
static inline void release_member(dl_central *st, const dl_inst *in, dl_member *mb) {
  if (mb->ninner) release_waits(st, in, mb);
}

/* Divided: only the late member's interval passes costs back
   (charge_waiter, charge_idle); the others' hold their waits only until
   the instance is evaluated.  An instance evaluated a window later (its
   waiter's record comes from another process) would hold up every
   earlier one inside its other members' intervals: those are released
   once the instance is settled and closed here and the waits inside are
   known (check_ready), with its parts' (each closed, with the same). */
static int part_releasable(const dl_inst *part) {
  return part && part->settled == 1 && part->closed == part->size && !part->inner_unknown &&
         !part->evaluated && !part->holds && !part->through_unknown;
}

static void release_early(dl_central *st, dl_inst *in) {
  dl_inst *msg = is_part(in) ? in->part[0] : in;
  if (msg != in) { /* a part: once its message is settled (else with it) */
    if (!msg || !msg->settled) return;
    in->settled = DL_RELEASED;
    release_member(st, msg, &in->m[0]);
    return;
  }
  in->settled = DL_RELEASED;
  for (uint32_t i = 0; i < in->size && i < in->cap; i++) release_member(st, in, &in->m[i]);
  for (int k = 0; in->key.p2p && k < 2; k++)
    if (part_releasable(in->part[k])) {
      in->part[k]->settled = DL_RELEASED;
      release_member(st, in, &in->part[k]->m[0]);
    }
}

/* Message in's side, whole here (its member and part), to the process of
   its peer. */
static void send_side(dl_central *st, const dl_inst *in, int side) {
  uint32_t peer = side == DL_SEND ? in->key.dst : in->key.src;
  if (peer >= st->a->defs.num_procs) return; /* never matched, here or there */
  int to = st->link->owner[peer];
  if (to == st->link->rank) return;
  const dl_member *mb = &in->m[side];
  const dl_inst *part = in->part[side == DL_SEND ? 0 : 1];
  uint64_t *w = words_room(&st->out[to], DL_REC_MSG_WORDS);
  w[0] = DL_REC_MSG | (uint64_t)side << 8 | (uint64_t)mb->blocking << 10 | (uint64_t) !!part << 11;
  put_key(w + 1, &in->key);
  w[4] = mb->loc;
  w[5] = mb->e;
  w[6] = mb->x;
  w[7] = part ? part->m[0].e : 0;
  w[8] = part ? part->m[0].x : 0;
}

static const uint64_t *rec_msg(dl_central *st, const uint64_t *w) {
  int side = (int)(w[0] >> 8 & 3), has_part = (int)(w[0] >> 11 & 1);
  dl_key key = message_key(w + 1);
  uint32_t loc = (uint32_t)w[4];
  dl_inst *in = find_inst(st, &key, 2, 2, DK_NONE);
  if (in->m[side].posted) return w + DL_REC_MSG_WORDS; /* posted twice: not analysed */
  remote_member(in, &in->m[side], loc, w[5], w[6]);
  in->m[side].blocking = (uint8_t)(w[0] >> 10 & 1);
  if (has_part) { /* an Isend's completion, an Irecv's posting: a stub */
    in->stubbed = side == DL_SEND ? DL_STUB_DONE : DL_STUB_POST;
    in->stub.e = w[7];
    in->stub.x = w[8];
  }
  if (complete(in)) all_posted(st, in);
  return w + DL_REC_MSG_WORDS;
}

/* Message in's stubbed Isend completion waited: it becomes a part (as
   rec_msg built every one before), its waiter's record to come from its
   process (divide). */
static void part_of_stub(dl_central *st, dl_inst *in, int64_t wait) {
  uint32_t loc = in->m[DL_SEND].loc;
  dl_inst *part = new_part(st, &(dl_key){.comm = loc, .omp = DL_PENDING});
  remote_member(part, &part->m[0], loc, in->stub.e, in->stub.x);
  part->m[0].wait = wait;
  link_part(in, 0, part);
  in->stubbed = 0;
}

/* 1 when member i of in (DL_SEND_DONE: an Isend's completion) waited
   before the calls completing it were resolved, as every process holding
   the instance computed. */
static inline int raw_waiter(const dl_inst *in, uint32_t i) {
  if (!in->key.p2p) return i < in->size && i != in->late && in->m[i].wait > 0;
  if (in->kind == DK_LS) return i == DL_RECV;
  if (in->kind != DK_LR) return 0;
  return in->m[DL_SEND].blocking ? i == DL_SEND : i == DL_SEND_DONE;
}

static dl_member *waiter_member(dl_inst *in, uint32_t i) {
  return in->key.p2p && i == DL_SEND_DONE ? &in->part[0]->m[0] : &in->m[i];
}

/* in's waits are computed: evaluated here, with the waiters of other
   processes to come, or handed off (its late member is elsewhere). */
static void divide(dl_central *st, dl_inst *in) {
  if (remote_loc(st, late_member(in)->loc)) {
    in->elsewhere = in->key.p2p ? DL_THERE : DL_KEPT;
    return;
  }
  uint32_t members = in->key.p2p ? DL_SEND_DONE + 1 : in->size;
  for (uint32_t i = 0; i < members; i++) {
    if (!raw_waiter(in, i) || !remote_loc(st, waiter_member(in, i)->loc)) continue;
    in->remote_waiting++;
    if (!in->key.p2p) continue;
    if (in->final_state == DL_FINAL_KNOWN) /* came before its own waits */
      waiter_member(in, in->final_index)->wait = in->final_wait;
    else in->final_state = DL_FINAL_AWAITED;
  }
}

/* Waiter r settled here (its calls resolved, resolve_call), when its
   message is evaluated on another process: its final wait there (a message whose
   wait a longer one of the call took is no synchronisation point, and
   the intervals there that reach it go on through it, want_through).
   Sent before the waiter itself (DL_REC_WAITER, once its incoming cost is
   complete), so no later interval waits for an evaluation. */
static void send_final(dl_central *st, dl_ref r) {
  dl_inst *msg = is_part(r.in) ? r.in->part[0] : r.in;
  uint32_t index = is_part(r.in) ? DL_SEND_DONE : r.m;
  /* most messages waited not at all: no call */
  if (!msg || !msg->key.p2p || (msg->kind != DK_LS && msg->kind != DK_LR) ||
      !raw_waiter(msg, index) || remote_loc(st, waiter_member(msg, index)->loc) ||
      !remote_loc(st, late_member(msg)->loc))
    return;
  uint64_t *w = words_room(&st->out[owner_of(st, late_member(msg)->loc)], DL_REC_FINAL_WORDS);
  w[0] = DL_REC_FINAL | (uint64_t)index << 32;
  put_key(w + 1, &msg->key);
  w[4] = (uint64_t)member(r)->wait;
}

static const uint64_t *rec_final(dl_central *st, const uint64_t *w) {
  dl_key key = message_key(w + 1);
  /* a side sent with its part comes after its final wait (the part
     completed the message): its DL_REC_MSG follows */
  dl_inst *in = find_inst(st, &key, 2, 2, DK_NONE);
  uint32_t index = (uint32_t)(w[0] >> 32);
  if (in->final_state == DL_FINAL_AWAITED) {
    waiter_member(in, index)->wait = (int64_t)w[4];
    in->final_state = DL_FINAL_KNOWN;
    check_ready(st, in);
    marks_known(st, in);
  } else { /* its own waits not computed yet: divide applies it */
    in->final_state = DL_FINAL_KNOWN;
    in->final_index = (uint8_t)index;
    in->final_wait = (int64_t)w[4];
  }
  return w + DL_REC_FINAL_WORDS;
}

/* Waiter mb (member `index` of in), final, to the late member's process. */
static void send_waiter(dl_central *st, int to, const dl_inst *in, uint32_t index, dl_member *mb) {
  size_t nmap = 0;
  dl_member eff, *own = mb;
  if (mb->segs) { /* its interval as it counts against the late member */
    effective(st, mb, late_member(in)->loc, &eff, 0);
    mb = &eff;
  } else if (charges(mb)) {
    net_map(mb);
  }
  if (charges(mb)) nmap = mb->nmap;
  uint64_t *w = words_room(&st->out[to], DL_REC_WAITER_WORDS + 2 * nmap);
  w[0] = DL_REC_WAITER | (uint64_t)in->key.p2p << 8 | (uint64_t)index << 32;
  put_key(w + 1, &in->key);
  w[DLW_WAIT] = (uint64_t)mb->wait;
  for (int k = 0; k < DK_NONE; k++) {
    dl_fixed v = incoming_of(mb, k);
    w[DLW_INCOMING + 2 * k] = (uint64_t)v.ticks;
    w[DLW_INCOMING + 2 * k + 1] = v.frac;
  }
  memcpy(&w[DLW_PROP], &mb->prop, sizeof mb->prop);
  w[DLW_CNODE] = (uint32_t)mb->cnode | (uint64_t)nmap << 32;
  w[DLW_START] = mb->start.id;
  w[DLW_START + 1] = mb->start.x;
  w[DLW_START + 2] = dl_start_word(&mb->start);
  w[DLW_START + 3] = mb->start.first;
  for (size_t i = 0; i < nmap; i++) {
    w[DL_REC_WAITER_WORDS + 2 * i] = (uint32_t)mb->map[i].cnode;
    w[DL_REC_WAITER_WORDS + 2 * i + 1] = (uint64_t)mb->map[i].ticks;
  }
  if (mb == &eff) free_effective(st, own, &eff, 0);
}

/* in is ready here but evaluated elsewhere: its waiters here go there. */
static void hand_off(dl_central *st, dl_inst *in) {
  int to = owner_of(st, late_member(in)->loc);
  uint32_t members = in->key.p2p ? DL_SEND_DONE + 1 : in->size;
  for (uint32_t i = 0; i < members; i++) {
    if (!raw_waiter(in, i)) continue;
    dl_member *mb = waiter_member(in, i);
    if (!remote_loc(st, mb->loc)) send_waiter(st, to, in, i, mb);
  }
}

/* A call path of the sending process's (base: the tree all share, map:
   the sender's later ones here); wait slots too. */
static int32_t rename_cnode(int32_t c, const int32_t *map, int32_t base) {
  if (c >= base) return map[c - base];
  if (c <= -2 && wait_slot(c) >= base) return wait_slot(map[wait_slot(c) - base]);
  return c;
}

static const uint64_t *rec_waiter(dl_central *st, const uint64_t *w, const int32_t *map,
                                  int32_t base) {
  dl_key key = message_key(w + 1);
  if (!(w[0] >> 8 & 1)) key = (dl_key){.comm = key.comm, .seq = key.seq};
  uint32_t index = (uint32_t)(w[0] >> 32), nmap = (uint32_t)(w[DLW_CNODE] >> 32);
  dl_inst *in = lookup_inst(st, &key);
  if (!in || !in->remote_waiting) return w + DL_REC_WAITER_WORDS + 2 * (size_t)nmap;
  dl_member *mb = waiter_member(in, index);
  mb->wait = (int64_t)w[DLW_WAIT];
  mb->cost_kinds = 0;
  for (int k = 0; k < DK_NONE; k++) {
    mb->incoming[k] =
        (dl_fixed){(int64_t)w[DLW_INCOMING + 2 * k], (uint32_t)w[DLW_INCOMING + 2 * k + 1]};
    if (fixed_positive(mb->incoming[k])) mb->cost_kinds |= (uint8_t)(1u << k);
  }
  memcpy(&mb->prop, &w[DLW_PROP], sizeof mb->prop);
  mb->cnode = rename_cnode((int32_t)(uint32_t)w[DLW_CNODE], map, base);
  mb->start = dl_start_of(w + DLW_START);
  mb->start.first = w[DLW_START + 3];
  mb->start.cnode = rename_cnode(mb->start.cnode, map, base);
  map_sized(mb, nmap);
  w += DL_REC_WAITER_WORDS;
  for (uint32_t i = 0; i < nmap; i++, w += 2)
    mb->map[i] = (dl_slot){rename_cnode((int32_t)(uint32_t)w[0], map, base), (int64_t)w[1]};
  in->remote_waiting--;
  check_ready(st, in);
  return w;
}

static void send_done(dl_central *st, const dl_inst *in) {
  for (int r = 0; !st->ending && r < st->link->size; r++) {
    if (r == st->link->rank) continue;
    uint64_t *w = words_room(&st->out[r], DL_REC_DONE_WORDS);
    w[0] = DL_REC_DONE;
    w[1] = in->key.comm;
    w[2] = in->key.seq;
  }
}

static const uint64_t *rec_done(dl_central *st, const uint64_t *w) {
  dl_key key = {.comm = (uint32_t)w[1], .seq = w[2]};
  dl_inst *in = lookup_inst(st, &key);
  if (in && in->elsewhere == DL_KEPT) {
    in->elsewhere = DL_THERE;
    if (in->evaluated && !in->refs) drop_inst(st, in);
  }
  return w + DL_REC_DONE_WORDS;
}

void dl_central_receive(dl_central *st, const uint64_t *w, size_t n, const int32_t *map,
                        int32_t base) {
  const uint64_t *end = w + n;
  while (w < end) switch (*w & 0xff) {
    case DL_REC_MSG: w = rec_msg(st, w); break;
    case DL_REC_WAITER: w = rec_waiter(st, w, map, base); break;
    case DL_REC_FINAL: w = rec_final(st, w); break;
    default: w = rec_done(st, w); break;
    }
}

dl_log *dl_central_records(dl_central *st, int to) { return &st->out[to]; }
size_t dl_central_held(const dl_central *st) { return st->nlive + st->nparts; }
dl_log *dl_central_coll_posts(dl_central *st, int to) { return &st->coll_out[to]; }

void dl_central_scan(dl_central *st, uint32_t loc, const dl_log *log) {
  /* to every other process: one whose location posts on a communicator
     its process is not a member of (a damaged trace) must see the same
     posts as the members' */
  for (size_t i = 0; i < log->ncolls; i++) {
    const uint64_t *w = log->w + log->colls[i];
    for (int r = 0; r < st->link->size; r++) {
      if (r == st->link->rank) continue;
      uint64_t *p = words_room(&st->coll_out[r], DL_RPOST_WORDS);
      p[0] = loc;
      memcpy(p + 1, w, 5 * sizeof *w);
    }
  }
}

void dl_central_receive_posts(dl_central *st, const uint64_t *w, size_t n) {
  for (size_t i = 0; i + DL_RPOST_WORDS <= n; i += DL_RPOST_WORDS) {
    dl_rpost p = {.loc = (uint32_t)w[i], .order = (uint32_t)st->ncolls, .op = w[i + 1]};
    memcpy(p.w, w + i + 2, sizeof p.w);
    PU_PUSH(st->colls, st->ncolls, st->capcolls, p);
    st->colls_sorted = 0;
  }
}

static int by_location(const void *pa, const void *pb) {
  const dl_rpost *a = pa, *b = pb;
  if (a->loc != b->loc) return a->loc < b->loc ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* Other processes' collective posts of the window on locations before
   loc (all: UINT32_MAX), in location order. */
static void remote_posts_before(dl_central *st, uint32_t loc) {
  if (!st->colls_sorted) {
    qsort(st->colls + st->next_coll, st->ncolls - st->next_coll, sizeof *st->colls, by_location);
    st->colls_sorted = 1;
  }
  while (st->next_coll < st->ncolls && st->colls[st->next_coll].loc < loc) {
    const dl_rpost *p = &st->colls[st->next_coll++];
    post_coll(st, p->loc, p->op, p->w, 1);
  }
  if (st->next_coll == st->ncolls) st->ncolls = st->next_coll = 0;
}

void dl_central_apply(dl_central *st, uint32_t loc, const uint64_t *w, size_t n) {
  const uint64_t *end = w + n;
  if (st->ncolls) remote_posts_before(st, loc);
  while (w < end) {
    uint64_t op = *w++;
    switch (op & 0xff) {
    case DL_OP_COLL: w = op_coll(st, loc, op, w); break;
    case DL_OP_MSGS: w = op_msgs(st, loc, op, w); break;
    case DL_OP_OMPBAR: w = op_ompbar(st, loc, op, w); break;
    case DL_OP_IDLE: w = op_idle(st, loc, w); break;
    case DL_OP_CLOSE: w = op_close(st, loc, op, w); break;
    case DL_OP_MARK: w = op_mark(st, loc, op, w); break;
    case DL_OP_GIVEUP: w = op_giveup(st, loc, op, w); break;
    case DL_OP_FORK: { /* the team is read after this window */
      dl_cloc *cl = &st->locs[loc];
      for (size_t i = 0; i < cl->nbars; i++) {
        struct dl_sizing sz = {cl->bars[i], *w};
        PU_PUSH(st->sizing, st->nsizing, st->capsizing, sz);
      }
      cl->nbars = 0;
      w++;
      break;
    }
    default: drain(st->a, st); break; /* DL_OP_DRAIN */
    }
  }
}

dl_central *dl_central_new(az_analysis *a) {
  dl_central *st = pu_calloc(1, sizeof *st);
  st->a = a;
  st->nhash = 4096;
  st->hash = pu_calloc(st->nhash, sizeof *st->hash);
  st->locs = pu_calloc(a->defs.num_locs ? a->defs.num_locs : 1, sizeof *st->locs);
  dl_link *link = a->delay_link;
  if (link && link->owner && link->size > 1) { /* divided */
    st->link = link;
    link->central_part = st;
    st->out = pu_calloc((size_t)link->size, sizeof *st->out);
    st->coll_out = pu_calloc((size_t)link->size, sizeof *st->coll_out);
    st->loc_owner = pu_calloc(a->defs.num_locs ? a->defs.num_locs : 1, sizeof *st->loc_owner);
    for (uint32_t l = 0; l < a->defs.num_locs; l++)
      st->loc_owner[l] = link->owner[a->defs.locs[l].process];
  }
  return st;
}

/* After a window's evaluations: the waits posted in it that are none
   leave the intervals still open (drop_no_waits; the barriers among them
   were settled at this window's end, after the list had room for them),
   so that an interval open for the whole run holds only waits. */
static void sweep_open(dl_central *st) {
  for (uint32_t l = 0; l < st->a->defs.num_locs; l++) {
    dl_cloc *cl = &st->locs[l];
    for (size_t i = 0; cl->fresh && i < cl->nopen; i++) {
      if (!cl->open[i].in) continue;
      dl_member *mb = member(cl->open[i]);
      drop_no_waits(st, mb, mb->ninner > cl->fresh ? mb->ninner - (uint32_t)cl->fresh : 0);
    }
    cl->fresh = 0;
  }
}

/* The window in which the masters' forks were read is over: every member
   of their barriers posted (a worker cut off before one of them is no
   member of it); then what became ready. */
void dl_central_window(dl_central *st) {
  if (st->ncolls) remote_posts_before(st, UINT32_MAX);
  for (size_t i = 0; i < st->nsizing; i++) {
    dl_inst *in = st->sizing[i].in;
    in->size = in->posted;
    in->fork = st->sizing[i].fork;
    for (uint32_t m = 0; m < in->size; m++) add_fork(&in->m[m], in->fork);
    all_posted(st, in);
  }
  st->nsizing = 0;
  drain(st->a, st);
  sweep_open(st);
  if (st->a->delay_hooks && st->a->delay_hooks->window_held)
    st->a->delay_hooks->window_held(dl_central_held(st));
}

/* After the last records: intervals whose start is still unknown (its
   message never completed, its call never posted) start there. */
static void end_throughs(dl_central *st) {
  for (uint32_t l = 0; l < st->a->defs.num_locs; l++) {
    dl_cloc *cl = &st->locs[l];
    size_t n = cl->nawait;
    cl->nawait = 0;
    for (size_t k = 0; k < n; k++) await_done(st, &cl->await[k]);
  }
  for (size_t h = 0; h < st->nhash; h++)
    for (dl_inst *in = st->hash[h]; in; in = in->hash_next)
      while (in->nthru) finish_through(st, in, in->thru[--in->nthru], 0);
}

/* The last window; divided: the records still to go, until no process
   sends any. */
static void last_windows(dl_central *st) {
  dl_central_window(st);
  while (st->link && st->link->ended && st->link->round(st->a)) dl_central_window(st);
}

void dl_central_end(dl_central *st) {
  last_windows(st);
  end_throughs(st);
  last_windows(st);
  st->ending = 1;
  /* instances never completed (members missing): no delay costs */
  for (size_t h = 0; h < st->nhash; h++)
    while (st->hash[h]) drop_inst(st, st->hash[h]);
  while (st->nparts) drop_inst(st, st->parts[st->nparts - 1]);
  free(st->parts);
  for (uint32_t l = 0; l < st->a->defs.num_locs; l++) {
    free(st->locs[l].open);
    free(st->locs[l].bars);
    free(st->locs[l].done);
    free(st->locs[l].await);
  }
  free(st->locs);
  free(st->sizing);
  for (size_t cap = 0; cap < DL_POOLS; cap++)
    while (st->pool[cap]) {
      dl_inst *in = st->pool[cap];
      st->pool[cap] = in->hash_next;
      free(in);
    }
  for (size_t i = 0; i < st->nchunks; i++) free(st->chunks[i]);
  free(st->chunks);
  free(st->ready);
  free(st->thru_work);
  free(st->maps.at);
  free(st->eff[0].map);
  free(st->eff[1].map);
  free(st->hash);
  if (st->link) {
    for (int r = 0; r < st->link->size; r++) {
      free(st->out[r].w);
      free(st->coll_out[r].w);
    }
    st->link->central_part = NULL;
  }
  free(st->out);
  free(st->coll_out);
  free(st->loc_owner);
  free(st->colls);
  free(st);
}
