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
  for (int32_t i = 0; i < mt->n; i++) mt->excl[i] = pomp_report_metric_total(r, i, 0);
  tui_tree_accumulate(mt);
  m->call_metric = -2;
  m->loc_sel.metric = -2;
  int32_t nloc = pomp_report_num_locations(r);
  size_t entry = sizeof(double) * (size_t)(nloc ? nloc : 1);
  m->cache_cap = TUI_CACHE_BYTES / entry > 64 ? 64 : (int)(TUI_CACHE_BYTES / entry);
  m->cache = pu_calloc((size_t)m->cache_cap + 1, sizeof *m->cache);
  m->per_location = pu_calloc((size_t)nloc, sizeof *m->per_location);
  m->job.acc = pu_calloc((size_t)nloc + 1, sizeof *m->job.acc);
  m->job.locs = pu_malloc(((size_t)nloc + 1) * sizeof *m->job.locs);
  m->job.vals = pu_malloc(((size_t)nloc + 1) * sizeof *m->job.vals);
}

void tui_model_free(tui_model *m) {
  for (int p = 0; p < TUI_NPANES; p++) tui_tree_free(&m->tree[p]);
  free(m->per_location);
  job_clear(&m->job);
  free(m->job.acc);
  free(m->job.locs);
  free(m->job.vals);
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
  if (metric < 0) memset(ct->excl, 0, sizeof *ct->excl * (size_t)ct->n);
  else pomp_report_cnode_values(m->report, metric, metric_incl, ct->excl);
  tui_tree_accumulate(ct);
  return 1;
}

static int same_selection(const pomp_report_selection *a, const pomp_report_selection *b) {
  return a->metric == b->metric && a->metric_inclusive == b->metric_inclusive &&
         a->cnode == b->cnode && a->cnode_inclusive == b->cnode_inclusive;
}

/* in[i] = 1 for node and, when inclusive, its subtree: parents precede
   children, so one forward pass marks the subtree. */
static uint8_t *mark(const tui_tree *t, int32_t node, int inclusive) {
  uint8_t *in = pu_calloc((size_t)t->n + 1, 1);
  in[node] = 1;
  for (int32_t i = node + 1; inclusive && i < t->n; i++)
    if (t->parent[i] >= 0 && in[t->parent[i]]) in[i] = 1;
  return in;
}

/* The first index row at or after (metric, cnode): rows are sorted by
   (metric, cnode); cnode -1 gives the metric's first row. */
static int64_t row_at_or_after(const pomp_report *r, int32_t metric, int32_t cnode) {
  int64_t lo = 0, hi = pomp_report_num_rows(r);
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    int32_t m, c;
    pomp_report_row_at(r, mid, &m, &c, NULL, NULL);
    if (m < metric || (m == metric && c < cnode)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Appends index rows [begin, end), joined to the last range when adjacent. */
static void add_range(tui_location_job *j, int64_t begin, int64_t end) {
  if (begin >= end) return;
  if (j->nranges && j->ranges[j->nranges - 1].end == begin) {
    j->ranges[j->nranges - 1].end = end;
    return;
  }
  tui_row_range rg = {begin, end};
  PU_PUSH(j->ranges, j->nranges, j->ranges_cap, rg);
}

static void job_clear(tui_location_job *j) {
  free(j->cnode_in);
  free(j->ranges);
  j->cnode_in = NULL;
  j->ranges = NULL;
  j->nranges = j->ranges_cap = j->range = 0;
  j->next = 0;
  j->active = 0;
  j->failed = 0;
  j->done = j->total = 0;
}

/* The job's rows (see model.h), how many match and their total from the
   row sums.  Finding a pair's row costs a binary search, about 20 index
   entries; scanning costs one entry per row of the selected metrics. */
static void job_plan(tui_model *m, const pomp_report_selection *s) {
  tui_location_job *j = &m->job;
  const pomp_report *r = m->report;
  const tui_tree *mt = &m->tree[TUI_PANE_METRIC], *ct = &m->tree[TUI_PANE_CALL];
  uint8_t *metric_in = mark(mt, s->metric, s->metric_inclusive);
  j->cnode_in = mark(ct, s->cnode, s->cnode_inclusive);
  int64_t scan = 0, nmetrics = 0, ncnodes = 0;
  for (int32_t i = 0; i < mt->n; i++)
    if (metric_in[i]) nmetrics++, scan += row_at_or_after(r, i + 1, -1) - row_at_or_after(r, i, -1);
  for (int32_t c = 0; c < ct->n; c++) ncnodes += j->cnode_in[c];
  int by_pairs = nmetrics * ncnodes * 20 < scan;
  for (int32_t first = 0; first < mt->n; first++) {
    if (!metric_in[first]) continue;
    int32_t last = first;
    while (last + 1 < mt->n && metric_in[last + 1]) last++;
    if (!by_pairs) {
      add_range(j, row_at_or_after(r, first, -1), row_at_or_after(r, last + 1, -1));
    } else {
      for (int32_t mi = first; mi <= last; mi++)
        for (int32_t c = 0; c < ct->n; c++) {
          if (!j->cnode_in[c]) continue;
          int64_t i = row_at_or_after(r, mi, c);
          int32_t rm, rc;
          if (pomp_report_row_at(r, i, &rm, &rc, NULL, NULL) && rm == mi && rc == c)
            add_range(j, i, i + 1);
        }
    }
    first = last;
  }
  free(metric_in);
  for (size_t k = 0; k < j->nranges; k++)
    for (int64_t i = j->ranges[k].begin; i < j->ranges[k].end; i++) {
      int32_t c;
      double sum;
      pomp_report_row_at(r, i, NULL, &c, NULL, &sum);
      if (j->cnode_in[c]) j->total++, m->loc_total += sum;
    }
  j->next = j->nranges ? j->ranges[0].begin : 0;
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
  m->error[0] = 0;
  j->active = 1;
  tui_location_cache *hit = cache_find(m, s);
  if (hit) { /* an empty job: finishes at once with the kept values */
    hit->used = ++m->tick;
    memcpy(j->acc, hit->values, sizeof *j->acc * (size_t)nloc);
    return 1;
  }
  memset(j->acc, 0, sizeof *j->acc * (size_t)nloc);
  m->loc_total = 0;
  if (s->metric >= 0 && s->cnode >= 0) job_plan(m, s);
  /* Until the sums are done only a lone root's value is known (it is the
     whole selection); the others are not shown (tui_model_location_known). */
  tui_tree *st = &m->tree[TUI_PANE_SYSTEM];
  for (int32_t i = 0; i < st->n; i++) st->excl[i] = NAN;
  if (st->nroots == 1) st->excl[st->roots[0]] = m->loc_total;
  tui_tree_accumulate(st);
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

/* Adds one row of the job; a corrupt row is reported, never fatal. */
static void job_add(tui_model *m, int32_t metric, int32_t cnode) {
  tui_location_job *j = &m->job;
  pomp_report_error err = {0};
  int32_t n = pomp_report_row_get(m->report, metric, cnode, j->locs, j->vals, &err);
  for (int32_t k = 0; k < n; k++) j->acc[j->locs[k]] += j->vals[k];
  if (n < 0) {
    /* Show what could be read and say why on the status line; never stop
       browsing. */
    snprintf(m->error, sizeof m->error, "%s", err.message);
    j->failed = 1;
    if (m->errors++ == 0) snprintf(m->first_error, sizeof m->first_error, "%s", err.message);
  }
}

int tui_model_work(tui_model *m, double budget) {
  tui_location_job *j = &m->job;
  if (!j->active) return 0;
  double deadline = tui_clock() + budget;
  for (; j->range < j->nranges; j->range++) {
    const tui_row_range *rg = &j->ranges[j->range];
    if (j->next < rg->begin) j->next = rg->begin;
    while (j->next < rg->end) {
      int32_t metric, cnode;
      pomp_report_row_at(m->report, j->next++, &metric, &cnode, NULL, NULL);
      if (!j->cnode_in[cnode]) continue;
      job_add(m, metric, cnode);
      /* A row is thousands of values: the clock is cheap next to it. */
      if (++j->done < j->total && budget > 0 && tui_clock() > deadline) return 0;
    }
  }
  job_finish(m);
  return 1;
}

double tui_model_progress(const tui_model *m) {
  const tui_location_job *j = &m->job;
  return j->active && j->total ? (double)j->done / (double)j->total : 1.0;
}

int tui_model_location_known(const tui_model *m, int32_t node, int inclusive) {
  const tui_tree *st = &m->tree[TUI_PANE_SYSTEM];
  return !m->job.active || (inclusive && st->nroots == 1 && node == st->roots[0]);
}
