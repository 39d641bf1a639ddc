/* overlay_details.c -- everything known about the current selections:
   how the run ended if it did not finish, the property's description, the
   region's source location, the full call path, the location, the
   experiment's facts.  Long texts wrap and the page scrolls: this is where
   whatever the panes and the warning line cut off can be read in full. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "pomp_util.h"

static const char *const unit_names[] = {"seconds", "occurrences", "bytes"};

/* Blanks as wide as the labels ("Call path  "), under which texts wrap. */
static const char label_indent[] = "           ";

/* The description of a run that did not finish comes first and whole:
   the warning line under the title points here when it is cut. */
static void add_run_status(tui_app *a, int width) {
  static const char head[] = "did not finish: ", tail[] = "; values cover what the trace recorded";
  size_t size = sizeof head + strlen(a->incomplete) + sizeof tail;
  char *text = pu_malloc(size);
  snprintf(text, size, "%s%s%s", head, a->incomplete, tail);
  tui_overlay_add_hanging(&a->overlay, "Run        ", label_indent, text, width);
  tui_overlay_add(&a->overlay, "%s", "");
  free(text);
}

/* "Value      incl 42.00 [% of total] Computation, all locations": node's
   value in pane p as the pane shows it, then what it covers ("Value
   not computed: REASON" where the analysis did not compute it). */
static void add_value(tui_app *a, int p, int32_t node, const char *covers) {
  char value[32], mode[64];
  const tui_pane *pn = &a->pane[p];
  const char *not_computed = tui_app_not_computed(a, p, node);
  if (not_computed) {
    tui_overlay_add(&a->overlay, "Value      not computed: %s", not_computed);
    return;
  }
  tui_app_format(a, p, node, tui_pane_shown_value(pn, node), value, sizeof value);
  tui_overlay_add(&a->overlay, "Value      %s %s [%s] %s",
                  tui_pane_is_inclusive(pn, node) ? "incl" : "excl", value,
                  tui_mode_label(a, p, mode, sizeof mode), covers);
}

static void add_property(tui_app *a, int32_t m, int width) {
  const pomp_metric *pm = pomp_report_metric(a->model.report, m);
  tui_overlay_add(&a->overlay, "Property   %s (%s), %s", a->model.tree[0].name[m], pm->name,
                  unit_names[pm->unit <= POMP_UNIT_BYTES ? pm->unit : 0]);
  if (pm->description && *pm->description)
    tui_overlay_add_wrapped(&a->overlay, label_indent, pm->description, width);
  add_value(a, TUI_PANE_METRIC, m, "of the whole run");
}

static void add_call_path(tui_app *a, int32_t c, int width) {
  tui_overlay *o = &a->overlay;
  const pomp_report *r = a->model.report;
  const pomp_region *rg = pomp_report_region(r, pomp_report_cnode(r, c)->region);
  char buf[4096];
  tui_app_full_name(a, TUI_PANE_CALL, c, buf, sizeof buf);
  tui_overlay_add_hanging(o, "Call path  ", label_indent, buf, width);
  tui_overlay_add(o, "Region     %s  (%s, %s)", rg->name, rg->paradigm ? rg->paradigm : "",
                  rg->role ? rg->role : "");
  if (rg->file && *rg->file)
    tui_overlay_add(o, "Source     %s:%d-%d", rg->file, (int)rg->begin_line, (int)rg->end_line);
  else tui_overlay_add(o, "Source     unknown (built without -g?)");
  tui_app_ready(a, TUI_PANE_CALL);
  add_value(a, TUI_PANE_CALL, c, "of the property, all locations");
}

static void add_location(tui_app *a, int32_t s, int width) {
  tui_overlay *o = &a->overlay;
  char buf[4096];
  tui_app_full_name(a, TUI_PANE_SYSTEM, s, buf, sizeof buf);
  tui_overlay_add_hanging(o, "Location   ", label_indent, buf, width);
  tui_app_ready(a, TUI_PANE_SYSTEM);
  if (tui_app_busy(a))
    tui_overlay_add(o, "Value      still being computed (%.0f%%)",
                    100 * tui_model_progress(&a->model));
  else add_value(a, TUI_PANE_SYSTEM, s, "of the property at the call path");
}

/* Every attribute, its value wrapped under itself ("  trace          ..."),
   but the run_status of an unfinished run, which heads the page.  The
   values start in one column, after the longest key (at least 14 wide;
   analysis_warnings and instrumentation are longer). */
static void add_experiment(tui_app *a, int width) {
  enum { MIN_KEY = 14, MAX_KEY = 40 };
  const pomp_report *r = a->model.report;
  if (pomp_report_num_attrs(r) == 0) return;
  tui_overlay_add(&a->overlay, "%s", "");
  tui_overlay_add(&a->overlay, "Experiment");
  int key_width = MIN_KEY;
  for (int32_t i = 0; i < pomp_report_num_attrs(r); i++) {
    int len = (int)strlen(pomp_report_attr_key(r, i));
    if (len > key_width) key_width = len < MAX_KEY ? len : MAX_KEY;
  }
  char indent[MAX_KEY + 4];
  snprintf(indent, sizeof indent, "%*s", key_width + 3, "");
  for (int32_t i = 0; i < pomp_report_num_attrs(r); i++) {
    const char *k = pomp_report_attr_key(r, i);
    if (a->incomplete && strcmp(k, POMP_REPORT_RUN_STATUS) == 0) continue;
    char lead[256];
    snprintf(lead, sizeof lead, "  %-*s ", key_width, k);
    tui_overlay_add_hanging(&a->overlay, lead, indent, pomp_report_attr(r, k), width);
  }
}

void tui_open_details(tui_app *a) {
  tui_overlay *o = &a->overlay;
  int width = a->w - 2;
  tui_overlay_clear(o);
  o->kind = TUI_OVERLAY_DETAILS;
  /* The page covers all three selections; its title says which pane has
     the focus (the status line's value is that pane's). */
  static const char *const focus[TUI_NPANES] = {"property", "call path", "location"};
  snprintf(o->title, sizeof o->title, "Details, focus on the %s", focus[a->focus]);
  if (a->incomplete) add_run_status(a, width);
  int32_t m = tui_pane_selected_node(&a->pane[TUI_PANE_METRIC]);
  if (m >= 0) add_property(a, m, width);
  int32_t c = tui_pane_selected_node(&a->pane[TUI_PANE_CALL]);
  if (c >= 0) {
    if (m >= 0) tui_overlay_add(o, "%s", "");
    add_call_path(a, c, width);
  }
  int32_t s = tui_pane_selected_node(&a->pane[TUI_PANE_SYSTEM]);
  if (s >= 0) {
    tui_overlay_add(o, "%s", "");
    add_location(a, s, width);
  }
  add_experiment(a, width);
}
