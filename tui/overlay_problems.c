/* overlay_problems.c -- the problem list (w): the wait states and
   overheads of the report (pomp_report_problems: own seconds, as
   pomp-analyze's summary counts them; computation and MPI start-up are no
   problems) gathered by call path, since one place in the program is one
   problem to a user (a master waiting in MPI_Recv and its workers idle
   meanwhile), most seconds first, numbered; digit N selects problem N in
   the panes, so that any of the first nine is two keys away from any
   screen.  Under a problem, the cause of each of its wait states, from
   the delay costs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "format.h"

/* Problem (property, call path) pairs read to gather the entries from. */
#define PAIRS 256

static double share(const tui_app *a, int32_t metric, double seconds) {
  const tui_tree *mt = &a->model.tree[TUI_PANE_METRIC];
  double total = mt->incl[tui_tree_root_of(mt, metric)];
  return total > 0 ? 100 * seconds / total : 0;
}

/* The part a problem is named by: the largest specific property other
   than idle threads (the workers idle because their master waits), else
   the largest.  A property with two or more sub-properties is a category
   (MPI Point-to-point, MPI Collective): its own part is what none of its
   specific properties explains (Late Sender, with its one sub-property
   Wrong Order, is specific). */
static int32_t leading_part(const pomp_report *r, const tui_problem *e) {
  int32_t best = -1;
  for (int32_t k = 0; k < e->nparts; k++) {
    int32_t m = e->part[k].metric;
    if (pomp_report_metric_children(r, m, NULL, 0) > 1 ||
        !strcmp(pomp_report_metric(r, m)->name, "omp_idle_threads"))
      continue;
    if (best < 0 || e->part[k].seconds > e->part[best].seconds) best = k;
  }
  return best < 0 ? 0 : best; /* parts come largest first */
}

static int more_seconds_first(const void *pa, const void *pb) {
  const tui_problem *a = pa, *b = pb;
  return (a->seconds < b->seconds) - (a->seconds > b->seconds);
}

/* The report's n pairs (pomp_report_problems) gathered by call path into
   a->problem, most seconds first, each with its leading part first. */
static void gather(tui_app *a, const pomp_report_problem *pairs, int32_t n) {
  const pomp_report *r = a->model.report;
  a->nproblems = 0;
  for (int32_t i = 0; i < n; i++) {
    tui_problem *e = NULL;
    for (int32_t k = 0; k < a->nproblems && !e; k++)
      if (a->problem[k].cnode == pairs[i].cnode) e = &a->problem[k];
    if (!e) {
      if (a->nproblems == TUI_MAX_PROBLEMS) continue;
      e = &a->problem[a->nproblems++];
      memset(e, 0, sizeof *e);
      e->cnode = pairs[i].cnode;
    }
    if (e->nparts == TUI_PROBLEM_PARTS) continue;
    e->part[e->nparts++] = pairs[i];
    e->seconds += pairs[i].seconds;
  }
  for (int32_t i = 0; i < a->nproblems; i++) {
    tui_problem *e = &a->problem[i];
    int32_t lead = leading_part(r, e);
    pomp_report_problem t = e->part[lead];
    memmove(&e->part[1], &e->part[0], (size_t)lead * sizeof t);
    e->part[0] = t;
  }
  qsort(a->problem, (size_t)a->nproblems, sizeof a->problem[0], more_seconds_first);
}

/* "Late Sender (mpi_latesender) 616 ms, Idle Threads (omp_idle_threads)
   624 ms" */
static void parts_text(const tui_app *a, const tui_problem *e, int ids, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = 0;
  for (int32_t k = 0; k < e->nparts && len < size; k++) {
    char secs[32];
    const pomp_report_problem *p = &e->part[k];
    if (k > 0 && p->seconds < 0.01 * e->seconds) continue; /* crumbs */
    tui_format_absolute(secs, sizeof secs, p->seconds, POMP_UNIT_SEC);
    const char *name = a->model.tree[TUI_PANE_METRIC].name[p->metric];
    if (ids)
      len += (size_t)snprintf(buf + len, size - len, "%s%s (%s) %s", k ? ", " : "", name,
                              pomp_report_metric(a->model.report, p->metric)->name, secs);
    else len += (size_t)snprintf(buf + len, size - len, "%s%s %s", k ? ", " : "", name, secs);
  }
}

/* The cause of each wait state of problem e (pomp_report_wait_cause, from
   the delay costs), as pomp-analyze's summary and pomp-report stat say it:
   under the problem at the wait state's worst call path, the one the
   sentence names (its first pair in pairs, largest first). */
static void add_causes(tui_app *a, const tui_problem *e, const pomp_report_problem *pairs,
                       int32_t npairs) {
  for (int32_t k = 0; k < e->nparts; k++) {
    int32_t m = e->part[k].metric, worst = -1;
    for (int32_t i = 0; i < npairs && worst < 0; i++)
      if (pairs[i].metric == m) worst = pairs[i].cnode;
    char cause[POMP_REPORT_CAUSE_SIZE];
    if (worst == e->cnode && pomp_report_wait_cause(a->model.report, m, cause, sizeof cause))
      tui_overlay_add_hanging(&a->overlay, "    cause: ", "      ", cause, a->w);
  }
}

void tui_open_problems(tui_app *a) {
  tui_overlay *o = &a->overlay;
  tui_overlay_clear(o);
  o->kind = TUI_OVERLAY_PROBLEMS;
  snprintf(o->title, sizeof o->title, "Wait states and overheads by call path (1-9 selects)");
  pomp_report_problem pairs[PAIRS];
  int32_t npairs = pomp_report_problems(a->model.report, pairs, PAIRS);
  gather(a, pairs, npairs);
  if (a->nproblems == 0) tui_overlay_add(o, "%s", "  none: no wait state or overhead above zero");
  for (int32_t i = 0; i < a->nproblems; i++) {
    const tui_problem *e = &a->problem[i];
    char path[2048], parts[1024], secs[32], lead[16], line[3200];
    tui_app_full_name(a, TUI_PANE_CALL, e->cnode, path, sizeof path);
    tui_format_absolute(secs, sizeof secs, e->seconds, POMP_UNIT_SEC);
    /* the catalogue names too: what pomp-report's --metric takes */
    parts_text(a, e, 1, parts, sizeof parts);
    snprintf(lead, sizeof lead, " %d. ", (int)i + 1);
    snprintf(line, sizeof line, "%s %5.1f %%  %s: %s", secs,
             share(a, e->part[0].metric, e->seconds), path, parts);
    tui_overlay_add_hanging(o, lead, "    ", line, a->w);
    add_causes(a, e, pairs, npairs);
  }
  tui_overlay_add(o, "%s", "");
  tui_overlay_add(o, "%s", "  Own seconds: of a property without its sub-properties, at the call");
  tui_overlay_add(o, "%s", "  path without its callees, over all locations.  Computation and MPI");
  tui_overlay_add(o, "%s", "  start-up (MPI_Init, MPI_Finalize) are not problems by themselves.");
  tui_app_message(a, 0, "1-9 selects the problem in the three panes; q closes");
}

/* Selects the problem's leading property and its call path, each showing
   its own part (expanded when it has children), the focus on the call
   path. */
static void select_problem(tui_app *a, int32_t i) {
  const tui_problem *e = &a->problem[i];
  static const int panes[] = {TUI_PANE_METRIC, TUI_PANE_CALL};
  const int32_t nodes[] = {e->part[0].metric, e->cnode};
  for (int k = 0; k < 2; k++) {
    tui_pane *pn = &a->pane[panes[k]];
    tui_app_ready(a, panes[k]);
    tui_pane_reveal(pn, nodes[k]);
    if (tui_pane_has_children(pn, nodes[k])) tui_pane_expand(pn);
  }
  a->focus = TUI_PANE_CALL;
  char path[2048], parts[1024];
  tui_app_full_name(a, TUI_PANE_CALL, e->cnode, path, sizeof path);
  parts_text(a, e, 0, parts, sizeof parts);
  tui_app_message(a, 0, "problem %d of %d at %s: %s; Tab: its locations", (int)i + 1,
                  (int)a->nproblems, path, parts);
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
