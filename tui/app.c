/* app.c -- session state, layout and event dispatch; see app.h. */
#include "app.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

void tui_options_default(tui_options *o) {
  o->top_k = 10;
  o->ascii = 0;
  o->mouse = 1;
  o->narrow_below = 110;
  o->budget = 0;
}

static char *directory_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return pu_strdup(".");
  size_t n = (size_t)(slash - path);
  char *d = pu_malloc(n + 2);
  memcpy(d, path, n ? n : 1);
  d[n ? n : 1] = 0;
  return d;
}

void tui_app_init(tui_app *a, pomp_report *r, const char *path, const tui_options *o) {
  memset(a, 0, sizeof *a);
  a->opt = *o;
  a->glyphs = tui_glyphs_get(o->ascii);
  a->path = pu_strdup(path);
  a->source_dir = directory_of(path);
  tui_model_init(&a->model, r);
  /* Properties keep the catalogue order (it is meaningful), call paths
     come hottest first, locations in rank order. */
  static const tui_sort initial_sort[TUI_NPANES] = {TUI_SORT_DEFINITION, TUI_SORT_VALUE,
                                                    TUI_SORT_DEFINITION};
  /* "... N more" rows are for wide location trees (thousands of ranks);
     the other trees fold only pathological fan-outs. */
  for (int p = 0; p < TUI_NPANES; p++)
    tui_pane_init(&a->pane[p], &a->model.tree[p], initial_sort[p],
                  p == TUI_PANE_SYSTEM ? o->top_k : TUI_TREE_FANOUT, p == TUI_PANE_SYSTEM);
  tui_app_resize(a, 80, 24);
}

void tui_app_free(tui_app *a) {
  for (int p = 0; p < TUI_NPANES; p++) tui_pane_free(&a->pane[p]);
  tui_model_free(&a->model);
  tui_overlay_clear(&a->overlay);
  tui_search_free(&a->search);
  tui_vs_free(&a->vs);
  free(a->path);
  free(a->source_dir);
}

/* Title line, then either one header line (three panes) or tabs and a
   header (one pane); the legend and the status line at the bottom. */
void tui_app_resize(tui_app *a, int w, int h) {
  a->w = w < 1 ? 1 : w;
  a->h = h < 1 ? 1 : h;
  tui_vs_resize(&a->vs, a->w, a->h);
  a->too_small = a->w < 24 || a->h < 7;
  a->narrow = a->w < a->opt.narrow_below;
  a->rows_y = a->narrow ? 3 : 2;
  a->rows_h = a->h - a->rows_y - 2;
  if (a->rows_h < 1) a->rows_h = 1;
  if (a->narrow) {
    for (int p = 0; p < TUI_NPANES; p++) a->pane_x[p] = 0, a->pane_w[p] = a->w;
  } else {
    int each = (a->w - 2) / 3;
    a->pane_x[0] = 0;
    a->pane_w[0] = each;
    a->pane_x[1] = each + 1;
    a->pane_w[1] = each;
    a->pane_x[2] = 2 * each + 2;
    a->pane_w[2] = a->w - a->pane_x[2];
  }
  for (int p = 0; p < TUI_NPANES; p++) {
    a->pane[p].height = a->rows_h;
    a->pane[p].stale = 1; /* keeps the selection on screen at the new height */
  }
}

void tui_app_message(tui_app *a, int is_error, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(a->message, sizeof a->message, fmt, ap);
  va_end(ap);
  a->message_is_error = is_error;
}

/* ---- linked weighting --------------------------------------------------- */

void tui_app_ready(tui_app *a, int p) {
  if (p > TUI_PANE_METRIC) {
    tui_app_ready(a, p - 1);
    const tui_pane *mp = &a->pane[TUI_PANE_METRIC];
    int32_t m = tui_pane_selected_node(mp);
    int m_incl = m >= 0 ? tui_pane_is_inclusive(mp, m) : 1;
    int changed;
    if (p == TUI_PANE_CALL) {
      changed = tui_model_weigh_calls(&a->model, m, m_incl);
    } else {
      const tui_pane *cp = &a->pane[TUI_PANE_CALL];
      int32_t c = tui_pane_selected_node(cp);
      pomp_report_selection s = {m, m_incl, c, c >= 0 ? tui_pane_is_inclusive(cp, c) : 1};
      changed = tui_model_weigh_locations(&a->model, &s);
      if (changed) tui_app_work(a, a->opt.budget);
    }
    if (changed) a->pane[p].stale = 1;
  }
  tui_pane_refresh(&a->pane[p]);
}

int tui_app_busy(const tui_app *a) { return a->model.job.active; }

int tui_app_work(tui_app *a, double budget) {
  if (!tui_model_work(&a->model, budget)) return 0;
  a->pane[TUI_PANE_SYSTEM].stale = 1;
  if (a->model.error[0]) tui_app_message(a, 1, "%s", a->model.error);
  return 1;
}

/* ---- events ------------------------------------------------------------- */

static void prompt_key(tui_app *a, int key) {
  size_t len = strlen(a->prompt_buf);
  if (key == TUI_KEY_ENTER) {
    a->prompt = 0;
    tui_search_run(a, a->prompt_buf);
  } else if (key == TUI_KEY_ESC) {
    a->prompt = 0;
    a->message[0] = 0;
  } else if (key == TUI_KEY_BACKSPACE || key == 127 || key == 8) {
    while (len > 0 && (a->prompt_buf[len - 1] & 0xC0) == 0x80) len--; /* UTF-8 tail */
    if (len > 0) len--;
    a->prompt_buf[len] = 0;
  } else if (key >= ' ' && key < TUI_KEY_UP) {
    char buf[8];
    const char *s = key == ' ' ? " " : key == '<' ? "<" : tui_key_name(key, buf, sizeof buf);
    if (len + strlen(s) < sizeof a->prompt_buf) strcat(a->prompt_buf, s);
  }
}

/* The pane and row under a screen cell, or -1. */
static int pane_at(const tui_app *a, int x, int y, int32_t *row) {
  if (y < a->rows_y || y >= a->rows_y + a->rows_h) return -1;
  for (int p = 0; p < TUI_NPANES; p++) {
    if (a->narrow && p != a->focus) continue;
    if (x >= a->pane_x[p] && x < a->pane_x[p] + a->pane_w[p]) {
      *row = a->pane[p].top + (y - a->rows_y);
      return p;
    }
  }
  return -1;
}

static void click(tui_app *a, int x, int y) {
  if (a->narrow && y == 1) { /* the tabs share the line equally */
    int p = x * TUI_NPANES / a->w;
    a->focus = p < TUI_NPANES ? p : TUI_NPANES - 1;
    return;
  }
  int32_t row;
  int p = pane_at(a, x, y, &row);
  if (p < 0) return;
  int was_focused = a->focus == p;
  a->focus = p;
  tui_pane *pn = &a->pane[p];
  tui_app_ready(a, p);
  if (row >= (int32_t)pn->nrows) return;
  /* A click on the selected row of the focused pane toggles it, as a
     second click on a file manager entry opens it; a click into another
     pane only moves the focus there (no surprise expansions). */
  if (row == pn->cur && was_focused) tui_pane_toggle(pn);
  else tui_pane_select_row(pn, row);
}

void tui_app_event(tui_app *a, const tui_event *ev) {
  switch (ev->type) {
  case TUI_EV_RESIZE:
    tui_app_resize(a, ev->x, ev->y);
    return;
  case TUI_EV_DUMP:
    return;
  case TUI_EV_CLICK:
    if (a->overlay.kind == TUI_OVERLAY_NONE && !a->prompt) click(a, ev->x, ev->y);
    return;
  case TUI_EV_WHEEL_UP:
  case TUI_EV_WHEEL_DOWN: {
    int delta = ev->type == TUI_EV_WHEEL_UP ? -3 : 3;
    if (a->overlay.kind != TUI_OVERLAY_NONE) {
      tui_overlay_key(a, delta < 0 ? TUI_KEY_UP : TUI_KEY_DOWN);
      return;
    }
    int32_t row;
    int p = pane_at(a, ev->x, ev->y, &row);
    if (p < 0) return;
    tui_app_ready(a, p);
    tui_pane_scroll(&a->pane[p], delta);
    return;
  }
  case TUI_EV_KEY:
    break;
  }
  if (a->prompt) {
    prompt_key(a, ev->key);
    return;
  }
  a->message[0] = 0;
  if (a->overlay.kind != TUI_OVERLAY_NONE) {
    tui_overlay_key(a, ev->key);
    return;
  }
  const tui_binding *b = tui_binding_for(ev->key);
  if (!b) {
    char buf[8];
    tui_app_message(a, 1, "unknown key '%s' - press ? for help",
                    tui_key_name(ev->key, buf, sizeof buf));
    return;
  }
  tui_app_ready(a, a->focus);
  b->action(a);
}

/* ---- rendering ---------------------------------------------------------- */

void tui_app_render(tui_app *a) {
  tui_vs_clear(&a->vs);
  if (a->too_small) {
    char msg[64];
    snprintf(msg, sizeof msg, "too small (%dx%d)", a->w, a->h);
    tui_style st = {0, 0, 0, 0};
    tui_vs_put(&a->vs, 0, a->h / 2, a->w, msg, st);
    return;
  }
  for (int p = 0; p < TUI_NPANES; p++) {
    if (a->narrow && p != a->focus) continue;
    tui_app_ready(a, p);
    tui_draw_pane(a, p, a->pane_x[p], a->pane_w[p]);
  }
  tui_draw_chrome(a);
  if (a->overlay.kind != TUI_OVERLAY_NONE) tui_overlay_draw(a);
}
