/* replay.c -- the replay driver: runs passes (az_pass.h) over the event
 * files of the trace processes an analysis process owns.
 *
 * Each location's file is read on its own (decoded from its records in
 * segments, decoders.c and replay_back.c, else by an OTF2 reader of its
 * own), all of them together in windows of time: a location reads until
 * its events reach the end of the window, then the next one does,
 * masters before their workers (so that a worker meeting its k-th
 * ThreadTeamBegin finds the master's k-th fork).  After each window the pass evaluates what is
 * complete.  A backward pass gets the first pass's windows last to first.
 * This file owns the windows, forward and backward, and the passes' run;
 * a location's event file (local definitions, how many events it holds,
 * files that end early or cannot be read, the messages naming file,
 * location and event) is replay_file.c's, the buffers of the backward
 * reading replay_back.c's.
 *
 * With az_analysis.threads > 1 threads of their own decode the event files
 * ahead of the replay (decoders.c): the replay thread runs the pass
 * handlers on what they decoded, in the same order; a backward pass
 * marked `local` (az_pass.h) has a location's window run by those
 * threads instead (local_job), while the replay thread goes on with the
 * other passes and locations, and waits for them before the window's
 * end (join_local); a forward pass marked `local` has its workers'
 * windows run there (run_forward_job), joined before the next master and
 * at the window's end (join_forward). */
#include <otf2/otf2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_pass.h"
#include "az_replay.h"
#include "az_tasks.h"
#include "pomp_util.h"

int az_cursor_backwards(az_cursor *c, az_time *t, uint64_t pos) {
  if (c->a->incomplete || c->cut_file) {
    /* the clock of a run that did not finish only goes forward (one
       offset, from MPI_Init), and so does any clock in a file that lacks
       its closing records: this is OTF2 reading the stale bytes of a
       previous chunk after a cut-off one; the location ends before it */
    c->stale = 1;
    *t = c->last;
    return 1;
  }
  az_warn(&c->a->diag, AZ_W_CLOCK, "%s: event %llu: timestamp goes backwards by %llu ticks",
          c->label, (unsigned long long)pos, (unsigned long long)(c->last - *t));
  *t = c->last;
  return 0;
}

/* Score-P's paused recording: the pass sees the pause as the region
   az_defs.off_region (Enter at off, Leave at on). */
static OTF2_CallbackCode on_measurement(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                        OTF2_AttributeList *al, OTF2_MeasurementMode mode) {
  az_cursor *c = u;
  uint32_t off = c->a->defs.off_region;
  if (off == UINT32_MAX) return az_next(c);
  if (mode == OTF2_MEASUREMENT_OFF) return c->on->enter(l, t, pos, u, al, off);
  return c->on->leave(l, t, pos, u, al, off);
}

/* OTF2's callbacks for the events the pass handles. */
static OTF2_EvtReaderCallbacks *make_callbacks(const az_event_handlers *on) {
  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
#define AZ_SET(kind, handler)                                                                      \
  if (on->handler) OTF2_EvtReaderCallbacks_Set##kind##Callback(cb, on->handler)
  AZ_SET(Enter, enter);
  AZ_SET(Leave, leave);
  AZ_SET(ThreadFork, thread_fork);
  AZ_SET(ThreadJoin, thread_join);
  AZ_SET(ThreadTeamBegin, team_begin);
  AZ_SET(ThreadTeamEnd, team_end);
  AZ_SET(ThreadAcquireLock, acquire_lock);
  AZ_SET(ThreadReleaseLock, release_lock);
  AZ_SET(MpiSend, mpi_send);
  AZ_SET(MpiIsend, mpi_isend);
  AZ_SET(MpiIsendComplete, mpi_isend_complete);
  AZ_SET(MpiIrecvRequest, mpi_irecv_request);
  AZ_SET(MpiRecv, mpi_recv);
  AZ_SET(MpiIrecv, mpi_irecv);
  AZ_SET(MpiRequestCancelled, mpi_request_cancelled);
  AZ_SET(MpiCollectiveEnd, mpi_collective_end);
  AZ_SET(IoOperationBegin, io_begin);
  AZ_SET(IoOperationComplete, io_complete);
  AZ_SET(RmaCollectiveEnd, rma_collective_end);
  AZ_SET(RmaGroupSync, rma_group_sync);
  AZ_SET(RmaRequestLock, rma_request_lock);
  AZ_SET(RmaAcquireLock, rma_acquire_lock);
  AZ_SET(RmaReleaseLock, rma_release_lock);
  AZ_SET(RmaPut, rma_put);
  AZ_SET(RmaGet, rma_get);
  AZ_SET(RmaAtomic, rma_atomic);
#undef AZ_SET
  if (on->enter && on->leave)
    OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_measurement);
  /* task records: checked in the first pass (tasks.c) */
  OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(cb, az_task_create);
  OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(cb, az_task_switch);
  OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(cb, az_task_complete);
  OTF2_EvtReaderCallbacks_SetCallingContextSampleCallback(cb, az_on_sample);
  OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, az_on_unknown);
  return cb;
}

/* Reads the location's events up to the end of the window (and never
   beyond the events its chunks hold). */
static int advance(az_replay *r, az_cursor *s, OTF2_Reader *reader, az_time stop) {
  s->stop = stop;
  uint64_t n = 0, want = s->limit > s->pos ? s->limit - s->pos : 0;
  az_otf2_message[0] = 0;
  OTF2_ErrorCode rc = want ? OTF2_Reader_ReadLocalEvents(reader, s->er, want, &n) : OTF2_SUCCESS;
  /* stale events read after a cut-off chunk stay out of the backward
     passes, which read up to the last event the pass took */
  if (s->stale || !s->er) s->read_pos = s->pos;
  else OTF2_EvtReader_GetPos(s->er, &s->read_pos);
  if (s->failed) return -1;
  if (s->stale) return az_end_of_file(r, s, reader, "timestamps go backwards");
  if (rc == OTF2_SUCCESS)
    return az_end_of_file(
        r, s, reader, n == want && s->limit_is_size ? "more events than the file has bytes" : NULL);
  if (rc != OTF2_ERROR_INTERRUPTED_BY_CALLBACK)
    return az_end_of_file(r, s, reader, az_otf2_why(rc));
  return 0;
}

/* Windows of about this many events over the trace's time span, so that
   all locations progress together (one window when the span is not
   known).  A serial analysis takes smaller ones: the delay pass's
   instances in flight grow with a window and its central part pays their
   cache misses (bench_analyze, 8.1 M events, all passes: 0.946 s CPU in
   windows of 2^16, 0.928 s in 2^15; the forward pass alone the same, 8 %
   more in 2^14; docs/analyze/delay.md, "Cost of the delay pass").  A parallel
   analysis (parallel.c) keeps 2^16: each window costs it an agreement and
   the exchanges. */
enum { AZ_WINDOW_EVENTS_SERIAL = 1 << 15, AZ_WINDOW_EVENTS_PARALLEL = 1 << 16 };

static az_time window_length(const az_analysis *a) {
  const az_defs *d = &a->defs;
  uint64_t per = a->window_events ? a->window_events
                 : a->agree_hook  ? AZ_WINDOW_EVENTS_PARALLEL
                                  : AZ_WINDOW_EVENTS_SERIAL;
  if (!d->trace_length) return UINT64_MAX;
  /* event counts not declared: a fixed number of windows */
  uint64_t windows = d->total_events ? d->total_events / per : 4096;
  if (windows <= 1) return UINT64_MAX;
  az_time w = d->trace_length / windows;
  return w ? w : 1;
}

/* The cursors of the locations replayed here, each master before its
   workers (locations are numbered process by process). */
static void init_cursors(az_replay *r) {
  const az_defs *d = &r->a->defs;
  for (uint32_t p = 0; p < d->num_procs; p++) {
    if (!az_replay_mine(r, p)) continue;
    for (uint32_t i = 0; i < d->procs[p].num_locs; i++) {
      az_cursor *c = az_replay_loc(r, d->procs[p].first_loc + i);
      c->a = r->a;
      c->proc = p;
      c->loc = d->procs[p].first_loc + i;
      c->on = &r->pass->on;
      az_loc_label(d, c->loc, c->label, sizeof c->label);
    }
  }
}

/* A forward `local` pass (az_pass.h): a worker's window of handlers run
   by a decoding thread (az_pool_job) on the segments decoded by then;
   the replay thread joins the jobs (join_forward) before the next master
   and at the window's end. */
typedef struct {
  az_pool *pool;
  az_cursor *c;
  int queued; /* given this window, not joined yet */
  int ended;  /* AZ_FED_* */
  uint64_t read_pos;
} fwd_job;

static void run_forward_job(void *arg) {
  fwd_job *j = arg;
  j->c->in_job = 1;
  j->ended = az_fed_job(j->pool, j->c, &j->read_pos);
  j->c->in_job = 0;
}

/* Whether location l's window goes to a job: a worker (its master's
   window, before it, is done: what it reads of the master's is written)
   of a pass whose handlers may run there. */
static int forward_job_wanted(const az_replay *r, const az_cursor *c) {
  return r->local && c->loc != r->a->defs.procs[c->proc].first_loc;
}

/* Waits for the jobs queued (among the n locations from jobs on), then,
   on the replay thread in location
   order, each location's logged updates (az_pass.local_apply), its events
   counted, and the rest of its window where the job left some (a handler
   deferred, events not decoded yet or the driver's own).  Returns whether
   any of them is still reading; *failed on an error (the serial replay
   stops there: later jobs' logs are dropped). */
static int join_forward(az_replay *r, OTF2_Reader *reader, az_pool *pool, fwd_job *jobs, uint32_t n,
                        az_time stop, int *failed) {
  az_pool_finish_jobs(pool);
  int any = 0;
  for (uint32_t l = 0; l < n; l++) {
    fwd_job *j = &jobs[l];
    if (!j->queued) continue;
    j->queued = 0;
    if (*failed) continue;
    az_cursor *c = j->c;
    r->a->events_read += c->job_events;
    c->job_events = 0;
    r->pass->local_apply(r, c);
    if (c->failed == AZ_DEFERRED) c->failed = 0;
    if (j->ended == AZ_FED_WINDOW_END) c->read_pos = j->read_pos;
    else *failed = az_advance_fed(r, c, reader, pool, stop);
    any |= !c->done;
  }
  return any;
}

/* Reads one window: every location up to stop (a worker's in a job with
   jobs, joined before the next master and at the end).  Returns whether
   any is still reading; *failed on an error. */
static int read_window(az_replay *r, OTF2_Reader *reader, az_pool *pool, az_time stop,
                       fwd_job *jobs, int *failed) {
  const uint32_t none = UINT32_MAX;
  int any = 0;
  uint32_t first = none; /* the first location queued, not joined yet */
  for (uint32_t l = 0; l < r->a->defs.num_locs && !*failed; l++) {
    az_cursor *c = az_replay_loc(r, l);
    if (!c->a || c->done) continue;
    /* its last event (read to end the previous window) lies beyond
       this one too: reading on would take a worker past its master */
    if (c->last >= stop) {
      any = 1;
      continue;
    }
    if (jobs && forward_job_wanted(r, c)) {
      c->stop = stop;
      jobs[l] = (fwd_job){pool, c, 1, AZ_FED_MORE, 0};
      az_pool_job(pool, run_forward_job, &jobs[l]);
      if (first == none) first = l;
      continue;
    }
    if (first != none) any |= join_forward(r, reader, pool, jobs + first, l - first, stop, failed);
    first = none;
    if (*failed) break;
    *failed = pool && az_pool_feeds(pool, l) ? az_advance_fed(r, c, reader, pool, stop)
                                             : advance(r, c, reader, stop);
    any |= !c->done;
  }
  if (first != none)
    any |= join_forward(r, reader, pool, jobs + first, r->a->defs.num_locs - first, stop, failed);
  return any;
}

/* After a window: the pass evaluates what is complete; a parallel
   analysis agrees here on going on (and on failure). */
static int end_windows(az_replay *rs, size_t np, az_time stop, int any, int *failed) {
  az_analysis *a = rs[0].a;
  for (size_t i = 0; i < np; i++)
    if (any && !*failed && rs[i].pass->window) rs[i].pass->window(&rs[i], stop);
  int active = any && !*failed;
  if (a->agree_hook) active = a->agree_hook(a, active, failed);
  for (size_t i = 0; i < np; i++)
    if (active && rs[i].pass->exchange) rs[i].pass->exchange(a, 0);
  return active;
}

static int end_window(az_replay *r, az_time stop, int any, int *failed) {
  return end_windows(r, 1, stop, any, failed);
}

static void mark_window(az_marks *m, const az_replay *r, az_time stop) {
  if (m->windows == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 64;
    m->at = pu_realloc(m->at, m->cap * m->nlocs * sizeof *m->at);
    m->stop = pu_realloc(m->stop, m->cap * sizeof *m->stop);
  }
  for (uint32_t l = 0; l < m->nlocs; l++) {
    const az_cursor *c = az_replay_loc(r, l);
    m->at[m->windows * m->nlocs + l] = c->a ? c->read_pos : 0;
  }
  m->stop[m->windows++] = stop;
}

static int run_forward(az_replay *r, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb,
                       az_marks *marks, uint8_t *marks_defs) {
  const az_defs *d = &r->a->defs;
  int failed = 0;
  /* passes with handlers of RMA records read alone (pass_rma, rare) */
  const az_event_handlers *on = &r->pass->on;
  int decoded = !on->rma_collective_end && !on->rma_group_sync && !on->rma_request_lock &&
                !on->rma_acquire_lock && !on->rma_release_lock && !on->rma_put && !on->rma_get &&
                !on->rma_atomic;
  az_pool *pool = decoded ? az_pool_start(r, on, NULL, 0, window_length(r->a), reader) : NULL;
  /* per location its chunk starts and tables: whether (and how) the
     decoder reads its file (az_chunk_starts), serially too */
  az_rev_buffer *files = pool ? pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *files) : NULL;
  for (uint32_t l = 0; l < d->num_locs && !failed; l++) {
    az_cursor *c = az_replay_loc(r, l);
    if (!c->a) continue;
    failed = pool ? az_open_fed(c, reader, pool, cb, marks_defs)
                  : az_open_location(c, reader, cb, marks_defs);
    if (!failed && pool && !c->cut_file) az_chunk_starts(c, reader, &files[l]);
  }
  if (pool) az_pool_go(pool, r, files);
  /* the pass's workers' windows in the decoding threads: not for a run
     that did not finish (its handlers warn and read other locations'
     cursors there) */
  r->local = pool && r->pass->local && az_pool_decoders(pool) >= r->pass->local_min_decoders &&
             !r->a->incomplete;
  fwd_job *jobs = r->local ? pu_calloc(d->num_locs, sizeof *jobs) : NULL;
  az_time length = window_length(r->a), stop = d->global_offset;
  for (size_t k = 0, active = 1; active; k++) {
    stop = UINT64_MAX - stop < length ? UINT64_MAX : stop + length;
    if (pool) az_pool_window(pool, k);
    int any = read_window(r, reader, pool, stop, jobs, &failed);
    if (marks) mark_window(marks, r, stop);
    active = end_window(r, stop, any, &failed);
  }
  free(jobs);
  if (pool) az_pool_stop(pool);
  for (uint32_t l = 0; files && l < d->num_locs; l++) free(files[l].chunk);
  free(files);
  return failed;
}

/* The index of the first of a block's events before end that is in the
   window (dpos > after; positions grow with the index): found once, not
   tested per event and pass. */
static size_t window_first(const az_rev_buffer *b, size_t end, uint64_t after) {
  size_t lo = 0, hi = end;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (b->ev[mid].dpos > after) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/* Location l's events evs[stop .. end), last first, to pass r's
   handlers; returns cur.failed: nonzero when a handler failed (maybe at
   the last one), AZ_DEFERRED when one in a job deferred (az_pass.local);
   *rest, when not NULL, is then the end of the events still to deliver. */
static int deliver_back(const az_replay *r, uint32_t l, const az_rev_event *evs,
                        const uint8_t *kinds, const uint64_t *more, uint64_t lo, size_t end,
                        size_t stop, size_t *rest) {
  az_cursor *ci = az_replay_loc(r, l);
  const az_event_handlers *on = &r->pass->on;
  uint32_t mask = az_handled_kinds(on);
  size_t e = mask ? end : stop; /* none: a pass fed by another's (az_pass_critical_fed) */
  OTF2_LocationRef id = r->a->defs.locs[l].id;
  /* the handlers in locals: a handler's stores could change them for all
     the compiler knows, reloaded at every event */
  OTF2_EvtReaderCallback_Enter enter = on->enter;
  OTF2_EvtReaderCallback_Leave leave = on->leave;
  while (e > stop && !ci->failed) {
    uint8_t k = kinds[--e];
    const az_rev_event *ev = &evs[e];
    /* Leave and Enter, most events, without deliver's switch */
    if (k == REV_LEAVE && leave) leave(id, ev->t, lo + ev->dpos, ci, NULL, ev->arg);
    else if (k == REV_ENTER && enter) enter(id, ev->t, lo + ev->dpos, ci, NULL, ev->arg);
    else if (mask >> k & 1) az_deliver_values(on, ci, id, k, ev->t, lo + ev->dpos, more + ev->arg);
  }
  if (rest) *rest = ci->failed == AZ_DEFERRED ? e + 1 : e;
  return ci->failed;
}

/* The `local` passes' handlers of one location in one window, run by a
   decoding thread (az_pool_job) while the replay thread goes on with the
   other passes and locations; their errors are held back and said in the
   serial order once the window's jobs are done (join_local), where the
   replay thread also delivers what a handler deferred (az_pass.local). */
typedef struct local_sync { /* a job done, for the workers waiting on it */
  pthread_mutex_t mu;
  pthread_cond_t done;
} local_sync;

typedef struct local_job {
  az_replay *rs;
  size_t np;
  uint32_t l;
  const az_rev_event *ev; /* the block as it was given: read_back swaps */
  const uint8_t *kind;    /* a location's arrays at its next window only */
  const uint64_t *more;
  uint64_t lo;
  size_t end, stop;
  int queued; /* given this window */
  int finish; /* its first event is in the window: the location ends */
  int failed; /* a local pass's handler failed */
  az_diag_held held;
  const struct local_job *master; /* its master's job of this window, or NULL */
  local_sync *sync;
  int done;        /* under sync->mu */
  size_t deferred; /* the first pass whose handler deferred (np: none) */
  size_t rest;     /* ... the end of the events it has still to get */
} local_job;

/* Waits for the job of the worker's master; 1 when that deferred (the
   worker's window then waits for the replay thread too). */
static int master_deferred(const local_job *j) {
  if (!j->master) return 0;
  pthread_mutex_lock(&j->sync->mu);
  while (!j->master->done) pthread_cond_wait(&j->sync->done, &j->sync->mu);
  pthread_mutex_unlock(&j->sync->mu);
  return j->master->deferred < j->np;
}

static void run_local(void *arg) {
  local_job *j = arg;
  az_diag_hold(&j->held);
  j->deferred = j->np;
  if (master_deferred(j)) {
    j->deferred = 0;
    j->rest = j->end;
  }
  for (size_t i = 0; i < j->np && j->deferred == j->np; i++) {
    if (!j->rs[i].local) continue;
    az_cursor *c = az_replay_loc(&j->rs[i], j->l);
    c->in_job = 1;
    int failed =
        deliver_back(&j->rs[i], j->l, j->ev, j->kind, j->more, j->lo, j->end, j->stop, &j->rest);
    c->in_job = 0;
    if (c->failed == AZ_DEFERRED) {
      c->failed = 0;
      j->deferred = i;
    } else if (failed) {
      j->failed = 1;
      break;
    }
  }
  az_diag_hold(NULL);
  pthread_mutex_lock(&j->sync->mu);
  j->done = 1;
  pthread_cond_broadcast(&j->sync->done);
  pthread_mutex_unlock(&j->sync->mu);
}

/* On the replay thread, after the window's jobs: what job j's handlers
   deferred, from the event that deferred on, then the later local
   passes' whole window; 1 when a handler failed. */
static int run_deferred(local_job *j) {
  for (size_t i = j->deferred; i < j->np; i++) {
    if (!j->rs[i].local) continue;
    size_t end = i == j->deferred ? j->rest : j->end;
    if (deliver_back(&j->rs[i], j->l, j->ev, j->kind, j->more, j->lo, end, j->stop, NULL)) return 1;
  }
  return 0;
}

/* The job of the master of location l when it was given this window
   before l's (a worker's local handlers may read what its master's
   wrote), else NULL. */
static const local_job *master_job(const az_replay *r, const local_job *jobs, uint32_t l) {
  const az_defs *d = &r->a->defs;
  uint32_t m = d->procs[d->locs[l].process].first_loc;
  return m < l && d->locs[m].thread == 0 && jobs[m].queued ? &jobs[m] : NULL;
}

/* Window w of location l, last event first, to each of the np passes in
   turn: from its block, read first (by the first pass's cursor) when the
   block does not hold it (as many earlier windows with it as the share
   `budget` allows).  Its events all delivered, each pass's loc_end.  With
   job (decoding threads and a `local` pass), the local passes' handlers
   are given to the pool once the others' succeeded: they would have run
   after them. */
static int read_back(az_replay *rs, size_t np, uint32_t l, OTF2_Reader *reader,
                     OTF2_EvtReaderCallbacks *cb, az_pool *pool, az_rev_buffer *b,
                     const az_marks *m, size_t w, uint64_t budget, local_job *job) {
  az_cursor *c = az_replay_loc(&rs[0], l);
  const uint64_t *at = m->at + c->loc;
  uint64_t from = w ? at[(w - 1) * m->nlocs] : 0, to = at[w * m->nlocs];
  if (to <= from) {
    /* no events up to this window's end (an empty file, a thread that
       starts later): nothing more comes, the location is done now */
    if (!to)
      for (size_t i = 0; i < np; i++)
        az_finish_location(&rs[i], az_replay_loc(&rs[i], l), reader, NULL);
    return 0;
  }
  if (from < b->lo) {
    uint64_t lo = az_block_lo(at, m->nlocs, b->chunk, b->nchunks, w, from, to, budget);
    if (to - lo > AZ_BLOCK_SPAN_MAX) {
      az_fail(&c->a->diag,
              "%s: events %llu to %llu: one window of the first pass holds more events of "
              "this location than the backward passes buffer (%llu)",
              c->label, (unsigned long long)from + 1, (unsigned long long)to,
              (unsigned long long)AZ_BLOCK_SPAN_MAX);
      c->failed = 1;
      return -1;
    }
    if (pool ? az_take_block(pool, c, b, lo, to) : az_read_block(c, reader, cb, b, lo, to))
      return -1;
  }
  size_t end = b->end;
  size_t stop = window_first(b, end, from - b->lo);
  for (size_t i = 0; i < np; i++)
    if (!(job && rs[i].local) &&
        deliver_back(&rs[i], l, b->ev, b->kind, b->more, b->lo, end, stop, NULL))
      return -1;
  b->end = stop;
  if (job) {
    *job = (local_job){.rs = rs,
                       .np = np,
                       .l = l,
                       .ev = b->ev,
                       .kind = b->kind,
                       .more = b->more,
                       .lo = b->lo,
                       .end = end,
                       .stop = stop,
                       .queued = 1,
                       .finish = from == 0,
                       .sync = job->sync,
                       .master = master_job(&rs[0], job - l, l)}; /* job: jobs[l] */
    az_pool_job(pool, run_local, job);
  }
  if (from == 0)
    for (size_t i = 0; i < np; i++)
      if (!(job && rs[i].local)) az_finish_location(&rs[i], az_replay_loc(&rs[i], l), reader, NULL);
  return 0;
}

/* After a window's locations: waits for their local jobs, then says the
   errors held back in the serial order: the local passes' of a location
   before the replay thread's of a later one (held: the replay thread's,
   at most one location's, as it stops there); the locations the jobs
   finished end.  Returns failed, or -1 for a job's failure. */
static int join_local(az_replay *rs, size_t np, az_pool *pool, local_job *jobs, uint32_t nlocs,
                      OTF2_Reader *reader, const az_diag_held *held, int failed) {
  az_diag_hold(NULL);
  az_pool_finish_jobs(pool);
  az_diag *d = &rs[0].a->diag;
  int job_failed = 0;
  for (uint32_t l = 0; l < nlocs; l++) {
    local_job *j = &jobs[l];
    if (!j->queued) continue;
    j->queued = 0;
    if (job_failed) continue;
    if (j->failed) {
      az_diag_release(d, &j->held);
      job_failed = 1;
    } else if (j->deferred < np && run_deferred(j)) {
      job_failed = 1;
    } else if (j->finish) {
      for (size_t i = 0; i < np; i++)
        if (rs[i].local) az_finish_location(&rs[i], az_replay_loc(&rs[i], l), reader, NULL);
    }
  }
  if (job_failed) return -1;
  az_diag_release(d, held);
  return failed;
}

/* The first pass's windows, last to first, for np backward passes read
   together (each with its own state); the window's lower bound is the
   end of the one before it. */
static int run_backward(az_replay *rs, size_t np, OTF2_Reader *reader, const az_marks *m) {
  az_replay *r = &rs[0];
  const az_defs *d = &r->a->defs;
  az_rev_buffer *b = pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *b);
  az_event_handlers all = az_union_handlers(rs, np);
  OTF2_EvtReaderCallbacks *cb = az_make_rev_callbacks(&all, 0);
  int failed = 0;
  uint64_t mine = 0;
  for (uint32_t l = 0; l < d->num_locs; l++) mine += az_replay_loc(r, l)->a != NULL;
  /* small windows (tests) make small blocks too, so that blocks of
     several windows and new readers are exercised */
  uint64_t block = AZ_BACK_BLOCK_EVENTS;
  if (r->a->window_events && 8 * r->a->window_events < block) block = 8 * r->a->window_events;
  uint64_t budget = block / (mine ? mine : 1);
  az_pool *pool = az_pool_start(r, &all, m, budget, window_length(r->a), reader);
  /* the local passes' handlers in the decoding threads */
  local_job *jobs = NULL;
  local_sync sync;
  for (size_t i = 0; i < np; i++)
    rs[i].local =
        pool && rs[i].pass->local && az_pool_decoders(pool) >= rs[i].pass->local_min_decoders;
  for (size_t i = 0; i < np && !jobs; i++)
    if (rs[i].local) jobs = pu_calloc(d->num_locs, sizeof *jobs);
  if (jobs) {
    pthread_mutex_init(&sync.mu, NULL);
    pthread_cond_init(&sync.done, NULL);
    for (uint32_t l = 0; l < d->num_locs; l++) jobs[l].sync = &sync;
  }
  az_diag_held held = {0};
  for (uint32_t l = 0; l < d->num_locs && !failed; l++) {
    az_cursor *c = az_replay_loc(r, l);
    if (!c->a) continue;
    for (size_t i = 0; i < np; i++) az_replay_loc(&rs[i], l)->last = UINT64_MAX;
    b[l].lo = UINT64_MAX;
    b[l].off_region = d->off_region;
    b[l].kinds = az_buffered_kinds(&all, 0);
    failed = pool ? az_open_fed(c, reader, pool, cb, m->defs_read)
                  : az_open_location(c, reader, cb, m->defs_read);
    if (!failed && !c->cut_file) az_chunk_starts(c, reader, &b[l]);
  }
  if (pool) az_pool_go(pool, r, b);
  for (size_t w = m->windows; w-- > 0;) {
    az_time low = w ? m->stop[w - 1] : 0;
    if (jobs) az_diag_hold(&held);
    for (uint32_t l = 0; l < d->num_locs && !failed; l++) {
      az_cursor *c = az_replay_loc(r, l);
      if (!c->a || c->done) continue;
      for (size_t i = 0; i < np; i++) az_replay_loc(&rs[i], l)->stop = low;
      failed = read_back(rs, np, l, reader, cb, pool, &b[l], m, w, budget, jobs ? &jobs[l] : NULL);
    }
    if (jobs) failed = join_local(rs, np, pool, jobs, d->num_locs, reader, &held, failed);
    /* not active before the first window: a failure all agreed on */
    if (!end_windows(rs, np, low, w > 0, &failed)) break;
  }
  if (pool) az_pool_stop(pool);
  if (jobs) {
    pthread_mutex_destroy(&sync.mu);
    pthread_cond_destroy(&sync.done);
  }
  free(jobs);
  for (uint32_t l = 0; l < d->num_locs && !failed; l++)
    if (az_replay_loc(r, l)->a && !az_replay_loc(r, l)->done)
      for (size_t i = 0; i < np; i++)
        az_finish_location(&rs[i], az_replay_loc(&rs[i], l), reader, NULL);
  for (uint32_t l = 0; l < d->num_locs; l++) {
    free(b[l].ev);
    free(b[l].kind);
    free(b[l].more);
    free(b[l].chunk);
  }
  free(b);
  OTF2_EvtReaderCallbacks_Delete(cb);
  return failed;
}

/* Runs one forward pass, or np consecutive backward passes that read the
   trace together, once: each gets every window's events of every
   location in turn, and its callbacks in its order. */
static int run_passes(az_analysis *a, OTF2_Reader *reader, const uint8_t *mine,
                      const az_pass *const *passes, size_t np, az_marks *marks) {
  const az_defs *d = &a->defs;
  int backward = passes[0]->direction == AZ_BACKWARD;
  if (backward && !marks->windows) {
    az_fail(&a->diag, "replay pass '%s': a backward pass needs a forward pass before it",
            passes[0]->name);
    return -1;
  }
  az_replay *rs = pu_calloc(np, sizeof *rs);
  for (size_t i = 0; i < np; i++) {
    size_t stride = az_replay_stride(passes[i]->loc_size);
    rs[i] = (az_replay){a, passes[i], mine, NULL, NULL, stride, 0};
    rs[i].locs = pu_calloc(d->num_locs ? d->num_locs : 1, stride);
    init_cursors(&rs[i]);
    if (passes[i]->begin) passes[i]->begin(&rs[i]);
  }
  OTF2_ErrorCallback old = OTF2_Error_RegisterCallback(az_on_otf2_error, NULL);
  OTF2_EvtReaderCallbacks *cb = make_callbacks(&passes[0]->on);
  int failed =
      backward ? run_backward(rs, np, reader, marks)
               : run_forward(&rs[0], reader, cb, marks->windows ? NULL : marks, marks->defs_read);
  for (uint32_t l = 0; l < d->num_locs; l++)
    if (az_replay_loc(&rs[0], l)->er)
      OTF2_Reader_CloseEvtReader(reader, az_replay_loc(&rs[0], l)->er);
  OTF2_EvtReaderCallbacks_Delete(cb);
  OTF2_Error_RegisterCallback(old, NULL);
  for (size_t i = 0; i < np; i++) {
    if (passes[i]->end) passes[i]->end(&rs[i], !failed);
    free(rs[i].locs);
    if (!failed && passes[i]->exchange) passes[i]->exchange(a, 1);
  }
  free(rs);
  return failed ? -1 : 0;
}

/* After the first pass: a trace of samples alone (Score-P's sampling
   without instrumentation) has no call path to attribute time to. */
static int check_samples(az_analysis *a) {
  if (!a->samples) return 0;
  if (!a->tree.len) {
    az_fail(&a->diag,
            "the trace holds only sampling records (%llu CallingContextSample, no Enter/Leave): "
            "pomp-analyze needs instrumented regions; not analysed",
            (unsigned long long)a->samples);
    return -1;
  }
  az_warn(&a->diag, AZ_W_UNKNOWN_RECORD,
          "%llu sampling records (CallingContextSample) ignored: the analysis uses Enter/Leave",
          (unsigned long long)a->samples);
  return 0;
}

int az_replay_run_marked(az_analysis *a, OTF2_Reader *reader, const uint8_t *mine,
                         const az_pass *const *passes, size_t npasses, az_marks *marks) {
  int rc = 0;
  if (!marks->defs_read) {
    marks->nlocs = a->defs.num_locs;
    marks->defs_read = pu_calloc(a->defs.num_locs ? a->defs.num_locs : 1, 1);
  }
  for (size_t i = 0, n; i < npasses && !rc; i += n) {
    /* backward passes in a row read the trace together */
    n = 1;
    while (passes[i]->direction == AZ_BACKWARD && i + n < npasses &&
           passes[i + n]->direction == AZ_BACKWARD)
      n++;
    /* events_read stays the number of events in the trace (the summary
       says it; the progress bar stays full during later passes) */
    uint64_t events = a->events_read;
    /* a pass with nothing to do in this trace is skipped (alone: a group
       of backward passes reads the trace for all of them) */
    if (n == 1 && passes[i]->wanted && !passes[i]->wanted(a)) continue;
    rc = run_passes(a, reader, mine, passes + i, n, marks);
    if (i) a->events_read = events;
    if (!rc && !i) rc = check_samples(a);
    if (!i) az_tasks_checked(a);
  }
  az_tasks_free(a); /* a later reading checks the task records again */
  return rc;
}

void az_marks_free(az_marks *m) {
  free(m->at);
  free(m->stop);
  free(m->defs_read);
  memset(m, 0, sizeof *m);
}

int az_replay_run(az_analysis *a, OTF2_Reader *reader, const uint8_t *mine,
                  const az_pass *const *passes, size_t npasses) {
  az_marks marks = {0};
  int rc = az_replay_run_marked(a, reader, mine, passes, npasses, &marks);
  az_marks_free(&marks);
  return rc;
}
