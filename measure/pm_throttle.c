/* pm_throttle.c -- the counters of user functions per location (see
   pm_throttle.h) and what the end of the run says from them: the
   functions switched off (measure.log, stderr once, throttled.txt in the
   experiment directory for pomp-analyze and pomp-report) and, when a few
   functions made most of the events, the filter advice. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pm_defs.h"
#include "pm_throttle.h"
#include "pm_trace.h"
#include "pomp_util.h"

pm_throttle_rule pm_throttle = PM_THROTTLE_DEFAULT;

/* The advice: the top ADVICE_TOP functions made at least half of the
   user-function events, and there were more than ADVICE_EVENTS of them. */
#define ADVICE_TOP 5
#define ADVICE_EVENTS 1000000u
/* Names on the one stderr line (measure.log has them all). */
#define STDERR_NAMES 5

struct pm_fn_stats *pm_fn_stats_grow(pm_location *l, uint32_t r) {
  struct pm_fn_stats *old = l->fn_stats;
  uint32_t cap = old ? old->cap : 64;
  while (cap <= r) cap *= 2;
  struct pm_fn_stats *s = calloc(1, sizeof *s + (size_t)cap * sizeof s->fn[0]);
  if (!s) return NULL;
  s->cap = cap;
  s->limit = pm_throttle.calls ? pm_throttle.calls : UINT64_MAX;
  s->older = old;
  for (uint32_t i = 0; old && i < old->cap; i++) {
    pm_fn_stat *from = &old->fn[i], *to = &s->fn[i];
    atomic_init(&to->entered, atomic_load_explicit(&from->entered, memory_order_relaxed));
    atomic_init(&to->finished, atomic_load_explicit(&from->finished, memory_order_relaxed));
    atomic_init(&to->time_sum, atomic_load_explicit(&from->time_sum, memory_order_relaxed));
  }
  l->fn_stats = s; /* read by other threads only once recording stopped */
  return s;
}

uint64_t pm_fn_calls(uint32_t r) {
  uint64_t n = 0;
  for (uint32_t t = 0; t < PM_MAX_LOCATIONS; t++) {
    pm_location *l = pm_location_get(t);
    struct pm_fn_stats *s = l ? l->fn_stats : NULL;
    if (s && r < s->cap) n += atomic_load_explicit(&s->fn[r].entered, memory_order_relaxed);
  }
  return n;
}

/* ------------------------------------------------------------ the report */

typedef struct fn_count {
  uint32_t region;
  uint64_t calls, dropped;
} fn_count;

typedef struct fn_list {
  fn_count *v;
  size_t n, cap;
} fn_list;

static void add_throttled(uint32_t region, uint64_t dropped, void *arg) {
  fn_list *list = arg;
  fn_count c = {region, pm_fn_calls(region), dropped};
  PU_PUSH(list->v, list->n, list->cap, c);
}

static const char *region_name(uint32_t r) {
  pm_region_def d; /* a copy: the table may move; the name does not */
  return pm_region_get(r, &d) == 0 && d.name ? d.name : "?";
}

/* A loop region (pm_loop.c): throttled like a function, but no filter
   file can name it. */
static int is_loop(uint32_t r) {
  pm_region_def d;
  return pm_region_get(r, &d) == 0 && d.role == OTF2_REGION_ROLE_LOOP;
}

/* "a (N calls not recorded), b (...)" of up to max entries into buf. */
static void throttled_names(const fn_list *list, size_t max, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < list->n && i < max && used < size; i++)
    used +=
        (size_t)snprintf(buf + used, size - used, "%s%s (%llu calls not recorded)", i ? ", " : "",
                         region_name(list->v[i].region), (unsigned long long)list->v[i].dropped);
  if (list->n > max && used < size) snprintf(buf + used, size - used, ", ...");
}

/* throttled.txt: one line per function, each one write(2) with O_APPEND,
   so the ranks of an MPI run share the file (docs/TRACE.md). */
static void write_throttled_file(const fn_list *list) {
  char path[sizeof pm_experiment_dir + 16];
  snprintf(path, sizeof path, "%s/throttled.txt", pm_experiment_dir);
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    pm_warn("%s: cannot write the list of throttled functions", path);
    return;
  }
  if (pm_rank == 0) {
    char head[160];
    int n = snprintf(head, sizeof head,
                     "# pomp throttled functions 1: rank, calls recorded, calls not "
                     "recorded, function (POMP_THROTTLE=%llu,%llu)\n",
                     (unsigned long long)pm_throttle.calls,
                     (unsigned long long)(pm_throttle.ns / 1000));
    if (write(fd, head, (size_t)n) != n) pm_warn("%s: write failed", path);
  }
  for (size_t i = 0; i < list->n; i++) {
    char line[1200];
    int n = snprintf(line, sizeof line, "%d\t%llu\t%llu\t%s\n", pm_rank,
                     (unsigned long long)list->v[i].calls, (unsigned long long)list->v[i].dropped,
                     region_name(list->v[i].region));
    if (n >= (int)sizeof line) n = (int)sizeof line - 1, line[n - 1] = '\n';
    if (write(fd, line, (size_t)n) != n) pm_warn("%s: write failed", path);
  }
  close(fd);
}

static int by_dropped_descending(const void *pa, const void *pb) {
  const fn_count *a = pa, *b = pb;
  return a->dropped < b->dropped ? 1 : a->dropped > b->dropped ? -1 : (a->region > b->region);
}

static void report_throttled(void) {
  fn_list list = {0};
  pm_user_each_throttled(add_throttled, &list);
  pm_loop_each_throttled(add_throttled, &list);
  if (!list.n) return;
  qsort(list.v, list.n, sizeof *list.v, by_dropped_descending); /* the costliest first */
  uint64_t dropped = 0;
  for (size_t i = 0; i < list.n; i++) {
    dropped += list.v[i].dropped;
    pm_log("throttled: %s: %llu calls recorded, then %llu not recorded",
           region_name(list.v[i].region), (unsigned long long)list.v[i].calls,
           (unsigned long long)list.v[i].dropped);
  }
  char names[700];
  throttled_names(&list, STDERR_NAMES, names, sizeof names);
  /* stderr from rank 0 only (every rank's measure.log lines have it) */
  size_t loops = 0;
  for (size_t i = 0; i < list.n; i++) loops += (size_t)is_loop(list.v[i].region);
  char what[80];
  size_t functions = list.n - loops;
  if (!loops) snprintf(what, sizeof what, "%zu function%s", functions, functions > 1 ? "s" : "");
  else
    snprintf(what, sizeof what, "%zu function%s and %zu loop%s", functions,
             functions == 1 ? "" : "s", loops, loops > 1 ? "s" : "");
  pm_info(pm_rank == 0 ? 0 : 3,
          "%s switched off (POMP_THROTTLE: %llu calls of under %.3g us each), "
          "%llu calls not recorded: %s",
          what, (unsigned long long)pm_throttle.calls, (double)pm_throttle.ns / 1e3,
          (unsigned long long)dropped, names);
  write_throttled_file(&list);
  free(list.v);
}

static int by_calls_descending(const void *pa, const void *pb) {
  const fn_count *a = pa, *b = pb;
  return a->calls < b->calls ? 1 : a->calls > b->calls ? -1 : (a->region > b->region);
}

/* The functions that made the events, when a few made most of them. */
static void report_heavy_functions(void) {
  uint32_t nregions = pm_region_count();
  fn_list list = {0};
  uint64_t events = 0;
  for (uint32_t r = 0; r < nregions; r++) {
    fn_count c = {r, pm_fn_calls(r) * 2, 0}; /* Enter + Leave */
    if (!c.calls || is_loop(r)) continue;
    events += c.calls;
    PU_PUSH(list.v, list.n, list.cap, c);
  }
  if (!list.n) return;
  qsort(list.v, list.n, sizeof *list.v, by_calls_descending);
  uint64_t top = 0;
  size_t ntop = list.n < ADVICE_TOP ? list.n : ADVICE_TOP;
  for (size_t i = 0; i < ntop; i++) top += list.v[i].calls;
  if (events > ADVICE_EVENTS && top * 2 >= events) {
    char names[600] = "";
    size_t used = 0;
    for (size_t i = 0; i < ntop && used < sizeof names; i++)
      used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                               region_name(list.v[i].region));
    pm_info(pm_rank == 0 ? 0 : 3,
            "%zu function%s made %.0f%% of the %llu user-function events (%s); to filter "
            "them: pomp-report score %s --suggest-filter",
            ntop, ntop > 1 ? "s" : "", 100.0 * (double)top / (double)events,
            (unsigned long long)events, names, pm_experiment_dir);
  }
  free(list.v);
}

void pm_throttle_report(void) {
  report_throttled();
  report_heavy_functions();
}
