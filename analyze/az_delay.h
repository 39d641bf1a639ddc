/* az_delay.h -- the two parts of the delay pass and the op log between
 * them.  Internal to pomp-analyze (not installed).
 *
 * The local part (pass_delay.c) reads one location's events backwards and
 * keeps what depends on that location alone: its call stack and call
 * paths, the time per call path of its open intervals, the counters that
 * name its messages and collectives, its OpenMP team instances.  It never
 * reads the instances: it writes what the central part must do, in the
 * order the central part must do it, as ops into the location's log.
 *
 * The central part (delay_central.c) holds the instances (their members,
 * waits, incoming cost, the order of evaluation) and charges the delay
 * costs.  After each backward window it applies the logs of the
 * locations in location order: the order in which the serial pass met
 * those events (the driver delivers a window location by location).  In
 * a parallel analysis each delay process applies its own locations' logs
 * and keeps the instances they are members of; an instance is evaluated
 * on its late member's process, from records the processes exchange
 * once per window (below, dl_link; docs/analyze/parallel.md, "Dividing
 * the central part").  Its sums are fixed point or integer: the report does
 * not depend on the order in which instances are evaluated.
 *
 * A log is an array of 64-bit words; an op is one word (its code in the
 * low 8 bits, a small argument above) and a fixed number of words after
 * it, or a count of fixed-size items (DL_OP_MSGS, DL_OP_CLOSE). */
#ifndef POMP_AZ_DELAY_H
#define POMP_AZ_DELAY_H

#include <stddef.h>
#include <stdint.h>

#include "az.h"

/* What an instance is: a collective (comm, seq) or a message (comm, src,
   dst, tag, seq); seq is counted from the end of the run. */
typedef struct {
  uint32_t comm, src, dst, tag; /* src, dst: process indices */
  int p2p;
  int omp; /* DL_OMP_BARRIER: (process, team, barrier from the end in
              instance seq); DL_OMP_IDLE: (process, idle workers in tag) */
  uint64_t seq;
} dl_key;

static inline uint64_t dl_mix(uint64_t h, uint64_t v) { /* splitmix64's finaliser */
  h ^= v + 0x9e3779b97f4a7c15u;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
  return h ^ (h >> 31);
}

static inline size_t dl_key_hash(const dl_key *k) {
  uint64_t h = dl_mix(k->seq, ((uint64_t)k->comm << 32) | k->tag);
  return (size_t)dl_mix(h, ((uint64_t)k->src << 34) ^ ((uint64_t)k->dst << 2) ^
                               ((uint64_t)k->omp << 1) ^ (uint64_t)k->p2p);
}

static inline int dl_key_equal(const dl_key *a, const dl_key *b) {
  return a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag &&
         a->p2p == b->p2p && a->omp == b->omp && a->seq == b->seq;
}

/* dl_key.omp.  The parts of a non-blocking message, instances of one
   member each: DL_PENDING the MPI_Wait* completing its MPI_Isend (read
   before the Isend, so keyed by comm = location, seq = a count of that
   location), DL_PART_POST the MPI_Irecv posting its receive (comm ... seq
   the message's). */
enum { DL_MPI, DL_OMP_BARRIER, DL_OMP_IDLE, DL_PENDING, DL_PART_POST };

/* The kinds of synchronisation. */
enum dl_kind { DK_BARRIER, DK_N2N, DK_N21, DK_12N, DK_LS, DK_LR, DK_OMPBAR, DK_OMPIDLE, DK_NONE };

/* A message member's index; the sides of DL_OP_MSGS's items also name
   its parts: an Isend's completion, an Irecv's posting (Late Receiver:
   the send's completing call waits for the receive's posting call). */
enum { DL_SEND, DL_RECV, DL_SEND_DONE, DL_RECV_POST };

typedef struct { /* time per call path in an interval, ticks */
  int32_t cnode;
  int64_t ticks;
} dl_slot;

/* Adds ticks to cnode's slot of map (n slots): 1, or 0 when it has none. */
static inline int dl_slot_add(dl_slot *map, size_t n, int32_t cnode, int64_t ticks) {
  for (size_t i = 0; i < n; i++)
    if (map[i].cnode == cnode) {
      map[i].ticks += ticks;
      return 1;
    }
  return 0;
}

/* The ops.  Every POST op posts one member (DL_OP_MSGS: one per message)
   at its operation's Enter, in every interval open on the location, and
   opens its interval (the last of the open ones): the central part keeps
   the same list of open intervals as the local part, including those of
   members it did not analyse (posted twice, more members than the
   communicator: the central part decides).
     DL_OP_COLL  arg: kind | root << 8;  comm | cnode << 32, seq, e, x
     DL_OP_MSGS  arg: n;  cnode, e, x, then per message: comm | tag << 32,
                 src | dst << 32, seq, side | blocking << 2 | done << 3 |
                 id << 8 (side DL_SEND_DONE: no message yet, its id: seq
                 of its DL_PENDING key; DL_SEND with done: the Isend of the
                 completion id, which becomes its part)
     DL_OP_GIVEUP arg: side;  DL_SEND_DONE: id, the completion has no
                 message (no wait); DL_RECV_POST: comm | tag << 32,
                 src | dst << 32, seq, the Irecv of that message is not
                 read (on another thread, cut off)
     DL_OP_OMPBAR arg: master;  proc | team << 32, bar | cnode << 32,
                 team instance, e, x
     DL_OP_IDLE  proc | idle << 32, seq, cnode, t
     DL_OP_CLOSE arg: j | nmap << 24;  the open interval at index j is
                 closed (the list closes up); the synchronisation it
                 starts at (dl_start: id, x, cnode); its time per call
                 path, nmap (cnode, ticks) pairs
     DL_OP_MARK  arg: j | nmap << 32;  the open interval at index j (of a
                 collective) reached a rooted collective (1-to-N, N-to-1),
                 which synchronises only some pairs of its members, or a
                 message, a synchronisation of its pair if it waited: the
                 interval goes on, its time so far is a segment; the
                 segment's start (dl_start: id, x, cnode), the key of
                 that instance (comm | tag << 32, src | dst << 32, seq,
                 kind | p2p << 8); nmap (cnode, ticks) pairs
     DL_OP_FORK  the master's fork: its barriers' team is now known; t
     DL_OP_DRAIN evaluate what became ready */
enum {
  DL_OP_COLL = 1,
  DL_OP_MSGS,
  DL_OP_OMPBAR,
  DL_OP_IDLE,
  DL_OP_CLOSE,
  DL_OP_FORK,
  DL_OP_DRAIN,
  DL_OP_GIVEUP,
  DL_OP_MARK
};

/* The synchronisation an interval starts at, for the completion time of
   its call (Scalasca's): id, the same on every member of one instance
   (0: none, the run's start or an OpenMP one; DL_START_INIT: MPI_Init;
   DL_START_TEAM: an OpenMP team member's ThreadTeamBegin, x its time,
   cnode its parallel region's: the fork before it, from the master's
   ThreadFork, is added to its map once that is read),
   x its leave there, cnode its call's call path, bcast_root 1 on the root
   of a 1-to-N (Scalasca's completion there counts from the first of the
   receivers to leave), p2p 1 at a message (the central part learns
   there whether it was a synchronisation of the pair: the member posted
   next on the location names it), first where the central part knows
   it (else 0) the time the completion counts from for every member,
   Scalasca's earliest end (delay_central.c, rooted_completion: a
   1-to-N's first receiver that waited to leave; only in an interval as
   it counts for one pair and in its waiter record, never in a log).  In
   a log or record: id, x, cnode | bcast_root << 32 | p2p << 33. */
typedef struct {
  uint64_t id;
  uint64_t x;
  int32_t cnode;
  int bcast_root;
  int p2p;
  uint64_t first;
} dl_start;

static inline uint64_t dl_start_word(const dl_start *st) {
  return (uint32_t)st->cnode | (uint64_t)(st->bcast_root != 0) << 32 |
         (uint64_t)(st->p2p != 0) << 33;
}
static inline dl_start dl_start_of(const uint64_t *w) {
  return (dl_start){
      w[0], w[1], (int32_t)(uint32_t)w[2], (int)(w[2] >> 32 & 1), (int)(w[2] >> 33 & 1), 0};
}
enum { DL_START_NONE = 0, DL_START_INIT = 1, DL_START_TEAM = 4 }; /* no bit 1: not a dl_start_id */
enum { DL_CLOSE_WORDS = 4 }; /* DL_OP_CLOSE's words before its map */
enum { DL_MARK_WORDS = 8 };  /* DL_OP_MARK's words before its map */
/* A collective's interval goes on through at most this many rooted
   collectives (segments), then ends at the next one: each interval still
   open gets the location's time and waits (the local part's flush, the
   central part's post), and the instances of those waits wait for it.
   A worst case (4 ranks, 80,000 Bcast members with a ring message each
   and no barrier): 1.64 G instructions before, 2.01 G with 2, 2.24 G
   with 4, 3.55 G with 16; the references of test/analyze/data/scout need
   1 or 2.  (With the message marks below and the messages' own segments:
   3.13 G and 65 MB against main's 1.64 G and 36.7 MB; the marks cost
   most, and 4 of them instead of 8 saved 5 % there and left 9 more cells
   differing from scout.) */
enum { DL_SEG_BOUND = 4 };
/* ... and is marked at the latest message of each pair (read first; a
   halo loop meets dozens between two collectives): the pair's interval
   ends there if it waited, else where that message's own interval
   starts, back to the pair's previous synchronisation (delay_central.c,
   op_mark and dl_thru). */

/* The id of instance key as a start (never DL_START_NONE or _INIT). */
static inline uint64_t dl_start_id(const dl_key *key) { return (uint64_t)dl_key_hash(key) | 2; }

/* Per call path, its slot in the map being built or merged into
   (pass_delay.c's complete_map, delay_central.c's merge_slots): at[c].slot
   holds while at[c].serial is the index's serial, so each map costs a
   mark per slot, not a search per slot nor a clearing of the index. */
typedef struct {
  uint32_t serial, slot;
} dl_map_at;
typedef struct {
  dl_map_at *at;
  size_t n; /* call paths 0 .. n-1 */
  uint32_t serial;
} dl_map_index;

/* Room for call paths 0 .. ncnodes, and every mark undone where the
   serial would wrap (delay_central.c: pass_delay.c calls it, not the
   reverse, analyze_calls_one_way). */
void dl_map_index_grow(dl_map_index *ix, size_t ncnodes);

/* A serial for a new map of call paths below ncnodes (none marked). */
static inline uint32_t dl_map_index_begin(dl_map_index *ix, size_t ncnodes) {
  if (ncnodes >= ix->n || ix->serial == UINT32_MAX) dl_map_index_grow(ix, ncnodes);
  return ++ix->serial;
}

typedef struct { /* one location's ops of a window */
  uint64_t *w;
  size_t n, cap;
  /* where its DL_OP_COLL ops start (a location's log: dl_central_scan
     ships them without walking the log) */
  size_t *colls;
  size_t ncolls, capcolls;
} dl_log;

typedef struct dl_central dl_central;

/* The central part's state for the analysis a (its defs and call tree). */
dl_central *dl_central_new(az_analysis *a);
/* Applies location loc's ops of a window (the locations in order). */
void dl_central_apply(dl_central *c, uint32_t loc, const uint64_t *w, size_t n);
/* After a window's logs: the barriers whose team became known, and what
   became ready. */
void dl_central_window(dl_central *c);
/* After the last window: the last evaluations; frees the state (instances
   never completed get no delay costs). */
void dl_central_end(dl_central *c);

/* A parallel analysis (parallel.c) divides the central part among the
   delay processes (docs/analyze/parallel.md, "Dividing the central part"): each
   applies the logs of its own locations and keeps the instances one of them
   is a member of; an instance is evaluated on the process of its late
   member's location.  After each window whose end all analysis processes
   agreed on (its MPI exchange calls az_delay_deliver) and after the pass,
   `ship` gets the logs of every location (those of locations replayed
   elsewhere empty): it takes the collectives' posts from them
   (dl_central_scan) and exchanges them and the records of the last window
   (dl_central_records: the messages' sides, the waiters) with the other
   processes (dl_central_receive, dl_central_receive_posts); then the logs
   are applied here, in location order with the other processes'
   collective posts.  After the last window (ended set by ship) the central
   part calls `round` until it returns 0: one more exchange of records,
   while any process has some. */
typedef struct dl_link {
  void (*ship)(az_analysis *a, dl_log *logs, int last);
  int (*round)(az_analysis *a);
  void *data;              /* parallel.c's */
  const uint32_t *idle;    /* per trace process: dl_idle_workers on process 0 */
  const int64_t *finalize; /* per location: dl_finalize_waits on process 0 */
  void *state;             /* the delay pass's, while it runs */
  /* divided: */
  const int *owner;                /* per trace process: its delay process */
  int rank, size;                  /* this delay process, their number */
  struct dl_central *central_part; /* this process's, while the pass runs */
  int ended;                       /* the last window was shipped */
} dl_link;

/* Divided: the records for delay process `to` (emptied by the caller
   once sent), and the collective posts of the window for it. */
dl_log *dl_central_records(dl_central *c, int to);
dl_log *dl_central_coll_posts(dl_central *c, int to);
/* The instances (and parts) it holds: divided, they show the lag of the
   evaluation behind the reading (parallel.c bounds it with extra rounds). */
size_t dl_central_held(const dl_central *c);
/* Divided: location loc's log of the window, before it is applied: its
   collectives' posts (log->colls) to every other process. */
void dl_central_scan(dl_central *c, uint32_t loc, const dl_log *log);
/* Divided: another process's records (n words), their call paths c >= base
   renamed to map[c - base]; its collective posts of the window. */
void dl_central_receive(dl_central *c, const uint64_t *w, size_t n, const int32_t *map,
                        int32_t base);
void dl_central_receive_posts(dl_central *c, const uint64_t *w, size_t n);

/* Per trace process: its OpenMP workers, the threads the forward pass
   found idle (from the cells: in parallel, known on process 0 after the
   gather). */
uint32_t *dl_idle_workers(const az_analysis *a);
/* Per location: its Wait at Finalize (the forward pass's, from the cells
   likewise), taken out of the master's last serial phase (pass_delay.c). */
int64_t *dl_finalize_waits(const az_analysis *a);

/* After a window, in a parallel analysis: the logs shipped and applied. */
void az_delay_deliver(az_analysis *a);

#endif
