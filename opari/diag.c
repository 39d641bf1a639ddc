/* diag.c -- see diag.h. */
#include "diag.h"

void opari_vdiag(const OpariOptions *opt, const char *kind, int line, const char *fmt,
                 va_list ap) {
  opari_vdiag_in(opt, opt->file_name, kind, line, fmt, ap);
}

void opari_vdiag_in(const OpariOptions *opt, const char *file, const char *kind, int line,
                    const char *fmt, va_list ap) {
  if (opt->quiet) return;
  fprintf(stderr, "%s:%d: %s: ", file, line, kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void opari_diag(const OpariOptions *opt, const char *kind, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  opari_vdiag(opt, kind, line, fmt, ap);
  va_end(ap);
}
