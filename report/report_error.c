/* report_error.c -- filling a pomp_report_error. */
#include "report_internal.h"

#include <stdarg.h>
#include <stdio.h>

pomp_report_status report_fail(pomp_report_error *err, pomp_report_status status, const char *fmt,
                               ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->status = status;
  }
  return status;
}
