/* app.c -- session state, layout, the linked weighting of the panes and the
   frame; input.c handles events.  See app.h. */
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
  o->at_top = 0;
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

/* The call pane starts on the heaviest root (main, rather than a C++
   static initialiser that ran first), so that x follows the hot path. */
static void start_at_heaviest_root(tui_app *a) {
  tui_app_ready(a, TUI_PANE_CALL);
  const tui_tree *t = a->pane[TUI_PANE_CALL].tree;
  int32_t best = -1;
  for (int32_t i = 0; i < t->nroots; i++)
    if (best < 0 || t->incl[t->roots[i]] > t->incl[best]) best = t->roots[i];
  if (best >= 0) a->pane[TUI_PANE_CALL].sel.node = best;
}

void tui_app_init(tui_app *a, pomp_report *r, const char *path, const tui_options *o) {
  memset(a, 0, sizeof *a);
  a->opt = *o;
  a->glyphs = tui_glyphs_get(o->ascii);
  a->path = pu_strdup(path);
  a->source_dir = directory_of(path);
  tui_model_init(&a->model, r);
  tui_tree_mark_loops(&a->model.tree[TUI_PANE_CALL], r, a->glyphs->loop);
  a->incomplete = pomp_report_run_incomplete(r);
  /* a snapshot's run_status "running" is no failure: the line says what it is */
  a->snapshot = pomp_report_attr(r, "snapshot_seconds");
  if (a->snapshot) a->incomplete = NULL;
  pomp_report_perturbation_warning(r, a->perturbation, sizeof a->perturbation);
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
  start_at_heaviest_root(a);
  /* The first screen shows the problem: the top bottleneck of the
     automated search, its trees expanded down to it. */
  if (!o->at_top) tui_start_at_bottleneck(a);
  /* No bottleneck to open on (--at-top, or the search found none): say
     where to start instead. */
  if (!a->message[0])
    tui_app_message(a, 0,
                    "start here: w lists the wait states and overheads, x expands the "
                    "hottest path, Tab moves to the next pane, ? lists every key");
}

void tui_app_free(tui_app *a) {
  tui_bottlenecks_free(a); /* reads the report while freeing */
  for (int p = 0; p < TUI_NPANES; p++) tui_pane_free(&a->pane[p]);
  tui_model_free(&a->model);
  tui_overlay_clear(&a->overlay);
  tui_search_free(&a->search);
  tui_vs_free(&a->vs);
  free(a->path);
  free(a->source_dir);
}

/* Title line, the warning lines of an incomplete run and of a perturbed
   one, then either one
   header line (three panes) or tabs and a header (one pane); the legend
   and the status line at the bottom. */
void tui_app_resize(tui_app *a, int w, int h) {
  a->w = w < 1 ? 1 : w;
  a->h = h < 1 ? 1 : h;
  tui_vs_resize(&a->vs, a->w, a->h);
  int top = 1; /* lines above the tabs or headers */
  a->warning_y = a->incomplete || a->snapshot || a->follow ? top++ : -1;
  a->perturbation_y = a->perturbation[0] ? top++ : -1;
  a->too_small = a->w < 24 || a->h < 6 + top;
  a->narrow = a->w < a->opt.narrow_below;
  a->tabs_y = a->narrow ? top : -1;
  a->rows_y = top + (a->narrow ? 2 : 1);
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
      if (changed && a->opt.budget > 0) {
        /* What the key's own work left of the budget (when nothing is
           left, the job still adds its first row). */
        double left = a->opt.budget - (tui_clock() - a->key_start);
        tui_app_work(a, left > 0 ? left : 1e-9);
      } else if (changed) {
        tui_app_work(a, 0);
      }
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

/* ---- rendering ---------------------------------------------------------- */

void tui_app_render(tui_app *a) {
  tui_vs_clear(&a->vs);
  if (a->too_small) {
    char msg[64];
    snprintf(msg, sizeof msg, "too small (%dx%d)", a->w, a->h);
    tui_style st = {0, 0, 0, 0};
    tui_vs_put(&a->vs, 0, a->h / 2, a->w, msg, st);
    /* keys wait for a larger terminal (input.c): say so */
    if (a->h / 2 + 1 < a->h) tui_vs_put(&a->vs, 0, a->h / 2 + 1, a->w, "keys wait; q quits", st);
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
