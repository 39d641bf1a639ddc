/*
 * pm_clock.h -- the events' clock: nanoseconds of CLOCK_MONOTONIC, read
 * either through clock_gettime or, where it is trustworthy, through the
 * TSC converted to those nanoseconds (pm_clock.c chooses, pm_tsc.c
 * converts). Internal to measure/.
 *
 * Why: every record reads the clock once, and clock_gettime costs ~23 ns
 * here against ~8 ns for rdtsc. The trace keeps CLOCK_MONOTONIC
 * nanoseconds (docs/TRACE.md): MPI clock offsets, ClockProperties and the
 * fragments' (monotonic, realtime) pairs rely on it.
 *
 * The conversion is piecewise linear in the ticks, one line per epoch:
 *   ns = ns0 + ((ticks - tsc0) * mult) >> 32
 * An epoch is re-anchored against CLOCK_MONOTONIC once `refresh` ticks
 * have passed (1/8 of the run's age: 10 ms at first, at most 1 s, so the
 * drift left by the rate's error stays about constant): the new line starts
 * where the old one ends (continuous, so timestamps never decrease) and
 * its slope is set to cancel the error measured at the anchor over the
 * next interval (a slew, like NTP's; never a step back). Epochs live in
 * a static array and are never reused, so a thread preempted between
 * loading the epoch and reading its fields still reads a valid line.
 * Every thread converts with the same function of the ticks.
 */
#ifndef PM_CLOCK_H
#define PM_CLOCK_H

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#define PM_HAVE_TSC 1
#else
#define PM_HAVE_TSC 0
#endif

/* One line of the conversion; the hot path reads only the first four
   fields (one cache line with the rest). */
typedef struct pm_clock_epoch {
  uint64_t tsc0, ns0;                      /* the line passes (tsc0, ns0) ... */
  uint64_t mult;                           /* ... with slope mult / 2^32 ns per tick */
  uint64_t refresh;                        /* ticks after tsc0 from which a new epoch is made */
  uint64_t valid;                          /* ticks after tsc0 up to which this line is used */
  uint64_t prev_tsc0, prev_ns0, prev_mult; /* the line before tsc0 */
} pm_clock_epoch;

/* The current epoch. Monotonic mode (and before pm_clock_init): an epoch
   with refresh 0, which pm_clock() tests before it reads the TSC. */
extern const pm_clock_epoch *_Atomic pm_clock_current __attribute__((visibility("hidden")));

enum pm_clock_source { PM_CLOCK_AUTO, PM_CLOCK_TSC, PM_CLOCK_MONOTONIC };

static inline uint64_t pm_clock_monotonic(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Ticks outside [tsc0, tsc0 + refresh) of the current epoch, or the
   monotonic mode. */
uint64_t pm_clock_slow(uint64_t ticks);

/* Nanoseconds of CLOCK_MONOTONIC, never decreasing on one thread. */
static inline uint64_t pm_clock(void) {
#if PM_HAVE_TSC
  const pm_clock_epoch *e = atomic_load_explicit(&pm_clock_current, memory_order_acquire);
  if (__builtin_expect(e->refresh == 0, 0)) return pm_clock_monotonic(); /* before rdtsc */
  uint64_t t = __rdtsc();
  uint64_t d = t - e->tsc0; /* t < tsc0 wraps around: slow path too */
  if (__builtin_expect(d < e->refresh, 1))
    return e->ns0 + (uint64_t)(((unsigned __int128)d * e->mult) >> 32);
  return pm_clock_slow(t);
#else
  return pm_clock_monotonic();
#endif
}

/* Chooses the source (POMP_CLOCK: pm_cfg.clock) and, for the TSC,
   calibrates it (two reference pairs 2 ms apart); logs the choice and
   why. Called once when the measurement begins. */
void pm_clock_init(int requested);
/* In a child made by fork(): the anchoring flag may have been held by a
   thread that does not exist here. */
void pm_clock_after_fork(void);
/* Logs how the TSC's conversion fared: epochs, largest error at an anchor. */
void pm_clock_report(void);
/* The source in use: PM_CLOCK_TSC or PM_CLOCK_MONOTONIC. */
int pm_clock_source(void);

/* ----------------------------------------- the decision (pure, tested) */

/* What the machine says about its TSC. */
typedef struct pm_tsc_facts {
  int x86_64;           /* built for x86-64 (rdtsc exists) */
  int invariant_cpuid;  /* cpuid 0x80000007 EDX bit 8 */
  int cpuinfo_flags;    /* /proc/cpuinfo: constant_tsc and nonstop_tsc */
  char clocksource[32]; /* the kernel's current clocksource ("" unknown) */
} pm_tsc_facts;

/* The source to use for `requested` given `f`; *why says why (static). */
int pm_clock_decide(int requested, const pm_tsc_facts *f, const char **why);

/* --------------------------------------- the TSC conversion (pm_tsc.c) */

/* Starts the conversion from two reference pairs (ticks, ns). */
void pm_tsc_start(uint64_t t0, uint64_t m0, uint64_t t1, uint64_t m1);
/* A new epoch from the reference pair (t, m) taken after the current
   epoch's refresh point (the caller holds the anchor lock). */
void pm_tsc_anchor(uint64_t t, uint64_t m);
/* Converts ticks with the epochs (no re-anchoring); the same function as
   pm_clock() for every thread. */
uint64_t pm_tsc_convert(uint64_t ticks);
/* Number of epochs made so far (1 after pm_tsc_start). */
unsigned pm_tsc_epochs(void);
/* Largest |error| in ns measured at an anchor so far, before correcting
   it (the drift left over one interval). */
uint64_t pm_tsc_max_error(void);

#endif /* PM_CLOCK_H */
