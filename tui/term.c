/* term.c -- the ncurses front end: turns terminal input into events and
   copies the virtual screen to the terminal. */
/* The wide-character API (get_wch, cchar_t) in strict C11 mode. */
#define NCURSES_WIDECHAR 1
#include "term.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "follow.h"
#include "guard.h"
#include "pomp_util.h"

static tui_color_depth depth;

/* Pair n+1 draws colour n on the default background. */
static void init_colors(int mono) {
  const char *no_color = getenv("NO_COLOR");
  depth = TUI_COLOR_MONO;
  if (mono || (no_color && *no_color) || !has_colors()) return;
  start_color();
  use_default_colors();
  depth = COLORS >= 256 ? TUI_COLOR_256 : TUI_COLOR_8;
  int n = COLORS >= 256 ? 256 : 8;
  for (int c = 0; c < n && c + 1 < COLOR_PAIRS; c++) init_pair((short)(c + 1), (short)c, -1);
}

static int pair_of(tui_style st) {
  if (depth == TUI_COLOR_MONO) return 0;
  if (st.level) return 1 + tui_level_color(st.level, st.diverging, depth);
  switch (st.color) {
  case TUI_C_MATCH:
  case TUI_C_HOT: return 1 + COLOR_YELLOW;
  case TUI_C_ERROR: return 1 + COLOR_RED;
  default: return 0;
  }
}

static attr_t attrs_of(tui_style st) {
  attr_t a = A_NORMAL;
  if (st.attr & TUI_A_BOLD) a |= A_BOLD;
  if (st.attr & TUI_A_DIM) a |= A_DIM;
  if (st.attr & TUI_A_REVERSE) a |= A_REVERSE;
  if (st.attr & TUI_A_UNDERLINE) a |= A_UNDERLINE;
  return a;
}

static void blit(const tui_vscreen *vs) {
  for (int y = 0; y < vs->h && y < LINES; y++)
    for (int x = 0; x < vs->w && x < COLS; x++) {
      const tui_cell *c = &vs->cells[(size_t)y * (size_t)vs->w + (size_t)x];
      if (c->ch == 0) continue; /* right half of a wide character */
      wchar_t wc[2] = {(wchar_t)c->ch, 0};
      cchar_t cc;
      setcchar(&cc, wc, attrs_of(c->st), (short)pair_of(c->st), NULL);
      mvadd_wch(y, x, &cc);
    }
  if (vs->cursor_y >= 0) {
    curs_set(1);
    move(vs->cursor_y, vs->cursor_x);
  } else {
    curs_set(0);
  }
  refresh();
}

/* OSC 52: the terminal puts the text on the clipboard. */
static void send_clipboard(tui_app *a) {
  if (!a->clipboard_pending) return;
  a->clipboard_pending = 0;
  static char b64[4 * (sizeof a->clipboard / 3 + 1) + 1];
  tui_base64(a->clipboard, strlen(a->clipboard), b64);
  printf("\033]52;c;%s\a", b64);
  fflush(stdout);
}

static int translate_key(int rc, wint_t ch) {
  if (rc == KEY_CODE_YES) {
    switch (ch) {
    case KEY_UP: return TUI_KEY_UP;
    case KEY_DOWN: return TUI_KEY_DOWN;
    case KEY_LEFT: return TUI_KEY_LEFT;
    case KEY_RIGHT: return TUI_KEY_RIGHT;
    case KEY_PPAGE: return TUI_KEY_PGUP;
    case KEY_NPAGE: return TUI_KEY_PGDN;
    case KEY_HOME: return TUI_KEY_HOME;
    case KEY_END: return TUI_KEY_END;
    case KEY_ENTER: return TUI_KEY_ENTER;
    case KEY_BTAB: return TUI_KEY_BTAB;
    case KEY_BACKSPACE: return TUI_KEY_BACKSPACE;
    case KEY_F(1): return TUI_KEY_F1;
    case KEY_F(3): return TUI_KEY_F3;
    case KEY_F(15): return TUI_KEY_SF3;
    default: return 0;
    }
  }
  switch (ch) {
  case '\n':
  case '\r': return TUI_KEY_ENTER;
  case '\t': return TUI_KEY_TAB;
  case 27: return TUI_KEY_ESC;
  case 127:
  case 8: return TUI_KEY_BACKSPACE;
  default: return (int)ch;
  }
}

/* Reads one event; returns 0 when nothing is pending (non-blocking read). */
static int read_event(tui_event *ev) {
  wint_t ch;
  int rc = get_wch(&ch);
  if (rc == ERR) return 0;
  ev->type = TUI_EV_KEY;
  ev->x = ev->y = 0;
  if (rc == KEY_CODE_YES && ch == KEY_RESIZE) {
    ev->type = TUI_EV_RESIZE;
    ev->x = COLS;
    ev->y = LINES;
    return 1;
  }
  if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
    MEVENT me;
    if (getmouse(&me) != OK) return 1 + (ev->key = 0);
    ev->x = me.x;
    ev->y = me.y;
    if (me.bstate & BUTTON4_PRESSED) ev->type = TUI_EV_WHEEL_UP;
    else if (me.bstate & BUTTON5_PRESSED) ev->type = TUI_EV_WHEEL_DOWN;
    else if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) ev->type = TUI_EV_CLICK;
    else ev->key = 0;
    return 1;
  }
  ev->key = translate_key(rc, ch);
  return 1;
}

/* A terminal for the browser: a known type that can move the cursor to a
   position (TERM=dumb would draw one long line of text).  newterm only
   reads the terminal database; nothing is drawn before the first
   refresh, so a refusal leaves the terminal as it was. */
static SCREEN *open_terminal(void) {
  const char *term = getenv("TERM");
  /* Unset, ncurses would answer with its own message: the same hint as
     for a terminal that cannot draw. */
  if (!term || !*term) {
    pu_error("TERM is not set: no terminal type to draw on; set TERM or use --batch");
    return NULL;
  }
  SCREEN *scr = newterm(NULL, stdout, stdin);
  if (!scr) {
    pu_error("cannot use terminal type '%s'", term ? term : "(unset)");
    return NULL;
  }
  char *cup = tigetstr("cup");
  if (cup == NULL || cup == (char *)-1) {
    endwin();
    delscreen(scr);
    pu_error("terminal type '%s' cannot move the cursor; use --batch", term ? term : "(unset)");
    return NULL;
  }
  return scr;
}

int tui_run_terminal(tui_app *a, int mono) {
  SCREEN *scr = open_terminal();
  if (!scr) return POMP_EXIT_FAILURE;
  /* The report changed on disk (SIGBUS while reading it): restore the
     terminal first, then say so. */
  if (sigsetjmp(tui_guard_env, 1)) {
    endwin();
    delscreen(scr);
    return tui_guard_failed(a);
  }
  tui_guard_arm();
  cbreak();
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  set_escdelay(25);
  init_colors(mono);
  if (a->opt.mouse) {
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
  }
  tui_app_resize(a, COLS, LINES);
  a->opt.budget = TUI_FRAME_BUDGET;
  while (!a->quit) {
    tui_app_render(a);
    blit(&a->vs);
    send_clipboard(a);
    tui_event ev;
    /* Location values of a large selection are summed in slices between
       keys, so the screen never freezes. */
    /* Following a running program: a look at its files every second,
       waiting for keys in between (no busy wait). */
    int wait_ms = tui_app_busy(a) ? 0 : a->follow ? (int)(TUI_FOLLOW_PERIOD * 1000) : -1;
    timeout(wait_ms);
    int got = read_event(&ev);
    if (a->follow && tui_clock() - a->follow->last_look >= TUI_FOLLOW_PERIOD) tui_follow_look(a);
    if (!got) {
      if (tui_app_busy(a)) tui_app_work(a, TUI_FRAME_BUDGET);
      continue;
    }
    /* Handle everything already typed before drawing again, so held-down
       keys never queue up redraws. */
    timeout(0);
    do {
      if (ev.type != TUI_EV_KEY || ev.key) tui_app_event(a, &ev);
    } while (!a->quit && read_event(&ev));
  }
  tui_guard_disarm();
  endwin();
  delscreen(scr);
  return POMP_EXIT_OK;
}
