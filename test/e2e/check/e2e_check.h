/*
 * e2e_check.h -- compares a report (as `pomp-report dump --format csv`) with
 * the expectations of an example program (examples/expect/<name>.txt).
 *
 * Expectation file, one statement per line, '#' starts a comment:
 *
 *   PROPERTY CALLPATH LOCATIONS VALUE TOLERANCE [REQUIRES]
 *       The value of PROPERTY, summed over the call paths that end with
 *       CALLPATH, must be VALUE (in the property's unit: seconds, visits,
 *       bytes) at every location LOCATIONS selects, within TOLERANCE ("10%"
 *       of VALUE, or absolute "0.005"), and never stricter than 0.002 (2 ms;
 *       for counts, which are whole numbers, "0" asks for the exact count).
 *       CALLPATH: region names joined by ';', matched against the last
 *       components of a call path, each one a glob (fnmatch: '*', '?');
 *       a component "**" matches any number of components ("f;**" is f
 *       and everything below it).
 *       LOCATIONS: RANKS:THREADS, each one of '*', N, !N, even, odd, last,
 *       !last, inner (neither first nor last) (e.g. "even:0", "*:!0").
 *       REQUIRES: conditions on the run, comma-separated, all must hold, else
 *       the line is skipped: "ranks>=2", "threads>=2", "ranks==1", "<=".
 *   plus PROPERTY CALLPATH LOCATIONS
 *       After an expectation: PROPERTY summed over the call paths that end
 *       with CALLPATH and over all locations LOCATIONS selects is added to
 *       the expectation's value at each of its locations (a cause's
 *       short-term delay cost plus the long-term costs passed on through
 *       its waits, which lie on other ranks).  Several may follow one.
 *   large SECONDS
 *       The "nothing large where nothing was planted" threshold (default
 *       0.010): a wait-state value above it that no expectation covers fails.
 *   ignore PROPERTY CALLPATH [REQUIRES]
 *       Values of PROPERTY ('*' for any) at call paths ending with CALLPATH
 *       are not checked against `large` (start-up, scaffolding).
 *
 * A value is "covered" when an applicable expectation selected its
 * (property, call path, location); covered values are checked against the
 * expectation, the rest of the wait-state properties against `large`.
 */
#ifndef E2E_CHECK_H
#define E2E_CHECK_H

#include <stddef.h>
#include <stdio.h>

/* Which ranks or threads a selector picks, among count of them. */
typedef enum {
  E2E_SEL_ALL,     /* '*' */
  E2E_SEL_ONE,     /* N */
  E2E_SEL_ALL_BUT, /* !N */
  E2E_SEL_EVEN,
  E2E_SEL_ODD,
  E2E_SEL_LAST,
  E2E_SEL_ALL_BUT_LAST,
  E2E_SEL_INNER /* neither the first nor the last */
} e2e_sel_kind;

typedef struct {
  e2e_sel_kind kind;
  int n;
} e2e_selector;

/* 0 on success, -1 when text is not a selector. */
int e2e_selector_parse(const char *text, e2e_selector *out);
int e2e_selector_matches(e2e_selector s, int index, int count);

/* A condition on the run's configuration: ranks>=2 and the like. */
typedef struct {
  char what; /* 'r' (ranks) or 't' (threads) */
  char op;   /* '>' (>=), '<' (<=), '=' (==) */
  int n;
} e2e_condition;

enum { E2E_MAX_CONDITIONS = 4 };

typedef struct e2e_expectation {
  int line; /* in the expectation file, for messages */
  char *property;
  char *callpath; /* suffix pattern */
  e2e_selector ranks, threads;
  double value;
  double tolerance; /* absolute (the property's unit), or a fraction */
  int relative;
  e2e_condition cond[E2E_MAX_CONDITIONS];
  int nconds;
  /* the plus lines after it: property, callpath, ranks, threads used */
  struct e2e_expectation *plus;
  size_t nplus, capplus;
} e2e_expectation;

typedef struct {
  e2e_expectation *expect;
  size_t nexpect, capexpect;
  e2e_expectation *ignore; /* only property, callpath and cond are used */
  size_t nignore, capignore;
  double large;
} e2e_spec;

/* Parses an expectation file's text.  On error returns -1 and writes
   "FILE:LINE: error: ..." into err. */
int e2e_spec_parse(e2e_spec *spec, const char *text, const char *file, char *err, size_t errlen);
void e2e_spec_free(e2e_spec *spec);

/* Whether the conditions of a line hold for a run of ranks x threads. */
int e2e_conditions_hold(const e2e_expectation *e, int ranks, int threads);

/* Whether a ';'-joined call path ends with the ';'-joined glob pattern, in
   which a component "**" stands for any number of components.  Paths or
   patterns deeper than E2E_MAX_COMPONENTS never match. */
enum { E2E_MAX_COMPONENTS = 256 };
int e2e_callpath_ends_with(const char *callpath, const char *pattern);

/* One value of the report. */
typedef struct {
  char *metric;
  char *callpath;
  int rank, thread;
  double value;
  int covered;
  int trace_checked; /* matched a value from the trace (e2e_check_trace) */
} e2e_row;

typedef struct {
  e2e_row *rows;
  size_t n, cap;
} e2e_rows;

/* Parses CSV with the header metric,callpath,rank,thread,value (fields may
   be double-quoted, "" for a quote).  On error returns -1 and writes
   "FILE:LINE: error: ..." into err. */
int e2e_rows_parse(e2e_rows *rows, const char *text, const char *file, char *err, size_t errlen);
void e2e_rows_free(e2e_rows *rows);

/* Where a parser is, and where its error message goes. */
typedef struct {
  const char *file;
  int line;
  char *err;
  size_t errlen;
} e2e_where;

/* Writes "FILE:LINE: error: MESSAGE" into w->err; returns -1 (for
   "return e2e_fail(...)" in parsers). */
int e2e_fail(const e2e_where *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether a property is a wait state that the `large` check looks at. */
int e2e_is_wait_state(const char *property);

/* Checks the report's values (rows) of every metric that trace names
   against trace, values computed from the trace's own timestamps
   (completions.awk): each (metric, call path, location) must agree within
   E2E_TRACE_TOLERANCE_S, a report row the trace lacks being a failure
   unless zero; the rows checked are then not held to `large` (e2e_check,
   afterwards: a value the trace confirms is the run's, however the
   machine's load made it).  Prints each failure to out; returns their
   number. */
#define E2E_TRACE_TOLERANCE_S 1e-6
int e2e_check_trace(const e2e_rows *trace, e2e_rows *rows, FILE *out);

/* Checks rows against spec for a run of ranks x threads; prints one line per
   check and per failure to out.  Returns the number of failures. */
int e2e_check(const e2e_spec *spec, e2e_rows *rows, int ranks, int threads, FILE *out);

#endif /* E2E_CHECK_H */
