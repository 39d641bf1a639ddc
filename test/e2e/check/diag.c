/* diag.c -- the one error-message shape of the checker's parsers. */
#include "e2e_check.h"

#include <stdarg.h>

int e2e_fail(const e2e_where *w, const char *fmt, ...) {
  int n = snprintf(w->err, w->errlen, "%s:%d: error: ", w->file, w->line);
  if (n >= 0 && (size_t)n < w->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err + n, w->errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return -1;
}
