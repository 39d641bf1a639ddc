/* bench_measure.c -- what libpomp costs, against baselines measured in the
 * same run (bench/README.md):
 *   - one recorded event (an instrumented empty function: Enter + Leave;
 *     a POMP_Begin/End pair) vs one clock_gettime(CLOCK_MONOTONIC);
 *   - a function rejected by the POMP_FILTER file, per call, and one
 *     switched off by throttling (POMP_THROTTLE) during the run;
 *   - trace bytes per Enter/Leave vs OTF2's own minimum for the record;
 *   - two threads recording at once (no shared lock on the event path).
 *   - each with the clock read through clock_gettime (POMP_CLOCK=monotonic)
 *     and through the TSC (POMP_CLOCK=tsc), and in profile mode
 *     (POMP_MODE=profile, TSC): the program runs itself as a child per
 *     configuration, in turn, 5 times each; a child keeps the best of 3
 *     rounds, the parent the best child (the machine is shared).
 * usage: bench-measure [CALLS]   (default 50000 calls per run)
 * With the default, every event fits in POMP_BUFFER (64M): the event cost
 * is the recording alone, writing to disk is timed apart at finalisation.
 */
#include <dirent.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <otf2/OTF2_EventSizeEstimator.h>

#include "pomp.h"
#include "bench_clock.h"

#define ROUNDS 3   /* per child */
#define CHILDREN 5 /* per clock */

void call_recorded(long n);
void call_filtered(long n);
void call_throttled(long n);
void call_plain(long n);

static OMPRegDescr region = {"region", "bench", 0, "bench_measure.c", 1, 1, 2, 2, {0}, 0};

static void clock_loop(long n) {
  struct timespec ts;
  for (long i = 0; i < n; i++) {
    clock_gettime(CLOCK_MONOTONIC, &ts);
    __asm__ volatile("" ::"r"(ts.tv_nsec));
  }
}

static void pomp_pairs(long n) {
  for (long i = 0; i < n; i++) {
    POMP_Begin(&region);
    POMP_End(&region);
  }
}

/* ns per unit of work of one run of f over n units. */
static double run_ns(void (*f)(long), long n) {
  double t0 = bench_now();
  f(n);
  return (bench_now() - t0) * 1e9 / (double)n;
}

static double min2(double a, double b) { return a < b ? a : b; }

static long threads_n;
static void two_threads(long n) {
  (void)n;
#pragma omp parallel num_threads(2)
  call_recorded(threads_n);
}

static long long event_file_bytes(const char *dir) {
  char path[4200];
  snprintf(path, sizeof path, "%s/traces", dir);
  DIR *d = opendir(path);
  long long total = 0;
  struct dirent *e;
  while (d && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 4, ".evt")) continue;
    char file[4500];
    struct stat st;
    snprintf(file, sizeof file, "%s/%s", path, e->d_name);
    if (stat(file, &st) == 0) total += st.st_size;
  }
  if (d) closedir(d);
  return total;
}

/* What one child measures. */
typedef struct figures {
  double clock_ns, fn_ns, pair_ns, filtered_ns, plain_ns, both_ns, per_event, write_s;
  double throttled_ns;
} figures;

/* The "clock: ..." line of the child's measure.log: the clock it used. */
static void clock_line(const char *dir, char *out, size_t size) {
  char path[300], line[1024];
  snprintf(path, sizeof path, "%s/measure.log", dir);
  snprintf(out, size, "unknown");
  FILE *f = fopen(path, "r");
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "clock: ", 7) && strstr(line, " (")) {
      *strstr(line, " (") = '\0';
      snprintf(out, size, "%.150s", line + 7);
      break;
    }
  if (f) fclose(f);
}

/* The child: every figure once per round, the best of each kept (a quiet
   moment of the shared machine serves all figures alike); prints them on
   one line. */
static int child(long n) {
  char dir[256], filter[300], used[200];
  snprintf(dir, sizeof dir, "/tmp/bench-measure-%ld", (long)getpid());
  snprintf(filter, sizeof filter, "%s.filter", dir);
  FILE *f = fopen(filter, "w");
  fputs("exclude filtered_*\n", f);
  fclose(f);
  setenv("POMP_EXPERIMENT", dir, 1);
  setenv("POMP_FILTER", filter, 1);
  setenv("POMP_BUFFER", "64M", 1);
  /* throttled_fn is switched off once recorded more often than
     recorded_fn ever is on one thread (6n: 3 rounds of 2 loops) */
  long throttle_calls = 6 * n + 1;
  char throttle[64];
  snprintf(throttle, sizeof throttle, "%ld,10", throttle_calls);
  setenv("POMP_THROTTLE", throttle, 1);

  POMP_Init();
  threads_n = n;
  call_throttled(throttle_calls);
  figures g = {1e30, 1e30, 1e30, 1e30, 1e30, 1e30, 0, 0, 1e30};
  for (int r = 0; r < ROUNDS; r++) {
    g.clock_ns = min2(g.clock_ns, run_ns(clock_loop, n));
    g.fn_ns = min2(g.fn_ns, run_ns(call_recorded, n) / 2); /* Enter + Leave */
    g.pair_ns = min2(g.pair_ns, run_ns(pomp_pairs, n) / 2);
    g.filtered_ns = min2(g.filtered_ns, run_ns(call_filtered, n)); /* a whole call */
    g.throttled_ns = min2(g.throttled_ns, run_ns(call_throttled, n));
    g.plain_ns = min2(g.plain_ns, run_ns(call_plain, n));
    g.both_ns = min2(g.both_ns, run_ns(two_threads, n) / 2); /* per thread and event */
  }
  double t0 = bench_now();
  POMP_Finalize();
  g.write_s = bench_now() - t0;

  /* recorded per round: n functions, n pairs, n functions on each of 2
     threads; and throttled_fn's calls before it was switched off */
  long long events = 2LL * ROUNDS * n * 2 + 2LL * ROUNDS * n * 2 + 2LL * throttle_calls;
  g.per_event = (double)event_file_bytes(dir) / (double)events;
  clock_line(dir, used, sizeof used);
  printf("%f %f %f %f %f %f %f %f %f %s\n", g.clock_ns, g.fn_ns, g.pair_ns, g.filtered_ns,
         g.plain_ns, g.both_ns, g.per_event, g.write_s, g.throttled_ns, used);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, filter);
  return system(cmd) == 0 ? 0 : 1;
}

/* Runs a child with the environment env ("POMP_CLOCK=tsc ...") and keeps
   the best of each figure. */
static int run_child(const char *self, long n, const char *env, figures *best, char *used,
                     size_t size) {
  char cmd[1200], line[1024];
  /* the children's own end-of-run lines (throttled_fn, the advice) are expected */
  snprintf(cmd, sizeof cmd, "%s '%s' --child %ld 2>/dev/null", env, self, n);
  FILE *p = popen(cmd, "r");
  figures g;
  int got = 0, at = 0;
  if (p && fgets(line, sizeof line, p))
    got = sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %n", &g.clock_ns, &g.fn_ns, &g.pair_ns,
                 &g.filtered_ns, &g.plain_ns, &g.both_ns, &g.per_event, &g.write_s, &g.throttled_ns,
                 &at) == 9;
  if (p && pclose(p) != 0) got = 0;
  if (!got) return fprintf(stderr, "bench-measure: the child with %s failed\n", env), -1;
  line[strcspn(line, "\n")] = '\0';
  snprintf(used, size, "%s", line + at);
  best->clock_ns = min2(best->clock_ns, g.clock_ns);
  best->fn_ns = min2(best->fn_ns, g.fn_ns);
  best->pair_ns = min2(best->pair_ns, g.pair_ns);
  best->filtered_ns = min2(best->filtered_ns, g.filtered_ns);
  best->throttled_ns = min2(best->throttled_ns, g.throttled_ns);
  best->plain_ns = min2(best->plain_ns, g.plain_ns);
  best->both_ns = min2(best->both_ns, g.both_ns);
  best->per_event = g.per_event;
  best->write_s = best->write_s ? min2(best->write_s, g.write_s) : g.write_s;
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "--child")) return child(atol(argv[2]));
  long n = argc > 1 ? atol(argv[1]) : 50000;
  const char *clocks[3] = {"monotonic", "tsc", "tsc, profile"};
  const char *envs[3] = {"POMP_CLOCK=monotonic", "POMP_CLOCK=tsc",
                         "POMP_CLOCK=tsc POMP_MODE=profile"};
  figures best[3] = {{1e30, 1e30, 1e30, 1e30, 1e30, 1e30, 0, 0, 1e30},
                     {1e30, 1e30, 1e30, 1e30, 1e30, 1e30, 0, 0, 1e30},
                     {1e30, 1e30, 1e30, 1e30, 1e30, 1e30, 0, 0, 1e30}};
  char used[3][200];
  for (int r = 0; r < CHILDREN; r++)
    for (int c = 0; c < 3; c++)
      if (run_child(argv[0], n, envs[c], &best[c], used[c], sizeof used[c]) != 0) return 1;

  OTF2_EventSizeEstimator *est = OTF2_EventSizeEstimator_New();
  OTF2_EventSizeEstimator_SetNumberOfRegionDefinitions(est, 4);
  double otf2_min = (double)OTF2_EventSizeEstimator_GetSizeOfTimestamp(est) +
                    (double)OTF2_EventSizeEstimator_GetSizeOfEnterEvent(est);
  OTF2_EventSizeEstimator_Delete(est);

  double clock_ns = min2(best[0].clock_ns, best[1].clock_ns);
  double filtered_ns = min2(best[0].filtered_ns, best[1].filtered_ns);
  double plain_ns = min2(best[0].plain_ns, best[1].plain_ns);
  double throttled_ns = min2(best[0].throttled_ns, best[1].throttled_ns);
  printf("clock_gettime(CLOCK_MONOTONIC): %.1f ns per call (baseline)\n", clock_ns);
  for (int c = 0; c < 2; c++) {
    const figures *g = &best[c];
    printf("POMP_CLOCK=%s reads: %s\n", clocks[c], used[c]);
    printf("recorded event, instrumented function, %s: %.1f ns per event\n", clocks[c], g->fn_ns);
    printf("recorded event, %s, vs clock_gettime: %.2fx (target <= 3x)\n", clocks[c],
           g->fn_ns / clock_ns);
    printf("recorded event, POMP_Begin/End, %s: %.1f ns per event\n", clocks[c], g->pair_ns);
    printf("POMP_Begin/End event, %s, vs clock_gettime: %.2fx (target <= 3x)\n", clocks[c],
           g->pair_ns / clock_ns);
    printf("recorded event, 2 threads at once, %s: %.1f ns per event and thread\n", clocks[c],
           g->both_ns);
    printf("2 threads vs 1 thread per event, %s: %.2fx\n", clocks[c], g->both_ns / g->fn_ns);
  }
  printf("recorded event, tsc vs monotonic: %.2fx\n", best[1].fn_ns / best[0].fn_ns);
  const figures *pr = &best[2];
  printf("profiled event (POMP_MODE=profile, tsc), instrumented function: %.1f ns per event\n",
         pr->fn_ns);
  printf("profiled event vs traced event, tsc: %.2fx (POMP_Begin/End %.2fx, 2 threads %.2fx)\n",
         pr->fn_ns / best[1].fn_ns, pr->pair_ns / best[1].pair_ns, pr->both_ns / best[1].both_ns);
  printf("profile writing at finalisation: %.3f s\n", pr->write_s);
  printf("empty function without instrumentation: %.2f ns per call (baseline)\n", plain_ns);
  printf("filtered-out function: %.2f ns per call (target <= 5 ns)\n", filtered_ns);
  printf("filtered-out function, instrumentation only: %.2f ns per call\n", filtered_ns - plain_ns);
  printf("throttled function (switched off during the run): %.2f ns per call\n", throttled_ns);
  printf("throttled vs filtered-out function: %.2fx (target 1x)\n", throttled_ns / filtered_ns);
  printf("trace bytes per Enter/Leave: %.2f B (OTF2 minimum %.0f B)\n", best[1].per_event,
         otf2_min);
  printf("trace size vs OTF2 minimum: %.2fx (target <= 1.5x)\n", best[1].per_event / otf2_min);
  printf("trace writing at finalisation: %.3f s for %lld events\n", best[1].write_s,
         2LL * ROUNDS * n * 2 + 2LL * ROUNDS * n * 2 + 2LL * (6 * n + 1));
  return 0;
}
