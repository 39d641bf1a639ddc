/* vscreen.c -- see vscreen.h. */
#include "vscreen.h"

#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

void tui_vs_resize(tui_vscreen *vs, int w, int h) {
  if (w < 1) w = 1;
  if (h < 1) h = 1;
  free(vs->cells);
  vs->w = w;
  vs->h = h;
  vs->cells = pu_malloc(sizeof *vs->cells * (size_t)w * (size_t)h);
  tui_vs_clear(vs);
}

void tui_vs_free(tui_vscreen *vs) {
  free(vs->cells);
  memset(vs, 0, sizeof *vs);
}

void tui_vs_clear(tui_vscreen *vs) {
  tui_style plain = {0, 0, 0, 0};
  for (size_t i = 0; i < (size_t)vs->w * (size_t)vs->h; i++) {
    vs->cells[i].ch = ' ';
    vs->cells[i].st = plain;
  }
  vs->cursor_x = vs->cursor_y = -1;
}

int tui_utf8_decode(const char *s, uint32_t *cp) {
  const unsigned char *u = (const unsigned char *)s;
  int n = u[0] < 0x80             ? 1
          : (u[0] & 0xE0) == 0xC0 ? 2
          : (u[0] & 0xF0) == 0xE0 ? 3
          : (u[0] & 0xF8) == 0xF0 ? 4
                                  : 0;
  if (n == 0) goto bad;
  uint32_t c = n == 1 ? u[0] : u[0] & (0x7F >> n);
  for (int i = 1; i < n; i++) {
    if ((u[i] & 0xC0) != 0x80) goto bad;
    c = (c << 6) | (u[i] & 0x3F);
  }
  /* Overlong forms, surrogates and out-of-range values are not text. */
  static const uint32_t min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < min_for_len[n] || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) goto bad;
  *cp = c;
  return n;
bad:
  *cp = '?';
  return 1;
}

/* Columns a code point takes: East Asian wide ranges take two.  A fixed
   table rather than wcwidth(), so output does not depend on the locale. */
static int cp_width(uint32_t c) {
  static const uint32_t wide[][2] = {
      {0x1100, 0x115F}, {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},  {0x4E00, 0x9FFF},
      {0xA000, 0xA4CF}, {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE30, 0xFE4F},  {0xFF00, 0xFF60},
      {0xFFE0, 0xFFE6}, {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x3FFFD}};
  for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
    if (c >= wide[i][0] && c <= wide[i][1]) return 2;
  return 1;
}

static uint32_t printable(uint32_t c) { return (c < 0x20 || (c >= 0x7F && c < 0xA0)) ? '?' : c; }

int tui_text_width(const char *s) {
  int w = 0;
  while (*s) {
    uint32_t c;
    s += tui_utf8_decode(s, &c);
    w += cp_width(printable(c));
  }
  return w;
}

size_t tui_text_fit(const char *s, int max) {
  size_t at = 0;
  int used = 0;
  while (s[at]) {
    uint32_t c;
    int n = tui_utf8_decode(s + at, &c);
    used += cp_width(printable(c));
    if (used > max && at > 0) break;
    at += (size_t)n;
  }
  return at;
}

int tui_vs_put(tui_vscreen *vs, int x, int y, int max, const char *s, tui_style st) {
  if (y < 0 || y >= vs->h || x < 0) return 0;
  if (x + max > vs->w) max = vs->w - x;
  int used = 0;
  while (*s && used < max) {
    uint32_t c;
    s += tui_utf8_decode(s, &c);
    c = printable(c);
    int cw = cp_width(c);
    if (used + cw > max) break;
    tui_cell *cell = tui_vs_at(vs, x + used, y);
    cell->ch = c;
    cell->st = st;
    if (cw == 2) {
      cell[1].ch = 0;
      cell[1].st = st;
    }
    used += cw;
  }
  return used;
}

int tui_vs_put_clipped(tui_vscreen *vs, int x, int y, int max, const char *s, tui_style st,
                       const char *ellipsis) {
  if (max <= 0) return 0;
  if (tui_text_width(s) <= max) return tui_vs_put(vs, x, y, max, s, st);
  int used = tui_vs_put(vs, x, y, max - 1, s, st);
  return used + tui_vs_put(vs, x + used, y, 1, ellipsis, st);
}

/* Bytes to skip so that the rest of s fits in max columns. */
static size_t tail_start(const char *s, int max) {
  int width = tui_text_width(s);
  size_t at = 0;
  while (s[at] && width > max) {
    uint32_t c;
    at += (size_t)tui_utf8_decode(s + at, &c);
    width -= cp_width(printable(c));
  }
  return at;
}

int tui_vs_put_middle(tui_vscreen *vs, int x, int y, int max, const char *s, tui_style st,
                      const char *ellipsis) {
  if (max < 3 || tui_text_width(s) <= max)
    return tui_vs_put_clipped(vs, x, y, max, s, st, ellipsis);
  int used = tui_vs_put(vs, x, y, max - 1 - (max - 1) / 2, s, st);
  used += tui_vs_put(vs, x + used, y, 1, ellipsis, st);
  const char *tail = s + tail_start(s, max - used);
  return used + tui_vs_put(vs, x + used, y, max - used, tail, st);
}

void tui_vs_fill(tui_vscreen *vs, int x, int y, int n, uint32_t ch, tui_style st) {
  if (y < 0 || y >= vs->h) return;
  for (int i = x < 0 ? 0 : x; i < x + n && i < vs->w; i++) {
    tui_cell *cell = tui_vs_at(vs, i, y);
    cell->ch = ch;
    cell->st = st;
  }
}

void tui_vs_add_attr(tui_vscreen *vs, int x, int y, int n, uint8_t attr) {
  if (y < 0 || y >= vs->h) return;
  for (int i = x < 0 ? 0 : x; i < x + n && i < vs->w; i++) tui_vs_at(vs, i, y)->st.attr |= attr;
}

static void put_utf8(uint32_t c, FILE *out) {
  if (c < 0x80) {
    fputc((int)c, out);
  } else if (c < 0x800) {
    fputc(0xC0 | (int)(c >> 6), out);
    fputc(0x80 | (int)(c & 0x3F), out);
  } else if (c < 0x10000) {
    fputc(0xE0 | (int)(c >> 12), out);
    fputc(0x80 | (int)((c >> 6) & 0x3F), out);
    fputc(0x80 | (int)(c & 0x3F), out);
  } else {
    fputc(0xF0 | (int)(c >> 18), out);
    fputc(0x80 | (int)((c >> 12) & 0x3F), out);
    fputc(0x80 | (int)((c >> 6) & 0x3F), out);
    fputc(0x80 | (int)(c & 0x3F), out);
  }
}

void tui_vs_print(const tui_vscreen *vs, FILE *out) {
  for (int y = 0; y < vs->h; y++) {
    const tui_cell *row = vs->cells + (size_t)y * (size_t)vs->w;
    int end = vs->w;
    while (end > 0 && row[end - 1].ch == ' ') end--;
    for (int x = 0; x < end; x++)
      if (row[x].ch) put_utf8(row[x].ch, out);
    fputc('\n', out);
  }
}
