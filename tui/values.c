/* values.c -- what a pane's numbers mean: references of the value modes,
   units, spectrum positions, full names and the selection in words (see
   app.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "format.h"

const char *const tui_pane_title[TUI_NPANES] = {"Properties", "Calls", "Locations"};

/* The selected property: it weights the call and location panes. */
static int32_t selected_metric(const tui_app *a) {
  return tui_pane_selected_node(&a->pane[TUI_PANE_METRIC]);
}

int32_t tui_app_unit_metric(const tui_app *a, int p, int32_t node) {
  return p == TUI_PANE_METRIC ? node : selected_metric(a);
}

const char *tui_app_not_computed(const tui_app *a, int p, int32_t node) {
  int32_t m = tui_app_unit_metric(a, p, node);
  return m >= 0 ? pomp_report_not_computed(a->model.report, m) : NULL;
}

double tui_app_reference(tui_app *a, int p, int32_t node) {
  const tui_tree *mt = &a->model.tree[TUI_PANE_METRIC];
  int32_t m = tui_app_unit_metric(a, p, node);
  if (m < 0) return 0;
  if (a->pane[p].mode == TUI_MODE_SELECTION && p > TUI_PANE_METRIC) {
    const tui_pane *left = &a->pane[p - 1];
    int32_t s = tui_pane_selected_node(left);
    return s < 0 ? 0 : tui_pane_value(left, s);
  }
  /* % of total: the total of the property tree's root ("time"). */
  return mt->incl[tui_tree_root_of(mt, m)];
}

void tui_app_format(tui_app *a, int p, int32_t node, double v, char *buf, size_t size) {
  if (a->pane[p].mode == TUI_MODE_ABSOLUTE) {
    int32_t m = tui_app_unit_metric(a, p, node);
    pomp_unit unit = m >= 0 ? pomp_report_metric(a->model.report, m)->unit : POMP_UNIT_SEC;
    tui_format_absolute(buf, size, v, unit);
  } else {
    tui_format_percent(buf, size, v, tui_app_reference(a, p, node));
  }
}

void tui_app_absolute_scale(const tui_app *a, int p, int32_t node, double *lo, double *hi) {
  const tui_tree *t = &a->model.tree[p];
  *lo = 0;
  *hi = 0;
  if (node < 0) return;
  if (p == TUI_PANE_METRIC) {
    /* Property roots have different units (seconds, visits, bytes): each
       property is coloured against its own root. */
    *hi = fabs(t->incl[tui_tree_root_of(t, node)]);
  } else if (t->has_negative) {
    *hi = t->max_abs; /* diverging: symmetric around zero */
  } else {
    *lo = t->peer_min[t->depth[node]];
    *hi = t->peer_max[t->depth[node]];
  }
}

double tui_app_spectrum_x(tui_app *a, int p, int32_t node, double v) {
  if (isnan(v) || v == 0) return 0;
  double x;
  if (a->pane[p].mode == TUI_MODE_ABSOLUTE) {
    double lo, hi;
    tui_app_absolute_scale(a, p, node, &lo, &hi);
    if (lo > 0 && hi > lo) {
      x = (v - lo) / (hi - lo);
      if (x < 1e-12) x = 1e-12; /* the smallest peer is not zero: lowest step */
    } else {
      x = hi != 0 ? v / fabs(hi) : 0;
    }
  } else {
    double ref = tui_app_reference(a, p, node);
    x = ref != 0 ? v / fabs(ref) : 0;
  }
  return x > 1 ? 1 : x < -1 ? -1 : x;
}

void tui_app_full_name(const tui_app *a, int p, int32_t node, char *buf, size_t size) {
  const pomp_report *r = a->model.report;
  buf[0] = 0;
  if (node < 0) return;
  if (p == TUI_PANE_METRIC) {
    const pomp_metric *m = pomp_report_metric(r, node);
    snprintf(buf, size, "%s (%s)", a->model.tree[p].name[node], m->name);
  } else if (p == TUI_PANE_CALL) {
    pomp_report_callpath(r, node, ";", buf, size);
  } else {
    /* machine > node > process > thread, root first. */
    const tui_tree *t = &a->model.tree[p];
    int32_t chain[64];
    int n = 0;
    for (int32_t i = node; i >= 0 && n < 64; i = t->parent[i]) chain[n++] = i;
    size_t len = 0;
    for (int k = n - 1; k >= 0 && len < size; k--)
      len += (size_t)snprintf(buf + len, size - len, "%s%s", t->name[chain[k]], k ? " > " : "");
  }
}

const char *tui_mode_label(const tui_app *a, int p, char *buf, size_t size) {
  int32_t m = selected_metric(a);
  /* One name for one denominator in every pane: each value is a share of
     its property's total (the root of the property tree: Time, Visits).
     The property pane has no pane to its left to be a share of. */
  switch (a->pane[p].mode) {
  case TUI_MODE_TOTAL: return "% of total";
  case TUI_MODE_SELECTION: return p == TUI_PANE_METRIC ? "% of total" : "% of selection";
  default: {
    static const char *const units[] = {"seconds", "occurrences", "bytes"};
    pomp_unit u = m >= 0 ? pomp_report_metric(a->model.report, m)->unit : POMP_UNIT_SEC;
    if (p == TUI_PANE_METRIC) return "absolute";
    snprintf(buf, size, "%s", units[u <= POMP_UNIT_BYTES ? u : 0]);
    return buf;
  }
  }
}

/* The selected row of the focused pane, named in full (names in the panes
   may be cut) with its value: the line a screen reader announces. */
void tui_app_describe(tui_app *a, char *text, size_t size) {
  int p = a->focus;
  const tui_pane *pn = &a->pane[p];
  if (pn->nrows == 0) {
    snprintf(text, size, "nothing to show");
    return;
  }
  const tui_row *r = &pn->rows[pn->cur];
  char name[2048], value[32], mode[64];
  tui_app_full_name(a, p, r->node, name, sizeof name);
  if (r->kind == TUI_ROW_SUMMARY) {
    snprintf(text, size, "%s: %d children", name, (int)tui_tree_nchildren(pn->tree, r->node));
  } else if (r->kind == TUI_ROW_MORE) {
    tui_app_format(a, p, r->node, r->hidden_value, value, sizeof value);
    snprintf(text, size, "%s: %d more children, %s [%s] - Enter shows them", name, (int)r->hidden,
             value, tui_mode_label(a, p, mode, sizeof mode));
  } else if (tui_app_not_computed(a, p, r->node)) {
    snprintf(text, size, "%s  not computed: %s", name, tui_app_not_computed(a, p, r->node));
  } else {
    int incl = tui_pane_is_inclusive(pn, r->node);
    tui_app_format(a, p, r->node, tui_pane_shown_value(pn, r->node), value, sizeof value);
    snprintf(text, size, "%s  %s %s [%s]", name, incl ? "incl" : "excl", value,
             tui_mode_label(a, p, mode, sizeof mode));
  }
}
