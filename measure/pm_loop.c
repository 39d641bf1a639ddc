/* pm_loop.c -- loop regions (pomp-opari --loops): POMP_Loop_enter/exit.
 *
 * A loop descriptor (name "loop") becomes a region `loop @file:line` of
 * role LOOP and paradigm USER (pm_descr.c), entered and left like a user
 * function. Throttling (pm_throttle.h) applies as to functions: the same
 * per-location counters, keyed by the region, decide when a loop made
 * POMP_THROTTLE's number of short executions on a thread; the loop is
 * then switched off for the process by a flag in its descriptor (slot
 * PM_SLOT_EXTRA), so a switched-off loop costs one load and a branch.
 * An execution in flight on another thread when the flag is set has its
 * Leave skipped; pm_event.c's stack discipline closes it at the caller's
 * Leave, as for a throttled function. The executions not recorded are
 * counted in the descriptor (slot PM_SLOT_BODY, one relaxed atomic add).
 */
#include <pthread.h>

#include "pm_pomp.h"
#include "pm_throttle.h"
#include "pomp_util.h"

#define LOOP_ROLE OTF2_REGION_ROLE_LOOP

typedef struct loop_off {
  OMPRegDescr *d;
  uint32_t region;
} loop_off;

static pthread_mutex_t off_lock = PTHREAD_MUTEX_INITIALIZER;
static loop_off *off;
static size_t noff, cap_off;

static inline int switched_off(const OMPRegDescr *d) {
  return __atomic_load_n(&d->data[PM_SLOT_EXTRA], __ATOMIC_RELAXED) != 0;
}

__attribute__((noinline)) static void switch_off(OMPRegDescr *d, uint32_t r) {
  pthread_mutex_lock(&off_lock);
  if (!switched_off(d)) {
    loop_off o = {d, r};
    PU_PUSH(off, noff, cap_off, o);
    __atomic_store_n(&d->data[PM_SLOT_EXTRA], 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&off_lock);
}

void POMP_Loop_enter(OMPRegDescr *d) {
  if (PM_UNLIKELY(switched_off(d))) {
    __atomic_fetch_add(&d->data[PM_SLOT_BODY], 1, __ATOMIC_RELAXED);
    return;
  }
  pm_location *l = pm_self();
  if (!l) return;
  uint32_t r = pm_descr_region(d, PM_SLOT_MAIN, LOOP_ROLE);
  uint64_t t = pm_clock();
  pm_fn_entered(l, r, t);
  pm_ev_enter(l, r, t);
}

void POMP_Loop_exit(OMPRegDescr *d) {
  if (PM_UNLIKELY(switched_off(d))) return;
  pm_location *l = pm_tls_location;
  if (!l) return;
  uint32_t r = pm_descr_region(d, PM_SLOT_MAIN, LOOP_ROLE);
  uint64_t t = pm_clock();
  int last = pm_fn_left(l, r, t);
  pm_ev_leave(l, r, t);
  if (PM_UNLIKELY(last)) switch_off(d, r);
}

OMPRegDescr *POMP_Loop_begin(OMPRegDescr *d) {
  POMP_Loop_enter(d);
  return d;
}

void POMP_Loop_cleanup(OMPRegDescr *const *d) { POMP_Loop_exit(*d); }

void pm_loop_each_throttled(void (*each)(uint32_t region, uint64_t skipped, void *arg), void *arg) {
  pthread_mutex_lock(&off_lock);
  for (size_t i = 0; i < noff; i++)
    each(off[i].region, __atomic_load_n(&off[i].d->data[PM_SLOT_BODY], __ATOMIC_RELAXED), arg);
  pthread_mutex_unlock(&off_lock);
}
