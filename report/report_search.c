/* report_search.c -- the automated search for bottlenecks, after Paradyn's
   Performance Consultant (Collins & Miller's loop-aware search; Cain,
   Miller & Wylie's call-graph search).  Each hypothesis (why) is tested on
   the whole program against its threshold; a true node is refined
   top-down, first along the property hierarchy (which wait state), then
   down the call tree (functions and loops are both call-tree nodes), then
   along the locations (ranks, then threads).  A refinement under the
   threshold is pruned; the deepest true nodes are the bottlenecks.

   Values are fractions of the time of the node's locations, as Paradyn
   normalises by the active processes: a wait on one rank of four can be
   true although it is a quarter of the program's time at most.  A split
   along the locations keeps the locations above the threshold together as
   one set (true) and the others as another (pruned): a set that is true
   everywhere is not split at all, so a problem shared by every location
   stays one bottleneck on "all".  Only the public API of the library is
   used here. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "report_internal.h"

enum { SEARCH_MAX_METRICS = 24, SEARCH_LABEL_ITEMS = 8, SEARCH_PATH_WIDTH = 100 };
/* small_io_ops: a call path whose data transfers move less than this per
   call on average (bytes read and written / visits) does small I/O; 4 KiB,
   a page, the least a file system moves at once. */
#define SEARCH_SMALL_IO_BYTES 4096.0

/* The hypotheses: the metrics whose (metric-inclusive) sum each tests and
   the default threshold.  cpu_bound, sync_wait and io_blocking take
   Paradyn's defaults (PC_CPUThreshold 0.30, PC_SyncThreshold 0.20,
   PC_IOThreshold 0.20); parallel_overhead and load_imbalance have no
   Paradyn counterpart and take 0.10, half of a sync wait's, because they
   are the part of a parallel run that is lost outright.  io_blocking is
   split by interface (POSIX and ISO C, MPI-IO); small_io_ops (Paradyn's
   TooManySmallIOOps, below its I/O hypothesis there, a hypothesis of its
   own here) is the I/O time of the call paths whose transfers average
   under SEARCH_SMALL_IO_BYTES, at half io_blocking's threshold. */
typedef struct {
  const char *name;
  double threshold;
  const char *metrics[SEARCH_MAX_METRICS]; /* NULL-terminated */
} search_hypothesis;

static const search_hypothesis hypotheses[POMP_SEARCH_HYPOTHESES] = {
    {"cpu_bound", 0.30, {"comp"}},
    {"sync_wait", 0.20, {"mpi_latesender",         "mpi_latereceiver",
                         "mpi_earlyreduce",        "mpi_latebroadcast",
                         "mpi_earlyscan",          "mpi_wait_nxn",
                         "mpi_barrier_wait",       "omp_ebarrier_wait",
                         "omp_ibarrier_wait",      "omp_critical_contention",
                         "omp_lock_contention",    "omp_ordered",
                         "omp_taskwait",           "mpi_io_collective_wait",
                         "mpi_rma_wait_at_fence",  "mpi_rma_sync_late_post",
                         "mpi_rma_early_wait",     "mpi_rma_sync_lock_competition",
                         "mpi_rma_comm_late_post", "mpi_rma_comm_lock_competition",
                         "mpi_rma_wait_at_create", "mpi_rma_wait_at_free",
                         "mpi_finalize_wait"}},
    {"parallel_overhead",
     0.10,
     {"omp_management", "mpi_management", "omp_flush", "omp_idle_threads"}},
    {"load_imbalance", 0.10, {"comp"}},
    {"io_blocking", 0.20, {"posix_io", "mpi_io"}},
    {"small_io_ops", 0.10, {"posix_io", "mpi_io"}},
};

/* What each wait state waits for: the end of a sync_wait sentence. */
static const struct {
  const char *metric, *waits_for;
} waits_for[] = {
    {"mpi_latesender_wo", "for a message sent after one it could have received first"},
    {"mpi_latesender", "for a sender that was late"},
    {"mpi_latereceiver", "for a receiver that was late"},
    {"mpi_earlyreduce", "as the root, for the last sender"},
    {"mpi_latebroadcast", "for the root, which entered late"},
    {"mpi_earlyscan", "for a lower rank that entered late"},
    {"mpi_wait_nxn", "for the last rank to enter the collective"},
    {"mpi_barrier_wait", "for the last rank to enter the barrier"},
    {"mpi_finalize_wait", "for the last rank to enter MPI_Finalize"},
    {"omp_ebarrier_wait", "for the slowest thread of the team"},
    {"omp_ibarrier_wait", "for the slowest thread of the team"},
    {"omp_critical_contention", "for a critical section another thread holds"},
    {"omp_lock_contention", "for a lock another thread holds"},
    {"omp_ordered", "for the ordered parts of earlier iterations"},
    {"omp_taskwait", "for child tasks that other threads run"},
    {"mpi_io_collective_wait", "for the last rank to enter the collective I/O operation"},
    {"mpi_rma_early_fence", "in a fence while others still accessed its window"},
    {"mpi_rma_wait_at_fence", "for the last member of the window to enter the fence"},
    {"mpi_rma_sync_late_post", "for a target that posted its window late"},
    {"mpi_rma_comm_late_post", "for a target that posted its window late"},
    {"mpi_rma_late_complete", "for origins that completed their epoch late"},
    {"mpi_rma_early_wait", "for origins that completed their epoch late"},
    {"mpi_rma_sync_lock_competition", "for a window lock another process holds"},
    {"mpi_rma_comm_lock_competition", "for a window lock another process holds"},
};

typedef enum { STAGE_WHY, STAGE_WHERE, STAGE_WHICH } search_stage;
/* How far a node's locations are refined: all, processes, threads. */
enum { LEVEL_ALL, LEVEL_PROCESS, LEVEL_THREAD };

typedef struct {
  pomp_report_search_node pub;
  search_stage stage;
  int level;
  int has_true_child;
  int32_t first_child, last_child, next_sibling; /* -1: none */
} search_node;

struct pomp_report_search {
  const pomp_report *r;
  pomp_report_error *err;
  int failed;
  double thresholds[POMP_SEARCH_HYPOTHESES];
  int32_t hyp_metrics[POMP_SEARCH_HYPOTHESES][SEARCH_MAX_METRICS];
  int hyp_nmetrics[POMP_SEARCH_HYPOTHESES];
  const char *untestable_why[POMP_SEARCH_HYPOTHESES];
  double total;
  int32_t nc, nl, nmetrics, nprocs, comp, visits;
  int32_t *cnode_parent;
  int32_t *loc_process; /* dense process index of each location */
  int32_t *proc_size;   /* locations per process */
  double **by_cnode;    /* per metric, lazily: call-inclusive sums */
  double *imbalance;    /* per cnode, lazily: call-inclusive seconds */
  double *small_io;     /* per cnode, lazily: call-inclusive seconds */
  int32_t io_bytes[2];  /* io_bytes_written, io_bytes_read (-1: none) */
  /* MPI start-up (pomp_report_cnode_is_startup): per cnode, whether it is
     one or lies below one; the topmost ones; per metric, the seconds
     left out there (set with by_cnode) */
  uint8_t *in_startup;
  int32_t *startup_tops, nstartup_tops, finalize_wait;
  double *startup_seconds;
  double *loc_time; /* per location, lazily: total time */
  double *per_loc, *tmp_loc, *group_s, *group_t;
  int32_t *row_locs, *comp_locs;
  double *row_vals, *comp_vals, *row_comp; /* row_comp: comp scattered by location */
  search_node *nodes;
  size_t nnodes, cap;
  int32_t *bottlenecks;
  int32_t nbottlenecks;
};

/* ---- the hypotheses ------------------------------------------------------ */

const char *pomp_report_search_hypothesis_name(int32_t h) {
  return h >= 0 && h < POMP_SEARCH_HYPOTHESES ? hypotheses[h].name : NULL;
}

double pomp_report_search_default_threshold(int32_t h) {
  return h >= 0 && h < POMP_SEARCH_HYPOTHESES ? hypotheses[h].threshold : 0;
}

int32_t pomp_report_search_find_hypothesis(const char *name) {
  for (int32_t h = 0; h < POMP_SEARCH_HYPOTHESES; h++)
    if (strcmp(hypotheses[h].name, name) == 0) return h;
  return -1;
}

/* Which metrics of a hypothesis the report has; a hypothesis without any
   is untestable, as is a wait state in a profile (no replay, no waits). */
static void resolve_hypotheses(pomp_report_search *s) {
  for (int h = 0; h < POMP_SEARCH_HYPOTHESES; h++) {
    for (int i = 0; hypotheses[h].metrics[i]; i++) {
      int32_t m = pomp_report_find_metric(s->r, hypotheses[h].metrics[i]);
      if (m >= 0) s->hyp_metrics[h][s->hyp_nmetrics[h]++] = m;
    }
    if (s->hyp_nmetrics[h] == 0) s->untestable_why[h] = "the report has no such metric";
  }
  if (pomp_report_mode_note(s->r) && !s->untestable_why[POMP_SEARCH_SYNC_WAIT])
    s->untestable_why[POMP_SEARCH_SYNC_WAIT] = "a profile has no wait states";
  if (s->visits < 0 && !s->untestable_why[POMP_SEARCH_LOAD_IMBALANCE])
    s->untestable_why[POMP_SEARCH_LOAD_IMBALANCE] = "the report has no visits";
  s->io_bytes[0] = pomp_report_find_metric(s->r, "io_bytes_written");
  s->io_bytes[1] = pomp_report_find_metric(s->r, "io_bytes_read");
  if ((s->visits < 0 || s->io_bytes[0] < 0 || s->io_bytes[1] < 0) &&
      !s->untestable_why[POMP_SEARCH_SMALL_IO_OPS])
    s->untestable_why[POMP_SEARCH_SMALL_IO_OPS] = "the report has no I/O bytes or visits";
}

/* Hypotheses whose value is computed per call path rather than summed
   from their metrics: no refinement along the properties. */
static int computed(int32_t h) {
  return h == POMP_SEARCH_LOAD_IMBALANCE || h == POMP_SEARCH_SMALL_IO_OPS;
}

/* ---- values -------------------------------------------------------------- */

/* Whether metric m at call path c is MPI start-up, which the search
   leaves out as pomp-analyze's summary and pomp-tui's problem list do:
   every MPI program pays it once (idle threads and management in
   MPI_Init are no bottleneck); Wait at Finalize stays, the run's
   imbalance. */
static int left_out(const pomp_report_search *s, int32_t m, int32_t c) {
  return c >= 0 && s->in_startup[c] && m != s->finalize_wait;
}

/* Call-inclusive, metric-inclusive sums over all locations of metric m,
   start-up left out. */
static const double *by_cnode(pomp_report_search *s, int32_t m) {
  if (!s->by_cnode[m]) {
    double *v = s->by_cnode[m] = pu_malloc(((size_t)s->nc + 1) * sizeof(double));
    pomp_report_cnode_values(s->r, m, 1, v);
    for (int32_t c = 0; c < s->nc; c++)
      if (left_out(s, m, c)) s->startup_seconds[m] += v[c], v[c] = 0;
    pomp_report_accumulate(s->cnode_parent, s->nc, v);
  }
  return s->by_cnode[m];
}

/* Whether call path c lies in the sub-tree of call path top. */
static int descends(const pomp_report_search *s, int32_t c, int32_t top) {
  while (c > top) c = s->cnode_parent[c];
  return c == top;
}

/* Imbalance of one call path, exclusive in the call tree: every location
   that visited it loses (slowest computation - its own), the time it
   would wait for the slowest one.  Adds the losses to loss[] when given;
   returns their sum.  Computation is the exclusive "comp" value. */
static double cnode_imbalance(pomp_report_search *s, int32_t c, double *loss) {
  int32_t nv = pomp_report_row_get(s->r, s->visits, c, s->row_locs, s->row_vals, s->err);
  int32_t ncomp = nv > 0 && s->comp >= 0
                      ? pomp_report_row_get(s->r, s->comp, c, s->comp_locs, s->comp_vals, s->err)
                      : 0;
  if (nv < 0 || ncomp < 0) s->failed = 1;
  if (nv <= 0 || ncomp < 0) return 0;
  for (int32_t i = 0; i < ncomp; i++) s->row_comp[s->comp_locs[i]] = s->comp_vals[i];
  double slowest = 0, sum = 0;
  for (int32_t i = 0; i < nv; i++)
    if (s->row_comp[s->row_locs[i]] > slowest) slowest = s->row_comp[s->row_locs[i]];
  for (int32_t i = 0; i < nv; i++) {
    int32_t l = s->row_locs[i];
    double lost = slowest - s->row_comp[l];
    sum += lost;
    if (loss) loss[l] += lost;
  }
  for (int32_t i = 0; i < ncomp; i++) s->row_comp[s->comp_locs[i]] = 0;
  return sum;
}

/* The sum of metric m's row at call path c over all locations (exclusive
   in both trees), read into the scratch rows locs/vals (nl entries);
   *failed set on a read error. */
static double row_sum(const pomp_report_search *s, int32_t m, int32_t c, int32_t *locs,
                      double *vals, int *failed) {
  int32_t n = m >= 0 ? pomp_report_row_get(s->r, m, c, locs, vals, s->err) : 0;
  if (n < 0) *failed = 1;
  double sum = 0;
  for (int32_t i = 0; i < n; i++) sum += vals[i];
  return sum;
}

/* Mean bytes per call of call path c, exclusive in the call tree; -1
   when it moved no bytes (metadata, or no I/O at all). */
static double io_bytes_per_call(const pomp_report_search *s, int32_t c, int32_t *locs, double *vals,
                                int *failed) {
  double bytes = row_sum(s, s->io_bytes[0], c, locs, vals, failed) +
                 row_sum(s, s->io_bytes[1], c, locs, vals, failed);
  double calls = row_sum(s, s->visits, c, locs, vals, failed);
  return bytes > 0 && calls > 0 ? bytes / calls : -1;
}

/* Small I/O at one call path, exclusive in the call tree: its I/O time
   when its transfers average under SEARCH_SMALL_IO_BYTES, else 0. Adds the
   time per location to loss[] when given; returns the sum. */
static double cnode_small_io(pomp_report_search *s, int32_t c, double *loss) {
  double per_call = io_bytes_per_call(s, c, s->row_locs, s->row_vals, &s->failed);
  if (per_call < 0 || per_call >= SEARCH_SMALL_IO_BYTES) return 0;
  double sum = 0;
  for (int i = 0; i < s->hyp_nmetrics[POMP_SEARCH_SMALL_IO_OPS]; i++) {
    int32_t n = pomp_report_row_get(s->r, s->hyp_metrics[POMP_SEARCH_SMALL_IO_OPS][i], c,
                                    s->row_locs, s->row_vals, s->err);
    if (n < 0) s->failed = 1;
    for (int32_t k = 0; k < n; k++) {
      sum += s->row_vals[k];
      if (loss) loss[s->row_locs[k]] += s->row_vals[k];
    }
  }
  return sum;
}

/* Per call path, call-inclusive: the value of a computed hypothesis. */
static const double *computed_values(pomp_report_search *s, int32_t h) {
  double **v = h == POMP_SEARCH_LOAD_IMBALANCE ? &s->imbalance : &s->small_io;
  if (!*v) {
    *v = pu_calloc((size_t)s->nc + 1, sizeof(double));
    for (int32_t c = 0; c < s->nc && !s->failed; c++)
      (*v)[c] = h == POMP_SEARCH_LOAD_IMBALANCE ? cnode_imbalance(s, c, NULL)
                                                : cnode_small_io(s, c, NULL);
    pomp_report_accumulate(s->cnode_parent, s->nc, *v);
  }
  return *v;
}

static int32_t node_nmetrics(const pomp_report_search *s, const search_node *n) {
  return n->pub.metric >= 0 ? 1 : s->hyp_nmetrics[n->pub.hypothesis];
}
static int32_t node_metric(const pomp_report_search *s, const search_node *n, int32_t i) {
  return n->pub.metric >= 0 ? n->pub.metric : s->hyp_metrics[n->pub.hypothesis][i];
}

/* Seconds of (hypothesis or property, call path) over all locations. */
static double seconds_all(pomp_report_search *s, const search_node *n) {
  int32_t c = n->pub.cnode;
  if (computed(n->pub.hypothesis)) {
    const double *imb = computed_values(s, n->pub.hypothesis);
    if (c >= 0) return imb[c];
    double sum = 0;
    for (int32_t i = 0; i < s->nc; i++)
      if (s->cnode_parent[i] < 0) sum += imb[i];
    return sum;
  }
  double sum = 0;
  for (int32_t i = 0; i < node_nmetrics(s, n); i++) {
    int32_t m = node_metric(s, n, i);
    const double *v = by_cnode(s, m);
    sum += c >= 0 ? v[c] : pomp_report_metric_total(s->r, m, 1) - s->startup_seconds[m];
  }
  return sum;
}

/* Seconds of a node's hypothesis at its call path on each location:
   out[nl]. */
static void seconds_per_location(pomp_report_search *s, const search_node *n, double *out) {
  memset(out, 0, (size_t)s->nl * sizeof *out);
  int32_t c = n->pub.cnode;
  if (computed(n->pub.hypothesis)) {
    char *in = pu_calloc((size_t)s->nc + 1, 1);
    for (int32_t i = 0; i < s->nc && !s->failed; i++) {
      int32_t p = s->cnode_parent[i];
      in[i] = c < 0 || i == c || (p >= 0 && in[p] && i > c);
      if (in[i] && n->pub.hypothesis == POMP_SEARCH_LOAD_IMBALANCE) cnode_imbalance(s, i, out);
      else if (in[i]) cnode_small_io(s, i, out);
    }
    free(in);
    return;
  }
  for (int32_t i = 0; i < node_nmetrics(s, n); i++) {
    int32_t m = node_metric(s, n, i);
    if (left_out(s, m, c)) continue;
    pomp_report_selection sel = {m, 1, c, 1};
    if (pomp_report_location_values(s->r, &sel, s->tmp_loc, s->err) != POMP_REPORT_OK)
      s->failed = 1;
    for (int32_t l = 0; l < s->nl; l++) out[l] += s->tmp_loc[l];
    /* less the start-up call paths below c */
    for (int32_t k = 0; k < s->nstartup_tops; k++) {
      int32_t top = s->startup_tops[k];
      if (!left_out(s, m, top) || (c >= 0 && !descends(s, top, c))) continue;
      sel.cnode = top;
      if (pomp_report_location_values(s->r, &sel, s->tmp_loc, s->err) != POMP_REPORT_OK)
        s->failed = 1;
      for (int32_t l = 0; l < s->nl; l++) out[l] -= s->tmp_loc[l];
    }
  }
}

static const double *loc_time(pomp_report_search *s) {
  if (!s->loc_time) {
    s->loc_time = pu_calloc((size_t)s->nl + 1, sizeof(double));
    pomp_report_selection sel = {pomp_report_find_metric(s->r, "time"), 1, -1, 1};
    if (pomp_report_location_values(s->r, &sel, s->loc_time, s->err) != POMP_REPORT_OK)
      s->failed = 1;
  }
  return s->loc_time;
}

/* ---- the graph ----------------------------------------------------------- */

/* Adds a tested node; its verdict follows from value and threshold. */
static int32_t add_node(pomp_report_search *s, const search_node *proto, int32_t parent,
                        double seconds, double of_time) {
  pu_reserve((void **)&s->nodes, &s->cap, s->nnodes + 1, sizeof *s->nodes);
  search_node *n = &s->nodes[s->nnodes];
  *n = *proto;
  n->has_true_child = 0;
  n->first_child = n->last_child = n->next_sibling = -1;
  n->pub.parent = parent;
  n->pub.seconds = seconds;
  n->pub.value = of_time > 0 ? seconds / of_time : 0;
  n->pub.threshold = s->thresholds[n->pub.hypothesis];
  int held = n->pub.value >= n->pub.threshold && seconds > 0;
  int top = parent == 0;
  n->pub.verdict = held ? POMP_SEARCH_TRUE : top ? POMP_SEARCH_FALSE : POMP_SEARCH_PRUNED;
  int32_t id = (int32_t)s->nnodes++;
  if (parent >= 0) {
    search_node *p = &s->nodes[parent];
    if (held) p->has_true_child = 1;
    if (p->last_child < 0) p->first_child = id;
    else s->nodes[p->last_child].next_sibling = id;
    p->last_child = id;
  }
  return id;
}

typedef struct {
  int32_t key; /* metric or cnode */
  double seconds;
} search_candidate;

/* Most seconds first, then the lower id: the order children are shown. */
static int by_seconds(const void *a, const void *b) {
  const search_candidate *x = a, *y = b;
  if (x->seconds != y->seconds) return x->seconds > y->seconds ? -1 : 1;
  return (x->key > y->key) - (x->key < y->key);
}

static void refine(pomp_report_search *s, int32_t id);

/* Adds the candidates as children (stage and the changed field set by
   set_key), then refines the true ones.  Returns whether one was true. */
static int add_children(pomp_report_search *s, int32_t id, search_candidate *cand, int32_t n,
                        search_stage stage) {
  qsort(cand, (size_t)n, sizeof *cand, by_seconds);
  int32_t first = (int32_t)s->nnodes;
  for (int32_t i = 0; i < n; i++) {
    search_node proto = s->nodes[id];
    proto.stage = stage;
    if (stage == STAGE_WHY) proto.pub.metric = cand[i].key;
    else proto.pub.cnode = cand[i].key;
    add_node(s, &proto, id, cand[i].seconds, s->total);
  }
  int32_t last = (int32_t)s->nnodes;
  for (int32_t c = first; c < last; c++)
    if (s->nodes[c].pub.verdict == POMP_SEARCH_TRUE) refine(s, c);
  return s->nodes[id].has_true_child;
}

/* Tests the children of id that differ from it in one key (a property
   for why, a call path for where) and adds those with seconds; returns
   whether one was true. */
static int test_children(pomp_report_search *s, int32_t id, const int32_t *keys, int32_t nk,
                         search_stage stage) {
  search_candidate *cand = pu_malloc(((size_t)nk + 1) * sizeof *cand);
  int32_t nc = 0;
  for (int32_t i = 0; i < nk; i++) {
    search_node child = s->nodes[id];
    if (stage == STAGE_WHY) child.pub.metric = keys[i];
    else child.pub.cnode = keys[i];
    double sec = seconds_all(s, &child);
    if (sec > 0) cand[nc++] = (search_candidate){keys[i], sec};
  }
  int any = add_children(s, id, cand, nc, stage);
  free(cand);
  return any;
}

/* Why: the sub-properties (the hypothesis's metrics, or a property's
   children in the catalogue). */
static int refine_why(pomp_report_search *s, int32_t id) {
  search_node n = s->nodes[id];
  int32_t cap = SEARCH_MAX_METRICS + pomp_report_num_metrics(s->r);
  int32_t *keys = pu_malloc((size_t)cap * sizeof *keys);
  int32_t nk = 0;
  if (n.pub.metric >= 0) nk = pomp_report_metric_children(s->r, n.pub.metric, keys, cap);
  else if (!computed(n.pub.hypothesis) && s->hyp_nmetrics[n.pub.hypothesis] > 1)
    for (; nk < s->hyp_nmetrics[n.pub.hypothesis]; nk++)
      keys[nk] = s->hyp_metrics[n.pub.hypothesis][nk];
  int any = test_children(s, id, keys, nk, STAGE_WHY);
  free(keys);
  return any;
}

/* Where: the call-tree children (the roots for the whole program). */
static int refine_where(pomp_report_search *s, int32_t id) {
  int32_t cnode = s->nodes[id].pub.cnode;
  int32_t nk = pomp_report_cnode_children(s->r, cnode, NULL, 0);
  int32_t *keys = pu_malloc(((size_t)nk + 1) * sizeof *keys);
  pomp_report_cnode_children(s->r, cnode, keys, nk);
  int any = test_children(s, id, keys, nk, STAGE_WHERE);
  free(keys);
  return any;
}

/* Adds a location-set child of id: locs[n] are copied. */
static int32_t add_location_child(pomp_report_search *s, int32_t id, const int32_t *locs, int32_t n,
                                  int level) {
  search_node proto = s->nodes[id];
  proto.stage = STAGE_WHICH;
  proto.level = level;
  int32_t *own = pu_malloc(((size_t)n + 1) * sizeof *own);
  memcpy(own, locs, (size_t)n * sizeof *own);
  proto.pub.locations = own;
  proto.pub.num_locations = n;
  double sec = 0, of = 0;
  for (int32_t i = 0; i < n; i++) {
    sec += s->per_loc[locs[i]];
    of += loc_time(s)[locs[i]];
  }
  return add_node(s, &proto, id, sec, of);
}

/* The locations of node n (all when its set is empty), into out; count. */
static int32_t node_locations(const pomp_report_search *s, const search_node *n, int32_t *out) {
  if (n->pub.num_locations == 0) {
    for (int32_t l = 0; l < s->nl; l++) out[l] = l;
    return s->nl;
  }
  memcpy(out, n->pub.locations, (size_t)n->pub.num_locations * sizeof *out);
  return n->pub.num_locations;
}

/* Tries one split of the node's locations by group (process or thread):
   the groups whose value reaches the threshold against the rest.
   Returns 1 if it split (children added). */
static int split_at_level(pomp_report_search *s, int32_t id, int level, const int32_t *locs,
                          int32_t n) {
  memset(s->group_s, 0, (size_t)s->nl * sizeof *s->group_s);
  memset(s->group_t, 0, (size_t)s->nl * sizeof *s->group_t);
  for (int32_t i = 0; i < n; i++) {
    int32_t g = level == LEVEL_PROCESS ? s->loc_process[locs[i]] : locs[i];
    s->group_s[g] += s->per_loc[locs[i]];
    s->group_t[g] += loc_time(s)[locs[i]];
  }
  int32_t *held = pu_malloc(((size_t)n + 1) * sizeof *held);
  int32_t *rest = pu_malloc(((size_t)n + 1) * sizeof *rest);
  int32_t nh = 0, nr = 0;
  double threshold = s->thresholds[s->nodes[id].pub.hypothesis];
  for (int32_t i = 0; i < n; i++) {
    int32_t g = level == LEVEL_PROCESS ? s->loc_process[locs[i]] : locs[i];
    int true_here =
        s->group_s[g] > 0 && s->group_t[g] > 0 && s->group_s[g] / s->group_t[g] >= threshold;
    if (true_here) held[nh++] = locs[i];
    else rest[nr++] = locs[i];
  }
  int split = nh > 0 && nr > 0;
  if (split) {
    double rest_sec = 0;
    for (int32_t i = 0; i < nr; i++) rest_sec += s->per_loc[rest[i]];
    int32_t held_id = add_location_child(s, id, held, nh, level);
    if (rest_sec > 0) add_location_child(s, id, rest, nr, level);
    refine(s, held_id);
  }
  free(held);
  free(rest);
  return split;
}

/* Which: split the locations, by process first where there are several
   and the node is not yet below one, then by thread. */
static void refine_which(pomp_report_search *s, int32_t id) {
  search_node n = s->nodes[id];
  if (n.level >= LEVEL_THREAD) return;
  int32_t *locs = pu_malloc(((size_t)s->nl + 1) * sizeof *locs);
  int32_t nloc = node_locations(s, &n, locs);
  seconds_per_location(s, &n, s->per_loc);
  int split = 0;
  if (n.level < LEVEL_PROCESS && s->nprocs > 1)
    split = split_at_level(s, id, LEVEL_PROCESS, locs, nloc);
  if (!split && !s->failed) split_at_level(s, id, LEVEL_THREAD, locs, nloc);
  free(locs);
}

/* Refines a true node: why before where before which; a stage runs only
   when the earlier one found nothing true. */
static void refine(pomp_report_search *s, int32_t id) {
  if (s->failed) return;
  search_stage stage = s->nodes[id].stage;
  if (stage == STAGE_WHY && refine_why(s, id)) return;
  if (stage <= STAGE_WHERE && refine_where(s, id)) return;
  refine_which(s, id);
}

/* ---- setting up and the result ------------------------------------------ */

static void locations_by_process(pomp_report_search *s) {
  const pomp_report *r = s->r;
  int32_t ns = pomp_report_num_sysnodes(r);
  int32_t *dense = pu_malloc(((size_t)ns + 1) * sizeof *dense);
  for (int32_t i = 0; i < ns; i++) dense[i] = -1;
  s->loc_process = pu_malloc(((size_t)s->nl + 1) * sizeof *s->loc_process);
  s->proc_size = pu_calloc((size_t)s->nl + 1, sizeof *s->proc_size);
  for (int32_t l = 0; l < s->nl; l++) {
    int32_t p = pomp_report_sysnode(r, pomp_report_location_sysnode(r, l))->parent;
    if (p < 0) p = pomp_report_location_sysnode(r, l);
    if (dense[p] < 0) dense[p] = s->nprocs++;
    s->loc_process[l] = dense[p];
    s->proc_size[dense[p]]++;
  }
  free(dense);
}

static pomp_report_search *search_new(const pomp_report *r, const double *thresholds,
                                      pomp_report_error *err) {
  pomp_report_search *s = pu_calloc(1, sizeof *s);
  s->r = r;
  s->err = err;
  for (int h = 0; h < POMP_SEARCH_HYPOTHESES; h++)
    s->thresholds[h] = thresholds ? thresholds[h] : hypotheses[h].threshold;
  s->nc = pomp_report_num_cnodes(r);
  s->nl = pomp_report_num_locations(r);
  s->comp = pomp_report_find_metric(r, "comp");
  s->visits = pomp_report_find_metric(r, "visits");
  s->cnode_parent = pu_malloc(((size_t)s->nc + 1) * sizeof *s->cnode_parent);
  for (int32_t c = 0; c < s->nc; c++) s->cnode_parent[c] = pomp_report_cnode(r, c)->parent;
  s->nmetrics = pomp_report_num_metrics(r);
  s->by_cnode = pu_calloc((size_t)s->nmetrics + 1, sizeof *s->by_cnode);
  s->startup_seconds = pu_calloc((size_t)s->nmetrics + 1, sizeof *s->startup_seconds);
  s->finalize_wait = pomp_report_find_metric(r, "mpi_finalize_wait");
  s->in_startup = pu_calloc((size_t)s->nc + 1, 1);
  s->startup_tops = pu_malloc(((size_t)s->nc + 1) * sizeof *s->startup_tops);
  for (int32_t c = 0; c < s->nc; c++) { /* parents come before children */
    int32_t p = s->cnode_parent[c];
    if (p >= 0 && s->in_startup[p]) s->in_startup[c] = 1;
    else if (pomp_report_cnode_is_startup(r, c))
      s->in_startup[c] = 1, s->startup_tops[s->nstartup_tops++] = c;
  }
  size_t nl = (size_t)s->nl + 1;
  s->per_loc = pu_malloc(nl * sizeof(double));
  s->tmp_loc = pu_malloc(nl * sizeof(double));
  s->group_s = pu_malloc(nl * sizeof(double));
  s->group_t = pu_malloc(nl * sizeof(double));
  s->row_vals = pu_malloc(nl * sizeof(double));
  s->row_comp = pu_calloc(nl, sizeof(double));
  s->row_locs = pu_malloc(nl * sizeof(int32_t));
  s->comp_vals = pu_malloc(nl * sizeof(double));
  s->comp_locs = pu_malloc(nl * sizeof(int32_t));
  locations_by_process(s);
  resolve_hypotheses(s);
  return s;
}

/* The deepest true nodes, most seconds first. */
static void rank_bottlenecks(pomp_report_search *s) {
  search_candidate *cand = pu_malloc((s->nnodes + 1) * sizeof *cand);
  int32_t n = 0;
  for (size_t i = 1; i < s->nnodes; i++)
    if (s->nodes[i].pub.verdict == POMP_SEARCH_TRUE && !s->nodes[i].has_true_child)
      cand[n++] = (search_candidate){(int32_t)i, s->nodes[i].pub.seconds};
  qsort(cand, (size_t)n, sizeof *cand, by_seconds);
  s->bottlenecks = pu_malloc(((size_t)n + 1) * sizeof *s->bottlenecks);
  for (int32_t i = 0; i < n; i++) s->bottlenecks[i] = cand[i].key;
  s->nbottlenecks = n;
  free(cand);
}

pomp_report_search *pomp_report_search_run(const pomp_report *r, const double *thresholds,
                                           pomp_report_error *err) {
  if (report_refuse_difference(r, "the search's thresholds (shares of the time)", err) !=
      POMP_REPORT_OK)
    return NULL;
  int32_t time = pomp_report_find_metric(r, "time");
  if (time < 0) {
    report_fail(err, POMP_REPORT_ERR_ARG, "the report has no metric 'time' to search against");
    return NULL;
  }
  pomp_report_search *s = search_new(r, thresholds, err);
  s->total = pomp_report_metric_total(r, time, 1);
  search_node root = {.pub = {.parent = -1,
                              .hypothesis = -1,
                              .metric = -1,
                              .cnode = -1,
                              .seconds = s->total,
                              .value = 1,
                              .verdict = POMP_SEARCH_TRUE},
                      .first_child = -1,
                      .last_child = -1,
                      .next_sibling = -1};
  pu_reserve((void **)&s->nodes, &s->cap, 1, sizeof *s->nodes);
  s->nodes[s->nnodes++] = root;
  for (int32_t h = 0; h < POMP_SEARCH_HYPOTHESES && !s->failed; h++) {
    search_node proto = {.pub = {.hypothesis = h, .metric = -1, .cnode = -1}};
    if (s->untestable_why[h]) {
      int32_t id = add_node(s, &proto, 0, 0, s->total);
      s->nodes[id].pub.verdict = POMP_SEARCH_UNTESTABLE;
      continue;
    }
    int32_t id = add_node(s, &proto, 0, seconds_all(s, &proto), s->total);
    if (s->nodes[id].pub.verdict == POMP_SEARCH_TRUE) refine(s, id);
  }
  if (s->failed) {
    pomp_report_search_free(s);
    return NULL;
  }
  rank_bottlenecks(s);
  s->err = NULL;
  return s;
}

void pomp_report_search_free(pomp_report_search *s) {
  if (!s) return;
  for (size_t i = 0; i < s->nnodes; i++) free((void *)s->nodes[i].pub.locations);
  for (int32_t m = 0; m < s->nmetrics; m++) free(s->by_cnode[m]);
  free(s->by_cnode);
  free(s->startup_seconds);
  free(s->in_startup);
  free(s->startup_tops);
  free(s->nodes);
  free(s->bottlenecks);
  free(s->cnode_parent);
  free(s->loc_process);
  free(s->proc_size);
  free(s->imbalance);
  free(s->small_io);
  free(s->loc_time);
  free(s->per_loc);
  free(s->tmp_loc);
  free(s->group_s);
  free(s->group_t);
  free(s->row_locs);
  free(s->row_vals);
  free(s->row_comp);
  free(s->comp_locs);
  free(s->comp_vals);
  free(s);
}

double pomp_report_search_total(const pomp_report_search *s) { return s->total; }
int32_t pomp_report_search_num_nodes(const pomp_report_search *s) { return (int32_t)s->nnodes; }

const pomp_report_search_node *pomp_report_search_node_at(const pomp_report_search *s, int32_t id) {
  return id >= 0 && (size_t)id < s->nnodes ? &s->nodes[id].pub : NULL;
}

const char *pomp_report_search_node_name(const pomp_report_search *s, int32_t id) {
  const pomp_report_search_node *n = pomp_report_search_node_at(s, id);
  if (!n || n->hypothesis < 0) return "top_level";
  if (n->metric >= 0) return pomp_report_metric(s->r, n->metric)->name;
  return hypotheses[n->hypothesis].name;
}

int32_t pomp_report_search_node_children(const pomp_report_search *s, int32_t id, int32_t *out,
                                         int32_t cap) {
  if (id < 0 || (size_t)id >= s->nnodes) return 0;
  int32_t n = 0;
  for (int32_t c = s->nodes[id].first_child; c >= 0; c = s->nodes[c].next_sibling) {
    if (n < cap) out[n] = c;
    n++;
  }
  return n;
}

const char *pomp_report_search_untestable(const pomp_report_search *s, int32_t h) {
  return h >= 0 && h < POMP_SEARCH_HYPOTHESES ? s->untestable_why[h] : NULL;
}

int32_t pomp_report_search_num_bottlenecks(const pomp_report_search *s) { return s->nbottlenecks; }

int32_t pomp_report_search_bottleneck(const pomp_report_search *s, int32_t i) {
  return i >= 0 && i < s->nbottlenecks ? s->bottlenecks[i] : -1;
}

/* ---- words ---------------------------------------------------------------- */

/* Text appended like snprintf: len counts what it needs. */
typedef struct {
  char *buf;
  size_t size, len;
} search_text;

static void put(search_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(search_text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t room = t->len < t->size ? t->size - t->len : 0;
  int n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
  va_end(ap);
  if (n > 0) t->len += (size_t)n;
}

static const pomp_sysnode *thread_of(const pomp_report *r, int32_t l) {
  return pomp_report_sysnode(r, pomp_report_location_sysnode(r, l));
}

/* Whether the set holds every location of each process it touches. */
static int whole_processes(const pomp_report_search *s, const int32_t *locs, int32_t n) {
  int32_t *count = pu_calloc((size_t)s->nprocs + 1, sizeof *count);
  for (int32_t i = 0; i < n; i++) count[s->loc_process[locs[i]]]++;
  int whole = 1;
  for (int32_t i = 0; i < n; i++)
    if (count[s->loc_process[locs[i]]] != s->proc_size[s->loc_process[locs[i]]]) whole = 0;
  free(count);
  return whole;
}

static void put_locations(const pomp_report_search *s, search_text *t, const int32_t *locs,
                          int32_t n) {
  if (n == 0 || n == s->nl) {
    put(t, s->nl == 1 ? "the only location" : "all %d locations", (int)s->nl);
    return;
  }
  int by_process = s->nprocs > 1 && whole_processes(s, locs, n);
  int32_t shown = 0, items = 0, last_proc = -1;
  for (int32_t i = 0; i < n; i++) {
    const pomp_sysnode *th = thread_of(s->r, locs[i]);
    if (by_process && s->loc_process[locs[i]] == last_proc) continue;
    last_proc = s->loc_process[locs[i]];
    items++;
    if (shown == SEARCH_LABEL_ITEMS) continue;
    const char *sep = shown ? ", " : "";
    if (by_process) put(t, "%s%d", sep, (int)th->rank);
    else if (s->nprocs > 1) put(t, "%srank %d thread %d", sep, (int)th->rank, (int)th->thread);
    else put(t, "%s%d", sep, (int)th->thread);
    shown++;
  }
  if (items > shown) put(t, " and %d more", (int)(items - shown));
}

/* How many ranks (a set of whole processes) or locations a phrase names. */
static int32_t location_items(const pomp_report_search *s, const int32_t *locs, int32_t n) {
  if (n == 0 || n == s->nl) return s->nl;
  if (!(s->nprocs > 1 && whole_processes(s, locs, n))) return n;
  int32_t items = 0, last_proc = -1;
  for (int32_t i = 0; i < n; i++) {
    if (s->loc_process[locs[i]] != last_proc) items++;
    last_proc = s->loc_process[locs[i]];
  }
  return items;
}

/* The same with its noun first: "ranks 0, 2", "thread 1". */
static void put_location_phrase(const pomp_report_search *s, search_text *t, const int32_t *locs,
                                int32_t n) {
  if (n > 0 && n < s->nl) {
    int by_process = s->nprocs > 1 && whole_processes(s, locs, n);
    const char *noun = by_process ? "rank" : s->nprocs > 1 ? "" : "thread";
    if (*noun) put(t, "%s%s ", noun, location_items(s, locs, n) > 1 ? "s" : "");
  }
  put_locations(s, t, locs, n);
}

size_t pomp_report_search_locations_label(const pomp_report_search *s, int32_t id, char *buf,
                                          size_t size) {
  search_text t = {buf, size, 0};
  if (size) buf[0] = '\0';
  const pomp_report_search_node *n = pomp_report_search_node_at(s, id);
  if (n) put_location_phrase(s, &t, n->locations, n->num_locations);
  return t.len;
}

static void put_where(const pomp_report_search *s, search_text *t, int32_t cnode) {
  if (cnode < 0) {
    put(t, "the whole program");
    return;
  }
  char path[SEARCH_PATH_WIDTH + 1];
  pomp_report_callpath_label(s->r, cnode, ";", SEARCH_PATH_WIDTH, path, sizeof path);
  put(t, "%s", path);
}

static const char *wait_reason(const pomp_report_search *s, int32_t metric) {
  for (int32_t m = metric; m >= 0; m = pomp_report_metric(s->r, m)->parent)
    for (size_t i = 0; i < sizeof waits_for / sizeof waits_for[0]; i++)
      if (strcmp(pomp_report_metric(s->r, m)->name, waits_for[i].metric) == 0)
        return waits_for[i].waits_for;
  return "for other locations";
}

/* The locations not in the node's set: who the others wait for. */
static void put_complement(const pomp_report_search *s, search_text *t,
                           const pomp_report_search_node *n) {
  if (n->num_locations == 0) return;
  char *in = pu_calloc((size_t)s->nl + 1, 1);
  for (int32_t i = 0; i < n->num_locations; i++) in[n->locations[i]] = 1;
  int32_t *rest = pu_malloc(((size_t)s->nl + 1) * sizeof *rest);
  int32_t nr = 0;
  for (int32_t l = 0; l < s->nl; l++)
    if (!in[l]) rest[nr++] = l;
  put(t, " (not waiting: ");
  put_location_phrase(s, t, rest, nr);
  put(t, ")");
  free(rest);
  free(in);
}

/* Load imbalance: the location that computes longest at the call path. */
static void put_slowest(const pomp_report_search *s, search_text *t, int32_t cnode) {
  double *comp = pu_calloc((size_t)s->nl + 1, sizeof *comp);
  pomp_report_selection sel = {s->comp, 1, cnode, 1};
  if (pomp_report_location_values(s->r, &sel, comp, NULL) == POMP_REPORT_OK) {
    int32_t slowest = 0, busy = 0;
    double sum = 0;
    for (int32_t l = 0; l < s->nl; l++) {
      if (comp[l] > comp[slowest]) slowest = l;
      if (comp[l] > 0) busy++, sum += comp[l];
    }
    put(t, ", the slowest being ");
    put_location_phrase(s, t, &slowest, 1);
    put(t, " (%.3g s of computation against %.3g s on average)", comp[slowest],
        busy ? sum / busy : 0);
  }
  free(comp);
}

static const char *property_display(const pomp_report_search *s, const pomp_report_search_node *n,
                                    const char *whole) {
  return n->metric >= 0 ? pomp_report_metric(s->r, n->metric)->display : whole;
}

size_t pomp_report_search_sentence(const pomp_report_search *s, int32_t id, char *buf,
                                   size_t size) {
  search_text t = {buf, size, 0};
  if (size) buf[0] = '\0';
  const pomp_report_search_node *n = pomp_report_search_node_at(s, id);
  if (!n) return 0;
  if (n->hypothesis < 0) {
    put(&t, "The search tests %d hypotheses against %.6g s of time.", POMP_SEARCH_HYPOTHESES,
        s->total);
    return t.len;
  }
  double pct = 100 * n->value;
  int one = location_items(s, n->locations, n->num_locations) == 1;
  switch ((pomp_report_search_hypothesis)n->hypothesis) {
  case POMP_SEARCH_SYNC_WAIT:
    put(&t, "%s in ", property_display(s, n, "Waiting"));
    put_where(s, &t, n->cnode);
    put(&t, ": ");
    put_location_phrase(s, &t, n->locations, n->num_locations);
    put(&t,
        one ? " waits %.1f %% of its time (%.3g s) %s" : " wait %.1f %% of their time (%.3g s) %s",
        pct, n->seconds, n->metric >= 0 ? wait_reason(s, n->metric) : "for other locations");
    put_complement(s, &t, n);
    break;
  case POMP_SEARCH_LOAD_IMBALANCE:
    put(&t, "Load imbalance in ");
    put_where(s, &t, n->cnode);
    put(&t, ": ");
    put_location_phrase(s, &t, n->locations, n->num_locations);
    put(&t,
        one ? " loses %.1f %% of its time (%.3g s) to slower locations"
            : " lose %.1f %% of their time (%.3g s) to slower locations",
        pct, n->seconds);
    put_slowest(s, &t, n->cnode);
    break;
  case POMP_SEARCH_SMALL_IO_OPS: {
    put(&t, "Small I/O operations in ");
    put_where(s, &t, n->cnode);
    put(&t, " take %.1f %% of the time (%.3g s) of ", pct, n->seconds);
    put_location_phrase(s, &t, n->locations, n->num_locations);
    int32_t *locs = pu_malloc(((size_t)s->nl + 1) * sizeof *locs);
    double *vals = pu_malloc(((size_t)s->nl + 1) * sizeof *vals);
    int failed = 0;
    double per_call = n->cnode >= 0 ? io_bytes_per_call(s, n->cnode, locs, vals, &failed) : -1;
    free(locs);
    free(vals);
    if (per_call >= 0 && !failed) put(&t, " (%.0f bytes per call on average)", per_call);
    else put(&t, " (calls moving under %.0f bytes each on average)", SEARCH_SMALL_IO_BYTES);
    break;
  }
  case POMP_SEARCH_CPU_BOUND:
  case POMP_SEARCH_PARALLEL_OVERHEAD:
  case POMP_SEARCH_IO_BLOCKING:
  default: {
    static const char *const whole[] = {"Computation", "", "Parallel overhead", "", "I/O"};
    put(&t, "%s in ", property_display(s, n, whole[n->hypothesis]));
    put_where(s, &t, n->cnode);
    put(&t, " takes %.1f %% of the time (%.3g s) of ", pct, n->seconds);
    put_location_phrase(s, &t, n->locations, n->num_locations);
  }
  }
  if (n->verdict == POMP_SEARCH_UNTESTABLE) {
    t.len = 0;
    if (size) buf[0] = '\0';
    put(&t, "%s cannot be tested: %s", hypotheses[n->hypothesis].name,
        s->untestable_why[n->hypothesis]);
  }
  put(&t, ".");
  return t.len;
}

size_t pomp_report_search_node_label(const pomp_report_search *s, int32_t id, char *buf,
                                     size_t size) {
  static const char *const verdicts[] = {"true", "false", "pruned", "untestable"};
  search_text t = {buf, size, 0};
  if (size) buf[0] = '\0';
  const pomp_report_search_node *n = pomp_report_search_node_at(s, id);
  if (!n) return 0;
  put(&t, "%s", pomp_report_search_node_name(s, id));
  if (n->hypothesis >= 0) {
    put(&t, " @ ");
    if (n->cnode < 0) put(&t, "(program)");
    else {
      size_t need = pomp_report_callpath(s->r, n->cnode, ";", NULL, 0) + 1;
      char *path = pu_malloc(need);
      pomp_report_callpath(s->r, n->cnode, ";", path, need);
      put(&t, "%s", path);
      free(path);
    }
    put(&t, " on ");
    put_location_phrase(s, &t, n->locations, n->num_locations);
  }
  put(&t, ": %s", verdicts[n->verdict]);
  if (n->verdict == POMP_SEARCH_UNTESTABLE) {
    put(&t, " (%s)", s->untestable_why[n->hypothesis]);
    return t.len;
  }
  put(&t, " %.1f %%", 100 * n->value);
  if (n->parent == 0) put(&t, " (threshold %.1f %%)", 100 * n->threshold);
  return t.len;
}

/* Whether metric a is m or one of m's ancestors. */
static int is_ancestor(const pomp_report *r, int32_t a, int32_t m) {
  for (; m >= 0; m = pomp_report_metric(r, m)->parent)
    if (m == a) return 1;
  return 0;
}

int32_t pomp_report_search_node_property(const pomp_report_search *s, int32_t id) {
  const pomp_report_search_node *n = pomp_report_search_node_at(s, id);
  if (!n || n->hypothesis < 0) return -1;
  if (n->metric >= 0) return n->metric;
  const int32_t *ms = s->hyp_metrics[n->hypothesis];
  int32_t common = s->hyp_nmetrics[n->hypothesis] > 0 ? ms[0] : -1;
  for (int32_t i = 1; i < s->hyp_nmetrics[n->hypothesis]; i++)
    while (common >= 0 && !is_ancestor(s->r, common, ms[i]))
      common = pomp_report_metric(s->r, common)->parent;
  return common;
}
