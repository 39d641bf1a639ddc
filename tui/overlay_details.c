/* overlay_details.c -- everything known about the current selections:
   the property's description, the region's source location, the full
   call path, the location, the experiment's facts. */
#include <stdio.h>

#include "app.h"

static const char *const unit_names[] = {"seconds", "occurrences", "bytes"};

void tui_open_details(tui_app *a) {
  tui_overlay *o = &a->overlay;
  const pomp_report *r = a->model.report;
  int width = a->w - 2;
  char buf[4096], value[32];
  tui_overlay_clear(o);
  o->kind = TUI_OVERLAY_DETAILS;
  snprintf(o->title, sizeof o->title, "Details");
  int32_t m = tui_pane_selected_node(&a->pane[TUI_PANE_METRIC]);
  if (m >= 0) {
    const pomp_metric *pm = pomp_report_metric(r, m);
    tui_overlay_add(o, "Property   %s (%s), %s", a->model.tree[0].name[m], pm->name,
                    unit_names[pm->unit <= POMP_UNIT_BYTES ? pm->unit : 0]);
    tui_overlay_add_wrapped(o, "           ", pm->description ? pm->description : "", width);
  }
  int32_t c = tui_pane_selected_node(&a->pane[TUI_PANE_CALL]);
  if (c >= 0) {
    const pomp_region *rg = pomp_report_region(r, pomp_report_cnode(r, c)->region);
    tui_app_full_name(a, TUI_PANE_CALL, c, buf, sizeof buf);
    tui_overlay_add_wrapped(o, "", "", width);
    tui_overlay_add(o, "Call path  %s", buf);
    tui_overlay_add(o, "Region     %s  (%s, %s)", rg->name, rg->paradigm ? rg->paradigm : "",
                    rg->role ? rg->role : "");
    if (rg->file && *rg->file)
      tui_overlay_add(o, "Source     %s:%d-%d", rg->file, (int)rg->begin_line, (int)rg->end_line);
    else
      tui_overlay_add(o, "Source     unknown");
  }
  int32_t s = tui_pane_selected_node(&a->pane[TUI_PANE_SYSTEM]);
  if (s >= 0) {
    tui_app_full_name(a, TUI_PANE_SYSTEM, s, buf, sizeof buf);
    tui_overlay_add(o, "Location   %s", buf);
    tui_app_ready(a, TUI_PANE_SYSTEM);
    const tui_pane *sp = &a->pane[TUI_PANE_SYSTEM];
    if (tui_app_busy(a)) {
      tui_overlay_add(o, "Value      still being computed (%.0f%%)",
                      100 * tui_model_progress(&a->model));
    } else {
      tui_app_format(a, TUI_PANE_SYSTEM, s, tui_pane_value(sp, s), value, sizeof value);
      tui_overlay_add(o, "Value      %s %s", tui_pane_is_inclusive(sp, s) ? "incl" : "excl",
                      value);
    }
  }
  if (pomp_report_num_attrs(r) > 0) {
    tui_overlay_add(o, "%s", "");
    tui_overlay_add(o, "Experiment");
    for (int32_t i = 0; i < pomp_report_num_attrs(r); i++) {
      const char *k = pomp_report_attr_key(r, i);
      tui_overlay_add(o, "  %-14s %s", k, pomp_report_attr(r, k));
    }
  }
}
