/*
 * c_stmt.h -- where a C/C++ statement ends.
 *
 * Used as a look-ahead from the position after an OpenMP directive: it
 * reads one statement (a compound statement, if/else, for, while,
 * do/while, switch, try/catch, or an expression or declaration up to its
 * `;` with lambdas and initialisers balanced) and reports the offset and
 * line just after it.  Directives are skipped (only the first arm of a
 * conditional is read, `#if 0` arms never); `#pragma omp cancel` seen on
 * the way is recorded.
 */
#ifndef OPARI_C_STMT_H
#define OPARI_C_STMT_H

#include "c_lex.h"
#include "c_pp.h"
#include "directive.h"

enum { CANCEL_FOR = 1, CANCEL_SECTIONS = 2, CANCEL_PARALLEL = 4, CANCEL_TASKGROUP = 8 };

typedef struct {
  opc_lexer lx;      /* position; advanced by the scan */
  size_t first_code; /* start of the statement's first token (after any
                           directives before it) */
  size_t end;        /* after the last token read */
  int end_line;
  unsigned cancel;      /* CANCEL_* bits of cancel directives read */
  bool stop_at_section; /* a `section` directive ends a sequence */
  /* conditionals entered while scanning (only their first live arm is
     read): level, which levels have an unknown condition, the line of
     the outermost unknown one */
  int pp_level;
  unsigned long long pp_unknown;
  int pp_unknown_line;
  const char *error; /* what was wrong, and where */
  int error_line;
  size_t *budget; /* tokens the caller lets all its scans read
                           (NULL: unlimited), so nesting cannot make the
                           scans quadratic without bound */
  /* scratch owned by the caller */
  op_dir *dir;
  opc_pragma_op *op;
  char **stack;
  size_t *stack_cap;
  size_t depth;
} opc_stmt;

/* A scanner starting at lx; end/end_line start as lx's position. */
void opc_stmt_init(opc_stmt *st, const opc_lexer *lx, op_dir *dir, opc_pragma_op *op, char **stack,
                   size_t *stack_cap);
/* One statement. */
bool opc_stmt_skip(opc_stmt *st);
/* After a scan: the line of the #if/#ifdef whose first arm the statement
   ended in, when its condition is unknown (other arms, other ends), or 0. */
int opc_stmt_end_in_arm(const opc_stmt *st);
/* Statements up to (not including) a `#pragma omp section` or the `}`
   closing the enclosing block. */
bool opc_stmt_skip_sequence(opc_stmt *st);

#endif
