/* pm_event.c -- the event path: region stack discipline and the OTF2
   records of one location. No locks: a location has one writing thread. */
#include <stdlib.h>
#include <time.h>

#include "pm_defs.h"
#include "pm_location.h"
#include "pm_profile.h"
#include "pomp_util.h"

static uint32_t flush_region = PM_NO_REGION;

/* A signal taken in the middle of a record waits for its end: the handler
   stores it here, and the record's end calls what the signal code
   registered (pm_ev_on_deferred_signal), so the event path calls nothing
   above it. The test of the flag was always there; only its rare path
   goes through the pointer. */
_Atomic int pm_deferred_signal;
static void (*deferred_signal_handler)(void);

void pm_ev_on_deferred_signal(void (*handler)(void)) { deferred_signal_handler = handler; }

/* The writer of a location is busy while `writing` is set. Whoever
   finishes the measurement while other threads may still record (exit,
   a signal) first sets the state to PM_FINISHED, then waits until no
   location is busy (pm_locations_quiesce). A writer re-checks the state
   after marking itself busy, so it either sees PM_FINISHED or is seen
   busy. */
static inline int begin_write(pm_location *l) {
  atomic_store_explicit(&l->writing, 1, memory_order_relaxed);
  atomic_signal_fence(memory_order_seq_cst);
  if (PM_LIKELY(atomic_load_explicit(&pm_state, memory_order_relaxed) == PM_RUNNING)) return 1;
  atomic_store_explicit(&l->writing, 0, memory_order_relaxed);
  return 0;
}

static inline void end_write(pm_location *l) {
  atomic_store_explicit(&l->writing, 0, memory_order_release);
  if (PM_UNLIKELY(atomic_load_explicit(&pm_deferred_signal, memory_order_relaxed)))
    deferred_signal_handler();
}

/* A record after a buffer flush. The flush happened inside the record
   before it, and is written as a region first; the records that share
   that record's instant (a join's Leaves and ThreadTeamEnd and
   ThreadJoin, the Leaves of an unwind, a team's Leave and ThreadTeamEnd)
   had their time read before the flush began, so they move to its end:
   timestamps never decrease on the location, and none of them is lost
   (OTF2 refuses a record older than the location's last). The first
   record whose time was read after the flush ends the state. Returns the
   record's time. */
static uint64_t past_flush(pm_location *l, uint64_t t) {
  pm_write_flush_region(l);
  if (t < l->flush_end) return l->flush_end;
  l->flush_pending = PM_FLUSH_NONE;
  return t;
}

/* Before a record into the archive: a buffer flush it waits for is
   written as a region (past_flush), and the tail file copied when due.
   Returns the time to write the record at. */
static inline uint64_t before_record(pm_location *l, uint64_t t) {
  if (PM_UNLIKELY(l->flush_pending)) t = past_flush(l, t);
  if (PM_UNLIKELY(t >= l->tail_due)) pm_tail_write(l, t);
  return t;
}

/* One record as it is; the caller owns the writer. */
static void write_record(pm_location *l, enum pm_event_kind kind, uint64_t t, uint32_t a,
                         uint32_t b) {
  OTF2_EvtWriter *w = l->writer;
  if (PM_UNLIKELY(!w)) {
    if (pm_profiling()) { /* no archive in profile mode: the tree counts it */
      pm_profile_event(l, kind, t, a);
      return;
    }
    pm_kept_event e = {t, a, b, kind};
    PU_PUSH(l->kept, l->nkept, l->cap_kept, e);
    return;
  }
  t = before_record(l, t);
  switch (kind) {
  case PM_EV_ENTER: OTF2_EvtWriter_Enter(w, NULL, t, a); break;
  case PM_EV_LEAVE: OTF2_EvtWriter_Leave(w, NULL, t, a); break;
  case PM_EV_FORK: OTF2_EvtWriter_ThreadFork(w, NULL, t, OTF2_PARADIGM_OPENMP, a); break;
  case PM_EV_JOIN: OTF2_EvtWriter_ThreadJoin(w, NULL, t, OTF2_PARADIGM_OPENMP); break;
  case PM_EV_TEAM_BEGIN: OTF2_EvtWriter_ThreadTeamBegin(w, NULL, t, a); break;
  case PM_EV_TEAM_END: OTF2_EvtWriter_ThreadTeamEnd(w, NULL, t, a); break;
  case PM_EV_ACQUIRE_LOCK:
    OTF2_EvtWriter_ThreadAcquireLock(w, NULL, t, OTF2_PARADIGM_OPENMP, a, b);
    break;
  case PM_EV_RELEASE_LOCK:
    OTF2_EvtWriter_ThreadReleaseLock(w, NULL, t, OTF2_PARADIGM_OPENMP, a, b);
    break;
  }
}

void pm_ev_write(pm_location *l, enum pm_event_kind kind, uint64_t t, uint32_t a, uint32_t b) {
  if (!begin_write(l)) return;
  write_record(l, kind, t, a, b);
  end_write(l);
}

void pm_ev_write_owned(pm_location *l, enum pm_event_kind kind, uint64_t t, uint32_t a,
                       uint32_t b) {
  write_record(l, kind, t, a, b);
}

void pm_locations_quiesce(int grace_ms) {
  if (grace_ms > 0) {
    struct timespec grace = {0, grace_ms * 1000000L};
    nanosleep(&grace, NULL);
  }
  for (uint32_t i = 0; i < PM_MAX_LOCATIONS; i++) {
    pm_location *l = pm_location_get(i);
    /* a record takes well under a microsecond; give up after ~1 s */
    for (int spins = 0;
         l && spins < 10000 && atomic_load_explicit(&l->writing, memory_order_acquire); spins++) {
      struct timespec pause = {0, 100000};
      nanosleep(&pause, NULL);
    }
  }
}

void pm_write_flush_region(pm_location *l) {
  if (l->flush_pending != PM_FLUSH_TO_WRITE) return;
  l->flush_pending = PM_FLUSH_WRITTEN;
  if (flush_region == PM_NO_REGION)
    flush_region = pm_region_define("TRACE BUFFER FLUSH", NULL, 0, 0,
                                    OTF2_PARADIGM_MEASUREMENT_SYSTEM, OTF2_REGION_ROLE_ARTIFICIAL);
  OTF2_EvtWriter_Enter(l->writer, NULL, l->flush_begin, flush_region);
  OTF2_EvtWriter_Leave(l->writer, NULL, l->flush_end, flush_region);
}

/* Under the guard: push region (| mark when recorded), write its Enter.
   Returns whether it was recorded. */
static int enter(pm_location *l, uint32_t region, uint32_t mark, uint64_t t) {
  int rec = pm_location_records(l);
  if (PM_UNLIKELY(l->depth == l->cap)) {
    l->cap *= 2;
    l->stack = pu_realloc(l->stack, l->cap * sizeof *l->stack);
  }
  l->stack[l->depth++] = region | (rec ? mark : PM_HIDDEN_ENTER);
  if (!rec) return 0;
  if (PM_LIKELY(l->writer && !l->flush_pending && t < l->tail_due))
    OTF2_EvtWriter_Enter(l->writer, NULL, t, region);
  else write_record(l, PM_EV_ENTER, t, region, 0);
  return 1;
}

/* Writes the Leave of stack entry e (and, for a team's parallel region,
   its ThreadTeamEnd and the master's ThreadJoin when the region is left
   without POMP_Parallel_end: interrupted, or finalised). */
static void leave_entry(pm_location *l, uint32_t e, uint64_t t, int whole_team) {
  if (e & PM_HIDDEN_ENTER) return;
  write_record(l, PM_EV_LEAVE, t, e & PM_REGION_MASK, 0);
  if (!whole_team || !(e & PM_TEAM_ENTER)) return;
  write_record(l, PM_EV_TEAM_END, t, l->team_comm, 0);
  if (l->forked) write_record(l, PM_EV_JOIN, t, 0, 0);
  l->forked = 0;
}

/* Under the guard: pops entries above the innermost `region` (their Leave
   was skipped, e.g. by longjmp), writing their Leaves at t. False if
   region is not open. */
static int unwind_to(pm_location *l, uint32_t region, uint64_t t) {
  uint32_t i = l->depth;
  while (i > 0 && (l->stack[i - 1] & PM_REGION_MASK) != region) i--;
  if (i == 0) return 0;
  while (l->depth > i) leave_entry(l, l->stack[--l->depth], t, 0);
  return 1;
}

/* Under the guard: pops region and writes its Leave if its Enter was. */
static int leave(pm_location *l, uint32_t region, uint64_t t) {
  if (PM_UNLIKELY(l->depth == 0)) {
    l->unmatched++;
    return 0;
  }
  uint32_t top = l->stack[l->depth - 1];
  if (PM_UNLIKELY((top & PM_REGION_MASK) != region)) {
    if (!unwind_to(l, region, t)) {
      l->unmatched++;
      return 0;
    }
    top = l->stack[l->depth - 1];
  }
  l->depth--;
  if (top & PM_HIDDEN_ENTER) return 0;
  if (PM_LIKELY(l->writer && !l->flush_pending && t < l->tail_due))
    OTF2_EvtWriter_Leave(l->writer, NULL, t, region);
  else write_record(l, PM_EV_LEAVE, t, region, 0);
  return 1;
}

/* The guard covers the region stack too: once the measurement finished,
   a location's stack no longer changes, so the finishing thread may
   leave its open regions while the owner is still running. */
void pm_ev_enter(pm_location *l, uint32_t region, uint64_t t) {
  if (!begin_write(l)) return;
  enter(l, region, 0, t);
  end_write(l);
}

int pm_ev_leave(pm_location *l, uint32_t region, uint64_t t) {
  if (!begin_write(l)) return 0;
  int wrote = leave(l, region, t);
  end_write(l);
  return wrote;
}

void pm_ev_team_begin(pm_location *l, uint32_t region, uint32_t comm, uint64_t t) {
  if (!begin_write(l)) return;
  if (pm_location_records(l)) {
    l->team_comm = comm;
    write_record(l, PM_EV_TEAM_BEGIN, t, comm, 0);
  }
  enter(l, region, PM_TEAM_ENTER, t);
  end_write(l);
}

void pm_ev_team_end(pm_location *l, uint32_t region, uint64_t t) {
  if (!begin_write(l)) return;
  if (leave(l, region, t)) write_record(l, PM_EV_TEAM_END, t, l->team_comm, 0);
  end_write(l);
}

void pm_ev_fork(pm_location *l, uint32_t threads, uint64_t t) {
  if (!begin_write(l)) return;
  if (pm_location_records(l)) {
    write_record(l, PM_EV_FORK, t, threads, 0);
    l->forked = 1;
  }
  end_write(l);
}

void pm_ev_join(pm_location *l, uint64_t t) {
  if (!begin_write(l)) return;
  if (l->forked) write_record(l, PM_EV_JOIN, t, 0, 0);
  l->forked = 0;
  end_write(l);
}

/* ------------------------------------------------------------ OpenMP tasks */

enum task_record { TASK_CREATE, TASK_SWITCH, TASK_COMPLETE };

/* Under the guard, with a writer. */
static void write_task(pm_location *l, enum task_record kind, uint64_t t, const pm_task *k) {
  t = before_record(l, t);
  if (kind == TASK_CREATE)
    OTF2_EvtWriter_ThreadTaskCreate(l->writer, NULL, t, k->comm, k->creator, k->generation);
  else if (kind == TASK_SWITCH)
    OTF2_EvtWriter_ThreadTaskSwitch(l->writer, NULL, t, k->comm, k->creator, k->generation);
  else OTF2_EvtWriter_ThreadTaskComplete(l->writer, NULL, t, k->comm, k->creator, k->generation);
}

static int same_task(const pm_task *a, const pm_task *b) {
  return a->comm == b->comm && a->creator == b->creator && a->generation == b->generation;
}

int pm_ev_task_create(pm_location *l, uint32_t region, const pm_task *k, uint64_t t) {
  if (!begin_write(l)) return 0;
  int rec = enter(l, region, 0, t) && l->writer;
  if (rec) write_task(l, TASK_CREATE, t, k);
  end_write(l);
  return rec;
}

void pm_ev_task_begin(pm_location *l, uint32_t region, const pm_task *k, uint64_t t) {
  if (!begin_write(l)) return;
  if (k && pm_location_records(l) && l->writer) {
    write_task(l, TASK_SWITCH, t, k);
    if (l->ntasks == 0) { /* the implicit task it interrupts, to return to */
      pm_task implicit = {k->comm, l->thread, 0};
      PU_PUSH(l->tasks, l->ntasks, l->cap_tasks, implicit);
    }
    PU_PUSH(l->tasks, l->ntasks, l->cap_tasks, *k);
  }
  enter(l, region, 0, t);
  end_write(l);
}

void pm_ev_task_end(pm_location *l, uint32_t region, const pm_task *k, uint64_t t) {
  if (!begin_write(l)) return;
  leave(l, region, t);
  int rec = k && pm_location_records(l) && l->writer;
  if (rec) write_task(l, TASK_COMPLETE, t, k);
  if (k && l->ntasks > 1 && same_task(&l->tasks[l->ntasks - 1], k)) {
    l->ntasks--;
    if (rec) write_task(l, TASK_SWITCH, t, &l->tasks[l->ntasks - 1]);
    if (l->ntasks == 1) l->ntasks = 0; /* back in the implicit task */
  }
  /* else its begin was not recorded, or it began on another thread (an
     untied task that moved, whose Enter stays on that thread's stack):
     the completion alone says where it ended */
  end_write(l);
}

void pm_ev_thread(pm_location *l, enum pm_event_kind kind, uint64_t t, uint32_t a, uint32_t b) {
  if (pm_location_records(l)) pm_ev_write(l, kind, t, a, b);
}

void pm_locations_leave_all(uint64_t t) {
  for (uint32_t i = 0; i < PM_MAX_LOCATIONS; i++) {
    pm_location *l = pm_location_get(i);
    if (!l) continue;
    while (l->depth > 0) leave_entry(l, l->stack[--l->depth], t, 1);
    if (l->forked) write_record(l, PM_EV_JOIN, t, 0, 0); /* forked, team not begun */
    l->forked = 0;
  }
}

/* ------------------------------------------- records at a shared instant */

/* libpomp-mpi gives the records of one instant (an MPI call's Enter and
   the MPI records written before the PMPI call; those written after it and
   the Leave) one clock read. A buffer flush caused by one of them is
   written as a region before the next record and ends after the shared
   timestamp: the records after it move to its end, so timestamps never
   decrease on the location. The event path moves its own records
   (past_flush); these return the time they used, so that the records
   libpomp-mpi writes straight into the writer move with them. */
static inline uint64_t after_flush(const pm_location *l, uint64_t t) {
  return PM_UNLIKELY(l->flush_pending) && t < l->flush_end ? l->flush_end : t;
}

uint64_t pm_enter_at(pm_location *l, uint32_t region, uint64_t t) {
  t = after_flush(l, t);
  pm_ev_enter(l, region, t);
  return t;
}

uint64_t pm_leave_at(pm_location *l, uint32_t region, uint64_t t) {
  t = after_flush(l, t);
  pm_ev_leave(l, region, t);
  return t;
}

OTF2_EvtWriter *pm_evt_writer_at(pm_location *l, uint64_t *t) {
  if (!l->writer || atomic_load_explicit(&pm_state, memory_order_relaxed) != PM_RUNNING)
    return NULL;
  if (PM_UNLIKELY(l->flush_pending)) {
    *t = after_flush(l, *t);
    pm_write_flush_region(l);
  }
  return l->writer;
}
