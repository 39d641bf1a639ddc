/*
 * diag.h -- diagnostics of the front ends: "file:line: kind: message" on
 * stderr, as compilers print them (nothing when the options say quiet).
 */
#ifndef OPARI_DIAG_H
#define OPARI_DIAG_H

#include <stdarg.h>

#include "opari.h"

void op_vdiag(const opari_options *opt, const char *kind, int line, const char *fmt, va_list ap);
/* The same for a file other than the unit's own (from a line mark). */
void op_vdiag_in(const opari_options *opt, const char *file, const char *kind, int line,
                 const char *fmt, va_list ap);
void op_diag(const opari_options *opt, const char *kind, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
