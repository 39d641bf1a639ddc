/* input.c -- what an input event does: keys through the key table (or the
   search prompt, or an open page), mouse clicks and wheel, resizes.  See
   app.h. */
#include <string.h>

#include "app.h"
#include "follow.h"

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
  if (a->narrow && y == a->tabs_y) { /* the tabs share the line equally */
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
  a->key_start = tui_clock();
  switch (ev->type) {
  case TUI_EV_RESIZE:
    tui_app_resize(a, ev->x, ev->y);
    if (a->overlay.kind == TUI_OVERLAY_DETAILS || a->overlay.kind == TUI_OVERLAY_POP) {
      int32_t top = a->overlay.top; /* wrapped for the old width */
      if (a->overlay.kind == TUI_OVERLAY_DETAILS) tui_open_details(a);
      else tui_open_pop(a);
      a->overlay.top = top;
    }
    return;
  case TUI_EV_DUMP: return;
  case TUI_EV_RELOAD:
    if (a->follow) tui_follow_look(a);
    else tui_app_message(a, 1, "not following a running program (pomp-tui --follow EXP)");
    return;
  default: break;
  }
  /* Too small to show the panes: a key would move a selection nobody
     sees; only q (quit) is taken until the terminal grows. */
  if (a->too_small) {
    if (ev->type == TUI_EV_KEY && ev->key == 'q' && !a->prompt) a->quit = 1;
    return;
  }
  switch (ev->type) {
  case TUI_EV_CLICK:
    if (a->overlay.kind == TUI_OVERLAY_NONE && !a->prompt) click(a, ev->x, ev->y);
    return;
  case TUI_EV_WHEEL_UP:
  case TUI_EV_WHEEL_DOWN: {
    int delta = ev->type == TUI_EV_WHEEL_UP ? -3 : 3;
    if (a->overlay.kind != TUI_OVERLAY_NONE) {
      for (int i = 0; i < 3; i++) tui_overlay_key(a, delta < 0 ? TUI_KEY_UP : TUI_KEY_DOWN);
      return;
    }
    int32_t row;
    int p = pane_at(a, ev->x, ev->y, &row);
    if (p < 0) return;
    tui_app_ready(a, p);
    tui_pane_scroll(&a->pane[p], delta);
    return;
  }
  default: break;
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
