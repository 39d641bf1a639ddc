/*
 * vscreen.h -- the virtual screen every view draws into.  The terminal
 * front end copies it to ncurses and batch mode prints it as text, so both
 * show the same drawing (what tests check is what users see).
 */
#ifndef TUI_VSCREEN_H
#define TUI_VSCREEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { /* attribute bits */
       TUI_A_BOLD = 1,
       TUI_A_DIM = 2,
       TUI_A_REVERSE = 4,
       TUI_A_UNDERLINE = 8
};

typedef enum { /* text colours; weight levels override them */
               TUI_C_DEFAULT = 0,
               TUI_C_MATCH, /* search hit */
               TUI_C_ERROR,
               TUI_C_HOT, /* the selected region's lines in the source view */
               TUI_NCOLORS
} tui_color;

typedef struct {
  uint8_t attr;
  uint8_t color;
  int8_t level;      /* weight colour, -TUI_LEVELS..TUI_LEVELS, 0 = none */
  uint8_t diverging; /* level is on the diverging (diff) scale */
} tui_style;

typedef struct {
  uint32_t ch; /* code point; 0 = right half of a wide character */
  tui_style st;
} tui_cell;

typedef struct {
  int w, h;
  tui_cell *cells;
  int cursor_x, cursor_y; /* hardware cursor (screen readers), -1 = hidden */
} tui_vscreen;

void tui_vs_resize(tui_vscreen *vs, int w, int h);
void tui_vs_free(tui_vscreen *vs);
void tui_vs_clear(tui_vscreen *vs);
static inline tui_cell *tui_vs_at(tui_vscreen *vs, int x, int y) {
  return &vs->cells[(size_t)y * (size_t)vs->w + (size_t)x];
}
/* Writes UTF-8 text at (x, y) within max columns; returns columns used.
   Invalid bytes and control characters show as '?'. */
int tui_vs_put(tui_vscreen *vs, int x, int y, int max, const char *s, tui_style st);
/* Like tui_vs_put, but a text wider than max ends in the ellipsis. */
int tui_vs_put_clipped(tui_vscreen *vs, int x, int y, int max, const char *s, tui_style st,
                       const char *ellipsis);
/* Like tui_vs_put_clipped, but the ellipsis replaces the middle: the
   start and the end of a name stay, as ncdu and tig shorten paths, so
   that "Late Sender, wrong order (receive)" and "... (send)", or two
   loops of one file, stay told apart in a narrow pane. */
int tui_vs_put_middle(tui_vscreen *vs, int x, int y, int max, const char *s, tui_style st,
                      const char *ellipsis);
void tui_vs_fill(tui_vscreen *vs, int x, int y, int n, uint32_t ch, tui_style st);
/* Adds attribute bits to n cells (selection bars). */
void tui_vs_add_attr(tui_vscreen *vs, int x, int y, int n, uint8_t attr);
/* One line per row, trailing blanks removed. */
void tui_vs_print(const tui_vscreen *vs, FILE *out);

/* Display width of UTF-8 text, the way tui_vs_put counts it. */
int tui_text_width(const char *s);
/* Bytes of the longest prefix of s within max columns, never cutting a
   character; at least one character of a non-empty s (wrapping advances). */
size_t tui_text_fit(const char *s, int max);
/* Decodes one code point; returns bytes used (invalid byte: 1, *cp = '?'). */
int tui_utf8_decode(const char *s, uint32_t *cp);

#endif
