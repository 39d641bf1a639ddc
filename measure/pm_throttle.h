/*
 * pm_throttle.h -- automatic throttling of user functions, and the
 * counts behind the end-of-run advice. Internal to measure/.
 *
 * Each location counts, per user-function region, the calls it entered
 * and finished and the sum of their Leave times minus their Enter times:
 * the inclusive time of the finished calls (calls still open are counted
 * as ending now). The counters live in the location and
 * only its thread writes them (relaxed atomic loads and stores, no read-
 * modify-write), so a recorded call pays a few adds and no shared cache
 * line. When a location has finished POMP_THROTTLE's number of calls of a
 * function and their mean inclusive time is below the limit, the function
 * is switched off for the whole process (pm_user.c puts it into the table
 * of filtered-out addresses): in one thread exactly the first `calls`
 * calls are recorded.
 */
#ifndef PM_THROTTLE_H
#define PM_THROTTLE_H

#include <stdint.h>

#include "pm_location.h"

/* One function's counters on one location. */
typedef struct pm_fn_stat {
  _Atomic uint64_t entered, finished;
  _Atomic uint64_t time_sum; /* Leave times - Enter times (ns, modulo 2^64) */
} pm_fn_stat;

/* A location's counters, indexed by region id. Grown by the owning thread
   only: the old table stays reachable through `older`, so the finishing
   thread reading a location may hold either. */
struct pm_fn_stats {
  uint32_t cap;
  uint64_t limit; /* pm_throttle.calls, UINT64_MAX when off: one load on the Leave path */
  struct pm_fn_stats *older;
  pm_fn_stat fn[];
};

/* POMP_THROTTLE, parsed (pm_config.c): calls == 0 means off. */
typedef struct pm_throttle_rule {
  uint64_t calls; /* finished calls on one location before the test */
  uint64_t ns;    /* mean inclusive time per call below which it is switched off */
} pm_throttle_rule;
extern pm_throttle_rule pm_throttle;
#define PM_THROTTLE_DEFAULT ((pm_throttle_rule){100000, 10000}) /* TAU's: 100,000 calls, 10 us */

/* The table of l holding region r, grown as needed; NULL without memory. */
struct pm_fn_stats *pm_fn_stats_grow(pm_location *l, uint32_t r);

static inline void pm_counter_add(_Atomic uint64_t *c, uint64_t v) {
  atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v, memory_order_relaxed);
}

/* A user function's Enter at t on l (recorded or not). */
static inline void pm_fn_entered(pm_location *l, uint32_t r, uint64_t t) {
  struct pm_fn_stats *s = l->fn_stats;
  if (PM_UNLIKELY(!s || r >= s->cap) && !(s = pm_fn_stats_grow(l, r))) return;
  pm_counter_add(&s->fn[r].entered, 1);
  pm_counter_add(&s->fn[r].time_sum, -t);
}

/* A user function's Leave at t on l. True when the function is to be
   switched off now. */
static inline int pm_fn_left(pm_location *l, uint32_t r, uint64_t t) {
  struct pm_fn_stats *s = l->fn_stats;
  if (PM_UNLIKELY(!s || r >= s->cap)) return 0; /* entered before counting began */
  pm_fn_stat *f = &s->fn[r];
  uint64_t done = atomic_load_explicit(&f->finished, memory_order_relaxed) + 1;
  atomic_store_explicit(&f->finished, done, memory_order_relaxed);
  uint64_t sum = atomic_load_explicit(&f->time_sum, memory_order_relaxed) + t;
  atomic_store_explicit(&f->time_sum, sum, memory_order_relaxed);
  if (PM_LIKELY(done < s->limit)) return 0;
  uint64_t open = atomic_load_explicit(&f->entered, memory_order_relaxed) - done;
  uint64_t inclusive = sum + open * t;
  return inclusive / done < pm_throttle.ns; /* a wrapped (odd) sum is huge: kept */
}

/* Sum of a region's recorded calls (Enters) over every location (the
   finishing thread, or for a report). */
uint64_t pm_fn_calls(uint32_t r);

/* The end of the run (after the trace is written): measure.log and, from
   rank 0, stderr say which functions were switched off and how many of
   their calls were not recorded (also written to throttled.txt in the
   experiment directory, docs/TRACE.md), and whether a few functions made
   most of the user-function events (the score command's advice). */
void pm_throttle_report(void);

/* pm_user.c: the functions switched off, for the report. Calls `each` for
   every one with its region and the calls not recorded. */
void pm_user_each_throttled(void (*each)(uint32_t region, uint64_t skipped, void *arg), void *arg);
/* pm_loop.c: the same for loop regions (skipped: executions not recorded). */
void pm_loop_each_throttled(void (*each)(uint32_t region, uint64_t skipped, void *arg), void *arg);

#endif /* PM_THROTTLE_H */
