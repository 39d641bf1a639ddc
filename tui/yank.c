/* yank.c -- copying the selection: its full name and value go to the
   terminal's clipboard through the OSC 52 escape (works over ssh and in
   tmux with set-clipboard); the front end sends it, batch mode only says
   what was copied. */
#include <string.h>

#include "app.h"

size_t tui_base64(const char *in, size_t n, char *out) {
  static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const unsigned char *u = (const unsigned char *)in;
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)u[i] << 16 | (i + 1 < n ? (unsigned)u[i + 1] << 8 : 0) |
                 (i + 2 < n ? u[i + 2] : 0);
    out[o++] = digits[v >> 18 & 63];
    out[o++] = digits[v >> 12 & 63];
    out[o++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
    out[o++] = i + 2 < n ? digits[v & 63] : '=';
  }
  out[o] = 0;
  return o;
}

void tui_yank(tui_app *a) {
  tui_app_describe(a, a->clipboard, sizeof a->clipboard);
  a->clipboard_pending = 1;
  tui_app_message(a, 0, "copied: %s", a->clipboard);
}
