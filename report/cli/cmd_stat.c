/* cmd_stat.c -- pomp-report stat: "what are my biggest problems".  Ranks
   the performance properties under 'time' by their EXCLUSIVE severity
   (the part no sub-property explains), so that the structural parents
   (time, execution, mpi...) do not crowd the list with their subtrees'
   sums: the ranked shares add up to 100 % of time.  Each property comes
   with the call paths and locations where it is worst, like the
   "top N" listings of cube_stat and the summary of scalasca -examine -s.
   A report of a run that did not finish says so on its first line, one
   perturbed by its measurement (buffer flushes) on the next. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pomp_util.h"

static const char summary[] =
    "Ranks the properties under 'time' by their exclusive severity (what\n"
    "none of their sub-properties explains) as a share of the total time,\n"
    "each with its N worst call paths and N worst locations (default N = 3),\n"
    "then prints the totals of the other metrics (visits, bytes).  The own\n"
    "part of a parent property (what none of its sub-properties classifies)\n"
    "is named by its largest region and its N largest regions are listed.\n"
    "Functions are shown without their parameter lists; a call path longer\n"
    "than 100 characters keeps its leaf end (\"...;solve;MPI_Recv\").\n"
    "Equal entries are listed by name (call paths region by region, locations\n"
    "by rank and thread), so a report and its .cubex rank alike.\n"
    "A report of a run that did not finish starts with a WARNING line, as\n"
    "does one whose buffer flushes took more than 5 % of the time.\n";

/* Which of two entries of equal value comes first: <0 a, >0 b, 0 alike.
   By what they name (property name, call path, rank and thread, region),
   not by id, so that a report and its .cubex (pomp-report cube), whose
   ids differ, list ties in the same order. */
typedef int (*stat_tie)(const pomp_report *r, int32_t a, int32_t b);

/* How a list is ranked: larger first; values closer than equal_within are
   equal (CUBE stores inclusive values, so an exclusive one read back
   differs from the report's in its last bits: 1.0139e-05 s comes back as
   1.0139000000001022e-05), then tie decides, then the lower id. */
typedef struct {
  const pomp_report *r;
  stat_tie tie;
  double equal_within;
} stat_order;

/* Values that differ by less than this share of the total time rank as
   equal: far above the noise of CUBE's subtraction (a few units in the
   last place of an inclusive value, which is at most the total: ~1e-15 of
   it) and far below what stat prints (0.01 % of the total, 3 digits). */
#define STAT_EQUAL_SHARE 1e-12

static int ranks_before(const double *v, int32_t a, int32_t b, const stat_order *o) {
  double d = v[a] - v[b];
  if (d > o->equal_within || -d > o->equal_within) return d > 0;
  int c = o->tie(o->r, a, b);
  return c ? c < 0 : a < b;
}

/* The (at most) k largest non-zero entries of v, in ranks_before's order.
   Returns how many. */
static int top(const double *v, int32_t n, int k, int32_t *out, const stat_order *o) {
  int got = 0;
  for (int32_t i = 0; i < n; i++) {
    if (v[i] == 0) continue;
    int at = got;
    while (at > 0 && ranks_before(v, i, out[at - 1], o)) at--;
    if (at >= k) continue;
    if (got < k) got++;
    memmove(out + at + 1, out + at, (size_t)(got - 1 - at) * sizeof *out);
    out[at] = i;
  }
  return got;
}

/* By display name first: pomp-report cube renames some metrics to
   Scalasca's (omp_lock_contention: omp_lock_contention_api) but keeps
   what they are called ("Lock Contention"). */
static int metric_tie(const pomp_report *r, int32_t a, int32_t b) {
  const pomp_metric *x = pomp_report_metric(r, a), *y = pomp_report_metric(r, b);
  int c = strcmp(x->display, y->display);
  return c ? c : strcmp(x->name, y->name);
}

static int region_tie(const pomp_report *r, int32_t a, int32_t b) {
  const pomp_region *x = pomp_report_region(r, a), *y = pomp_report_region(r, b);
  int c = strcmp(x->name, y->name);
  if (!c) c = strcmp(x->file, y->file);
  return c ? c : (x->begin_line > y->begin_line) - (x->begin_line < y->begin_line);
}

static int32_t cnode_depth(const pomp_report *r, int32_t c) {
  int32_t d = 0;
  while ((c = pomp_report_cnode(r, c)->parent) >= 0) d++;
  return d;
}

static int32_t cnode_ancestor(const pomp_report *r, int32_t c, int32_t up) {
  while (up-- > 0) c = pomp_report_cnode(r, c)->parent;
  return c;
}

/* Call paths compare region by region from the root; a path comes before
   the paths that extend it. */
static int cnode_tie(const pomp_report *r, int32_t a, int32_t b) {
  if (a == b) return 0;
  int32_t da = cnode_depth(r, a), db = cnode_depth(r, b);
  if (da != db) {
    int c = da > db ? cnode_tie(r, cnode_ancestor(r, a, da - db), b)
                    : cnode_tie(r, a, cnode_ancestor(r, b, db - da));
    return c ? c : da > db ? 1 : -1;
  }
  int32_t pa = pomp_report_cnode(r, a)->parent, pb = pomp_report_cnode(r, b)->parent;
  int c = pa >= 0 && pb >= 0 ? cnode_tie(r, pa, pb) : 0;
  return c ? c : region_tie(r, pomp_report_cnode(r, a)->region, pomp_report_cnode(r, b)->region);
}

static int location_tie(const pomp_report *r, int32_t a, int32_t b) {
  const pomp_sysnode *x = pomp_report_sysnode(r, pomp_report_location_sysnode(r, a));
  const pomp_sysnode *y = pomp_report_sysnode(r, pomp_report_location_sysnode(r, b));
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return (x->thread > y->thread) - (x->thread < y->thread);
}

static int in_subtree(const pomp_report *r, int32_t m, int32_t root) {
  for (; m >= 0; m = pomp_report_metric(r, m)->parent)
    if (m == root) return 1;
  return 0;
}

typedef struct {
  const pomp_report *r;
  double total;              /* time, metric-inclusive: the 100 % */
  int n;                     /* call paths and locations per property */
  double *by_cnode, *by_loc; /* exclusive, [metric][cnode or location] */
  double *by_region;         /* one property's own part per region */
  double equal_within;       /* values closer than this rank as equal */
} stat_ctx;

/* "MPI_Recv (mpi)": a region and the paradigm it belongs to; functions
   without their parameter lists (pomp_report_region_label). */
static void print_region(const pomp_report *r, int32_t g) {
  const pomp_region *rg = pomp_report_region(r, g);
  char label[512];
  pomp_report_region_label(r, g, label, sizeof label);
  printf(rg->paradigm && *rg->paradigm ? "%s (%s)" : "%s", label, rg->paradigm);
}

/* A call path of labels, cut at the root end beyond STAT_PATH_WIDTH. */
enum { STAT_PATH_WIDTH = 100 };
static const char *path_label(const pomp_report *r, int32_t cnode, char *buf) {
  pomp_report_callpath_label(r, cnode, ";", STAT_PATH_WIDTH, buf, STAT_PATH_WIDTH + 1);
  return buf;
}

/* Seconds as pomp-tui shows them ("9.52 s", "394 µs"): s holds them. */
typedef struct {
  char text[32];
} stat_seconds;

static stat_seconds seconds(double v) {
  stat_seconds s;
  pu_format_seconds(s.text, sizeof s.text, v);
  return s;
}

/* Seconds right-aligned in STAT_SECONDS_WIDTH columns: "µs" is one column
   in two bytes, so printf's byte width would shift it. */
enum { STAT_SECONDS_WIDTH = 9 };
static void print_seconds_column(double v) {
  stat_seconds s = seconds(v);
  int columns = pu_utf8_columns(s.text);
  printf("%*s%s", columns < STAT_SECONDS_WIDTH ? STAT_SECONDS_WIDTH - columns : 0, "", s.text);
}

/* The own part of a parent property is the time of the regions that none
   of its sub-properties classifies (under execution, a TRACE BUFFER FLUSH
   of the measurement, say): its name alone does not tell what it is.  So
   it is summed per region over the call paths, the largest region ends
   the heading ("mostly" when it holds more than half) and the n largest
   get a line each (-n 0: the heading still names the largest).  Returns
   the number of region lines, in best[]. */
static int own_part_regions(stat_ctx *x, const double *cv, double v, int32_t *best) {
  const pomp_report *r = x->r;
  int32_t ng = pomp_report_num_regions(r);
  memset(x->by_region, 0, (size_t)ng * sizeof *x->by_region);
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++)
    x->by_region[pomp_report_cnode(r, c)->region] += cv[c];
  int k = top(x->by_region, ng, x->n > 0 ? x->n : 1, best,
              &(stat_order){r, region_tie, x->equal_within});
  if (k > 0 && v > 0 && x->by_region[best[0]] > 0) {
    fputs(2 * x->by_region[best[0]] > v ? ", mostly " : ", largest part ", stdout);
    print_region(r, best[0]);
  }
  return k < x->n ? k : x->n;
}

/* The 100 % of a report's percentages: its total time; in a difference
   (attribute diff) B's total time (diff_base), else |total|, so that a
   property that grew is positive whatever the sign of the total. */
static double diff_base(const pomp_report *r, double total, const char **what) {
  *what = NULL;
  if (!pomp_report_attr(r, "diff")) return total;
  const char *base = pomp_report_attr(r, "diff_base");
  double b = base ? strtod(base, NULL) : 0;
  *what = b > 0 ? "B's total time" : "|total time|";
  return b > 0 ? b : total < 0 ? -total : total;
}

static void print_property(stat_ctx *x, int rank, int32_t m) {
  const pomp_report *r = x->r;
  const pomp_metric *pm = pomp_report_metric(r, m);
  double v = pomp_report_metric_total(r, m, 0);
  /* A property with sub-properties is ranked by its own part only. */
  int parent = pomp_report_metric_children(r, m, NULL, 0) > 0;
  printf("%2d. %s (%s%s): %.2f %% of time, %s", rank, pm->name, pm->display,
         parent ? ", own part" : "", 100 * v / x->total, seconds(v).text);
  int32_t nc = pomp_report_num_cnodes(r), nl = pomp_report_num_locations(r);
  int32_t *best = pu_malloc(((size_t)x->n + 1) * sizeof *best);
  const double *cv = x->by_cnode + (size_t)m * (size_t)nc;
  int regions = parent ? own_part_regions(x, cv, v, best) : 0;
  putchar('\n');
  for (int i = 0; i < regions; i++) {
    printf("    region    %7.2f %% ", 100 * x->by_region[best[i]] / x->total);
    print_seconds_column(x->by_region[best[i]]);
    fputs("  ", stdout);
    print_region(r, best[i]);
    putchar('\n');
  }
  char path[STAT_PATH_WIDTH + 1];
  stat_order paths = {r, cnode_tie, x->equal_within},
             locations = {r, location_tie, x->equal_within};
  for (int i = 0, k = top(cv, nc, x->n, best, &paths); i < k; i++) {
    printf("    call path %7.2f %% ", 100 * cv[best[i]] / x->total);
    print_seconds_column(cv[best[i]]);
    printf("  %s\n", path_label(r, best[i], path));
  }
  const double *lv = x->by_loc + (size_t)m * (size_t)nl;
  for (int i = 0, k = top(lv, nl, x->n, best, &locations); i < k; i++) {
    const pomp_sysnode *t = pomp_report_sysnode(r, pomp_report_location_sysnode(r, best[i]));
    printf("    location  %7.2f %% ", 100 * lv[best[i]] / x->total);
    print_seconds_column(lv[best[i]]);
    printf("  rank %d thread %d\n", (int)t->rank, (int)t->thread);
  }
  char cause[POMP_REPORT_CAUSE_SIZE]; /* what made them wait: the delay costs */
  if (pomp_report_wait_cause(r, m, cause, sizeof cause)) printf("    cause     %s\n", cause);
  free(best);
}

/* Fills the per-cnode and per-location tables of the metrics under time
   (exclusive in both trees); 0, or 1 on a corrupt row. */
static int tabulate(stat_ctx *x, int32_t time) {
  const pomp_report *r = x->r;
  size_t nm = (size_t)pomp_report_num_metrics(r);
  size_t nc = (size_t)pomp_report_num_cnodes(r);
  size_t nl = (size_t)pomp_report_num_locations(r);
  x->by_cnode = pu_calloc(nm * nc + 1, sizeof *x->by_cnode);
  x->by_loc = pu_calloc(nm * nl + 1, sizeof *x->by_loc);
  x->by_region = pu_calloc((size_t)pomp_report_num_regions(r) + 1, sizeof *x->by_region);
  for (size_t m = 0; m < nm; m++) {
    if (!in_subtree(r, (int32_t)m, time)) continue;
    pomp_report_cnode_values(r, (int32_t)m, 0, x->by_cnode + m * nc);
    pomp_report_selection s = {(int32_t)m, 0, -1, 1};
    pomp_report_error err;
    if (pomp_report_location_values(r, &s, x->by_loc + m * nl, &err)) {
      pu_error("%s", err.message);
      return 1;
    }
  }
  return 0;
}

static void print_other_metrics(const pomp_report *r, int32_t time) {
  static const char *const units[] = {"", " occ", " bytes"}; /* seconds carry theirs */
  int other = 0;
  for (int32_t m = 0; m < pomp_report_num_metrics(r); m++) {
    const pomp_metric *pm = pomp_report_metric(r, m);
    if (pm->parent >= 0 || m == time) continue;
    char num[40];
    double total = pomp_report_metric_total(r, m, 1);
    /* seconds as the sections above print them (a sum of many values
       carries float noise in its 16th digit); counts exactly */
    if (pm->unit == POMP_UNIT_SEC) pu_format_seconds(num, sizeof num, total);
    else cli_format_double(num, sizeof num, total);
    printf("%s%s (%s): %s%s\n", other++ ? "" : "\nother metrics:\n", pm->name, pm->display, num,
           units[pm->unit]);
  }
}

int cmd_stat(int argc, char **argv) {
  const char *path;
  long long n = 3;
  const pu_option options[] = {{"top", 'n', "N",
                                "worst call paths and worst locations listed under "
                                "each property (default 3, at most 1000); the "
                                "properties are all ranked",
                                PU_INT(&n, 0, LLONG_MAX)},
                               PU_OPT_END};
  const pu_opt_command cmd = {
      "stat", "REPORT", 1, 1, .summary = summary, .options = options, .failure = CLI_FAILURE};
  pu_opt_parse(&cmd, argc, argv, &path);
  if (n > 1000) n = 1000;
  pomp_report *r = cli_open(path);
  int32_t time = cli_metric(r, "time", path);
  stat_ctx x = {r, pomp_report_metric_total(r, time, 1), (int)n, NULL, NULL, NULL, 0};
  double total = x.total;
  const char *base_name; /* what the percentages of a difference are of */
  x.total = diff_base(r, total, &base_name);
  x.equal_within = STAT_EQUAL_SHARE * (x.total < 0 ? -x.total : x.total);
  cli_print_warnings(r);
  int rc = tabulate(&x, time);
  if (!rc) {
    int32_t nm = pomp_report_num_metrics(r);
    printf("%s: total time %s on %d locations, %d call paths\n", path, seconds(total).text,
           (int)pomp_report_num_locations(r), (int)pomp_report_num_cnodes(r));
    if (base_name)
      printf("difference %s: %% of %s %s\n", pomp_report_attr(r, "diff"), base_name,
             seconds(x.total).text);
    const char *instrumentation = pomp_report_attr(r, "instrumentation");
    if (instrumentation) printf("instrumentation: %s\n", instrumentation);
    const char *not_computed = pomp_report_attr(r, POMP_REPORT_NOT_COMPUTED);
    if (not_computed) printf("not computed: %s\n", not_computed);
    putchar('\n');
    /* properties under time, by exclusive total, largest first */
    double *own = pu_calloc((size_t)nm + 1, sizeof *own);
    for (int32_t m = 0; m < nm; m++)
      if (in_subtree(r, m, time)) own[m] = pomp_report_metric_total(r, m, 0);
    int32_t *order = pu_malloc(((size_t)nm + 1) * sizeof *order);
    stat_order properties = {r, metric_tie, x.equal_within};
    int k = x.total != 0 ? top(own, nm, nm, order, &properties) : 0;
    for (int i = 0; i < k; i++) print_property(&x, i + 1, order[i]);
    print_other_metrics(r, time);
    free(own);
    free(order);
  }
  free(x.by_cnode);
  free(x.by_loc);
  free(x.by_region);
  pomp_report_free(r);
  return rc ? POMP_EXIT_FAILURE : POMP_EXIT_OK;
}
