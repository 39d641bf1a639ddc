/* cmd_stat.c -- pomp-report stat: the performance properties ranked by
   their share of the total time (time, metric-inclusive, is 100 %), each
   with its worst call paths and worst locations (like cube_stat). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pomp_util.h"

static const char usage[] =
    "Usage: pomp-report stat REPORT [-n N]\n"
    "Ranks the properties under 'time' by their share of the total time\n"
    "(metric-inclusive), each with its N worst call paths (call-path\n"
    "exclusive) and N worst locations (default N = 3), then prints the\n"
    "totals of the other metrics (visits, bytes).\n";

/* The (at most) k largest non-zero entries of v, largest first, ties to the
   lower index.  Returns how many. */
static int top(const double *v, int32_t n, int k, int32_t *out) {
  int got = 0;
  for (int32_t i = 0; i < n; i++) {
    if (v[i] == 0) continue;
    int at = got;
    while (at > 0 && v[out[at - 1]] < v[i]) at--;
    if (at >= k) continue;
    if (got < k) got++;
    memmove(out + at + 1, out + at, (size_t)(got - 1 - at) * sizeof *out);
    out[at] = i;
  }
  return got;
}

/* rows[m * width ...] += rows[child ...] up the metric tree: exclusive
   vectors per metric become metric-inclusive ones. */
static void metric_inclusive(const pomp_report *r, double *rows, size_t width) {
  for (int32_t m = pomp_report_num_metrics(r) - 1; m > 0; m--) {
    int32_t p = pomp_report_metric(r, m)->parent;
    if (p < 0) continue;
    for (size_t i = 0; i < width; i++)
      rows[(size_t)p * width + i] += rows[(size_t)m * width + i];
  }
}

static int in_subtree(const pomp_report *r, int32_t m, int32_t root) {
  for (; m >= 0; m = pomp_report_metric(r, m)->parent)
    if (m == root) return 1;
  return 0;
}

typedef struct {
  const pomp_report *r;
  double total;
  int n;
  double *by_cnode, *by_loc; /* metric-inclusive, [metric][cnode/loc] */
  char *cp;
  size_t cap;
} stat_ctx;

static void print_property(stat_ctx *x, int rank, int32_t m) {
  const pomp_report *r = x->r;
  const pomp_metric *pm = pomp_report_metric(r, m);
  double v = pomp_report_metric_total(r, m, 1);
  printf("%2d. %s (%s): %.2f %% of time, %.6g s\n", rank, pm->name,
         pm->display, 100 * v / x->total, v);
  int32_t nc = pomp_report_num_cnodes(r), nl = pomp_report_num_locations(r);
  int32_t *best = pu_malloc((size_t)x->n * sizeof *best + 1);
  const double *cv = x->by_cnode + (size_t)m * (size_t)nc;
  for (int i = 0, k = top(cv, nc, x->n, best); i < k; i++)
    printf("    call path %7.2f %% %12.6g s  %s\n", 100 * cv[best[i]] / x->total,
           cv[best[i]], cli_callpath(r, best[i], &x->cp, &x->cap));
  const double *lv = x->by_loc + (size_t)m * (size_t)nl;
  for (int i = 0, k = top(lv, nl, x->n, best); i < k; i++) {
    const pomp_sysnode *t =
        pomp_report_sysnode(r, pomp_report_location_sysnode(r, best[i]));
    printf("    location  %7.2f %% %12.6g s  rank %d thread %d\n",
           100 * lv[best[i]] / x->total, lv[best[i]], (int)t->rank,
           (int)t->thread);
  }
  free(best);
}

/* Fills the per-cnode and per-location tables; 0 or 1 on a corrupt row. */
static int tabulate(stat_ctx *x) {
  const pomp_report *r = x->r;
  size_t nm = (size_t)pomp_report_num_metrics(r);
  size_t nc = (size_t)pomp_report_num_cnodes(r);
  size_t nl = (size_t)pomp_report_num_locations(r);
  x->by_cnode = pu_calloc(nm * nc + 1, sizeof *x->by_cnode);
  x->by_loc = pu_calloc(nm * nl + 1, sizeof *x->by_loc);
  for (size_t m = 0; m < nm; m++) {
    pomp_report_cnode_values(r, (int32_t)m, 0, x->by_cnode + m * nc);
    pomp_report_selection s = {(int32_t)m, 0, -1, 1};
    pomp_report_error err;
    if (pomp_report_location_values(r, &s, x->by_loc + m * nl, &err)) {
      pu_error("%s", err.message);
      return 1;
    }
  }
  metric_inclusive(r, x->by_cnode, nc);
  metric_inclusive(r, x->by_loc, nl);
  return 0;
}

int cmd_stat(int argc, char **argv) {
  const char *path, *n_text = "3";
  int got;
  cli_option opts[] = {{"top", 'n', &n_text, NULL}, {NULL, 0, NULL, NULL}};
  cli_parse(argc, argv, opts, &path, 1, &got, usage);
  if (got != 1) cli_usage_error("stat", "needs one REPORT");
  long long n = cli_integer("stat", "-n", n_text);
  if (n > 1000) n = 1000;
  pomp_report *r = cli_open(path);
  int32_t time = cli_metric(r, "time", path);
  stat_ctx x = {r, pomp_report_metric_total(r, time, 1), (int)n, NULL, NULL,
                NULL, 0};
  int rc = tabulate(&x);
  if (!rc) {
    int32_t nm = pomp_report_num_metrics(r);
    printf("%s: total time %.6g s on %d locations, %d call paths\n\n", path,
           x.total, (int)pomp_report_num_locations(r),
           (int)pomp_report_num_cnodes(r));
    /* properties under time, by inclusive total, largest first */
    double *totals = pu_calloc((size_t)nm + 1, sizeof *totals);
    for (int32_t m = 0; m < nm; m++)
      if (in_subtree(r, m, time)) totals[m] = pomp_report_metric_total(r, m, 1);
    int32_t *order = pu_malloc(((size_t)nm + 1) * sizeof *order);
    int k = x.total != 0 ? top(totals, nm, nm, order) : 0;
    for (int i = 0; i < k; i++) print_property(&x, i + 1, order[i]);
    int other = 0;
    for (int32_t m = 0; m < nm; m++) {
      const pomp_metric *pm = pomp_report_metric(r, m);
      if (pm->parent >= 0 || m == time) continue;
      static const char *const units[] = {"s", "occ", "bytes"};
      char num[40];
      cli_format_double(num, sizeof num, pomp_report_metric_total(r, m, 1));
      printf("%s%s (%s): %s %s\n", other++ ? "" : "\nother metrics:\n",
             pm->name, pm->display, num, units[pm->unit]);
    }
    free(totals);
    free(order);
  }
  free(x.by_cnode);
  free(x.by_loc);
  free(x.cp);
  pomp_report_free(r);
  return rc ? POMP_EXIT_FAILURE : POMP_EXIT_OK;
}
