/* report_pop.c -- the POP efficiencies of a run or of a call-tree sub-tree
   (docs/PROPERTIES.md "POP efficiencies"), shared by pomp-report pop and
   pomp-tui.  Everything comes from the per-location sums of four metrics
   over the sub-tree, read in one pass over the row index:
     time  (metric-inclusive)  -> runtime = the largest location's time;
     comp                      -> useful computation per location;
     mpi   (metric-inclusive)  -> time outside MPI of each master thread;
     critical_path (incl.)     -> the ideal runtime, its computation: per
                                  (call path, location) min(critical_path,
                                  comp), summed; at least the largest
                                  location's comp.
   Only the public API is used, and report_fail for the messages. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "report_internal.h"

static const pomp_report_pop_info pop_info[POMP_REPORT_POP_COUNT] = {
    [POMP_REPORT_POP_PARALLEL] = {"parallel_efficiency", "Parallel efficiency", 0},
    [POMP_REPORT_POP_LOAD_BALANCE] = {"load_balance", "Load balance", 1},
    [POMP_REPORT_POP_COMMUNICATION] = {"communication_efficiency", "Communication efficiency", 1},
    [POMP_REPORT_POP_SERIALISATION] = {"serialisation_efficiency", "Serialisation efficiency", 2},
    [POMP_REPORT_POP_TRANSFER] = {"transfer_efficiency", "Transfer efficiency", 2},
    [POMP_REPORT_POP_MPI_PARALLEL] = {"mpi_parallel_efficiency", "MPI parallel efficiency", 1},
    [POMP_REPORT_POP_MPI_LOAD_BALANCE] = {"mpi_load_balance", "MPI load balance", 2},
    [POMP_REPORT_POP_MPI_COMMUNICATION] = {"mpi_communication_efficiency",
                                           "MPI communication efficiency", 2},
    [POMP_REPORT_POP_OMP_PARALLEL] = {"omp_parallel_efficiency", "OpenMP parallel efficiency", 1},
    [POMP_REPORT_POP_OMP_LOAD_BALANCE] = {"omp_load_balance", "OpenMP load balance", 2},
    [POMP_REPORT_POP_OMP_COMMUNICATION] = {"omp_communication_efficiency",
                                           "OpenMP communication efficiency", 2},
};

const pomp_report_pop_info *pomp_report_pop_describe(pomp_report_pop_kind k) {
  return (unsigned)k < POMP_REPORT_POP_COUNT ? &pop_info[k] : NULL;
}

size_t pomp_report_pop_line(const pomp_report_pop *p, pomp_report_pop_kind k, char *buf,
                            size_t size) {
  const pomp_report_pop_info *info = pomp_report_pop_describe(k);
  if (!info) return (size_t)snprintf(buf, size, "%s", "");
  int indent = 2 * info->depth;
  if (p->why[k])
    return (size_t)snprintf(buf, size, "%*s%-*s %7s (%s)", indent, "", 36 - indent, info->display,
                            "n/a", p->why[k]);
  return (size_t)snprintf(buf, size, "%*s%-*s %7.2f %%", indent, "", 36 - indent, info->display,
                          100 * p->value[k]);
}

/* Why a value is missing (pomp-report prints "n/a (WHY)"). */
static const char why_no_critical_path[] = "needs the critical path: pomp-analyze a trace";
static const char why_off_critical_path[] = "the critical path does not pass here";
static const char why_no_critical_computation[] = "no computation on the critical path here";
static const char why_no_time[] = "no time spent here";
static const char why_no_useful[] = "no computation here";
static const char why_no_outside_mpi[] = "no time outside MPI here";

/* What the pass over the rows sums, per location. */
enum { SUM_TIME, SUM_COMP, SUM_MPI, SUM_COUNT };

typedef struct {
  const pomp_report *r;
  int32_t nl, nc, nm;
  char *in_scope;             /* [cnode] */
  char *metric_in[SUM_COUNT]; /* [metric]: counts towards the sum */
  char *in_critical_path;     /* [metric]: critical_path's subtree */
  double *sum[SUM_COUNT];     /* [location] */
  int32_t *locs;              /* one decoded row */
  double *vals;
} pop_ctx;

/* The report's name in messages (one built in memory has none). */
static const char *name_of(const pomp_report *r) { return *r->path ? r->path : "report"; }

/* mask[m] = 1 for metric root and every metric below it (none if root < 0). */
static char *metric_subtree(const pomp_report *r, int32_t root) {
  int32_t nm = pomp_report_num_metrics(r);
  char *mask = pu_calloc((size_t)nm + 1, 1);
  for (int32_t m = 0; m < nm && root >= 0; m++) {
    int32_t parent = pomp_report_metric(r, m)->parent;
    mask[m] = m == root || (parent >= 0 && mask[parent]);
  }
  return mask;
}

/* in_scope[c] = 1 for the roots' sub-trees (every cnode without roots). */
static pomp_report_status scope_mask(pop_ctx *x, const int32_t *roots, int32_t n,
                                     pomp_report_error *err) {
  x->in_scope = pu_calloc((size_t)x->nc + 1, 1);
  for (int32_t i = 0; i < n; i++) {
    if (roots[i] < 0 || roots[i] >= x->nc)
      return report_fail(err, POMP_REPORT_ERR_ARG, "%s: no call path %d", name_of(x->r),
                         (int)roots[i]);
    x->in_scope[roots[i]] = 1;
  }
  for (int32_t c = 0; c < x->nc; c++) {
    int32_t parent = pomp_report_cnode(x->r, c)->parent;
    if (n == 0 || (parent >= 0 && x->in_scope[parent])) x->in_scope[c] = 1;
  }
  return POMP_REPORT_OK;
}

/* Decodes row (m, c) into x->locs/vals; its count, or -1 (err filled). */
static int32_t get_row(pop_ctx *x, int32_t m, int32_t c, pomp_report_error *err) {
  return pomp_report_row_get(x->r, m, c, x->locs, x->vals, err);
}

/* One pass over the row index: the per-location sums of the scope. */
static pomp_report_status sum_rows(pop_ctx *x, pomp_report_error *err) {
  for (int64_t i = 0; i < pomp_report_num_rows(x->r); i++) {
    int32_t m, c;
    pomp_report_row_at(x->r, i, &m, &c, NULL, NULL);
    if (!x->in_scope[c]) continue;
    int wanted = 0;
    for (int s = 0; s < SUM_COUNT; s++) wanted |= x->metric_in[s][m];
    if (!wanted) continue;
    int32_t k = get_row(x, m, c, err);
    if (k < 0) return POMP_REPORT_ERR_FORMAT;
    for (int s = 0; s < SUM_COUNT; s++)
      for (int32_t j = 0; x->metric_in[s][m] && j < k; j++) x->sum[s][x->locs[j]] += x->vals[j];
  }
  return POMP_REPORT_OK;
}

/* Adds the rows of the metrics in mask at cnode c into acc. */
static pomp_report_status add_cnode(pop_ctx *x, const char *mask, int32_t c, double *acc,
                                    pomp_report_error *err) {
  for (int32_t m = 0; m < x->nm; m++) {
    if (!mask[m]) continue;
    int32_t k = get_row(x, m, c, err);
    if (k < 0) return POMP_REPORT_ERR_FORMAT;
    for (int32_t j = 0; j < k; j++) acc[x->locs[j]] += x->vals[j];
  }
  return POMP_REPORT_OK;
}

/* The computation on the critical path within the scope: at each (call
   path, location) the path's time there, but no more than the
   computation there (the path also crosses MPI and OpenMP time, which an
   ideal network or runtime would not remove entirely: that is the
   difference to the runtime transfer efficiency measures).  *total gets
   the critical path's whole time in the scope. */
static pomp_report_status critical_computation(pop_ctx *x, double *ideal, double *total,
                                               pomp_report_error *err) {
  double *cp = pu_malloc(((size_t)x->nl + 1) * sizeof *cp);
  double *comp = pu_malloc(((size_t)x->nl + 1) * sizeof *comp);
  pomp_report_status st = POMP_REPORT_OK;
  *ideal = *total = 0;
  for (int32_t c = 0; c < x->nc && st == POMP_REPORT_OK; c++) {
    double on_path = 0;
    for (int32_t m = 0; m < x->nm; m++)
      if (x->in_critical_path[m]) on_path += pomp_report_row_sum(x->r, m, c);
    if (!x->in_scope[c] || on_path == 0) continue;
    memset(cp, 0, (size_t)x->nl * sizeof *cp);
    memset(comp, 0, (size_t)x->nl * sizeof *comp);
    st = add_cnode(x, x->in_critical_path, c, cp, err);
    if (st == POMP_REPORT_OK) st = add_cnode(x, x->metric_in[SUM_COMP], c, comp, err);
    for (int32_t l = 0; l < x->nl; l++) {
      *ideal += cp[l] < comp[l] ? cp[l] : comp[l];
      *total += cp[l];
    }
  }
  free(cp);
  free(comp);
  return st;
}

/* out->value[k] = num / den, or NAN with why when den is 0. */
static void set_ratio(pomp_report_pop *out, pomp_report_pop_kind k, double num, double den,
                      const char *why) {
  out->value[k] = den > 0 ? num / den : NAN;
  out->why[k] = den > 0 ? NULL : why;
}

/* value[k] = value[a] / value[b]: the OpenMP factors are what is left of
   the hybrid ones once the MPI ones are taken out. */
static void set_quotient(pomp_report_pop *out, pomp_report_pop_kind k, pomp_report_pop_kind a,
                         pomp_report_pop_kind b) {
  const char *why = out->why[a] ? out->why[a] : out->why[b];
  if (!why && out->value[b] == 0) why = why_no_outside_mpi;
  out->value[k] = why ? NAN : out->value[a] / out->value[b];
  out->why[k] = why;
}

/* Per location: runtime, useful work; per process: the master thread's
   time outside MPI (thread 0, else its first thread). */
static void summarise_locations(const pop_ctx *x, pomp_report_pop *out) {
  const pomp_report *r = x->r;
  int32_t ns = pomp_report_num_sysnodes(r);
  int32_t *master = pu_malloc(((size_t)ns + 1) * sizeof *master);
  for (int32_t s = 0; s < ns; s++) master[s] = -1;
  double useful_sum = 0;
  for (int32_t l = 0; l < x->nl; l++) {
    const pomp_sysnode *t = pomp_report_sysnode(r, pomp_report_location_sysnode(r, l));
    double useful = x->sum[SUM_COMP][l];
    useful_sum += useful;
    if (useful > out->useful_max) out->useful_max = useful;
    if (x->sum[SUM_TIME][l] > out->runtime) out->runtime = x->sum[SUM_TIME][l];
    int32_t p = t->parent >= 0 ? t->parent : pomp_report_location_sysnode(r, l);
    if (master[p] < 0) out->processes++;
    if (master[p] < 0 || (t->thread == 0 && pomp_report_sysnode(r, master[p])->thread != 0))
      master[p] = pomp_report_location_sysnode(r, l);
  }
  out->locations = x->nl;
  out->useful_avg = x->nl > 0 ? useful_sum / x->nl : 0;
  double outside_sum = 0;
  for (int32_t s = 0; s < ns; s++) {
    if (master[s] < 0) continue;
    int32_t l = pomp_report_sysnode(r, master[s])->location;
    double outside = x->sum[SUM_TIME][l] - x->sum[SUM_MPI][l];
    outside_sum += outside;
    if (outside > out->outside_mpi_max) out->outside_mpi_max = outside;
  }
  out->outside_mpi_avg = out->processes > 0 ? outside_sum / out->processes : 0;
  free(master);
}

/* The efficiencies from the sums (docs/PROPERTIES.md). */
/* not_computed: NULL, or why the analysis did not compute the critical
   path ("not computed: ...", the report's text). */
static void efficiencies(pomp_report_pop *out, double cp_total, const char *not_computed) {
  double run = out->runtime;
  const char *no_run = why_no_time;
  set_ratio(out, POMP_REPORT_POP_PARALLEL, out->useful_avg, run, no_run);
  set_ratio(out, POMP_REPORT_POP_LOAD_BALANCE, out->useful_avg, out->useful_max, why_no_useful);
  set_ratio(out, POMP_REPORT_POP_COMMUNICATION, out->useful_max, run, no_run);
  if (!out->has_critical_path || cp_total == 0) {
    const char *why = out->has_critical_path ? why_off_critical_path
                      : not_computed         ? not_computed
                                             : why_no_critical_path;
    if (!out->has_critical_path) out->ideal_runtime = NAN;
    set_ratio(out, POMP_REPORT_POP_SERIALISATION, 0, 0, why);
    set_ratio(out, POMP_REPORT_POP_TRANSFER, 0, 0, why);
  } else {
    set_ratio(out, POMP_REPORT_POP_SERIALISATION, out->useful_max, out->ideal_runtime,
              why_no_critical_computation);
    set_ratio(out, POMP_REPORT_POP_TRANSFER, out->ideal_runtime, run, no_run);
  }
  set_ratio(out, POMP_REPORT_POP_MPI_PARALLEL, out->outside_mpi_avg, run, no_run);
  set_ratio(out, POMP_REPORT_POP_MPI_LOAD_BALANCE, out->outside_mpi_avg, out->outside_mpi_max,
            why_no_outside_mpi);
  set_ratio(out, POMP_REPORT_POP_MPI_COMMUNICATION, out->outside_mpi_max, run, no_run);
  set_quotient(out, POMP_REPORT_POP_OMP_PARALLEL, POMP_REPORT_POP_PARALLEL,
               POMP_REPORT_POP_MPI_PARALLEL);
  set_quotient(out, POMP_REPORT_POP_OMP_LOAD_BALANCE, POMP_REPORT_POP_LOAD_BALANCE,
               POMP_REPORT_POP_MPI_LOAD_BALANCE);
  set_quotient(out, POMP_REPORT_POP_OMP_COMMUNICATION, POMP_REPORT_POP_COMMUNICATION,
               POMP_REPORT_POP_MPI_COMMUNICATION);
}

static void ctx_free(pop_ctx *x) {
  free(x->in_scope);
  for (int s = 0; s < SUM_COUNT; s++) {
    free(x->metric_in[s]);
    free(x->sum[s]);
  }
  free(x->in_critical_path);
  free(x->locs);
  free(x->vals);
}

pomp_report_status pomp_report_pop_compute(const pomp_report *r, const int32_t *roots, int32_t n,
                                           pomp_report_pop *out, pomp_report_error *err) {
  memset(out, 0, sizeof *out);
  pomp_report_status refused = report_refuse_difference(r, "POP efficiencies", err);
  if (refused != POMP_REPORT_OK) return refused;
  int32_t time = pomp_report_find_metric(r, "time"), comp = pomp_report_find_metric(r, "comp");
  if (time < 0 || comp < 0)
    return report_fail(err, POMP_REPORT_ERR_ARG, "%s: no metric '%s' (not an analysis report)",
                       name_of(r), time < 0 ? "time" : "comp");
  pop_ctx x = {.r = r,
               .nl = pomp_report_num_locations(r),
               .nc = pomp_report_num_cnodes(r),
               .nm = pomp_report_num_metrics(r)};
  x.metric_in[SUM_TIME] = metric_subtree(r, time);
  x.metric_in[SUM_COMP] = metric_subtree(r, comp);
  x.metric_in[SUM_MPI] = metric_subtree(r, pomp_report_find_metric(r, "mpi"));
  int32_t cp = pomp_report_find_metric(r, "critical_path");
  x.in_critical_path = metric_subtree(r, cp);
  /* The critical path re-counts time already in the time tree: should a
     report hang it below time, it must not count twice. */
  for (int32_t m = 0; m < x.nm; m++)
    if (x.in_critical_path[m]) x.metric_in[SUM_TIME][m] = 0;
  for (int s = 0; s < SUM_COUNT; s++) x.sum[s] = pu_calloc((size_t)x.nl + 1, sizeof(double));
  x.locs = pu_malloc(((size_t)x.nl + 1) * sizeof *x.locs);
  x.vals = pu_malloc(((size_t)x.nl + 1) * sizeof *x.vals);
  /* A report whose catalogue names the metric but whose analysis did not
     compute it (a profile; switched off or voided: the attribute
     not_computed says why) has no critical path either. */
  const char *not_computed = report_not_computed_text(r, cp);
  out->has_critical_path = cp >= 0 && !not_computed && pomp_report_metric_total(r, cp, 1) > 0;
  double cp_total = 0;
  pomp_report_status st = scope_mask(&x, roots, n, err);
  if (st == POMP_REPORT_OK) st = sum_rows(&x, err);
  if (st == POMP_REPORT_OK && out->has_critical_path)
    st = critical_computation(&x, &out->ideal_runtime, &cp_total, err);
  if (st == POMP_REPORT_OK) {
    summarise_locations(&x, out);
    /* No network makes the run shorter than its busiest location's work:
       a path that crosses slow MPI time may pass by some of it (LULESH on
       oversubscribed cores: 103 ms of computation on the path, 110 ms on
       one rank), which would put serialisation efficiency above 1. */
    if (out->has_critical_path && out->ideal_runtime < out->useful_max)
      out->ideal_runtime = out->useful_max;
    efficiencies(out, cp_total, not_computed);
  }
  ctx_free(&x);
  return st;
}
