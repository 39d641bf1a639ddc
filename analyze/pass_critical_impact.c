/* pass_critical_impact.c -- what Scalasca derives from the critical path
 * once it is known (its CriticalPath.pattern; Böhme's thesis, pp. 83-84),
 * and the limits of the model.
 *
 * Per call path c: gcp(c), its time on the critical path summed over the
 * locations; per (c, location l): cp(c,l), its part there, and lt(c,l),
 * the location's non-waiting time on c (what it executed there less its
 * wait states).
 *   critical_path_imbalance(c,l) = max(0, 1 - avg_l busy(c*) / gcp(c*))
 *                                  * cp(c,l)
 *     with c* the call path with its callees (call-tree inclusive) and
 *     busy the time executed less every wait state and the OpenMP fork,
 *     join and ordered time (Scalasca's remapper, share/scout.spec.in)
 *   critical_path_activities(c,l) = min(gcp(c), lt(c,l)), c on the path
 *   non_critical_path_activities(c,l) = lt(c,l) - gcp(c), where positive
 *   critical_imbalance_impact: each location's waiting time
 *     W(l) = sum gcp - sum_c lt(c,l) is spread over the call paths in
 *     proportion to their excess max(gcp(c) - lt(c,l), 0); summed over the
 *     locations per call path, and charged to the locations that carried
 *     c on the path in proportion to cp(c,l).
 * Values are stored exclusive along the metric tree: critical_path keeps
 * what its imbalance child does not explain. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_calltree.h"
#include "az_cells.h"
#include "az_critical.h"
#include "az_diag.h"
#include "az_metrics.h"
#include "pomp_util.h"

/* The wait states carved out of a cell's time (metric-exclusive slots).
   Not Early Scan, OpenMP critical and lock contention: they hand no path
   over (docs/PROPERTIES.md), so their waiting is path time and counts as
   activity, as in Scalasca (none of them is a synchronisation point of
   its wait map). */
static const int wait_slots[] = {
    AZ_MPI_BARRIER_WAIT, AZ_MPI_LATESENDER,    AZ_MPI_LATESENDER_WO,
    AZ_MPI_LATERECEIVER, AZ_MPI_EARLYREDUCE,   AZ_MPI_LATEBROADCAST,
    AZ_MPI_WAIT_NXN,     AZ_OMP_EBARRIER_WAIT, AZ_OMP_IBARRIER_WAIT,
};

/* What Scalasca's remapper also takes out of a call path's time before
   comparing it with the path (critical_path_imbalance): Early Scan,
   OpenMP critical and lock contention, the one-sided waits and OpenMP
   fork and join (and ordered regions: busy_of). */
static const int not_busy_slots[] = {
    AZ_MPI_EARLYSCAN,          AZ_OMP_CRITICAL_CONTENTION,
    AZ_OMP_LOCK_CONTENTION,    AZ_OMP_MANAGEMENT,
    AZ_MPI_RMA_WAIT_AT_FENCE,  AZ_MPI_RMA_EARLY_FENCE,
    AZ_MPI_RMA_SYNC_LATE_POST, AZ_MPI_RMA_EARLY_WAIT,
    AZ_MPI_RMA_LATE_COMPLETE,  AZ_MPI_RMA_SYNC_LOCK_COMPETITION,
    AZ_MPI_RMA_COMM_LATE_POST, AZ_MPI_RMA_COMM_LOCK_COMPETITION,
    AZ_MPI_RMA_WAIT_AT_CREATE, AZ_MPI_RMA_WAIT_AT_FREE,
};

/* The time of one cell less the slots listed (in double: the values of a
   damaged trace may be anything). */
static double less_slots(const int64_t *row, const int *slots, size_t n, double v) {
  for (size_t i = 0; i < n; i++) v -= (double)row[slots[i]];
  return v;
}

/* The non-waiting time of one cell (activities and imbalance impact). */
static double non_waiting(const int64_t *row) {
  double v =
      less_slots(row, wait_slots, sizeof wait_slots / sizeof *wait_slots, (double)row[AZ_X_RUN]);
  return v > 0 ? v : 0;
}

/* The busy time of one cell at call path k (critical_path_imbalance).
   The time of an ordered region is all omp_ordered (the region's bucket,
   filled when the cells are finished, after this step serially and
   before it in a parallel analysis): none of it is busy. */
static double busy_of(const az_analysis *a, int32_t k, const int64_t *row) {
  int32_t region = a->tree.nodes[k].region;
  if (region >= 0 && (size_t)region < a->defs.num_regions &&
      a->defs.regions[region].bucket == AZ_OMP_ORDERED)
    return 0;
  return less_slots(row, not_busy_slots, sizeof not_busy_slots / sizeof *not_busy_slots,
                    non_waiting(row));
}

/* Rounded to ticks, within what a cell can add up. */
static int64_t ticks_of(double v) {
  const double most = (double)(INT64_MAX / 4);
  if (v > most) v = most;
  if (v < -most) v = -most;
  return (int64_t)(v < 0 ? v - 0.5 : v + 0.5);
}

static int64_t cell_of(const az_cells *c, int32_t cnode, int slot) {
  if ((size_t)cnode >= c->nrow_of || !c->row_of[cnode]) return 0;
  return c->rows[c->row_of[cnode] - 1][slot];
}

static double non_waiting_of(const az_cells *c, int32_t cnode) {
  if ((size_t)cnode >= c->nrow_of || !c->row_of[cnode]) return 0;
  return non_waiting(c->rows[c->row_of[cnode] - 1]);
}

typedef struct {
  size_t ncnodes;
  int64_t *gcp;      /* [cnode] time on the path */
  double *gcp_incl;  /* [cnode] ... with its callees */
  double *busy_incl; /* [cnode] busy with its callees, all locations */
  double *imbalance; /* [cnode] critical_imbalance_impact, all locations */
  int32_t *on_path;  /* call paths with gcp > 0 */
  size_t non_path;
  int64_t length; /* of the path */
} cp_sums;

static void sum_path(const az_analysis *a, cp_sums *x) {
  x->ncnodes = a->tree.len;
  x->gcp = pu_calloc(x->ncnodes + 1, sizeof *x->gcp);
  x->gcp_incl = pu_calloc(x->ncnodes + 1, sizeof *x->gcp_incl);
  x->busy_incl = pu_calloc(x->ncnodes + 1, sizeof *x->busy_incl);
  x->imbalance = pu_calloc(x->ncnodes + 1, sizeof *x->imbalance);
  x->on_path = pu_calloc(x->ncnodes + 1, sizeof *x->on_path);
  for (size_t l = 0; l < a->defs.num_locs; l++) {
    const az_cells *c = &a->cells[l];
    for (size_t r = 0; r < c->nrows; r++) {
      x->gcp[c->row_cnode[r]] += c->rows[r][AZ_CRITICAL_PATH];
      x->busy_incl[c->row_cnode[r]] += busy_of(a, c->row_cnode[r], c->rows[r]);
    }
  }
  /* parents precede their children: backwards, each node is complete
     before it is added to its parent */
  for (size_t k = x->ncnodes; k-- > 0;) {
    x->gcp_incl[k] += (double)x->gcp[k];
    int32_t parent = a->tree.nodes[k].parent;
    if (parent >= 0) {
      x->gcp_incl[parent] += x->gcp_incl[k];
      x->busy_incl[parent] += x->busy_incl[k];
    }
  }
  for (size_t k = 0; k < x->ncnodes; k++) {
    if (x->gcp[k] <= 0) continue;
    x->on_path[x->non_path++] = (int32_t)k;
    x->length += x->gcp[k];
  }
}

/* One location's activities, and its waiting spread over the excess. */
static void location_impact(az_analysis *a, cp_sums *x, uint32_t l) {
  az_cells *c = &a->cells[l];
  double local = 0;
  for (size_t r = 0; r < c->nrows; r++) {
    int32_t k = c->row_cnode[r];
    double lt = non_waiting(c->rows[r]), on = (double)x->gcp[k];
    local += lt;
    if (lt > on) az_charge(a, l, k, AZ_NON_CRITICAL_PATH_ACTIVITIES, ticks_of(lt - on));
    if (on > 0 && lt > 0)
      az_charge(a, l, k, AZ_CRITICAL_PATH_ACTIVITIES, ticks_of(lt < on ? lt : on));
  }
  double excess = 0;
  for (size_t i = 0; i < x->non_path; i++) {
    double e = (double)x->gcp[x->on_path[i]] - non_waiting_of(c, x->on_path[i]);
    if (e > 0) excess += e;
  }
  if (excess <= 0) return;
  double scale = ((double)x->length - local) / excess;
  for (size_t i = 0; i < x->non_path; i++) {
    int32_t k = x->on_path[i];
    double e = (double)x->gcp[k] - non_waiting_of(c, k);
    if (e > 0) x->imbalance[k] += e * scale;
  }
}

/* The shares of the locations that carried each call path on the path. */
static void path_shares(az_analysis *a, const cp_sums *x, uint32_t l) {
  const az_cells *c = &a->cells[l];
  double nlocs = (double)a->defs.num_locs;
  for (size_t i = 0; i < x->non_path; i++) {
    int32_t k = x->on_path[i];
    int64_t cp = cell_of(c, k, AZ_CRITICAL_PATH);
    if (cp <= 0) continue;
    double share = (double)cp / (double)x->gcp[k];
    double above = 1 - x->busy_incl[k] / nlocs / x->gcp_incl[k];
    if (above > 0) {
      int64_t imb = ticks_of(above * (double)cp);
      az_charge(a, l, k, AZ_CRITICAL_PATH_IMBALANCE, imb);
      az_charge(a, l, k, AZ_CRITICAL_PATH, -imb);
    }
    int64_t impact = ticks_of(x->imbalance[k] * share);
    if (impact > 0) az_charge(a, l, k, AZ_CRITICAL_IMBALANCE_IMPACT, impact);
  }
}

void az_critical_impact(az_analysis *a) {
  cp_sums x = {0};
  sum_path(a, &x);
  for (uint32_t l = 0; l < a->defs.num_locs; l++) location_impact(a, &x, l);
  for (uint32_t l = 0; l < a->defs.num_locs; l++) path_shares(a, &x, l);
  free(x.gcp);
  free(x.gcp_incl);
  free(x.busy_incl);
  free(x.imbalance);
  free(x.on_path);
}

/* What each limit voids.  MPI calls on several threads of a process
   break every interval (a process's synchronisation points are no longer
   on one timeline): all of the delay costs, the classification and the
   critical path.  Tasks and nested parallelism break the OpenMP model (a
   task run in a barrier is work there, a nested team's threads are no
   members of the outer one) and the path through the teams, but not the
   intervals between a process's MPI calls, all on its first thread: the
   MPI delay costs and the classification of point-to-point waits stay. */
static const struct {
  unsigned bit;
  const char *what;
  int first;         /* the slots it voids: first .. AZ_RECOUNT_LAST */
  const char *brief; /* for the report: no parentheses, no ';' */
} limit_text[] = {
    {AZ_LIMIT_TASKS, "OpenMP tasks", AZ_DELAY_OMP, "OpenMP tasks"},
    {AZ_LIMIT_NESTED, "nested parallel regions (or threads outside an OpenMP team)", AZ_DELAY_OMP,
     "nested parallel regions or threads outside an OpenMP team"},
    {AZ_LIMIT_MPI_THREADS,
     "MPI calls on threads other than a process's first (MPI_THREAD_MULTIPLE)", AZ_RECOUNT_FIRST,
     "MPI calls on threads other than a process's first"},
};

/* The first slot the limits void (AZ_RECOUNT_LAST + 1: none). */
static int first_voided(unsigned limits) {
  int first = AZ_RECOUNT_LAST + 1;
  for (size_t i = 0; i < sizeof limit_text / sizeof *limit_text; i++)
    if (limits & limit_text[i].bit && limit_text[i].first < first) first = limit_text[i].first;
  return first;
}

int az_critical_limits_why(unsigned limits, char *why, size_t size) {
  size_t len = (size_t)snprintf(why, size, "the trace has");
  const char *sep = " ";
  for (size_t i = 0; i < sizeof limit_text / sizeof *limit_text; i++) {
    if (!(limits & limit_text[i].bit)) continue;
    len += (size_t)snprintf(why + (len < size ? len : size), len < size ? size - len : 0, "%s%s",
                            sep, limit_text[i].brief);
    sep = " and ";
  }
  return first_voided(limits);
}

_Static_assert(AZ_CRITICAL_PATH == AZ_DELAY_OMPIDLE_LONGTERM + 1 &&
                   AZ_DELAY_OMP > AZ_MPI_WAIT_INDIRECT_LATERECEIVER,
               "the OpenMP delays and the critical path end the range that counts time again");

void az_critical_limits(az_analysis *a, unsigned limits) {
  int first = first_voided(limits);
  for (size_t l = 0; l < a->defs.num_locs; l++) {
    az_cells *c = &a->cells[l];
    for (size_t r = 0; r < c->nrows; r++)
      for (int m = first; m <= AZ_RECOUNT_LAST; m++) c->rows[r][m] = 0;
  }
  a->model_limits = limits;
  az_critical_warn(a);
}

void az_critical_warn(az_analysis *a) {
  for (size_t i = 0; i < sizeof limit_text / sizeof *limit_text; i++)
    if (a->model_limits & limit_text[i].bit)
      az_warn(&a->diag, AZ_W_MODEL, "the trace has %s: %s", limit_text[i].what,
              limit_text[i].first == AZ_DELAY_OMP
                  ? "OpenMP delay costs and the critical path are not computed (their model "
                    "does not hold there; the MPI delay costs are)"
                  : "delay costs and the critical path are not computed (their model does "
                    "not hold there)");
}
