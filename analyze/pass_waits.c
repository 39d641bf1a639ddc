/* pass_waits.c -- the first forward pass: call paths, time, visits and
 * bytes per (call path, location), and the synchronisation records of the
 * wait-state analyses, which it evaluates after each window (OpenMP here,
 * point-to-point and collectives in its exchange).
 *
 * Per location it keeps a call stack and turns Enter/Leave into exclusive
 * time and visits per call path; the other events become the compact
 * synchronisation records of az_records.h and az_omp.h.  The driver
 * replays the master first, so that a worker meeting its k-th
 * ThreadTeamBegin finds the master's k-th fork: the fork time, the join
 * time and the call path the team runs under.
 *
 * With two decoding threads or more a worker's window runs in a job there
 * (az_pass.local, forward): its call stack, time and visits are its own;
 * what it shares with its process's other locations (joining a team
 * instance, barrier records, its leave before the master's join, lock
 * events) it logs (job_log), and apply_log does it on the replay thread in
 * location order, as the serial replay would; anything else (MPI, a fork,
 * a call path to create, a warning) it defers to the replay thread. */
#include <otf2/otf2.h>
#include <stdlib.h>

#include "az.h"
#include "az_calltree.h"
#include "az_cells.h"
#include "az_collective.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_metrics.h"
#include "az_omp.h"
#include "az_p2p.h"
#include "az_pass.h"
#include "az_records.h"
#include "pomp_util.h"

enum { NO_INST = SIZE_MAX };
/* A barrier record a job logged, not in the process's list yet: its
   pending entry's index is LOGGED + its position in the job's log until
   apply_log gives it a slot. */
static const size_t LOGGED = SIZE_MAX / 2;

typedef struct {
  int32_t cnode;
  uint32_t region;
  az_time start, child;
  size_t inst; /* parallel frame bound to a team instance */
} frame;

enum { PEND_SEND, PEND_RECV, PEND_COLL, PEND_BAR };

typedef struct { /* a record waiting for its call's Leave time */
  uint8_t kind;
  size_t index, depth;
} pending;

/* An outstanding request of a process.  Requests are the process's, not a
   thread's (MPI_THREAD_MULTIPLE: one thread may complete what another
   started; request ids are unique in the process, docs/TRACE.md).  The
   replay reads a window location by location, so a completion on one
   thread can be read before the post on another: it is then kept as an
   early entry until the post comes (in the same window: a post is never
   later than its completion). */
enum {
  REQ_SEND,        /* Isend posted: send = its record */
  REQ_RECV,        /* Irecv posted: e_post, pos */
  REQ_EARLY_SEND,  /* completed first: send = the record, done, no envelope yet */
  REQ_EARLY_RECV,  /* completed first: send = the receive record */
  REQ_EARLY_CANCEL /* cancelled first */
};

typedef struct {
  uint64_t id;
  uint8_t kind;   /* REQ_* */
  uint32_t loc;   /* location of the record that made the entry */
  size_t send;    /* REQ_SEND/EARLY_SEND: send record; EARLY_RECV: receive record */
  az_time e_post; /* Irecv: enter of the posting call */
  uint64_t pos;   /* Irecv: position of MpiIrecvRequest */
} request;

typedef struct {
  request *v;
  size_t n, cap;
} request_book;

/* What a worker's job changes that its process's other locations share,
   done by apply_log on the replay thread. */
enum { LOG_JOIN, LOG_BARRIER, LOG_BARRIER_LEFT, LOG_LEAVE, LOG_LOCK };

typedef struct {
  uint8_t kind;
  union {
    size_t inst;      /* LOG_JOIN: the instance joined */
    az_barrier bar;   /* LOG_BARRIER */
    az_leave leave;   /* LOG_LEAVE */
    az_lock_event lk; /* LOG_LOCK */
    struct {          /* LOG_BARRIER_LEFT */
      size_t index;   /* in the process's list, or LOGGED + position in the log */
      az_time x, busy;
    } left;
  } u;
  size_t at; /* LOG_BARRIER: its pending entry's position; the slot once applied */
} job_op;

typedef struct {
  az_cursor cur; /* the driver's part (first: the handlers' data) */
  az_omp_process *omp;
  int team_pending; /* a ThreadTeamBegin whose fork the master has not
                           reached yet (both in the same window) */
  uint32_t pending_team;
  uint64_t pending_k;
  az_cells *cells;
  frame *stack;
  size_t depth, capstack;
  pending *pend;
  size_t npend, cappend;
  request_book *reqs; /* the process's (proc_state) */
  uint64_t *reads;    /* I/O reads begun, not completed: matching ids */
  size_t nreads, capreads;
  uint64_t *team_count; /* per Comm id: ThreadTeamBegins seen here */
  uint64_t *coll_seq;   /* per Comm id: collectives of this process */
  uint8_t *finalized;   /* the process left its first MPI_Finalize */
  int parallel_depth;
  int is_master;   /* the first location of its process */
  int fork_span;   /* master: between ThreadFork and ThreadJoin */
  int keep_serial; /* master of a run that did not finish: its time
                           outside parallel regions goes to threads.c */
  int cut;         /* its record ends early (the run did not finish) */
  int fork_pending;
  az_time fork_time;
  size_t cur_inst;    /* instance of the team this location is in */
  size_t closed_inst; /* master: parallel left, join not yet seen */
  az_time closed_leave;
  uint32_t bar_seq;
  job_op *log; /* a job's updates, apply_log's */
  size_t nlog, caplog;
} loc_state;

static OTF2_CallbackCode next(void *u) { return az_next(u); }

/* A job's handler leaves its event to the replay thread (az_pass.local),
   having changed nothing. */
static OTF2_CallbackCode defer(loc_state *s) {
  s->cur.failed = AZ_DEFERRED;
  return OTF2_CALLBACK_INTERRUPT;
}

/* The next entry of the job's log, of that kind (the caller fills it). */
static job_op *job_log(loc_state *s, uint8_t kind) {
  pu_reserve((void **)&s->log, &s->caplog, s->nlog + 1, sizeof *s->log);
  job_op *op = &s->log[s->nlog++];
  op->kind = kind;
  return op;
}

static frame *top(loc_state *s) { return s->depth ? &s->stack[s->depth - 1] : NULL; }

static void join_instance(loc_state *s, az_team_instance *in);
static inline void member_joins(loc_state *s, az_team_instance *in);

/* A worker joins the team instance its master forked meanwhile. */
static void join_pending(loc_state *s) {
  if (!s->team_pending) return;
  az_team_instance *in = az_omp_instance(s->omp, s->pending_team, s->pending_k);
  if (in) join_instance(s, in);
}

/* In a job: whether the event at t may be handled here (0: deferred, a
   clock going back is warned about); a pending team instance the master
   forked meanwhile is joined first, as at() would. */
static int job_takes(loc_state *s, az_time t) {
  if (t < s->cur.last) return 0;
  join_pending(s);
  return 1;
}

/* The driver's time check, then what this pass does with every event: a
   worker joins the team instance its master forked meanwhile; the master
   of a run that did not finish keeps its serial time (threads.c).  1 when
   the event must not be used. */
static int at(loc_state *s, az_time *t, uint64_t pos) {
  if (az_cursor_at(&s->cur, t, pos)) return 1;
  join_pending(s);
  /* the same time as AZ_X_SERIAL: outside fork..join, in some region */
  if (s->keep_serial && s->depth && !s->parallel_depth && !s->fork_span)
    az_threads_serial(s->cur.a, s->omp, s->cur.prev, *t, top(s)->cnode);
  return 0;
}

/* The innermost region, required by the MPI and lock events. */
static frame *enclosing(loc_state *s, const char *what) {
  frame *f = top(s);
  if (!f)
    az_warn(&s->cur.a->diag, AZ_W_NESTING, "%s: event %llu: %s outside of any region; ignored",
            s->cur.label, (unsigned long long)s->cur.pos, what);
  return f;
}

static void add_pending(loc_state *s, int kind, size_t index) {
  pending p = {(uint8_t)kind, index, s->depth};
  PU_PUSH(s->pend, s->npend, s->cappend, p);
}

static int valid_comm(loc_state *s, uint32_t comm) {
  if (comm < s->cur.a->defs.num_comms) return 1;
  az_warn(&s->cur.a->diag, AZ_W_DEFS, "%s: event %llu: undefined communicator %u", s->cur.label,
          (unsigned long long)s->cur.pos, comm);
  return 0;
}

/* ---- Enter / Leave ----------------------------------------------------- */

static void bind_parallel(loc_state *s, frame *f, az_time t) {
  if (s->cur_inst == NO_INST || s->parallel_depth != 1) return;
  az_team_instance *in = &s->omp->inst[s->cur_inst];
  if (s->is_master) in->cnode = f->cnode;
  f->inst = s->cur_inst;
  if (in->fork <= t) { /* fork overhead: from the master's fork to here */
    f->start = in->fork;
    az_cell(s->cells, f->cnode)[AZ_OMP_MANAGEMENT] += (int64_t)(t - in->fork);
  }
}

/* The call path an Enter's region is entered under. */
static inline int32_t enter_parent(const loc_state *s) {
  if (s->depth) return top((loc_state *)s)->cnode;
  if (s->cur_inst != NO_INST) /* worker: under the master's path */
    return s->omp->inst[s->cur_inst].parent_cnode;
  return -1;
}

/* In a job: the call path of an Enter of region r, -1 when the replay
   thread must enter it (the region undefined, the path new). */
static int32_t job_enter_path(const loc_state *s, OTF2_RegionRef r) {
  const az_defs *d = &s->cur.a->defs;
  if (r >= d->num_regions || !d->regions[r].defined) return -1;
  return az_calltree_find(&s->cur.a->tree, enter_parent(s), (int32_t)r);
}

/* A barrier record in the process's list: its slot there. */
static inline size_t add_barrier(az_omp_process *o, const az_barrier *b) {
  o->inst[b->instance].open_bars++;
  size_t i = az_slot_take((void **)&o->bars, &o->nbars, &o->capbars, sizeof *b, &o->free_bars);
  o->bars[i] = *b;
  return i;
}

/* ... logged by a job: LOGGED + its position in the log. */
static size_t log_barrier(loc_state *s, const az_barrier *b) {
  job_op *op = job_log(s, LOG_BARRIER);
  op->u.bar = *b;
  op->at = s->npend;
  return LOGGED + (s->nlog - 1);
}

static OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  loc_state *s = u;
  int32_t found = -1; /* in a job: the call path, which must exist */
  if (s->cur.in_job && (!job_takes(s, t) || (found = job_enter_path(s, r)) < 0)) return defer(s);
  if (at(s, &t, pos)) return next(u);
  const az_defs *d = &s->cur.a->defs;
  if (r >= d->num_regions || !d->regions[r].defined) {
    az_fail(&s->cur.a->diag, "%s: event %llu: Enter of undefined region %u", s->cur.label,
            (unsigned long long)pos, r);
    s->cur.failed = 1;
    return OTF2_CALLBACK_INTERRUPT;
  }
  int32_t cnode =
      found >= 0 ? found : az_calltree_child(&s->cur.a->tree, enter_parent(s), (int32_t)r);
  frame f = {cnode, r, t, 0, NO_INST};
  az_cell(s->cells, f.cnode)[AZ_VISITS]++;
  const az_region *reg = &d->regions[r];
  if (reg->kind == AZ_RK_PARALLEL) {
    s->parallel_depth++;
    bind_parallel(s, &f, t);
  }
  PU_PUSH(s->stack, s->depth, s->capstack, f);
  if ((reg->kind == AZ_RK_EBARRIER || reg->kind == AZ_RK_IBARRIER) && s->parallel_depth == 1 &&
      s->cur_inst != NO_INST) {
    az_barrier b = {s->omp->inst[s->cur_inst].team,
                    (uint32_t)s->cur_inst,
                    s->bar_seq++,
                    s->cur.loc,
                    t,
                    t,
                    f.cnode,
                    reg->kind == AZ_RK_IBARRIER,
                    0,
                    0,
                    0};
    add_pending(s, PEND_BAR, s->cur.in_job ? log_barrier(s, &b) : add_barrier(s->omp, &b));
  }
  return next(u);
}

static void barrier_left(az_barrier *b, az_time x, az_time busy) {
  b->x = x;
  b->busy = busy;
  b->left = 1;
}

/* Records of the call being left get its Leave time (and a barrier the
   time its callees took: tasks it ran meanwhile, child). */
static void finish_pending(loc_state *s, az_time t, az_time child) {
  az_mpi_records *m = &s->cur.a->mpi;
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
      if (s->cur.in_job) {
        job_op *op = job_log(s, LOG_BARRIER_LEFT);
        op->u.left.index = p.index, op->u.left.x = t, op->u.left.busy = child;
      } else {
        barrier_left(&s->omp->bars[p.index], t, child);
      }
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
  const az_region *reg = &s->cur.a->defs.regions[f.region];
  if (reg->kind == AZ_RK_PARALLEL) s->parallel_depth--;
  else if (s->parallel_depth == 0) v[AZ_X_SERIAL] += excl;
  if (s->depth) top(s)->child += dur;
  if (f.inst == NO_INST) return;
  az_team_instance *in = &s->omp->inst[f.inst];
  if (s->is_master) {
    s->closed_inst = f.inst; /* the join follows */
    s->closed_leave = t;
  } else if (s->cut) {     /* worker cut off: nothing after its end */
  } else if (in->joined) { /* worker: join overhead up to the join */
    charge_join(v, in->join, t);
  } else { /* the master's join comes later: it charges this */
    az_leave lv = {f.inst, s->cur.loc, t};
    if (s->cur.in_job) job_log(s, LOG_LEAVE)->u.leave = lv;
    else PU_PUSH(s->omp->leaves, s->omp->nleaves, s->omp->capleaves, lv);
  }
}

/* A collective member's record, in a free slot of the run's list: its
   index there. */
static size_t add_coll(loc_state *s, const az_coll *c) {
  az_mpi_records *m = &s->cur.a->mpi;
  size_t i = az_slot_take((void **)&m->colls, &m->ncolls, &m->capcolls, sizeof *c, &m->free_colls);
  m->colls[i] = *c;
  return i;
}

/* The Leave of an MPI_Finalize: the process's first is its part of the
   instance of all processes that gives Wait at Finalize (collective.c),
   as Scalasca takes the first Leave of MPI_Finalize.  A call closed at the
   end of a record that was cut off has no Leave, and no part in it. */
static void finalize_left(loc_state *s, az_time t) {
  if (*s->finalized) return;
  *s->finalized = 1;
  const frame *f = top(s);
  const az_region *reg = &s->cur.a->defs.regions[f->region];
  az_coll c = {.comm = AZ_COMM_FINALIZE,
               .loc = s->cur.loc,
               .proc = s->cur.proc,
               .e = f->start,
               .x = t,
               .cnode = f->cnode,
               .role = (uint8_t)reg->role,
               .coll = AZ_COLL_FINALIZE,
               .left = 1,
               .region = (int32_t)f->region,
               .pos = s->cur.pos};
  add_coll(s, &c);
}

/* In a job: whether a Leave of region r at t may be handled here: no
   warning, no MPI_Finalize, no MPI record left open by the call. */
static int job_leaves(loc_state *s, az_time t, OTF2_RegionRef r) {
  if (!job_takes(s, t) || !s->depth || top(s)->region != r) return 0;
  if (s->cur.a->defs.regions[r].coll == AZ_COLL_FINALIZE) return 0;
  for (size_t i = s->npend; i-- > 0 && s->pend[i].depth >= s->depth;)
    if (s->pend[i].kind != PEND_BAR) return 0;
  return 1;
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  loc_state *s = u;
  if (s->cur.in_job && !job_leaves(s, t, r)) return defer(s);
  if (at(s, &t, pos)) return next(u);
  if (!s->depth) {
    az_warn(&s->cur.a->diag, AZ_W_NESTING,
            "%s: event %llu: Leave without a matching Enter; ignored", s->cur.label,
            (unsigned long long)pos);
    return next(u);
  }
  if (top(s)->region != r)
    az_warn(&s->cur.a->diag, AZ_W_NESTING, "%s: event %llu: Leave of region %u inside region %u",
            s->cur.label, (unsigned long long)pos, r, top(s)->region);
  if (s->cur.a->defs.regions[top(s)->region].coll == AZ_COLL_FINALIZE) finalize_left(s, t);
  close_frame(s, t);
  return next(u);
}

/* ---- OpenMP: fork, join, teams, locks --------------------------------- */

static OTF2_CallbackCode on_fork(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_Paradigm model, uint32_t n) {
  (void)l;
  (void)al;
  (void)model;
  (void)n;
  loc_state *s = u;
  if (s->cur.in_job) return defer(s);
  if (at(s, &t, pos)) return next(u);
  s->fork_time = t;
  s->fork_pending = 1;
  s->fork_span = 1;
  return next(u);
}

static OTF2_CallbackCode on_join(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_Paradigm model) {
  (void)l;
  (void)al;
  (void)model;
  loc_state *s = u;
  if (s->cur.in_job) return defer(s);
  if (at(s, &t, pos)) return next(u);
  s->fork_span = 0;
  if (s->closed_inst == NO_INST) {
    az_warn(&s->cur.a->diag, AZ_W_TEAM, "%s: event %llu: ThreadJoin without a parallel region",
            s->cur.label, (unsigned long long)pos);
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
    charge_join(az_cell(&s->cur.a->cells[o->leaves[i].loc], in->cnode), t, o->leaves[i].t);
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
  az_warn(&s->cur.a->diag, AZ_W_DEFS, "%s: event %llu: undefined thread team %u", s->cur.label,
          (unsigned long long)s->cur.pos, team);
  return 0;
}

static OTF2_CallbackCode on_team_begin(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                       OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)l;
  (void)al;
  loc_state *s = u;
  if (s->cur.in_job && (!job_takes(s, t) || team >= s->omp->nteams || s->fork_pending))
    return defer(s);
  if (at(s, &t, pos)) return next(u);
  if (!team_ok(s, team)) return next(u);
  uint64_t k = s->team_count[team]++;
  s->bar_seq = 0;
  if (s->fork_pending) { /* master: a new instance */
    az_team_instance in = {
        team, -1, s->depth ? top(s)->cnode : -1, s->fork_time, s->fork_time, 1, 0, 0, 0, NULL,
        0,    0};
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
  if (s->cur.in_job) job_log(s, LOG_JOIN)->u.inst = s->cur_inst;
  else member_joins(s, in);
}

static inline void member_joins(loc_state *s, az_team_instance *in) {
  in->members++;
  uint32_t first = s->cur.a->defs.procs[s->cur.proc].first_loc;
  s->omp->team_thread[s->cur.loc - first] = 1;
  PU_PUSH(in->workers, in->nworkers, in->capworkers, s->cur.loc);
}

static OTF2_CallbackCode on_team_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)l;
  (void)al;
  (void)team;
  loc_state *s = u;
  if (s->cur.in_job && !job_takes(s, t)) return defer(s);
  if (at(s, &t, pos)) return next(u);
  s->cur_inst = NO_INST;
  return next(u);
}

static void lock_event(loc_state *s, az_time t, uint32_t lock, uint32_t order, int release) {
  frame *f = top(s);
  az_lock_event e = {lock, order, s->cur.loc, t, t, -1, 0, (uint8_t)release, s->cur.pos};
  if (f && !release) {
    uint8_t kind = s->cur.a->defs.regions[f->region].kind;
    if (kind == AZ_RK_CRITICAL || kind == AZ_RK_LOCK_SET) {
      e.e_region = f->start;
      e.cnode = f->cnode;
      e.critical = kind == AZ_RK_CRITICAL;
    }
  }
  if (s->cur.in_job) job_log(s, LOG_LOCK)->u.lk = e;
  else PU_PUSH(s->omp->locks, s->omp->nlocks, s->omp->caplocks, e);
}

static OTF2_CallbackCode on_acquire(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                    OTF2_AttributeList *al, OTF2_Paradigm m, uint32_t lock,
                                    uint32_t order) {
  (void)l;
  (void)al;
  (void)m;
  loc_state *s = u;
  if (s->cur.in_job && !job_takes(s, t)) return defer(s);
  if (at(s, &t, pos)) return next(u);
  lock_event(s, t, lock, order, 0);
  return next(u);
}

static OTF2_CallbackCode on_release(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                    OTF2_AttributeList *al, OTF2_Paradigm m, uint32_t lock,
                                    uint32_t order) {
  (void)l;
  (void)al;
  (void)m;
  loc_state *s = u;
  if (s->cur.in_job && !job_takes(s, t)) return defer(s);
  if (at(s, &t, pos)) return next(u);
  lock_event(s, t, lock, order, 1);
  return next(u);
}

/* ---- MPI ------------------------------------------------------------- */

/* MPI records are the run's, shared by every process: a job defers them. */
static int in_job(const void *u) { return ((const loc_state *)u)->cur.in_job; }

/* A message record of this location's process (not yet stored). */
static az_msg make_msg(loc_state *s, int is_send, uint32_t comm, uint32_t peer, uint32_t tag,
                       const frame *f) {
  uint32_t world = az_comm_world(&s->cur.a->defs, comm, peer, s->cur.proc);
  if (world == UINT32_MAX)
    az_warn(&s->cur.a->diag, AZ_W_DEFS, "%s: event %llu: rank %u is not in communicator %u",
            s->cur.label, (unsigned long long)s->cur.pos, peer, comm);
  return (az_msg){.comm = comm,
                  .tag = tag,
                  .loc = s->cur.loc,
                  .src = is_send ? s->cur.proc : world,
                  .dst = is_send ? world : s->cur.proc,
                  .cnode_done = f->cnode,
                  .e_post = f->start,
                  .e_done = f->start,
                  .x_done = f->start,
                  .pos = s->cur.pos};
}

static size_t store_msg(loc_state *s, int is_send, az_msg msg) {
  az_mpi_records *m = &s->cur.a->mpi;
  size_t i;
  if (is_send) {
    i = az_slot_take((void **)&m->sends, &m->nsends, &m->capsends, sizeof msg, &m->free_sends);
    m->sends[i] = msg;
  } else {
    i = az_slot_take((void **)&m->recvs, &m->nrecvs, &m->caprecvs, sizeof msg, &m->free_recvs);
    m->recvs[i] = msg;
  }
  return i;
}

static size_t new_msg(loc_state *s, int is_send, uint32_t comm, uint32_t peer, uint32_t tag,
                      const frame *f) {
  return store_msg(s, is_send, make_msg(s, is_send, comm, peer, tag, f));
}

/* A message is completed by the call f of this location (which need not
   be the one that posted it): its wait states belong to that call. */
static void complete(loc_state *s, az_msg *msg, const frame *f) {
  const az_region *r = &s->cur.a->defs.regions[f->region];
  msg->loc = s->cur.loc;
  msg->cnode_done = f->cnode;
  msg->e_done = f->start;
  msg->x_done = f->start;
  msg->state = AZ_MSG_DONE;
  msg->by_test = r->no_wait;
}

/* The region of an MPI event on comm, after the common checks. */
static frame *mpi_frame(loc_state *s, az_time t, uint64_t pos, uint32_t comm, const char *what) {
  if (at(s, &t, pos)) return NULL;
  frame *f = enclosing(s, what);
  return f && valid_comm(s, comm) ? f : NULL;
}

static void put_request(loc_state *s, request q) {
  q.loc = s->cur.loc;
  PU_PUSH(s->reqs->v, s->reqs->n, s->reqs->cap, q);
}

/* Removes the process's entry of request id among the kinds in `kinds`
   (a bit set of 1 << REQ_*) into *out; 0 if there is none. */
static int take_entry(loc_state *s, uint64_t id, unsigned kinds, request *out) {
  request_book *b = s->reqs;
  for (size_t i = b->n; i-- > 0;)
    if (b->v[i].id == id && (kinds >> b->v[i].kind & 1)) {
      *out = b->v[i];
      b->v[i] = b->v[--b->n];
      return 1;
    }
  return 0;
}

#define POSTED (1u << REQ_SEND | 1u << REQ_RECV)
#define EARLY (1u << REQ_EARLY_SEND | 1u << REQ_EARLY_RECV | 1u << REQ_EARLY_CANCEL)

/* MpiSend (blocking: completed by its own call) and MpiIsend (completed
   later by the call that records MpiIsendComplete for req, on any thread
   of the process). */
static void send_event(loc_state *s, az_time t, uint64_t pos, uint32_t dest, uint32_t comm,
                       uint32_t tag, uint64_t bytes, int blocking, uint64_t req) {
  frame *f = mpi_frame(s, t, pos, comm, blocking ? "MpiSend" : "MpiIsend");
  if (!f) return;
  az_cell(s->cells, f->cnode)[AZ_BYTES_SENT] += (int64_t)bytes;
  az_msg msg = make_msg(s, 1, comm, dest, tag, f);
  request early;
  if (!blocking && take_entry(s, req, EARLY, &early)) {
    if (early.kind == REQ_EARLY_RECV) return; /* not a send: warned at the end */
    if (early.kind == REQ_EARLY_CANCEL) {
      msg.state = AZ_MSG_CANCELLED;
      store_msg(s, 1, msg);
      return;
    }
    az_msg *done = &s->cur.a->mpi.sends[early.send]; /* completed already: its envelope */
    done->comm = msg.comm, done->tag = msg.tag, done->src = msg.src, done->dst = msg.dst;
    done->e_post = msg.e_post, done->pos = msg.pos;
    return;
  }
  size_t i = store_msg(s, 1, msg);
  if (blocking) {
    complete(s, &s->cur.a->mpi.sends[i], f);
    add_pending(s, PEND_SEND, i);
  } else {
    put_request(s, (request){.id = req, .kind = REQ_SEND, .send = i});
  }
}

static OTF2_CallbackCode on_send(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, uint32_t dest, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes) {
  (void)l;
  (void)al;
  if (in_job(u)) return defer(u);
  send_event(u, t, pos, dest, comm, tag, bytes, 1, 0);
  return next(u);
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t dest, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes, uint64_t req) {
  (void)l;
  (void)al;
  if (in_job(u)) return defer(u);
  send_event(u, t, pos, dest, comm, tag, bytes, 0, req);
  return next(u);
}

/* MpiIsendComplete: the send posted on any thread of the process; read
   before that post, the completion waits for it (an early entry whose
   send record has no envelope yet, so matching leaves it alone). */
static OTF2_CallbackCode on_isend_complete(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                           void *u, OTF2_AttributeList *al, uint64_t req) {
  (void)l;
  (void)al;
  if (in_job(u)) return defer(u);
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  frame *f = enclosing(s, "MpiIsendComplete");
  if (!f) return next(u);
  request q;
  size_t i;
  if (take_entry(s, req, 1u << REQ_SEND, &q)) {
    i = q.send;
  } else {
    az_msg msg = make_msg(s, 1, 0, 0, 0, f);
    msg.src = msg.dst = UINT32_MAX;
    i = store_msg(s, 1, msg);
    put_request(s, (request){.id = req, .kind = REQ_EARLY_SEND, .send = i});
  }
  complete(s, &s->cur.a->mpi.sends[i], f);
  add_pending(s, PEND_SEND, i);
  return next(u);
}

static OTF2_CallbackCode on_irecv_request(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                          void *u, OTF2_AttributeList *al, uint64_t req) {
  (void)l;
  (void)al;
  if (in_job(u)) return defer(u);
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  frame *f = enclosing(s, "MpiIrecvRequest");
  if (!f) return next(u);
  request early;
  if (take_entry(s, req, EARLY, &early)) { /* completed (or cancelled) already */
    if (early.kind == REQ_EARLY_RECV) {
      az_msg *m = &s->cur.a->mpi.recvs[early.send];
      m->e_post = f->start;
      m->pos = pos;
    }
    return next(u);
  }
  put_request(s, (request){.id = req, .kind = REQ_RECV, .e_post = f->start, .pos = pos});
  return next(u);
}

/* A receive completed by this location's call; its post, if known. The
   index of its record, or SIZE_MAX. */
static size_t receive(loc_state *s, az_time t, uint64_t pos, uint32_t src, uint32_t comm,
                      uint32_t tag, uint64_t bytes, const request *posted) {
  frame *f = mpi_frame(s, t, pos, comm, "MpiRecv");
  if (!f) return SIZE_MAX;
  size_t i = new_msg(s, 0, comm, src, tag, f);
  az_msg *msg = &s->cur.a->mpi.recvs[i];
  if (posted) {
    msg->e_post = posted->e_post;
    msg->pos = posted->pos;
  }
  complete(s, msg, f);
  add_pending(s, PEND_RECV, i);
  az_cell(s->cells, f->cnode)[AZ_BYTES_RECEIVED] += (int64_t)bytes;
  return i;
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, uint32_t src, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t bytes) {
  (void)l;
  (void)al;
  if (in_job(u)) return defer(u);
  receive(u, t, pos, src, comm, tag, bytes, NULL);
  return next(u);
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t src, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes, uint64_t req) {
  (void)l;
  (void)al;
  if (in_job(u)) return defer(u);
  loc_state *s = u;
  request q;
  int known = take_entry(s, req, 1u << REQ_RECV, &q);
  size_t i = receive(s, t, pos, src, comm, tag, bytes, known ? &q : NULL);
  if (!known && i != SIZE_MAX) /* posted on another thread, read later */
    put_request(s, (request){.id = req, .kind = REQ_EARLY_RECV, .send = i});
  return next(u);
}

static OTF2_CallbackCode on_cancelled(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                      OTF2_AttributeList *al, uint64_t req) {
  (void)l;
  (void)al;
  if (in_job(u)) return defer(u);
  loc_state *s = u;
  if (at(s, &t, pos)) return next(u);
  request q;
  if (take_entry(s, req, POSTED, &q)) {
    if (q.kind == REQ_SEND) s->cur.a->mpi.sends[q.send].state = AZ_MSG_CANCELLED;
  } else {
    put_request(s, (request){.id = req, .kind = REQ_EARLY_CANCEL});
  }
  return next(u);
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received) {
  (void)l;
  (void)al;
  if (in_job(u)) return defer(u);
  loc_state *s = u;
  const frame *in = top(s);
  if (!in || s->cur.a->defs.regions[in->region].paradigm != OTF2_PARADIGM_MPI) {
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
  if (s->cur.a->defs.comms[comm].self) return next(u);
  az_coll c = {comm,
               s->cur.loc,
               s->cur.proc,
               root,
               s->coll_seq[comm]++,
               f->start,
               f->start,
               f->cnode,
               (uint8_t)s->cur.a->defs.regions[f->region].role,
               (uint8_t)op,
               s->cur.a->defs.regions[f->region].coll,
               0,
               0,
               (int32_t)f->region,
               pos};
  add_pending(s, PEND_COLL, add_coll(s, &c));
  return next(u);
}

/* The record of a run that did not finish ends early: regions still open
   close at its last timestamp, and a worker's idle time stops there too.
   One warning per location (why: a cut-off last chunk, or the end). */
static void ended_early(loc_state *s, const char *cut_chunk) {
  const az_defs *d = &s->cur.a->defs;
  char open[300] = "";
  if (s->depth)
    snprintf(open, sizeof open, ", inside %s (%zu region%s open end there)",
             d->regions[top(s)->region].name, s->depth, s->depth == 1 ? "" : "s");
  if (cut_chunk && !s->cur.pos)
    az_warn(&s->cur.a->diag, AZ_W_ENDED, "%s; the run ended before any of its events was written",
            cut_chunk);
  else if (cut_chunk)
    az_warn(&s->cur.a->diag, AZ_W_ENDED, "%s; %s after event %llu%s", cut_chunk,
            s->cur.damaged ? "its record ends" : "the run ended", (unsigned long long)s->cur.pos,
            open);
  else if (s->depth)
    az_warn(&s->cur.a->diag, AZ_W_ENDED, "%s: the run ended after event %llu%s", s->cur.label,
            (unsigned long long)s->cur.pos, open);
  s->cut = 1;
  if (!s->is_master) az_threads_cut(s->cur.a, s->omp, s->cur.loc, s->cur.last);
}

/* The end of a location's events: regions still open end at its last
   timestamp.  cut_chunk: the event file of a run that did not finish ends
   in an unreadable chunk (the message says where). */
static void loc_end(az_replay *r, az_cursor *c, const char *cut_chunk) {
  (void)r;
  loc_state *s = (loc_state *)c;
  if ((s->cur.a->incomplete || s->cur.damaged) && (s->depth || cut_chunk))
    ended_early(s, cut_chunk);
  else if (s->depth)
    az_warn(&s->cur.a->diag, AZ_W_NESTING,
            "%s: %zu regions still open at the end; closed at the last "
            "timestamp",
            s->cur.label, s->depth);
  while (s->depth) close_frame(s, s->cur.last);
  if (s->team_pending)
    az_warn(&s->cur.a->diag, AZ_W_TEAM, "%s: thread team instance %llu has no fork on the master",
            s->cur.label, (unsigned long long)s->pending_k + 1);
}

/* ---- the pass ---------------------------------------------------------- */

/* A barrier record logged: given its slot, its pending entry (if still
   open) points there. */
static void apply_barrier(loc_state *s, job_op *op, size_t position) {
  size_t slot = add_barrier(s->omp, &op->u.bar);
  if (op->at < s->npend && s->pend[op->at].kind == PEND_BAR &&
      s->pend[op->at].index == LOGGED + position)
    s->pend[op->at].index = slot;
  op->at = slot;
}

/* On the replay thread, after a worker's job (az_pass.local_apply), in
   location order: what its handlers logged, in their order. */
static void apply_log(az_replay *r, az_cursor *c) {
  (void)r;
  loc_state *s = (loc_state *)c;
  az_omp_process *o = s->omp;
  for (size_t i = 0; i < s->nlog; i++) {
    job_op *op = &s->log[i];
    switch (op->kind) {
    case LOG_JOIN: member_joins(s, &o->inst[op->u.inst]); break;
    case LOG_BARRIER: apply_barrier(s, op, i); break;
    case LOG_BARRIER_LEFT: {
      size_t bar = op->u.left.index;
      if (bar >= LOGGED) bar = s->log[bar - LOGGED].at; /* logged in this window */
      barrier_left(&o->bars[bar], op->u.left.x, op->u.left.busy);
      break;
    }
    case LOG_LEAVE: PU_PUSH(o->leaves, o->nleaves, o->capleaves, op->u.leave); break;
    default: PU_PUSH(o->locks, o->nlocks, o->caplocks, op->u.lk); break;
    }
  }
  s->nlog = 0;
}

typedef struct {
  az_omp_process omp;
  uint64_t *coll_seq;
  request_book reqs;
  uint8_t finalized;
} proc_state;

static loc_state *loc_of(const az_replay *r, uint32_t l) {
  return (loc_state *)az_replay_loc(r, l);
}

static void begin(az_replay *r) {
  az_analysis *a = r->a;
  size_t ncomms = a->defs.num_comms;
  proc_state *ps = pu_calloc(a->defs.num_procs ? a->defs.num_procs : 1, sizeof *ps);
  r->data = ps;
  for (uint32_t p = 0; p < a->defs.num_procs; p++) {
    if (!az_replay_mine(r, p)) continue;
    ps[p].omp.proc = p;
    ps[p].omp.nteams = ncomms;
    ps[p].omp.by_team = pu_calloc(ncomms, sizeof *ps[p].omp.by_team);
    ps[p].coll_seq = pu_calloc(ncomms, sizeof *ps[p].coll_seq);
    const az_process *pr = &a->defs.procs[p];
    ps[p].omp.team_thread = pu_calloc(pr->num_locs ? pr->num_locs : 1, 1);
    for (uint32_t i = 0; i < pr->num_locs; i++) {
      loc_state *s = loc_of(r, pr->first_loc + i);
      s->omp = &ps[p].omp;
      s->cells = &a->cells[s->cur.loc];
      s->is_master = i == 0;
      s->keep_serial = a->incomplete && i == 0 && pr->num_locs > 1;
      s->cur_inst = s->closed_inst = NO_INST;
      s->team_count = pu_calloc(ncomms, sizeof *s->team_count);
      s->coll_seq = ps[p].coll_seq;
      s->finalized = &ps[p].finalized;
      s->reqs = &ps[p].reqs;
    }
  }
}

/* A run that did not finish: the master's serial time is kept only as long
   as an unfinished worker of the process may still end before it. */
static void forget_serial(const az_replay *r, az_omp_process *o, const az_process *pr) {
  az_time horizon = UINT64_MAX;
  for (uint32_t i = 1; i < pr->num_locs; i++) {
    const az_cursor *w = az_replay_loc(r, pr->first_loc + i);
    if (!w->done && w->last < horizon) horizon = w->last;
  }
  az_threads_forget(o, horizon);
}

/* Every location of a process was read up to stop: its OpenMP barriers,
   locks and team instances over by then are evaluated. */
static void window(az_replay *r, az_time stop) {
  proc_state *ps = r->data;
  for (uint32_t p = 0; p < r->a->defs.num_procs; p++) {
    if (!az_replay_mine(r, p)) continue;
    if (r->a->incomplete) forget_serial(r, &ps[p].omp, &r->a->defs.procs[p]);
    az_omp_step(r->a, &ps[p].omp, stop, 0);
  }
}

/* Messages and collective instances complete on every process (serial
   analysis: all processes are here). */
static void exchange(az_analysis *a, int last) {
  az_p2p_step(a, last);
  az_collective_step(a, last);
}

/* What is left of a process's requests once all is read: posts never
   completed (counted per posting location), completions whose post never
   came (unknown requests). */
static void requests_left(az_replay *r, request_book *b, const az_process *pr) {
  for (uint32_t i = 0; i < pr->num_locs; i++) {
    loc_state *s = loc_of(r, pr->first_loc + i);
    size_t open = 0;
    for (size_t k = 0; k < b->n; k++) {
      if (b->v[k].loc != s->cur.loc) continue;
      if (b->v[k].kind == REQ_SEND || b->v[k].kind == REQ_RECV) open++;
      else
        az_warn(&s->cur.a->diag, AZ_W_UNMATCHED_MSG,
                "%s: unknown request %llu (completed, never posted)", s->cur.label,
                (unsigned long long)b->v[k].id);
    }
    if (open)
      az_warn(&s->cur.a->diag, AZ_W_UNMATCHED_MSG, "%s: %zu requests never completed", s->cur.label,
              open);
  }
  free(b->v);
}

/* Per process, once all is read: the last OpenMP wait states, then
   workers left out of team instances and idle threads; then the states
   are freed. */
static void end(az_replay *r, int ok) {
  az_analysis *a = r->a;
  proc_state *ps = r->data;
  for (uint32_t p = 0; p < a->defs.num_procs; p++) {
    if (!az_replay_mine(r, p)) continue;
    const az_process *pr = &a->defs.procs[p];
    for (uint32_t i = 0; i < pr->num_locs; i++) {
      loc_state *s = loc_of(r, pr->first_loc + i);
      free(s->stack);
      free(s->pend);
      free(s->reads);
      free(s->team_count);
      free(s->log);
    }
    requests_left(r, &ps[p].reqs, pr);
    az_omp_step(a, &ps[p].omp, UINT64_MAX, 1); /* every instance retired */
    if (ok) az_threads_finish(a, &ps[p].omp);
    az_omp_finish(&ps[p].omp);
    free(ps[p].coll_seq);
  }
  free(ps);
}

/* File I/O: written bytes are what the call was handed (its request, at
   the call path of the call that began it), read bytes what a read got
   (its result, where it completed: a non-blocking MPI-IO read in its
   Wait). A failed operation's result is undefined and counts nothing.
   Matching ids are unique per location among operations in flight. */
static OTF2_CallbackCode on_io_begin(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_IoHandleRef handle,
                                     OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags,
                                     uint64_t request, uint64_t match) {
  (void)l;
  (void)al;
  (void)handle;
  (void)flags;
  loc_state *s = u;
  if (s->cur.in_job && (!job_takes(s, t) || !s->depth)) return defer(s);
  if (at(s, &t, pos)) return next(u);
  frame *f = enclosing(s, "IoOperationBegin");
  if (!f) return next(u);
  if (mode == OTF2_IO_OPERATION_MODE_WRITE && request != OTF2_UNDEFINED_UINT64)
    az_cell(s->cells, f->cnode)[AZ_IO_BYTES_WRITTEN] += (int64_t)request;
  if (mode == OTF2_IO_OPERATION_MODE_READ) PU_PUSH(s->reads, s->nreads, s->capreads, match);
  return next(u);
}

static OTF2_CallbackCode on_io_complete(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                        OTF2_AttributeList *al, OTF2_IoHandleRef handle,
                                        uint64_t result, uint64_t match) {
  (void)l;
  (void)al;
  (void)handle;
  loc_state *s = u;
  if (s->cur.in_job && (!job_takes(s, t) || !s->depth)) return defer(s);
  if (at(s, &t, pos)) return next(u);
  frame *f = enclosing(s, "IoOperationComplete");
  for (size_t i = s->nreads; f && i-- > 0;) {
    if (s->reads[i] != match) continue;
    s->reads[i] = s->reads[--s->nreads];
    if (result != OTF2_UNDEFINED_UINT64)
      az_cell(s->cells, f->cnode)[AZ_IO_BYTES_READ] += (int64_t)result;
    break;
  }
  return next(u);
}

const az_pass az_pass_waits = {
    .name = "waits",
    .direction = AZ_FORWARD,
    .loc_size = sizeof(loc_state),
    .on = {.enter = on_enter,
           .leave = on_leave,
           .thread_fork = on_fork,
           .thread_join = on_join,
           .team_begin = on_team_begin,
           .team_end = on_team_end,
           .acquire_lock = on_acquire,
           .release_lock = on_release,
           .mpi_send = on_send,
           .mpi_isend = on_isend,
           .mpi_isend_complete = on_isend_complete,
           .mpi_irecv_request = on_irecv_request,
           .mpi_recv = on_recv,
           .mpi_irecv = on_irecv,
           .mpi_request_cancelled = on_cancelled,
           .mpi_collective_end = on_coll_end,
           .io_begin = on_io_begin,
           .io_complete = on_io_complete},
    .begin = begin,
    .window = window,
    .exchange = exchange,
    .loc_end = loc_end,
    .end = end,
    /* a worker's window in a job, with two decoding threads or more (as
       the delay pass's handlers: with one it decodes) */
    .local = 1,
    .local_apply = apply_log,
    .local_min_decoders = 2,
};
