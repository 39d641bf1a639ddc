/* overlay_problems.c -- the problem list (w): the wait states and
   overheads of the report as (property, call path) pairs by their own
   seconds, the way pomp-analyze's summary counts them
   (pomp_report_problems: computation and MPI start-up are no problems),
   numbered; digit N selects problem N in the panes, so that any of the
   first nine is two keys away from any screen. */
#include <stdio.h>

#include "app.h"
#include "format.h"

/* "Late Sender at main;late_sender;MPI_Recv" */
static void describe(const tui_app *a, const pomp_report_problem *p, char *buf, size_t size) {
  char path[2048];
  tui_app_full_name(a, TUI_PANE_CALL, p->cnode, path, sizeof path);
  snprintf(buf, size, "%s at %s", a->model.tree[TUI_PANE_METRIC].name[p->metric], path);
}

static double share(const tui_app *a, const pomp_report_problem *p) {
  const tui_tree *mt = &a->model.tree[TUI_PANE_METRIC];
  double total = mt->incl[tui_tree_root_of(mt, p->metric)];
  return total > 0 ? 100 * p->seconds / total : 0;
}

void tui_open_problems(tui_app *a) {
  tui_overlay *o = &a->overlay;
  tui_overlay_clear(o);
  o->kind = TUI_OVERLAY_PROBLEMS;
  snprintf(o->title, sizeof o->title, "Wait states and overheads by own seconds (1-9 selects)");
  a->nproblems = pomp_report_problems(a->model.report, a->problems, TUI_MAX_PROBLEMS);
  if (a->nproblems == 0) tui_overlay_add(o, "%s", "  none: no wait state or overhead above zero");
  for (int32_t i = 0; i < a->nproblems; i++) {
    char text[2400], secs[32], lead[16];
    describe(a, &a->problems[i], text, sizeof text);
    tui_format_absolute(secs, sizeof secs, a->problems[i].seconds, POMP_UNIT_SEC);
    snprintf(lead, sizeof lead, " %d. ", (int)i + 1);
    char line[2500];
    snprintf(line, sizeof line, "%s %5.1f %%  %s", secs, share(a, &a->problems[i]), text);
    tui_overlay_add_hanging(o, lead, "    ", line, a->w);
  }
  tui_overlay_add(o, "%s", "");
  tui_overlay_add(o, "%s",
                  "  Own seconds: of the property without its sub-properties, at the call");
  tui_overlay_add(o, "%s", "  path without its callees, over all locations.  Computation and MPI");
  tui_overlay_add(o, "%s", "  start-up (MPI_Init, MPI_Finalize) are not problems by themselves.");
  tui_app_message(a, 0, "1-9 selects the problem in the three panes; q closes");
}

/* Selects the problem's property and call path, each showing its own
   part (expanded when it has children), the focus on the call path. */
static void select_problem(tui_app *a, int32_t i) {
  const pomp_report_problem *p = &a->problems[i];
  static const int panes[] = {TUI_PANE_METRIC, TUI_PANE_CALL};
  const int32_t nodes[] = {p->metric, p->cnode};
  for (int k = 0; k < 2; k++) {
    tui_pane *pn = &a->pane[panes[k]];
    tui_app_ready(a, panes[k]);
    tui_pane_reveal(pn, nodes[k]);
    if (tui_pane_has_children(pn, nodes[k])) tui_pane_expand(pn);
  }
  a->focus = TUI_PANE_CALL;
  char text[2400], secs[32];
  describe(a, p, text, sizeof text);
  tui_format_absolute(secs, sizeof secs, p->seconds, POMP_UNIT_SEC);
  tui_app_message(a, 0, "problem %d of %d: %s, %s (%.1f %%); Tab: its locations", (int)i + 1,
                  (int)a->nproblems, text, secs, share(a, p));
}

int tui_problems_key(tui_app *a, int key) {
  if (key == 'w') {
    tui_overlay_clear(&a->overlay);
    return 1;
  }
  if (key < '1' || key > '9' || key - '1' >= a->nproblems) return 0;
  tui_overlay_clear(&a->overlay);
  select_problem(a, key - '1');
  return 1;
}
