/* pm_user.c -- functions compiled with -finstrument-functions.
 *
 * Every function address is resolved once (symbol name, filter verdict,
 * region) and cached in a lock-free open-addressing table: a hit costs a
 * hash, one or two loads and a compare, so a filtered-out function costs
 * almost nothing after its first call. Insertions happen under one mutex
 * (symbol lookup is not thread-safe anyway) and publish the region before
 * the key, so readers never see a key without its value.
 *
 * In front of it, a small direct-mapped table holds only addresses of
 * filtered-out functions: a filtered call then costs a shift, a mask and
 * one compare (7 instructions per hook against 17 through the hash
 * table, counted with callgrind). It is global, not per thread: it is
 * written only under the mutex, when a function is first resolved, so it
 * stays in every core's cache unmodified, and reading it needs no TLS
 * offset. A slot is taken by the first filtered function that maps to it
 * and kept (a colliding one goes through the hash table as before).
 * Its hits are counted per location and slot (one add, in the Enter hook):
 * the calls not recorded of a function switched off during the run.
 *
 * Throttling (pm_throttle.h): a recorded function whose counters say so
 * is switched off by putting it into that table (taking the slot from a
 * filtered-out function if need be) and marking its cached verdict
 * filtered: from then on it costs what a filtered-out function does. A
 * call of it in flight on another thread (or an outer recursive call) has
 * its Leave skipped, so the stack discipline of pm_event.c writes it when
 * the caller's Leave is recorded: the trace stays balanced.
 */
#include <fnmatch.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "pm_location.h"
#include "pm_throttle.h"
#include "pm_user.h"
#include "pomp_util.h"

#define CACHE_BITS 16
#define CACHE_SIZE (1u << CACHE_BITS)
#define FILTERED UINT32_MAX   /* not recorded */
#define MISS (UINT32_MAX - 1) /* not resolved yet */

typedef struct slot {
  _Atomic uintptr_t fn;
  _Atomic uint32_t region;
} slot;

static slot cache[CACHE_SIZE];

/* PM_FAST_SLOTS: 8 KiB, a loop's filtered callees stay in L1 */
static _Atomic uintptr_t filtered_fast[PM_FAST_SLOTS];

static inline size_t fast_index(uintptr_t fn) { return (fn >> 4) & (PM_FAST_SLOTS - 1); }
static inline _Atomic uintptr_t *filtered_slot(uintptr_t fn) {
  return &filtered_fast[fast_index(fn)];
}
static _Atomic size_t cached; /* written under resolve_lock */
#define CACHE_FULL (CACHE_SIZE / 4 * 3)
static pthread_mutex_t resolve_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int resolving PM_TLS; /* instrumented code called while resolving */

/* Functions never recorded: compiler-outlined OpenMP bodies (they run
   before POMP_Parallel_begin binds the thread) and opari's registration. */
static const char *const builtin_excludes[] = {"*._omp_fn.*", "*._omp_cpyfn.*", "*.omp_outlined*",
                                               "POMP_*", "pomp_*"};

/* Functions are 16-byte aligned in most builds: shifting the alignment
   away spreads them well, and costs less than a multiplicative hash. */
static inline size_t hash(uintptr_t fn) {
  return (size_t)((fn >> 4) ^ (fn >> (4 + CACHE_BITS))) & (CACHE_SIZE - 1);
}

__attribute__((noinline)) static uint32_t lookup_probe(uintptr_t fn, size_t i) {
  for (;; i = (i + 1) & (CACHE_SIZE - 1)) {
    uintptr_t k = atomic_load_explicit(&cache[i].fn, memory_order_acquire);
    if (k == fn) return atomic_load_explicit(&cache[i].region, memory_order_relaxed);
    if (!k) return MISS;
  }
}

/* The first probe inline (the common case), the rest out of line. */
static inline uint32_t lookup(uintptr_t fn) {
  size_t i = hash(fn);
  if (PM_LIKELY(atomic_load_explicit(&cache[i].fn, memory_order_acquire) == fn))
    return atomic_load_explicit(&cache[i].region, memory_order_relaxed);
  return lookup_probe(fn, i);
}

/* The functions switched off (under resolve_lock). A function that took
   its fast slot remembers the slot's count at that moment: the calls it
   dropped are the count's growth since. */
typedef struct throttled {
  uintptr_t fn;
  uint32_t region;
  int owns_slot;
  uint64_t dropped_before;
} throttled;
static throttled *off;
static size_t noff, cap_off;

/* Under resolve_lock. */
static int switched_off(uintptr_t fn, uint32_t region) {
  for (size_t i = 0; i < noff; i++)
    if (off[i].fn == fn || (region != FILTERED && off[i].region == region)) return 1;
  return 0;
}

static int excluded_by_default(const char *name) {
  for (size_t i = 0; i < sizeof builtin_excludes / sizeof *builtin_excludes; i++)
    if (!fnmatch(builtin_excludes[i], name, 0)) return 1;
  return 0;
}

/* Resolves fn and caches the verdict (the table is never more than 3/4
   full, so lookups always end at an empty slot). */
static uint32_t resolve(uintptr_t fn) {
  if (resolving || !pm_running()) return FILTERED; /* not cached: may start later */
  resolving = 1;
  pthread_mutex_lock(&resolve_lock);
  uint32_t region = lookup(fn);
  if (region == MISS) {
    region = FILTERED;
    if (pm_cfg.functions) {
      char name[1024];
      const char *file;
      uint32_t line;
      pm_symbol_lookup(fn, name, sizeof name, &file, &line);
      if (!excluded_by_default(name) && pm_filter_accepts(name))
        region = pm_region_define(name, file, line, line, OTF2_PARADIGM_COMPILER,
                                  OTF2_REGION_ROLE_FUNCTION);
      if (noff && switched_off(fn, region)) region = FILTERED; /* cache full: not cached */
    }
    if (region == FILTERED && !atomic_load_explicit(filtered_slot(fn), memory_order_relaxed))
      atomic_store_explicit(filtered_slot(fn), fn, memory_order_relaxed);
    if (atomic_load_explicit(&cached, memory_order_relaxed) < CACHE_FULL) {
      size_t i = hash(fn);
      while (atomic_load_explicit(&cache[i].fn, memory_order_relaxed))
        i = (i + 1) & (CACHE_SIZE - 1);
      atomic_store_explicit(&cache[i].region, region, memory_order_relaxed);
      atomic_store_explicit(&cache[i].fn, fn, memory_order_release);
      atomic_fetch_add(&cached, 1);
    } else if (atomic_fetch_add(&cached, 1) == CACHE_FULL) {
      pm_warn("more than %u instrumented functions: the rest are resolved at every call",
              CACHE_FULL);
    }
  }
  pthread_mutex_unlock(&resolve_lock);
  resolving = 0;
  return region;
}

int pm_user_functions_init(void) { return pm_cfg.filter ? pm_filter_load(pm_cfg.filter) : 0; }

/* ------------------------------------------------------------ throttling */

static uint64_t dropped_in_slot(size_t slot) {
  uint64_t n = 0;
  for (uint32_t t = 0; t < PM_MAX_LOCATIONS; t++) {
    pm_location *l = pm_location_get(t);
    if (l) n += atomic_load_explicit(&l->dropped[slot], memory_order_relaxed);
  }
  return n;
}

/* Under resolve_lock: the cached verdict of fn becomes "filtered". */
static void cache_filtered(uintptr_t fn) {
  for (size_t i = hash(fn), k = 0; k < CACHE_SIZE; i = (i + 1) & (CACHE_SIZE - 1), k++) {
    uintptr_t key = atomic_load_explicit(&cache[i].fn, memory_order_relaxed);
    if (!key) return; /* not cached (table full): resolve() says filtered */
    if (key == fn) {
      atomic_store_explicit(&cache[i].region, FILTERED, memory_order_relaxed);
      return;
    }
  }
}

/* fn (region r) made its last recorded call: switch it off for every
   thread. Its slot in the fast table is taken unless another switched-off
   function holds it (that one keeps it; fn then goes through the cache). */
__attribute__((noinline)) static void switch_off(uintptr_t fn, uint32_t r) {
  pthread_mutex_lock(&resolve_lock);
  if (!switched_off(fn, FILTERED)) {
    size_t slot = fast_index(fn);
    uintptr_t holder = atomic_load_explicit(&filtered_fast[slot], memory_order_relaxed);
    throttled t = {fn, r, !holder || !switched_off(holder, FILTERED), 0};
    if (t.owns_slot) {
      t.dropped_before = dropped_in_slot(slot);
      atomic_store_explicit(&filtered_fast[slot], fn, memory_order_relaxed);
    }
    atomic_thread_fence(memory_order_release); /* a thread seeing the verdict sees the slot */
    cache_filtered(fn);
    PU_PUSH(off, noff, cap_off, t);
  }
  pthread_mutex_unlock(&resolve_lock);
}

void pm_user_each_throttled(void (*each)(uint32_t region, uint64_t dropped, void *arg), void *arg) {
  pthread_mutex_lock(&resolve_lock);
  for (size_t i = 0; i < noff; i++) {
    int first = 1; /* one line per region: its addresses summed */
    for (size_t k = 0; k < i; k++) first &= off[k].region != off[i].region;
    if (!first) continue;
    uint64_t dropped = 0;
    for (size_t k = i; k < noff; k++)
      if (off[k].region == off[i].region && off[k].owns_slot)
        dropped += dropped_in_slot(fast_index(off[k].fn)) - off[k].dropped_before;
    each(off[i].region, dropped, arg);
  }
  pthread_mutex_unlock(&resolve_lock);
}

/* The hooks: the common case (a cached verdict) stays in a prologue-free
   fast path; everything else is a tail call. */
__attribute__((noinline)) static void enter_slow(uintptr_t fn, uint32_t r) {
  if (r == MISS && (r = resolve(fn)) == FILTERED) return;
  pm_location *l = pm_self();
  if (!l) return;
  uint64_t t = pm_clock();
  pm_fn_entered(l, r, t); /* first: the record is then a tail call */
  pm_ev_enter(l, r, t);
}

__attribute__((noinline)) static void exit_slow(uintptr_t fn, uint32_t r) {
  if (r == MISS) { /* entered before the measurement started, or cache full */
    if (atomic_load_explicit(&cached, memory_order_relaxed) < CACHE_FULL) return;
    if ((r = resolve(fn)) == FILTERED) return;
  }
  pm_location *l = pm_tls_location;
  if (!l) return;
  uint64_t t = pm_clock();
  if (PM_LIKELY(!pm_fn_left(l, r, t))) { /* first: the record is then a tail call */
    pm_ev_leave(l, r, t);
    return;
  }
  pm_ev_leave(l, r, t); /* the last call recorded */
  switch_off(fn, r);
}

__attribute__((noinline)) static void enter_lookup(uintptr_t fn) {
  uint32_t r = lookup(fn);
  if (r != FILTERED) {
    enter_slow(fn, r);
    return;
  }
  /* switched off between the fast-table check and the lookup: counted
     like the calls the fast table drops (switch_off's fence) */
  atomic_thread_fence(memory_order_acquire);
  size_t slot = fast_index(fn);
  pm_location *l = pm_tls_location;
  if (l && atomic_load_explicit(&filtered_fast[slot], memory_order_relaxed) == fn)
    pm_counter_add(&l->dropped[slot], 1);
}

__attribute__((noinline)) static void exit_lookup(uintptr_t fn) {
  uint32_t r = lookup(fn);
  if (r != FILTERED) exit_slow(fn, r);
}

void __cyg_profile_func_enter(void *fn, void *site) {
  (void)site;
  size_t slot = fast_index((uintptr_t)fn);
  if (PM_LIKELY(atomic_load_explicit(&filtered_fast[slot], memory_order_relaxed) ==
                (uintptr_t)fn)) {
    pm_location *l = pm_tls_location;
    if (l) pm_counter_add(&l->dropped[slot], 1);
    return;
  }
  enter_lookup((uintptr_t)fn);
}

void __cyg_profile_func_exit(void *fn, void *site) {
  (void)site;
  if (PM_LIKELY(atomic_load_explicit(filtered_slot((uintptr_t)fn), memory_order_relaxed) ==
                (uintptr_t)fn))
    return;
  exit_lookup((uintptr_t)fn);
}
