/* overlay_bottlenecks.c -- the search view: the search history graph of
   the automated bottleneck search (pomp_report_search_run, after Paradyn's
   Performance Consultant), one tested node per line under its parent,
   true / false / pruned / untestable with its value, the bottlenecks
   marked; then the bottlenecks in words.  Up and down move a cursor over
   the nodes; Enter selects the node's property, call path and locations
   in the three panes; a digit N selects bottleneck N so. */
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "pomp_util.h"

/* The search, made once per session (it reads the whole report once);
   why it failed is said each time it is asked for. */
static const pomp_report_search *search_of(tui_app *a) {
  if (!a->bottlenecks && !a->bottlenecks_failed) {
    pomp_report_error err;
    a->bottlenecks = pomp_report_search_run(a->model.report, NULL, &err);
    if (!a->bottlenecks) {
      a->bottlenecks_failed = 1;
      snprintf(a->bottlenecks_why, sizeof a->bottlenecks_why, "%s", err.message);
    }
  }
  if (a->bottlenecks_failed) tui_app_message(a, 1, "bottleneck search: %s", a->bottlenecks_why);
  return a->bottlenecks;
}

void tui_bottlenecks_free(tui_app *a) {
  pomp_report_search_free(a->bottlenecks);
  free(a->graph_node);
  a->bottlenecks = NULL;
  a->graph_node = NULL;
}

/* 0 for none, else the rank (1 = most seconds) of node id. */
static int32_t bottleneck_rank(const pomp_report_search *s, int32_t id) {
  for (int32_t i = 0; i < pomp_report_search_num_bottlenecks(s); i++)
    if (pomp_report_search_bottleneck(s, i) == id) return i + 1;
  return 0;
}

/* Node id and its subtree, depth first. */
static void add_graph_lines(tui_app *a, const pomp_report_search *s, int32_t id, int depth) {
  char label[1024];
  pomp_report_search_node_label(s, id, label, sizeof label);
  int32_t rank = bottleneck_rank(s, id);
  char mark[32] = "";
  if (rank) snprintf(mark, sizeof mark, "  <- bottleneck %d", (int)rank);
  a->graph_node[a->graph_lines++] = id;
  tui_overlay_add(&a->overlay, " %*s%s%s", 2 * depth, "", label, mark);
  int32_t n = pomp_report_search_node_children(s, id, NULL, 0);
  int32_t *kids = pu_malloc(((size_t)n + 1) * sizeof *kids);
  pomp_report_search_node_children(s, id, kids, n);
  for (int32_t i = 0; i < n; i++) add_graph_lines(a, s, kids[i], depth + 1);
  free(kids);
}

static void add_sentences(tui_app *a, const pomp_report_search *s) {
  tui_overlay *o = &a->overlay;
  tui_overlay_add(o, "%s", "");
  int32_t nb = pomp_report_search_num_bottlenecks(s);
  tui_overlay_add(o, " Bottlenecks (%d, most seconds first):", (int)nb);
  if (nb == 0) tui_overlay_add(o, "%s", "   none: no hypothesis holds above its threshold");
  for (int32_t i = 0; i < nb; i++) {
    char sentence[2048], lead[16];
    pomp_report_search_sentence(s, pomp_report_search_bottleneck(s, i), sentence, sizeof sentence);
    snprintf(lead, sizeof lead, " %2d. ", (int)i + 1);
    tui_overlay_add_hanging(o, lead, "     ", sentence, a->w);
  }
}

/* Puts the cursor on line, scrolled into the page.  The line is marked
   with '>' as well as highlighted: visible without colours and in batch
   screens. */
static void set_cursor(tui_app *a, int32_t line) {
  if (line >= a->graph_lines) line = a->graph_lines - 1;
  if (line < 0) line = 0;
  tui_overlay *o = &a->overlay;
  if (a->graph_cur >= 0 && a->graph_cur < a->graph_lines) o->lines[a->graph_cur][0] = ' ';
  o->lines[line][0] = '>';
  int32_t page = a->h - 3 > 1 ? a->h - 3 : 1;
  a->graph_cur = line;
  o->hot_begin = line;
  o->hot_end = line + 1;
  if (line < o->top) o->top = line;
  if (line >= o->top + page) o->top = line - page + 1;
}

void tui_open_bottlenecks(tui_app *a) {
  const pomp_report_search *s = search_of(a);
  if (!s) return;
  tui_overlay *o = &a->overlay;
  tui_overlay_clear(o);
  o->kind = TUI_OVERLAY_BOTTLENECKS;
  snprintf(o->title, sizeof o->title, "Bottleneck search: search history graph, %.6g s in all",
           pomp_report_search_total(s));
  free(a->graph_node);
  a->graph_node = pu_malloc(((size_t)pomp_report_search_num_nodes(s) + 1) * sizeof(int32_t));
  a->graph_lines = 0;
  a->graph_cur = -1;
  add_graph_lines(a, s, 0, 0);
  add_sentences(a, s);
  int32_t top = pomp_report_search_bottleneck(s, 0), line = 0;
  for (int32_t i = 0; i < a->graph_lines; i++)
    if (a->graph_node[i] == top) line = i;
  set_cursor(a, line);
  tui_app_message(a, 0, "Enter selects the node in the three panes, 1-9 bottleneck N; q closes");
}

int tui_bottlenecks_key(tui_app *a, int key) {
  int32_t page = a->h - 3 > 2 ? a->h - 4 : 1;
  switch (key) {
  case TUI_KEY_UP:
  case 'k': set_cursor(a, a->graph_cur - 1); return 1;
  case TUI_KEY_DOWN:
  case 'j': set_cursor(a, a->graph_cur + 1); return 1;
  case TUI_KEY_PGUP: set_cursor(a, a->graph_cur - page); return 1;
  case TUI_KEY_PGDN: set_cursor(a, a->graph_cur + page); return 1;
  case TUI_KEY_HOME:
  case 'g': set_cursor(a, 0); return 1;
  case TUI_KEY_END:
  case 'G': set_cursor(a, a->graph_lines - 1); return 1;
  case TUI_KEY_ENTER: {
    int32_t id = a->graph_node[a->graph_cur];
    tui_overlay_clear(&a->overlay);
    tui_select_search_node(a, id);
    return 1;
  }
  case 'b': tui_overlay_clear(&a->overlay); return 1;
  default: break;
  }
  /* 1-9: bottleneck N of the list below the graph, selected at once (two
     keys from any screen to any of the first nine problems). */
  const pomp_report_search *s = a->bottlenecks;
  if (key >= '1' && key <= '9' && s && key - '1' < pomp_report_search_num_bottlenecks(s)) {
    tui_overlay_clear(&a->overlay);
    tui_select_search_node(a, pomp_report_search_bottleneck(s, key - '1'));
    return 1;
  }
  return 0;
}

/* The location pane's node for a set: its process when the set holds all
   of the process's threads, else the first thread. */
static int32_t location_node(const pomp_report *r, const pomp_report_search_node *n) {
  int32_t thread = pomp_report_location_sysnode(r, n->locations[0]);
  int32_t process = pomp_report_sysnode(r, thread)->parent;
  if (process < 0) return thread;
  int32_t in_process = 0;
  for (int32_t i = 0; i < n->num_locations; i++)
    if (pomp_report_sysnode(r, pomp_report_location_sysnode(r, n->locations[i]))->parent == process)
      in_process++;
  return in_process == pomp_report_sysnode_children(r, process, NULL, 0) ? process : thread;
}

void tui_select_search_node(tui_app *a, int32_t id) {
  const pomp_report_search *s = search_of(a);
  const pomp_report_search_node *n = s ? pomp_report_search_node_at(s, id) : NULL;
  if (!n) return;
  /* Left to right: each pane is weighted by the selections to its left.
     The search's values are inclusive in properties and call paths, so
     the selected property and call path are shown collapsed. */
  int32_t property = pomp_report_search_node_property(s, id);
  tui_app_ready(a, TUI_PANE_METRIC);
  if (property >= 0) {
    tui_pane_reveal(&a->pane[TUI_PANE_METRIC], property);
    tui_pane_collapse(&a->pane[TUI_PANE_METRIC]);
  }
  tui_app_ready(a, TUI_PANE_CALL);
  if (n->cnode >= 0) {
    tui_pane_reveal(&a->pane[TUI_PANE_CALL], n->cnode);
    tui_pane_collapse(&a->pane[TUI_PANE_CALL]);
  }
  tui_app_ready(a, TUI_PANE_SYSTEM);
  if (n->num_locations > 0)
    tui_pane_reveal(&a->pane[TUI_PANE_SYSTEM], location_node(a->model.report, n));
  a->focus = n->cnode >= 0 ? TUI_PANE_CALL : TUI_PANE_METRIC;
  char sentence[2048];
  pomp_report_search_sentence(s, id, sentence, sizeof sentence);
  int32_t rank = bottleneck_rank(s, id);
  if (rank)
    tui_app_message(a, 0, "bottleneck %d of %d: %s (b: search view)", (int)rank,
                    (int)pomp_report_search_num_bottlenecks(s), sentence);
  else tui_app_message(a, 0, "%s", sentence);
}

/* The first screen opens on the heaviest bottleneck that is a problem
   (a wait, an overhead, an imbalance, I/O): computation is a bottleneck
   in Paradyn's sense but rarely why a run is slow, and a newcomer who
   lands on "Computation in main" learns nothing.  It is the fallback
   when nothing else held. */
static int32_t first_problem_bottleneck(const pomp_report_search *s) {
  int32_t n = pomp_report_search_num_bottlenecks(s);
  for (int32_t i = 0; i < n; i++) {
    int32_t id = pomp_report_search_bottleneck(s, i);
    if (pomp_report_search_node_at(s, id)->hypothesis != POMP_SEARCH_CPU_BOUND) return id;
  }
  return pomp_report_search_bottleneck(s, 0);
}

int tui_bottleneck_summary(tui_app *a, char *buf, size_t size) {
  const pomp_report_search *s = search_of(a);
  if (!s || pomp_report_search_num_bottlenecks(s) == 0) return 0;
  pomp_report_search_sentence(s, first_problem_bottleneck(s), buf, size);
  return 1;
}

/* A difference of two runs opens at the top, quietly: the search refuses
   it (b says why). */
void tui_start_at_bottleneck(tui_app *a) {
  if (pomp_report_attr(a->model.report, "diff")) return;
  const pomp_report_search *s = search_of(a);
  if (s && pomp_report_search_num_bottlenecks(s) > 0)
    tui_select_search_node(a, first_problem_bottleneck(s));
}
