/* pm_config.c -- the POMP_ environment variables (one table, so that the
   parser, measure.log and the documentation cannot disagree). */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pm_profile.h" /* pm_snapshot_ns */
#include "pm_runtime.h"
#include "pm_throttle.h"

#define PM_MIN_BUFFER (256u * 1024u) /* OTF2_CHUNK_SIZE_MIN */

pm_config pm_cfg;

enum kind { BOOL, SIZE, TEXT, LEVEL, SIGNAL, CLOCK, THROTTLE, MODE, CLOCKSYNC, SECONDS };

/* The forms each kind accepts, as the warning about a bad value says them
   (one wording for every variable of a kind). */
static const char *const accepted[] = {
    [BOOL] = "1, 0, yes, no, true, false, on, off",
    [SIZE] = "bytes with an optional k, M or G (512k, 16M, 1G), from 256k to this machine's "
             "memory",
    [TEXT] = "any text",
    [LEVEL] = "0, 1, 2",
    [SIGNAL] = "0 (off), a real-time signal number, SIGRTMIN+n",
    [CLOCK] = "auto, tsc, monotonic",
    [THROTTLE] = "CALLS,US (100000,10; US may have a fraction), 0 or off",
    [MODE] = "trace, profile",
    [CLOCKSYNC] = "auto, always",
    [SECONDS] = "seconds from 0.01 to 3600 (2, 0.5), 0 or off",
};

static const struct var {
  const char *name;
  enum kind kind;
  const char *deflt;
  const char *meaning;
} vars[] = {
    {"POMP_ENABLE", BOOL, "1", "measure at all (0 = the program runs unobserved)"},
    {"POMP_EXPERIMENT", TEXT, "pomp_<app>_<ranks>x<threads>",
     "experiment directory to create (never overwritten)"},
    {"POMP_FILTER", TEXT, "", "filter file for user functions (include/exclude globs)"},
    {"POMP_BUFFER", SIZE, "16M",
     "event memory per thread (k/M/G suffix, >= 256k); when full it is flushed"},
    {"POMP_FLUSH_INTERVAL", SECONDS, "10",
     "seconds after which a thread's events still in memory are copied to disk (its tail "
     "file), so a run killed with SIGKILL keeps all but the last ones (0 = only full buffers)"},
    {"POMP_FUNCTIONS", BOOL, "1", "record functions compiled with -finstrument-functions"},
    {"POMP_SIGNALS", BOOL, "1",
     "on SIGINT/SIGTERM/SIGABRT/SIGSEGV/SIGBUS/SIGFPE/SIGILL write the trace (MPI: the "
     "rank's fragment) before dying"},
    {"POMP_PEER_SIGNAL", SIGNAL, "SIGRTMIN+3",
     "signal a dying MPI rank sends the ranks on its node so they write their complete "
     "fragments (number, SIGRTMIN+n; 0 = off)"},
    {"POMP_THROTTLE", THROTTLE, "100000,10",
     "CALLS,US: a user function is switched off once a thread finished CALLS calls of it "
     "averaging under US microseconds (0 = never)"},
    {"POMP_CLOCK", CLOCK, "auto",
     "events' clock: tsc (converted to CLOCK_MONOTONIC ns), monotonic (clock_gettime), "
     "auto (the TSC where it is invariant and the kernel's clocksource)"},
    {"POMP_MODE", MODE, "trace",
     "trace (OTF2 events, analysed by pomp-analyze) or profile (a call-path profile "
     "written as report.pomp at the end; no trace, no wait states)"},
    {"POMP_SNAPSHOT", SECONDS, "0",
     "profile mode: write the profile so far as snapshot.pomp every SECONDS (MPI: each rank "
     "its snapshot.RANK.pomp); 0 = never"},
    {"POMP_IO", BOOL, "1",
     "record POSIX, stdio and MPI-IO calls of objects linked by pomp-cc (libpomp-io, "
     "libpomp-mpi)"},
    {"POMP_VERBOSE", LEVEL, "0", "0 errors only, 1 experiment summary on stderr, 2 debug"},
    /* read by libpomp-mpi (mpiwrap/mw_clocksync.c); checked here with the others */
    {"POMP_MPI_CLOCKSYNC", CLOCKSYNC, "auto",
     "always: ping-pong clock offsets even on rank 0's host (auto: only on other hosts)"},
};

static int parse_bool(const char *s, int *out) {
  static const char *yes[] = {"1", "yes", "true", "on"};
  static const char *no[] = {"0", "no", "false", "off"};
  for (size_t i = 0; i < 4; i++) {
    if (!strcasecmp(s, yes[i])) return *out = 1, 0;
    if (!strcasecmp(s, no[i])) return *out = 0, 0;
  }
  return -1;
}

/* "16M", "300k", "1G", "4096": bytes. */
static int parse_size(const char *s, uint64_t *out) {
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || errno || *s == '-') return -1;
  uint64_t mult = 1;
  switch (tolower((unsigned char)*end)) {
  case '\0': break;
  case 'k':
    mult = 1ull << 10;
    end++;
    break;
  case 'm':
    mult = 1ull << 20;
    end++;
    break;
  case 'g':
    mult = 1ull << 30;
    end++;
    break;
  default: return -1;
  }
  if (*end || v > UINT64_MAX / mult) return -1;
  *out = v * mult;
  return 0;
}

/* The machine's memory in bytes (a buffer beyond it would never fill, so
   never flush); UINT64_MAX when unknown. */
static uint64_t physical_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
}

/* "0", "38", "SIGRTMIN+3": a real-time signal number, or 0 (off). Real-time
   only: their default action never stops or dumps, and nothing else in an
   MPI program uses them by convention. */
static int parse_signal(const char *s, int *out) {
  char *end;
  long v;
  if (!strncasecmp(s, "SIGRTMIN+", 9)) {
    errno = 0;
    v = strtol(s + 9, &end, 10);
    if (end == s + 9 || *end || errno || v < 0 || v > SIGRTMAX - SIGRTMIN) return -1;
    return *out = SIGRTMIN + (int)v, 0;
  }
  errno = 0;
  v = strtol(s, &end, 10);
  if (end == s || *end || errno) return -1;
  if (v != 0 && (v < SIGRTMIN || v > SIGRTMAX)) return -1;
  return *out = (int)v, 0;
}

/* One of n names (case-insensitive): its index into *out. */
static int parse_choice(const char *s, const char *const *names, int n, int *out) {
  for (int i = 0; i < n; i++)
    if (!strcasecmp(s, names[i])) return *out = i, 0;
  return -1;
}

/* "100000,10" (calls, microseconds; a fraction allowed: "50000,2.5"), or
   "0"/"off": never. */
static int parse_throttle(const char *s, pm_throttle_rule *out) {
  int b;
  if (!parse_bool(s, &b) && !b) return *out = (pm_throttle_rule){0, 0}, 0;
  errno = 0;
  char *end;
  unsigned long long calls = strtoull(s, &end, 10);
  if (end == s || *end != ',' || errno || *s == '-' || !calls) return -1;
  const char *us_text = end + 1;
  double us = strtod(us_text, &end);
  if (end == us_text || *end || !(us >= 0 && us <= 1e6)) return -1;
  *out = (pm_throttle_rule){calls, (uint64_t)(us * 1e3 + 0.5)};
  return 0;
}

/* "10", "0.5": seconds as ns; "0"/"off": never. */
static int parse_seconds(const char *s, uint64_t *ns) {
  int b;
  if (!parse_bool(s, &b) && !b) return *ns = 0, 0;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno || !(v >= 0.01 && v <= 3600)) return -1;
  *ns = (uint64_t)(v * 1e9 + 0.5);
  return 0;
}

static int parse_clock(const char *s, int *out) {
  static const char *const names[] = {"auto", "tsc", "monotonic"}; /* enum pm_clock_source */
  return parse_choice(s, names, 3, out);
}

static int parse_mode(const char *s, int *out) {
  static const char *const names[] = {"trace", "profile"}; /* enum pm_mode */
  return parse_choice(s, names, 2, out);
}

static void apply(const struct var *v, const char *s) {
  int b = 0;
  uint64_t n = 0;
  bool ok = true;
  if (!strcmp(v->name, "POMP_EXPERIMENT")) pm_cfg.experiment = *s ? s : NULL;
  else if (!strcmp(v->name, "POMP_FILTER")) pm_cfg.filter = *s ? s : NULL;
  else if (!strcmp(v->name, "POMP_SNAPSHOT")) ok = parse_seconds(s, &pm_snapshot_ns) == 0;
  else if (v->kind == SIZE) {
    ok = parse_size(s, &n) == 0 && n <= physical_memory();
    if (ok && n < PM_MIN_BUFFER) {
      pm_warn("POMP_BUFFER=%s is below the minimum; using 256k", s);
      n = PM_MIN_BUFFER;
    }
    if (ok) pm_cfg.buffer = n;
  } else if (v->kind == SIGNAL) {
    ok = parse_signal(s, &pm_cfg.peer_signal) == 0;
  } else if (v->kind == THROTTLE) {
    ok = parse_throttle(s, &pm_throttle) == 0;
  } else if (v->kind == SECONDS) {
    ok = parse_seconds(s, &pm_cfg.flush_interval) == 0;
  } else if (v->kind == CLOCK) {
    ok = parse_clock(s, &pm_cfg.clock) == 0;
  } else if (v->kind == MODE) {
    ok = parse_mode(s, &pm_cfg.mode) == 0;
  } else if (v->kind == CLOCKSYNC) {
    static const char *const names[] = {"auto", "always"};
    int which;
    ok = parse_choice(s, names, 2, &which) == 0;
  } else if (v->kind == LEVEL) {
    ok = s[0] >= '0' && s[0] <= '2' && !s[1];
    if (ok) pm_cfg.verbose = s[0] - '0';
  } else {
    ok = parse_bool(s, &b) == 0;
    if (ok && !strcmp(v->name, "POMP_ENABLE")) pm_cfg.enable = b;
    if (ok && !strcmp(v->name, "POMP_FUNCTIONS")) pm_cfg.functions = b;
    if (ok && !strcmp(v->name, "POMP_SIGNALS")) pm_cfg.signals = b;
    if (ok && !strcmp(v->name, "POMP_IO")) pm_cfg.io = b;
  }
  if (!ok)
    pm_warn("%s=%s is not valid (accepted: %s); using the default %s", v->name, s,
            accepted[v->kind], v->deflt);
}

void pm_config_load(void) {
  pm_cfg = (pm_config){.buffer = 16u << 20,
                       .flush_interval = PM_FLUSH_INTERVAL_DEFAULT,
                       .enable = 1,
                       .functions = 1,
                       .signals = 1,
                       .io = 1,
                       .peer_signal = SIGRTMIN + 3,
                       .clock = PM_CLOCK_AUTO};
  pm_throttle = PM_THROTTLE_DEFAULT;
  pm_snapshot_ns = 0;
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
    const char *s = getenv(vars[i].name);
    if (s) apply(&vars[i], s);
  }
  /* a profile leaves no fragments: nothing for a dying rank's peers to write */
  if (pm_cfg.mode == PM_MODE_PROFILE) pm_cfg.peer_signal = 0;
  if (pm_snapshot_ns && pm_cfg.mode != PM_MODE_PROFILE) {
    pm_warn("POMP_SNAPSHOT needs POMP_MODE=profile (a trace is analysed after the run); ignored");
    pm_snapshot_ns = 0;
  }
}

/* The width of the name column of measure.log: the longest name, so that
   every value starts in one column (POMP_FLUSH_INTERVAL is 19 wide). */
static int longest_name(void) {
  size_t width = 0;
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
    if (strlen(vars[i].name) > width) width = strlen(vars[i].name);
  return (int)width;
}

void pm_config_log(void) {
  pm_log("configuration (environment variables):");
  const int width = longest_name();
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
    const char *s = getenv(vars[i].name);
    pm_log("  %-*s %-30s %s (default %s)", width, vars[i].name, s ? s : "(unset)", vars[i].meaning,
           vars[i].deflt);
  }
}
