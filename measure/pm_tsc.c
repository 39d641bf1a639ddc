/* pm_tsc.c -- TSC ticks to CLOCK_MONOTONIC nanoseconds: the epochs of
   pm_clock.h and their re-anchoring. Pure arithmetic on reference pairs
   (ticks, ns) handed in by pm_clock.c, so tests can drive it with
   synthetic clocks.

   Consistency across threads: epoch e's line is used for ticks in
   [e.tsc0, e.tsc0 + e.valid) only. The next epoch starts at
   V = max(e.tsc0 + e.valid, ticks of its anchor), at the value of e's line
   there. A thread that reads ticks past e.tsc0 + e.valid before the next
   epoch is published gets the value at that end (time stands still for
   it, briefly): so whichever epoch a thread happened to load, it gets
   f(ticks) or a value <= f(ticks) of the earlier ticks, and f is one
   non-decreasing function for every thread. */
#include <stdint.h>

#include "pm_clock.h"

#define EPOCHS 4096
#define FIRST_INTERVAL_NS 10000000ull /* 10 ms: the first re-anchor */
#define MAX_INTERVAL_NS 1000000000ull /* 1 s while epochs are plenty */
#define MAX_SLEW_SHIFT 10             /* slope within rate +- rate/1024 */
#define STEP_NS 100000                /* behind by more: jump forward */
#define NEVER (1ull << 62)            /* refresh/valid of the last epoch */

static const pm_clock_epoch monotonic_epoch; /* refresh 0: always slow */
const pm_clock_epoch *_Atomic pm_clock_current = &monotonic_epoch;

static pm_clock_epoch epochs[EPOCHS];
static _Atomic unsigned nepochs;
static uint64_t first_t, first_m; /* the first reference pair: the rate's base */
static uint64_t max_error;

/* The line (tsc0, ns0, mult) at ticks t, on either side of tsc0. */
static uint64_t line_at(uint64_t tsc0, uint64_t ns0, uint64_t mult, uint64_t t) {
  if (t >= tsc0) return ns0 + (uint64_t)(((unsigned __int128)(t - tsc0) * mult) >> 32);
  return ns0 - (uint64_t)(((unsigned __int128)(tsc0 - t) * mult) >> 32);
}

/* ns per tick << 32 between two pairs. */
static uint64_t rate_between(uint64_t t0, uint64_t m0, uint64_t t1, uint64_t m1) {
  return (uint64_t)(((unsigned __int128)(m1 - m0) << 32) / (t1 - t0));
}

static uint64_t ticks_of(uint64_t ns, uint64_t rate) {
  return (uint64_t)(((unsigned __int128)ns << 32) / rate);
}

/* Re-anchor often while the rate is young (its error shrinks with the
   base), then every second; with 3/4 of the epochs used (after about an
   hour), every 1/8 of the run's age, so the array never runs out. */
static uint64_t interval_ns(unsigned n, uint64_t age_ns) {
  uint64_t i = age_ns / 8;
  if (i < FIRST_INTERVAL_NS) i = FIRST_INTERVAL_NS;
  if (n < EPOCHS / 4 * 3 && i > MAX_INTERVAL_NS) i = MAX_INTERVAL_NS;
  return i;
}

static void publish(unsigned n, uint64_t interval_ticks) {
  pm_clock_epoch *e = &epochs[n];
  e->refresh = n == EPOCHS - 1 ? NEVER : interval_ticks;
  e->valid = n == EPOCHS - 1 ? NEVER : interval_ticks + interval_ticks / 4;
  atomic_store_explicit(&nepochs, n + 1, memory_order_relaxed);
  atomic_store_explicit(&pm_clock_current, e, memory_order_release);
}

void pm_tsc_start(uint64_t t0, uint64_t m0, uint64_t t1, uint64_t m1) {
  first_t = t0;
  first_m = m0;
  max_error = 0;
  uint64_t rate = rate_between(t0, m0, t1, m1);
  epochs[0] = (pm_clock_epoch){
      .tsc0 = t1, .ns0 = m1, .mult = rate, .prev_tsc0 = t1, .prev_ns0 = m1, .prev_mult = rate};
  publish(0, ticks_of(FIRST_INTERVAL_NS, rate));
}

void pm_tsc_anchor(uint64_t t, uint64_t m) {
  const pm_clock_epoch *e = atomic_load_explicit(&pm_clock_current, memory_order_relaxed);
  unsigned n = atomic_load_explicit(&nepochs, memory_order_relaxed);
  if (n == 0 || n >= EPOCHS || t <= first_t || m <= first_m) return;
  if (t < e->tsc0 || t - e->tsc0 < e->refresh) return; /* anchored meanwhile */
  int64_t now_error = (int64_t)(line_at(e->tsc0, e->ns0, e->mult, t) - m);
  uint64_t abs_error = now_error < 0 ? (uint64_t)-now_error : (uint64_t)now_error;
  if (t - e->tsc0 < e->valid && abs_error > max_error) max_error = abs_error; /* not after a gap */

  uint64_t rate = rate_between(first_t, first_m, t, m);
  uint64_t end = e->tsc0 + e->valid;
  uint64_t v = end > t ? end : t;
  uint64_t want = m + (uint64_t)(((unsigned __int128)(v - t) * rate) >> 32);
  /* continuous at the end of the old line; after a gap without clock
     reads (no value past that end was handed out) CLOCK_MONOTONIC itself,
     rather than the old line extrapolated over the gap */
  uint64_t ns0 = line_at(e->tsc0, e->ns0, e->mult, end);
  if (v > end && want > ns0) ns0 = want;
  uint64_t interval = ticks_of(interval_ns(n, m - first_m), rate);
  /* slope that meets CLOCK_MONOTONIC at the end of the next interval */
  int64_t error = (int64_t)(ns0 - want);
  int64_t corr = error > 0 ? (int64_t)(((unsigned __int128)error << 32) / interval)
                           : -(int64_t)(((unsigned __int128)-error << 32) / interval);
  int64_t limit = (int64_t)(rate >> MAX_SLEW_SHIFT);
  if (corr > limit) corr = limit;
  if (corr < -limit) corr = -limit;
  uint64_t mult = (uint64_t)((int64_t)rate - corr);
  if (error < -STEP_NS) { /* far behind (a TSC or clock jump): catch up at once */
    ns0 = want;
    mult = rate;
  }
  epochs[n] = (pm_clock_epoch){.tsc0 = v,
                               .ns0 = ns0,
                               .mult = mult,
                               .prev_tsc0 = e->tsc0,
                               .prev_ns0 = e->ns0,
                               .prev_mult = e->mult};
  publish(n, interval);
}

uint64_t pm_tsc_convert(uint64_t t) {
  const pm_clock_epoch *e = atomic_load_explicit(&pm_clock_current, memory_order_acquire);
  if (t < e->tsc0) { /* the previous line, up to where this one starts */
    uint64_t ns = line_at(e->prev_tsc0, e->prev_ns0, e->prev_mult, t);
    return ns < e->ns0 ? ns : e->ns0;
  }
  if (t - e->tsc0 >= e->valid) t = e->tsc0 + e->valid; /* the next epoch is late */
  return line_at(e->tsc0, e->ns0, e->mult, t);
}

unsigned pm_tsc_epochs(void) { return atomic_load_explicit(&nepochs, memory_order_relaxed); }
uint64_t pm_tsc_max_error(void) { return max_error; }
