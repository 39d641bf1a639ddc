/* draw_pane.c -- one pane: its header and its visible rows (only those).
   Row layout: tree glyphs, expander, weight icon, value, name. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "format.h"

#define MAX_INDENT 256

static const tui_style plain = {0, 0, 0, 0};

/* Writes s at *col, clipped to the pane, and advances *col. */
static void put(tui_app *a, int *col, int y, int end, const char *s, tui_style st) {
  if (*col < end) *col += tui_vs_put(&a->vs, *col, y, end - *col, s, st);
}

static void draw_header(tui_app *a, int p, int x, int w, int y) {
  char mode[64], text[1024];
  const char *label = tui_mode_label(a, p, mode, sizeof mode);
  const tui_pane *mp = &a->pane[TUI_PANE_METRIC], *cp = &a->pane[TUI_PANE_CALL];
  int32_t m = tui_pane_selected_node(mp), c = tui_pane_selected_node(cp);
  const char *mname = m >= 0 ? a->model.tree[0].name[m] : "-";
  const char *cname = c >= 0 ? a->model.tree[1].name[c] : "-";
  const char *mstate = m >= 0 && !tui_pane_is_inclusive(mp, m) ? " excl" : " incl";
  const char *cstate = c >= 0 && !tui_pane_is_inclusive(cp, c) ? " excl" : " incl";
  if (p == TUI_PANE_METRIC) snprintf(text, sizeof text, "%s [%s]", tui_pane_title[p], label);
  else if (p == TUI_PANE_CALL)
    snprintf(text, sizeof text, "%s [%s] %s%s", tui_pane_title[p], label, mname, mstate);
  else if (tui_app_busy(a))
    snprintf(text, sizeof text, "%s [%s] computing %.0f%%", tui_pane_title[p], label,
             100 * tui_model_progress(&a->model));
  else
    snprintf(text, sizeof text, "%s [%s] %s%s @ %s%s", tui_pane_title[p], label, mname, mstate,
             cname, cstate);
  tui_style st = {TUI_A_BOLD, 0, 0, 0};
  if (p == a->focus) st.attr |= TUI_A_REVERSE;
  tui_vs_fill(&a->vs, x, y, w, ' ', st);
  tui_vs_put_clipped(&a->vs, x, y, w, text, st, a->glyphs->ellipsis);
}

/* Tree glyphs left of the expander: one column per level, the deepest
   levels kept when the tree is deeper than a third of the pane. */
static void draw_prefix(tui_app *a, int p, const tui_row *r, int *col, int y, int end, int w) {
  const tui_tree *t = &a->model.tree[p];
  const tui_pane *pn = &a->pane[p];
  int is_node = r->kind == TUI_ROW_NODE;
  int depth = t->depth[r->node] + !is_node;
  if (depth == 0) return;
  int max = w / 3 < 4 ? 4 : w / 3 > MAX_INDENT ? MAX_INDENT : w / 3;
  int shown = depth < max ? depth : max;
  const char *glyph[MAX_INDENT];
  glyph[shown - 1] = r->last ? a->glyphs->corner : a->glyphs->tee;
  /* Ancestors from the row's parent upwards fill the columns right to left. */
  int32_t anc = is_node ? t->parent[r->node] : r->node;
  for (int k = shown - 2; k >= 0; k--, anc = t->parent[anc])
    glyph[k] = pn->last[anc] ? " " : a->glyphs->vline;
  if (shown < depth) glyph[0] = a->glyphs->ellipsis;
  for (int k = 0; k < shown; k++) put(a, col, y, end, glyph[k], plain);
}

/* A value column without a value: text, dim, no weight icon. */
static void draw_no_value(tui_app *a, const char *text, int *col, int y, int end) {
  char field[80];
  int pad = TUI_VALUE_WIDTH - tui_text_width(text);
  snprintf(field, sizeof field, "   %*s%s ", pad > 0 ? pad : 0, "", text);
  put(a, col, y, end, field, (tui_style){TUI_A_DIM, 0, 0, 0});
}

/* summing: the value is still being summed (location pane).  A metric the
   analysis did not compute has no value: "n/c" (not computed). */
static void draw_weight(tui_app *a, int p, int32_t node, double v, int summing, int *col, int y,
                        int end) {
  char buf[64];
  if (summing) {
    draw_no_value(a, a->glyphs->more, col, y, end);
    return;
  }
  if (tui_app_not_computed(a, p, node)) {
    draw_no_value(a, "n/c", col, y, end);
    return;
  }
  int level = tui_level(tui_app_spectrum_x(a, p, node, v));
  tui_style icon = {0, 0, (int8_t)level, (uint8_t)a->model.tree[p].has_negative};
  put(a, col, y, end, " ", plain);
  put(a, col, y, end, a->glyphs->bar[tui_level_height(level)], icon);
  tui_app_format(a, p, node, v, buf, sizeof buf);
  /* Zero and undefined values stay quiet. */
  tui_style text = {level == 0 ? TUI_A_DIM : 0, 0, 0, 0};
  char field[80];
  int pad = TUI_VALUE_WIDTH - tui_text_width(buf);
  snprintf(field, sizeof field, " %*s%s ", pad > 0 ? pad : 0, "", buf);
  put(a, col, y, end, field, text);
}

static void draw_summary(tui_app *a, int p, int32_t parent, int *col, int y, int end) {
  const tui_tree *t = &a->model.tree[p];
  const int32_t *kids = tui_tree_children(t, parent);
  int32_t n = tui_tree_nchildren(t, parent);
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  for (int32_t i = 0; i < n; i++) {
    double v = t->incl[kids[i]];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    sum += v;
  }
  double mean = sum / n;
  char smin[32], smean[32], smax[32], text[160];
  tui_app_format(a, p, parent, lo, smin, sizeof smin);
  tui_app_format(a, p, parent, mean, smean, sizeof smean);
  tui_app_format(a, p, parent, hi, smax, sizeof smax);
  /* Imbalance: the share of the maximum that a perfectly balanced
     distribution would not spend, (max - mean) / max. */
  snprintf(text, sizeof text, " min %s  mean %s  max %s  imbalance %.0f%%", smin, smean, smax,
           hi > 0 ? 100 * (hi - mean) / hi : 0.0);
  put(a, col, y, end, text, plain);
}

/* Is the value of node (-1: a "more" row) in pane p still being summed? */
static int summing(tui_app *a, int p, int32_t node, int inclusive) {
  return p == TUI_PANE_SYSTEM && tui_app_busy(a) &&
         (node < 0 || !tui_model_location_known(&a->model, node, inclusive));
}

static void draw_row(tui_app *a, int p, const tui_row *r, int x, int y, int w) {
  const tui_pane *pn = &a->pane[p];
  const tui_tree *t = &a->model.tree[p];
  int col = x, end = x + w;
  draw_prefix(a, p, r, &col, y, end, w);
  int expander = col;
  if (r->kind == TUI_ROW_SUMMARY) {
    put(a, &col, y, end, a->glyphs->summary, plain);
    if (summing(a, p, -1, 0)) { /* no figures of values not summed yet */
      char text[64];
      const char *g = a->glyphs->more;
      snprintf(text, sizeof text, " min %s  mean %s  max %s", g, g, g);
      put(a, &col, y, end, text, (tui_style){TUI_A_DIM, 0, 0, 0});
    } else {
      draw_summary(a, p, r->node, &col, y, end);
    }
  } else if (r->kind == TUI_ROW_MORE) {
    char text[64];
    put(a, &col, y, end, a->glyphs->collapsed, plain);
    draw_weight(a, p, r->node, r->hidden_value, summing(a, p, -1, 0), &col, y, end);
    snprintf(text, sizeof text, "%s %d more", a->glyphs->more, (int)r->hidden);
    put(a, &col, y, end, text, plain);
  } else {
    int32_t n = r->node;
    const char *exp = !tui_pane_has_children(pn, n) ? (t->depth[n] ? a->glyphs->leaf : " ")
                      : pn->expanded[n]             ? a->glyphs->expanded
                                                    : a->glyphs->collapsed;
    put(a, &col, y, end, exp, plain);
    draw_weight(a, p, n, tui_pane_shown_value(pn, n),
                summing(a, p, n, tui_pane_is_inclusive(pn, n)), &col, y, end);
    tui_style name = {0, pn->match && pn->match[n] ? TUI_C_MATCH : 0, 0, 0};
    if (name.color) name.attr = TUI_A_BOLD | TUI_A_UNDERLINE;
    if (col < end)
      tui_vs_put_middle(&a->vs, col, y, end - col, t->name[n], name, a->glyphs->ellipsis);
  }
  if (pn->rows + pn->cur == r) {
    if (p == a->focus) {
      tui_vs_add_attr(&a->vs, x, y, w, TUI_A_REVERSE);
      a->vs.cursor_x = expander < end ? expander : x;
      a->vs.cursor_y = y;
    } else {
      tui_vs_add_attr(&a->vs, x, y, w, TUI_A_UNDERLINE);
    }
  }
}

void tui_draw_pane(tui_app *a, int p, int x, int w) {
  const tui_pane *pn = &a->pane[p];
  draw_header(a, p, x, w, a->rows_y - 1);
  if (pn->nrows == 0) {
    tui_vs_put(&a->vs, x + 1, a->rows_y, w - 1, "(empty)", (tui_style){TUI_A_DIM, 0, 0, 0});
    return;
  }
  for (int i = 0; i < a->rows_h && pn->top + i < (int32_t)pn->nrows; i++)
    draw_row(a, p, &pn->rows[pn->top + i], x, a->rows_y + i, w);
}
