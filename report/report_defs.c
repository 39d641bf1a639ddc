/* report_defs.c -- the definitions of a report: metric tree, region table,
   call tree, system tree, attributes; adding them and reading them back. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pomp_util.h"
#include "report_internal.h"

pomp_report *pomp_report_new(void) {
  pomp_report *r = pu_calloc(1, sizeof *r);
  r->path = pu_strdup("");
  return r;
}

void pomp_report_free(pomp_report *r) {
  if (!r) return;
  for (size_t i = 0; i < r->nmetrics; i++) {
    free((char *)r->metrics[i].name);
    free((char *)r->metrics[i].display);
    free((char *)r->metrics[i].description);
  }
  for (size_t i = 0; i < r->nregions; i++) {
    free((char *)r->regions[i].name);
    free((char *)r->regions[i].file);
    free((char *)r->regions[i].paradigm);
    free((char *)r->regions[i].role);
  }
  for (size_t i = 0; i < r->nsysnodes; i++) free((char *)r->sysnodes[i].name);
  for (size_t i = 0; i < r->nattrs; i++) {
    free(r->attrs[i].key);
    free(r->attrs[i].value);
  }
  free(r->metrics);
  report_strmap_free(&r->metric_ids);
  free(r->regions);
  free(r->cnodes);
  free(r->cnode_slots);
  free(r->sysnodes);
  free(r->loc_sysnode);
  free(r->attrs);
  report_strmap_free(&r->attr_ids);
  report_computed_free(r);
  report_tree_free(&r->metric_tree);
  report_tree_free(&r->cnode_tree);
  report_tree_free(&r->sysnode_tree);
  report_cells_free(&r->cells);
  free(r->owned_values);
  free(r->owned_index);
  free(r->rows.metric_begin);
  free(r->rows.checked);
  if (r->map) munmap(r->map, r->map_len);
  free(r->path);
  free(r);
}

static char *dup_or_empty(const char *s) { return pu_strdup(s ? s : ""); }

/* Ids are int32 and a parent must already exist. */
static int valid_parent(int32_t parent, size_t n) {
  return parent == -1 || (parent >= 0 && (size_t)parent < n);
}

int32_t pomp_report_add_metric(pomp_report *r, const char *name, const char *display,
                               pomp_unit unit, const char *description, int32_t parent) {
  if (r->readonly || !name || !*name || r->nmetrics >= INT32_MAX ||
      !valid_parent(parent, r->nmetrics) || pomp_report_find_metric(r, name) >= 0 ||
      (unsigned)unit > POMP_UNIT_BYTES)
    return -1;
  pomp_metric m = {dup_or_empty(name), dup_or_empty(display ? display : name),
                   dup_or_empty(description), unit, parent};
  int32_t id = (int32_t)r->nmetrics;
  PU_PUSH(r->metrics, r->nmetrics, r->metrics_cap, m);
  report_strmap_put(&r->metric_ids, name, id);
  report_tree_link(&r->metric_tree, id, parent);
  r->frozen_stale = 1;
  return id;
}

int32_t pomp_report_add_region(pomp_report *r, const char *name, const char *file,
                               int32_t begin_line, int32_t end_line, const char *paradigm,
                               const char *role) {
  if (r->readonly || !name || r->nregions >= INT32_MAX) return -1;
  pomp_region g = {dup_or_empty(name), dup_or_empty(file),     begin_line,
                   end_line,           dup_or_empty(paradigm), dup_or_empty(role)};
  PU_PUSH(r->regions, r->nregions, r->regions_cap, g);
  return (int32_t)r->nregions - 1;
}

/* ---- call tree: (region, parent) is unique, found through a hash -------- */

static size_t cnode_hash(int32_t region, int32_t parent, size_t mask) {
  uint64_t k = (uint64_t)(uint32_t)region << 32 | (uint32_t)parent;
  k *= 0x9e3779b97f4a7c15u;
  return (size_t)(k >> 29) & mask;
}

static int32_t *cnode_slot(const pomp_report *r, int32_t region, int32_t parent) {
  size_t mask = r->cnode_nslots - 1;
  for (size_t i = cnode_hash(region, parent, mask);; i = (i + 1) & mask) {
    int32_t *s = &r->cnode_slots[i];
    if (!*s) return s;
    const pomp_cnode *c = &r->cnodes[*s - 1];
    if (c->region == region && c->parent == parent) return s;
  }
}

static void cnode_rehash(pomp_report *r) {
  free(r->cnode_slots);
  r->cnode_nslots = r->cnode_nslots ? 2 * r->cnode_nslots : 64;
  r->cnode_slots = pu_calloc(r->cnode_nslots, sizeof *r->cnode_slots);
  for (size_t i = 0; i < r->ncnodes; i++)
    *cnode_slot(r, r->cnodes[i].region, r->cnodes[i].parent) = (int32_t)i + 1;
}

int32_t pomp_report_add_cnode(pomp_report *r, int32_t region, int32_t parent) {
  if (r->readonly || region < 0 || (size_t)region >= r->nregions ||
      !valid_parent(parent, r->ncnodes) || r->ncnodes >= INT32_MAX - 1)
    return -1;
  if (2 * (r->ncnodes + 1) > r->cnode_nslots) cnode_rehash(r);
  int32_t *slot = cnode_slot(r, region, parent);
  if (*slot) return *slot - 1;
  int32_t id = (int32_t)r->ncnodes;
  pomp_cnode c = {region, parent};
  PU_PUSH(r->cnodes, r->ncnodes, r->cnodes_cap, c);
  *slot = id + 1;
  report_tree_link(&r->cnode_tree, id, parent);
  r->frozen_stale = 1;
  return id;
}

/* ---- system tree: machine > node > process > thread --------------------- */

int32_t pomp_report_add_sysnode(pomp_report *r, pomp_sys_kind kind, const char *name,
                                int32_t parent, int32_t rank, int32_t thread) {
  if (r->readonly || (unsigned)kind > POMP_SYS_THREAD || !valid_parent(parent, r->nsysnodes) ||
      r->nsysnodes >= INT32_MAX)
    return -1;
  /* Each level hangs under the level above it; only machines are roots. */
  if (parent < 0 ? kind != POMP_SYS_MACHINE : r->sysnodes[parent].kind != kind - 1) return -1;
  int32_t id = (int32_t)r->nsysnodes;
  pomp_sysnode s = {dup_or_empty(name), kind, parent, -1, -1, -1};
  if (kind >= POMP_SYS_PROCESS) s.rank = rank;
  if (kind == POMP_SYS_THREAD) {
    s.thread = thread;
    s.location = (int32_t)r->nlocations;
    PU_PUSH(r->loc_sysnode, r->nlocations, r->loc_cap, id);
  }
  PU_PUSH(r->sysnodes, r->nsysnodes, r->sysnodes_cap, s);
  report_tree_link(&r->sysnode_tree, id, parent);
  r->frozen_stale = 1;
  return id;
}

/* ---- attributes, in the order they were first set ---------------------- */

void pomp_report_set_attr(pomp_report *r, const char *key, const char *value) {
  if (!key) return;
  if (!strcmp(key, POMP_REPORT_NOT_COMPUTED)) report_computed_parse(r, value);
  int32_t i = report_strmap_get(&r->attr_ids, key);
  if (i >= 0) {
    free(r->attrs[i].value);
    r->attrs[i].value = dup_or_empty(value);
    return;
  }
  struct report_attr a = {pu_strdup(key), dup_or_empty(value)};
  report_strmap_put(&r->attr_ids, key, (int32_t)r->nattrs);
  PU_PUSH(r->attrs, r->nattrs, r->attrs_cap, a);
}

const char *pomp_report_attr(const pomp_report *r, const char *key) {
  int32_t i = key ? report_strmap_get(&r->attr_ids, key) : -1;
  return i >= 0 ? r->attrs[i].value : NULL;
}

int32_t pomp_report_num_attrs(const pomp_report *r) { return (int32_t)r->nattrs; }

const char *pomp_report_attr_key(const pomp_report *r, int32_t i) {
  return i >= 0 && (size_t)i < r->nattrs ? r->attrs[i].key : NULL;
}

const char *pomp_report_run_incomplete(const pomp_report *r) {
  const char *status = pomp_report_attr(r, POMP_REPORT_RUN_STATUS);
  if (!status || !*status || strcmp(status, "complete") == 0) return NULL;
  static const char prefix[] = "incomplete: ";
  size_t n = sizeof prefix - 1;
  return strncmp(status, prefix, n) == 0 && status[n] ? status + n : status;
}

const char *pomp_report_mode_note(const pomp_report *r) {
  const char *mode = pomp_report_attr(r, POMP_REPORT_MODE);
  if (!mode || strcmp(mode, "profile") != 0) return NULL;
  return "profile: wait-state properties need a trace (POMP_MODE=trace)";
}

/* ---- accessors ---------------------------------------------------------- */

int32_t pomp_report_num_metrics(const pomp_report *r) { return (int32_t)r->nmetrics; }
int32_t pomp_report_num_regions(const pomp_report *r) { return (int32_t)r->nregions; }
int32_t pomp_report_num_cnodes(const pomp_report *r) { return (int32_t)r->ncnodes; }
int32_t pomp_report_num_sysnodes(const pomp_report *r) { return (int32_t)r->nsysnodes; }
int32_t pomp_report_num_locations(const pomp_report *r) { return (int32_t)r->nlocations; }

#define CHECKED_GET(array, count, id) ((id) >= 0 && (size_t)(id) < (count) ? &(array)[id] : NULL)

const pomp_metric *pomp_report_metric(const pomp_report *r, int32_t id) {
  return CHECKED_GET(r->metrics, r->nmetrics, id);
}
const pomp_region *pomp_report_region(const pomp_report *r, int32_t id) {
  return CHECKED_GET(r->regions, r->nregions, id);
}
const pomp_cnode *pomp_report_cnode(const pomp_report *r, int32_t id) {
  return CHECKED_GET(r->cnodes, r->ncnodes, id);
}
const pomp_sysnode *pomp_report_sysnode(const pomp_report *r, int32_t id) {
  return CHECKED_GET(r->sysnodes, r->nsysnodes, id);
}

int32_t pomp_report_location_sysnode(const pomp_report *r, int32_t location) {
  const int32_t *s = CHECKED_GET(r->loc_sysnode, r->nlocations, location);
  return s ? *s : -1;
}

int32_t pomp_report_find_metric(const pomp_report *r, const char *name) {
  return name ? report_strmap_get(&r->metric_ids, name) : -1;
}

/* Children of node, or the roots for node -1; 0 for a bad id. */
static int32_t children(const report_tree *t, size_t n, int32_t node, int32_t *out, int32_t cap) {
  if (node < -1 || (node >= 0 && (size_t)node >= n)) return 0;
  return report_tree_children(t, node, out, cap);
}

int32_t pomp_report_metric_children(const pomp_report *r, int32_t metric, int32_t *out,
                                    int32_t cap) {
  return children(&r->metric_tree, r->nmetrics, metric, out, cap);
}
int32_t pomp_report_cnode_children(const pomp_report *r, int32_t cnode, int32_t *out, int32_t cap) {
  return children(&r->cnode_tree, r->ncnodes, cnode, out, cap);
}
int32_t pomp_report_sysnode_children(const pomp_report *r, int32_t sysnode, int32_t *out,
                                     int32_t cap) {
  return children(&r->sysnode_tree, r->nsysnodes, sysnode, out, cap);
}

size_t pomp_report_callpath(const pomp_report *r, int32_t cnode, const char *sep, char *buf,
                            size_t size) {
  if (!sep) sep = ";";
  if (cnode < 0 || (size_t)cnode >= r->ncnodes) {
    if (size) buf[0] = '\0';
    return 0;
  }
  /* Length first (walking up), then fill from the end backwards. */
  size_t seplen = strlen(sep), need = 0;
  for (int32_t c = cnode; c >= 0; c = r->cnodes[c].parent)
    need += strlen(r->regions[r->cnodes[c].region].name) + (c == cnode ? 0 : seplen);
  if (size == 0) return need;
  size_t end = need; /* exclusive end of the part still to write */
  for (int32_t c = cnode; c >= 0; c = r->cnodes[c].parent) {
    const char *name = r->regions[r->cnodes[c].region].name;
    size_t len = strlen(name);
    if (c != cnode) {
      end -= seplen;
      for (size_t i = 0; i < seplen; i++)
        if (end + i < size - 1) buf[end + i] = sep[i];
    }
    end -= len;
    for (size_t i = 0; i < len; i++)
      if (end + i < size - 1) buf[end + i] = name[i];
  }
  buf[need < size ? need : size - 1] = '\0';
  return need;
}
