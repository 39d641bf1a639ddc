/* pass_delay.c -- delay costs (root causes) of the waits at MPI barriers
 * and N x N collectives, short-term and long-term: a backward pass.
 *
 * A wait at a collective is caused by the member that entered it last.
 * Between the previous operation all members took part in (their last
 * common synchronisation, on a communicator holding all of them) and this
 * one, the late member ran longer than the waiting one on some call paths:
 * its delay on call path c is max(0, late(c) - waiter(c)), each side's
 * time on c in its own interval, minus what it waited there.  The wait is
 * charged to those call paths on the late member's location (short-term,
 * delay_barrier / delay_n2n), scaled by w / (sum of delays + time the late
 * member waited in its interval), at most 1.  The part of the wait its own
 * waiting explains (that waiting time times the same scale) is passed on
 * to the waits in its interval, in proportion to each, and charged the
 * same way, with the scale cost / (sum of delays + waiting), to their
 * causes as long-term cost (delay_*_longterm), and so on backwards.
 *
 * Reading backwards, each member of a collective instance opens its
 * interval at the operation's enter and closes it at its previous common
 * operation (or its first event); an instance is evaluated once every
 * member closed its interval, every wait inside the late member's
 * interval is known, and every later instance whose interval holds one of
 * its waits was evaluated (its incoming cost is complete).  So memory
 * holds the instances in flight, not the trace.  docs/PROPERTIES.md,
 * "Delay costs", states the rules; analyze/README.md the limits. */
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_calltree.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_metrics.h"
#include "az_pass.h"
#include "pomp_util.h"

typedef struct dl_inst dl_inst;

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
  int64_t wait;    /* known once every member posted */
  double incoming; /* later waiting this wait caused, ticks */
  dl_slot *map;    /* its interval's time per call path */
  size_t nmap, capmap;
  dl_ref *inner; /* waits of this member inside its interval */
  size_t ninner, capinner;
  int closed;
} dl_member;

struct dl_inst {
  uint32_t comm;
  uint64_t seq;                  /* counted from the end of the run */
  int metric_short, metric_long; /* delay_barrier[_longterm] or delay_n2n[...] */
  uint32_t size, posted, closed; /* members */
  dl_member *m;
  uint32_t incoming_pending; /* intervals holding one of its waits, not evaluated */
  uint32_t inner_unknown;    /* waits in its members' intervals not yet known */
  dl_inst **dependents;      /* instances waiting to know its waits */
  size_t ndep, capdep;
  dl_inst *hash_next;
  int queued;
};

typedef struct {
  az_cursor cur;
  int32_t *stack; /* call path of each open region, innermost last */
  size_t depth, capstack;
  dl_ref *open; /* intervals open on this location */
  size_t nopen, capopen;
  uint64_t *seq;   /* per communicator: its collectives met so far */
  az_time leave_t; /* the latest Leave met (the next in time) */
  struct {         /* the collective whose Enter comes next */
    int on;
    OTF2_CollectiveOp op;
    uint32_t comm;
    uint64_t seq;
    size_t depth; /* its frame */
    az_time x;
  } coll;
  int skip; /* a worker thread: no MPI collectives here */
  struct dl_state *st;
} dl_loc;

typedef struct dl_state {
  dl_inst **hash;
  size_t nhash;
  dl_inst **ready; /* instances to evaluate, in the order they became so */
  size_t nready, capready;
} dl_state;

static size_t inst_hash(const dl_state *st, uint32_t comm, uint64_t seq) {
  return (size_t)((seq * 1000003u) ^ comm) % st->nhash;
}

static dl_inst *find_inst(dl_state *st, const az_defs *d, uint32_t comm, uint64_t seq,
                          OTF2_CollectiveOp op) {
  dl_inst **slot = &st->hash[inst_hash(st, comm, seq)];
  for (dl_inst *in = *slot; in; in = in->hash_next)
    if (in->comm == comm && in->seq == seq) return in;
  dl_inst *in = pu_calloc(1, sizeof *in);
  in->comm = comm;
  in->seq = seq;
  in->size = d->comms[comm].size;
  in->m = pu_calloc(in->size ? in->size : 1, sizeof *in->m);
  int barrier = op == OTF2_COLLECTIVE_OP_BARRIER;
  in->metric_short = barrier ? AZ_DELAY_BARRIER : AZ_DELAY_N2N;
  in->metric_long = barrier ? AZ_DELAY_BARRIER_LONGTERM : AZ_DELAY_N2N_LONGTERM;
  in->hash_next = *slot;
  *slot = in;
  return in;
}

static void drop_inst(dl_state *st, dl_inst *in) {
  dl_inst **p = &st->hash[inst_hash(st, in->comm, in->seq)];
  while (*p != in) p = &(*p)->hash_next;
  *p = in->hash_next;
  for (uint32_t i = 0; i < in->posted; i++) {
    free(in->m[i].map);
    free(in->m[i].inner);
  }
  free(in->dependents);
  free(in->m);
  free(in);
}

static dl_member *member(dl_ref r) { return &r.in->m[r.m]; }

/* The collectives analysed: barrier and N x N (the others are no
   synchronisation points here; analyze/README.md, limits). */
static int is_n2n_or_barrier(OTF2_CollectiveOp op) {
  switch (op) {
  case OTF2_COLLECTIVE_OP_BARRIER:
  case OTF2_COLLECTIVE_OP_ALLREDUCE:
  case OTF2_COLLECTIVE_OP_ALLGATHER:
  case OTF2_COLLECTIVE_OP_ALLGATHERV:
  case OTF2_COLLECTIVE_OP_ALLTOALL:
  case OTF2_COLLECTIVE_OP_ALLTOALLV:
  case OTF2_COLLECTIVE_OP_ALLTOALLW:
  case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
  case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: return 1;
  default: return 0;
  }
}

/* 1 when every process of communicator `inner` is in `outer`. */
static int comm_within(const az_defs *d, uint32_t inner, uint32_t outer) {
  const az_comm *ci = &d->comms[inner], *co = &d->comms[outer];
  if (inner == outer) return 1;
  if (ci->self || co->self || !ci->world || !co->world) return 0;
  for (uint32_t i = 0; i < ci->size; i++) {
    uint32_t j = 0;
    while (j < co->size && co->world[j] != ci->world[i]) j++;
    if (j == co->size) return 0;
  }
  return 1;
}

static void map_add(dl_member *mb, int32_t cnode, int64_t ticks) {
  for (size_t i = 0; i < mb->nmap; i++)
    if (mb->map[i].cnode == cnode) {
      mb->map[i].ticks += ticks;
      return;
    }
  dl_slot s = {cnode, ticks};
  PU_PUSH(mb->map, mb->nmap, mb->capmap, s);
}

static int64_t map_get(const dl_member *mb, int32_t cnode) {
  for (size_t i = 0; i < mb->nmap; i++)
    if (mb->map[i].cnode == cnode) return mb->map[i].ticks;
  return 0;
}

/* Takes the member's waits inside its interval out of its map; returns
   their sum. */
static int64_t net_map(dl_member *mb) {
  int64_t waited = 0;
  for (size_t i = 0; i < mb->ninner; i++) {
    const dl_member *w = member(mb->inner[i]);
    map_add(mb, w->cnode, -w->wait);
    waited += w->wait;
  }
  return waited;
}

static int ready(const dl_inst *in) {
  return in->posted == in->size && in->closed == in->size && !in->inner_unknown &&
         !in->incoming_pending;
}

/* Costs are not negative: rounded to the nearest tick. */
static int64_t ticks_of(double v) { return (int64_t)(v + 0.5); }

/* Charges one waiter's wait (short-term) and its incoming cost (long-term)
   to the late member's delays; passes the part its waiting explains on
   to the waits in its interval. */
static void charge_waiter(az_analysis *a, const dl_inst *in, dl_member *late, int64_t waited,
                          const dl_member *w) {
  double sum = (double)waited;
  for (size_t i = 0; i < late->nmap; i++) {
    int64_t d = late->map[i].ticks - map_get(w, late->map[i].cnode);
    if (d > 0) sum += (double)d;
  }
  if (sum <= 0) return; /* nothing the late member did explains it */
  double s = (double)w->wait / sum, l = w->incoming / sum;
  if (s > 1) s = 1;
  for (size_t i = 0; i < late->nmap; i++) {
    int64_t d = late->map[i].ticks - map_get(w, late->map[i].cnode);
    if (d <= 0) continue;
    if (s > 0)
      az_charge(a, late->loc, late->map[i].cnode, in->metric_short, ticks_of((double)d * s));
    if (l > 0)
      az_charge(a, late->loc, late->map[i].cnode, in->metric_long, ticks_of((double)d * l));
  }
  double passed = (double)waited * (s + l);
  for (size_t i = 0; i < late->ninner && waited > 0; i++) {
    dl_member *inner = member(late->inner[i]);
    inner->incoming += passed * (double)inner->wait / (double)waited;
  }
}

static void check_ready(dl_state *st, dl_inst *in) {
  if (in->queued || !ready(in)) return;
  in->queued = 1;
  PU_PUSH(st->ready, st->nready, st->capready, in);
}

static void evaluate(az_analysis *a, dl_state *st, dl_inst *in) {
  uint32_t late = 0;
  for (uint32_t i = 1; i < in->size; i++)
    if (in->m[i].e > in->m[late].e ||
        (in->m[i].e == in->m[late].e && in->m[i].loc < in->m[late].loc))
      late = i;
  int64_t waited = 0;
  for (uint32_t i = 0; i < in->size; i++) {
    int64_t own = net_map(&in->m[i]);
    if (i == late) waited = own;
  }
  for (uint32_t i = 0; i < in->size; i++)
    if (i != late && (in->m[i].wait > 0 || in->m[i].incoming > 0))
      charge_waiter(a, in, &in->m[late], waited, &in->m[i]);
  /* the earlier instances whose waits lie in these intervals now have
     every cost these passed on */
  for (uint32_t i = 0; i < in->size; i++)
    for (size_t k = 0; k < in->m[i].ninner; k++) {
      dl_inst *earlier = in->m[i].inner[k].in;
      earlier->incoming_pending--;
      check_ready(st, earlier);
    }
  drop_inst(st, in);
}

/* Evaluates what became ready (a queue, not recursion: a chain of
   instances is as long as the run). */
static void drain(az_analysis *a, dl_state *st) {
  while (st->nready) {
    dl_inst *in = st->ready[--st->nready];
    evaluate(a, st, in);
  }
}

/* Every member is in: the waits, and the instances waiting to know them. */
static void all_posted(dl_state *st, dl_inst *in) {
  az_time latest = 0;
  for (uint32_t i = 0; i < in->size; i++)
    if (in->m[i].e > latest) latest = in->m[i].e;
  for (uint32_t i = 0; i < in->size; i++) {
    dl_member *mb = &in->m[i];
    az_time until = latest < mb->x ? latest : mb->x;
    mb->wait = until > mb->e ? (int64_t)(until - mb->e) : 0;
  }
  for (size_t k = 0; k < in->ndep; k++) {
    in->dependents[k]->inner_unknown--;
    check_ready(st, in->dependents[k]);
  }
  in->ndep = 0;
  check_ready(st, in);
}

/* The member's interval reached its start. */
static void close_interval(dl_state *st, dl_ref r) {
  dl_member *mb = member(r);
  mb->closed = 1;
  r.in->closed++;
  for (size_t i = 0; i < mb->ninner; i++) {
    dl_inst *earlier = mb->inner[i].in;
    if (earlier->posted == earlier->size) continue;
    r.in->inner_unknown++;
    PU_PUSH(earlier->dependents, earlier->ndep, earlier->capdep, r.in);
  }
  check_ready(st, r.in);
}

/* The time since the event after this one (in time), on the innermost
   region, into every interval open here. */
static void attribute(dl_loc *s) {
  if (!s->depth || s->cur.prev == UINT64_MAX || s->cur.prev <= s->cur.last) return;
  int64_t ticks = (int64_t)(s->cur.prev - s->cur.last);
  for (size_t i = 0; i < s->nopen; i++) map_add(member(s->open[i]), s->stack[s->depth - 1], ticks);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  dl_loc *s = u;
  if (s->skip || az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  const az_defs *d = &s->cur.a->defs;
  if (r >= d->num_regions || !d->regions[r].defined) { /* the forward pass only warned */
    az_fail(&s->cur.a->diag, "%s: event %llu: Leave of undefined region %u", s->cur.label,
            (unsigned long long)pos, r);
    s->cur.failed = 1;
    return OTF2_CALLBACK_INTERRUPT;
  }
  attribute(s);
  int32_t parent = s->depth ? s->stack[s->depth - 1] : -1;
  int32_t cnode = az_calltree_child(&s->cur.a->tree, parent, (int32_t)r);
  PU_PUSH(s->stack, s->depth, s->capstack, cnode);
  s->leave_t = t;
  return az_next_back(&s->cur);
}

/* The member met its collective's Enter: its wait lies in every interval
   open here, and its own interval opens. */
static void post(dl_loc *s, int32_t cnode, az_time e) {
  dl_state *st = s->st;
  const az_defs *d = &s->cur.a->defs;
  dl_inst *in = find_inst(st, d, s->coll.comm, s->coll.seq, s->coll.op);
  if (in->posted == in->size) return; /* more members than the communicator: not analysed */
  dl_ref r = {in, in->posted++};
  dl_member *mb = member(r);
  mb->loc = s->cur.loc;
  mb->cnode = cnode;
  mb->e = e;
  mb->x = s->coll.x;
  for (size_t i = 0; i < s->nopen; i++) {
    dl_member *outer = member(s->open[i]);
    PU_PUSH(outer->inner, outer->ninner, outer->capinner, r);
    in->incoming_pending++;
  }
  PU_PUSH(s->open, s->nopen, s->capopen, r);
  if (in->posted == in->size) all_posted(st, in);
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  (void)r;
  dl_loc *s = u;
  if (s->skip || az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  attribute(s);
  if (!s->depth) return az_next_back(&s->cur); /* the forward pass warned */
  int32_t cnode = s->stack[--s->depth];
  if (s->coll.on && s->coll.depth == s->depth) {
    s->coll.on = 0;
    post(s, cnode, t);
    drain(s->cur.a, s->st);
  }
  return az_next_back(&s->cur);
}

/* A collective all members of an open interval's instance took part in
   ends that interval. */
static void close_common(dl_loc *s, uint32_t comm) {
  const az_defs *d = &s->cur.a->defs;
  size_t kept = 0;
  for (size_t i = 0; i < s->nopen; i++) {
    if (comm_within(d, s->open[i].in->comm, comm)) close_interval(s->st, s->open[i]);
    else s->open[kept++] = s->open[i];
  }
  s->nopen = kept;
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
  if (s->skip || az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  const az_defs *d = &s->cur.a->defs;
  if (comm >= d->num_comms || !s->depth) return az_next_back(&s->cur); /* warned */
  int mpi =
      d->regions[s->cur.a->tree.nodes[s->stack[s->depth - 1]].region].paradigm == OTF2_PARADIGM_MPI;
  if (!mpi) { /* a placeholder for collectives not recorded (pass_waits) */
    s->seq[comm] += root;
    return az_next_back(&s->cur);
  }
  uint64_t seq = s->seq[comm]++;
  if (d->comms[comm].self || !is_n2n_or_barrier(op)) {
    attribute(s);
    return az_next_back(&s->cur);
  }
  /* the time after this collective's Leave belongs to the intervals it
     ends, its own time to those still open */
  close_common(s, comm);
  attribute(s);
  s->coll.on = 1;
  s->coll.op = op;
  s->coll.comm = comm;
  s->coll.seq = seq;
  s->coll.depth = s->depth - 1;
  s->coll.x = s->leave_t;
  drain(s->cur.a, s->st);
  return az_next_back(&s->cur);
}

static void delay_begin(az_replay *r) {
  dl_state *st = pu_calloc(1, sizeof *st);
  st->nhash = 4096;
  st->hash = pu_calloc(st->nhash, sizeof *st->hash);
  r->data = st;
  const az_defs *d = &r->a->defs;
  for (uint32_t l = 0; l < d->num_locs; l++) {
    dl_loc *s = (dl_loc *)az_replay_loc(r, l);
    if (!s->cur.a) continue;
    s->st = st;
    s->skip = d->locs[l].thread != 0;
    s->seq = pu_calloc(d->num_comms ? d->num_comms : 1, sizeof *s->seq);
  }
}

/* The location's first event: its open intervals start with the run. */
static void delay_loc_end(az_replay *r, az_cursor *c, const char *cut) {
  (void)cut;
  dl_loc *s = (dl_loc *)c;
  for (size_t i = 0; i < s->nopen; i++) close_interval(s->st, s->open[i]);
  s->nopen = 0;
  drain(r->a, s->st);
}

static void delay_end(az_replay *r, int ok) {
  (void)ok;
  dl_state *st = r->data;
  drain(r->a, st);
  /* instances never completed (members missing): no delay costs */
  for (size_t h = 0; h < st->nhash; h++)
    while (st->hash[h]) drop_inst(st, st->hash[h]);
  for (uint32_t l = 0; l < r->a->defs.num_locs; l++) {
    dl_loc *s = (dl_loc *)az_replay_loc(r, l);
    free(s->stack);
    free(s->open);
    free(s->seq);
  }
  free(st->ready);
  free(st->hash);
  free(st);
}

const az_pass az_pass_delay = {
    .name = "delay",
    .direction = AZ_BACKWARD,
    .loc_size = sizeof(dl_loc),
    .on = {.enter = on_enter, .leave = on_leave, .mpi_collective_end = on_coll_end},
    .begin = delay_begin,
    .loc_end = delay_loc_end,
    .end = delay_end,
};
