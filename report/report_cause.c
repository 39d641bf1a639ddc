/* report_cause.c -- the root cause of a wait state in one sentence, from
   the delay costs (docs/PROPERTIES.md, "Delay costs"), for the summaries
   of pomp-analyze and pomp-report stat. */
#include <stdio.h>
#include <string.h>

#include "report_internal.h"

/* Each wait-state metric and the delay costs that explain it. */
static const struct {
  const char *wait, *short_term, *long_term;
  int local; /* the delay lies beside the wait: in the same construct */
} causes[] = {
    {"mpi_barrier_wait", "delay_barrier", "delay_barrier_longterm", 0},
    {"mpi_wait_nxn", "delay_n2n", "delay_n2n_longterm", 0},
    {"mpi_latesender", "delay_latesender", "delay_latesender_longterm", 0},
    {"mpi_latereceiver", "delay_latereceiver", "delay_latereceiver_longterm", 0},
    {"mpi_earlyreduce", "delay_n21", "delay_n21_longterm", 0},
    {"mpi_latebroadcast", "delay_12n", "delay_12n_longterm", 0},
    {"omp_ebarrier_wait", "delay_ompbarrier", "delay_ompbarrier_longterm", 1},
    {"omp_ibarrier_wait", "delay_ompbarrier", "delay_ompbarrier_longterm", 1},
    {"omp_idle_threads", "delay_ompidle", "delay_ompidle_longterm", 0},
};

/* The call path with the largest value of metric over all locations.
   Start-up call paths (MPI_Init and what runs inside it) are left out, as
   the summaries leave them out of the problems: threads idle while the
   master starts MPI are not what a user can change. */
static int32_t worst_cnode(const pomp_report *r, int32_t metric, double *value) {
  int32_t worst = -1;
  *value = 0;
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++) {
    if (pomp_report_cnode_is_startup(r, c)) continue;
    double v = pomp_report_row_sum(r, metric, c);
    if (v > *value) worst = c, *value = v;
  }
  return worst;
}

/* "rank 0", or "rank 0 thread 2" for a thread other than the first. */
static void location_label(const pomp_report *r, int32_t location, char *buf, size_t size) {
  int32_t id = pomp_report_location_sysnode(r, location);
  const pomp_sysnode *s = id >= 0 ? pomp_report_sysnode(r, id) : NULL;
  if (!s) snprintf(buf, size, "location %d", (int)location);
  else if (s->thread > 0) snprintf(buf, size, "rank %d thread %d", (int)s->rank, (int)s->thread);
  else snprintf(buf, size, "rank %d", (int)s->rank);
}

/* " on rank 2" when one location holds most of the wait at call path c
   (a point-to-point wait), else "" (a collective's waiters). */
static void waiting_location(const pomp_report *r, int32_t wait, int32_t c, double waited,
                             char *buf, size_t size) {
  int32_t most = -1;
  double top = 0;
  for (int32_t l = 0; l < pomp_report_num_locations(r); l++) {
    double v = pomp_report_value(r, wait, c, l);
    if (v > top) top = v, most = l;
  }
  char loc[64];
  buf[0] = 0;
  if (most < 0 || top <= 0.5 * waited) return;
  location_label(r, most, loc, sizeof loc);
  snprintf(buf, size, " on %s", loc);
}

/* 1 when call path c lies below call path above. */
static int below(const pomp_report *r, int32_t c, int32_t above) {
  for (; c >= 0; c = pomp_report_cnode(r, c)->parent)
    if (c == above) return 1;
  return 0;
}

int pomp_report_wait_cause(const pomp_report *r, int32_t wait, char *buf, size_t size) {
  if (size) buf[0] = 0;
  const pomp_metric *m = pomp_report_metric(r, wait);
  for (size_t i = 0; m && i < sizeof causes / sizeof causes[0]; i++) {
    if (strcmp(m->name, causes[i].wait)) continue;
    int32_t st = pomp_report_find_metric(r, causes[i].short_term);
    int32_t lt = pomp_report_find_metric(r, causes[i].long_term);
    if (st < 0 || lt < 0) return 0;
    double waited;
    int32_t at = worst_cnode(r, wait, &waited);
    if (at < 0) return 0;
    /* an OpenMP barrier's delays lie in its team's construct, beside it
       (the parent of the barrier): other barriers' delays are not its */
    int32_t within = causes[i].local ? pomp_report_cnode(r, at)->parent : -1;
    /* the (call path, location) with the largest delay cost */
    int32_t cause = -1, where = -1;
    double best = 0, all = 0;
    for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++) {
      if (within >= 0 && !below(r, c, within)) continue;
      if (pomp_report_cnode_is_startup(r, c)) continue; /* as above */
      for (int32_t l = 0; l < pomp_report_num_locations(r); l++) {
        double v = pomp_report_value(r, st, c, l) + pomp_report_value(r, lt, c, l);
        all += v;
        if (v > best) best = v, cause = c, where = l;
      }
    }
    if (cause < 0) return 0;
    /* the cause by its call path, as the wait: its last region alone
       ("simulate_work") would not say which of the code's calls of it */
    char path[160], cause_path[160], loc[64], waiter[72];
    pomp_report_callpath_label(r, at, ";", 100, path, sizeof path);
    pomp_report_callpath_label(r, cause, ";", 100, cause_path, sizeof cause_path);
    location_label(r, where, loc, sizeof loc);
    waiting_location(r, wait, at, waited, waiter, sizeof waiter);
    snprintf(buf, size, "%.3g s %s at %s%s, caused by %s on %s (%.0f%% of its delay costs)", waited,
             m->display, path, waiter, cause_path, loc, 100 * best / all);
    return 1;
  }
  return 0;
}
