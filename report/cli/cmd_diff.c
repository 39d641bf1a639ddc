/* cmd_diff.c -- pomp-report diff A B [-o C]: C = A - B, cell by cell, over
 * the union of the definitions (like cube_diff).  C starts as a copy of
 * A's definitions, so A's ids are C's ids; B's definitions are matched by
 * meaning: metrics by name, regions by name, file and line, call paths by
 * their chain of regions, locations by (rank, thread).  What B has and A
 * lacks is added.  Values may become negative.  Rows are streamed: memory
 * holds the definitions and one row. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pomp_util.h"
#include "report_strmap.h"

static const char summary[] =
    "Writes C = A minus B over the union of both reports' definitions\n"
    "(metrics matched by name, call paths by region names, locations by\n"
    "rank and thread).  Negative values mean B is larger.  If A or B comes\n"
    "from a run that did not finish, C's run_status names it and says how;\n"
    "metrics either did not compute are marked not computed in C.\n"
    "Without -o, C is diff.pomp in the current directory (as cube_diff\n"
    "writes diff.cubex), said on stderr; it replaces an earlier difference\n"
    "there, never an input or another file.\n";

/* The output without -o, as cube_diff's diff.cubex. */
static const char default_output[] = "diff.pomp";

/* Ids of B mapped into C (-1: not mapped yet), and C's regions and
   sysnodes by their matching key (region_key, sysnode_key). */
typedef struct {
  const pomp_report *b;
  pomp_report *c;
  int32_t *metric, *region, *cnode, *sysnode;
  report_strmap regions, sysnodes;
} merge;

static int32_t *minus_ones(int32_t n) {
  int32_t *a = pu_malloc(((size_t)n + 1) * sizeof *a);
  for (int32_t i = 0; i < n; i++) a[i] = -1;
  return a;
}

static void copy_definitions(pomp_report *c, const pomp_report *a) {
  for (int32_t i = 0; i < pomp_report_num_attrs(a); i++) {
    const char *k = pomp_report_attr_key(a, i);
    pomp_report_set_attr(c, k, pomp_report_attr(a, k));
  }
  for (int32_t i = 0; i < pomp_report_num_metrics(a); i++) {
    const pomp_metric *m = pomp_report_metric(a, i);
    pomp_report_add_metric(c, m->name, m->display, m->unit, m->description, m->parent);
  }
  for (int32_t i = 0; i < pomp_report_num_regions(a); i++) {
    const pomp_region *g = pomp_report_region(a, i);
    pomp_report_add_region(c, g->name, g->file, g->begin_line, g->end_line, g->paradigm, g->role);
  }
  for (int32_t i = 0; i < pomp_report_num_cnodes(a); i++)
    pomp_report_add_cnode(c, pomp_report_cnode(a, i)->region, pomp_report_cnode(a, i)->parent);
  for (int32_t i = 0; i < pomp_report_num_sysnodes(a); i++) {
    const pomp_sysnode *s = pomp_report_sysnode(a, i);
    pomp_report_add_sysnode(c, s->kind, s->name, s->parent, s->rank, s->thread);
  }
}

/* Regions match by name, file and first line. */
static const char *region_key(const pomp_region *g, char **buf, size_t *cap) {
  size_t need = strlen(g->name) + strlen(g->file) + 16;
  if (need > *cap) *buf = pu_realloc(*buf, *cap = need);
  snprintf(*buf, *cap, "%s\n%s\n%d", g->name, g->file, (int)g->begin_line);
  return *buf;
}

/* Sysnodes match like this: threads by (rank, thread), processes by rank
   (whatever host they ran on), nodes and machines by name under the same
   (C) parent. */
static const char *sysnode_key(const pomp_sysnode *s, int32_t parent, char **buf, size_t *cap) {
  size_t need = strlen(s->name) + 40;
  if (need > *cap) *buf = pu_realloc(*buf, *cap = need);
  if (s->kind == POMP_SYS_THREAD) snprintf(*buf, *cap, "t%d.%d", (int)s->rank, (int)s->thread);
  else if (s->kind == POMP_SYS_PROCESS) snprintf(*buf, *cap, "p%d", (int)s->rank);
  else snprintf(*buf, *cap, "%d:%d:%s", (int)s->kind, (int)parent, s->name);
  return *buf;
}

typedef struct {
  char *buf;
  size_t cap;
} key_buf;

/* Maps B's sysnode i into C, adding it (and its ancestors) if missing.
   Threads and processes are looked up before their parents are mapped, so
   a rank on another host name still matches. */
static int32_t map_sysnode(merge *x, int32_t i, key_buf *k) {
  if (x->sysnode[i] >= 0) return x->sysnode[i];
  const pomp_sysnode *s = pomp_report_sysnode(x->b, i);
  int32_t found = s->kind >= POMP_SYS_PROCESS
                      ? report_strmap_get(&x->sysnodes, sysnode_key(s, -1, &k->buf, &k->cap))
                      : -1;
  if (found < 0) {
    int32_t parent = s->parent >= 0 ? map_sysnode(x, s->parent, k) : -1;
    const char *key = sysnode_key(s, parent, &k->buf, &k->cap);
    found = report_strmap_get(&x->sysnodes, key);
    if (found < 0) {
      found = pomp_report_add_sysnode(x->c, s->kind, s->name, parent, s->rank, s->thread);
      report_strmap_put(&x->sysnodes, key, found);
    }
  }
  return x->sysnode[i] = found;
}

/* Indexes C's regions and sysnodes (A's, before B is merged). */
static void index_c(merge *x, key_buf *k) {
  for (int32_t i = 0; i < pomp_report_num_regions(x->c); i++)
    report_strmap_put(&x->regions, region_key(pomp_report_region(x->c, i), &k->buf, &k->cap), i);
  for (int32_t i = 0; i < pomp_report_num_sysnodes(x->c); i++) {
    const pomp_sysnode *s = pomp_report_sysnode(x->c, i);
    const char *key = sysnode_key(s, s->parent, &k->buf, &k->cap);
    if (report_strmap_get(&x->sysnodes, key) < 0) report_strmap_put(&x->sysnodes, key, i);
  }
}

static void merge_definitions(merge *x) {
  const pomp_report *b = x->b;
  key_buf k = {NULL, 0};
  index_c(x, &k);
  for (int32_t i = 0; i < pomp_report_num_metrics(b); i++) {
    const pomp_metric *m = pomp_report_metric(b, i);
    x->metric[i] = pomp_report_find_metric(x->c, m->name);
    if (x->metric[i] < 0)
      x->metric[i] = pomp_report_add_metric(x->c, m->name, m->display, m->unit, m->description,
                                            m->parent >= 0 ? x->metric[m->parent] : -1);
  }
  for (int32_t i = 0; i < pomp_report_num_regions(b); i++) {
    const pomp_region *g = pomp_report_region(b, i);
    const char *key = region_key(g, &k.buf, &k.cap);
    x->region[i] = report_strmap_get(&x->regions, key);
    if (x->region[i] < 0) {
      x->region[i] = pomp_report_add_region(x->c, g->name, g->file, g->begin_line, g->end_line,
                                            g->paradigm, g->role);
      report_strmap_put(&x->regions, key, x->region[i]);
    }
  }
  for (int32_t i = 0; i < pomp_report_num_cnodes(b); i++) {
    const pomp_cnode *n = pomp_report_cnode(b, i);
    x->cnode[i] = pomp_report_add_cnode(x->c, x->region[n->region],
                                        n->parent >= 0 ? x->cnode[n->parent] : -1);
  }
  for (int32_t i = 0; i < pomp_report_num_sysnodes(b); i++)
    if (pomp_report_sysnode(b, i)->kind == POMP_SYS_THREAD) map_sysnode(x, i, &k);
  free(k.buf);
}

/* Inverse of a map from B ids (n of them) to C ids (m of them). */
static int32_t *inverse(const int32_t *map, int32_t n, int32_t m) {
  int32_t *inv = minus_ones(m);
  for (int32_t i = n - 1; i >= 0; i--)
    if (map[i] >= 0) inv[map[i]] = i;
  return inv;
}

typedef struct {
  double *acc;   /* per C location */
  char *touched; /* per C location */
  int32_t *locs, *list, nlist;
  double *vals;
} row_acc;

/* Adds sign x row (m, c) of src, its locations mapped by loc (NULL: same
   ids), into the accumulator.  Returns 0, or 1 on a corrupt row. */
static int add_row(row_acc *a, const pomp_report *src, int32_t m, int32_t c, const int32_t *loc,
                   double sign) {
  pomp_report_error err;
  int32_t n = pomp_report_row_get(src, m, c, a->locs, a->vals, &err);
  if (n < 0) {
    pu_error("%s", err.message);
    return 1;
  }
  for (int32_t k = 0; k < n; k++) {
    int32_t l = loc ? loc[a->locs[k]] : a->locs[k];
    if (!a->touched[l]) {
      a->touched[l] = 1;
      a->list[a->nlist++] = l;
    }
    a->acc[l] += sign * a->vals[k];
  }
  return 0;
}

static int int32_order(const void *p, const void *q) {
  int32_t x = *(const int32_t *)p, y = *(const int32_t *)q;
  return (x > y) - (x < y);
}

/* Writes the accumulated row and clears the accumulator. */
static pomp_report_status flush_row(row_acc *a, pomp_report_writer *w, int32_t m, int32_t c,
                                    pomp_report_error *err) {
  qsort(a->list, (size_t)a->nlist, sizeof *a->list, int32_order);
  for (int32_t k = 0; k < a->nlist; k++) {
    a->vals[k] = a->acc[a->list[k]];
    a->acc[a->list[k]] = 0;
    a->touched[a->list[k]] = 0;
  }
  pomp_report_status st = pomp_report_write_row(w, m, c, a->list, a->vals, (size_t)a->nlist, err);
  a->nlist = 0;
  return st;
}

static int write_difference(const pomp_report *a, const merge *x, const char *out) {
  const pomp_report *c = x->c;
  int32_t nm = pomp_report_num_metrics(c), nc = pomp_report_num_cnodes(c);
  int32_t nl = pomp_report_num_locations(c), nb = pomp_report_num_locations(x->b);
  int32_t *b_metric = inverse(x->metric, pomp_report_num_metrics(x->b), nm);
  int32_t *b_cnode = inverse(x->cnode, pomp_report_num_cnodes(x->b), nc);
  int32_t *b_loc = pu_malloc(((size_t)nb + 1) * sizeof *b_loc);
  for (int32_t l = 0; l < nb; l++)
    b_loc[l] = pomp_report_sysnode(c, x->sysnode[pomp_report_location_sysnode(x->b, l)])->location;
  int32_t big = nl > nb ? nl : nb;
  row_acc acc = {pu_calloc((size_t)nl + 1, sizeof(double)),
                 pu_calloc((size_t)nl + 1, 1),
                 pu_malloc(((size_t)big + 1) * sizeof(int32_t)),
                 pu_malloc(((size_t)nl + 1) * sizeof(int32_t)),
                 0,
                 pu_malloc(((size_t)big + 1) * sizeof(double))};
  pomp_report_error err = {0};
  pomp_report_writer *w = pomp_report_write_begin(c, out, &err);
  int failed = !w;
  for (int32_t m = 0; m < nm && !failed; m++)
    for (int32_t n = 0; n < nc && !failed; n++) {
      if (m < pomp_report_num_metrics(a) && n < pomp_report_num_cnodes(a))
        failed = add_row(&acc, a, m, n, NULL, 1.0);
      if (!failed && b_metric[m] >= 0 && b_cnode[n] >= 0)
        failed = add_row(&acc, x->b, b_metric[m], b_cnode[n], b_loc, -1.0);
      if (!failed && acc.nlist) failed = flush_row(&acc, w, m, n, &err) != 0;
    }
  if (w && failed) pomp_report_write_abort(w);
  else if (w && pomp_report_write_end(w, &err)) failed = 1;
  if (failed && err.message[0]) pu_error("%s", err.message);
  free(b_metric);
  free(b_cnode);
  free(b_loc);
  free(acc.acc);
  free(acc.touched);
  free(acc.locs);
  free(acc.list);
  free(acc.vals);
  return failed;
}

/* C is a difference of two runs, only as complete as both: C starts with
   A's run_status, and when either run did not finish, C's says which one
   and how ("incomplete: B (b.pomp): rank 1 called MPI_Abort(...)"), so
   that stat and pomp-tui warn about C as they would about A or B. */
static void set_run_status(pomp_report *c, const pomp_report *const in[2],
                           const char *const path[2]) {
  static const char *const label[2] = {"A", "B"};
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (!out) pu_die(POMP_EXIT_FAILURE, "out of memory");
  int n = 0;
  for (int i = 0; i < 2; i++) {
    const char *why = pomp_report_run_incomplete(in[i]);
    if (why) fprintf(out, "%s%s (%s): %s", n++ ? "; " : "incomplete: ", label[i], path[i], why);
  }
  fclose(out);
  if (n) pomp_report_set_attr(c, POMP_REPORT_RUN_STATUS, text);
  free(text);
}

/* What A or B did not compute has no difference either: C names both
   (A's entries first; the first entry naming a metric gives its reason,
   docs/FORMAT.md), so that pop, stat and pomp-tui do not show the
   other's values as a measured difference. */
static void set_not_computed(pomp_report *c, const pomp_report *a, const pomp_report *b) {
  const char *in_a = pomp_report_attr(a, POMP_REPORT_NOT_COMPUTED);
  const char *in_b = pomp_report_attr(b, POMP_REPORT_NOT_COMPUTED);
  if (!in_b || !*in_b) return; /* A's, copied with its definitions */
  if (!in_a || !*in_a) {
    pomp_report_set_attr(c, POMP_REPORT_NOT_COMPUTED, in_b);
    return;
  }
  size_t len = strlen(in_a) + strlen(in_b) + 3;
  char *both = pu_malloc(len);
  snprintf(both, len, "%s; %s", in_a, in_b);
  pomp_report_set_attr(c, POMP_REPORT_NOT_COMPUTED, both);
  free(both);
}

/* What diff.pomp may replace without -o: an earlier difference (running
   the command again is what it is for), not a run's report named so. */
static int is_difference(const pomp_report *old) { return pomp_report_attr(old, "diff") != NULL; }

int cmd_diff(int argc, char **argv) {
  const char *out = NULL, *pos[2];
  const pu_option options[] = {
      {"output", 'o', "C", "the report to write, not A or B (default: diff.pomp)", PU_STRING(&out)},
      PU_OPT_END};
  const pu_opt_command cmd = {
      "diff", "A B", 2, 2, .summary = summary, .options = options, .failure = CLI_FAILURE};
  pu_opt_parse(&cmd, argc, argv, pos);
  const cli_earlier_output difference = {"a difference of two reports", is_difference};
  cli_output c = cli_choose_output(out, default_output, pos, 2, &difference);
  pomp_report *a = cli_open_compared(pos[0], pos[1]), *b = cli_open_compared(pos[1], pos[0]);
  merge x = {b,
             pomp_report_new(),
             minus_ones(pomp_report_num_metrics(b)),
             minus_ones(pomp_report_num_regions(b)),
             minus_ones(pomp_report_num_cnodes(b)),
             minus_ones(pomp_report_num_sysnodes(b)),
             {0},
             {0}};
  copy_definitions(x.c, a);
  merge_definitions(&x);
  size_t len = strlen(pos[0]) + strlen(pos[1]) + 8;
  char *what = pu_malloc(len);
  snprintf(what, len, "%s - %s", pos[0], pos[1]);
  pomp_report_set_attr(x.c, "diff", what);
  free(what);
  /* the base of the difference's percentages: B's total time (FORMAT.md) */
  char base[32];
  snprintf(base, sizeof base, "%.17g",
           pomp_report_metric_total(b, cli_metric(b, "time", pos[1]), 1));
  pomp_report_set_attr(x.c, "diff_base", base);
  set_run_status(x.c, (const pomp_report *const[2]){a, b}, pos);
  set_not_computed(x.c, a, b);
  int failed = write_difference(a, &x, c.path);
  if (!failed) cli_say_written(c, "%s - %s", pos[0], pos[1]);
  free(x.metric);
  free(x.region);
  free(x.cnode);
  free(x.sysnode);
  report_strmap_free(&x.regions);
  report_strmap_free(&x.sysnodes);
  pomp_report_free(x.c);
  pomp_report_free(a);
  pomp_report_free(b);
  return failed ? POMP_EXIT_FAILURE : POMP_EXIT_OK;
}
