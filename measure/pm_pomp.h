/*
 * pm_pomp.h -- from POMP descriptors to regions and locks. A descriptor's
 * regions are defined at its first use and cached in d->data (an atomic
 * load on the hot path, no lock). Internal to measure/.
 *
 * d->data slots: the construct itself; its body (sblock, task body, or the
 * worksharing part of a combined parallel construct); its implicit
 * barrier; an extra one (the section region of a sections descriptor, or
 * the pm_lock of a critical construct).
 */
#ifndef PM_POMP_H
#define PM_POMP_H

#include <stdint.h>

#include "pm_location.h"
#include "pomp.h"

enum pm_slot { PM_SLOT_MAIN, PM_SLOT_BODY, PM_SLOT_IBARRIER, PM_SLOT_EXTRA };

/* The region of d in slot with role (docs/TRACE.md names it). */
uint32_t pm_descr_region_slow(OMPRegDescr *d, enum pm_slot slot, OTF2_RegionRole role);
static inline uint32_t pm_descr_region(OMPRegDescr *d, enum pm_slot slot, OTF2_RegionRole role) {
  uintptr_t v = __atomic_load_n(&d->data[slot], __ATOMIC_ACQUIRE);
  if (PM_LIKELY(v != 0)) return (uint32_t)(v - 1);
  return pm_descr_region_slow(d, slot, role);
}

/* Enter/Leave of d's region on the calling thread (nothing if the
   measurement is not running). pm_descr_leave returns 1 if it wrote. */
void pm_descr_enter(OMPRegDescr *d, enum pm_slot slot, OTF2_RegionRole role);
int pm_descr_leave(OMPRegDescr *d, enum pm_slot slot, OTF2_RegionRole role);

/* The join barrier (pm_pomp_parallel.c): if the calling thread waits in
   the join barrier of its team, queues the exit of d's region (with the
   team's end if team_end) for POMP_Parallel_join and returns 1; else 0. */
int pm_join_defer(OMPRegDescr *d, enum pm_slot slot, OTF2_RegionRole role, int team_end);

/* A lock of the trace: critical names and lock variables share the ids. */
typedef struct pm_lock {
  uint32_t id;
  _Atomic uint32_t acquisitions; /* the order of the latest acquisition */
  uint32_t holder_order;         /* the order of the current holder */
  int depth;                     /* nesting of a nest lock */
} pm_lock;
pm_lock *pm_lock_critical(OMPRegDescr *d);                 /* by sub_name, cached in d */
pm_lock *pm_lock_variable(const void *address, int fresh); /* fresh: init */
/* Records the acquisition / release of k by l at t (per docs/TRACE.md). */
void pm_lock_acquired(pm_location *l, pm_lock *k, uint64_t t);
void pm_lock_released(pm_location *l, pm_lock *k, uint64_t t);

#endif /* PM_POMP_H */
