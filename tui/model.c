/* model.c -- see model.h. */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pomp_util.h"

static void job_clear(tui_location_job *j);

void tui_model_init(tui_model *m, pomp_report *r) {
  memset(m, 0, sizeof *m);
  m->report = r;
  tui_tree_build(&m->tree[TUI_PANE_METRIC], TUI_TREE_METRIC, r);
  tui_tree_build(&m->tree[TUI_PANE_CALL], TUI_TREE_CALL, r);
  tui_tree_build(&m->tree[TUI_PANE_SYSTEM], TUI_TREE_SYSTEM, r);
  /* The property tree is leftmost: its values never change. */
  tui_tree *mt = &m->tree[TUI_PANE_METRIC];
  for (int32_t i = 0; i < mt->n; i++)
    mt->excl[i] = pomp_report_metric_total(r, i, 0);
  tui_tree_accumulate(mt);
  m->call_metric = -2;
  m->loc_sel.metric = -2;
  int32_t nloc = pomp_report_num_locations(r);
  size_t entry = sizeof(double) * (size_t)(nloc ? nloc : 1);
  m->cache_cap = TUI_CACHE_BYTES / entry > 64 ? 64 : (int)(TUI_CACHE_BYTES / entry);
  m->cache = pu_calloc((size_t)m->cache_cap + 1, sizeof *m->cache);
  m->per_location = pu_calloc((size_t)nloc, sizeof *m->per_location);
}

void tui_model_free(tui_model *m) {
  for (int p = 0; p < TUI_NPANES; p++) tui_tree_free(&m->tree[p]);
  free(m->per_location);
  job_clear(&m->job);
  free(m->job.acc);
  for (int i = 0; i < m->ncache; i++) free(m->cache[i].values);
  free(m->cache);
  pomp_report_free(m->report);
  memset(m, 0, sizeof *m);
}

int tui_model_weigh_calls(tui_model *m, int32_t metric, int metric_incl) {
  if (metric == m->call_metric && metric_incl == m->call_metric_incl) return 0;
  m->call_metric = metric;
  m->call_metric_incl = metric_incl;
  tui_tree *ct = &m->tree[TUI_PANE_CALL];
  if (metric < 0)
    memset(ct->excl, 0, sizeof *ct->excl * (size_t)ct->n);
  else
    pomp_report_cnode_values(m->report, metric, metric_incl, ct->excl);
  tui_tree_accumulate(ct);
  return 1;
}

static int same_selection(const pomp_report_selection *a,
                          const pomp_report_selection *b) {
  return a->metric == b->metric && a->metric_inclusive == b->metric_inclusive &&
         a->cnode == b->cnode && a->cnode_inclusive == b->cnode_inclusive;
}

/* Node (and its subtree when inclusive) as a list of ids, in id order:
   parents precede children, so one forward pass marks the subtree. */
static int32_t collect(const tui_tree *t, int32_t node, int inclusive, int32_t **out) {
  *out = pu_malloc(sizeof **out * (size_t)(t->n ? t->n : 1));
  if (!inclusive) {
    (*out)[0] = node;
    return 1;
  }
  uint8_t *in = pu_calloc((size_t)t->n, 1);
  int32_t n = 0;
  in[node] = 1;
  (*out)[n++] = node;
  for (int32_t i = node + 1; i < t->n; i++)
    if (t->parent[i] >= 0 && in[t->parent[i]]) in[i] = 1, (*out)[n++] = i;
  free(in);
  return n;
}

static void job_clear(tui_location_job *j) {
  free(j->metrics);
  free(j->cnodes);
  j->metrics = j->cnodes = NULL;
  j->active = 0;
  j->failed = 0;
  j->next = j->total = 0;
}

static tui_location_cache *cache_find(tui_model *m, const pomp_report_selection *s) {
  for (int i = 0; i < m->ncache; i++)
    if (same_selection(&m->cache[i].sel, s)) return &m->cache[i];
  return NULL;
}

/* Keeps the finished job's values, replacing the least recently used. */
static void cache_store(tui_model *m, const double *values, size_t nloc) {
  if (m->cache_cap == 0 || cache_find(m, &m->loc_sel)) return;
  tui_location_cache *c;
  if (m->ncache < m->cache_cap) {
    c = &m->cache[m->ncache++];
    c->values = pu_malloc(sizeof *c->values * (nloc ? nloc : 1));
  } else {
    c = &m->cache[0];
    for (int i = 1; i < m->ncache; i++)
      if (m->cache[i].used < c->used) c = &m->cache[i];
  }
  c->sel = m->loc_sel;
  c->used = ++m->tick;
  memcpy(c->values, values, sizeof *values * nloc);
}

int tui_model_weigh_locations(tui_model *m, const pomp_report_selection *s) {
  if (same_selection(s, &m->loc_sel)) return 0;
  m->loc_sel = *s;
  tui_location_job *j = &m->job;
  job_clear(j);
  int32_t nloc = pomp_report_num_locations(m->report);
  if (!j->acc) j->acc = pu_calloc((size_t)nloc, sizeof *j->acc);
  m->error[0] = 0;
  j->active = 1;
  tui_location_cache *hit = cache_find(m, s);
  if (hit) { /* an empty job: finishes at once with the kept values */
    hit->used = ++m->tick;
    memcpy(j->acc, hit->values, sizeof *j->acc * (size_t)nloc);
    return 1;
  }
  memset(j->acc, 0, sizeof *j->acc * (size_t)nloc);
  if (s->metric >= 0 && s->cnode >= 0) {
    j->nmetrics = collect(&m->tree[TUI_PANE_METRIC], s->metric, s->metric_inclusive, &j->metrics);
    j->ncnodes = collect(&m->tree[TUI_PANE_CALL], s->cnode, s->cnode_inclusive, &j->cnodes);
    j->total = (size_t)j->nmetrics * (size_t)j->ncnodes;
  }
  return 1;
}

double tui_clock(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The finished job's per-location sums become the location tree's values;
   only threads (locations) own values, inner system nodes have none. */
static void job_finish(tui_model *m) {
  tui_tree *st = &m->tree[TUI_PANE_SYSTEM];
  int32_t nloc = pomp_report_num_locations(m->report);
  memcpy(m->per_location, m->job.acc, sizeof *m->per_location * (size_t)nloc);
  if (!m->job.failed) cache_store(m, m->job.acc, (size_t)nloc); /* never a partial sum */
  for (int32_t i = 0; i < st->n; i++) st->excl[i] = NAN;
  for (int32_t l = 0; l < nloc; l++) {
    int32_t node = pomp_report_location_sysnode(m->report, l);
    if (node >= 0 && node < st->n) st->excl[node] = m->per_location[l];
  }
  tui_tree_accumulate(st);
  job_clear(&m->job);
}

int tui_model_work(tui_model *m, double budget) {
  tui_location_job *j = &m->job;
  if (!j->active) return 0;
  double deadline = tui_clock() + budget;
  while (j->next < j->total) {
    int32_t metric = j->metrics[j->next / (size_t)j->ncnodes];
    int32_t cnode = j->cnodes[j->next % (size_t)j->ncnodes];
    j->next++;
    pomp_report_error err = {0};
    if (!pomp_report_row_add(m->report, metric, cnode, j->acc, &err) &&
        err.status != POMP_REPORT_OK) {
      /* A corrupt row: show what could be read and say why on the status
         line; never stop browsing. */
      snprintf(m->error, sizeof m->error, "%s", err.message);
      j->failed = 1;
      if (m->errors++ == 0) snprintf(m->first_error, sizeof m->first_error, "%s", err.message);
    }
    if (budget > 0 && (j->next & 15) == 0 && tui_clock() > deadline) return 0;
  }
  job_finish(m);
  return 1;
}

double tui_model_progress(const tui_model *m) {
  const tui_location_job *j = &m->job;
  return j->active && j->total ? (double)j->next / (double)j->total : 1.0;
}
