/* cube_read.c -- a CUBE4 .cubex (Scalasca, Score-P, CubeW/CubeLib, or
   pomp-report cube) opened as a report: the metric, call and system trees
   of anchor.xml become the report's definitions, and every metric's rows
   (ID.index, ID.data) become values in pomp's model.
   CUBE stores values inclusive along the metric tree, and along the call
   tree inclusive or exclusive by the metric's type; pomp stores both
   exclusive, so each row is turned into "own minus children" in both
   trees.  Derived metrics (CubePL) are listed without values. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cube_internal.h"
#include "pomp_util.h"

typedef struct {
  const char *name;
  int size;
  char kind; /* d: double, m: double minimum or maximum, i: signed, u: unsigned */
} cube_dtype;

/* The scalar value types of CUBE; the others (histograms, rates, TAU
   atomics, complex) are listed without values. */
static const cube_dtype dtypes[] = {
    {"FLOAT", 8, 'd'},   {"DOUBLE", 8, 'd'}, {"MINDOUBLE", 8, 'm'}, {"MAXDOUBLE", 8, 'm'},
    {"INTEGER", 8, 'i'}, {"INT64", 8, 'i'},  {"UINTEGER", 8, 'u'},  {"UINT64", 8, 'u'},
    {"INT32", 4, 'i'},   {"UINT32", 4, 'u'}, {"INT16", 2, 'i'},     {"UINT16", 2, 'u'},
    {"INT8", 1, 'i'},    {"UINT8", 1, 'u'},  {"CHAR", 1, 'i'}};

static const cube_dtype *find_dtype(const char *s) {
  for (size_t i = 0; s && i < sizeof dtypes / sizeof dtypes[0]; i++)
    if (strcmp(dtypes[i].name, s) == 0) return &dtypes[i];
  return NULL;
}

typedef struct {
  cube_xnode *x;
  int64_t cube_id;
  int32_t parent; /* index in rd.metrics, -1 for a root */
  int32_t pomp;
  cube_metric_type type;
  const cube_dtype *dtype; /* NULL: no values read */
  double **rows;           /* per cnode (document order), NULL = zero */
} rd_metric;

typedef struct {
  int64_t id;
  int32_t index;
} id_pair;

typedef struct {
  pomp_report *r;
  const char *path;
  cube_member *members;
  size_t nmembers;
  cube_xdoc *doc;
  cube_xnode *root;
  const char *mirror; /* first <murl>: what @mirror@ in URLs stands for */
  rd_metric *metrics;
  size_t nmetrics, metrics_cap;
  id_pair *regions;
  size_t nregions, regions_cap;
  int32_t *cparent, *cpomp; /* per cnode in document order */
  int64_t *cid;
  size_t ncnodes, ccap;
  int32_t *loc_of_id; /* CUBE location Id -> pomp location */
  size_t nloc;
  int32_t *order[CUBE_TYPE_UNKNOWN]; /* row position -> cnode, per type */
  int swap;                          /* data written big-endian */
} rd;

static pomp_report_status xml_fail(rd *d, const cube_xnode *x, pomp_report_error *err,
                                   const char *what, const char *detail) {
  return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: anchor.xml line %lu: %s%s%s", d->path,
                     x ? x->line : 0ul, what, detail ? ": " : "", detail ? detail : "");
}

/* A decimal integer attribute or text, whole string. */
static int parse_int(const char *s, int64_t *v) {
  if (!s || !*s) return 0;
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (errno || *end) return 0;
  *v = x;
  return 1;
}

static int pair_order(const void *a, const void *b) {
  const id_pair *x = a, *y = b;
  return (x->id > y->id) - (x->id < y->id);
}

static int32_t region_of(const rd *d, int64_t id) {
  id_pair key = {id, 0};
  const id_pair *p = bsearch(&key, d->regions, d->nregions, sizeof key, pair_order);
  return p ? p->index : -1;
}

static pomp_unit unit_of(const char *uom) {
  if (uom && strcmp(uom, "sec") == 0) return POMP_UNIT_SEC;
  if (uom && strcmp(uom, "bytes") == 0) return POMP_UNIT_BYTES;
  return POMP_UNIT_OCC;
}

/* The metric's description as pomp shows it: CUBE's text, the help URL,
   and what pomp could not take over (derived, other types, other units). */
static char *metric_description(const rd *d, const cube_xnode *x, cube_metric_type type,
                                const cube_dtype *dt) {
  report_buf b = {0};
  const char *descr = cube_xml_child_text(x, "descr");
  const char *url = cube_xml_child_text(x, "url");
  const char *uom = cube_xml_child_text(x, "uom");
  const char *dtype = cube_xml_child_text(x, "dtype");
  char tmp[512];
  if (descr && *descr) memcpy(report_buf_grow(&b, strlen(descr)), descr, strlen(descr));
  if (url && *url) {
    const char *m = strstr(url, "@mirror@");
    if (m && d->mirror)
      snprintf(tmp, sizeof tmp, " Help: %.*s%s%s", (int)(m - url), url, d->mirror, m + 8);
    else snprintf(tmp, sizeof tmp, " Help: %s", url);
    memcpy(report_buf_grow(&b, strlen(tmp)), tmp, strlen(tmp));
  }
  tmp[0] = 0;
  if (type >= CUBE_POSTDERIVED && type <= CUBE_PREDERIVED_EXCLUSIVE) {
    const char *expr = cube_xml_child_text(x, "cubepl");
    snprintf(tmp, sizeof tmp, " [derived metric (%s), not evaluated%s%.300s]",
             cube_xml_attr(x, "type"), expr && *expr ? ": " : "", expr ? expr : "");
  } else if (type == CUBE_TYPE_UNKNOWN)
    snprintf(tmp, sizeof tmp, " [metric type %.100s: values not read]", cube_xml_attr(x, "type"));
  else if (!dt)
    snprintf(tmp, sizeof tmp, " [values of type %.100s not read]", dtype ? dtype : "(none)");
  if (tmp[0]) memcpy(report_buf_grow(&b, strlen(tmp)), tmp, strlen(tmp));
  if (uom && *uom && strcmp(uom, "sec") && strcmp(uom, "bytes") && strcmp(uom, "occ")) {
    snprintf(tmp, sizeof tmp, " [unit: %.100s]", uom);
    memcpy(report_buf_grow(&b, strlen(tmp)), tmp, strlen(tmp));
  }
  *report_buf_grow(&b, 1) = 0;
  char *text = (char *)b.data;
  if (text[0] == ' ') memmove(text, text + 1, b.len - 1); /* no descr: no leading space */
  return text;
}

static pomp_report_status read_metrics(rd *d, cube_xnode *metrics, pomp_report_error *err) {
  for (cube_xnode *x = metrics->first ? metrics : NULL; x; x = cube_xml_next(metrics, x)) {
    if (strcmp(x->name, "metric") != 0) continue;
    rd_metric m = {.x = x, .parent = -1};
    if (!parse_int(cube_xml_attr(x, "id"), &m.cube_id))
      return xml_fail(d, x, err, "metric without a numeric id", NULL);
    if (x->parent && strcmp(x->parent->name, "metric") == 0) m.parent = x->parent->tag;
    const char *type = cube_xml_attr(x, "type");
    m.type = type ? cube_type_from_name(type) : CUBE_EXCLUSIVE;
    m.dtype = find_dtype(cube_xml_child_text(x, "dtype"));
    const char *uniq = cube_xml_child_text(x, "uniq_name");
    char *descr = metric_description(d, x, m.type, m.dtype);
    m.pomp = pomp_report_add_metric(d->r, uniq, cube_xml_child_text(x, "disp_name"),
                                    unit_of(cube_xml_child_text(x, "uom")), descr,
                                    m.parent >= 0 ? d->metrics[m.parent].pomp : -1);
    free(descr);
    if (m.pomp < 0)
      return xml_fail(d, x, err, "metric with an empty or repeated unique name", uniq);
    x->tag = (int32_t)d->nmetrics;
    PU_PUSH(d->metrics, d->nmetrics, d->metrics_cap, m);
  }
  return POMP_REPORT_OK;
}

static pomp_report_status read_regions(rd *d, cube_xnode *program, pomp_report_error *err) {
  for (cube_xnode *x = program->first; x; x = x->next) {
    if (strcmp(x->name, "region") != 0) continue;
    int64_t id, begin = 0, end = 0;
    if (!parse_int(cube_xml_attr(x, "id"), &id))
      return xml_fail(d, x, err, "region without a numeric id", NULL);
    parse_int(cube_xml_attr(x, "begin"), &begin);
    parse_int(cube_xml_attr(x, "end"), &end);
    const char *name = cube_xml_child_text(x, "name"), *mod = cube_xml_attr(x, "mod");
    const char *paradigm = cube_xml_child_text(x, "paradigm");
    const char *role = cube_xml_child_text(x, "role");
    int32_t pomp = pomp_report_add_region(d->r, name ? name : "", mod ? mod : "",
                                          begin > 0 && begin <= INT32_MAX ? (int32_t)begin : 0,
                                          end > 0 && end <= INT32_MAX ? (int32_t)end : 0,
                                          paradigm && *paradigm ? paradigm : "unknown",
                                          role && *role ? role : "function");
    if (pomp < 0) return xml_fail(d, x, err, "region not accepted", name);
    PU_PUSH(d->regions, d->nregions, d->regions_cap, ((id_pair){id, pomp}));
  }
  qsort(d->regions, d->nregions, sizeof *d->regions, pair_order);
  for (size_t i = 1; i < d->nregions; i++)
    if (d->regions[i].id == d->regions[i - 1].id)
      return xml_fail(d, program, err, "two regions with the same id", NULL);
  return POMP_REPORT_OK;
}

static void cnode_push(rd *d, int32_t parent, int32_t pomp, int64_t id) {
  if (d->ncnodes == d->ccap) {
    d->ccap = d->ccap ? 2 * d->ccap : 64;
    d->cparent = pu_realloc(d->cparent, d->ccap * sizeof *d->cparent);
    d->cpomp = pu_realloc(d->cpomp, d->ccap * sizeof *d->cpomp);
    d->cid = pu_realloc(d->cid, d->ccap * sizeof *d->cid);
  }
  d->cparent[d->ncnodes] = parent;
  d->cpomp[d->ncnodes] = pomp;
  d->cid[d->ncnodes++] = id;
}

static pomp_report_status read_cnodes(rd *d, cube_xnode *program, pomp_report_error *err) {
  for (cube_xnode *x = program->first ? program : NULL; x; x = cube_xml_next(program, x)) {
    if (strcmp(x->name, "cnode") != 0) continue;
    int64_t id, callee;
    if (!parse_int(cube_xml_attr(x, "id"), &id) ||
        !parse_int(cube_xml_attr(x, "calleeId"), &callee))
      return xml_fail(d, x, err, "cnode without numeric id and calleeId", NULL);
    int32_t region = region_of(d, callee);
    if (region < 0) return xml_fail(d, x, err, "cnode calls an undefined region", NULL);
    int32_t parent = x->parent && strcmp(x->parent->name, "cnode") == 0 ? x->parent->tag : -1;
    int32_t pomp = pomp_report_add_cnode(d->r, region, parent >= 0 ? d->cpomp[parent] : -1);
    if (pomp < 0) return xml_fail(d, x, err, "cnode not accepted", NULL);
    x->tag = (int32_t)d->ncnodes;
    cnode_push(d, parent, pomp, id);
  }
  id_pair *p = pu_malloc((d->ncnodes + 1) * sizeof *p);
  for (size_t i = 0; i < d->ncnodes; i++) p[i] = (id_pair){d->cid[i], (int32_t)i};
  qsort(p, d->ncnodes, sizeof *p, pair_order);
  int dup = 0;
  for (size_t i = 1; i < d->ncnodes; i++) dup |= p[i].id == p[i - 1].id;
  free(p);
  return dup ? xml_fail(d, program, err, "two cnodes with the same id", NULL) : POMP_REPORT_OK;
}

/* The pomp node a location group hangs under: CUBE's system tree nodes
   have any depth, pomp's have two levels (machine, node).  A group
   directly under a machine gets a node named like the machine; deeper
   levels are folded into one node named by the path below the machine. */
static int32_t node_for(rd *d, cube_xnode *stn) {
  cube_xnode *machine = stn;
  while (machine->parent && strcmp(machine->parent->name, "systemtreenode") == 0)
    machine = machine->parent;
  if (stn->tag >= 0 && stn != machine) return stn->tag;
  if (stn == machine) { /* the machine's own node: found by name below it */
    int32_t kids[1];
    const char *name = cube_xml_child_text(machine, "name");
    for (int32_t n = pomp_report_sysnode_children(d->r, machine->tag, kids, 1), k = 0; k < n; k++)
      if (strcmp(pomp_report_sysnode(d->r, kids[k])->name, name ? name : "") == 0) return kids[k];
    return pomp_report_add_sysnode(d->r, POMP_SYS_NODE, name, machine->tag, -1, -1);
  }
  report_buf b = {0};
  for (cube_xnode *x = stn; x != machine; x = x->parent) {
    const char *n = cube_xml_child_text(x, "name");
    size_t len = n ? strlen(n) : 0, old = b.len;
    report_buf_grow(&b, len + (old ? 3 : 0));
    memmove(b.data + len + (old ? 3 : 0), b.data, old);
    memcpy(b.data, n, len);
    if (old) memcpy(b.data + len, " / ", 3);
  }
  *report_buf_grow(&b, 1) = 0;
  stn->tag = pomp_report_add_sysnode(d->r, POMP_SYS_NODE, (char *)b.data, machine->tag, -1, -1);
  free(b.data);
  return stn->tag;
}

static pomp_report_status read_system(rd *d, cube_xnode *system, pomp_report_error *err) {
  int64_t *loc_ids = NULL;
  size_t nids = 0, cap = 0;
  pomp_report_status st = POMP_REPORT_OK;
  for (cube_xnode *x = system->first ? system : NULL; x && !st; x = cube_xml_next(system, x)) {
    const char *name = cube_xml_child_text(x, "name");
    int in_stn = x->parent && strcmp(x->parent->name, "systemtreenode") == 0;
    int64_t rank = -1, id;
    parse_int(cube_xml_child_text(x, "rank"), &rank);
    if (rank < -1 || rank > INT32_MAX) rank = -1;
    if (strcmp(x->name, "systemtreenode") == 0 && !in_stn) {
      x->tag = pomp_report_add_sysnode(d->r, POMP_SYS_MACHINE, name, -1, -1, -1);
    } else if (strcmp(x->name, "locationgroup") == 0) {
      int32_t node = in_stn ? node_for(d, x->parent) : -1;
      x->tag = node < 0
                   ? -1
                   : pomp_report_add_sysnode(d->r, POMP_SYS_PROCESS, name, node, (int32_t)rank, -1);
      if (x->tag < 0) st = xml_fail(d, x, err, "location group outside a system tree node", NULL);
    } else if (strcmp(x->name, "location") == 0) {
      int ok = x->parent && strcmp(x->parent->name, "locationgroup") == 0;
      if (!ok || !parse_int(cube_xml_attr(x, "Id"), &id))
        st = xml_fail(d, x, err, "location without a numeric Id or outside a location group", NULL);
      else if (pomp_report_add_sysnode(d->r, POMP_SYS_THREAD, name, x->parent->tag,
                                       pomp_report_sysnode(d->r, x->parent->tag)->rank,
                                       (int32_t)rank) < 0)
        st = xml_fail(d, x, err, "location not accepted", name);
      else PU_PUSH(loc_ids, nids, cap, id);
    }
  }
  d->nloc = nids;
  d->loc_of_id = pu_malloc((nids + 1) * sizeof *d->loc_of_id);
  for (size_t i = 0; i < nids; i++) d->loc_of_id[i] = -1;
  for (size_t i = 0; i < nids && !st; i++) {
    if (loc_ids[i] < 0 || (uint64_t)loc_ids[i] >= nids || d->loc_of_id[loc_ids[i]] >= 0)
      st = xml_fail(d, system, err, "location Ids are not 0..N-1, each once", NULL);
    else d->loc_of_id[loc_ids[i]] = (int32_t)i;
  }
  free(loc_ids);
  return st;
}

/* ---- values ------------------------------------------------------------ */

static uint64_t get_le(const unsigned char *p, int size, int swap) {
  uint64_t v = 0;
  for (int i = 0; i < size; i++) v |= (uint64_t)p[swap ? size - 1 - i : i] << (8 * i);
  return v;
}

static double decode_value(const unsigned char *p, const cube_dtype *t, int swap) {
  uint64_t v = get_le(p, t->size, swap);
  if (t->kind == 'd' || t->kind == 'm') {
    double x;
    memcpy(&x, &v, sizeof x);
    return x;
  }
  if (t->kind == 'u') return (double)v;
  int shift = 64 - 8 * t->size;
  return (double)((int64_t)(v << shift) >> shift);
}

static pomp_report_status member_fail(rd *d, const cube_member *m, uint64_t at,
                                      pomp_report_error *err, const char *why) {
  return report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: %s: offset %llu: %s", d->path, m->name,
                     (unsigned long long)at, why);
}

/* Row positions listed by ID.index: *pos = NULL and *n = ncnodes when the
   index is dense. */
static pomp_report_status read_index(rd *d, const cube_member *m, uint32_t **pos, size_t *n,
                                     pomp_report_error *err) {
  size_t head = sizeof CUBE_INDEX_MAGIC - 1;
  *pos = NULL;
  if (m->size < head + 7 || memcmp(m->data, CUBE_INDEX_MAGIC, head) != 0)
    return member_fail(d, m, 0, err, "not a CUBE index (magic CUBEX.INDEX missing)");
  uint32_t mark = (uint32_t)get_le(m->data + head, 4, 0);
  if (mark != 1 && mark != 0x01000000u) return member_fail(d, m, head, err, "bad endianness mark");
  d->swap = mark != 1;
  int format = m->data[head + 6];
  if (format == CUBE_INDEX_DENSE) {
    *n = d->ncnodes;
    return POMP_REPORT_OK;
  }
  if (format != CUBE_INDEX_SPARSE)
    return member_fail(d, m, head + 6, err, "index format is neither sparse (1) nor dense (3)");
  uint64_t at = head + 7;
  if (m->size - at < 4) return member_fail(d, m, at, err, "index truncated");
  uint64_t count = get_le(m->data + at, 4, d->swap);
  at += 4;
  if (count > (m->size - at) / 4 || count > d->ncnodes)
    return member_fail(d, m, at - 4, err, "index count larger than the index or the call tree");
  *pos = pu_malloc((size_t)(count + 1) * sizeof **pos);
  for (uint64_t i = 0; i < count; i++, at += 4) {
    (*pos)[i] = (uint32_t)get_le(m->data + at, 4, d->swap);
    if ((*pos)[i] >= d->ncnodes || (i && (*pos)[i] <= (*pos)[i - 1])) {
      free(*pos);
      *pos = NULL;
      return member_fail(d, m, at, err, "row position out of range or out of order");
    }
  }
  *n = (size_t)count;
  return POMP_REPORT_OK;
}

/* The bytes of row k (of n), uncompressed into buf where needed. */
static pomp_report_status row_bytes(rd *d, const cube_member *m, size_t k, size_t n,
                                    uint64_t row_size, unsigned char *buf,
                                    const unsigned char **out, pomp_report_error *err) {
  size_t zhead = sizeof CUBE_ZDATA_MAGIC - 1, head = sizeof CUBE_DATA_MAGIC - 1;
  if (m->size >= zhead && memcmp(m->data, CUBE_ZDATA_MAGIC, zhead) == 0) {
    uint64_t nrows = m->size - zhead >= 8 ? get_le(m->data + zhead, 8, d->swap) : 0;
    if (nrows < n || nrows > (m->size - zhead - 8) / 24)
      return member_fail(d, m, zhead, err, "compressed row count does not match the index");
    const unsigned char *e = m->data + zhead + 8 + 24 * k;
    uint64_t zstart = get_le(e + 8, 8, d->swap), zsize = get_le(e + 16, 8, d->swap);
    uint64_t base = zhead + 8 + 24 * nrows;
    if (zstart > m->size - base || zsize > m->size - base - zstart)
      return member_fail(d, m, (uint64_t)(e - m->data), err, "compressed row outside the file");
    uLongf len = (uLongf)row_size;
    if (uncompress(buf, &len, m->data + base + zstart, (uLong)zsize) != Z_OK || len != row_size)
      return member_fail(d, m, base + zstart, err, "compressed row does not inflate to one row");
    *out = buf;
    return POMP_REPORT_OK;
  }
  if (m->size < head || memcmp(m->data, CUBE_DATA_MAGIC, head) != 0)
    return member_fail(d, m, 0, err, "not CUBE data (magic CUBEX.DATA missing)");
  if ((m->size - head) / (row_size ? row_size : 1) < n || (row_size && (m->size - head) % row_size))
    return member_fail(d, m, head, err, "data size does not match the index and the locations");
  *out = m->data + head + k * row_size;
  return POMP_REPORT_OK;
}

static pomp_report_status read_rows(rd *d, rd_metric *mt, pomp_report_error *err) {
  if (!mt->dtype || mt->type > CUBE_SIMPLE) return POMP_REPORT_OK;
  char iname[48], dname[48];
  snprintf(iname, sizeof iname, "%lld.index", (long long)mt->cube_id);
  snprintf(dname, sizeof dname, "%lld.data", (long long)mt->cube_id);
  const cube_member *im = cube_tar_find(d->members, d->nmembers, iname);
  const cube_member *dm = cube_tar_find(d->members, d->nmembers, dname);
  if (!im || !dm) return POMP_REPORT_OK; /* no rows written: all zero */
  uint32_t *pos;
  size_t n = 0;
  pomp_report_status st = read_index(d, im, &pos, &n, err);
  if (st) return st;
  if (!d->order[mt->type]) {
    d->order[mt->type] = pu_malloc((d->ncnodes + 1) * sizeof(int32_t));
    cube_row_order(mt->type, d->cparent, d->cid, (int32_t)d->ncnodes, d->order[mt->type]);
  }
  uint64_t row_size = (uint64_t)d->nloc * (uint64_t)mt->dtype->size;
  unsigned char *buf = pu_malloc(row_size + 1);
  mt->rows = pu_calloc(d->ncnodes + 1, sizeof *mt->rows);
  for (size_t k = 0; k < n && !st; k++) {
    const unsigned char *p = NULL;
    if ((st = row_bytes(d, dm, k, n, row_size, buf, &p, err))) break;
    int32_t c = d->order[mt->type][pos ? pos[k] : k];
    double *row = mt->rows[c] = pu_calloc(d->nloc + 1, sizeof *row);
    for (size_t l = 0; l < d->nloc; l++)
      row[d->loc_of_id[l]] = decode_value(p + l * (size_t)mt->dtype->size, mt->dtype, d->swap);
  }
  free(buf);
  free(pos);
  return st;
}

static double *row_or_new(rd *d, double **rows, size_t c) {
  if (!rows[c]) rows[c] = pu_calloc(d->nloc + 1, sizeof *rows[c]);
  return rows[c];
}

/* dst -= src, row by row. Ascending order: a node is subtracted from its
   parent before its own children are subtracted from it. */
static void subtract_rows(rd *d, double **dst_rows, size_t dst_c, double *src) {
  if (!src) return;
  double *dst = row_or_new(d, dst_rows, dst_c);
  for (size_t l = 0; l < d->nloc; l++) dst[l] -= src[l];
}

/* Differences of inclusive values leave rounding residue where a node's
   own value is 0 (time at main: everything is in callees).  A result
   within 1e-12 of the value it came from is such residue and dropped, so
   a report written by pomp-report cube reads back with the same cells. */
static void drop_residue(rd *d, double **rows, double **orig) {
  for (size_t c = 0; c < d->ncnodes; c++)
    for (size_t l = 0; rows[c] && orig[c] && l < d->nloc; l++)
      if (fabs(rows[c][l]) <= 1e-12 * fabs(orig[c][l])) rows[c][l] = 0;
}

static double **copy_rows(rd *d, double **rows) {
  double **copy = pu_calloc(d->ncnodes + 1, sizeof *copy);
  for (size_t c = 0; c < d->ncnodes; c++)
    if (rows[c]) {
      copy[c] = pu_malloc((d->nloc + 1) * sizeof **copy);
      memcpy(copy[c], rows[c], d->nloc * sizeof **copy);
    }
  return copy;
}

static void free_rows(rd *d, double **rows) {
  for (size_t c = 0; rows && c < d->ncnodes; c++) free(rows[c]);
  free(rows);
}

/* Minima and maxima (Score-P's min_time, max_time) are no sums: they stay
   as stored, neither taken apart along the call tree nor subtracted from
   or by other metrics. */
static void make_exclusive(rd *d) {
  double ***orig = pu_calloc(d->nmetrics + 1, sizeof *orig);
  for (size_t k = 0; k < d->nmetrics; k++)
    if (d->metrics[k].rows) orig[k] = copy_rows(d, d->metrics[k].rows);
  for (size_t k = 0; k < d->nmetrics; k++) {
    rd_metric *m = &d->metrics[k];
    if (!m->rows || m->type != CUBE_INCLUSIVE || m->dtype->kind == 'm') continue;
    for (size_t c = 0; c < d->ncnodes; c++)
      if (d->cparent[c] >= 0) subtract_rows(d, m->rows, (size_t)d->cparent[c], m->rows[c]);
  }
  for (size_t k = 0; k < d->nmetrics; k++) {
    rd_metric *m = &d->metrics[k];
    if (!m->rows || m->parent < 0 || !d->metrics[m->parent].rows || m->dtype->kind == 'm' ||
        d->metrics[m->parent].dtype->kind == 'm')
      continue;
    for (size_t c = 0; c < d->ncnodes; c++)
      subtract_rows(d, d->metrics[m->parent].rows, c, m->rows[c]);
  }
  for (size_t k = 0; k < d->nmetrics; k++) {
    if (orig[k]) drop_residue(d, d->metrics[k].rows, orig[k]);
    free_rows(d, orig[k]);
  }
  free(orig);
}

static void add_values(rd *d) {
  for (size_t k = 0; k < d->nmetrics; k++) {
    rd_metric *m = &d->metrics[k];
    for (size_t c = 0; m->rows && c < d->ncnodes; c++)
      for (size_t l = 0; m->rows[c] && l < d->nloc; l++)
        if (m->rows[c][l] != 0)
          pomp_report_add_value(d->r, m->pomp, d->cpomp[c], (int32_t)l, m->rows[c][l]);
  }
}

static void rd_free(rd *d) {
  for (size_t k = 0; k < d->nmetrics; k++) free_rows(d, d->metrics[k].rows);
  for (int t = 0; t < CUBE_TYPE_UNKNOWN; t++) free(d->order[t]);
  free(d->metrics);
  free(d->regions);
  free(d->cparent);
  free(d->cpomp);
  free(d->cid);
  free(d->loc_of_id);
  free(d->members);
  cube_xml_free(d->doc);
}

static void read_attrs(rd *d) {
  const char *version = cube_xml_attr(d->root, "version");
  pomp_report_set_attr(d->r, "cube_version", version ? version : "");
  for (cube_xnode *x = d->root->first; x; x = x->next)
    if (strcmp(x->name, "attr") == 0 && cube_xml_attr(x, "key"))
      pomp_report_set_attr(d->r, cube_xml_attr(x, "key"), cube_xml_attr(x, "value"));
  cube_xnode *doc = cube_xml_child(d->root, "doc");
  cube_xnode *mirrors = doc ? cube_xml_child(doc, "mirrors") : NULL;
  d->mirror = mirrors ? cube_xml_child_text(mirrors, "murl") : NULL;
}

static pomp_report_status read_definitions(rd *d, pomp_report_error *err) {
  cube_xnode *metrics = cube_xml_child(d->root, "metrics");
  cube_xnode *program = cube_xml_child(d->root, "program");
  cube_xnode *system = cube_xml_child(d->root, "system");
  if (strcmp(d->root->name, "cube") != 0 || !metrics || !program || !system)
    return xml_fail(d, d->root, err, "not a CUBE anchor (<cube> with metrics, program, system)",
                    NULL);
  read_attrs(d);
  pomp_report_status st;
  if ((st = read_metrics(d, metrics, err)) || (st = read_regions(d, program, err)) ||
      (st = read_cnodes(d, program, err)) || (st = read_system(d, system, err)))
    return st;
  /* rows are allocated per present (metric, cnode): refuse shapes whose
     pointer tables alone would not fit */
  if (d->ncnodes && d->nmetrics > ((size_t)1 << 28) / d->ncnodes)
    return xml_fail(d, d->root, err, "too many metrics times call paths", NULL);
  return POMP_REPORT_OK;
}

pomp_report_status cube_load(pomp_report *r, pomp_report_error *err) {
  rd d = {.r = r, .path = r->path};
  pomp_report_status st =
      cube_tar_members(r->bytes, r->nbytes, r->path, &d.members, &d.nmembers, err);
  const cube_member *anchor = st ? NULL : cube_tar_find(d.members, d.nmembers, "anchor.xml");
  if (!st && !anchor)
    st = report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: offset 0: a tar archive without anchor.xml",
                     r->path);
  if (!st) {
    d.doc = cube_xml_parse((const char *)anchor->data, (size_t)anchor->size, r->path, "anchor.xml",
                           err);
    if (!d.doc) st = POMP_REPORT_ERR_FORMAT;
  }
  if (!st) {
    d.root = cube_xml_root(d.doc);
    st = read_definitions(&d, err);
  }
  for (size_t k = 0; !st && k < d.nmetrics; k++) st = read_rows(&d, &d.metrics[k], err);
  if (!st) {
    make_exclusive(&d);
    add_values(&d);
    report_freeze(r); /* the row store now: readers may share the report */
  }
  rd_free(&d);
  return st;
}
