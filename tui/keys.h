/*
 * keys.h -- input events independent of ncurses: key codes with names
 * (used by the help screen and by --keys scripts alike), mouse and resize
 * events, and the parser of batch key scripts.
 */
#ifndef TUI_KEYS_H
#define TUI_KEYS_H

#include <stddef.h>

/* Keys are Unicode code points; special keys sit above the Unicode range. */
enum {
  TUI_KEY_UP = 0x110000,
  TUI_KEY_DOWN,
  TUI_KEY_LEFT,
  TUI_KEY_RIGHT,
  TUI_KEY_PGUP,
  TUI_KEY_PGDN,
  TUI_KEY_HOME,
  TUI_KEY_END,
  TUI_KEY_ENTER,
  TUI_KEY_TAB,
  TUI_KEY_BTAB, /* Shift-Tab */
  TUI_KEY_ESC,
  TUI_KEY_BACKSPACE,
  TUI_KEY_F1,
  TUI_KEY_F3,
  TUI_KEY_SF3 /* Shift-F3 */
};

typedef enum {
  TUI_EV_KEY = 0,
  TUI_EV_CLICK,
  TUI_EV_WHEEL_UP,
  TUI_EV_WHEEL_DOWN,
  TUI_EV_RESIZE, /* x = width, y = height */
  TUI_EV_DUMP,   /* batch: print the screen now */
  TUI_EV_RELOAD  /* --follow: look at the files now (the terminal does every second) */
} tui_event_type;

typedef struct {
  tui_event_type type;
  int key;
  int x, y;
} tui_event;

/* Name of a key as the help screen and scripts spell it: "Up", "PgDn",
   "S-Tab", "Space", "k", "<" as "lt".  buf holds at least 8 bytes. */
const char *tui_key_name(int key, char *buf, size_t size);

/* Parses a key script: characters stand for themselves; <Name> is a
   special key (tui_key_name spelling); <resize WxH>, <click X,Y>,
   <wheelup X,Y>, <wheeldown X,Y> (0-based cells), <dump> and <reload>.  Returns 0,
   or -1 with "offset N: ..." in err. */
int tui_parse_keys(const char *script, tui_event **events, size_t *n, char *err, size_t errsize);

#endif
