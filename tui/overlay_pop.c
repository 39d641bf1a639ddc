/* overlay_pop.c -- the POP efficiencies of the selected call path's
   sub-tree (the whole run when no call path is selected): the same
   numbers and lines as pomp-report pop, from pomp_report_pop_compute.
   They are summed over the sub-tree's rows when the page opens, not kept
   up to date with the selection (the page covers the panes anyway). */
#include <stdio.h>

#include "app.h"
#include "pomp_util.h"

static const char label_indent[] = "           ";
/* Where a reason that does not fit goes on: under "n/a" (two blanks, the
   36 columns of the names, a blank, the value's 7, a blank). */
static const char value_indent[] = "                                               ";

/* The inputs of the efficiencies, in seconds as pomp-report pop shows
   them ("88.8 ms"). */
static void add_inputs(tui_overlay *o, const pomp_report_pop *p) {
  char a[32], b[32];
  pu_format_seconds(a, sizeof a, p->runtime);
  tui_overlay_add(o, "Locations  %d in %d processes; runtime %s", (int)p->locations,
                  (int)p->processes, a);
  pu_format_seconds(a, sizeof a, p->useful_avg);
  pu_format_seconds(b, sizeof b, p->useful_max);
  tui_overlay_add(o, "Useful     computation per location: average %s, maximum %s", a, b);
  pu_format_seconds(a, sizeof a, p->outside_mpi_avg);
  pu_format_seconds(b, sizeof b, p->outside_mpi_max);
  tui_overlay_add(o, "Outside    MPI per process (master thread): average %s, maximum %s", a, b);
  if (p->has_critical_path) {
    pu_format_seconds(a, sizeof a, p->ideal_runtime);
    tui_overlay_add(o,
                    "Ideal      runtime (computation on the critical path, at least the busiest "
                    "location's) %s",
                    a);
  }
}

void tui_open_pop(tui_app *a) {
  const pomp_report *r = a->model.report;
  int32_t c = tui_pane_selected_node(&a->pane[TUI_PANE_CALL]);
  pomp_report_pop p;
  pomp_report_error err;
  if (pomp_report_pop_compute(r, &c, c >= 0 ? 1 : 0, &p, &err) != POMP_REPORT_OK) {
    tui_app_message(a, 1, "%s", err.message);
    return;
  }
  tui_overlay *o = &a->overlay;
  tui_overlay_clear(o);
  o->kind = TUI_OVERLAY_POP;
  snprintf(o->title, sizeof o->title, "POP efficiencies");
  char path[4096] = "the whole run";
  if (c >= 0) tui_app_full_name(a, TUI_PANE_CALL, c, path, sizeof path);
  tui_overlay_add_hanging(o, "Call path  ", label_indent, path, a->w - 2);
  add_inputs(o, &p);
  tui_overlay_add(o, "%s", "");
  for (int k = 0; k < POMP_REPORT_POP_COUNT; k++) {
    char line[256];
    pomp_report_pop_line(&p, (pomp_report_pop_kind)k, line, sizeof line);
    tui_overlay_add_hanging(o, "  ", value_indent, line, a->w - 2);
  }
  tui_overlay_add(o, "%s", "");
  tui_overlay_add_wrapped(o, "  ",
                          "Parallel efficiency = load balance x communication efficiency = MPI x "
                          "OpenMP parallel efficiency; communication = serialisation x transfer "
                          "efficiency. Definitions: docs/PROPERTIES.md, \"POP efficiencies\".",
                          a->w - 2);
}
