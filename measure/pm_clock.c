/* pm_clock.c -- which clock the events read (POMP_CLOCK), the TSC's
   calibration and the slow path of pm_clock() (pm_clock.h).

   The TSC is used only where it ticks at one rate on every core whatever
   the power state (invariant TSC: cpuid 0x80000007 EDX bit 8, which Linux
   shows as the flags constant_tsc + nonstop_tsc) and where the kernel
   itself keeps time with it (current clocksource "tsc"): the kernel
   checks at boot, and at run time through its watchdog, that the TSCs of
   all cores agree, and falls back to another clocksource (e.g. kvm-clock,
   hpet) when they do not. So a TSC the kernel trusts is synchronised
   across cores, and threads on different cores read one clock. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pm_clock.h"
#include "pm_runtime.h"

#if PM_HAVE_TSC
#include <cpuid.h>
#endif

#define CALIBRATION_NS 2000000 /* between the first two reference pairs */
#define PAIR_TRIES 5

static int source = PM_CLOCK_MONOTONIC;
static _Atomic int anchoring; /* 1 while one thread re-anchors */

int pm_clock_decide(int requested, const pm_tsc_facts *f, const char **why) {
  if (requested == PM_CLOCK_MONOTONIC) return *why = "POMP_CLOCK=monotonic", PM_CLOCK_MONOTONIC;
  if (!f->x86_64) return *why = "no TSC on this architecture", PM_CLOCK_MONOTONIC;
  int invariant = f->invariant_cpuid || f->cpuinfo_flags;
  int kernel = !strcmp(f->clocksource, "tsc");
  if (requested == PM_CLOCK_TSC) {
    if (!invariant) return *why = "POMP_CLOCK=tsc although the TSC is not invariant", PM_CLOCK_TSC;
    if (!kernel)
      return *why = "POMP_CLOCK=tsc although the kernel's clocksource is not tsc", PM_CLOCK_TSC;
    return *why = "POMP_CLOCK=tsc", PM_CLOCK_TSC;
  }
  if (!invariant)
    return *why = "the TSC is not invariant (cpuid, /proc/cpuinfo)", PM_CLOCK_MONOTONIC;
  if (!kernel)
    return *why = "the kernel does not keep time with the TSC (clocksource is not tsc)",
           PM_CLOCK_MONOTONIC;
  return *why = "invariant TSC, and the kernel's clocksource is tsc", PM_CLOCK_TSC;
}

/* The first line of `path` without its newline ("" when unreadable). */
static void read_line(const char *path, char *buf, size_t size) {
  buf[0] = '\0';
  FILE *f = fopen(path, "r");
  if (!f) return;
  if (!fgets(buf, (int)size, f)) buf[0] = '\0';
  fclose(f);
  buf[strcspn(buf, "\n")] = '\0';
}

/* Whether the first "flags" line of /proc/cpuinfo has both words. */
static int cpuinfo_has_invariant_tsc(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return 0;
  char line[8192];
  int ok = 0;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "flags", 5)) continue;
    ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
    break;
  }
  fclose(f);
  return ok;
}

static void tsc_facts(pm_tsc_facts *f) {
  memset(f, 0, sizeof *f);
#if PM_HAVE_TSC
  unsigned a, b, c, d;
  f->x86_64 = 1;
  /* clang's __get_cpuid_max returns int, gcc's unsigned */
  if ((unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000007u &&
      __get_cpuid(0x80000007u, &a, &b, &c, &d))
    f->invariant_cpuid = (d >> 8) & 1;
#endif
  f->cpuinfo_flags = cpuinfo_has_invariant_tsc();
  read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", f->clocksource,
            sizeof f->clocksource);
}

#if PM_HAVE_TSC
/* (ticks, ns) read at one moment: the pair with the shortest rdtsc
   bracket around clock_gettime of a few, so a preemption in between
   costs nothing; the error is half that bracket (~15 ns). */
static void reference_pair(uint64_t *t, uint64_t *m) {
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < PAIR_TRIES; i++) {
    uint64_t a = __rdtsc();
    uint64_t ns = pm_clock_monotonic();
    uint64_t b = __rdtsc();
    if (b - a < best) {
      best = b - a;
      *t = a + (b - a) / 2;
      *m = ns;
    }
  }
}
#endif

void pm_clock_init(int requested) {
  pm_tsc_facts f;
  const char *why;
  tsc_facts(&f);
  int chosen = pm_clock_decide(requested, &f, &why);
#if PM_HAVE_TSC
  if (chosen == PM_CLOCK_TSC) {
    uint64_t t0, m0, t1, m1;
    reference_pair(&t0, &m0);
    struct timespec pause = {0, CALIBRATION_NS};
    nanosleep(&pause, NULL);
    reference_pair(&t1, &m1);
    if (t1 > t0 && m1 > m0) {
      pm_tsc_start(t0, m0, t1, m1);
      source = PM_CLOCK_TSC;
    } else {
      chosen = PM_CLOCK_MONOTONIC;
      why = "the TSC did not advance during calibration";
    }
  }
#endif
  if (chosen == PM_CLOCK_TSC)
    pm_log("clock: TSC converted to CLOCK_MONOTONIC ns (%s; cpuid invariant %d, cpuinfo "
           "constant_tsc+nonstop_tsc %d, clocksource '%s')",
           why, f.invariant_cpuid, f.cpuinfo_flags, f.clocksource);
  else pm_log("clock: CLOCK_MONOTONIC through clock_gettime (%s)", why);
}

int pm_clock_source(void) { return source; }

void pm_clock_after_fork(void) { atomic_store(&anchoring, 0); }

void pm_clock_report(void) {
  if (source == PM_CLOCK_TSC)
    pm_log("clock: %u epochs; largest difference to CLOCK_MONOTONIC found at a re-anchoring "
           "%llu ns",
           pm_tsc_epochs(), (unsigned long long)pm_tsc_max_error());
}

/* A thread that finds another one re-anchoring waits for it (a few clock
   reads) instead of converting with the old line: past the old line's
   validity that conversion is flat, so after a gap (threads waking
   together from a long sleep) it would hand out a time up to the gap too
   early and make a barrier's partner seem to wait. The wait is bounded:
   the anchoring thread may be preempted, or be the thread a signal
   handler interrupted, and then the flat value is the answer. */
#if PM_HAVE_TSC
static void wait_for_anchor(void) {
  for (unsigned spins = 0; spins < (1u << 16); spins++) {
    if (!atomic_load_explicit(&anchoring, memory_order_acquire)) return;
    _mm_pause();
  }
}
#endif

uint64_t pm_clock_slow(uint64_t ticks) {
#if PM_HAVE_TSC
  if (source != PM_CLOCK_TSC) return pm_clock_monotonic();
  const pm_clock_epoch *e = atomic_load_explicit(&pm_clock_current, memory_order_acquire);
  /* one thread re-anchors; the others wait for it, then convert */
  if (ticks >= e->tsc0) {
    if (!atomic_exchange_explicit(&anchoring, 1, memory_order_acquire)) {
      uint64_t t, m;
      reference_pair(&t, &m);
      pm_tsc_anchor(t, m);
      atomic_store_explicit(&anchoring, 0, memory_order_release);
    } else {
      wait_for_anchor();
    }
  }
  return pm_tsc_convert(ticks);
#else
  (void)ticks;
  return pm_clock_monotonic();
#endif
}
