/* overlay.c -- a scrollable page of text over the panes, shared by the
   help screen, the details and the source view. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "pomp_util.h"

void tui_overlay_clear(tui_overlay *o) {
  for (size_t i = 0; i < o->nlines; i++) free(o->lines[i]);
  free(o->lines);
  memset(o, 0, sizeof *o);
}

void tui_overlay_add(tui_overlay *o, const char *fmt, ...) {
  char buf[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  PU_PUSH(o->lines, o->nlines, o->cap, pu_strdup(buf));
}

/* Where a line that may hold the first fit bytes of s ends: all of s if
   it fits, else after the last space within the fit, else after the last
   ';' or '/' in its second half (call paths and file names have no
   spaces; "/" alone on a line would help nobody), else at the fit (a hard
   cut). */
static size_t line_end(const char *s, size_t fit) {
  if (!s[fit] || s[fit] == ' ') return fit;
  for (size_t i = fit; i > 0; i--)
    if (s[i - 1] == ' ') return i;
  for (size_t i = fit; i > fit / 2; i--)
    if (s[i - 1] == ';' || s[i - 1] == '/') return i;
  return fit;
}

void tui_overlay_add_hanging(tui_overlay *o, const char *lead, const char *indent, const char *text,
                             int width) {
  const char *prefix = lead, *s = text;
  do { /* an empty text still makes its one line */
    int room = width - tui_text_width(prefix);
    if (room < 10) room = 10;
    size_t end = line_end(s, tui_text_fit(s, room)), len = end;
    while (len > 0 && s[len - 1] == ' ') len--;
    tui_overlay_add(o, "%s%.*s", prefix, (int)len, s);
    s += end;
    while (*s == ' ') s++;
    prefix = indent;
  } while (*s);
}

void tui_overlay_add_wrapped(tui_overlay *o, const char *indent, const char *text, int width) {
  tui_overlay_add_hanging(o, indent, indent, text, width);
}

static int32_t page(const tui_app *a) { return a->h - 3 > 1 ? a->h - 3 : 1; }

void tui_overlay_key(tui_app *a, int key) {
  tui_overlay *o = &a->overlay;
  if (o->kind == TUI_OVERLAY_BOTTLENECKS && tui_bottlenecks_key(a, key)) return;
  if (o->kind == TUI_OVERLAY_PROBLEMS && tui_problems_key(a, key)) return;
  int32_t max_top = (int32_t)o->nlines - page(a);
  if (max_top < 0) max_top = 0;
  switch (key) {
  case TUI_KEY_UP:
  case 'k': o->top--; break;
  case TUI_KEY_DOWN:
  case 'j': o->top++; break;
  case TUI_KEY_PGUP: o->top -= page(a) - 1; break;
  case TUI_KEY_PGDN:
  case ' ': o->top += page(a) - 1; break;
  case TUI_KEY_HOME:
  case 'g': o->top = 0; break;
  case TUI_KEY_END:
  case 'G': o->top = max_top; break;
  case 'q':
  case TUI_KEY_ESC:
  case TUI_KEY_ENTER:
  case '?':
  case 'i':
  case 'v':
  case 'p':
  case TUI_KEY_F1: tui_overlay_clear(o); return;
  default: tui_app_message(a, 0, "q or Esc closes this page"); return;
  }
  if (o->top > max_top) o->top = max_top;
  if (o->top < 0) o->top = 0;
}

void tui_overlay_draw(tui_app *a) {
  const tui_overlay *o = &a->overlay;
  tui_style title = {TUI_A_REVERSE | TUI_A_BOLD, 0, 0, 0}, plain = {0, 0, 0, 0};
  tui_style hot = {TUI_A_BOLD, TUI_C_HOT, 0, 0};
  for (int y = 1; y < a->h - 1; y++) tui_vs_fill(&a->vs, 0, y, a->w, ' ', plain);
  char text[512];
  int32_t top = o->top, max_top = (int32_t)o->nlines - page(a);
  if (top > max_top) top = max_top > 0 ? max_top : 0;
  int32_t last = top + page(a);
  if (last > (int32_t)o->nlines) last = (int32_t)o->nlines;
  snprintf(text, sizeof text, " %s  (%d-%d of %d, q closes)", o->title,
           o->nlines ? (int)top + 1 : 0, (int)last, (int)o->nlines);
  tui_vs_fill(&a->vs, 0, 1, a->w, ' ', title);
  tui_vs_put_clipped(&a->vs, 0, 1, a->w, text, title, a->glyphs->ellipsis);
  for (int32_t i = top; i < last; i++) {
    int in_hot = i >= o->hot_begin && i < o->hot_end;
    tui_vs_put_clipped(&a->vs, 0, 2 + (i - top), a->w, o->lines[i], in_hot ? hot : plain,
                       a->glyphs->ellipsis);
  }
  a->vs.cursor_x = 0;
  a->vs.cursor_y = 1;
}
