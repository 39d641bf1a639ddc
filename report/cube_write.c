/* cube_write.c -- a report as a CUBE4 .cubex (pomp-report cube), for the
   CUBE GUI, cube_dump and the tools around them.
   Metrics keep pomp's tree under Scalasca's unique names (the few that
   differ are renamed here only) with Scalasca's pattern-help URLs.  CUBE
   wants values inclusive along the metric tree, so each metric's rows
   are the sums over its subtree; along the call tree "time" is written
   INCLUSIVE as Scalasca does, every other metric EXCLUSIVE.  Rows are
   sparse (only call paths with a value) and uncompressed, in the row
   order CubeW uses for the metric's type (cube_row_order). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube_internal.h"
#include "pomp_util.h"

/* pomp's names where Scalasca's differ (docs/FORMAT.md, CUBE section). */
static const char *const renamed[][2] = {
    {"omp", "omp_time"},
    {"omp_critical_contention", "omp_lock_contention_critical"},
    {"omp_lock_contention", "omp_lock_contention_api"},
    {"bytes_received", "bytes_rcvd"},
    {"mpi_wait_propagating_latesender", "mpi_wait_propagating_ls"},
    {"mpi_wait_propagating_latereceiver", "mpi_wait_propagating_lr"},
    {"mpi_wait_terminal_latesender", "mpi_wait_terminal_ls"},
    {"mpi_wait_terminal_latereceiver", "mpi_wait_terminal_lr"}};

/* The catalogue's properties Scalasca 2.6 has no pattern of (no help URL);
   every other catalogue property is Scalasca's, under its renamed name. */
static const char *const pomp_only[] = {"io", "posix_io", "io_bytes_read", "io_bytes_written",
                                        "mpi_io_collective_wait"};

/* Scalasca's name for a pomp metric, unless the report has a metric of
   that name already (a report read from a .cubex): names stay unique. */
static const char *cube_name(const pomp_report *r, const char *name) {
  for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
    if (strcmp(renamed[i][0], name) == 0 && pomp_report_find_metric(r, renamed[i][1]) < 0)
      return renamed[i][1];
  return name;
}

/* Does the metric pomp calls name, exported as cube, have a Scalasca
   pattern page?  A metric read from a Scalasca .cubex has one if it is
   one of Scalasca's names for pomp's properties. */
static int is_scalasca(const char *name, const char *cube) {
  for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++)
    if (strcmp(renamed[i][1], cube) == 0) return 1;
  for (size_t i = 0; i < sizeof pomp_only / sizeof pomp_only[0]; i++)
    if (strcmp(pomp_only[i], name) == 0) return 0;
  return report_catalogue_has(name);
}

static void put(report_buf *b, const char *s) {
  size_t n = strlen(s);
  memcpy(report_buf_grow(b, n), s, n);
}

static void putf(report_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(report_buf *b, const char *fmt, ...) {
  char tmp[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  put(b, tmp);
}

/* <tag>text</tag> with text escaped. */
static void element(report_buf *b, const char *tag, const char *text) {
  putf(b, "<%s>", tag);
  cube_xml_escape(b, text ? text : "");
  putf(b, "</%s>\n", tag);
}

typedef void (*tree_fn)(const pomp_report *r, int32_t id, int open, report_buf *b, void *ctx);

/* Visits a tree in preorder without recursion, calling fn at each node's
   opening and (after its subtree) closing. */
static void walk(const pomp_report *r, const report_tree *t, tree_fn fn, report_buf *b, void *ctx) {
  if (!t->cap) return;
  int32_t *stack = NULL; /* id + 1 to open, -(id + 1) to close */
  size_t top = 0, cap = 0;
  for (int32_t c = t->root_first; c >= 0; c = t->next[c]) PU_PUSH(stack, top, cap, 0);
  size_t i = top;
  for (int32_t c = t->root_first; c >= 0; c = t->next[c]) stack[--i] = c + 1;
  while (top) {
    int32_t e = stack[--top];
    if (e < 0) {
      fn(r, -e - 1, 0, b, ctx);
      continue;
    }
    int32_t id = e - 1;
    fn(r, id, 1, b, ctx);
    PU_PUSH(stack, top, cap, -e);
    size_t from = top;
    for (int32_t c = t->first[id]; c >= 0; c = t->next[c]) PU_PUSH(stack, top, cap, c + 1);
    for (size_t a = from, z = top ? top - 1 : 0; a < z; a++, z--) {
      int32_t tmp = stack[a];
      stack[a] = stack[z];
      stack[z] = tmp;
    }
  }
  free(stack);
}

typedef struct {
  const char **dtype; /* per metric */
  int32_t *cube_id;   /* per metric: its id in the CUBE file, -1: left out */
} metric_ctx;

/* The CUBE ids of the metrics, dense: those the analysis did not compute
   (pomp_report_not_computed; whole subtrees) are left out, since a CUBE
   metric has no way to say so and its zeros would read as measured. */
static int32_t *cube_metric_ids(const pomp_report *r) {
  int32_t *id = pu_malloc((r->nmetrics + 1) * sizeof *id), next = 0;
  for (size_t m = 0; m < r->nmetrics; m++)
    id[m] = pomp_report_not_computed(r, (int32_t)m) ? -1 : next++;
  return id;
}

static void metric_xml(const pomp_report *r, int32_t id, int open, report_buf *b, void *ctx) {
  const metric_ctx *mc = ctx;
  if (mc->cube_id[id] < 0) return; /* its subtree too */
  if (!open) {
    put(b, "</metric>\n");
    return;
  }
  const pomp_metric *m = pomp_report_metric(r, id);
  const char *name = cube_name(r, m->name);
  putf(b, "<metric id=\"%d\" type=\"%s\">\n", mc->cube_id[id],
       strcmp(m->name, "time") == 0 ? "INCLUSIVE" : "EXCLUSIVE");
  element(b, "disp_name", m->display);
  element(b, "uniq_name", name);
  element(b, "dtype", ((metric_ctx *)ctx)->dtype[id]);
  element(b, "uom",
          m->unit == POMP_UNIT_SEC     ? "sec"
          : m->unit == POMP_UNIT_BYTES ? "bytes"
                                       : "occ");
  char url[160] = "";
  if (is_scalasca(m->name, name))
    snprintf(url, sizeof url, "@mirror@scalasca_patterns.html#%s", name);
  element(b, "url", url);
  element(b, "descr", m->description);
}

static void cnode_xml(const pomp_report *r, int32_t id, int open, report_buf *b, void *ctx) {
  (void)ctx;
  if (open) putf(b, "<cnode id=\"%d\" calleeId=\"%d\">\n", id, pomp_report_cnode(r, id)->region);
  else put(b, "</cnode>\n");
}

typedef struct {
  int32_t groups, stns;
  int32_t *loc_order; /* CUBE location Id -> pomp location */
  int32_t nloc;
} system_ctx;

static void system_xml(const pomp_report *r, int32_t id, int open, report_buf *b, void *vctx) {
  system_ctx *ctx = vctx;
  const pomp_sysnode *s = pomp_report_sysnode(r, id);
  static const char *const close_tag[] = {"systemtreenode", "systemtreenode", "locationgroup",
                                          "location"};
  if (!open) {
    putf(b, "</%s>\n", close_tag[s->kind]);
    return;
  }
  if (s->kind <= POMP_SYS_NODE) {
    putf(b, "<systemtreenode Id=\"%d\">\n", ctx->stns++);
    element(b, "name", s->name);
    element(b, "class", s->kind == POMP_SYS_MACHINE ? "machine" : "node");
  } else if (s->kind == POMP_SYS_PROCESS) {
    putf(b, "<locationgroup Id=\"%d\">\n", ctx->groups++);
    element(b, "name", s->name);
    putf(b, "<rank>%d</rank>\n<type>process</type>\n", s->rank < 0 ? 0 : s->rank);
  } else {
    ctx->loc_order[ctx->nloc] = s->location;
    putf(b, "<location Id=\"%d\">\n", ctx->nloc++);
    element(b, "name", s->name);
    putf(b, "<rank>%d</rank>\n<type>thread</type>\n", s->thread < 0 ? 0 : s->thread);
  }
}

static void region_xml(const pomp_report *r, report_buf *b) {
  for (int32_t i = 0; i < pomp_report_num_regions(r); i++) {
    const pomp_region *g = pomp_report_region(r, i);
    int mpi = strcmp(g->paradigm, "mpi") == 0;
    put(b, "<region id=\"");
    putf(b, "%d\" mod=\"", i);
    cube_xml_escape(b, mpi ? "MPI" : g->file);
    putf(b, "\" begin=\"%d\" end=\"%d\">\n", g->begin_line > 0 ? g->begin_line : -1,
         g->end_line > 0 ? g->end_line : -1);
    element(b, "name", g->name);
    element(b, "mangled_name", g->name);
    element(b, "paradigm", g->paradigm);
    element(b, "role", g->role);
    put(b, "<url></url>\n<descr></descr>\n</region>\n");
  }
}

static void anchor_xml(const pomp_report *r, report_buf *b, metric_ctx *mc, system_ctx *sc) {
  put(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<cube version=\"4.4\">\n");
  put(b, "<attr key=\"Creator\" value=\"pomp-report " POMP_VERSION_STRING "\"/>\n");
  put(b, "<attr key=\"CUBE_CT_AGGR\" value=\"SUM\"/>\n");
  for (int32_t i = 0; i < pomp_report_num_attrs(r); i++) {
    const char *key = pomp_report_attr_key(r, i);
    if (strcmp(key, "Creator") == 0 || strcmp(key, "CUBE_CT_AGGR") == 0) continue;
    put(b, "<attr key=\"");
    cube_xml_escape(b, key);
    put(b, "\" value=\"");
    cube_xml_escape(b, pomp_report_attr(r, key));
    put(b, "\"/>\n");
  }
  put(b, "<doc>\n<mirrors>\n"
         "<murl>http://apps.fz-juelich.de/scalasca/releases/scalasca/2.6/help/</murl>\n"
         "<murl>http://perftools.pages.jsc.fz-juelich.de/cicd/scalasca/tags/latest/patterns/"
         "</murl>\n</mirrors>\n</doc>\n<metrics>\n");
  walk(r, &r->metric_tree, metric_xml, b, mc);
  put(b, "</metrics>\n<program>\n");
  region_xml(r, b);
  walk(r, &r->cnode_tree, cnode_xml, b, NULL);
  put(b, "</program>\n<system>\n");
  walk(r, &r->sysnode_tree, system_xml, b, sc);
  put(b, "<topologies>\n</topologies>\n</system>\n</cube>\n");
}

/* ---- rows ---------------------------------------------------------------- */

/* Whether metric k lies in the subtree of metric m. */
static int in_subtree(const pomp_report *r, int32_t k, int32_t m) {
  for (; k >= 0; k = pomp_report_metric(r, k)->parent)
    if (k == m) return 1;
  return 0;
}

typedef struct {
  report_buf index, data;
  double *rows; /* present rows, ncloc values each, CUBE location order */
  size_t nrows, rows_cap;
  uint32_t *pos;
  size_t npos, pos_cap;
} metric_rows;

/* The metric-inclusive values of metric m at every cnode (pomp location
   order), summed over the call tree too when call_inclusive. */
static double *inclusive_rows(const pomp_report *r, int32_t m, int call_inclusive,
                              pomp_report_error *err) {
  size_t nc = r->ncnodes, nl = r->nlocations;
  double *v = pu_calloc(nc * nl + 1, sizeof *v);
  for (size_t k = 0; k < r->nmetrics; k++) {
    if (!in_subtree(r, (int32_t)k, m)) continue;
    for (size_t c = 0; c < nc; c++) {
      err->status = POMP_REPORT_OK;
      pomp_report_row_add(r, (int32_t)k, (int32_t)c, v + c * nl, err);
      if (err->status != POMP_REPORT_OK) {
        free(v);
        return NULL;
      }
    }
  }
  for (size_t c = nc; call_inclusive && c-- > 0;) {
    int32_t p = r->cnodes[c].parent;
    for (size_t l = 0; p >= 0 && l < nl; l++) v[(size_t)p * nl + l] += v[c * nl + l];
  }
  return v;
}

static void le_put(unsigned char *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* ID.index and ID.data of one metric (ID: its CUBE id). */
static pomp_report_status metric_files(const pomp_report *r, int32_t m, int32_t id,
                                       const int32_t *loc_order, const char **dtype,
                                       report_buf *tar, pomp_report_error *err) {
  int inclusive = strcmp(r->metrics[m].name, "time") == 0;
  size_t nc = r->ncnodes, nl = r->nlocations;
  double *v = inclusive_rows(r, m, inclusive, err);
  if (!v) return err->status;
  int32_t *seq = pu_malloc((nc + 1) * sizeof *seq);
  int32_t *parent = pu_malloc((nc + 1) * sizeof *parent);
  for (size_t c = 0; c < nc; c++) parent[c] = r->cnodes[c].parent;
  cube_row_order(inclusive ? CUBE_INCLUSIVE : CUBE_EXCLUSIVE, parent, NULL, (int32_t)nc, seq);
  int integral = r->metrics[m].unit != POMP_UNIT_SEC;
  for (size_t i = 0; integral && i < nc * nl; i++)
    integral = v[i] == floor(v[i]) && fabs(v[i]) < 9007199254740992.0;
  *dtype = integral ? "INTEGER" : "FLOAT";
  report_buf index = {0}, data = {0};
  memcpy(report_buf_grow(&index, 11), CUBE_INDEX_MAGIC, 11);
  unsigned char *h = report_buf_grow(&index, 11);
  le_put(h, 1, 4);     /* endianness mark */
  le_put(h + 4, 0, 2); /* version */
  h[6] = CUBE_INDEX_SPARSE;
  le_put(h + 7, 0, 4); /* count, set below */
  memcpy(report_buf_grow(&data, 10), CUBE_DATA_MAGIC, 10);
  uint32_t count = 0;
  for (size_t pos = 0; pos < nc; pos++) {
    const double *row = v + (size_t)seq[pos] * nl;
    size_t l = 0;
    while (l < nl && row[l] == 0) l++;
    if (l == nl) continue;
    le_put(report_buf_grow(&index, 4), pos, 4);
    unsigned char *out = report_buf_grow(&data, nl * 8);
    for (size_t i = 0; i < nl; i++) {
      double x = row[loc_order[i]];
      uint64_t bits;
      if (integral) bits = (uint64_t)(int64_t)x;
      else memcpy(&bits, &x, 8);
      le_put(out + 8 * i, bits, 8);
    }
    count++;
  }
  le_put(index.data + 11 + 7, count, 4);
  char name[32];
  snprintf(name, sizeof name, "%d.index", id);
  cube_tar_put(tar, name, index.data, index.len);
  snprintf(name, sizeof name, "%d.data", id);
  cube_tar_put(tar, name, data.data, data.len);
  free(index.data);
  free(data.data);
  free(seq);
  free(parent);
  free(v);
  return POMP_REPORT_OK;
}

/* Appends b to f and empties b; 0 on a write error. */
static int flush(FILE *f, report_buf *b) {
  int ok = fwrite(b->data, 1, b->len, f) == b->len;
  b->len = 0;
  return ok;
}

pomp_report_status pomp_report_write_cube(const pomp_report *r, const char *path,
                                          pomp_report_error *err) {
  pomp_report_error local;
  if (!err) err = &local;
  err->status = POMP_REPORT_OK;
  err->message[0] = 0;
  report_freeze(r);
  FILE *f = fopen(path, "wb");
  if (!f) return report_fail(err, POMP_REPORT_ERR_IO, "%s: %s", path, strerror(errno));
  metric_ctx mc = {pu_calloc(r->nmetrics + 1, sizeof *mc.dtype), cube_metric_ids(r)};
  system_ctx sc = {.loc_order = pu_calloc(r->nlocations + 1, sizeof *sc.loc_order)};
  /* a first pass over the system tree gives the location order the rows
     need; anchor.xml is the last member (it names the rows' dtypes), so
     each metric's files go to the archive as soon as they are made */
  report_buf buf = {0}, anchor = {0};
  walk(r, &r->sysnode_tree, system_xml, &buf, &sc);
  buf.len = 0;
  pomp_report_status st = POMP_REPORT_OK;
  int ok = 1;
  for (size_t m = 0; m < r->nmetrics && !st && ok; m++) {
    if (mc.cube_id[m] < 0) continue;
    st = metric_files(r, (int32_t)m, mc.cube_id[m], sc.loc_order, &mc.dtype[m], &buf, err);
    ok = flush(f, &buf);
  }
  if (!st && ok) {
    sc = (system_ctx){.loc_order = sc.loc_order};
    anchor_xml(r, &anchor, &mc, &sc);
    cube_tar_put(&buf, "anchor.xml", anchor.data, anchor.len);
    cube_tar_end(&buf);
    ok = flush(f, &buf);
  }
  if (fclose(f) != 0) ok = 0;
  if (!st && !ok) st = report_fail(err, POMP_REPORT_ERR_IO, "%s: %s", path, strerror(errno));
  if (st) remove(path);
  free(buf.data);
  free(anchor.data);
  free(mc.dtype);
  free(mc.cube_id);
  free(sc.loc_order);
  return st;
}
