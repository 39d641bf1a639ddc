/* tree.c -- see tree.h. */
#include "tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

static int32_t tree_size(tui_tree_kind kind, const pomp_report *r) {
  switch (kind) {
  case TUI_TREE_METRIC: return pomp_report_num_metrics(r);
  case TUI_TREE_CALL: return pomp_report_num_cnodes(r);
  default: return pomp_report_num_sysnodes(r);
  }
}

/* Parent and display name of node i of the given report tree. */
static int32_t node_parent(tui_tree_kind kind, const pomp_report *r, int32_t i, const char **name) {
  switch (kind) {
  case TUI_TREE_METRIC: {
    const pomp_metric *m = pomp_report_metric(r, i);
    *name = m->display && *m->display ? m->display : m->name;
    return m->parent;
  }
  case TUI_TREE_CALL: {
    const pomp_cnode *c = pomp_report_cnode(r, i);
    *name = pomp_report_region(r, c->region)->name;
    return c->parent;
  }
  default: {
    const pomp_sysnode *s = pomp_report_sysnode(r, i);
    *name = s->name;
    return s->parent;
  }
  }
}

/* C++ static initialisers run before main and are roots of their own
   ("_GLOBAL__sub_I_main.cc"): named for what they are. */
static void label_static_inits(tui_tree *t, const pomp_report *r) {
  for (int32_t i = 0; i < t->n; i++) {
    int32_t g = pomp_report_cnode(r, i)->region;
    if (!pomp_report_is_static_init(r, g)) continue;
    size_t len = pomp_report_region_label(r, g, NULL, 0);
    char *label = pu_malloc(len + 1);
    pomp_report_region_label(r, g, label, len + 1);
    PU_PUSH(t->labels, t->nlabels, t->labels_cap, label);
    t->name[i] = label;
  }
}

/* Processes and threads are named as pomp-report and pomp-analyze name
   them ("rank 1", "thread 0"), not by the trace's names ("MPI Rank 1",
   "Master thread", "OMP thread 1"): one vocabulary for locations. */
static void label_locations(tui_tree *t, const pomp_report *r) {
  for (int32_t i = 0; i < t->n; i++) {
    const pomp_sysnode *s = pomp_report_sysnode(r, i);
    int thread = s->kind == POMP_SYS_THREAD;
    if ((!thread && s->kind != POMP_SYS_PROCESS) || (thread ? s->thread : s->rank) < 0) continue;
    char *label = pu_malloc(32);
    snprintf(label, 32, "%s %d", thread ? "thread" : "rank", (int)(thread ? s->thread : s->rank));
    PU_PUSH(t->labels, t->nlabels, t->labels_cap, label);
    t->name[i] = label;
  }
}

void tui_tree_mark_loops(tui_tree *t, const pomp_report *r, const char *mark) {
  for (int32_t i = 0; i < t->n; i++) {
    int32_t g = pomp_report_cnode(r, i)->region;
    if (!pomp_report_is_loop(r, g)) continue;
    const char *name = pomp_report_region(r, g)->name;
    char *label = pu_malloc(strlen(mark) + strlen(name) + 2);
    sprintf(label, "%s %s", mark, name);
    PU_PUSH(t->labels, t->nlabels, t->labels_cap, label);
    t->name[i] = label;
  }
}

void tui_tree_build(tui_tree *t, tui_tree_kind kind, const pomp_report *r) {
  memset(t, 0, sizeof *t);
  t->kind = kind;
  int32_t n = t->n = tree_size(kind, r);
  t->parent = pu_malloc(sizeof *t->parent * (size_t)n);
  t->depth = pu_malloc(sizeof *t->depth * (size_t)n);
  t->name = pu_malloc(sizeof *t->name * (size_t)n);
  t->child_start = pu_calloc((size_t)n + 2, sizeof *t->child_start);
  t->child_ids = pu_malloc(sizeof *t->child_ids * (size_t)n);
  t->roots = pu_malloc(sizeof *t->roots * (size_t)n);
  t->excl = pu_calloc((size_t)n, sizeof *t->excl);
  t->incl = pu_calloc((size_t)n, sizeof *t->incl);
  /* Parents precede children (report contract), so depths and a counting
     sort of children into one array both take a single forward pass. */
  for (int32_t i = 0; i < n; i++) {
    int32_t p = node_parent(kind, r, i, &t->name[i]);
    if (p < -1 || p >= i) p = -1; /* defensive: treat as a root */
    t->parent[i] = p;
    t->depth[i] = p < 0 ? 0 : t->depth[p] + 1;
    if (p < 0) t->roots[t->nroots++] = i;
    else t->child_start[p + 2]++;
  }
  if (kind == TUI_TREE_CALL) label_static_inits(t, r);
  else if (kind == TUI_TREE_SYSTEM) label_locations(t, r);
  for (int32_t i = 0; i < n; i++) {
    t->child_start[i + 2] += t->child_start[i + 1];
    if (t->depth[i] + 1 > t->depths) t->depths = t->depth[i] + 1;
  }
  t->peer_min = pu_calloc((size_t)t->depths + 1, sizeof *t->peer_min);
  t->peer_max = pu_calloc((size_t)t->depths + 1, sizeof *t->peer_max);
  for (int32_t i = 0; i < n; i++)
    if (t->parent[i] >= 0) t->child_ids[t->child_start[t->parent[i] + 1]++] = i;
  /* child_start was shifted by one while filling; now [i] is i's start. */
}

void tui_tree_free(tui_tree *t) {
  free(t->parent);
  free(t->depth);
  free(t->name);
  for (size_t i = 0; i < t->nlabels; i++) free(t->labels[i]);
  free(t->labels);
  free(t->child_start);
  free(t->child_ids);
  free(t->roots);
  free(t->excl);
  free(t->incl);
  free(t->peer_min);
  free(t->peer_max);
  memset(t, 0, sizeof *t);
}

void tui_tree_accumulate(tui_tree *t) {
  for (int32_t i = 0; i < t->n; i++) t->incl[i] = isnan(t->excl[i]) ? 0 : t->excl[i];
  for (int32_t i = t->n - 1; i > 0; i--)
    if (t->parent[i] >= 0) t->incl[t->parent[i]] += t->incl[i];
  t->max_abs = 0;
  t->has_negative = 0;
  for (int32_t d = 0; d < t->depths; d++) t->peer_min[d] = INFINITY, t->peer_max[d] = -INFINITY;
  for (int32_t i = 0; i < t->n; i++) {
    double v = t->incl[i], a = fabs(v);
    if (a > t->max_abs) t->max_abs = a;
    if (v < 0 || t->excl[i] < 0) t->has_negative = 1;
    int32_t d = t->depth[i];
    if (v < t->peer_min[d]) t->peer_min[d] = v;
    if (v > t->peer_max[d]) t->peer_max[d] = v;
  }
}

int32_t tui_tree_root_of(const tui_tree *t, int32_t i) {
  while (i >= 0 && t->parent[i] >= 0) i = t->parent[i];
  return i;
}
