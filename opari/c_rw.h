/*
 * c_rw.h -- internals shared by the files of the C/C++ rewriter:
 * c_rewrite.c (the driver: lexing loop, preprocessor structure, POMP
 * directives, locks), c_construct.c (OpenMP constructs and their closing
 * events) and c_site.c (text around one directive, directive variants).
 */
#ifndef OPARI_C_RW_H
#define OPARI_C_RW_H

#include <setjmp.h>

#include "c_lex.h"
#include "c_pp.h"
#include "c_stmt.h"
#include "directive.h"
#include "emit.h"
#include "mark.h"
#include "opari.h"
#include "unit.h"

/* Pending closings that are not constructs. */
enum { CLOSE_SUPPRESS = 100, CLOSE_RETURN };

/* A construct whose closing events are due at `end`. */
typedef struct {
  size_t end;
  int end_line;
  int kind; /* OmpKind or CLOSE_* */
  int descr;
  int descr2;      /* parallel master: the master half's descriptor */
  int line;        /* of the directive, for messages */
  int pp_level;    /* open conditionals when it began */
  int block_depth; /* sections: brace depth inside its block */
  bool barrier;    /* explicit barrier (nowait was added) */
} Pending;

typedef struct {
  int depth_at_if, first_end_depth;
  bool done; /* an arm known to be true was taken: the rest is dead */
} PPFrame;

typedef struct {
  int descr, line;
  size_t lambdas; /* C++ lambda bodies open when it began */
  size_t start;   /* offset of its begin directive */
} UserRegion;

/* Inside user regions: a loop or switch statement (`break` inside it stays
   inside it), a `goto`, a label. */
typedef struct {
  size_t end;     /* offset after the statement */
  size_t regions; /* user regions open when it began */
  bool loop;      /* a loop (else switch: `continue` passes it) */
} Breakable;
typedef struct {
  size_t pos, name_start, name_end;
  int line;
  bool warned;
} Jump;

/* Where a structured block ends, and which cancel directives it holds. */
typedef struct {
  size_t end;
  int end_line;
  unsigned cancel;
} Body;

/* Where a directive stands: a `#pragma` line or a `_Pragma` operator. */
typedef struct {
  bool op;
  size_t start, end;
  int line, end_line;
  const char *text; /* the directive text (raw line, or destringized) */
  size_t len, after; /* after: offset of the text after the sentinel */
} Site;

typedef struct {
  const OpariOptions *opt;
  const char *s;
  size_t n;
  CLexer lx;
  Emit em;
  DescrTable descr;
  Pending *pend;
  size_t npend, pend_cap;
  PPFrame *pp;
  size_t npp, pp_cap;
  UserRegion *user;
  size_t nuser, user_cap;
  Breakable *brk; /* loops and switches begun inside user regions */
  size_t nbrk, brk_cap;
  Jump *gotos, *labels; /* inside user regions (labels: name and position) */
  bool altend; /* `altend` gave the innermost region its end: the next
                  jump statement leaves it with no further event or warning */
  size_t ngotos, gotos_cap, nlabels, labels_cap;
  int depth; /* brace depth */
  /* C++ lambda bodies, so that a `return` in one is not taken for a return
     from a user region: brace depths of the open bodies, and for each open
     `(` whether it follows `]` (a lambda's parameter list) */
  int *lambda;
  size_t nlambda, lambda_cap;
  bool *paren;
  size_t nparen, paren_cap;
  bool closed_lambda_params;
  /* brace depths of open `namespace X {` and `extern "C" {` blocks: lock
     prototypes may still go there, as at file scope */
  int *scope;
  size_t nscope, scope_cap;
  CTok prev, prev2; /* the previous code tokens */
  bool noinstrument, omp_h_seen, lock_warned;
  /* line marks (#line, and the preprocessor's `# N "file" flags`) */
  LineMap map;
  bool in_system;   /* in a system header: nothing is instrumented */
  bool pomp_h_seen; /* pomp.h was entered (preprocessed input) */
  int *includes;    /* file indices of the marks entering included files */
  size_t nincludes, includes_cap;
  int suppress;   /* inside target/simd/... or declare target */
  int want_brace; /* pending sections construct waiting for its '{', or -1 */
  OmpDir dir, look_dir;
  PragmaOp op, look_op;
  char *stack;
  size_t stack_cap;
  /* The last look-ahead: directives directly before a statement (a chain
     like `parallel` + `for`, or a thousand nested ones) all share the
     statement's end, so each is not scanned again (no quadratic time). */
  size_t chain_start, chain_code;
  size_t look_budget; /* tokens all look-aheads may still read */
  Body chain_body;
  char *buf; /* directive variants */
  size_t buf_len, buf_cap;
  char *app; /* clauses appended to a directive */
  size_t app_len, app_cap;
  Span *bl[2]; /* blanked spans of the two halves of a combined directive */
  size_t nbl[2], bl_cap[2];
  jmp_buf fail;
} Rw;

static inline bool instrumenting(const Rw *rw) {
  return !rw->noinstrument && rw->suppress == 0 && !rw->in_system;
}

/* c_include.c: the line number physical line `phys` of the input has in
   its file (after line marks); a line mark for it in the output; a new
   descriptor for the construct at site, with its file and lines. */
int rw_line(const Rw *rw, int phys);
void rw_mark(Rw *rw, int phys);
int rw_descr(Rw *rw, const char *name, const char *sub, size_t sub_len, const Site *site);
/* c_include.c: a line mark directive; `#include <omp.h>`; an identifier
   that may be an `omp_*_lock` call. */
void line_mark(Rw *rw, CTok t);
void declare_locks(Rw *rw, CTok t);
void lock_call(Rw *rw, CTok t);

/* c_rewrite.c: diagnostics `file:line: error|warning: ...`; an error
   abandons the unit (longjmp to opari_c). */
__attribute__((format(printf, 3, 4))) _Noreturn void rw_error(Rw *rw, int line,
                                                              const char *fmt, ...);
__attribute__((format(printf, 3, 4))) void rw_warn(Rw *rw, int line, const char *fmt, ...);
/* c_rewrite.c: the end of the statement (or, with sequence, of the
   statements up to a `section`) that starts at `from`. */
Body find_body(Rw *rw, const Site *site, const CLexer *from, bool sequence);
void push_pending(Rw *rw, int kind, int descr, const Site *site, Body body, bool barrier);

/* c_site.c: code before a directive goes on a line of its own, then
   `#line`; code after it likewise; _Pragma operators get it inline. */
size_t line_start(const Rw *rw, size_t pos);
void pre_begin(Rw *rw, const Site *site);
void pre_end(Rw *rw, const Site *site);
void post_begin(Rw *rw, const Site *site);
void post_end(Rw *rw, const Site *site);
/* c_site.c: a directive with spans blanked and rw->app appended. */
void app_reset(Rw *rw);
void app_add(Rw *rw, const char *s, size_t n);
void make_variant(Rw *rw, const Site *site, const Span *blanks, size_t nblanks);
void write_variant(Rw *rw, const Site *site);
void put_variant(Rw *rw, const Site *site, const Span *blanks, size_t nblanks);

/* c_user.c: POMP directives, user regions and the statements that leave
   them (return, break, continue, goto). */
void pomp_directive(Rw *rw, const Site *site);
void user_region_word(Rw *rw, CTok t);
void user_free(Rw *rw);

/* c_construct.c */
void omp_directive(Rw *rw, const Site *site);
void sections_block(Rw *rw, CTok brace);
void close_pendings(Rw *rw, size_t pos);

#endif
