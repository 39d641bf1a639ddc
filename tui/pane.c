/* pane.c -- see pane.h. */
#include "pane.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

void tui_pane_init(tui_pane *p, tui_tree *t, tui_sort sort, int32_t top_k, int summaries) {
  memset(p, 0, sizeof *p);
  p->tree = t;
  size_t n = (size_t)t->n;
  p->expanded = pu_calloc(n, 1);
  p->show_all = pu_calloc(n, 1);
  p->last = pu_calloc(n, 1);
  p->row_of = pu_malloc(sizeof *p->row_of * (n ? n : 1));
  p->sort = sort;
  p->top_k = top_k > 0 ? top_k : 1;
  p->summaries = summaries;
  p->height = 1;
  p->want_row = -1;
  p->sel.node = t->nroots ? t->roots[0] : -1;
  p->stale = 1;
}

void tui_pane_free(tui_pane *p) {
  free(p->expanded);
  free(p->show_all);
  free(p->last);
  free(p->row_of);
  free(p->rows);
  free(p->scratch);
  free(p->stack);
  memset(p, 0, sizeof *p);
}

int tui_pane_has_children(const tui_pane *p, int32_t node) {
  return node >= 0 && tui_tree_nchildren(p->tree, node) > 0;
}

int tui_pane_is_inclusive(const tui_pane *p, int32_t node) {
  return !(p->expanded[node] && tui_pane_has_children(p, node));
}

double tui_pane_value(const tui_pane *p, int32_t node) {
  return tui_pane_is_inclusive(p, node) ? p->tree->incl[node] : p->tree->excl[node];
}

double tui_pane_shown_value(const tui_pane *p, int32_t node) {
  double v = tui_pane_value(p, node);
  return v == 0 && !tui_pane_is_inclusive(p, node) ? NAN : v;
}

int32_t tui_pane_selected_node(const tui_pane *p) { return p->sel.node; }

static void clamp_top(tui_pane *p) {
  int32_t max_top = (int32_t)p->nrows - p->height;
  if (p->top > max_top) p->top = max_top;
  if (p->top < 0) p->top = 0;
}

void tui_pane_scroll_to_cur(tui_pane *p) {
  if (p->cur < p->top) p->top = p->cur;
  if (p->cur >= p->top + p->height) p->top = p->cur - p->height + 1;
  clamp_top(p);
}

/* ---- navigation --------------------------------------------------------- */

void tui_pane_select_row(tui_pane *p, int32_t row) {
  if (p->nrows == 0) return;
  if (row < 0) row = 0;
  if (row >= (int32_t)p->nrows) row = (int32_t)p->nrows - 1;
  p->cur = row;
  p->sel = p->rows[row];
  tui_pane_scroll_to_cur(p);
}

void tui_pane_move(tui_pane *p, int32_t delta) { tui_pane_select_row(p, p->cur + delta); }

void tui_pane_scroll(tui_pane *p, int32_t delta) {
  if (p->nrows == 0) return;
  p->top += delta;
  clamp_top(p);
  /* The selection stays on screen, as in every pager. */
  int32_t row = p->cur;
  if (row < p->top) row = p->top;
  if (row >= p->top + p->height) row = p->top + p->height - 1;
  p->cur = row;
  p->sel = p->rows[row];
}

/* ---- tree operations ---------------------------------------------------- */

static void set_expanded(tui_pane *p, int32_t node, int on) {
  if (node < 0 || !tui_pane_has_children(p, node)) return;
  if (p->expanded[node] != on) p->stale = 1;
  p->expanded[node] = (uint8_t)on;
}

static void select_node(tui_pane *p, int32_t node) {
  p->sel.node = node;
  p->sel.kind = TUI_ROW_NODE;
  p->stale = 1;
}

/* The selection stays on the screen line of the "more" row, which now
   holds one of the children it hid. */
static void open_more(tui_pane *p) {
  p->show_all[p->sel.node] = 1;
  p->want_row = p->cur;
  p->stale = 1;
}

void tui_pane_left(tui_pane *p) {
  int32_t node = p->sel.node;
  if (node < 0) return;
  if (p->sel.kind == TUI_ROW_NODE && p->expanded[node] && tui_pane_has_children(p, node))
    set_expanded(p, node, 0);
  else if (p->sel.kind != TUI_ROW_NODE) select_node(p, node);
  else if (p->tree->parent[node] >= 0) select_node(p, p->tree->parent[node]);
}

void tui_pane_right(tui_pane *p) {
  int32_t node = p->sel.node;
  if (node < 0) return;
  if (p->sel.kind == TUI_ROW_MORE) {
    open_more(p);
  } else if (p->sel.kind == TUI_ROW_NODE && tui_pane_has_children(p, node)) {
    if (!p->expanded[node]) {
      set_expanded(p, node, 1);
    } else {
      tui_pane_refresh(p);
      tui_pane_move(p, 1);
    }
  }
}

void tui_pane_toggle(tui_pane *p) {
  if (p->sel.node < 0) return;
  if (p->sel.kind == TUI_ROW_MORE) open_more(p);
  else if (p->sel.kind == TUI_ROW_NODE) set_expanded(p, p->sel.node, !p->expanded[p->sel.node]);
}

void tui_pane_expand(tui_pane *p) {
  if (p->sel.kind == TUI_ROW_MORE) open_more(p);
  else if (p->sel.kind == TUI_ROW_NODE) set_expanded(p, p->sel.node, 1);
}

void tui_pane_collapse(tui_pane *p) {
  if (p->sel.kind != TUI_ROW_NODE) select_node(p, p->sel.node);
  set_expanded(p, p->sel.node, 0);
}

void tui_pane_expand_subtree(tui_pane *p) {
  int32_t node = p->sel.node;
  if (node < 0) return;
  /* Descendants of node are the ids after it whose parent is marked; one
     forward pass thanks to parent < child. */
  const tui_tree *t = p->tree;
  uint8_t *in = pu_calloc((size_t)t->n, 1);
  in[node] = 1;
  set_expanded(p, node, 1);
  for (int32_t i = node + 1; i < t->n; i++)
    if (t->parent[i] >= 0 && in[t->parent[i]]) {
      in[i] = 1;
      set_expanded(p, i, 1);
    }
  free(in);
}

void tui_pane_expand_all(tui_pane *p, int expand) {
  for (int32_t i = 0; i < p->tree->n; i++) set_expanded(p, i, expand);
}

void tui_pane_hottest_path(tui_pane *p) {
  int32_t node = p->sel.node;
  if (node < 0) return;
  const tui_tree *t = p->tree;
  while (tui_pane_has_children(p, node)) {
    set_expanded(p, node, 1);
    const int32_t *kids = tui_tree_children(t, node);
    int32_t best = kids[0];
    for (int32_t i = 1; i < tui_tree_nchildren(t, node); i++)
      if (t->incl[kids[i]] > t->incl[best]) best = kids[i];
    if (t->incl[best] <= 0) break; /* nothing hot below: stop here */
    node = best;
  }
  tui_pane_reveal(p, node);
}

/* Whether node is among the top_k children its parent shows by value
   (the same order as push_children: larger value, then smaller id). */
static int in_top_k(const tui_pane *p, int32_t node) {
  const tui_tree *t = p->tree;
  int32_t parent = t->parent[node], ahead = 0;
  const int32_t *kids = tui_tree_children(t, parent);
  for (int32_t i = 0; i < tui_tree_nchildren(t, parent); i++) {
    double v = t->incl[kids[i]], mine = t->incl[node];
    if (v > mine || (v == mine && kids[i] < node)) ahead++;
  }
  return ahead < p->top_k;
}

void tui_pane_reveal(tui_pane *p, int32_t node) {
  if (node < 0) return;
  int fresh = !p->stale; /* rows (and row_of) still describe the screen */
  for (int32_t c = node, a = p->tree->parent[node]; a >= 0; c = a, a = p->tree->parent[a]) {
    set_expanded(p, a, 1);
    if (!p->show_all[a] && !in_top_k(p, c)) p->show_all[a] = 1, p->stale = 1;
  }
  /* Jumps far away show the selection mid-screen, its ancestors above;
     a jump to a row already on screen does not scroll. */
  int32_t row = p->row_of[node];
  p->center = !(fresh && !p->stale && row >= p->top && row < p->top + p->height);
  select_node(p, node);
}
