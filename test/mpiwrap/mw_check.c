/*
 * mw_check.c -- reads a libpomp-mpi trace back and checks its MPI records.
 *
 *   mw_check [--expect FILE] [--ranks N] [--tag-is-thread] [--clock-offsets]
 *            [--complete-on-issuer] [--flushes] [--dump FILE] ARCHIVE
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
 * - --tag-is-thread: every point-to-point record with tag t is on thread t;
 * - --complete-on-issuer: every request completes on the location (thread)
 *   that issued it (for programs that never complete another thread's
 *   request: MPICH hands one handle to several such requests at once);
 * - --clock-offsets: every location has two ClockOffsets (MPI_Init and
 *   MPI_Finalize), those of rank 0 being 0;
 * - always: timestamps never decrease on a location, and every MPI record
 *   (but a placeholder) lies inside an MPI region's Enter/Leave;
 * - --flushes: some buffer flush (region "TRACE BUFFER FLUSH") was written
 *   inside an MPI call, between records that share a timestamp (mpiwrap's
 *   shared clock reads, measure's pm_evt_writer_at);
 * - --dump FILE: writes every location's Enter/Leave and MPI records as
 *   text (no timestamps), location by location, for golden-file tests;
 * - --expect FILE: "messages N" / "collectives N" / "unrecorded N" (written
 *   by the test program itself; unrecorded 0 if absent) equal the matched
 *   messages, collective records and instances of placeholders.
 * Prints "messages N", "collectives N" (records) and "unrecorded N"
 * (instances of placeholders); exit 0 ok, 1 failed check,
 * 2 usage. Ranks and threads come from the location ids
 * ((rank << 32) | thread, docs/TRACE.md).
 */
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

typedef struct message {    /* one send or one receive */
  uint32_t comm, src, dst, tag;
  uint64_t seq, bytes;
} message;

typedef struct coll {       /* one member's record of one collective */
  uint32_t comm, rank, op, root;
  uint64_t seq, sent, received;
  int done;                 /* non-blocking: completion seen */
  int nbc;                  /* non-blocking: its own sequence of instances */
  int unrecorded;           /* stands in for an instance not recorded */
} coll;

typedef struct pending {    /* an open request */
  uint64_t loc, id;
  int kind;                 /* 0 isend, 1 irecv, 2 collective */
  size_t coll;              /* index in colls for kind 2 */
} pending;

typedef struct group {
  uint32_t type, n;
  uint64_t *members;
} group;

typedef struct region {     /* a region definition, as far as it matters */
  uint32_t name;            /* string id */
  int mpi, flush;           /* paradigm MPI; the buffer-flush region */
} region;

typedef struct loc_order {  /* one location's records so far */
  uint64_t last;            /* latest timestamp */
  uint32_t mpi_depth;       /* MPI regions entered and not left */
  uint64_t flushes, flushes_in_mpi;
} loc_order;

typedef struct line {       /* one record as text, for --dump */
  uint64_t loc, seq;
  char *text;
} line;

typedef struct check {
  char **strings;
  size_t nstrings, cap_strings;
  region *regions;          /* by region id */
  size_t nregions, cap_regions;
  line *lines;              /* only with --dump */
  size_t nlines, cap_lines;
  int dump;
  uint64_t *locs;
  size_t nlocs, cap_locs;
  group *groups;
  size_t ngroups, cap_groups;
  uint32_t *comm_group;     /* by comm id */
  size_t ncomms, cap_comms;
  message *sends, *recvs;
  size_t nsends, cap_sends, nrecvs, cap_recvs;
  coll *colls;
  size_t ncolls, cap_colls, nunrecorded;
  uint64_t *in_coll;        /* locations between MpiCollectiveBegin and End */
  size_t nin_coll, cap_in_coll;
  pending *open;
  size_t nopen, cap_open;
  uint64_t seq;
  int tag_is_thread, clock_offsets, complete_on_issuer, flushes;
  loc_order *order;         /* by index in locs */
  uint64_t def_loc;         /* location whose local definitions are read */
  size_t *offsets;          /* ClockOffsets per location (index in locs) */
  uint64_t seen_ranks[64];  /* bit set of ranks with events (< 4096) */
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

static void say(check *c, uint64_t loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(check *c, uint64_t loc, const char *fmt, ...) {
  if (!c->dump) return;
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  PU_PUSH(c->lines, c->nlines, c->cap_lines, ((line){loc, c->nlines, pu_strdup(buf)}));
}

static const char *string(check *c, uint32_t id) {
  return id < c->nstrings && c->strings[id] ? c->strings[id] : "?";
}

static const char *op_name(uint32_t op) {
  static const char *names[] = {"BARRIER", "BCAST", "GATHER", "GATHERV", "SCATTER",
                                "SCATTERV", "ALLGATHER", "ALLGATHERV", "ALLTOALL",
                                "ALLTOALLV", "ALLTOALLW", "ALLREDUCE", "REDUCE",
                                "REDUCE_SCATTER", "SCAN", "EXSCAN", "REDUCE_SCATTER_BLOCK"};
  return op < sizeof names / sizeof *names ? names[op] : "OTHER";
}

static long long root_text(uint32_t root) {
  return root == OTF2_UNDEFINED_UINT32 ? -1 : (long long)root;
}

static uint32_t rank_of(uint64_t loc) { return (uint32_t)(loc >> 32); }
static uint32_t thread_of(uint64_t loc) { return (uint32_t)loc; }

/* World rank of member `index` of comm, for a record on location loc. */
static uint32_t world_rank(check *c, uint64_t loc, uint32_t comm, uint32_t index) {
  if (comm >= c->ncomms || c->comm_group[comm] >= c->ngroups) {
    fail(c, "location %llu: communicator %u is not defined", (unsigned long long)loc, comm);
    return UINT32_MAX;
  }
  const group *g = &c->groups[c->comm_group[comm]];
  if (g->type == OTF2_GROUP_TYPE_COMM_SELF) return rank_of(loc);
  if (index >= g->n) {
    fail(c, "location %llu: rank %u outside communicator %u of %u members",
         (unsigned long long)loc, index, comm, g->n);
    return UINT32_MAX;
  }
  return (uint32_t)g->members[index];
}

/* ------------------------------------------------------------ definitions */

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t n,
                                   const uint64_t *members) {
  (void)name, (void)paradigm, (void)flags;
  check *c = u;
  while (c->ngroups <= self) PU_PUSH(c->groups, c->ngroups, c->cap_groups, ((group){0, 0, NULL}));
  group *g = &c->groups[self];
  g->type = type;
  g->n = n;
  g->members = pu_malloc(n * sizeof *members);
  memcpy(g->members, members, n * sizeof *members);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *text) {
  check *c = u;
  while (c->nstrings <= self) PU_PUSH(c->strings, c->nstrings, c->cap_strings, NULL);
  c->strings[self] = pu_strdup(text);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef descr,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file,
                                    uint32_t begin, uint32_t end) {
  (void)canonical, (void)descr, (void)role, (void)flags, (void)file;
  (void)begin, (void)end;
  check *c = u;
  while (c->nregions <= self)
    PU_PUSH(c->regions, c->nregions, c->cap_regions, ((region){UINT32_MAX, 0, 0}));
  c->regions[self] = (region){name, paradigm == OTF2_PARADIGM_MPI,
                              paradigm == OTF2_PARADIGM_MEASUREMENT_SYSTEM};
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef grp, OTF2_CommRef parent, OTF2_CommFlag f) {
  (void)name, (void)parent, (void)f;
  check *c = u;
  while (c->ncomms <= self) PU_PUSH(c->comm_group, c->ncomms, c->cap_comms, UINT32_MAX);
  c->comm_group[self] = grp;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef grp) {
  (void)name, (void)type, (void)events, (void)grp;
  check *c = u;
  PU_PUSH(c->locs, c->nlocs, c->cap_locs, self);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_clock_offset(void *u, OTF2_TimeStamp time, int64_t offset,
                                          double stddev) {
  (void)time, (void)stddev;
  check *c = u;
  for (size_t i = 0; i < c->nlocs; i++)
    if (c->locs[i] == c->def_loc) c->offsets[i]++;
  if (rank_of(c->def_loc) == 0 && offset != 0)
    fail(c, "location %llu: rank 0 has clock offset %lld", (unsigned long long)c->def_loc,
         (long long)offset);
  return OTF2_CALLBACK_SUCCESS;
}

/* ------------------------------------------- timestamps and nesting */

/* The order state of loc, after checking that t does not go back. */
static loc_order *ordered(check *c, uint64_t loc, OTF2_TimeStamp t) {
  size_t i = 0;
  while (i < c->nlocs && c->locs[i] != loc) i++;
  if (i == c->nlocs) {
    fail(c, "location %llu: not defined", (unsigned long long)loc);
    return NULL;
  }
  loc_order *o = &c->order[i];
  if (t < o->last)
    fail(c, "location %llu: timestamp %llu after %llu", (unsigned long long)loc,
         (unsigned long long)t, (unsigned long long)o->last);
  else
    o->last = t;
  return o;
}

/* An MPI record at t: in order, and inside an MPI call. */
static void in_call(check *c, uint64_t loc, OTF2_TimeStamp t, const char *what) {
  loc_order *o = ordered(c, loc, t);
  if (o && !o->mpi_depth)
    fail(c, "location %llu: %s outside any MPI region", (unsigned long long)loc, what);
}

/* Enter (+1) or Leave (-1) of region r on loc. */
static void nest(check *c, uint64_t loc, OTF2_TimeStamp t, OTF2_RegionRef r, int step) {
  loc_order *o = ordered(c, loc, t);
  if (!o || r >= c->nregions) return;
  if (c->regions[r].flush && step > 0) {
    o->flushes++;
    o->flushes_in_mpi += o->mpi_depth > 0;
  }
  if (!c->regions[r].mpi) return;
  if (step < 0 && !o->mpi_depth)
    fail(c, "location %llu: Leave of an MPI region not entered", (unsigned long long)loc);
  else
    o->mpi_depth += (uint32_t)step;
}

/* ----------------------------------------------------------------- events */

static void seen(check *c, uint64_t loc) {
  uint32_t r = rank_of(loc);
  if (r < 4096) c->seen_ranks[r / 64] |= UINT64_C(1) << (r % 64);
}

static void p2p(check *c, uint64_t loc, int is_send, uint32_t peer, uint32_t comm,
                uint32_t tag, uint64_t bytes) {
  seen(c, loc);
  if (c->tag_is_thread && tag != thread_of(loc))
    fail(c, "location %llu: message with tag %u recorded on thread %u",
         (unsigned long long)loc, tag, thread_of(loc));
  uint32_t me = rank_of(loc), other = world_rank(c, loc, comm, peer);
  message m = {comm, is_send ? me : other, is_send ? other : me, tag, c->seq++, bytes};
  if (is_send)
    PU_PUSH(c->sends, c->nsends, c->cap_sends, m);
  else
    PU_PUSH(c->recvs, c->nrecvs, c->cap_recvs, m);
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
             (unsigned long long)loc, (unsigned long long)id,
             (unsigned long long)out->loc);
      return 1;
    }
  fail(c, "location %llu: completion of request %llu that is not open",
       (unsigned long long)loc, (unsigned long long)id);
  return 0;
}

/* Ends loc's open MpiCollectiveBegin; 0 if it has none (a placeholder). */
static int left_collective(check *c, uint64_t loc) {
  for (size_t i = 0; i < c->nin_coll; i++)
    if (c->in_coll[i] == loc) {
      c->in_coll[i] = c->in_coll[--c->nin_coll];
      return 1;
    }
  return 0;
}

/* A blocking send or receive: its line, then its half of a message. */
static void blocking(check *c, uint64_t loc, int is_send, uint32_t peer, uint32_t comm,
                     uint32_t tag, uint64_t len) {
  say(c, loc, "%s %s=%u comm=%u tag=%u bytes=%llu", is_send ? "MpiSend" : "MpiRecv",
      is_send ? "to" : "from", peer, comm, tag, (unsigned long long)len);
  p2p(c, loc, is_send, peer, comm, tag, len);
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *a, uint32_t receiver,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t len) {
  (void)a;
  in_call(u, loc, t, "MpiSend");
  blocking(u, loc, 1, receiver, comm, tag, len);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                 OTF2_AttributeList *a, uint32_t sender,
                                 OTF2_CommRef comm, uint32_t tag, uint64_t len) {
  (void)a;
  in_call(u, loc, t, "MpiRecv");
  blocking(u, loc, 0, sender, comm, tag, len);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *a, uint32_t receiver,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t len,
                                  uint64_t id) {
  (void)a;
  in_call(u, loc, t, "MpiIsend");
  say(u, loc, "MpiIsend to=%u comm=%u tag=%u bytes=%llu req=%llu", receiver, comm, tag,
      (unsigned long long)len, (unsigned long long)id);
  p2p(u, loc, 1, receiver, comm, tag, len);
  open_request(u, loc, id, 0, 0);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend_complete(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                           void *u, OTF2_AttributeList *a, uint64_t id) {
  (void)a;
  in_call(u, loc, t, "MpiIsendComplete");
  pending p;
  say(u, loc, "MpiIsendComplete req=%llu", (unsigned long long)id);
  close_request(u, loc, id, 0, &p);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef loc, OTF2_TimeStamp t,
                                          void *u, OTF2_AttributeList *a, uint64_t id) {
  (void)a;
  in_call(u, loc, t, "MpiIrecvRequest");
  say(u, loc, "MpiIrecvRequest req=%llu", (unsigned long long)id);
  open_request(u, loc, id, 1, 0);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *a, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t len,
                                  uint64_t id) {
  (void)a;
  in_call(u, loc, t, "MpiIrecv");
  pending p;
  say(u, loc, "MpiIrecv from=%u comm=%u tag=%u bytes=%llu req=%llu", sender, comm, tag,
      (unsigned long long)len, (unsigned long long)id);
  close_request(u, loc, id, 1, &p);
  p2p(u, loc, 0, sender, comm, tag, len);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_cancelled(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                      OTF2_AttributeList *a, uint64_t id) {
  (void)a;
  in_call(u, loc, t, "MpiRequestCancelled");
  pending p;
  check *c = u;
  say(c, loc, "MpiRequestCancelled req=%llu", (unsigned long long)id);
  /* a cancelled collective request would leave a hole in its instance */
  if (close_request(c, loc, id, -1, &p) && p.kind == 2)
    fail(c, "location %llu: collective request %llu cancelled",
         (unsigned long long)loc, (unsigned long long)id);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                     OTF2_AttributeList *a, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received) {
  (void)a;
  check *c = u;
  seen(c, loc);
  int placeholder = !left_collective(c, loc);
  if (placeholder)
    ordered(c, loc, t);
  else
    in_call(c, loc, t, "MpiCollectiveEnd");
  if (placeholder) {   /* root = instances */
    say(c, loc, "unrecorded collectives comm=%u count=%u", comm, root);
    for (uint32_t i = 0; i < root; i++) {
      coll k = {comm, rank_of(loc), op, root, c->seq++, 0, 0, 1, 0, 1};
      PU_PUSH(c->colls, c->ncolls, c->cap_colls, k);
    }
    c->nunrecorded += root;
    return OTF2_CALLBACK_SUCCESS;
  }
  say(c, loc, "MpiCollectiveEnd op=%s comm=%u root=%lld sent=%llu received=%llu",
      op_name(op), comm, root_text(root), (unsigned long long)sent,
      (unsigned long long)received);
  coll k = {comm, rank_of(loc), op, root, c->seq++, sent, received, 1, 0, 0};
  PU_PUSH(c->colls, c->ncolls, c->cap_colls, k);
  return OTF2_CALLBACK_SUCCESS;
}

/* A non-blocking collective takes its place in the order at the request. */
static OTF2_CallbackCode ev_nbc_request(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                        OTF2_AttributeList *a, uint64_t id) {
  (void)a;
  in_call(u, loc, t, "NonBlockingCollectiveRequest");
  check *c = u;
  say(c, loc, "NonBlockingCollectiveRequest req=%llu", (unsigned long long)id);
  coll k = {UINT32_MAX, rank_of(loc), 0, 0, c->seq++, 0, 0, 0, 1, 0};
  PU_PUSH(c->colls, c->ncolls, c->cap_colls, k);
  open_request(c, loc, id, 2, c->ncolls - 1);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_nbc_complete(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                         OTF2_AttributeList *a, OTF2_CollectiveOp op,
                                         OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                         uint64_t received, uint64_t id) {
  (void)a;
  in_call(u, loc, t, "NonBlockingCollectiveComplete");
  check *c = u;
  pending p;
  say(c, loc,
      "NonBlockingCollectiveComplete op=%s comm=%u root=%lld sent=%llu received=%llu req=%llu",
      op_name(op), comm, root_text(root), (unsigned long long)sent,
      (unsigned long long)received, (unsigned long long)id);
  if (!close_request(c, loc, id, 2, &p)) return OTF2_CALLBACK_SUCCESS;
  coll *k = &c->colls[p.coll];
  k->comm = comm, k->op = op, k->root = root, k->sent = sent, k->received = received;
  k->done = 1;
  return OTF2_CALLBACK_SUCCESS;
}

static void region_line(check *c, uint64_t loc, const char *what, OTF2_RegionRef region) {
  say(c, loc, "%s %s", what,
      string(c, region < c->nregions ? c->regions[region].name : UINT32_MAX));
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *a, OTF2_RegionRef region) {
  (void)a;
  nest(u, loc, t, region, 1);
  region_line(u, loc, "Enter", region);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                  OTF2_AttributeList *a, OTF2_RegionRef region) {
  (void)a;
  nest(u, loc, t, region, -1);
  region_line(u, loc, "Leave", region);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                       OTF2_AttributeList *a) {
  (void)a;
  in_call(u, loc, t, "MpiCollectiveBegin");
  check *c = u;
  say(c, loc, "MpiCollectiveBegin");
  PU_PUSH(c->in_coll, c->nin_coll, c->cap_in_coll, loc);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_request_test(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u,
                                         OTF2_AttributeList *a, uint64_t id) {
  (void)a;
  in_call(u, loc, t, "MpiRequestTest");
  say(u, loc, "MpiRequestTest req=%llu", (unsigned long long)id);
  return OTF2_CALLBACK_SUCCESS;
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
        fail(c, "comm %u %u->%u tag %u: %llu bytes sent, %llu received", s->comm, s->src,
             s->dst, s->tag, (unsigned long long)s->bytes, (unsigned long long)r->bytes);
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
    if (comm >= c->ncomms || c->comm_group[comm] >= c->ngroups) {
      fail(c, "collective on undefined communicator %u", comm);
      at = end;
      continue;
    }
    const group *g = &c->groups[c->comm_group[comm]];
    uint32_t members = g->type == OTF2_GROUP_TYPE_COMM_SELF ? 1 : g->n;
    /* the first rank's count is the instance count; every member has it */
    size_t per = 0;
    while (at + per < end && c->colls[at + per].rank == c->colls[at].rank) per++;
    int uneven = 0;
    for (size_t i = at; i + per < end && !uneven; i += per)
      uneven = c->colls[i + per - 1].rank != c->colls[i].rank ||
               c->colls[i + per].rank == c->colls[i].rank;
    if ((end - at) != per * members || uneven)
      fail(c, "comm %u: %zu collective records, expected %zu instances x %u members",
           comm, end - at, per, members);
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
            fail(c, "comm %u instance %zu: rank %u has op %u root %u, rank %u op %u root %u",
                 comm, k, first->rank, first->op, first->root, x->rank, x->op, x->root);
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

static int read_trace(check *c, const char *path) {
  OTF2_Reader *r = OTF2_Reader_Open(path);
  if (!r) {
    pu_error("%s: cannot open the trace archive", path);
    return -1;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(r);
  OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(r);
  OTF2_GlobalDefReaderCallbacks *dcb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dcb, def_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(dcb, def_comm);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dcb, def_location);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(dcb, def_string);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dcb, def_region);
  OTF2_Reader_RegisterGlobalDefCallbacks(r, gd, dcb, c);
  uint64_t n;
  OTF2_Reader_ReadAllGlobalDefinitions(r, gd, &n);
  OTF2_GlobalDefReaderCallbacks_Delete(dcb);
  OTF2_Reader_CloseGlobalDefReader(r, gd);

  for (size_t i = 0; i < c->nlocs; i++) OTF2_Reader_SelectLocation(r, c->locs[i]);
  /* local definitions hold the mapping tables the global reader applies */
  int defs_open = OTF2_Reader_OpenDefFiles(r) == OTF2_SUCCESS;
  c->offsets = pu_calloc(c->nlocs, sizeof *c->offsets);
  c->order = pu_calloc(c->nlocs, sizeof *c->order);
  OTF2_DefReaderCallbacks *lcb = OTF2_DefReaderCallbacks_New();
  OTF2_DefReaderCallbacks_SetClockOffsetCallback(lcb, def_clock_offset);
  for (size_t i = 0; i < c->nlocs && defs_open; i++) {
    OTF2_DefReader *d = OTF2_Reader_GetDefReader(r, c->locs[i]);
    if (!d) continue;
    c->def_loc = c->locs[i];
    OTF2_Reader_RegisterDefCallbacks(r, d, lcb, c);
    OTF2_Reader_ReadAllLocalDefinitions(r, d, &n);
    OTF2_Reader_CloseDefReader(r, d);
  }
  OTF2_DefReaderCallbacks_Delete(lcb);
  OTF2_Reader_OpenEvtFiles(r);
  for (size_t i = 0; i < c->nlocs; i++) OTF2_Reader_GetEvtReader(r, c->locs[i]);
  OTF2_GlobalEvtReader *ge = OTF2_Reader_GetGlobalEvtReader(r);
  OTF2_GlobalEvtReaderCallbacks *ecb = OTF2_GlobalEvtReaderCallbacks_New();
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(ecb, ev_coll_begin);
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ecb, ev_enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ecb, ev_leave);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRequestTestCallback(ecb, ev_request_test);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(ecb, ev_send);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(ecb, ev_recv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(ecb, ev_isend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(ecb, ev_isend_complete);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(ecb, ev_irecv_request);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(ecb, ev_irecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(ecb, ev_cancelled);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(ecb, ev_coll_end);
  OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(ecb, ev_nbc_request);
  OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(ecb, ev_nbc_complete);
  OTF2_Reader_RegisterGlobalEvtCallbacks(r, ge, ecb, c);
  OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalEvents(r, ge, &n);
  OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
  OTF2_Reader_CloseGlobalEvtReader(r, ge);
  OTF2_Reader_CloseEvtFiles(r);
  if (defs_open) OTF2_Reader_CloseDefFiles(r);
  OTF2_Reader_Close(r);
  if (rc != OTF2_SUCCESS) {
    pu_error("%s: reading the events failed: %s", path, OTF2_Error_GetName(rc));
    return -1;
  }
  return 0;
}

static int by_loc(const void *pa, const void *pb) {
  const line *a = pa, *b = pb;
  if (a->loc != b->loc) return a->loc < b->loc ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* "rank.thread text" lines, location by location in their own order. */
static void write_dump(check *c, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) pu_die(POMP_EXIT_FAILURE, "%s: cannot create", path);
  if (c->nlines) qsort(c->lines, c->nlines, sizeof *c->lines, by_loc);
  for (size_t i = 0; i < c->nlines; i++) {
    fprintf(f, "%u.%u %s\n", rank_of(c->lines[i].loc), thread_of(c->lines[i].loc),
            c->lines[i].text);
    free(c->lines[i].text);
  }
  if (fclose(f) != 0) pu_die(POMP_EXIT_FAILURE, "%s: write error", path);
}

static void usage(FILE *f) {
  fprintf(f, "usage: %s [--expect FILE] [--ranks N] [--tag-is-thread] [--clock-offsets]\n"
             "       [--complete-on-issuer] [--flushes] [--dump FILE] ARCHIVE\n"
             "Checks the MPI records of a libpomp-mpi trace (traces.otf2).\n",
          pu_progname());
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  check c = {0};
  const char *expect = NULL, *path = NULL, *dump = NULL;
  int ranks = -1;
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
    } else if (!strcmp(argv[i], "--dump") && i + 1 < argc) {
      dump = argv[++i];
      c.dump = 1;
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
  if (read_trace(&c, path)) return POMP_EXIT_FAILURE;
  if (dump) write_dump(&c, dump);
  uint64_t messages = match_messages(&c);
  match_collectives(&c);
  for (size_t i = 0; i < c.nopen; i++)
    fail(&c, "location %llu: request %llu never completed",
         (unsigned long long)c.open[i].loc, (unsigned long long)c.open[i].id);
  if (ranks >= 0)
    for (int r = 0; r < 4096; r++) {
      int has = (c.seen_ranks[r / 64] >> (r % 64)) & 1;
      if (has != (r < ranks)) fail(&c, "rank %d %s MPI records", r, has ? "has" : "has no");
    }
  for (size_t i = 0; i < c.nlocs && c.clock_offsets; i++)
    if (c.offsets[i] != 2)
      fail(&c, "location %llu: %zu clock offsets, expected 2",
           (unsigned long long)c.locs[i], c.offsets[i]);
  if (c.flushes) {
    uint64_t all = 0, in_mpi = 0;
    for (size_t i = 0; i < c.nlocs; i++)
      all += c.order[i].flushes, in_mpi += c.order[i].flushes_in_mpi;
    printf("flushes %llu\nflushes in MPI calls %llu\n", (unsigned long long)all,
           (unsigned long long)in_mpi);
    if (!in_mpi) fail(&c, "no buffer flush inside an MPI call");
  }
  size_t recorded = c.ncolls - c.nunrecorded;
  printf("messages %llu\ncollectives %zu\nunrecorded %zu\n", (unsigned long long)messages,
         recorded, c.nunrecorded);
  if (expect) {
    long long m = expected(expect, "messages", -1), k = expected(expect, "collectives", -1);
    long long u = expected(expect, "unrecorded", 0);
    if (u != (long long)c.nunrecorded)
      fail(&c, "%zu collective instances not recorded in the trace, the program says %lld",
           c.nunrecorded, u);
    if (m != (long long)messages)
      fail(&c, "%llu messages in the trace, the program sent %lld",
           (unsigned long long)messages, m);
    if (k != (long long)recorded)
      fail(&c, "%zu collective records in the trace, the program recorded %lld", recorded, k);
  }
  for (size_t i = 0; i < c.ngroups; i++) free(c.groups[i].members);
  for (size_t i = 0; i < c.nstrings; i++) free(c.strings[i]);
  free(c.strings), free(c.regions), free(c.lines), free(c.order);
  free(c.offsets), free(c.locs), free(c.groups), free(c.comm_group), free(c.sends), free(c.recvs), free(c.colls), free(c.open);
  free(c.in_coll);
  if (c.errors) fprintf(stderr, "%s: %d problem(s)\n", pu_progname(), c.errors);
  return c.errors ? POMP_EXIT_FAILURE : POMP_EXIT_OK;
}
