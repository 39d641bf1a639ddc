/* cmd_score.c -- pomp-report score: how large the trace of a run is (or
   would be), which functions make it so, and a POMP_FILTER file that
   leaves them out -- scorep-score for pomp.  Works from the visits and
   time per call path of any report: pomp-analyze's (from a trace) or a
   profile-mode one (no trace written).

   Estimate: every visit of a region writes an Enter and a Leave record;
   some regions write more (docs/TRACE.md "Events": a parallel region's
   team records and the master's fork and join, the lock records of a
   critical section or lock call, the MPI records of point-to-point and
   collective calls).  Bytes per record come from OTF2's own event size
   estimator for this report's number of regions and locations; Enter,
   Leave, fork, join and lock records carry their own timestamp record,
   the others share the timestamp of the Enter or Leave they sit next to
   (libpomp-mpi reads the clock twice per call).  A Wait completing an
   Isend or Irecv is charged to the Isend / Irecv (its completion record). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/OTF2_EventSizeEstimator.h>

#include "cli.h"
#include "pomp_util.h"

static const char summary[] =
    "Estimates the size of the OTF2 trace of the run (events and bytes, in\n"
    "all and per region type: usr (user and compiler functions), omp, mpi,\n"
    "measurement) and ranks the regions by events, with visits, time per\n"
    "visit and share of the bytes.  REPORT is a report or an experiment\n"
    "directory (EXP/report.pomp), of a trace or of a profile-mode run.\n";
static const char more[] =
    "The filter excludes the compiler-instrumented functions that make at least\n"
    "--min-share % of the bytes and take at most --max-time-per-visit\n"
    "microseconds per visit (inclusive time), never one that has MPI or OpenMP\n"
    "events below it on any call path, nor a root.  Regions the filter would\n"
    "exclude are marked '-' in the ranking.\n";

/* ---- OTF2 records ------------------------------------------------------ */

typedef enum {
  REC_NONE = 0,
  REC_FORK,
  REC_JOIN,
  REC_TEAM_BEGIN,
  REC_TEAM_END,
  REC_ACQUIRE,
  REC_RELEASE,
  REC_SEND,
  REC_RECV,
  REC_ISEND,
  REC_ISEND_DONE,
  REC_IRECV_REQUEST,
  REC_IRECV,
  REC_COLL_BEGIN,
  REC_COLL_END,
  NREC
} score_record;

static OTF2_EventSizeEstimator *new_estimator(const pomp_report *r, uint32_t regions) {
  OTF2_EventSizeEstimator *e = OTF2_EventSizeEstimator_New();
  if (!e) pu_die(POMP_EXIT_FAILURE, "out of memory");
  OTF2_EventSizeEstimator_SetNumberOfRegionDefinitions(e, regions);
  OTF2_EventSizeEstimator_SetNumberOfLocationDefinitions(e, (uint64_t)pomp_report_num_locations(r));
  return e;
}

/* OTF2 writes a region reference in as few bytes as its value needs: the
   Enter and Leave of region 300 take one byte more than those of region
   30.  The estimator sizes a reference by the number of definitions, so
   it is asked once per width with the smallest count that needs it
   (pomp-analyze numbers the regions as the trace does, near enough:
   LULESH, 265 regions, came within 0.6 % of its event files). */
enum { REF_WIDTHS = 5 };
enum { TEAM_COMM_BASE = 0x40000000 };
static const uint32_t ref_width_count[REF_WIDTHS] = {1, 2, 1u << 8 | 1, 1u << 16 | 1, 1u << 24 | 1};

static int ref_width(int32_t region) {
  int w = 0;
  while (w + 1 < REF_WIDTHS && (uint32_t)region + 1 >= ref_width_count[w + 1]) w++;
  return w;
}

/* Bytes of an Enter plus a Leave (each with its timestamp) per width. */
static void enter_leave_sizes(const pomp_report *r, double *bytes) {
  for (int w = 0; w < REF_WIDTHS; w++) {
    OTF2_EventSizeEstimator *e = new_estimator(r, ref_width_count[w]);
    bytes[w] = 2 * (double)OTF2_EventSizeEstimator_GetSizeOfTimestamp(e) +
               (double)OTF2_EventSizeEstimator_GetSizeOfEnterEvent(e) +
               (double)OTF2_EventSizeEstimator_GetSizeOfLeaveEvent(e);
    OTF2_EventSizeEstimator_Delete(e);
  }
}

/* Bytes of each other record kind, its timestamp included where it has
   one. */
static void record_sizes(const pomp_report *r, double *bytes) {
  OTF2_EventSizeEstimator *e = new_estimator(r, (uint32_t)pomp_report_num_regions(r) + 1);
  /* communicators, teams and locks: rarely more than 255 */
  OTF2_EventSizeEstimator_SetNumberOfCommDefinitions(e, 255);
  double ts = (double)OTF2_EventSizeEstimator_GetSizeOfTimestamp(e);
  bytes[REC_NONE] = 0;
  bytes[REC_FORK] = ts + (double)OTF2_EventSizeEstimator_GetSizeOfThreadForkEvent(e);
  bytes[REC_JOIN] = ts + (double)OTF2_EventSizeEstimator_GetSizeOfThreadJoinEvent(e);
  /* libpomp's team comms have local ids from 0x40000000 up
     (PM_TEAM_COMM_BASE, measure/pm_defs.h), which the event files keep:
     a team record's reference takes 5 bytes (BT-MZ: 7-byte team records,
     the estimate was 3 % short of a filtered trace without this). */
  OTF2_EventSizeEstimator *team = new_estimator(r, 1);
  OTF2_EventSizeEstimator_SetNumberOfCommDefinitions(team, TEAM_COMM_BASE + 1);
  bytes[REC_TEAM_BEGIN] = (double)OTF2_EventSizeEstimator_GetSizeOfThreadTeamBeginEvent(team);
  bytes[REC_TEAM_END] = (double)OTF2_EventSizeEstimator_GetSizeOfThreadTeamEndEvent(team);
  OTF2_EventSizeEstimator_Delete(team);
  bytes[REC_ACQUIRE] = ts + (double)OTF2_EventSizeEstimator_GetSizeOfThreadAcquireLockEvent(e);
  bytes[REC_RELEASE] = ts + (double)OTF2_EventSizeEstimator_GetSizeOfThreadReleaseLockEvent(e);
  bytes[REC_SEND] = (double)OTF2_EventSizeEstimator_GetSizeOfMpiSendEvent(e);
  bytes[REC_RECV] = (double)OTF2_EventSizeEstimator_GetSizeOfMpiRecvEvent(e);
  bytes[REC_ISEND] = (double)OTF2_EventSizeEstimator_GetSizeOfMpiIsendEvent(e);
  bytes[REC_ISEND_DONE] = (double)OTF2_EventSizeEstimator_GetSizeOfMpiIsendCompleteEvent(e);
  bytes[REC_IRECV_REQUEST] = (double)OTF2_EventSizeEstimator_GetSizeOfMpiIrecvRequestEvent(e);
  bytes[REC_IRECV] = (double)OTF2_EventSizeEstimator_GetSizeOfMpiIrecvEvent(e);
  bytes[REC_COLL_BEGIN] = (double)OTF2_EventSizeEstimator_GetSizeOfMpiCollectiveBeginEvent(e);
  bytes[REC_COLL_END] = (double)OTF2_EventSizeEstimator_GetSizeOfMpiCollectiveEndEvent(e);
  OTF2_EventSizeEstimator_Delete(e);
}

/* Records a visit writes besides Enter and Leave, by paradigm and role or
   name (docs/TRACE.md "Events"); NULL matches anything.  Parallel regions
   are special (fork and join on the master only, nothing when nested). */
typedef struct {
  const char *paradigm, *role, *name;
  score_record rec[2];
} score_extra;

static const score_extra extras[] = {
    {"openmp", "critical", NULL, {REC_ACQUIRE, REC_RELEASE}},
    {"openmp", NULL, "omp_set_lock", {REC_ACQUIRE}},
    {"openmp", NULL, "omp_set_nest_lock", {REC_ACQUIRE}},
    {"openmp", NULL, "omp_test_lock", {REC_ACQUIRE}},
    {"openmp", NULL, "omp_test_nest_lock", {REC_ACQUIRE}},
    {"openmp", NULL, "omp_unset_lock", {REC_RELEASE}},
    {"openmp", NULL, "omp_unset_nest_lock", {REC_RELEASE}},
    {"mpi", NULL, "MPI_Send", {REC_SEND}},
    {"mpi", NULL, "MPI_Bsend", {REC_SEND}},
    {"mpi", NULL, "MPI_Ssend", {REC_SEND}},
    {"mpi", NULL, "MPI_Rsend", {REC_SEND}},
    {"mpi", NULL, "MPI_Recv", {REC_RECV}},
    {"mpi", NULL, "MPI_Sendrecv", {REC_SEND, REC_RECV}},
    {"mpi", NULL, "MPI_Sendrecv_replace", {REC_SEND, REC_RECV}},
    {"mpi", NULL, "MPI_Isend", {REC_ISEND, REC_ISEND_DONE}},
    {"mpi", NULL, "MPI_Ibsend", {REC_ISEND, REC_ISEND_DONE}},
    {"mpi", NULL, "MPI_Issend", {REC_ISEND, REC_ISEND_DONE}},
    {"mpi", NULL, "MPI_Irsend", {REC_ISEND, REC_ISEND_DONE}},
    {"mpi", NULL, "MPI_Irecv", {REC_IRECV_REQUEST, REC_IRECV}},
    {"mpi", "barrier", NULL, {REC_COLL_BEGIN, REC_COLL_END}},
    {"mpi", "coll_one2all", NULL, {REC_COLL_BEGIN, REC_COLL_END}},
    {"mpi", "coll_all2one", NULL, {REC_COLL_BEGIN, REC_COLL_END}},
    {"mpi", "coll_all2all", NULL, {REC_COLL_BEGIN, REC_COLL_END}},
    {"mpi", "coll_other", NULL, {REC_COLL_BEGIN, REC_COLL_END}},
};

static int field_matches(const char *want, const char *have) {
  return !want || strcmp(want, have) == 0;
}

/* ---- region types ------------------------------------------------------ */

typedef enum { TYPE_USR, TYPE_OMP, TYPE_MPI, TYPE_MEASUREMENT, NTYPE } score_type;
static const char *const type_names[NTYPE] = {"usr", "omp", "mpi", "measurement"};

static score_type type_of(const pomp_region *g) {
  if (strcmp(g->paradigm, "openmp") == 0) return TYPE_OMP;
  if (strcmp(g->paradigm, "mpi") == 0) return TYPE_MPI;
  if (strcmp(g->paradigm, "measurement") == 0) return TYPE_MEASUREMENT;
  return TYPE_USR;
}

/* ---- the score --------------------------------------------------------- */

typedef struct {
  double events, bytes;
} score_cost;

typedef struct {
  double visits, events, bytes, time;
  int keep;    /* has MPI or OpenMP events below it, or is a root */
  int exclude; /* suggested for the filter */
} score_region;

typedef struct {
  double min_share;          /* percent of the bytes */
  double max_time_per_visit; /* microseconds */
} score_thresholds;

typedef struct {
  const pomp_report *r;
  double record[NREC];
  double enter_leave[REF_WIDTHS];
  score_region *regions;
  double *loc_bytes;
  double type_events[NTYPE], type_bytes[NTYPE], type_visits[NTYPE], type_time[NTYPE];
  double events, bytes;
} score_ctx;

static void add_record(const score_ctx *x, score_cost *c, score_record rec) {
  if (rec == REC_NONE) return;
  c->events += 1;
  c->bytes += x->record[rec];
}

static int is_parallel(const pomp_report *r, int32_t cnode) {
  const pomp_region *g = pomp_report_region(r, pomp_report_cnode(r, cnode)->region);
  return strcmp(g->paradigm, "openmp") == 0 && strcmp(g->role, "parallel") == 0;
}

/* A parallel region inside another is recorded flattened: no team, fork
   or join records. */
static int is_outermost_parallel(const pomp_report *r, int32_t cnode) {
  if (!is_parallel(r, cnode)) return 0;
  for (int32_t c = pomp_report_cnode(r, cnode)->parent; c >= 0; c = pomp_report_cnode(r, c)->parent)
    if (is_parallel(r, c)) return 0;
  return 1;
}

/* What one visit of cnode writes on every location (all) and, in
   addition, on a master thread (master). */
static void visit_cost(const score_ctx *x, int32_t cnode, score_cost *all, score_cost *master) {
  const pomp_region *g = pomp_report_region(x->r, pomp_report_cnode(x->r, cnode)->region);
  *master = (score_cost){0, 0};
  *all = (score_cost){2, x->enter_leave[ref_width(pomp_report_cnode(x->r, cnode)->region)]};
  if (is_outermost_parallel(x->r, cnode)) {
    add_record(x, all, REC_TEAM_BEGIN);
    add_record(x, all, REC_TEAM_END);
    add_record(x, master, REC_FORK);
    add_record(x, master, REC_JOIN);
  }
  for (size_t i = 0; i < sizeof extras / sizeof extras[0]; i++) {
    const score_extra *e = &extras[i];
    if (field_matches(e->paradigm, g->paradigm) && field_matches(e->role, g->role) &&
        field_matches(e->name, g->name)) {
      add_record(x, all, e->rec[0]);
      add_record(x, all, e->rec[1]);
      break;
    }
  }
}

static int is_master(const pomp_report *r, int32_t location) {
  return pomp_report_sysnode(r, pomp_report_location_sysnode(r, location))->thread == 0;
}

/* Events and bytes of every call path on every location, from the visits. */
static int count_events(score_ctx *x, int32_t visits) {
  const pomp_report *r = x->r;
  size_t nl = (size_t)pomp_report_num_locations(r) + 1;
  int32_t *locs = pu_malloc(nl * sizeof *locs);
  double *vals = pu_malloc(nl * sizeof *vals);
  int rc = 0;
  for (int32_t c = 0; c < pomp_report_num_cnodes(r) && !rc; c++) {
    pomp_report_error err;
    int32_t n = pomp_report_row_get(r, visits, c, locs, vals, &err);
    if (n < 0) {
      pu_error("%s", err.message);
      rc = 1;
      break;
    }
    score_cost all, master;
    visit_cost(x, c, &all, &master);
    int32_t g = pomp_report_cnode(r, c)->region;
    score_type t = type_of(pomp_report_region(r, g));
    for (int32_t i = 0; i < n; i++) {
      int m = is_master(r, locs[i]);
      double events = vals[i] * (all.events + (m ? master.events : 0));
      double bytes = vals[i] * (all.bytes + (m ? master.bytes : 0));
      x->regions[g].visits += vals[i];
      x->regions[g].events += events;
      x->regions[g].bytes += bytes;
      x->type_visits[t] += vals[i];
      x->type_events[t] += events;
      x->type_bytes[t] += bytes;
      x->loc_bytes[locs[i]] += bytes;
      x->events += events;
      x->bytes += bytes;
    }
  }
  free(locs);
  free(vals);
  return rc;
}

static int has_ancestor_region(const pomp_report *r, int32_t cnode, int32_t region) {
  for (int32_t c = pomp_report_cnode(r, cnode)->parent; c >= 0; c = pomp_report_cnode(r, c)->parent)
    if (pomp_report_cnode(r, c)->region == region) return 1;
  return 0;
}

/* Inclusive time of each region over its outermost call paths (a
   recursive call is inside its caller's time already), and the exclusive
   time of each type (the types add up to the total): execution time where
   the report has it (no idle threads), else time. */
static void region_times(score_ctx *x) {
  const pomp_report *r = x->r;
  int32_t m = pomp_report_find_metric(r, "execution");
  if (m < 0) m = pomp_report_find_metric(r, "time");
  if (m < 0) return;
  int32_t nc = pomp_report_num_cnodes(r);
  double *v = pu_calloc((size_t)nc + 1, sizeof *v);
  int32_t *parents = pu_malloc(((size_t)nc + 1) * sizeof *parents);
  pomp_report_cnode_values(r, m, 1, v);
  for (int32_t c = 0; c < nc; c++) {
    parents[c] = pomp_report_cnode(r, c)->parent;
    x->type_time[type_of(pomp_report_region(r, pomp_report_cnode(r, c)->region))] += v[c];
  }
  pomp_report_accumulate(parents, nc, v);
  for (int32_t c = 0; c < nc; c++) {
    int32_t g = pomp_report_cnode(r, c)->region;
    if (!has_ancestor_region(r, c, g)) x->regions[g].time += v[c];
  }
  free(v);
  free(parents);
}

/* Regions a filter must keep: those with MPI or OpenMP regions below
   them on some call path (one backward pass: children have larger ids),
   and the roots. */
static void mark_kept(score_ctx *x) {
  const pomp_report *r = x->r;
  int32_t nc = pomp_report_num_cnodes(r);
  unsigned char *below = pu_calloc((size_t)nc + 1, 1);
  for (int32_t c = nc - 1; c >= 0; c--) {
    const pomp_cnode *cn = pomp_report_cnode(r, c);
    score_type t = type_of(pomp_report_region(r, cn->region));
    if (below[c]) x->regions[cn->region].keep = 1;
    if (cn->parent < 0) x->regions[cn->region].keep = 1;
    else if (below[c] || t == TYPE_OMP || t == TYPE_MPI) below[cn->parent] = 1;
  }
  free(below);
}

static double time_per_visit_us(const score_region *s) {
  return s->visits > 0 ? 1e6 * s->time / s->visits : 0;
}

static void choose_excluded(score_ctx *x, const score_thresholds *th) {
  for (int32_t g = 0; g < pomp_report_num_regions(x->r); g++) {
    score_region *s = &x->regions[g];
    const pomp_region *pg = pomp_report_region(x->r, g);
    s->exclude = strcmp(pg->paradigm, "compiler") == 0 && !s->keep && s->visits > 0 &&
                 x->bytes > 0 && 100 * s->bytes / x->bytes >= th->min_share &&
                 time_per_visit_us(s) <= th->max_time_per_visit;
  }
}

/* ---- output ------------------------------------------------------------ */

static void human_bytes(char *buf, size_t size, double b) {
  static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) b /= 1024, u++;
  snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", b, units[u]);
}

static double share(double part, double whole) { return whole > 0 ? 100 * part / whole : 0; }

/* Sums over the regions the filter excludes. */
static void excluded_totals(const score_ctx *x, double *events, double *bytes, int *count) {
  *events = *bytes = 0;
  *count = 0;
  for (int32_t g = 0; g < pomp_report_num_regions(x->r); g++)
    if (x->regions[g].exclude) {
      *events += x->regions[g].events;
      *bytes += x->regions[g].bytes;
      (*count)++;
    }
}

/* The location with the most bytes, and what that means for its buffer
   (POMP_BUFFER, 16 MiB by default: each time it fills, a flush). */
static void print_largest_location(const score_ctx *x) {
  const pomp_report *r = x->r;
  int32_t best = -1;
  for (int32_t l = 0; l < pomp_report_num_locations(r); l++)
    if (best < 0 || x->loc_bytes[l] > x->loc_bytes[best]) best = l;
  if (best < 0) return;
  const pomp_sysnode *t = pomp_report_sysnode(r, pomp_report_location_sysnode(r, best));
  char size[32];
  human_bytes(size, sizeof size, x->loc_bytes[best]);
  double flushes = floor(x->loc_bytes[best] / (16.0 * 1024 * 1024));
  printf("largest location: rank %d thread %d, %s: ", (int)t->rank, (int)t->thread, size);
  if (flushes > 0) printf("about %.0f buffer flushes with POMP_BUFFER=16M\n", flushes);
  else printf("no buffer flush with POMP_BUFFER=16M\n");
}

static void print_types(const score_ctx *x) {
  printf("\n%-12s %14s %16s %9s %14s %12s\n", "type", "events", "bytes", "bytes %", "visits",
         "time [s]");
  double visits = 0, time = 0;
  for (int t = 0; t < NTYPE; t++) visits += x->type_visits[t], time += x->type_time[t];
  printf("%-12s %14.0f %16.0f %7.2f %% %14.0f %12.6g\n", "all", x->events, x->bytes,
         share(x->bytes, x->bytes), visits, time);
  for (int t = 0; t < NTYPE; t++)
    printf("%-12s %14.0f %16.0f %7.2f %% %14.0f %12.6g\n", type_names[t], x->type_events[t],
           x->type_bytes[t], share(x->type_bytes[t], x->bytes), x->type_visits[t], x->type_time[t]);
}

/* Regions by events, more first, ties to the lower id. */
static const score_ctx *sort_ctx;
static int by_events(const void *pa, const void *pb) {
  const score_region *a = &sort_ctx->regions[*(const int32_t *)pa];
  const score_region *b = &sort_ctx->regions[*(const int32_t *)pb];
  if (a->events != b->events) return a->events > b->events ? -1 : 1;
  return (*(const int32_t *)pa > *(const int32_t *)pb) -
         (*(const int32_t *)pa < *(const int32_t *)pb);
}

static int32_t *ranked_regions(const score_ctx *x, int32_t *n) {
  int32_t ng = pomp_report_num_regions(x->r), k = 0;
  int32_t *order = pu_malloc(((size_t)ng + 1) * sizeof *order);
  for (int32_t g = 0; g < ng; g++)
    if (x->regions[g].visits > 0) order[k++] = g;
  sort_ctx = x;
  qsort(order, (size_t)k, sizeof *order, by_events);
  *n = k;
  return order;
}

static void print_ranking(const score_ctx *x, long long top, const score_thresholds *th) {
  int32_t n;
  int32_t *order = ranked_regions(x, &n);
  printf("\n%-3s %14s %16s %9s %14s %12s %12s  %-11s %s\n", "flt", "events", "bytes", "bytes %",
         "visits", "us/visit", "time [s]", "type", "region");
  for (int32_t i = 0; i < n && i < top; i++) {
    const score_region *s = &x->regions[order[i]];
    const pomp_region *g = pomp_report_region(x->r, order[i]);
    printf("%-3s %14.0f %16.0f %7.2f %% %14.0f %12.3f %12.6g  %-11s %s\n", s->exclude ? "-" : "",
           s->events, s->bytes, share(s->bytes, x->bytes), s->visits, time_per_visit_us(s), s->time,
           type_names[type_of(g)], g->name);
  }
  if (n > top) printf("... %d more regions (-n)\n", (int)(n - top));
  double events, bytes;
  int count;
  excluded_totals(x, &events, &bytes, &count);
  char size[32];
  human_bytes(size, sizeof size, x->bytes - bytes);
  printf("\n- : suggested filter (--suggest-filter): %d function%s with >= %g %% of the "
         "bytes and <= %g us per visit, no MPI or OpenMP below;\n    with it %s, %.0f "
         "events (%.2f %% of the bytes)\n",
         count, count == 1 ? "" : "s", th->min_share, th->max_time_per_visit, size,
         x->events - events, share(x->bytes - bytes, x->bytes));
  free(order);
}

/* A region name as a glob that matches only itself (fnmatch: '\' quotes
   the next character). */
static void print_glob(const char *name) {
  for (const char *c = name; *c; c++) {
    if (strchr("*?[]\\", *c)) putchar('\\');
    putchar(*c);
  }
}

static void print_filter(const score_ctx *x, const char *path, const score_thresholds *th) {
  double events, bytes;
  int count;
  excluded_totals(x, &events, &bytes, &count);
  char before[32], after[32];
  human_bytes(before, sizeof before, x->bytes);
  human_bytes(after, sizeof after, x->bytes - bytes);
  printf("# POMP_FILTER file suggested by pomp-report score from %s:\n", path);
  printf("# functions with >= %g %% of the trace bytes and <= %g us per visit,\n", th->min_share,
         th->max_time_per_visit);
  printf("# none with MPI or OpenMP events below it.  Estimated trace: %s -> %s\n", before, after);
  int32_t n;
  int32_t *order = ranked_regions(x, &n);
  for (int32_t i = 0; i < n; i++) {
    const score_region *s = &x->regions[order[i]];
    const char *name = pomp_report_region(x->r, order[i])->name;
    if (!s->exclude) continue;
    printf("# %.2f %% of the bytes, %.0f visits, %.3f us per visit\n", share(s->bytes, x->bytes),
           s->visits, time_per_visit_us(s));
    if (strchr(name, '#') || strchr(name, '\n')) { /* a rule cannot say it */
      printf("# (cannot be written as a rule) %s\n", name);
      continue;
    }
    fputs("exclude ", stdout);
    print_glob(name);
    putchar('\n');
  }
  free(order);
}

int cmd_score(int argc, char **argv) {
  const char *path;
  long long top = 20;
  int suggest = 0;
  score_thresholds th = {1, 1};
  const pu_option options[] = {
      {"top", 'n', "N", "regions listed in the ranking, most events first (default 20)",
       PU_INT(&top, 0, LLONG_MAX)},
      {"suggest-filter", 0, NULL, "print a POMP_FILTER file instead of the table",
       PU_FLAG(&suggest, 1)},
      {"min-share", 0, "P", "exclude only functions with at least P % of the bytes (default 1)",
       PU_NUMBER(&th.min_share, 0, 100)},
      {"max-time-per-visit", 0, "US",
       "exclude only functions taking at most US microseconds per visit (default 1)",
       PU_NUMBER(&th.max_time_per_visit, 0, LLONG_MAX)},
      PU_OPT_END};
  const pu_opt_command cmd = {"score",
                              "REPORT",
                              1,
                              1,
                              .summary = summary,
                              .options = options,
                              .more = more,
                              .failure = CLI_FAILURE};
  pu_opt_parse(&cmd, argc, argv, &path);
  pomp_report *r = cli_open(path);
  cli_refuse_difference(r, path, "trace sizes");
  int32_t visits = cli_metric(r, "visits", path);
  score_ctx x = {.r = r};
  record_sizes(r, x.record);
  enter_leave_sizes(r, x.enter_leave);
  x.regions = pu_calloc((size_t)pomp_report_num_regions(r) + 1, sizeof *x.regions);
  x.loc_bytes = pu_calloc((size_t)pomp_report_num_locations(r) + 1, sizeof *x.loc_bytes);
  int rc = count_events(&x, visits);
  if (!rc) {
    region_times(&x);
    mark_kept(&x);
    choose_excluded(&x, &th);
    if (suggest) {
      print_filter(&x, path, &th);
    } else {
      char size[32];
      human_bytes(size, sizeof size, x.bytes);
      printf("%s: estimated trace size %s (%.0f bytes), %.0f events on %d locations\n", path, size,
             x.bytes, x.events, (int)pomp_report_num_locations(r));
      print_largest_location(&x);
      print_types(&x);
      print_ranking(&x, top, &th);
    }
  }
  free(x.regions);
  free(x.loc_bytes);
  pomp_report_free(r);
  return rc ? POMP_EXIT_FAILURE : POMP_EXIT_OK;
}
