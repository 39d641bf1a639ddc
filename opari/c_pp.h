/*
 * c_pp.h -- what a C/C++ preprocessor directive or `_Pragma` operator is,
 * as far as the instrumenter cares: conditional structure (with the
 * literal conditions `0` and `1` that mark dead code), `#include <omp.h>`,
 * and OpenMP/POMP pragmas with the offset of the text after the sentinel.
 */
#ifndef OPARI_C_PP_H
#define OPARI_C_PP_H

#include <stdbool.h>
#include <stddef.h>

#include "c_lex.h"
#include "directive.h"

typedef enum {
  PP_OTHER,
  PP_IF,   /* #if #ifdef #ifndef */
  PP_ELIF, /* #elif #elifdef #elifndef */
  PP_ELSE,
  PP_ENDIF,
  PP_OMP,         /* #pragma omp */
  PP_POMP,        /* #pragma pomp */
  PP_INCLUDE_OMP, /* #include <omp.h> or "omp.h" */
  PP_LINE,        /* #line N "file", or the preprocessor's # N "file" flags */
  PP_DEFINE       /* #define */
} opc_pp_kind;

typedef enum { COND_UNKNOWN, COND_FALSE, COND_TRUE } opc_pp_cond;

/* Classifies directive text t[0..n) (starting at `#`).  For PP_IF/PP_ELIF
   sets *cond; for PP_OMP/PP_POMP sets *after to the text after the
   sentinel. */
opc_pp_kind opc_pp_classify(const char *t, size_t n, opc_pp_cond *cond, size_t *after);

/* A `_Pragma ( string-literal )` operator whose `_Pragma` identifier the
   lexer just returned: on success, the string's contents with escapes
   removed (in *buf, grown as needed), and the lexer moved past `)`. */
typedef struct {
  char *buf;
  size_t len, cap;
  size_t end; /* offset after `)` */
  int end_line;
} opc_pragma_op;
bool opc_pp_pragma_operator(opc_lexer *lx, opc_pragma_op *op);

/* Whether the `#define` directive text t[0..n) holds a `_Pragma` operator
   that makes an OpenMP or POMP directive, or one whose operand is not a
   plain string literal (built from the macro's parameters, as in
   `_Pragma(#x)`): a directive only the preprocessor can show.  *name gets
   the macro's name. */
bool opc_pp_define_makes_directive(const char *t, size_t n, bool cxx, opc_pragma_op *op,
                                   op_span *name);

/* Family of a destringized _Pragma text: PP_OMP, PP_POMP or PP_OTHER. */
opc_pp_kind opc_pp_pragma_text_family(const char *t, size_t n, size_t *after);

/* Advances lx through a dead conditional arm (code and nested
   conditionals) to the directive that ends it: with stop_at_live_arm, an
   #else or an #elif not known to be false at this level; always the
   matching #endif.  Returns that directive's kind (PP_OTHER at EOF) and,
   for an #elif, its condition in *cond. */
opc_pp_kind opc_pp_skip_arm(opc_lexer *lx, bool stop_at_live_arm, opc_pp_cond *cond);
#endif
