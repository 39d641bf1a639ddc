/* pm_event.c -- the event path: region stack discipline and the OTF2
   records of one location. No locks: a location has one writing thread. */
#include <stdlib.h>

#include "pm_defs.h"
#include "pm_location.h"
#include "pomp_util.h"

static uint32_t flush_region = PM_NO_REGION;

void pm_ev_write(pm_location *l, enum pm_event_kind kind, uint64_t t,
                 uint32_t a, uint32_t b) {
  OTF2_EvtWriter *w = l->writer;
  if (PM_UNLIKELY(!w)) {
    pm_kept_event e = {t, a, b, kind};
    PU_PUSH(l->kept, l->nkept, l->cap_kept, e);
    return;
  }
  if (PM_UNLIKELY(l->flush_pending)) pm_write_flush_region(l);
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

void pm_write_flush_region(pm_location *l) {
  l->flush_pending = 0;
  if (flush_region == PM_NO_REGION)
    flush_region = pm_region_define("TRACE BUFFER FLUSH", NULL, 0, 0,
                                    OTF2_PARADIGM_MEASUREMENT_SYSTEM,
                                    OTF2_REGION_ROLE_ARTIFICIAL);
  OTF2_EvtWriter_Enter(l->writer, NULL, l->flush_begin, flush_region);
  OTF2_EvtWriter_Leave(l->writer, NULL, l->flush_end, flush_region);
}

static inline int writing(void) {
  return atomic_load_explicit(&pm_state, memory_order_relaxed) == PM_RUNNING;
}

void pm_ev_enter(pm_location *l, uint32_t region, uint64_t t) {
  int rec = pm_location_records(l);
  if (PM_UNLIKELY(l->depth == l->cap)) {
    l->cap *= 2;
    l->stack = pu_realloc(l->stack, l->cap * sizeof *l->stack);
  }
  l->stack[l->depth++] = rec ? region : region | PM_HIDDEN_ENTER;
  if (!rec) return;
  if (PM_LIKELY(l->writer && !l->flush_pending))
    OTF2_EvtWriter_Enter(l->writer, NULL, t, region);
  else
    pm_ev_write(l, PM_EV_ENTER, t, region, 0);
}

/* Pops entries above the innermost `region` (their Leave was skipped, e.g.
   by longjmp), writing their Leaves at t. False if region is not open. */
static int unwind_to(pm_location *l, uint32_t region, uint64_t t) {
  uint32_t i = l->depth;
  while (i > 0 && (l->stack[i - 1] & ~PM_HIDDEN_ENTER) != region) i--;
  if (i == 0) return 0;
  while (l->depth > i) {
    uint32_t e = l->stack[--l->depth];
    if (!(e & PM_HIDDEN_ENTER) && writing()) pm_ev_write(l, PM_EV_LEAVE, t, e, 0);
  }
  return 1;
}

int pm_ev_leave(pm_location *l, uint32_t region, uint64_t t) {
  if (PM_UNLIKELY(l->depth == 0)) {
    l->unmatched++;
    return 0;
  }
  uint32_t top = l->stack[l->depth - 1];
  if (PM_UNLIKELY((top & ~PM_HIDDEN_ENTER) != region)) {
    if (!unwind_to(l, region, t)) {
      l->unmatched++;
      return 0;
    }
    top = l->stack[l->depth - 1];
  }
  l->depth--;
  if ((top & PM_HIDDEN_ENTER) || !writing()) return 0;
  if (PM_LIKELY(l->writer && !l->flush_pending))
    OTF2_EvtWriter_Leave(l->writer, NULL, t, region);
  else
    pm_ev_write(l, PM_EV_LEAVE, t, region, 0);
  return 1;
}

void pm_ev_thread(pm_location *l, enum pm_event_kind kind, uint64_t t,
                  uint32_t a, uint32_t b) {
  if (pm_location_records(l)) pm_ev_write(l, kind, t, a, b);
}

void pm_locations_leave_all(uint64_t t) {
  for (uint32_t i = 0; i < PM_MAX_LOCATIONS; i++) {
    pm_location *l = pm_location_get(i);
    if (!l) continue;
    while (l->depth > 0) {
      uint32_t e = l->stack[--l->depth];
      if (!(e & PM_HIDDEN_ENTER)) pm_ev_write(l, PM_EV_LEAVE, t, e, 0);
    }
  }
}
