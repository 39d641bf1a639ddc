/* keys.c -- see keys.h. */
#include "keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pomp_util.h"
#include "vscreen.h"

static const struct {
  int key;
  const char *name;
} names[] = {
    {TUI_KEY_UP, "Up"},        {TUI_KEY_DOWN, "Down"},  {TUI_KEY_LEFT, "Left"},
    {TUI_KEY_RIGHT, "Right"},  {TUI_KEY_PGUP, "PgUp"},  {TUI_KEY_PGDN, "PgDn"},
    {TUI_KEY_HOME, "Home"},    {TUI_KEY_END, "End"},    {TUI_KEY_ENTER, "Enter"},
    {TUI_KEY_TAB, "Tab"},      {TUI_KEY_BTAB, "S-Tab"}, {TUI_KEY_ESC, "Esc"},
    {TUI_KEY_BACKSPACE, "BS"}, {TUI_KEY_F1, "F1"},      {TUI_KEY_F3, "F3"},
    {TUI_KEY_SF3, "S-F3"},     {' ', "Space"},          {'<', "lt"},
};

const char *tui_key_name(int key, char *buf, size_t size) {
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].key == key) return names[i].name;
  if (key >= 1 && key <= 26) {
    snprintf(buf, size, "C-%c", 'a' + key - 1);
    return buf;
  }
  /* A printable code point as UTF-8. */
  char *o = buf;
  unsigned c = (unsigned)key;
  if (size < 5) return "?";
  if (c < 0x80) *o++ = (char)c;
  else if (c < 0x800) *o++ = (char)(0xC0 | (c >> 6)), *o++ = (char)(0x80 | (c & 0x3F));
  else
    *o++ = (char)(0xE0 | (c >> 12)), *o++ = (char)(0x80 | ((c >> 6) & 0x3F)),
    *o++ = (char)(0x80 | (c & 0x3F));
  *o = 0;
  return buf;
}

static int parse_pair(const char *s, char sep, int *a, int *b) {
  char *end;
  long x = strtol(s, &end, 10);
  if (end == s || *end != sep) return -1;
  const char *t = end + 1;
  long y = strtol(t, &end, 10);
  if (end == t || *end != '>' || x < 0 || y < 0 || x > 100000 || y > 100000) return -1;
  *a = (int)x;
  *b = (int)y;
  return 0;
}

/* One <...> token (without the brackets' outer text) into ev. */
static int parse_token(const char *tok, size_t len, tui_event *ev) {
  char word[32];
  size_t wl = 0;
  while (wl < len && tok[wl] != ' ' && wl < sizeof word - 1) word[wl] = tok[wl], wl++;
  word[wl] = 0;
  const char *arg = tok + wl + 1; /* after the space, ends at '>' */
  static const struct {
    const char *word;
    tui_event_type type;
    char sep;
  } pointer[] = {{"resize", TUI_EV_RESIZE, 'x'},
                 {"click", TUI_EV_CLICK, ','},
                 {"wheelup", TUI_EV_WHEEL_UP, ','},
                 {"wheeldown", TUI_EV_WHEEL_DOWN, ','}};
  for (size_t i = 0; i < sizeof pointer / sizeof pointer[0]; i++)
    if (strcmp(word, pointer[i].word) == 0) {
      ev->type = pointer[i].type;
      return wl < len ? parse_pair(arg, pointer[i].sep, &ev->x, &ev->y) : -1;
    }
  if (wl != len) return -1;
  if (strcmp(word, "dump") == 0 || strcmp(word, "reload") == 0) {
    ev->type = word[0] == 'd' ? TUI_EV_DUMP : TUI_EV_RELOAD;
    return 0;
  }
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcasecmp(word, names[i].name) == 0) {
      ev->key = names[i].key;
      return 0;
    }
  if (len == 3 && (word[0] == 'C' || word[0] == 'c') && word[1] == '-' && word[2] >= 'a' &&
      word[2] <= 'z') {
    ev->key = word[2] - 'a' + 1;
    return 0;
  }
  return -1;
}

int tui_parse_keys(const char *script, tui_event **events, size_t *n, char *err, size_t errsize) {
  size_t cap = 0;
  *events = NULL;
  *n = 0;
  const char *s = script;
  while (*s) {
    tui_event ev = {TUI_EV_KEY, 0, 0, 0};
    if (*s == '<') {
      const char *close = strchr(s, '>');
      if (!close || parse_token(s + 1, (size_t)(close - s - 1), &ev) != 0) {
        snprintf(err, errsize, "offset %td: unknown key token starting '%.20s'", s - script, s);
        free(*events);
        *events = NULL;
        *n = 0;
        return -1;
      }
      s = close + 1;
    } else {
      uint32_t cp;
      s += tui_utf8_decode(s, &cp);
      ev.key = cp == '\n' || cp == '\r' ? TUI_KEY_ENTER
               : cp == '\t'             ? TUI_KEY_TAB
               : cp == 27               ? TUI_KEY_ESC
                                        : (int)cp;
    }
    PU_PUSH(*events, *n, cap, ev);
  }
  return 0;
}
