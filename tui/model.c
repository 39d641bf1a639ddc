/* model.c -- see model.h. */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

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
  m->per_location = pu_calloc((size_t)nloc, sizeof *m->per_location);
}

void tui_model_free(tui_model *m) {
  for (int p = 0; p < TUI_NPANES; p++) tui_tree_free(&m->tree[p]);
  free(m->per_location);
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

int tui_model_weigh_locations(tui_model *m, const pomp_report_selection *s) {
  if (same_selection(s, &m->loc_sel)) return 0;
  m->loc_sel = *s;
  tui_tree *st = &m->tree[TUI_PANE_SYSTEM];
  int32_t nloc = pomp_report_num_locations(m->report);
  m->error[0] = 0;
  if (s->metric < 0 || s->cnode < 0) {
    memset(m->per_location, 0, sizeof *m->per_location * (size_t)nloc);
  } else {
    pomp_report_error err = {0};
    if (pomp_report_location_values(m->report, s, m->per_location, &err) !=
        POMP_REPORT_OK) {
      /* A corrupt row: show what could be read and say why on the status
         line; never stop browsing. */
      snprintf(m->error, sizeof m->error, "%s", err.message);
      if (m->errors++ == 0) snprintf(m->first_error, sizeof m->first_error, "%s", err.message);
    }
  }
  /* Only threads (locations) own values; inner system nodes have none. */
  for (int32_t i = 0; i < st->n; i++) st->excl[i] = NAN;
  for (int32_t l = 0; l < nloc; l++) {
    int32_t node = pomp_report_location_sysnode(m->report, l);
    if (node >= 0 && node < st->n) st->excl[node] = m->per_location[l];
  }
  tui_tree_accumulate(st);
  return 1;
}
