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
  OPARI_DIS_PARALLEL = 1 << 0,
  OPARI_DIS_FOR = 1 << 1,
  OPARI_DIS_SECTIONS = 1 << 2,
  OPARI_DIS_SINGLE = 1 << 3,
  OPARI_DIS_MASTER = 1 << 4,
  OPARI_DIS_CRITICAL = 1 << 5,
  OPARI_DIS_ATOMIC = 1 << 6,
  OPARI_DIS_BARRIER = 1 << 7,
  OPARI_DIS_FLUSH = 1 << 8,
  OPARI_DIS_ORDERED = 1 << 9,
  OPARI_DIS_TASK = 1 << 10,
  OPARI_DIS_TASKWAIT = 1 << 11,
  OPARI_DIS_LOCKS = 1 << 12,
  OPARI_DIS_REGION = 1 << 13
};

/* --loops: which sequential loops become regions (c_loop.c, f_loop.c). */
enum { OPARI_LOOPS_OFF, OPARI_LOOPS_CALLS, OPARI_LOOPS_ALL };
enum { OPARI_LOOP_DEPTH_DEFAULT = 2 };

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
  int loops;             /* OPARI_LOOPS_* */
  int loop_depth;        /* loops nested deeper than this are not instrumented */
} opari_options;

/* Instruments the C/C++ unit src[0..n) into out, which must be seekable.
   Returns true on success; otherwise an error `file:line: error: ...` was
   printed on stderr (unless quiet) and out holds garbage. */
bool opari_c(const char *src, size_t n, FILE *out, const opari_options *opt);

/* Instruments the Fortran unit src[0..n) into out, and writes its
   descriptors and the routines the instrumented code calls as C into
   companion (f_unit.c).  Same contract as opari_c(). */
bool opari_fortran(const char *src, size_t n, FILE *out, FILE *companion, const opari_options *opt);

/* Parses a --pomp-disable list ("critical,locks,sync"); false on an
   unknown name (reported in *bad, a pointer into list). */
bool opari_parse_disable(const char *list, unsigned *bits, const char **bad, size_t *bad_len);

#endif
