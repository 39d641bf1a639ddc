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
enum { CLOSE_SUPPRESS = 100, CLOSE_RETURN, CLOSE_LOOP };

/* A construct whose closing events are due at `end`. */
typedef struct {
  size_t end;
  int end_line;
  int kind; /* op_dir_kind or CLOSE_* */
  int descr;
  int descr2;      /* parallel master: the master half's descriptor */
  int line;        /* of the directive, for messages */
  int pp_level;    /* open conditionals when it began */
  int block_depth; /* sections: brace depth inside its block */
  bool barrier;    /* explicit barrier (nowait was added) */
  /* worksharing: nothing but its region's end follows it, so its barrier
     is the join's (Join_barrier_enter); parallel: its last construct
     reports the arrival at the join, so the region's end does not */
  bool join;
  /* parallel: its body is a `{` block, the brace depth outside it, and the
     end of the last code token before the directive */
  bool block_body;
  int open_depth;
  size_t code_before;
} opc_pending;

typedef struct {
  int depth_at_if, first_end_depth;
  bool done; /* an arm known to be true was taken: the rest is dead */
} opc_pp_frame;

typedef struct {
  int descr, line;
  size_t lambdas; /* C++ lambda bodies open when it began */
  size_t start;   /* offset of its begin directive */
} opc_user_region;

/* Inside user regions: a loop or switch statement (`break` inside it stays
   inside it), a `goto`, a label. */
typedef struct {
  size_t end;     /* offset after the statement */
  size_t regions; /* user regions open when it began */
  bool loop;      /* a loop (else switch: `continue` passes it) */
} opc_breakable;
typedef struct {
  size_t pos, name_start, name_end;
  int line;
  bool warned;
} opc_jump;

/* A loop statement open at the current position (--loops). */
typedef struct {
  size_t end; /* offset after the statement */
  int end_line;
  size_t do_tail; /* `do`: offset of its `while`, else 0 */
} opc_loop;

/* Where a structured block ends, and which cancel directives it holds. */
typedef struct {
  size_t end;
  int end_line;
  unsigned cancel;
} opc_body;

/* Where a directive stands: a `#pragma` line or a `_Pragma` operator. */
typedef struct {
  bool op;
  size_t start, end;
  int line, end_line;
  const char *text;  /* the directive text (raw line, or destringized) */
  size_t len, after; /* after: offset of the text after the sentinel */
} opc_site;

typedef struct {
  const opari_options *opt;
  const char *s;
  size_t n;
  opc_lexer lx;
  op_emit em;
  op_descr_table descr;
  opc_pending *pend;
  size_t npend, pend_cap;
  opc_pp_frame *pp;
  size_t npp, pp_cap;
  opc_user_region *user;
  size_t nuser, user_cap;
  opc_breakable *brk; /* loops and switches begun inside user regions */
  size_t nbrk, brk_cap;
  opc_jump *gotos, *labels; /* inside user regions (labels: name and position) */
  bool altend;              /* `altend` gave the innermost region its end: the next
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
  opc_tok prev, prev2; /* the previous code tokens */
  /* --loops (c_loop.c): loops open here, whether the last token was a
     #pragma (its loop belongs to it), a loop perfectly nested in such a
     loop (offset, or 0), the brace depth of a constexpr function body
     (-1: none) and whether `constexpr` was read since the last `;`/`{` */
  opc_loop *loops;
  size_t nloops, loops_cap;
  bool pragma_before, constexpr_seen;
  size_t loop_assoc;
  int noloop_depth;
  bool noinstrument, omp_h_seen, lock_warned;
  /* line marks (#line, and the preprocessor's `# N "file" flags`) */
  op_line_map map;
  bool in_system;   /* in a system header: nothing is instrumented */
  bool pomp_h_seen; /* pomp.h was entered (preprocessed input) */
  int *includes;    /* file indices of the marks entering included files */
  size_t nincludes, includes_cap;
  int suppress;   /* inside target/simd/... or declare target */
  int want_brace; /* pending sections construct waiting for its '{', or -1 */
  op_dir dir, look_dir;
  opc_pragma_op op, look_op;
  char *stack;
  size_t stack_cap;
  /* The last look-ahead: directives directly before a statement (a chain
     like `parallel` + `for`, or a thousand nested ones) all share the
     statement's end, so each is not scanned again (no quadratic time). */
  size_t chain_start, chain_code;
  size_t look_budget; /* tokens all look-aheads may still read */
  opc_body chain_body;
  char *buf; /* directive variants */
  size_t buf_len, buf_cap;
  char *app; /* clauses appended to a directive */
  size_t app_len, app_cap;
  op_span *bl[2]; /* blanked spans of the two halves of a combined directive */
  size_t nbl[2], bl_cap[2];
  /* the names of constructs passed through that were warned about: one
     warning per name and unit (a file with 200 `omp simd` gets one) */
  char **passed;
  size_t npassed, passed_cap;
  jmp_buf fail;
} opc_rw;

static inline bool opc_instrumenting(const opc_rw *rw) {
  return !rw->noinstrument && rw->suppress == 0 && !rw->in_system;
}

/* c_include.c: the line number physical line `phys` of the input has in
   its file (after line marks); a line mark for it in the output; a new
   descriptor for the construct at site, with its file and lines. */
int opc_rw_line(const opc_rw *rw, int phys);
void opc_rw_mark(opc_rw *rw, int phys);
int opc_rw_descr(opc_rw *rw, const char *name, const char *sub, size_t sub_len,
                 const opc_site *site);
/* c_include.c: a line mark directive; `#include <omp.h>`; an identifier
   that may be an `omp_*_lock` call. */
void opc_line_mark_directive(opc_rw *rw, opc_tok t);
void opc_declare_locks(opc_rw *rw, opc_tok t);
void opc_lock_call(opc_rw *rw, opc_tok t);

/* c_rewrite.c: diagnostics `file:line: error|warning: ...`; an error
   abandons the unit (longjmp to opari_c). */
__attribute__((format(printf, 3, 4))) _Noreturn void opc_error(opc_rw *rw, int line,
                                                               const char *fmt, ...);
__attribute__((format(printf, 3, 4))) void opc_warn(opc_rw *rw, int line, const char *fmt, ...);
/* c_rewrite.c: the end of the statement (or, with sequence, of the
   statements up to a `section`) that starts at `from`. */
opc_body opc_find_body(opc_rw *rw, const opc_site *site, const opc_lexer *from, bool sequence);
void opc_push_pending(opc_rw *rw, int kind, int descr, const opc_site *site, opc_body body,
                      bool barrier);

/* c_site.c: code before a directive goes on a line of its own, then
   `#line`; code after it likewise; _Pragma operators get it inline. */
size_t opc_line_start(const opc_rw *rw, size_t pos);
void opc_pre_begin(opc_rw *rw, const opc_site *site);
void opc_pre_end(opc_rw *rw, const opc_site *site);
void opc_post_begin(opc_rw *rw, const opc_site *site);
void opc_post_end(opc_rw *rw, const opc_site *site);
/* c_site.c: a directive with spans blanked and rw->app appended. */
void opc_variant_reset(opc_rw *rw);
void opc_variant_append(opc_rw *rw, const char *s, size_t n);
void opc_make_variant(opc_rw *rw, const opc_site *site, const op_span *blanks, size_t nblanks);
void opc_write_variant(opc_rw *rw, const opc_site *site);
void opc_put_variant(opc_rw *rw, const opc_site *site, const op_span *blanks, size_t nblanks);

/* c_user.c: POMP directives, user regions and the statements that leave
   them (return, break, continue, goto). */
void opc_inst_directive(opc_rw *rw, const opc_site *site);
void opc_user_region_word(opc_rw *rw, opc_tok t);
void opc_user_free(opc_rw *rw);

/* c_loop.c: a loop keyword (or constexpr) and a `;`/`{`/`}` token under
   --loops; whether directive text t[0..n) is a #pragma. */
void opc_loop_word(opc_rw *rw, opc_tok t);
void opc_loop_punct(opc_rw *rw, opc_tok t);
bool opc_is_pragma(const char *t, size_t n);

/* c_construct.c */
void opc_omp_directive(opc_rw *rw, const opc_site *site);
void opc_sections_block(opc_rw *rw, opc_tok brace);
void opc_close_pendings(opc_rw *rw, size_t pos);

#endif
