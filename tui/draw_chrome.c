/* draw_chrome.c -- everything around the panes: title, the warning lines
   of a run that did not finish and of one perturbed by its measurement,
   tabs (narrow layout), separators, the colour legend and the status
   line. */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "follow.h"
#include "format.h"

static void draw_title(tui_app *a) {
  char text[1024];
  const pomp_report *r = a->model.report;
  size_t len = (size_t)snprintf(text, sizeof text, " pomp-tui  %s", a->path);
  static const char *const facts[] = {"application", "ranks", "threads"};
  for (size_t i = 0; i < sizeof facts / sizeof facts[0] && len < sizeof text; i++) {
    const char *v = pomp_report_attr(r, facts[i]);
    if (v && *v) len += (size_t)snprintf(text + len, sizeof text - len, "  %s %s", facts[i], v);
  }
  const char *note = pomp_report_mode_note(r); /* a profile: no wait states */
  if (note && len < sizeof text) snprintf(text + len, sizeof text - len, "  %s", note);
  tui_style st = {TUI_A_REVERSE, 0, 0, 0};
  tui_vs_fill(&a->vs, 0, 0, a->w, ' ', st);
  tui_vs_put_clipped(&a->vs, 0, 0, a->w, text, st, a->glyphs->ellipsis);
}

/* A report of a run that died (MPI_Abort, a killed rank) holds only what
   the trace recorded: say so on a line of its own that stays while
   browsing.  Bold reverse in the error colour; in monochrome the words
   and the bold bar still carry it.  The description can be long (which
   ranks are missing comes last): when cut, the line ends with where to
   read it whole, the details page. */
static void draw_run_warning(tui_app *a) {
  static const char hint[] = " (i: details)";
  const int hint_w = (int)sizeof hint - 1;
  char text[1024];
  snprintf(text, sizeof text, " WARNING: incomplete run: %s; values cover what the trace recorded",
           a->incomplete);
  tui_style st = {TUI_A_BOLD | TUI_A_REVERSE, TUI_C_ERROR, 0, 0};
  int y = a->warning_y, room = a->w;
  tui_vs_fill(&a->vs, 0, y, a->w, ' ', st);
  if (tui_text_width(text) > a->w && a->w >= 2 * hint_w) {
    room -= hint_w;
    tui_vs_put(&a->vs, room, y, hint_w, hint, st);
  }
  tui_vs_put_clipped(&a->vs, 0, y, room, text, st, a->glyphs->ellipsis);
}

/* A profile snapshot of a running program: what the values are, and with
   --follow when they were read (follow.c). Reverse, not in the error
   colour: nothing went wrong. */
static void draw_snapshot_line(tui_app *a) {
  char text[300];
  if (a->follow)
    snprintf(text, sizeof text, " following: %s%s", a->follow->state,
             a->follow->finished ? " (the final report)" : " (re-read when it changes)");
  else
    snprintf(text, sizeof text,
             " snapshot of a running program at %s s (pomp-tui --follow EXP re-reads it)",
             a->snapshot);
  tui_style st = {TUI_A_REVERSE, 0, 0, 0};
  tui_vs_fill(&a->vs, 0, a->warning_y, a->w, ' ', st);
  tui_vs_put_clipped(&a->vs, 0, a->warning_y, a->w, text, st, a->glyphs->ellipsis);
}

/* Buffer flushes took a noticeable share of the time: the values are
   perturbed by the measurement.  Reverse in the error colour, like the
   warning of an incomplete run, without the bold. */
static void draw_perturbation_warning(tui_app *a) {
  char text[300];
  snprintf(text, sizeof text, " WARNING: %s", a->perturbation);
  tui_style st = {TUI_A_REVERSE, TUI_C_ERROR, 0, 0};
  tui_vs_fill(&a->vs, 0, a->perturbation_y, a->w, ' ', st);
  tui_vs_put_clipped(&a->vs, 0, a->perturbation_y, a->w, text, st, a->glyphs->ellipsis);
}

static void draw_tabs(tui_app *a) {
  int each = a->w / TUI_NPANES;
  for (int p = 0; p < TUI_NPANES; p++) {
    char text[64];
    int on = p == a->focus;
    snprintf(text, sizeof text, on ? "[%d %s]" : " %d %s ", p + 1, tui_pane_title[p]);
    tui_style st = {on ? TUI_A_REVERSE | TUI_A_BOLD : 0, 0, 0, 0};
    int x = p * each;
    tui_vs_fill(&a->vs, x, a->tabs_y, each, ' ', st);
    tui_vs_put_clipped(&a->vs, x, a->tabs_y, each, text, st, a->glyphs->ellipsis);
  }
}

static void draw_separators(tui_app *a) {
  uint32_t cp;
  tui_utf8_decode(a->glyphs->separator, &cp);
  tui_style st = {0, 0, 0, 0};
  for (int p = 1; p < TUI_NPANES; p++)
    for (int y = a->rows_y - 1; y < a->rows_y + a->rows_h; y++)
      tui_vs_fill(&a->vs, a->pane_x[p] - 1, y, 1, cp, st);
}

/* "0% ▁▂▃▄▅▆▇█ 100%" in the focused pane's scale; both halves for diffs. */
static int draw_legend_scale(tui_app *a, int y) {
  int p = a->focus;
  const tui_tree *t = &a->model.tree[p];
  char hi[32] = "100%", lo[40] = "0%";
  if (a->pane[p].mode == TUI_MODE_ABSOLUTE) {
    int32_t sel = tui_pane_selected_node(&a->pane[p]);
    int32_t m = tui_app_unit_metric(a, p, sel);
    pomp_unit u = m >= 0 ? pomp_report_metric(a->model.report, m)->unit : POMP_UNIT_SEC;
    double vlo, vhi;
    tui_app_absolute_scale(a, p, sel, &vlo, &vhi);
    tui_format_absolute(hi, sizeof hi, vhi, u);
    tui_format_absolute(lo, sizeof lo, vlo > 0 && vhi > vlo ? vlo : 0, u);
  }
  int col = 0;
  tui_style plain = {0, 0, 0, 0};
  if (t->has_negative) {
    char neg[40];
    snprintf(neg, sizeof neg, "-%s ", hi);
    col += tui_vs_put(&a->vs, col, y, a->w - col, neg, plain);
    for (int s = TUI_GLYPH_STEPS; s >= 1; s--) {
      int level = -s * TUI_LEVELS / TUI_GLYPH_STEPS;
      tui_style st = {0, 0, (int8_t)level, 1};
      col += tui_vs_put(&a->vs, col, y, a->w - col, a->glyphs->bar[s], st);
    }
    col += tui_vs_put(&a->vs, col, y, a->w - col, " ", plain);
  }
  col += tui_vs_put(&a->vs, col, y, a->w - col, lo, plain);
  col += tui_vs_put(&a->vs, col, y, a->w - col, " ", plain);
  for (int s = 1; s <= TUI_GLYPH_STEPS; s++) {
    tui_style st = {0, 0, (int8_t)(s * TUI_LEVELS / TUI_GLYPH_STEPS), (uint8_t)t->has_negative};
    col += tui_vs_put(&a->vs, col, y, a->w - col, a->glyphs->bar[s], st);
  }
  col += tui_vs_put(&a->vs, col, y, a->w - col, " ", plain);
  col += tui_vs_put(&a->vs, col, y, a->w - col, hi, plain);
  return col;
}

static void draw_legend(tui_app *a) {
  int y = a->h - 2;
  int col = draw_legend_scale(a, y);
  static const char *const sorts[] = {"value", "name", "definition"};
  char text[256], mode[64];
  /* The keys a newcomer needs before any other (help and quit: the line
     is cut at the screen's edge, and at 80 or 120 columns they were cut
     off), the mode of all panes (named as the call pane shows it: the
     property pane has no selection to be a share of) and the sort in
     force, then the keys to start with. */
  snprintf(text, sizeof text,
           "   ? help  q quit   values: %s (m)  sort: %s (s)   w problems  x hottest path  "
           "Tab pane  / search  i details",
           tui_mode_label(a, TUI_PANE_CALL, mode, sizeof mode), sorts[a->pane[a->focus].sort]);
  tui_vs_put(&a->vs, col, y, a->w - col, text, (tui_style){TUI_A_DIM, 0, 0, 0});
}

static void draw_status(tui_app *a) {
  int y = a->h - 1;
  char text[2300];
  tui_style st = {0, 0, 0, 0};
  if (a->prompt) {
    snprintf(text, sizeof text, "/%s", a->prompt_buf);
    int used = tui_vs_put(&a->vs, 0, y, a->w, text, st);
    a->vs.cursor_x = used < a->w ? used : a->w - 1;
    a->vs.cursor_y = y;
    return;
  }
  if (a->message[0]) {
    if (a->message_is_error) st.color = TUI_C_ERROR, st.attr = TUI_A_BOLD;
    tui_vs_put_clipped(&a->vs, 0, y, a->w, a->message, st, a->glyphs->ellipsis);
    return;
  }
  tui_app_describe(a, text, sizeof text);
  tui_vs_put_clipped(&a->vs, 0, y, a->w, text, st, a->glyphs->ellipsis);
}

void tui_draw_chrome(tui_app *a) {
  draw_title(a);
  if (a->incomplete) draw_run_warning(a); /* a follower's final report too */
  else if (a->follow || a->snapshot) draw_snapshot_line(a);
  if (a->perturbation[0]) draw_perturbation_warning(a);
  if (a->narrow) draw_tabs(a);
  else draw_separators(a);
  draw_legend(a);
  draw_status(a);
}
