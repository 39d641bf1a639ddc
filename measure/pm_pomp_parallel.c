/* pm_pomp_parallel.c -- parallel regions (docs/TRACE.md): fork/join on the
   master, team begin/end on every member, the thread -> location binding,
   and the join barrier. Nested regions are recorded flattened (Enter/Leave
   only).

   The join barrier: the runtime's barrier at the end of a parallel region
   is recorded without a barrier of our own. A member arriving there
   (POMP_Join_barrier_enter) writes the Enter of the region's implicit
   barrier at its arrival time and is then "parked": the construct exits it
   makes before the join (For_exit, Parallel_end, ...) are queued in its
   member slot without reading the clock. After the join, the workers touch
   neither their location nor their slot until the next fork, so the
   master's POMP_Parallel_join reads the clock once and writes, on every
   parked member's location, the barrier's Leave and the queued exits at
   that time (through the usual guarded event path: a buffer flush these
   writes cause runs on the master but is recorded as the member's flush
   region, before its next record; profile mode counts them in the
   member's tree alike). A killed run loses nothing: the queued regions
   are still on the location's stack, which finalisation leaves
   (pm_locations_leave_all). POMP_Off and filters act through the stack's
   marks as for any Leave. Nested teams keep an explicit barrier (their
   members are extra locations, joined by a thread that is itself a team
   member). */
#include <omp.h>
#include <stdatomic.h>

#include "pm_defs.h"
#include "pm_pomp.h"

static _Atomic uint64_t nested;

static void note_nested(OMPRegDescr *d) {
  if (atomic_fetch_add(&nested, 1) == 0)
    pm_log("nested parallel region at %s:%d: nested regions are recorded flattened "
           "(Enter/Leave of the region on each thread, no fork/join/team events)",
           d->file_name ? d->file_name : "?", d->begin_line1);
}

void pm_nested_report(void) {
  uint64_t n = atomic_load(&nested);
  if (n) pm_log("%llu nested parallel regions were recorded flattened", (unsigned long long)n);
}

static uint32_t parallel_region(OMPRegDescr *d) {
  return pm_descr_region(d, PM_SLOT_MAIN, OTF2_REGION_ROLE_PARALLEL);
}

/* ------------------------------------------------------ the join barrier */

/* A construct exit queued by a parked member: a Leave, or the Leave and
   ThreadTeamEnd of the team's parallel region. At most the worksharing
   half's exit and Parallel_end come between arrival and join. */
typedef struct {
  uint32_t region;
  int team_end;
} pm_queued_exit;

enum { PM_QUEUED_MAX = 8 };

/* A member of the outermost team, by its thread number. */
typedef struct {
  pm_location *loc;  /* bound at its Parallel_begin */
  uint32_t ibarrier; /* the implicit barrier it waits in */
  int parked;        /* arrived at the join barrier, the join not yet */
  uint32_t nqueued;
  pm_queued_exit queued[PM_QUEUED_MAX];
} pm_member;

static pm_member members[PM_MAX_LOCATIONS];
static uint32_t team_size; /* of the current outermost team (its master's begin) */
static _Thread_local pm_member *my_member PM_TLS;

int pm_join_defer(OMPRegDescr *d, enum pm_slot slot, OTF2_RegionRole role, int team_end) {
  pm_member *m = my_member;
  if (PM_LIKELY(!m || !m->parked)) return 0;
  if (PM_UNLIKELY(m->nqueued == PM_QUEUED_MAX)) return 0; /* written now: see above */
  m->queued[m->nqueued++] = (pm_queued_exit){pm_descr_region(d, slot, role), team_end};
  return 1;
}

/* On the master after the join: every parked member leaves at t. */
static void unpark_team(uint64_t t) {
  for (uint32_t i = 0; i < team_size; i++) {
    pm_member *m = &members[i];
    if (!m->parked) continue;
    pm_ev_leave(m->loc, m->ibarrier, t);
    for (uint32_t q = 0; q < m->nqueued; q++) {
      if (m->queued[q].team_end) pm_ev_team_end(m->loc, m->queued[q].region, t);
      else pm_ev_leave(m->loc, m->queued[q].region, t);
    }
    m->parked = 0;
    m->nqueued = 0;
  }
}

void POMP_Join_barrier_enter(OMPRegDescr *d) {
  if (omp_get_level() > 1) { /* the same for the whole nested team */
    POMP_Barrier_enter(d);
#pragma omp barrier
    POMP_Barrier_exit(d);
    return;
  }
  pm_member *m = my_member;
  if (!m) return; /* not measured: the join is the barrier */
  m->ibarrier = pm_descr_region(d, PM_SLOT_IBARRIER, OTF2_REGION_ROLE_IMPLICIT_BARRIER);
  pm_ev_enter(m->loc, m->ibarrier, pm_clock());
  m->nqueued = 0;
  m->parked = 1;
}

void POMP_Parallel_fork(OMPRegDescr *d) {
  pm_location *l = pm_self();
  if (!l) return;
  if (omp_get_level() > 0) {
    note_nested(d);
    return;
  }
  pm_ev_fork(l, (uint32_t)omp_get_max_threads(), pm_clock());
}

/* A member of the outermost team takes its slot (tid < PM_MAX_LOCATIONS:
   pm_bind_team_member gave it a location). */
static void join_team(pm_location *l, uint32_t tid) {
  pm_member *m = &members[tid];
  m->loc = l;
  m->parked = 0;
  my_member = m;
  if (tid == 0) team_size = (uint32_t)omp_get_num_threads();
}

void POMP_Parallel_begin(OMPRegDescr *d) {
  int level = omp_get_level();
  uint32_t tid = (uint32_t)omp_get_thread_num();
  if (level <= 1 || tid != 0) my_member = NULL; /* a nested team's master stays a member */
  if (!pm_running()) return;
  pm_location *l;
  if (level <= 1) l = pm_bind_team_member(tid);
  else if (tid == 0) l = pm_self(); /* the encountering thread */
  else l = pm_bind_extra();
  if (!l) return;
  uint64_t t = pm_clock();
  if (level > 1) {
    pm_ev_enter(l, parallel_region(d), t);
    return;
  }
  join_team(l, tid);
  pm_ev_team_begin(l, parallel_region(d), pm_team_comm((uint32_t)omp_get_num_threads()), t);
}

void POMP_Parallel_end(OMPRegDescr *d) {
  pm_location *l = pm_tls_location;
  if (!l) return;
  if (omp_get_level() > 1) pm_ev_leave(l, parallel_region(d), pm_clock());
  else if (!pm_join_defer(d, PM_SLOT_MAIN, OTF2_REGION_ROLE_PARALLEL, 1))
    pm_ev_team_end(l, parallel_region(d), pm_clock());
}

void POMP_Parallel_join(OMPRegDescr *d) {
  (void)d;
  pm_location *l = pm_self();
  if (!l || omp_get_level() != 0) return;
  uint64_t t = pm_clock();
  unpark_team(t);
  team_size = 0;
  pm_ev_join(l, t);
}
