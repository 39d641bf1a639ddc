/* replay.c -- the streaming pass over the event files of one process.
 *
 * Per location it keeps a call stack and turns Enter/Leave into exclusive
 * time and visits per call path; the other events become the compact
 * synchronisation records of az.h.  The master is replayed first so that a
 * worker meeting its k-th ThreadTeamBegin finds the master's k-th fork:
 * the fork time, the join time and the call path the team runs under. */
#include <errno.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "az.h"
#include "pomp_util.h"

enum { NO_INST = SIZE_MAX };

typedef struct {
  int32_t cnode;
  uint32_t region;
  az_time start, child;
  size_t inst;          /* parallel frame bound to a team instance */
} frame;

enum { PEND_SEND, PEND_RECV, PEND_COLL, PEND_BAR };

typedef struct {        /* a record waiting for its call's Leave time */
  uint8_t kind;
  size_t index, depth;
} pending;

typedef struct {        /* an outstanding request */
  uint64_t id;
  int is_send;
  size_t send;          /* send record (Isend) */
  az_time e_post;       /* Irecv: enter of the posting call */
  uint64_t pos;         /* Irecv: position of MpiIrecvRequest */
} request;

typedef struct {
  az_analysis *a;
  az_omp_process *omp;
  uint32_t proc, loc;
  char label[160];
  OTF2_EvtReader *er;
  az_time stop;         /* end of the current window */
  int done;             /* all events read */
  int team_pending;     /* a ThreadTeamBegin whose fork the master has not
                           reached yet (both in the same window) */
  uint32_t pending_team;
  uint64_t pending_k;
  az_cells *cells;
  frame *stack; size_t depth, capstack;
  pending *pend; size_t npend, cappend;
  request *reqs; size_t nreqs, capreqs;
  uint64_t *team_count; /* per Comm id: ThreadTeamBegins seen here */
  uint64_t *coll_seq;   /* per Comm id: collectives of this process */
  uint64_t pos;
  az_time last;
  int parallel_depth;
  int is_master;        /* the first location of its process */
  int fork_span;        /* master: between ThreadFork and ThreadJoin */
  int keep_serial;      /* master of a run that did not finish: its time
                           outside parallel regions goes to threads.c */
  int cut;              /* its record ends early (the run did not finish) */
  int stale;            /* a run that did not finish: time went backwards,
                           OTF2 reads stale bytes after a cut-off chunk */
  uint64_t limit;       /* events its chunks hold (chunk_limit) */
  int limit_is_size;    /* ... not known: its size in bytes */
  int cut_file;         /* its file lacks OTF2's closing records */
  int fork_pending;
  az_time fork_time;
  size_t cur_inst;      /* instance of the team this location is in */
  size_t closed_inst;   /* master: parallel left, join not yet seen */
  az_time closed_leave;
  uint32_t bar_seq;
  int failed;
} loc_state;

static char otf2_message[256]; /* last error text from OTF2 */

static OTF2_ErrorCode on_otf2_error(void *u, const char *file, uint64_t line,
                                    const char *fn, OTF2_ErrorCode code,
                                    const char *fmt, va_list va) {
  (void)u; (void)file; (void)line; (void)fn;
  vsnprintf(otf2_message, sizeof otf2_message, fmt, va);
  return code;
}

/* What every callback returns: stop the reader once the location reached
   the end of the current window (the window is resumed later), or failed. */
static OTF2_CallbackCode next(void *u) {
  const loc_state *s = u;
  return s->failed || s->stale || s->last >= s->stop ? OTF2_CALLBACK_INTERRUPT
                                                     : OTF2_CALLBACK_SUCCESS;
}

static frame *top(loc_state *s) {
  return s->depth ? &s->stack[s->depth - 1] : NULL;
}

/* Timestamps must not decrease per location; a violation is reported and
   the time clamped, so durations never become negative. */
static void join_instance(loc_state *s, az_team_instance *in);

static az_time check_time(loc_state *s, az_time t, uint64_t pos) {
  if (t < s->last && (s->a->incomplete || s->cut_file)) {
    /* the clock of a run that did not finish only goes forward (one
       offset, from MPI_Init), and so does any clock in a file that lacks
       its closing records: this is OTF2 reading the stale bytes of a
       previous chunk after a cut-off one; the location ends before it */
    s->stale = 1;
    return s->last;
  }
  s->pos = pos;
  if (s->team_pending) {
    az_team_instance *in =
        az_omp_instance(s->omp, s->pending_team, s->pending_k);
    if (in) join_instance(s, in);
  }
  if (++s->a->events_read % 65536 == 0 && s->a->progress)
    az_progress_draw(s->a);
  if (t < s->last) {
    az_warn(&s->a->diag, AZ_W_CLOCK,
            "%s: event %llu: timestamp goes backwards by %llu ticks",
            s->label, (unsigned long long)pos,
            (unsigned long long)(s->last - t));
    t = s->last;
  }
  /* the same time as AZ_X_SERIAL: outside fork..join, in some region */
  if (s->keep_serial && s->depth && !s->parallel_depth && !s->fork_span)
    az_threads_serial(s->a, s->omp, s->last, t, top(s)->cnode);
  s->last = t;
  return t;
}

/* check_time for a callback: 1 when the event must not be used (stale). */
static int at(loc_state *s, az_time *t, uint64_t pos) {
  *t = check_time(s, *t, pos);
  return s->stale;
}

/* The innermost region, required by the MPI and lock events. */
static frame *enclosing(loc_state *s, const char *what) {
  frame *f = top(s);
  if (!f)
    az_warn(&s->a->diag, AZ_W_NESTING,
            "%s: event %llu: %s outside of any region; ignored", s->label,
            (unsigned long long)s->pos, what);
  return f;
}

static void add_pending(loc_state *s, int kind, size_t index) {
  pending p = {(uint8_t)kind, index, s->depth};
  PU_PUSH(s->pend, s->npend, s->cappend, p);
}

static int valid_comm(loc_state *s, uint32_t comm) {
  if (comm < s->a->defs.num_comms) return 1;
  az_warn(&s->a->diag, AZ_W_DEFS, "%s: event %llu: undefined communicator %u",
          s->label, (unsigned long long)s->pos, comm);
  return 0;
}

/* ---- Enter / Leave ----------------------------------------------------- */

static void bind_parallel(loc_state *s, frame *f, az_time t) {
  if (s->cur_inst == NO_INST || s->parallel_depth != 1) return;
  az_team_instance *in = &s->omp->inst[s->cur_inst];
  if (s->loc == s->a->defs.procs[s->proc].first_loc) in->cnode = f->cnode;
  f->inst = s->cur_inst;
  if (in->fork <= t) { /* fork overhead: from the master's fork to here */
    f->start = in->fork;
    az_cell(s->cells, f->cnode)[AZ_OMP_MANAGEMENT] += (int64_t)(t - in->fork);
  }
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t,
                                  uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l; (void)al;
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  const az_defs *d = &s->a->defs;
  if (r >= d->num_regions || !d->regions[r].defined) {
    az_fail(&s->a->diag, "%s: event %llu: Enter of undefined region %u",
            s->label, (unsigned long long)pos, r);
    s->failed = 1;
    return OTF2_CALLBACK_INTERRUPT;
  }
  int32_t parent = -1;
  if (s->depth) parent = top(s)->cnode;
  else if (s->cur_inst != NO_INST) /* worker: under the master's path */
    parent = s->omp->inst[s->cur_inst].parent_cnode;
  frame f = {az_calltree_child(&s->a->tree, parent, (int32_t)r), r, t, 0,
             NO_INST};
  az_cell(s->cells, f.cnode)[AZ_VISITS]++;
  const az_region *reg = &d->regions[r];
  if (reg->kind == AZ_RK_PARALLEL) {
    s->parallel_depth++;
    bind_parallel(s, &f, t);
  }
  PU_PUSH(s->stack, s->depth, s->capstack, f);
  if ((reg->kind == AZ_RK_EBARRIER || reg->kind == AZ_RK_IBARRIER) &&
      s->parallel_depth == 1 && s->cur_inst != NO_INST) {
    az_barrier b = {s->omp->inst[s->cur_inst].team, (uint32_t)s->cur_inst,
                    s->bar_seq++, s->loc, t, t, f.cnode,
                    reg->kind == AZ_RK_IBARRIER, 0, 0, 0};
    az_omp_process *o = s->omp;
    o->inst[s->cur_inst].open_bars++;
    size_t i = az_slot_take((void **)&o->bars, &o->nbars, &o->capbars,
                            sizeof b, &o->free_bars);
    o->bars[i] = b;
    add_pending(s, PEND_BAR, i);
  }
  return next(u);
}

/* Records of the call being left get its Leave time (and a barrier the
   time its callees took: tasks it ran meanwhile, child). */
static void finish_pending(loc_state *s, az_time t, az_time child) {
  az_mpi_records *m = &s->a->mpi;
  while (s->npend && s->pend[s->npend - 1].depth >= s->depth) {
    pending p = s->pend[--s->npend];
    switch (p.kind) {
    case PEND_SEND:
      m->sends[p.index].x_done = t;
      m->sends[p.index].left = 1;
      break;
    case PEND_RECV:
      m->recvs[p.index].x_done = t;
      m->recvs[p.index].left = 1;
      break;
    case PEND_COLL:
      m->colls[p.index].x = t;
      m->colls[p.index].left = 1;
      break;
    default:
      s->omp->bars[p.index].x = t;
      s->omp->bars[p.index].busy = child;
      s->omp->bars[p.index].left = 1;
      break;
    }
  }
}

static void charge_join(int64_t *v, az_time join, az_time leave) {
  if (join <= leave) return;
  v[AZ_X_RUN] += (int64_t)(join - leave);
  v[AZ_OMP_MANAGEMENT] += (int64_t)(join - leave);
}

static void close_frame(loc_state *s, az_time t) {
  frame f = s->stack[s->depth - 1];
  finish_pending(s, t, f.child);
  s->depth--;
  az_time dur = t - f.start;
  int64_t excl = (int64_t)dur - (int64_t)f.child;
  int64_t *v = az_cell(s->cells, f.cnode);
  v[AZ_X_RUN] += excl;
  const az_region *reg = &s->a->defs.regions[f.region];
  if (reg->kind == AZ_RK_PARALLEL) s->parallel_depth--;
  else if (s->parallel_depth == 0) v[AZ_X_SERIAL] += excl;
  if (s->depth) top(s)->child += dur;
  if (f.inst == NO_INST) return;
  az_team_instance *in = &s->omp->inst[f.inst];
  if (s->loc == s->a->defs.procs[s->proc].first_loc) {
    s->closed_inst = f.inst; /* the join follows */
    s->closed_leave = t;
  } else if (s->cut) { /* worker cut off: nothing after its end */
  } else if (in->joined) { /* worker: join overhead up to the join */
    charge_join(v, in->join, t);
  } else { /* the master's join comes later: it charges this */
    az_leave lv = {f.inst, s->loc, t};
    PU_PUSH(s->omp->leaves, s->omp->nleaves, s->omp->capleaves, lv);
  }
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t,
                                  uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l; (void)al;
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  if (!s->depth) {
    az_warn(&s->a->diag, AZ_W_NESTING,
            "%s: event %llu: Leave without a matching Enter; ignored",
            s->label, (unsigned long long)pos);
    return next(u);
  }
  if (top(s)->region != r)
    az_warn(&s->a->diag, AZ_W_NESTING,
            "%s: event %llu: Leave of region %u inside region %u", s->label,
            (unsigned long long)pos, r, top(s)->region);
  close_frame(s, t);
  return next(u);
}

/* ---- OpenMP: fork, join, teams, locks --------------------------------- */

static OTF2_CallbackCode on_fork(OTF2_LocationRef l, OTF2_TimeStamp t,
                                 uint64_t pos, void *u, OTF2_AttributeList *al,
                                 OTF2_Paradigm model, uint32_t n) {
  (void)l; (void)al; (void)model; (void)n;
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  s->fork_time = t;
  s->fork_pending = 1;
  s->fork_span = 1;
  return next(u);
}

static OTF2_CallbackCode on_join(OTF2_LocationRef l, OTF2_TimeStamp t,
                                 uint64_t pos, void *u, OTF2_AttributeList *al,
                                 OTF2_Paradigm model) {
  (void)l; (void)al; (void)model;
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  s->fork_span = 0;
  if (s->closed_inst == NO_INST) {
    az_warn(&s->a->diag, AZ_W_TEAM,
            "%s: event %llu: ThreadJoin without a parallel region", s->label,
            (unsigned long long)pos);
    return next(u);
  }
  az_team_instance *in = &s->omp->inst[s->closed_inst];
  in->join = t;
  in->joined = 1;
  az_omp_process *o = s->omp;
  for (size_t i = 0; i < o->nleaves;) { /* workers that left before */
    if (o->leaves[i].inst != s->closed_inst) {
      i++;
      continue;
    }
    charge_join(az_cell(&s->a->cells[o->leaves[i].loc], in->cnode), t,
                o->leaves[i].t);
    o->leaves[i] = o->leaves[--o->nleaves];
  }
  int64_t join = (int64_t)(t - s->closed_leave);
  int64_t *v = az_cell(s->cells, in->cnode);
  v[AZ_X_RUN] += join;
  v[AZ_OMP_MANAGEMENT] += join;
  if (s->depth) top(s)->child += (az_time)join;
  s->closed_inst = NO_INST;
  return next(u);
}

static int team_ok(loc_state *s, uint32_t team) {
  if (team < s->omp->nteams) return 1;
  az_warn(&s->a->diag, AZ_W_DEFS, "%s: event %llu: undefined thread team %u",
          s->label, (unsigned long long)s->pos, team);
  return 0;
}

static OTF2_CallbackCode on_team_begin(OTF2_LocationRef l, OTF2_TimeStamp t,
                                       uint64_t pos, void *u,
                                       OTF2_AttributeList *al,
                                       OTF2_CommRef team) {
  (void)l; (void)al;
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  if (!team_ok(s, team)) return next(u);
  uint64_t k = s->team_count[team]++;
  s->bar_seq = 0;
  if (s->fork_pending) { /* master: a new instance */
    az_team_instance in = {team, -1, s->depth ? top(s)->cnode : -1,
                           s->fork_time, s->fork_time, 1, 0, 0, 0,
                           NULL, 0, 0};
    s->cur_inst = az_omp_add_instance(s->omp, &in);
    s->fork_pending = 0;
    return next(u);
  }
  az_team_instance *in = az_omp_instance(s->omp, team, k);
  if (in) {
    join_instance(s, in);
  } else { /* the master may not have reached its fork in this window */
    s->team_pending = 1;
    s->pending_team = team;
    s->pending_k = k;
  }
  return next(u);
}

static void join_instance(loc_state *s, az_team_instance *in) {
  s->team_pending = 0;
  s->cur_inst = (size_t)(in - s->omp->inst);
  in->members++;
  s->omp->team_thread[s->loc - s->a->defs.procs[s->proc].first_loc] = 1;
  PU_PUSH(in->workers, in->nworkers, in->capworkers, s->loc);
}

static OTF2_CallbackCode on_team_end(OTF2_LocationRef l, OTF2_TimeStamp t,
                                     uint64_t pos, void *u,
                                     OTF2_AttributeList *al,
                                     OTF2_CommRef team) {
  (void)l; (void)al; (void)team;
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  s->cur_inst = NO_INST;
  return next(u);
}

static void lock_event(loc_state *s, az_time t, uint32_t lock, uint32_t order,
                       int release) {
  frame *f = top(s);
  az_lock_event e = {lock, order, s->loc, t, t, -1, 0, (uint8_t)release,
                     s->pos};
  if (f && !release) {
    uint8_t kind = s->a->defs.regions[f->region].kind;
    if (kind == AZ_RK_CRITICAL || kind == AZ_RK_LOCK_SET) {
      e.e_region = f->start;
      e.cnode = f->cnode;
      e.critical = kind == AZ_RK_CRITICAL;
    }
  }
  PU_PUSH(s->omp->locks, s->omp->nlocks, s->omp->caplocks, e);
}

static OTF2_CallbackCode on_acquire(OTF2_LocationRef l, OTF2_TimeStamp t,
                                    uint64_t pos, void *u,
                                    OTF2_AttributeList *al, OTF2_Paradigm m,
                                    uint32_t lock, uint32_t order) {
  (void)l; (void)al; (void)m;
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  lock_event(s, t, lock, order, 0);
  return next(u);
}

static OTF2_CallbackCode on_release(OTF2_LocationRef l, OTF2_TimeStamp t,
                                    uint64_t pos, void *u,
                                    OTF2_AttributeList *al, OTF2_Paradigm m,
                                    uint32_t lock, uint32_t order) {
  (void)l; (void)al; (void)m;
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  lock_event(s, t, lock, order, 1);
  return next(u);
}

/* ---- MPI ------------------------------------------------------------- */

static size_t new_msg(loc_state *s, int is_send, uint32_t comm, uint32_t peer,
                      uint32_t tag, const frame *f) {
  az_mpi_records *m = &s->a->mpi;
  uint32_t world = az_comm_world(&s->a->defs, comm, peer, s->proc);
  if (world == UINT32_MAX)
    az_warn(&s->a->diag, AZ_W_DEFS,
            "%s: event %llu: rank %u is not in communicator %u", s->label,
            (unsigned long long)s->pos, peer, comm);
  az_msg msg = {.comm = comm, .tag = tag, .loc = s->loc,
                .src = is_send ? s->proc : world,
                .dst = is_send ? world : s->proc,
                .cnode_done = f->cnode,
                .e_post = f->start, .e_done = f->start, .x_done = f->start,
 .pos = s->pos};
  size_t i;
  if (is_send) {
    i = az_slot_take((void **)&m->sends, &m->nsends, &m->capsends,
                     sizeof msg, &m->free_sends);
    m->sends[i] = msg;
  } else {
    i = az_slot_take((void **)&m->recvs, &m->nrecvs, &m->caprecvs,
                     sizeof msg, &m->free_recvs);
    m->recvs[i] = msg;
  }
  return i;
}

/* A message is completed by the call f. */
static void complete(loc_state *s, az_msg *msg, const frame *f) {
  const az_region *r = &s->a->defs.regions[f->region];
  msg->cnode_done = f->cnode;
  msg->e_done = f->start;
  msg->x_done = f->start;
  msg->state = AZ_MSG_DONE;
  msg->by_test = strncmp(r->name, "MPI_Test", 8) == 0;
}

/* The region of an MPI event on comm, after the common checks. */
static frame *mpi_frame(loc_state *s, az_time t, uint64_t pos, uint32_t comm,
                        const char *what) {
  if (at(s, &t, pos)) return NULL;
  frame *f = enclosing(s, what);
  return f && valid_comm(s, comm) ? f : NULL;
}

/* MpiSend (blocking: completed by its own call) and MpiIsend (completed
   later by the call that records MpiIsendComplete for req). */
static void send_event(loc_state *s, az_time t, uint64_t pos, uint32_t dest,
                       uint32_t comm, uint32_t tag, uint64_t bytes,
                       int blocking, uint64_t req) {
  frame *f = mpi_frame(s, t, pos, comm, blocking ? "MpiSend" : "MpiIsend");
  if (!f) return;
  size_t i = new_msg(s, 1, comm, dest, tag, f);
  if (blocking) {
    complete(s, &s->a->mpi.sends[i], f);
    add_pending(s, PEND_SEND, i);
  } else {
    request q = {req, 1, i, 0, 0};
    PU_PUSH(s->reqs, s->nreqs, s->capreqs, q);
  }
  az_cell(s->cells, f->cnode)[AZ_BYTES_SENT] += (int64_t)bytes;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef l, OTF2_TimeStamp t,
                                 uint64_t pos, void *u, OTF2_AttributeList *al,
                                 uint32_t dest, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes) {
  (void)l; (void)al;
  send_event(u, t, pos, dest, comm, tag, bytes, 1, 0);
  return next(u);
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef l, OTF2_TimeStamp t,
                                  uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t dest,
                                  OTF2_CommRef comm, uint32_t tag,
                                  uint64_t bytes, uint64_t req) {
  (void)l; (void)al;
  send_event(u, t, pos, dest, comm, tag, bytes, 0, req);
  return next(u);
}

/* Removes and returns an outstanding request (0 if unknown). */
static int take_request(loc_state *s, uint64_t id, request *out) {
  for (size_t i = s->nreqs; i-- > 0;)
    if (s->reqs[i].id == id) {
      *out = s->reqs[i];
      s->reqs[i] = s->reqs[--s->nreqs];
      return 1;
    }
  az_warn(&s->a->diag, AZ_W_UNMATCHED_MSG,
          "%s: event %llu: unknown request %llu", s->label,
          (unsigned long long)s->pos, (unsigned long long)id);
  return 0;
}

static OTF2_CallbackCode on_isend_complete(OTF2_LocationRef l,
                                           OTF2_TimeStamp t, uint64_t pos,
                                           void *u, OTF2_AttributeList *al,
                                           uint64_t req) {
  (void)l; (void)al;
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  frame *f = enclosing(s, "MpiIsendComplete");
  request q;
  if (!f || !take_request(s, req, &q)) return next(u);
  if (!q.is_send) return next(u);
  complete(s, &s->a->mpi.sends[q.send], f);
  add_pending(s, PEND_SEND, q.send);
  return next(u);
}

static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef l,
                                          OTF2_TimeStamp t, uint64_t pos,
                                          void *u, OTF2_AttributeList *al,
                                          uint64_t req) {
  (void)l; (void)al;
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  frame *f = enclosing(s, "MpiIrecvRequest");
  if (!f) return next(u);
  request q = {req, 0, 0, f->start, pos};
  PU_PUSH(s->reqs, s->nreqs, s->capreqs, q);
  return next(u);
}

static void receive(loc_state *s, az_time t, uint64_t pos, uint32_t src,
                    uint32_t comm, uint32_t tag, uint64_t bytes,
                    const request *posted) {
  frame *f = mpi_frame(s, t, pos, comm, "MpiRecv");
  if (!f) return;
  size_t i = new_msg(s, 0, comm, src, tag, f);
  az_msg *msg = &s->a->mpi.recvs[i];
  if (posted) {
    msg->e_post = posted->e_post;
    msg->pos = posted->pos;
  }
  complete(s, msg, f);
  add_pending(s, PEND_RECV, i);
  az_cell(s->cells, f->cnode)[AZ_BYTES_RECEIVED] += (int64_t)bytes;
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef l, OTF2_TimeStamp t,
                                 uint64_t pos, void *u, OTF2_AttributeList *al,
                                 uint32_t src, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t bytes) {
  (void)l; (void)al;
  receive(u, t, pos, src, comm, tag, bytes, NULL);
  return next(u);
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef l, OTF2_TimeStamp t,
                                  uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t src,
                                  OTF2_CommRef comm, uint32_t tag,
                                  uint64_t bytes, uint64_t req) {
  (void)l; (void)al;
  loc_state *s = u;
  s->pos = pos; /* for the message of take_request */
  request q;
  int known = take_request(s, req, &q) && !q.is_send;
  receive(s, t, pos, src, comm, tag, bytes, known ? &q : NULL);
  return next(u);
}

static OTF2_CallbackCode on_cancelled(OTF2_LocationRef l, OTF2_TimeStamp t,
                                      uint64_t pos, void *u,
                                      OTF2_AttributeList *al, uint64_t req) {
  (void)l; (void)al;
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  request q;
  if (take_request(s, req, &q) && q.is_send)
    s->a->mpi.sends[q.send].state = AZ_MSG_CANCELLED;
  return next(u);
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef l, OTF2_TimeStamp t,
                                     uint64_t pos, void *u,
                                     OTF2_AttributeList *al,
                                     OTF2_CollectiveOp op, OTF2_CommRef comm,
                                     uint32_t root, uint64_t sent,
                                     uint64_t received) {
  (void)l; (void)al;
  loc_state *s = u;
  const frame *in = top(s);
  if (!in || s->a->defs.regions[in->region].paradigm != OTF2_PARADIGM_MPI) {
    /* a placeholder for `root` collectives run while recording was off
       (docs/TRACE.md): they keep their instance numbers, so that the next
       recorded one pairs right; none of them is analysed */
    if (at(s, &t, pos)) return next(u);
    if (valid_comm(s, comm)) s->coll_seq[comm] += root;
    return next(u);
  }
  frame *f = mpi_frame(s, t, pos, comm, "MpiCollectiveEnd");
  if (!f) return next(u);
  int64_t *v = az_cell(s->cells, f->cnode);
  v[AZ_BYTES_SENT] += (int64_t)sent;
  v[AZ_BYTES_RECEIVED] += (int64_t)received;
  /* one participant: nothing to wait for, and nothing to match */
  if (s->a->defs.comms[comm].self) return next(u);
  az_mpi_records *m = &s->a->mpi;
  az_coll c = {comm, s->loc, s->proc, root, s->coll_seq[comm]++, f->start,
               f->start, f->cnode,
               (uint8_t)s->a->defs.regions[f->region].role, (uint8_t)op, 0,
               0, pos};
  size_t i = az_slot_take((void **)&m->colls, &m->ncolls, &m->capcolls,
                          sizeof c, &m->free_colls);
  m->colls[i] = c;
  add_pending(s, PEND_COLL, i);
  return next(u);
}

static OTF2_CallbackCode on_unknown(OTF2_LocationRef l, OTF2_TimeStamp t,
                                    uint64_t pos, void *u,
                                    OTF2_AttributeList *al) {
  (void)l; (void)t; (void)al;
  loc_state *s = u;
  az_warn(&s->a->diag, AZ_W_UNKNOWN_RECORD,
          "%s: event %llu: unknown record type; skipped", s->label,
          (unsigned long long)pos);
  return next(u);
}

static OTF2_EvtReaderCallbacks *make_callbacks(void) {
  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
  OTF2_EvtReaderCallbacks_SetThreadForkCallback(cb, on_fork);
  OTF2_EvtReaderCallbacks_SetThreadJoinCallback(cb, on_join);
  OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(cb, on_team_begin);
  OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(cb, on_team_end);
  OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(cb, on_acquire);
  OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(cb, on_release);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_cancelled);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
  OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, on_unknown);
  return cb;
}

/* Local definitions carry the clock offsets and the id mapping tables
   that the event reader applies: without them the events name the wrong
   regions and teams.  Every location has its file (libpomp and tracegen
   write one per location, empty or not), so a missing or unreadable one
   is an error naming it. */
static int read_local_defs(loc_state *s, OTF2_Reader *reader) {
  uint64_t id = s->a->defs.locs[s->loc].id;
  char path[4096];
  az_loc_file(s->a, id, "def", path, sizeof path);
  struct stat st;
  const char *why = NULL;
  if (stat(path, &st) != 0) why = strerror(errno);
  OTF2_DefReader *dr = why ? NULL : OTF2_Reader_GetDefReader(reader, id);
  if (!why && !dr) why = "cannot open the local definitions";
  uint64_t n = 0;
  if (!why && OTF2_Reader_ReadAllLocalDefinitions(reader, dr, &n) !=
                  OTF2_SUCCESS)
    why = "truncated or corrupt";
  if (dr) OTF2_Reader_CloseDefReader(reader, dr);
  if (!why) return 0;
  az_fail(&s->a->diag, "%s: %s: local definitions: %s%s%s%s", path, s->label,
          why, otf2_message[0] ? " (" : "", otf2_message,
          otf2_message[0] ? ")" : "");
  s->failed = 1;
  return -1;
}

/* Why the event file of a location cannot be read (any further), with
   the file, the location and the position after the last good event:
   "PATH: LABEL: event N: WHAT (OTF2's words)". */
static void unreadable_text(loc_state *s, const char *why,
                            const char *missing_what, const char *bad_what,
                            char *buf, size_t size) {
  char path[4096];
  az_loc_file(s->a, s->a->defs.locs[s->loc].id, "evt", path, sizeof path);
  struct stat st;
  int missing = stat(path, &st) != 0;
  snprintf(buf, size, "%s: %s: event %llu: %s%s%s (%s)", path, s->label,
           (unsigned long long)s->pos + 1, missing ? missing_what : bad_what,
           missing ? ": " : "", missing ? strerror(errno) : "", why);
}

/* OTF2's words for a failed read, or the code's description. */
static const char *otf2_why(OTF2_ErrorCode rc) {
  return otf2_message[0] ? otf2_message : OTF2_Error_GetDescription(rc);
}

/* A finished trace with a missing, truncated or corrupt event file is not
   analysed. */
static void unreadable(loc_state *s, const char *otf2_text) {
  char msg[4600];
  unreadable_text(s, otf2_text, "cannot read the event file",
                  "cannot read the event file: truncated or corrupt", msg,
                  sizeof msg);
  az_fail(&s->a->diag, "%s", msg);
  s->failed = 1;
}

/* The record of a run that did not finish ends early: regions still open
   close at its last timestamp, and a worker's idle time stops there too.
   One warning per location (why: a cut-off last chunk, or the end). */
static void ended_early(loc_state *s, const char *cut_chunk) {
  const az_defs *d = &s->a->defs;
  char open[300] = "";
  if (s->depth)
    snprintf(open, sizeof open, ", inside %s (%zu region%s open end there)",
             d->regions[top(s)->region].name, s->depth,
             s->depth == 1 ? "" : "s");
  if (cut_chunk && !s->pos)
    az_warn(&s->a->diag, AZ_W_ENDED,
            "%s; the run ended before any of its events was written",
            cut_chunk);
  else if (cut_chunk)
    az_warn(&s->a->diag, AZ_W_ENDED, "%s; the run ended after event %llu%s",
            cut_chunk, (unsigned long long)s->pos, open);
  else if (s->depth)
    az_warn(&s->a->diag, AZ_W_ENDED, "%s: the run ended after event %llu%s",
            s->label, (unsigned long long)s->pos, open);
  s->cut = 1;
  if (!s->is_master) az_threads_cut(s->a, s->omp, s->loc, s->last);
}

/* The end of a location's events: regions still open end at its last
   timestamp.  cut_chunk: the event file of a run that did not finish ends
   in an unreadable chunk (the message says where). */
static void finish_location(loc_state *s, OTF2_Reader *reader,
                            const char *cut_chunk) {
  OTF2_Reader_CloseEvtReader(reader, s->er);
  s->er = NULL;
  s->done = 1;
  if (s->a->incomplete && (s->depth || cut_chunk)) ended_early(s, cut_chunk);
  else if (s->depth)
    az_warn(&s->a->diag, AZ_W_NESTING,
            "%s: %zu regions still open at the end; closed at the last "
            "timestamp",
            s->label, s->depth);
  while (s->depth) close_frame(s, s->last);
  if (s->nreqs)
    az_warn(&s->a->diag, AZ_W_UNMATCHED_MSG,
            "%s: %zu requests never completed", s->label, s->nreqs);
  if (s->team_pending)
    az_warn(&s->a->diag, AZ_W_TEAM,
            "%s: thread team instance %llu has no fork on the master",
            s->label, (unsigned long long)s->pending_k + 1);
}

/* How many events a location's event file holds: the last event number
   in the header of its last chunk (OTF2's chunk header: type 3, an
   endianness byte, first and last event number as 64-bit integers).
   OTF2 3.0.2 reads a file that ends without its end-of-file record (cut
   after a whole chunk, or inside one) as if the previous chunk followed
   again, for ever: the replay never asks for more than this.  When the
   header cannot tell, each event takes at least one byte of the file. */
static uint64_t chunk_limit(loc_state *s, OTF2_Reader *reader) {
  char path[4096];
  az_loc_file(s->a, s->a->defs.locs[s->loc].id, "evt", path, sizeof path);
  struct stat st;
  uint64_t chunk = 0, def_chunk = 0;
  if (stat(path, &st) != 0 || st.st_size <= 0) return UINT64_MAX;
  uint64_t size = (uint64_t)st.st_size;
  s->limit_is_size = 1; /* unless a chunk header says better */
  if (OTF2_Reader_GetChunkSize(reader, &chunk, &def_chunk) != OTF2_SUCCESS ||
      !chunk)
    return size;
  FILE *f = fopen(path, "rb");
  unsigned char h[18], end[2];
  int ok = f && !fseeko(f, (off_t)((size - 1) / chunk * chunk), SEEK_SET) &&
           fread(h, 1, sizeof h, f) == sizeof h && h[0] == 3;
  /* OTF2 closes a file with its end-of-file and end-of-buffer records */
  s->cut_file = !f || fseeko(f, -2, SEEK_END) || fread(end, 1, 2, f) != 2 ||
                end[0] != 2 || end[1] != 1;
  if (f) fclose(f);
  uint64_t last = 0;
  for (int i = 7; ok && i >= 0; i--) last = last << 8 | h[10 + i];
  if (!ok || !last || last > size) return size;
  s->limit_is_size = 0;
  return last;
}

static int open_location(loc_state *s, OTF2_Reader *reader,
                         OTF2_EvtReaderCallbacks *cb) {
  otf2_message[0] = 0;
  if (read_local_defs(s, reader)) return -1;
  otf2_message[0] = 0;
  s->er = OTF2_Reader_GetEvtReader(reader, s->a->defs.locs[s->loc].id);
  if (!s->er) {
    unreadable(s, "no event reader");
    return -1;
  }
  OTF2_EvtReader_ApplyClockOffsets(s->er, true);
  OTF2_Reader_RegisterEvtCallbacks(reader, s->er, cb, s);
  s->limit = chunk_limit(s, reader);
  return 0;
}

/* All events of the file were read: it must hold the events the
   definitions declare.  A run that did not finish: one warning naming
   the file and position (why: msg) and the location ends there.
   Otherwise an error.  0 when the location is finished. */
static int end_of_file(loc_state *s, OTF2_Reader *reader, const char *why) {
  uint64_t declared = s->a->defs.locs[s->loc].events;
  char detail[160];
  if (!why && s->cut_file)
    why = "it lacks OTF2's closing records";
  if (!why && declared > s->pos) {
    snprintf(detail, sizeof detail,
             "it holds %llu of the %llu events the definitions declare",
             (unsigned long long)s->pos, (unsigned long long)declared);
    why = detail;
  }
  if (!why) {
    finish_location(s, reader, NULL);
    return 0;
  }
  if (!s->a->incomplete) {
    unreadable(s, why);
    return -1;
  }
  /* a process killed while writing leaves a cut-off last chunk */
  char msg[4600];
  unreadable_text(s, why, "no event file",
                  "the event file ends in a cut-off chunk", msg, sizeof msg);
  finish_location(s, reader, msg);
  return 0;
}

/* Reads the location's events up to the end of the window (and never
   beyond the events its chunks hold). */
static int advance(loc_state *s, OTF2_Reader *reader, az_time stop) {
  s->stop = stop;
  uint64_t n = 0, want = s->limit > s->pos ? s->limit - s->pos : 0;
  otf2_message[0] = 0;
  OTF2_ErrorCode rc =
      want ? OTF2_Reader_ReadLocalEvents(reader, s->er, want, &n)
           : OTF2_SUCCESS;
  if (s->failed) return -1;
  if (s->stale) return end_of_file(s, reader, "timestamps go backwards");
  if (rc == OTF2_SUCCESS)
    return end_of_file(s, reader, n == want && s->limit_is_size
                                      ? "more events than the file has bytes"
                                      : NULL);
  if (rc != OTF2_ERROR_INTERRUPTED_BY_CALLBACK)
    return end_of_file(s, reader, otf2_why(rc));
  return 0;
}

/* Windows of about AZ_WINDOW_EVENTS events over the trace's time span, so
   that all locations progress together (one window when the span is not
   known). */
enum { AZ_WINDOW_EVENTS = 1 << 16 };

static az_time window_length(const az_analysis *a) {
  const az_defs *d = &a->defs;
  uint64_t per = a->window_events ? a->window_events : AZ_WINDOW_EVENTS;
  if (!d->trace_length) return UINT64_MAX;
  /* event counts not declared: a fixed number of windows */
  uint64_t windows = d->total_events ? d->total_events / per : 4096;
  if (windows <= 1) return UINT64_MAX;
  az_time w = d->trace_length / windows;
  return w ? w : 1;
}

typedef struct {
  az_omp_process omp;
  uint64_t *coll_seq;
} proc_state;

static void init_states(az_analysis *a, const uint8_t *mine, proc_state *ps,
                        loc_state *ls) {
  size_t ncomms = a->defs.num_comms;
  for (uint32_t p = 0; p < a->defs.num_procs; p++) {
    if (mine && !mine[p]) continue;
    ps[p].omp.proc = p;
    ps[p].omp.nteams = ncomms;
    ps[p].omp.by_team = pu_calloc(ncomms, sizeof *ps[p].omp.by_team);
    ps[p].coll_seq = pu_calloc(ncomms, sizeof *ps[p].coll_seq);
    const az_process *pr = &a->defs.procs[p];
    ps[p].omp.team_thread = pu_calloc(pr->num_locs ? pr->num_locs : 1, 1);
    for (uint32_t i = 0; i < pr->num_locs; i++) {
      loc_state *s = &ls[pr->first_loc + i];
      s->a = a;
      s->omp = &ps[p].omp;
      s->proc = p;
      s->loc = pr->first_loc + i;
      az_loc_label(&a->defs, s->loc, s->label, sizeof s->label);
      s->cells = &a->cells[s->loc];
      s->is_master = i == 0;
      s->keep_serial = a->incomplete && i == 0 && pr->num_locs > 1;
      s->cur_inst = s->closed_inst = NO_INST;
      s->team_count = pu_calloc(ncomms, sizeof *s->team_count);
      s->coll_seq = ps[p].coll_seq;
    }
  }
}

/* Per process, once all is read: the last OpenMP wait states, then
   workers left out of team instances and idle threads; then the states
   are freed. */
static void finish_states(az_analysis *a, const uint8_t *mine, proc_state *ps,
                          loc_state *ls, int ok) {
  for (uint32_t p = 0; p < a->defs.num_procs; p++) {
    if (mine && !mine[p]) continue;
    const az_process *pr = &a->defs.procs[p];
    for (uint32_t i = 0; i < pr->num_locs; i++) {
      loc_state *s = &ls[pr->first_loc + i];
      free(s->stack);
      free(s->pend);
      free(s->reqs);
      free(s->team_count);
    }
    az_omp_step(a, &ps[p].omp, UINT64_MAX, 1); /* every instance retired */
    if (ok) az_threads_finish(a, &ps[p].omp);
    az_omp_finish(&ps[p].omp);
    free(ps[p].coll_seq);
  }
}

/* A run that did not finish: the master's serial time is kept only as long
   as an unfinished worker of the process may still end before it. */
static void forget_serial(az_omp_process *o, const loc_state *ls,
                          const az_process *pr) {
  az_time horizon = UINT64_MAX;
  for (uint32_t i = 1; i < pr->num_locs; i++) {
    const loc_state *w = &ls[pr->first_loc + i];
    if (!w->done && w->last < horizon) horizon = w->last;
  }
  az_threads_forget(o, horizon);
}

int az_replay(az_analysis *a, OTF2_Reader *reader, const uint8_t *mine) {
  const az_defs *d = &a->defs;
  proc_state *ps = pu_calloc(d->num_procs ? d->num_procs : 1, sizeof *ps);
  loc_state *ls = pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *ls);
  init_states(a, mine, ps, ls);
  OTF2_ErrorCallback old = OTF2_Error_RegisterCallback(on_otf2_error, NULL);
  OTF2_EvtReaderCallbacks *cb = make_callbacks();
  int failed = 0;
  for (uint32_t l = 0; l < d->num_locs && !failed; l++)
    if (ls[l].a) failed = open_location(&ls[l], reader, cb);
  az_time length = window_length(a), stop = d->global_offset;
  for (int active = 1; active;) {
    stop = UINT64_MAX - stop < length ? UINT64_MAX : stop + length;
    int any = 0;
    /* location order: each master before its workers */
    for (uint32_t l = 0; l < d->num_locs && !failed; l++) {
      if (!ls[l].a || ls[l].done) continue;
      /* its last event (read to end the previous window) lies beyond
         this one too: reading on would take a worker past its master */
      if (ls[l].last >= stop) {
        any = 1;
        continue;
      }
      failed = advance(&ls[l], reader, stop);
      any |= !ls[l].done;
    }
    for (uint32_t p = 0; p < d->num_procs && any && !failed; p++) {
      if (mine && !mine[p]) continue;
      if (a->incomplete) forget_serial(&ps[p].omp, ls, &d->procs[p]);
      az_omp_step(a, &ps[p].omp, stop, 0);
    }
    active = any && !failed;
    /* a parallel analysis agrees here on going on (and on failure) */
    if (a->window_hook) active = a->window_hook(a, active, &failed);
  }
  for (uint32_t l = 0; l < d->num_locs; l++)
    if (ls[l].er) OTF2_Reader_CloseEvtReader(reader, ls[l].er);
  OTF2_EvtReaderCallbacks_Delete(cb);
  OTF2_Error_RegisterCallback(old, NULL);
  finish_states(a, mine, ps, ls, !failed);
  free(ls);
  free(ps);
  return failed ? -1 : 0;
}
