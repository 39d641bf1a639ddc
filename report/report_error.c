/* report_error.c -- filling a pomp_report_error. */
#include "report_internal.h"

#include <stdarg.h>
#include <stdio.h>

#include "pomp_report.h"

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

pomp_report_status report_refuse_difference(const pomp_report *r, const char *what,
                                            pomp_report_error *err) {
  const char *diff = pomp_report_attr(r, "diff");
  if (!diff) return POMP_REPORT_OK;
  return report_fail(err, POMP_REPORT_ERR_ARG,
                     "%s: a difference of two runs (%s): %s are a run's, not a difference's",
                     *r->path ? r->path : "report", diff, what);
}
