/* diag.c -- see diag.h. */
#include "diag.h"

void op_vdiag(const opari_options *opt, const char *kind, int line, const char *fmt, va_list ap) {
  op_vdiag_in(opt, opt->file_name, kind, line, fmt, ap);
}

void op_vdiag_in(const opari_options *opt, const char *file, const char *kind, int line,
                 const char *fmt, va_list ap) {
  if (opt->quiet) return;
  fprintf(stderr, "%s:%d: %s: ", file, line, kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void op_diag(const opari_options *opt, const char *kind, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  op_vdiag(opt, kind, line, fmt, ap);
  va_end(ap);
}
