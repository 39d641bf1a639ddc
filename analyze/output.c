/* output.c -- the analysis as a pomp report (include/pomp_report.h): the
 * catalogue, regions, the call tree in a canonical order, the system tree
 * and the values converted from ticks to seconds.
 *
 * The canonical call-tree order (depth first, siblings by region id) does
 * not depend on the order in which locations were replayed, so a serial
 * and a parallel analysis of one trace write identical reports. */
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_calltree.h"
#include "az_cells.h"
#include "az_common.h"
#include "az_critical.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_metrics.h"
#include "az_output.h"
#include "otf2_names.h"
#include "pomp_util.h"

static const az_cnode *order_nodes; /* qsort context */

static int cmp_sibling(const void *pa, const void *pb) {
  const az_cnode *a = &order_nodes[*(const int32_t *)pa];
  const az_cnode *b = &order_nodes[*(const int32_t *)pb];
  if (a->region != b->region) return a->region < b->region ? -1 : 1;
  return 0;
}

static int live(const az_calltree *t, size_t i) { return !t->dead || !t->dead[i]; }

int32_t *az_canonical_order(const az_calltree *t) {
  size_t n = t->len;
  /* children lists in CSR form: first[p + 1] .. first[p + 2] for parent p,
     roots under slot 0 */
  size_t *first = pu_calloc(n + 2, sizeof *first);
  /* nodes grafted away (nested.c) are nobody's children: left out */
  for (size_t i = 0; i < n; i++)
    if (live(t, i)) first[(size_t)(t->nodes[i].parent + 1) + 1]++;
  for (size_t i = 1; i < n + 2; i++) first[i] += first[i - 1];
  int32_t *kids = pu_malloc((n ? n : 1) * sizeof *kids);
  size_t *fill = pu_malloc((n + 1) * sizeof *fill);
  memcpy(fill, first, (n + 1) * sizeof *fill);
  for (size_t i = 0; i < n; i++)
    if (live(t, i)) kids[fill[t->nodes[i].parent + 1]++] = (int32_t)i;
  order_nodes = t->nodes;
  for (size_t p = 0; p < n + 1; p++)
    az_sort(kids + first[p], first[p + 1] - first[p], sizeof *kids, cmp_sibling);
  /* depth-first numbering with an explicit stack */
  int32_t *newid = pu_malloc((n ? n : 1) * sizeof *newid);
  for (size_t i = 0; i < n; i++) newid[i] = -1;
  int32_t *stack = pu_malloc((n ? n : 1) * sizeof *stack);
  size_t sp = 0, next = 0;
  for (size_t k = first[1]; k-- > first[0];) stack[sp++] = kids[k];
  while (sp) {
    int32_t c = stack[--sp];
    newid[c] = (int32_t)next++;
    for (size_t k = first[c + 2]; k-- > first[c + 1];) stack[sp++] = kids[k];
  }
  free(stack);
  free(fill);
  free(kids);
  free(first);
  return newid;
}

/* Whether a call path has region (the one paused recording stands for
   appears only in traces that pause). */
static int region_used(const az_calltree *t, uint32_t region) {
  for (size_t i = 0; i < t->len; i++)
    if (t->nodes[i].region == (int32_t)region) return 1;
  return 0;
}

static void add_regions(pomp_report *r, const az_defs *d, const az_calltree *t, int32_t *map) {
  for (size_t i = 0; i < d->num_regions; i++) {
    const az_region *g = &d->regions[i];
    map[i] = -1;
    if (!g->defined || (i == d->off_region && !region_used(t, d->off_region))) continue;
    map[i] =
        pomp_report_add_region(r, g->name, g->file, (int32_t)g->begin_line, (int32_t)g->end_line,
                               pu_paradigm_name(g->paradigm), pu_role_name(g->role));
  }
}

static void add_cnodes(pomp_report *r, const az_calltree *t, const int32_t *newid,
                       const int32_t *region_map) {
  int32_t *byid = pu_malloc((t->len ? t->len : 1) * sizeof *byid);
  size_t live = 0;
  for (size_t i = 0; i < t->len; i++)
    if (newid[i] >= 0) byid[newid[i]] = (int32_t)i, live++;
  for (size_t k = 0; k < live; k++) {
    const az_cnode *c = &t->nodes[byid[k]];
    pomp_report_add_cnode(r, region_map[c->region], c->parent < 0 ? -1 : newid[c->parent]);
  }
  free(byid);
}

/* How the run ended; a trace analysed with damaged event files skipped
   (--skip-damaged) is incomplete too, and says which locations. */
static void set_run_status(pomp_report *r, const az_analysis *a) {
  const char *status = a->run_status ? a->run_status : "complete";
  if (!a->damaged) {
    pomp_report_set_attr(r, "run_status", status);
    return;
  }
  pomp_report_set_attr(r, "damaged_locations", a->damaged);
  const char *what = "damaged event files analysed up to the damage (--skip-damaged): ";
  int finished = !strcmp(status, "complete");
  size_t n = strlen(status) + strlen(what) + strlen(a->damaged) + 16;
  char *text = pu_malloc(n);
  snprintf(text, n, "%s%s%s%s", finished ? "incomplete: " : status, finished ? "" : "; ", what,
           a->damaged);
  pomp_report_set_attr(r, "run_status", text);
  free(text);
}

/* machine > node (host) > process > thread, locations in our order. */
static void add_system(pomp_report *r, const az_defs *d) {
  const char *machine = "machine";
  for (size_t i = 0; i < d->num_nodes; i++)
    if (d->nodes[i].parent == OTF2_UNDEFINED_SYSTEM_TREE_NODE) machine = d->nodes[i].name;
  int32_t mid = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, machine, -1, -1, -1);
  int32_t node = -1;
  uint32_t node_id = UINT32_MAX;
  for (size_t p = 0; p < d->num_procs; p++) {
    const az_process *pr = &d->procs[p];
    if (node < 0 || pr->node != node_id) {
      const char *host = "node";
      for (size_t i = 0; i < d->num_nodes; i++)
        if (d->nodes[i].id == pr->node) host = d->nodes[i].name;
      node = pomp_report_add_sysnode(r, POMP_SYS_NODE, host, mid, -1, -1);
      node_id = pr->node;
    }
    int32_t proc = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, pr->name, node, (int32_t)p, -1);
    for (uint32_t t = 0; t < pr->num_locs; t++)
      pomp_report_add_sysnode(r, POMP_SYS_THREAD, d->locs[pr->first_loc + t].name, proc, (int32_t)p,
                              (int32_t)t);
  }
}

static void add_attrs(pomp_report *r, const az_analysis *a, const char *trace) {
  char buf[64];
  uint32_t threads = 0;
  for (size_t p = 0; p < a->defs.num_procs; p++)
    if (a->defs.procs[p].num_locs > threads) threads = a->defs.procs[p].num_locs;
  pomp_report_set_attr(r, "trace", trace);
  snprintf(buf, sizeof buf, "%zu", a->defs.num_procs);
  pomp_report_set_attr(r, "ranks", buf);
  snprintf(buf, sizeof buf, "%u", threads);
  pomp_report_set_attr(r, "threads", buf);
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)a->events_read);
  pomp_report_set_attr(r, "events", buf);
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)az_warn_total(&a->diag));
  pomp_report_set_attr(r, "analysis_warnings", buf);
  pomp_report_set_attr(r, "analyzer", "pomp-analyze " POMP_VERSION_STRING);
  set_run_status(r, a);
  if (a->throttled) pomp_report_set_attr(r, "throttled", a->throttled);
  if (a->instrumentation) pomp_report_set_attr(r, "instrumentation", a->instrumentation);
}

/* The text of the attribute not_computed (docs/FORMAT.md), growing. */
typedef struct {
  char text[2048];
  size_t len;
  char *done; /* [report metric]: named already, itself or an ancestor */
} not_computed;

/* Appends "NAMES (REASON)" for the metric subtrees of slots first..last
   (each range holds whole subtrees) not named before. */
static void not_computed_entry(const pomp_report *r, const int32_t *metric, not_computed *nc,
                               int first, int last, const char *reason) {
  int32_t nm = pomp_report_num_metrics(r);
  char *in = pu_calloc((size_t)nm + 1, 1);
  for (int m = first; m <= last; m++)
    if (!nc->done[metric[m]]) in[metric[m]] = 1;
  size_t size = sizeof nc->text, at = nc->len;
  int named = 0;
  for (int32_t m = 0; m < nm; m++) {
    int32_t parent = pomp_report_metric(r, m)->parent;
    if (!in[m] || (parent >= 0 && in[parent])) continue;
    at += (size_t)snprintf(nc->text + (at < size ? at : size), at < size ? size - at : 0, "%s%s",
                           named ? " "
                           : at  ? "; "
                                 : "",
                           pomp_report_metric(r, m)->name);
    named = 1;
  }
  if (named) {
    at += (size_t)snprintf(nc->text + (at < size ? at : size), at < size ? size - at : 0, " (%s)",
                           reason);
    nc->len = at < size ? at : size - 1;
  }
  for (int32_t m = 0; m < nm; m++) {
    int32_t parent = pomp_report_metric(r, m)->parent;
    if (in[m] || (parent >= 0 && nc->done[parent])) nc->done[m] = 1;
  }
  free(in);
}

/* What was not computed and why: the analyses switched off first, then
   what the model's limits voided of the rest. */
static void add_not_computed(pomp_report *r, const az_analysis *a, const int32_t *metric) {
  not_computed nc = {.len = 0};
  nc.done = pu_calloc((size_t)pomp_report_num_metrics(r) + 1, 1);
  if (a->switched_off & AZ_OFF_ROOTCAUSE)
    not_computed_entry(r, metric, &nc, AZ_DELAY, AZ_DELAY_OMPIDLE_LONGTERM,
                       "switched off: --no-rootcause");
  if (a->switched_off & AZ_OFF_CRITICAL_PATH)
    not_computed_entry(r, metric, &nc, AZ_CRITICAL_PATH, AZ_NON_CRITICAL_PATH_ACTIVITIES,
                       "switched off: --no-critical-path");
  char why[512] = "model limit: ";
  size_t at = strlen(why);
  int first = az_critical_limits_why(a->model_limits, why + at, sizeof why - at);
  if (first <= AZ_RECOUNT_LAST) not_computed_entry(r, metric, &nc, first, AZ_RECOUNT_LAST, why);
  if (nc.len) pomp_report_set_attr(r, POMP_REPORT_NOT_COMPUTED, nc.text);
  free(nc.done);
}

pomp_report *az_report_build(const az_analysis *a, const char *trace, int32_t **cnode_map) {
  pomp_report *r = pomp_report_new();
  pomp_report_add_catalogue(r);
  int32_t metric[AZ_NUM_METRICS];
  for (int m = 0; m < AZ_NUM_METRICS; m++)
    if ((metric[m] = pomp_report_find_metric(r, az_metric_name[m])) < 0)
      pu_die(POMP_EXIT_FAILURE, "internal error: metric %s not in the catalogue",
             az_metric_name[m]);
  int32_t *region_map =
      pu_malloc((a->defs.num_regions ? a->defs.num_regions : 1) * sizeof *region_map);
  add_regions(r, &a->defs, &a->tree, region_map);
  int32_t *newid = az_canonical_order(&a->tree);
  add_cnodes(r, &a->tree, newid, region_map);
  add_system(r, &a->defs);
  add_attrs(r, a, trace);
  add_not_computed(r, a, metric);
  /* division, not multiplication by 1/resolution: 50 ticks at 1 GHz must
     become exactly the double nearest to 5e-8 */
  double res = (double)a->defs.resolution;
  for (uint32_t l = 0; l < a->defs.num_locs; l++) {
    const az_cells *c = &a->cells[l];
    for (size_t k = 0; k < c->nrows; k++)
      for (int m = 0; m < AZ_NUM_METRICS; m++) {
        int64_t v = c->rows[k][m];
        if (!v) continue;
        double x = az_metric_is_time(m) ? (double)v / res : (double)v;
        pomp_report_add_value(r, metric[m], newid[c->row_cnode[k]], (int32_t)l, x);
      }
  }
  free(region_map);
  if (cnode_map) *cnode_map = newid;
  else free(newid);
  return r;
}
