/*
 * f_rw.h -- internals shared by the files of the Fortran front end:
 * f_lines.c (physical lines: form, sentinels, continuations, directive
 * text), f_look.c (look-ahead: statements, the end of a DO loop),
 * f_construct.c (OpenMP constructs: their events and closing),
 * f_rewrite.c (the driver, POMP directives, lock calls) and f_unit.c (the
 * companion C file).
 *
 * Fortran is line oriented and its OpenMP constructs end with END
 * directives, so the front end works line by line: events are inserted
 * as whole `call` lines between source lines, followed by a `# N "file"`
 * mark so that compiler messages still point at the source.
 */
#ifndef OPARI_F_RW_H
#define OPARI_F_RW_H

#include <setjmp.h>

#include "diag.h"
#include "directive.h"
#include "events.h"
#include "emit.h"
#include "opari.h"
#include "unit.h"

/* One physical line. */
typedef struct {
  size_t start, end; /* its bytes, without the line end */
  size_t next;       /* start of the next line */
  int line;          /* logical line number (after `# N "file"` marks) */
  bool dead;         /* in an `#if 0` arm: not looked at */
  unsigned file;     /* 0: the input, k: the file named by rw->files[k-1] */
} opf_line;

typedef enum {
  FL_BLANK,   /* empty or blanks only */
  FL_COMMENT, /* comment line (also an unknown sentinel) */
  FL_CPP,     /* preprocessor line, `#` in column 1 */
  FL_CODE,    /* Fortran source (also after a `!P$` sentinel) */
  FL_OMP,     /* `!$OMP` directive line */
  FL_POMP     /* `!$POMP` directive line */
} opf_line_kind;

typedef struct {
  opf_line_kind kind;
  bool cont;       /* fixed form: continuation mark in column 6 */
  size_t sentinel; /* offset in the line of the sentinel (OMP, POMP, `!P$`) */
  size_t body;     /* offset in the line of the text after the sentinel */
  bool condcomp;   /* a `!P$` line: the sentinel is blanked in the output */
} opf_line_class;

/* The Fortran constructs. */
typedef enum {
  FC_OTHER, /* not instrumented: passed unchanged */
  FC_PARALLEL,
  FC_DO,
  FC_SECTIONS,
  FC_SECTION,
  FC_SINGLE,
  FC_WORKSHARE,
  FC_MASTER,
  FC_CRITICAL,
  FC_ATOMIC,
  FC_BARRIER,
  FC_FLUSH,
  FC_ORDERED,
  FC_TASK,
  FC_TASKWAIT,
  FC_PARALLEL_DO,
  FC_PARALLEL_SECTIONS,
  FC_PARALLEL_WORKSHARE,
  FC_PARALLEL_MASTER, /* OpenMP 5.0; descriptors "parallel" and "master" */
  FC_REGION,          /* !$POMP INST BEGIN(name) */
  FC_DEVICE,          /* target/teams: passed, nothing inside instrumented */
  FC_COUNT
} opf_construct;

/* The lock routines replaced by POMP twins (same length: no column moves). */
enum { FLOCK_COUNT = 8 };
extern const char *const opf_lock_names[FLOCK_COUNT][2]; /* {omp name, pomp name} */

/* One directive read from its lines, with a cleaned copy of its text. */
typedef struct {
  size_t first, last; /* its physical lines */
  size_t start;       /* source offset of clean[0] (start of line `first`) */
  char *clean;        /* src[start..end of line last): sentinels, `&`,
                           comments blanked, lower case; same offsets */
  size_t len, cap;
  bool end; /* an END directive */
  opf_construct kind;
  op_span words[6];     /* name words after `end` (in clean) */
  const char *wordv[6]; /* canonical names of those words */
  int nwords;
  op_dir dir; /* clauses (offsets into clean) */
  /* clean without its blanks and line ends outside quotes (f_names.c):
     sq[i] is clean[sq_at[i]], sq_gap[i] whether blanks came before it */
  char *sq;
  size_t *sq_at;
  bool *sq_gap;
  size_t sq_len, sq_cap;
} opf_dir;

/* An open construct. */
typedef struct {
  opf_construct kind;
  int descr;
  int descr2;          /* PARALLEL MASTER: the master half's descriptor */
  size_t line;         /* physical line of its directive */
  bool passed;         /* not instrumented (disabled or unknown half) */
  bool cancelled;      /* holds a CANCEL for it: NOWAIT would be illegal */
  bool section_open;   /* sections: a section is running */
  bool first_section;  /* sections: no statement seen yet */
  bool join;           /* parallel: its last construct reported the arrival at the join */
  size_t implicit_end; /* line after which it closes without an END
                          directive (DO without END DO, ATOMIC), else -1 */
  char words[40];      /* canonical name words of the directive, for END */
  const char *name;    /* user region: its name in the source */
  size_t name_len;
} opf_open;

typedef struct {
  const char *src;
  size_t n;
  const opari_options *opt;
  bool fixed;
  unsigned unit_id;
  opf_line *lines;
  size_t nlines, lines_cap;
  op_span *files; /* names in `# N "file"` marks (escaped as in C) */
  size_t nfiles, files_cap;
  op_emit em;
  size_t copied_line;   /* output holds src before line copied_line */
  bool need_mark;       /* inserted text: `# N` before the next source line */
  char indent[64];      /* indentation of inserted lines (free form) */
  char call_prefix[32]; /* "call pomp_<unit id>_" */
  opf_dir fd;
  opf_open *open;
  size_t nopen, open_cap;
  op_descr_table descr;
  bool used[EV_COUNT];
  bool locks_used[FLOCK_COUNT];
  bool test_locks_used[2]; /* omp_test_lock, omp_test_nest_lock (f_unit.c) */
  char program[64];        /* the main program's name, lower case, or "" (f_unit.c) */
  bool final_newline;      /* added after a last line without one */
  /* --loops (f_loop.c): open DO loops; a directive was just read (its DO
     is OpenMP's); the DO just read was such a loop (a DO right inside it
     may be collapsed with it) */
  struct opf_loop *loops;
  size_t nloops, loops_cap;
  bool omp_before, assoc_next;
  jmp_buf fail;
} opf_rw;

/* What the first line of a statement says (f_look.c). */
typedef struct {
  long label;    /* statement label, or -1 */
  bool is_do;    /* a DO statement */
  long do_label; /* its terminating label, or -1 (block DO) */
  bool is_enddo; /* END DO */
  int ret;       /* 1: a RETURN statement, 2: a logical IF whose action is RETURN */
} opf_stmt;

/* f_look.c: the first line of the statement at code line li, lower case
   (without blanks in fixed form), after its label (*label, or -1); its
   length. */
size_t opf_stmt_text(const opf_rw *rw, size_t li, char *text, size_t size, long *label);
/* f_look.c: text's construct name `name:` (*name_len, 0 without one) and
   the offset of what follows it. */
size_t opf_construct_name(const char *text, size_t *name_len);
opf_stmt opf_stmt_at(const opf_rw *rw, size_t li);
/* f_unit.c: notes the name of a `PROGRAM name` statement starting at code
   line li, for the companion file. */
void opf_program_statement(opf_rw *rw, size_t li);
/* f_look.c: the last line of the DO loop whose DO statement is at li, or
   SIZE_MAX when its end is not found. */
size_t opf_loop_end(const opf_rw *rw, size_t li);
/* f_construct.c: a descriptor for the construct at lines [first..last]. */
int opf_add_descr(opf_rw *rw, const char *name, size_t first, size_t last);
/* f_loop.c (--loops): a code statement at lines [li..last], before it is
   copied (loop entries, exits before EXIT/CYCLE/RETURN/GOTO); after it
   is copied (exits of the loops it ends); an OpenMP directive was read
   (a DO right after it is its loop). */
void opf_loop_statement(opf_rw *rw, size_t li, size_t last);
void opf_loop_ended(opf_rw *rw, size_t last);
void opf_loop_directive_seen(opf_rw *rw);

/* f_rewrite.c */
/* The logical line number of physical line li, for messages. */
int opf_line_no(const opf_rw *rw, size_t li);
/* "file:line: error: ..." about physical line li, then the unit fails. */
#define opf_error(rw, li, ...)                                                                     \
  (op_diag((rw)->opt, "error", opf_line_no(rw, li), __VA_ARGS__), longjmp((rw)->fail, 1))
#define opf_warn(rw, li, ...) op_diag((rw)->opt, "warning", opf_line_no(rw, li), __VA_ARGS__)
/* Output reaches the start of physical line li (a `# N` mark first if due). */
void opf_sync(opf_rw *rw, size_t li);
/* Copies source up to offset off (a `# N` mark first if due). */
void opf_copy_to(opf_rw *rw, size_t off);
/* Drops source lines up to (not including) li: they were replaced. */
void opf_skip(opf_rw *rw, size_t li);
/* `call pomp_<unit>_<event>(d)` on its own line at the output position. */
void opf_call(opf_rw *rw, op_event ev, int d);
/* `call pomp_<unit>_<event>(d, pomp_task_<d>)`: an event of task construct
   d with the variable that holds the task's id (include/pomp.h). */
void opf_task_call(opf_rw *rw, op_event ev, int d);
/* A Fortran statement of its own line, indented as the inserted calls. */
void opf_statement(opf_rw *rw, const char *text);
/* `!$omp <text>` on its own line at the output position. */
void opf_directive(opf_rw *rw, const char *text);

/* f_lines.c */
void opf_split_lines(opf_rw *rw);
opf_line_class opf_classify(const opf_rw *rw, size_t li);
/* Reads the directive starting at line li (an initial FL_OMP line) with its
   continuation lines into rw->fd; errors are fatal. */
void opf_read_directive(opf_rw *rw, size_t li);
/* Sets rw->indent from line li. */
void opf_set_indent(opf_rw *rw, size_t li);
/* Where the comment of code bytes s[from..end) starts (or end); *quote
   carries an open character context from line to line (0: none). */
size_t opf_code_end(const char *s, size_t from, size_t end, char *quote);
/* Last line of the statement starting at code line li (continuations). */
size_t opf_stmt_last(const opf_rw *rw, size_t li);

/* f_names.c */
/* Reads the directive name and clauses of rw->fd (its clean text): sets
   end, words, wordv, nwords, dir and returns the construct.  Fixed form
   is blank-insensitive; free form rejects keywords run together where
   OpenMP does not allow it.  Errors are fatal. */
opf_construct opf_read_names(opf_rw *rw);
/* The name in the parentheses of rw->fd (critical(name)) into buf (lower
   case; fixed form: without blanks); returns its length. */
size_t opf_paren_name(const opf_rw *rw, char *buf, size_t size);
/* Frees rw->fd's buffers. */
void opf_dir_free(opf_dir *fd);

/* f_look.c */
/* The first line at or after li that is code or a directive, or nlines. */
size_t opf_next_significant(const opf_rw *rw, size_t li);
/* The last line of the DO loop whose DO statement starts at line li. */
size_t opf_loop_last(opf_rw *rw, size_t li, size_t dir_line);
/* Whether the statement at code line li returns: 0 no, 1 an unlabelled
   RETURN statement, 2 a labelled one or a logical IF's RETURN. */
int opf_return_at(const opf_rw *rw, size_t li);
/* Whether line li starts an OMP END directive named `words` ("do", ...). */
bool opf_is_end_directive(opf_rw *rw, size_t li, const char *words);

/* f_construct.c */
void opf_omp_directive(opf_rw *rw, size_t li);
/* Closes the constructs that end without END directive after line li. */
void opf_close_implicit(opf_rw *rw, size_t li);
/* Called at each statement line: the implicit first section. */
void opf_statement_seen(opf_rw *rw, size_t li);
/* `!$POMP INST BEGIN(name)` / `END(name)` at line li (name: source bytes). */
void opf_region_begin(opf_rw *rw, size_t li, const char *name, size_t len);
void opf_region_end(opf_rw *rw, size_t li, const char *name, size_t len);
void opf_region_altend(opf_rw *rw, size_t li, const char *name, size_t len);
/* A RETURN statement at code line li: user regions open around it end first. */
void opf_return(opf_rw *rw, size_t li);
/* Error for a construct still open at the end of the unit. */
void opf_check_closed(opf_rw *rw);

/* f_device.c */
/* Handles the directive in rw->fd if it opens or ends a device construct. */
bool opf_device_directive(opf_rw *rw);
/* Whether a device construct is open. */
bool opf_in_device(const opf_rw *rw);

/* f_unit.c */
void opf_companion(FILE *f, const opf_rw *rw);
const char *opf_event_fortran_name(op_event ev); /* "parallel_fork" */

#endif
