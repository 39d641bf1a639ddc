/* pm_pomp_parallel.c -- parallel regions (docs/TRACE.md): fork/join on the
   master, team begin/end on every member, and the thread -> location
   binding. Nested regions are recorded flattened (Enter/Leave only). */
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

void POMP_Parallel_fork(OMPRegDescr *d) {
  pm_location *l = pm_self();
  if (!l) return;
  if (omp_get_level() > 0) {
    note_nested(d);
    return;
  }
  pm_ev_fork(l, (uint32_t)omp_get_max_threads(), pm_clock());
}

void POMP_Parallel_begin(OMPRegDescr *d) {
  if (!pm_running()) return;
  int level = omp_get_level();
  pm_location *l;
  if (level <= 1) l = pm_bind_team_member((uint32_t)omp_get_thread_num());
  else if (omp_get_thread_num() == 0) l = pm_self(); /* the encountering thread */
  else l = pm_bind_extra();
  if (!l) return;
  uint64_t t = pm_clock();
  if (level > 1) {
    pm_ev_enter(l, parallel_region(d), t);
    return;
  }
  pm_ev_team_begin(l, parallel_region(d), pm_team_comm((uint32_t)omp_get_num_threads()), t);
}

void POMP_Parallel_end(OMPRegDescr *d) {
  pm_location *l = pm_tls_location;
  if (!l) return;
  if (omp_get_level() <= 1) pm_ev_team_end(l, parallel_region(d), pm_clock());
  else pm_ev_leave(l, parallel_region(d), pm_clock());
}

void POMP_Parallel_join(OMPRegDescr *d) {
  (void)d;
  pm_location *l = pm_self();
  if (l && omp_get_level() == 0) pm_ev_join(l, pm_clock());
}
