/*
 * opari.h -- the instrumenter's entry point, independent of files and of
 * the command line (so that tests and the fuzzer call it directly).
 */
#ifndef OPARI_H
#define OPARI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Constructs that --pomp-disable can leave uninstrumented. */
enum {
  DIS_PARALLEL = 1 << 0, DIS_FOR = 1 << 1, DIS_SECTIONS = 1 << 2, DIS_SINGLE = 1 << 3,
  DIS_MASTER = 1 << 4, DIS_CRITICAL = 1 << 5, DIS_ATOMIC = 1 << 6, DIS_BARRIER = 1 << 7,
  DIS_FLUSH = 1 << 8, DIS_ORDERED = 1 << 9, DIS_TASK = 1 << 10, DIS_TASKWAIT = 1 << 11,
  DIS_LOCKS = 1 << 12, DIS_REGION = 1 << 13
};

typedef struct {
  const char *file_name; /* as given: messages and descriptors */
  const char *line_name; /* for #line, already escaped as a C string literal */
  bool cxx;              /* C++ lexing (raw strings) */
  bool nosrc;            /* no #line directives */
  bool quiet;            /* no warnings (fuzzing) */
  bool preprocessed;     /* C/C++: the input is the preprocessor's output
                            (line marks, pomp.h expanded in it); so is the
                            output: GNU line marks, no #include, no _Pragma */
  unsigned disabled;     /* DIS_* bits */
  bool fixed_form;       /* Fortran: fixed source form (else free form) */
  unsigned unit_id;      /* Fortran: names this unit's pomp_<id>_* routines */
} OpariOptions;

/* Instruments the C/C++ unit src[0..n) into out, which must be seekable.
   Returns true on success; otherwise an error `file:line: error: ...` was
   printed on stderr (unless quiet) and out holds garbage. */
bool opari_c(const char *src, size_t n, FILE *out, const OpariOptions *opt);

/* Instruments the Fortran unit src[0..n) into out, and writes its
   descriptors and the routines the instrumented code calls as C into
   companion (f_unit.c).  Same contract as opari_c(). */
bool opari_fortran(const char *src, size_t n, FILE *out, FILE *companion,
                   const OpariOptions *opt);

/* Parses a --pomp-disable list ("critical,locks,sync"); false on an
   unknown name (reported in *bad, a pointer into list). */
bool opari_parse_disable(const char *list, unsigned *bits, const char **bad, size_t *bad_len);

#endif
