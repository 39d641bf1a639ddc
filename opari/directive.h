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
} Span;

typedef enum {
  OMP_UNKNOWN,       /* not a directive this tool knows: passed, warned */
  OMP_PARALLEL,
  OMP_FOR,           /* also `for simd` */
  OMP_PARALLEL_FOR,  /* also `parallel for simd` */
  OMP_SECTIONS,
  OMP_PARALLEL_SECTIONS,
  OMP_PARALLEL_MASTER,
  OMP_PARALLEL_MASKED, /* the parallel half is instrumented, masked passed */
  OMP_SECTION,
  OMP_SINGLE,
  OMP_MASTER,
  OMP_CRITICAL,
  OMP_ATOMIC,
  OMP_BARRIER,
  OMP_FLUSH,
  OMP_ORDERED,
  OMP_TASK,
  OMP_TASKWAIT,
  OMP_CANCEL,
  OMP_PASS,          /* stand-alone or declarative, passed silently */
  OMP_PASS_WARN,     /* has a body, not instrumented, nested ones are */
  OMP_PASS_SUPPRESS, /* has a body in which nothing may be instrumented
                        (target, teams, distribute, simd, loop) */
  OMP_DECLARE_TARGET_BEGIN,
  OMP_DECLARE_TARGET_END
} OmpKind;

typedef struct {
  Span name;  /* clause keyword */
  Span args;  /* inside the parentheses, if has_args */
  Span whole; /* keyword through the closing parenthesis */
  bool has_args;
} OmpClause;

typedef struct {
  OmpKind kind;
  bool inner_simd;    /* `for simd`, `parallel for simd` */
  Span words[6];      /* the directive-name words */
  int nwords;
  Span paren;         /* critical(name), flush(list) */
  bool has_paren;
  OmpClause *clauses; /* owned; reused by the next parse */
  size_t nclauses, cap;
  size_t content_end; /* just after the last significant byte */
  const char *error;  /* why parsing failed (static string) */
} OmpDir;

/* Parses t[from..n), the text after the `omp` sentinel.  false (with
   d->error set) if the text is malformed, e.g. unbalanced parentheses. */
bool omp_dir_parse(OmpDir *d, const char *t, size_t n, size_t from);
/* The part after the directive name at t[p..): with `paren`, an optional
   parenthesised argument (critical(name)), then the clauses.  Used by the
   Fortran front end, which reads the directive name itself; d->kind is
   left alone. */
bool omp_dir_parse_rest(OmpDir *d, const char *t, size_t n, size_t p, bool paren);
void omp_dir_free(OmpDir *d);
/* The clause called `name`, or NULL. */
const OmpClause *omp_dir_clause(const OmpDir *d, const char *t, const char *name);
/* The directive name as written, words joined by one blank, into buf. */
void omp_dir_name(const OmpDir *d, const char *t, char *buf, size_t size);

typedef enum {
  POMP_BAD,
  POMP_INIT, POMP_FINALIZE, POMP_ON, POMP_OFF,
  POMP_BEGIN, POMP_END, POMP_ALTEND,
  POMP_NOINSTRUMENT, POMP_INSTRUMENT
} PompKind;

/* Parses the text after the `pomp` sentinel; name gets begin/end/altend's
   region name (altend: an early exit from the open region, OPARI2's). */
PompKind pomp_dir_parse(const char *t, size_t n, size_t from, Span *name);

/* Sentinel detection shared by the front ends. */
size_t dir_skip_gap(const char *t, size_t n, size_t p);
/* If t[p..) starts with identifier `word` (whole word), its end, else 0. */
size_t dir_word_at(const char *t, size_t n, size_t p, const char *word);
size_t dir_ident_end(const char *t, size_t n, size_t p);
bool span_is(const char *t, Span s, const char *word);
/* Whether t[s] is one of the NULL-terminated list of words. */
bool span_in(const char *t, Span s, const char *const *list);

#endif
