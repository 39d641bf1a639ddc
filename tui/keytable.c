/* keytable.c -- every key binding, in one table that drives both the input
   handling and the help screen (so the help cannot drift from the keys). */
#include <stdio.h>

#include "app.h"

static tui_pane *focused(tui_app *a) { return &a->pane[a->focus]; }

static void up(tui_app *a) { tui_pane_move(focused(a), -1); }
static void down(tui_app *a) { tui_pane_move(focused(a), 1); }
static void page_up(tui_app *a) { tui_pane_move(focused(a), -(focused(a)->height - 1)); }
static void page_down(tui_app *a) { tui_pane_move(focused(a), focused(a)->height - 1); }
static void home(tui_app *a) { tui_pane_select_row(focused(a), 0); }
static void end(tui_app *a) { tui_pane_select_row(focused(a), (int32_t)focused(a)->nrows - 1); }
static void left(tui_app *a) { tui_pane_left(focused(a)); }
static void right(tui_app *a) { tui_pane_right(focused(a)); }
static void toggle(tui_app *a) { tui_pane_toggle(focused(a)); }
static void expand(tui_app *a) { tui_pane_expand(focused(a)); }
static void collapse(tui_app *a) { tui_pane_collapse(focused(a)); }
static void subtree(tui_app *a) { tui_pane_expand_subtree(focused(a)); }
static void expand_all(tui_app *a) { tui_pane_expand_all(focused(a), 1); }
static void collapse_all(tui_app *a) { tui_pane_expand_all(focused(a), 0); }
static void hottest(tui_app *a) { tui_pane_hottest_path(focused(a)); }
static void next_pane(tui_app *a) { a->focus = (a->focus + 1) % TUI_NPANES; }
static void prev_pane(tui_app *a) { a->focus = (a->focus + TUI_NPANES - 1) % TUI_NPANES; }
static void pane1(tui_app *a) { a->focus = TUI_PANE_METRIC; }
static void pane2(tui_app *a) { a->focus = TUI_PANE_CALL; }
static void pane3(tui_app *a) { a->focus = TUI_PANE_SYSTEM; }
static void search(tui_app *a) {
  a->prompt = 1;
  a->prompt_buf[0] = 0;
}
static void search_next(tui_app *a) { tui_search_step(a, 1); }
static void search_prev(tui_app *a) { tui_search_step(a, -1); }

static void sort(tui_app *a) {
  static const char *const names[] = {"value", "name", "definition order"};
  tui_pane *p = focused(a);
  p->sort = (tui_sort)((p->sort + 1) % TUI_NSORTS);
  p->stale = 1;
  tui_app_message(a, 0, "%s sorted by %s", tui_pane_title[a->focus], names[p->sort]);
}

/* One value mode for all three panes (as htop's and tig's settings are
   global): a mode per pane would leave numbers side by side that mean
   different things.  The legend line names it. */
static void mode(tui_app *a) {
  tui_mode next = (tui_mode)((a->pane[TUI_PANE_CALL].mode + 1) % TUI_NMODES);
  for (int p = 0; p < TUI_NPANES; p++) a->pane[p].mode = next;
  char buf[64];
  tui_app_message(a, 0, "values: %s in every pane (m: next mode)",
                  tui_mode_label(a, TUI_PANE_CALL, buf, sizeof buf));
}

static void quit(tui_app *a) { a->quit = 1; }

const tui_binding tui_bindings[] = {
    {{TUI_KEY_UP, 'k'}, "move up", up},
    {{TUI_KEY_DOWN, 'j'}, "move down", down},
    {{TUI_KEY_PGUP}, "page up", page_up},
    {{TUI_KEY_PGDN}, "page down", page_down},
    {{TUI_KEY_HOME, 'g'}, "first row", home},
    {{TUI_KEY_END, 'G'}, "last row", end},
    {{TUI_KEY_LEFT, 'h'}, "collapse, or go to the parent", left},
    {{TUI_KEY_RIGHT, 'l'}, "expand, or go to the first child", right},
    {{TUI_KEY_ENTER, ' '}, "toggle expansion (opens \"... N more\")", toggle},
    {{'+'}, "expand", expand},
    {{'-'}, "collapse", collapse},
    {{'*'}, "expand the whole subtree", subtree},
    {{'E'}, "expand all", expand_all},
    {{'C'}, "collapse all", collapse_all},
    {{'x'}, "expand the hottest path below the selection", hottest},
    {{TUI_KEY_TAB}, "next pane", next_pane},
    {{TUI_KEY_BTAB}, "previous pane", prev_pane},
    {{'1'}, "property pane", pane1},
    {{'2'}, "call pane", pane2},
    {{'3'}, "location pane", pane3},
    {{'/'}, "search all panes (regular expression)", search},
    {{'n', TUI_KEY_F3}, "next match", search_next},
    {{'N', TUI_KEY_SF3}, "previous match", search_prev},
    {{'s'}, "sort: value, name, definition order", sort},
    {{'m'}, "value mode of all panes: % of total, % of selection, absolute", mode},
    {{'i'}, "details: property, region, call path, location", tui_open_details},
    {{'y'}, "copy the selection's name and value (terminal clipboard)", tui_yank},
    {{'v'}, "source of the selected call path's region", tui_open_source},
    {{'p'}, "POP efficiencies of the selected call path's sub-tree", tui_open_pop},
    {{'w'}, "wait states and overheads: the problem list, 1-9 selects", tui_open_problems},
    {{'b'},
     "bottleneck search: its history graph, Enter (or bottleneck N: 1-9) selects",
     tui_open_bottlenecks},
    {{'?', TUI_KEY_F1}, "this help", tui_open_help},
    {{'q'}, "quit", quit},
};
const size_t tui_nbindings = sizeof tui_bindings / sizeof tui_bindings[0];

const tui_binding *tui_binding_for(int key) {
  for (size_t i = 0; i < tui_nbindings; i++)
    for (int k = 0; k < 4 && tui_bindings[i].keys[k]; k++)
      if (tui_bindings[i].keys[k] == key) return &tui_bindings[i];
  return NULL;
}
