/* report_json.c -- the definitions section of report.pomp: the metric tree,
   regions, call tree, system tree and attributes as one JSON object
   (docs/FORMAT.md, "Definitions").  Reading goes through the same add_*
   functions as building, so a file cannot hold a tree they would refuse. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "report_internal.h"

static const char *const unit_names[] = {"sec", "occ", "bytes"};
static const char *const kind_names[] = {"machine", "node", "process", "thread"};

static int name_index(const char *const *names, int n, const char *s) {
  for (int i = 0; s && i < n; i++)
    if (strcmp(names[i], s) == 0) return i;
  return -1;
}

/* ---- writing ------------------------------------------------------------- */

static cJSON *metric_json(const pomp_metric *m) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", m->name);
  cJSON_AddStringToObject(o, "display", m->display);
  cJSON_AddStringToObject(o, "unit", unit_names[m->unit]);
  cJSON_AddNumberToObject(o, "parent", m->parent);
  cJSON_AddStringToObject(o, "description", m->description);
  return o;
}

static cJSON *region_json(const pomp_region *g) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", g->name);
  cJSON_AddStringToObject(o, "file", g->file);
  cJSON_AddNumberToObject(o, "begin_line", g->begin_line);
  cJSON_AddNumberToObject(o, "end_line", g->end_line);
  cJSON_AddStringToObject(o, "paradigm", g->paradigm);
  cJSON_AddStringToObject(o, "role", g->role);
  return o;
}

static cJSON *cnode_json(const pomp_cnode *c) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "region", c->region);
  cJSON_AddNumberToObject(o, "parent", c->parent);
  return o;
}

static cJSON *sysnode_json(const pomp_sysnode *s) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "kind", kind_names[s->kind]);
  cJSON_AddStringToObject(o, "name", s->name);
  cJSON_AddNumberToObject(o, "parent", s->parent);
  cJSON_AddNumberToObject(o, "rank", s->rank);
  cJSON_AddNumberToObject(o, "thread", s->thread);
  return o;
}

char *report_defs_to_json(const pomp_report *r, int pretty) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "format", "pomp-report");
  cJSON *attrs = cJSON_AddObjectToObject(root, "attrs");
  for (size_t i = 0; i < r->nattrs; i++)
    cJSON_AddStringToObject(attrs, r->attrs[i].key, r->attrs[i].value);
  cJSON *a = cJSON_AddArrayToObject(root, "metrics");
  for (size_t i = 0; i < r->nmetrics; i++) cJSON_AddItemToArray(a, metric_json(&r->metrics[i]));
  a = cJSON_AddArrayToObject(root, "regions");
  for (size_t i = 0; i < r->nregions; i++) cJSON_AddItemToArray(a, region_json(&r->regions[i]));
  a = cJSON_AddArrayToObject(root, "cnodes");
  for (size_t i = 0; i < r->ncnodes; i++) cJSON_AddItemToArray(a, cnode_json(&r->cnodes[i]));
  a = cJSON_AddArrayToObject(root, "system");
  for (size_t i = 0; i < r->nsysnodes; i++) cJSON_AddItemToArray(a, sysnode_json(&r->sysnodes[i]));
  cJSON_AddNumberToObject(root, "locations", (double)r->nlocations);
  char *text = pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  if (!text) pu_die(POMP_EXIT_FAILURE, "report: out of memory printing JSON");
  return text;
}

/* The report file keeps names as measured (a source file's name must
   still open it); this public text is valid UTF-8 JSON: bytes outside
   a valid sequence become U+FFFD (docs/FORMAT.md). */
char *pomp_report_defs_json(const pomp_report *r, int pretty) {
  char *raw = report_defs_to_json(r, pretty);
  char *valid = pu_utf8_valid(raw);
  free(raw);
  return valid;
}

/* ---- reading -------------------------------------------------------------- */

typedef struct {
  const char *path;
  uint64_t offset; /* of the definitions in the file */
  pomp_report_error *err;
} defs_ctx;

static pomp_report_status bad(const defs_ctx *x, const char *what, const char *array, int i) {
  return report_fail(x->err, POMP_REPORT_ERR_FORMAT, "%s: offset %llu: definitions: %s[%d]: %s",
                     x->path, (unsigned long long)x->offset, array, i, what);
}

static const char *get_str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* An integer field in int32 range; *ok cleared when missing or not one. */
static int32_t get_int(const cJSON *o, const char *key, int *ok) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
  if (!(d >= INT32_MIN && d <= INT32_MAX) || d != floor(d)) {
    *ok = 0;
    return 0;
  }
  return (int32_t)d;
}

static const cJSON *get_array(const cJSON *root, const char *key) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key);
  return cJSON_IsArray(a) ? a : NULL;
}

static pomp_report_status read_metrics(pomp_report *r, const cJSON *a, const defs_ctx *x) {
  int i = 0;
  for (const cJSON *o = a->child; o; o = o->next, i++) {
    int ok = 1;
    int32_t parent = get_int(o, "parent", &ok);
    int unit = name_index(unit_names, 3, get_str(o, "unit"));
    if (!ok || unit < 0 || !get_str(o, "name")) return bad(x, "missing or bad field", "metrics", i);
    if (pomp_report_add_metric(r, get_str(o, "name"), get_str(o, "display"), (pomp_unit)unit,
                               get_str(o, "description"), parent) != i)
      return bad(x, "duplicate name or bad parent", "metrics", i);
  }
  return POMP_REPORT_OK;
}

static pomp_report_status read_regions(pomp_report *r, const cJSON *a, const defs_ctx *x) {
  int i = 0;
  for (const cJSON *o = a->child; o; o = o->next, i++) {
    int ok = 1;
    int32_t begin = get_int(o, "begin_line", &ok);
    int32_t end = get_int(o, "end_line", &ok);
    if (!ok || !get_str(o, "name") ||
        pomp_report_add_region(r, get_str(o, "name"), get_str(o, "file"), begin, end,
                               get_str(o, "paradigm"), get_str(o, "role")) != i)
      return bad(x, "missing or bad field", "regions", i);
  }
  return POMP_REPORT_OK;
}

static pomp_report_status read_cnodes(pomp_report *r, const cJSON *a, const defs_ctx *x) {
  int i = 0;
  for (const cJSON *o = a->child; o; o = o->next, i++) {
    int ok = 1;
    int32_t region = get_int(o, "region", &ok);
    int32_t parent = get_int(o, "parent", &ok);
    if (!ok || pomp_report_add_cnode(r, region, parent) != i)
      return bad(x, "bad region or parent, or a duplicate", "cnodes", i);
  }
  return POMP_REPORT_OK;
}

static pomp_report_status read_system(pomp_report *r, const cJSON *a, const defs_ctx *x) {
  int i = 0;
  for (const cJSON *o = a->child; o; o = o->next, i++) {
    int ok = 1;
    int kind = name_index(kind_names, 4, get_str(o, "kind"));
    int32_t parent = get_int(o, "parent", &ok);
    int32_t rank = get_int(o, "rank", &ok);
    int32_t thread = get_int(o, "thread", &ok);
    if (!ok || kind < 0 ||
        pomp_report_add_sysnode(r, (pomp_sys_kind)kind, get_str(o, "name"), parent, rank, thread) !=
            i)
      return bad(x, "bad kind, parent or field", "system", i);
  }
  return POMP_REPORT_OK;
}

pomp_report_status report_defs_from_json(pomp_report *r, const char *text, size_t len,
                                         const char *path, uint64_t offset,
                                         pomp_report_error *err) {
  defs_ctx x = {path, offset, err};
  cJSON *root = cJSON_ParseWithLength(text, len);
  if (!root) {
    const char *at = cJSON_GetErrorPtr();
    uint64_t pos = offset + (at && at >= text && at <= text + len ? (uint64_t)(at - text) : 0);
    return report_fail(err, POMP_REPORT_ERR_FORMAT,
                       "%s: offset %llu: definitions are not valid JSON", path,
                       (unsigned long long)pos);
  }
  pomp_report_status st = POMP_REPORT_OK;
  const cJSON *metrics = get_array(root, "metrics"), *regions = get_array(root, "regions"),
              *cnodes = get_array(root, "cnodes"), *system = get_array(root, "system");
  const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(root, "attrs");
  if (!cJSON_IsObject(root) || !metrics || !regions || !cnodes || !system || !cJSON_IsObject(attrs))
    st = report_fail(err, POMP_REPORT_ERR_FORMAT,
                     "%s: offset %llu: definitions lack metrics, regions, "
                     "cnodes, system or attrs",
                     path, (unsigned long long)offset);
  if (!st) st = read_metrics(r, metrics, &x);
  if (!st) st = read_regions(r, regions, &x);
  if (!st) st = read_cnodes(r, cnodes, &x);
  if (!st) st = read_system(r, system, &x);
  int ok = 1;
  if (!st && get_int(root, "locations", &ok) != (int32_t)r->nlocations)
    st = report_fail(err, POMP_REPORT_ERR_FORMAT,
                     "%s: offset %llu: definitions: \"locations\" does not "
                     "match the %zu thread nodes",
                     path, (unsigned long long)offset, r->nlocations);
  for (const cJSON *o = attrs ? attrs->child : NULL; !st && o; o = o->next)
    if (cJSON_IsString(o)) pomp_report_set_attr(r, o->string, o->valuestring);
  cJSON_Delete(root);
  return st;
}
