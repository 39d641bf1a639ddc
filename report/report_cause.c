/* report_cause.c -- the root cause of a wait state in one sentence, from
   the delay costs (docs/PROPERTIES.md, "Delay costs"), for the summaries
   of pomp-analyze and pomp-report stat. */
#include <stdio.h>
#include <string.h>

#include "pomp_util.h"
#include "report_internal.h"

/* Each wait-state metric and the delay costs that explain it. */
static const struct {
  const char *wait, *short_term, *long_term;
  int local;   /* the delay lies beside the wait: in the same parallel region */
  int process; /* the delay lies on the waiting thread's own process */
} causes[] = {
    {"mpi_barrier_wait", "delay_barrier", "delay_barrier_longterm", 0, 0},
    {"mpi_wait_nxn", "delay_n2n", "delay_n2n_longterm", 0, 0},
    {"mpi_latesender", "delay_latesender", "delay_latesender_longterm", 0, 0},
    /* its sub-property: the Late Sender delays cover both (as scout's) */
    {"mpi_latesender_wo", "delay_latesender", "delay_latesender_longterm", 0, 0},
    {"mpi_latereceiver", "delay_latereceiver", "delay_latereceiver_longterm", 0, 0},
    {"mpi_earlyreduce", "delay_n21", "delay_n21_longterm", 0, 0},
    {"mpi_latebroadcast", "delay_12n", "delay_12n_longterm", 0, 0},
    {"omp_ebarrier_wait", "delay_ompbarrier", "delay_ompbarrier_longterm", 1, 1},
    {"omp_ibarrier_wait", "delay_ompbarrier", "delay_ompbarrier_longterm", 1, 1},
    {"omp_idle_threads", "delay_ompidle", "delay_ompidle_longterm", 0, 1},
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
   (a point-to-point wait), else "" (a collective's waiters); returns
   that location, or -1. */
static int32_t waiting_location(const pomp_report *r, int32_t wait, int32_t c, double waited,
                                char *buf, size_t size) {
  int32_t most = -1;
  double top = 0;
  for (int32_t l = 0; l < pomp_report_num_locations(r); l++) {
    double v = pomp_report_value(r, wait, c, l);
    if (v > top) top = v, most = l;
  }
  char loc[64];
  buf[0] = 0;
  if (most < 0 || top <= 0.5 * waited) return -1;
  location_label(r, most, loc, sizeof loc);
  snprintf(buf, size, " on %s", loc);
  return most;
}

/* The MPI rank of location l (-1 when unknown). */
static int32_t rank_of(const pomp_report *r, int32_t l) {
  const pomp_sysnode *s = pomp_report_sysnode(r, pomp_report_location_sysnode(r, l));
  return s ? s->rank : -1;
}

/* The parallel region that holds call path c (c's nearest ancestor with
   the role "parallel"), else c's parent: the barrier of a worksharing
   loop sits below the loop, but its team's delays also lie in the
   region's own time before the loop (the master waking the team). */
static int32_t enclosing_parallel(const pomp_report *r, int32_t c) {
  for (int32_t p = pomp_report_cnode(r, c)->parent; p >= 0; p = pomp_report_cnode(r, p)->parent) {
    const pomp_region *reg = pomp_report_region(r, pomp_report_cnode(r, p)->region);
    if (reg && reg->role && !strcmp(reg->role, "parallel")) return p;
  }
  return pomp_report_cnode(r, c)->parent;
}

/* 1 when call path c lies below call path above. */
static int below(const pomp_report *r, int32_t c, int32_t above) {
  for (; c >= 0; c = pomp_report_cnode(r, c)->parent)
    if (c == above) return 1;
  return 0;
}

/* The wait-state metrics (those of the table but idleness, which is no
   wait of the location it is on: the master runs on) and their
   sub-metrics: a location with time in one at a call path waited there. */
enum { MAX_WAIT_METRICS = 32 };
typedef struct {
  int32_t ids[MAX_WAIT_METRICS];
  int openmp[MAX_WAIT_METRICS]; /* it waits for another thread, not rank */
  int n;
} wait_metrics;

static int wait_metric_kind(const pomp_report *r, int32_t m) {
  for (; m >= 0; m = pomp_report_metric(r, m)->parent) {
    const char *name = pomp_report_metric(r, m)->name;
    if (!strcmp(name, "omp_idle_threads")) return 0;
    for (size_t i = 0; i < sizeof causes / sizeof causes[0]; i++)
      if (!strcmp(name, causes[i].wait)) return strncmp(name, "omp_", 4) ? 1 : 2;
  }
  return 0;
}

static void find_wait_metrics(const pomp_report *r, wait_metrics *w) {
  w->n = 0;
  for (int32_t m = 0; m < pomp_report_num_metrics(r) && w->n < MAX_WAIT_METRICS; m++) {
    int kind = wait_metric_kind(r, m);
    if (kind) w->ids[w->n] = m, w->openmp[w->n++] = kind == 2;
  }
}

/* "rank" or "thread" when location l waited at call path c (by the
   larger of its MPI and OpenMP waits there), else NULL. */
static const char *waited_for(const pomp_report *r, const wait_metrics *w, int32_t c, int32_t l) {
  double mpi = 0, omp = 0;
  for (int i = 0; i < w->n; i++) {
    double v = pomp_report_value(r, w->ids[i], c, l);
    if (w->openmp[i]) omp += v;
    else mpi += v;
  }
  if (mpi <= 0 && omp <= 0) return NULL;
  return omp > mpi ? "thread" : "rank";
}

/* The share of a kind's delay costs the computation at the root of the
   chains must hold to be named. */
#define ROOT_SHARE 0.10

/* 1 when call path c ends in computation: no MPI call, no OpenMP barrier
   (a rank's time in MPI_Barrier after the last arrival is no root a user
   can remove), no measurement region. */
static int computes(const pomp_report *r, int32_t c) {
  const pomp_region *reg = pomp_report_region(r, pomp_report_cnode(r, c)->region);
  if (!reg || !reg->paradigm) return 1;
  if (!strcmp(reg->paradigm, "mpi") || !strcmp(reg->paradigm, "measurement")) return 0;
  return strcmp(reg->paradigm, "openmp") || !reg->role || !strstr(reg->role, "barrier");
}

/* The delay costs of one wait-state metric over the call paths that may
   hold them: the (call path, location) with the largest short- plus
   long-term cost, and the one with the largest long-term cost among the
   computing call paths (computes) of locations that did not wait there
   (the computation that chains of waits lead back to). */
typedef struct {
  int32_t cause, where;
  double cause_cost, all; /* all: of the locations the cause may lie on */
  int32_t root, root_where;
  double root_cost, root_all; /* root_all: of every location */
} delay_search;

/* Only the call paths below within (when not -1); the cause only on the
   locations of rank (when not -1), the root on any: the chain of waits
   behind a thread's idleness (its master waiting in MPI) leads to other
   ranks. */
static void search_delays(const pomp_report *r, int32_t st, int32_t lt, int32_t within,
                          int32_t rank, const wait_metrics *w, delay_search *d) {
  memset(d, 0, sizeof *d);
  d->cause = d->root = -1;
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++) {
    if (within >= 0 && !below(r, c, within)) continue;
    if (pomp_report_cnode_is_startup(r, c)) continue; /* as in worst_cnode */
    for (int32_t l = 0; l < pomp_report_num_locations(r); l++) {
      double longterm = pomp_report_value(r, lt, c, l);
      double v = pomp_report_value(r, st, c, l) + longterm;
      d->root_all += v;
      if (rank < 0 || rank_of(r, l) == rank) {
        d->all += v;
        if (v > d->cause_cost) d->cause_cost = v, d->cause = c, d->where = l;
      }
      if (longterm > d->root_cost && computes(r, c) && !waited_for(r, w, c, l))
        d->root_cost = longterm, d->root = c, d->root_where = l;
    }
  }
}

/* "PATH on rank 1" */
static void site_label(const pomp_report *r, int32_t c, int32_t l, char *buf, size_t size) {
  char path[160], loc[64];
  pomp_report_callpath_label(r, c, ";", 100, path, sizeof path);
  location_label(r, l, loc, sizeof loc);
  snprintf(buf, size, "%s on %s", path, loc);
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
    /* an OpenMP barrier's delays lie in its team's parallel region:
       other regions' barriers' delays are not its */
    int32_t within = causes[i].local ? enclosing_parallel(r, at) : -1;
    /* the cause by its call path, as the wait: its last region alone
       ("simulate_work") would not say which of the code's calls of it */
    char path[160], cause[300], waiter[72], root[280] = "";
    pomp_report_callpath_label(r, at, ";", 100, path, sizeof path);
    int32_t waiting = waiting_location(r, wait, at, waited, waiter, sizeof waiter);
    /* a thread waits for its own process's threads: a thread named as the
       waiter has its cause on its process, not on another rank's */
    int32_t rank = causes[i].process && waiting >= 0 ? rank_of(r, waiting) : -1;
    wait_metrics waits;
    find_wait_metrics(r, &waits);
    delay_search d;
    search_delays(r, st, lt, within, rank, &waits, &d);
    if (d.cause < 0) return 0;
    /* A cause that is itself a wait (the late rank's MPI_Waitall, where
       it waited for its other neighbour) is no root: say that it waited,
       and name the computation the long-term costs (waits passed back
       through waits) end on, when it holds ROOT_SHARE of them: a smaller
       share named as "root cause" would mislead more than it tells. */
    const char *other = waited_for(r, &waits, d.cause, d.where);
    if (other) {
      char loc[64], cause_path[160];
      location_label(r, d.where, loc, sizeof loc);
      pomp_report_callpath_label(r, d.cause, ";", 100, cause_path, sizeof cause_path);
      snprintf(cause, sizeof cause, "%s waiting in %s for another %s", loc, cause_path, other);
      if (d.root >= 0 && d.root_cost >= ROOT_SHARE * d.root_all) {
        char site[240];
        site_label(r, d.root, d.root_where, site, sizeof site);
        snprintf(root, sizeof root, "; root cause: %s, long-term (%.0f%%)", site,
                 100 * d.root_cost / d.root_all);
      } else {
        /* the chains end in waits too: imbalance or noise spread over the
           ranks, no computation to name */
        snprintf(root, sizeof root, "; no computation at the root holds %.0f%%", 100 * ROOT_SHARE);
      }
    } else {
      site_label(r, d.cause, d.where, cause, sizeof cause);
    }
    char seconds[32]; /* as stat's columns and pomp-tui show them: "31.9 ms", not "0.0319 s" */
    pu_format_seconds(seconds, sizeof seconds, waited);
    snprintf(buf, size, "%s %s at %s%s, caused by %s (%.0f%% of its delay costs)%s", seconds,
             m->display, path, waiter, cause, 100 * d.cause_cost / d.all, root);
    return 1;
  }
  return 0;
}
