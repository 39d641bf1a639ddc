/*
 * directive.h -- parsing of the text of one OpenMP or POMP directive.
 *
 * Language neutral: the caller locates the text after the sentinel
 * (`#pragma omp` or `_Pragma("omp` in C/C++, `!$omp` in Fortran) and this
 * module finds the directive name, its clauses and where each of them
 * begins and ends, so that clauses can be copied, blanked or appended to
 * byte for byte.  Gaps between items may hold blanks, comments and line
 * splices; they are skipped, never interpreted.
 */
#ifndef OPARI_DIRECTIVE_H
#define OPARI_DIRECTIVE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  size_t start, end;
} op_span;

typedef enum {
  OP_DIR_UNKNOWN, /* not a directive this tool knows: passed, warned */
  OP_DIR_PARALLEL,
  OP_DIR_FOR,          /* also `for simd` */
  OP_DIR_PARALLEL_FOR, /* also `parallel for simd` */
  OP_DIR_SECTIONS,
  OP_DIR_PARALLEL_SECTIONS,
  OP_DIR_PARALLEL_MASTER,
  OP_DIR_PARALLEL_MASKED, /* the parallel half is instrumented, masked passed */
  OP_DIR_SECTION,
  OP_DIR_SINGLE,
  OP_DIR_MASTER,
  OP_DIR_CRITICAL,
  OP_DIR_ATOMIC,
  OP_DIR_BARRIER,
  OP_DIR_FLUSH,
  OP_DIR_ORDERED,
  OP_DIR_TASK,
  OP_DIR_TASKWAIT,
  OP_DIR_CANCEL,
  OP_DIR_PASS,          /* stand-alone or declarative, passed silently */
  OP_DIR_PASS_WARN,     /* has a body, not instrumented, nested ones are */
  OP_DIR_PASS_SUPPRESS, /* has a body in which nothing may be instrumented
                        (target, teams, distribute, simd, loop) */
  OP_DIR_DECLARE_TARGET_BEGIN,
  OP_DIR_DECLARE_TARGET_END
} op_dir_kind;

typedef struct {
  op_span name;  /* clause keyword */
  op_span args;  /* inside the parentheses, if has_args */
  op_span whole; /* keyword through the closing parenthesis */
  bool has_args;
  const char *word; /* its keyword, where name is not it verbatim (a
                       Fortran fixed-form `num _threads`), else NULL */
} op_clause;

typedef struct {
  op_dir_kind kind;
  bool inner_simd;  /* `for simd`, `parallel for simd` */
  op_span words[6]; /* the directive-name words */
  int nwords;
  op_span paren; /* critical(name), flush(list) */
  bool has_paren;
  op_clause *clauses; /* owned; reused by the next parse */
  size_t nclauses, cap;
  size_t content_end; /* just after the last significant byte */
  const char *error;  /* why parsing failed (static string) */
} op_dir;

/* Parses t[from..n), the text after the `omp` sentinel.  false (with
   d->error set) if the text is malformed, e.g. unbalanced parentheses. */
bool op_dir_parse(op_dir *d, const char *t, size_t n, size_t from);
/* The part after the directive name at t[p..): with `paren`, an optional
   parenthesised argument (critical(name)), then the clauses.  Used by the
   Fortran front end, which reads the directive name itself; d->kind is
   left alone. */
bool op_dir_parse_rest(op_dir *d, const char *t, size_t n, size_t p, bool paren);
void op_dir_free(op_dir *d);
/* Whether clause c (of text t) is called `name` / one of the
   NULL-terminated list. */
bool op_clause_is(const op_clause *c, const char *t, const char *name);
bool op_clause_in(const op_clause *c, const char *t, const char *const *list);
/* The clause called `name`, or NULL. */
const op_clause *op_dir_clause(const op_dir *d, const char *t, const char *name);
/* The directive name as written, words joined by one blank, into buf. */
void op_dir_name(const op_dir *d, const char *t, char *buf, size_t size);

typedef enum {
  OP_INST_BAD,
  OP_INST_INIT,
  OP_INST_FINALIZE,
  OP_INST_ON,
  OP_INST_OFF,
  OP_INST_BEGIN,
  OP_INST_END,
  OP_INST_ALTEND,
  OP_INST_NOINSTRUMENT,
  OP_INST_INSTRUMENT
} op_inst_kind;

/* Parses the text after the `pomp` sentinel; name gets begin/end/altend's
   region name (altend: an early exit from the open region, OPARI2's). */
op_inst_kind op_inst_parse(const char *t, size_t n, size_t from, op_span *name);

/* Sentinel detection shared by the front ends. */
size_t op_skip_gap(const char *t, size_t n, size_t p);
/* If t[p..) starts with identifier `word` (whole word), its end, else 0. */
size_t op_word_at(const char *t, size_t n, size_t p, const char *word);
size_t op_ident_end(const char *t, size_t n, size_t p);
/* The `)` matching the `(` at t[p] (nested brackets, quoted literals), or 0. */
size_t op_match_paren(const char *t, size_t n, size_t p);
bool op_span_is(const char *t, op_span s, const char *word);
/* Whether t[s] is one of the NULL-terminated list of words. */
bool op_span_in(const char *t, op_span s, const char *const *list);

#endif
