/* pane_rows.c -- the rows a pane shows: a depth-first walk over the
   expanded nodes, children in the pane's sort order, large families cut to
   their top children plus a "... N more" row (and a summary row in the
   location tree).  See pane.h. */
#include <stdlib.h>
#include <string.h>

#include "pane.h"
#include "pomp_util.h"

/* qsort has no context argument in C11; rows are built by one thread, so
   the pane being sorted is passed through this variable. */
static const tui_pane *sorting;

static int by_value(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  double vx = sorting->tree->incl[x], vy = sorting->tree->incl[y];
  if (vx != vy) return vx > vy ? -1 : 1;
  return x < y ? -1 : x > y;
}
static int by_name(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  int c = strcmp(sorting->tree->name[x], sorting->tree->name[y]);
  if (c) return c;
  return x < y ? -1 : x > y;
}
static int by_id(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return x < y ? -1 : x > y;
}

static void push_row(tui_row **arr, size_t *len, size_t *cap, tui_row r) {
  PU_PUSH(*arr, *len, *cap, r);
}

/* Pushes the rows below `parent` (or the roots) onto the stack in reverse
   order, so popping emits them in display order. */
static void push_children(tui_pane *p, int32_t parent, size_t *sp) {
  const tui_tree *t = p->tree;
  const int32_t *kids = parent < 0 ? t->roots : tui_tree_children(t, parent);
  int32_t n = parent < 0 ? t->nroots : tui_tree_nchildren(t, parent);
  if (n == 0) return;
  pu_reserve((void **)&p->scratch, &p->scratch_cap, (size_t)n, sizeof *p->scratch);
  memcpy(p->scratch, kids, sizeof *kids * (size_t)n);
  sorting = p;
  int32_t shown = n;
  tui_row more = {parent, TUI_ROW_MORE, 1, 0, 0};
  if (parent >= 0 && n > p->top_k && !p->show_all[parent]) {
    /* The top children by value, then in the pane's order. */
    qsort(p->scratch, (size_t)n, sizeof *p->scratch, by_value);
    shown = p->top_k;
    more.hidden = n - shown;
    for (int32_t i = shown; i < n; i++) more.hidden_value += t->incl[p->scratch[i]];
  }
  int (*cmp)(const void *, const void *) = p->sort == TUI_SORT_VALUE  ? by_value
                                           : p->sort == TUI_SORT_NAME ? by_name
                                                                      : by_id;
  qsort(p->scratch, (size_t)shown, sizeof *p->scratch, cmp);
  if (more.hidden) push_row(&p->stack, sp, &p->stack_cap, more);
  for (int32_t i = shown - 1; i >= 0; i--) {
    tui_row r = {p->scratch[i], TUI_ROW_NODE, i == shown - 1 && !more.hidden, 0, 0};
    push_row(&p->stack, sp, &p->stack_cap, r);
  }
  if (parent >= 0 && p->summaries && n > p->top_k) {
    tui_row s = {parent, TUI_ROW_SUMMARY, 0, 0, 0};
    push_row(&p->stack, sp, &p->stack_cap, s);
  }
}

static int same_row(tui_row a, tui_row b) { return a.node == b.node && a.kind == b.kind; }

static int32_t find_row(const tui_pane *p, tui_row want) {
  if (want.node < 0) return -1;
  if (want.kind == TUI_ROW_NODE) return p->row_of[want.node];
  int32_t from = p->row_of[want.node];
  if (from < 0) return -1;
  for (size_t i = (size_t)from; i < p->nrows; i++)
    if (same_row(p->rows[i], want)) return (int32_t)i;
  return -1;
}

void tui_pane_refresh(tui_pane *p) {
  if (!p->stale) return;
  p->stale = 0;
  int32_t screen_line = p->cur - p->top;
  const tui_tree *t = p->tree;
  for (int32_t i = 0; i < t->n; i++) p->row_of[i] = -1;
  p->nrows = 0;
  size_t sp = 0;
  push_children(p, -1, &sp);
  while (sp > 0) {
    tui_row r = p->stack[--sp];
    if (r.kind == TUI_ROW_NODE) {
      p->row_of[r.node] = (int32_t)p->nrows;
      p->last[r.node] = r.last;
    }
    push_row(&p->rows, &p->nrows, &p->cap, r);
    if (r.kind == TUI_ROW_NODE && p->expanded[r.node]) push_children(p, r.node, &sp);
  }
  /* Find the selection again; if it disappeared (a collapsed ancestor or
     a "more" row), the nearest shown ancestor takes its place. */
  int32_t at =
      p->want_row >= 0 && p->want_row < (int32_t)p->nrows ? p->want_row : find_row(p, p->sel);
  p->want_row = -1;
  for (int32_t n = p->sel.node; at < 0 && n >= 0; n = t->parent[n]) at = p->row_of[n];
  if (at < 0) at = 0;
  p->cur = at;
  if (p->nrows) p->sel = p->rows[at];
  if (p->center) /* a jump (search, hottest path): context above it */
    screen_line = p->height / 2;
  p->center = 0;
  p->top = p->cur - (screen_line >= 0 && screen_line < p->height ? screen_line : 0);
  tui_pane_scroll_to_cur(p);
}
