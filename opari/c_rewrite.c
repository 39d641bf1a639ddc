/*
 * c_rewrite.c -- the C/C++ front end.
 *
 * Streams the unit through the lexer and copies it unchanged, except at
 * OpenMP/POMP directives, OpenMP lock calls and (inside a user region)
 * `return` statements.  A construct with a body gets its opening events
 * on a line of their own before its directive (then `#line`), its begin
 * events on a line after it (then `#line`), and its closing events inline
 * right after the last token of its structured block, which a look-ahead
 * (c_stmt.c) finds when the directive is met.  Every instrumented
 * construct is wrapped in braces, so it stays one statement wherever it
 * stands (unbraced if/else/for bodies included).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "c_lex.h"
#include "c_pp.h"
#include "c_stmt.h"
#include "directive.h"
#include "emit.h"
#include "opari.h"
#include "pomp_util.h"
#include "unit.h"

/* How the events of one construct are placed around it. */
typedef struct {
  const char *descr;    /* descriptor name */
  unsigned disable;     /* DIS_* bit */
  const char *pre;      /* before the directive, opens a block */
  const char *post;     /* after the directive, opens a block */
  const char *end_post; /* closes the post block */
  const char *end_pre;  /* closes the pre block (for a stand-alone
                           directive: right after it) */
  bool barrier_inside;  /* explicit barrier inside the post block */
  bool standalone;      /* no structured block */
} Shape;

static const Shape shapes[] = {
    [OMP_PARALLEL] = {"parallel", DIS_PARALLEL, "Parallel_fork", "Parallel_begin",
                      "Parallel_end", "Parallel_join", true, false},
    [OMP_FOR] = {"for", DIS_FOR, "For_enter", NULL, NULL, "For_exit", false, false},
    [OMP_SECTIONS] = {"sections", DIS_SECTIONS, "Sections_enter", NULL, NULL,
                      "Sections_exit", false, false},
    [OMP_SECTION] = {"section", DIS_SECTIONS, NULL, "Section_begin", "Section_end", NULL,
                     false, false},
    [OMP_SINGLE] = {"single", DIS_SINGLE, "Single_enter", "Single_begin", "Single_end",
                    "Single_exit", false, false},
    [OMP_MASTER] = {"master", DIS_MASTER, NULL, "Master_begin", "Master_end", NULL, false,
                    false},
    [OMP_CRITICAL] = {"critical", DIS_CRITICAL, "Critical_enter", "Critical_begin",
                      "Critical_end", "Critical_exit", false, false},
    [OMP_ATOMIC] = {"atomic", DIS_ATOMIC, "Atomic_enter", NULL, NULL, "Atomic_exit", false,
                    false},
    [OMP_ORDERED] = {"ordered", DIS_ORDERED, "Ordered_enter", "Ordered_begin",
                     "Ordered_end", "Ordered_exit", false, false},
    [OMP_TASK] = {"task", DIS_TASK, "Task_create_begin", "Task_begin", "Task_end",
                  "Task_create_end", false, false},
    [OMP_BARRIER] = {"barrier", DIS_BARRIER, "Barrier_enter", NULL, NULL, "Barrier_exit",
                     false, true},
    [OMP_FLUSH] = {"flush", DIS_FLUSH, "Flush_enter", NULL, NULL, "Flush_exit", false, true},
    [OMP_TASKWAIT] = {"taskwait", DIS_TASKWAIT, "Taskwait_enter", NULL, NULL,
                      "Taskwait_exit", false, true},
};

/* Pending closings that are not constructs. */
enum { CLOSE_SUPPRESS = 100, CLOSE_RETURN };

/* A construct whose closing events are due at `end`. */
typedef struct {
  size_t end;
  int end_line;
  int kind; /* OmpKind or CLOSE_* */
  int descr;
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
} UserRegion;

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
  int depth; /* brace depth */
  bool noinstrument, omp_h_seen, lock_warned;
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
  Body chain_body;
  char *buf; /* directive variants */
  size_t buf_len, buf_cap;
  char *app; /* clauses appended to a directive */
  size_t app_len, app_cap;
  Span *bl[2]; /* blanked spans of the two halves of a combined directive */
  size_t nbl[2], bl_cap[2];
  jmp_buf fail;
} Rw;

/* "file:line: kind: message" on stderr, as compilers print them. */
static void diag(const Rw *rw, const char *kind, int line, const char *fmt, va_list ap) {
  if (rw->opt->quiet) return;
  fprintf(stderr, "%s:%d: %s: ", rw->opt->file_name, line, kind);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

__attribute__((format(printf, 3, 4))) static _Noreturn void rw_error(Rw *rw, int line,
                                                                     const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag(rw, "error", line, fmt, ap);
  va_end(ap);
  longjmp(rw->fail, 1);
}

__attribute__((format(printf, 3, 4))) static void rw_warn(Rw *rw, int line, const char *fmt,
                                                          ...) {
  va_list ap;
  va_start(ap, fmt);
  diag(rw, "warning", line, fmt, ap);
  va_end(ap);
}

static bool instrumenting(const Rw *rw) { return !rw->noinstrument && rw->suppress == 0; }

/* ---- placing text around a directive ---------------------------------- */

static size_t line_start(const Rw *rw, size_t pos) {
  while (pos > 0 && rw->s[pos - 1] != '\n') pos--;
  return pos;
}

static bool blank_prefix(const Rw *rw, const Site *site) {
  for (size_t i = line_start(rw, site->start); i < site->start; i++)
    if (rw->s[i] != ' ' && rw->s[i] != '\t') return false;
  return true;
}

/* Starts code that goes before the directive. */
static void pre_begin(Rw *rw, const Site *site) {
  if (site->op || !blank_prefix(rw, site)) {
    em_copy_to(&rw->em, site->start);
    if (!site->op) em_str(&rw->em, "\n");
  } else
    em_copy_to(&rw->em, line_start(rw, site->start));
}

static void pre_end(Rw *rw, const Site *site) {
  if (site->op) {
    em_str(&rw->em, " ");
    return;
  }
  em_str(&rw->em, "\n");
  em_line(&rw->em, site->line);
  if (!blank_prefix(rw, site)) em_pad(&rw->em, line_start(rw, site->start), site->start);
}

/* Starts code that goes after the directive. */
static void post_begin(Rw *rw, const Site *site) {
  em_copy_to(&rw->em, site->end);
  em_str(&rw->em, site->op ? " " : "\n");
}

static void post_end(Rw *rw, const Site *site) {
  if (site->op) {
    em_str(&rw->em, " ");
    return;
  }
  em_str(&rw->em, "\n");
  em_line(&rw->em, site->end_line + 1);
  if (site->end < rw->n && rw->s[site->end] == '\n') em_skip_to(&rw->em, site->end + 1);
}

/* ---- directive variants ---------------------------------------------- */

static void app_reset(Rw *rw) { rw->app_len = 0; }
static void app_add(Rw *rw, const char *s, size_t n) {
  pu_reserve((void **)&rw->app, &rw->app_cap, rw->app_len + n + 1, 1);
  memcpy(rw->app + rw->app_len, s, n);
  rw->app_len += n;
}

/* rw->buf = the directive text with `blanks` overwritten by blanks (line
   splices kept) and rw->app inserted after its last significant byte. */
static void make_variant(Rw *rw, const Site *site, const Span *blanks, size_t nblanks) {
  size_t len = site->len, ce = rw->dir.content_end;
  pu_reserve((void **)&rw->buf, &rw->buf_cap, len + rw->app_len + 1, 1);
  memcpy(rw->buf, site->text, ce);
  if (rw->app_len) memcpy(rw->buf + ce, rw->app, rw->app_len);
  memcpy(rw->buf + ce + rw->app_len, site->text + ce, len - ce);
  rw->buf_len = len + rw->app_len;
  for (size_t b = 0; b < nblanks; b++)
    for (size_t i = blanks[b].start; i < blanks[b].end && i < ce; i++) {
      char c = rw->buf[i];
      bool splice = c == '\\' && i + 1 < len && (rw->buf[i + 1] == '\n' || rw->buf[i + 1] == '\r');
      if (c != '\n' && c != '\r' && c != '\t' && !splice) rw->buf[i] = ' ';
    }
}

static void write_variant(Rw *rw, const Site *site) {
  if (site->op) {
    em_str(&rw->em, "_Pragma(\"");
    em_c_string(rw->em.f, rw->buf, rw->buf_len);
    em_str(&rw->em, "\")");
  } else
    em_mem(&rw->em, rw->buf, rw->buf_len);
}

/* Replaces the directive in the output by its variant. */
static void put_variant(Rw *rw, const Site *site, const Span *blanks, size_t nblanks) {
  make_variant(rw, site, blanks, nblanks);
  em_copy_to(&rw->em, site->start);
  write_variant(rw, site);
  em_skip_to(&rw->em, site->end);
}

/* ---- look-ahead -------------------------------------------------------- */

static Body find_body(Rw *rw, const Site *site, const CLexer *from, bool sequence) {
  static const Body none = {0, 0, 0};
  if (!sequence && from->pos > rw->chain_start && from->pos <= rw->chain_code &&
      rw->chain_body.end)
    return rw->chain_body;
  CStmt st;
  cstmt_init(&st, from, &rw->look_dir, &rw->look_op, &rw->stack, &rw->stack_cap);
  if (!(sequence ? cstmt_skip_sequence(&st) : cstmt_skip(&st)))
    rw_error(rw, site->line,
             "cannot find the end of the structured block of this directive: %s (line %d)",
             st.error, st.error_line);
  Body body = {st.end, st.end_line, st.cancel};
  rw->chain_body = none;
  if (!sequence) {
    rw->chain_start = from->pos;
    rw->chain_code = st.first_code;
    rw->chain_body = body;
  }
  return body;
}

static void push_pending(Rw *rw, int kind, int descr, const Site *site, Body body,
                         bool barrier) {
  Pending p = {.end = body.end, .end_line = body.end_line, .kind = kind, .descr = descr,
               .line = site->line, .pp_level = (int)rw->npp, .block_depth = -1,
               .barrier = barrier};
  PU_PUSH(rw->pend, rw->npend, rw->pend_cap, p);
}

/* ---- closing ------------------------------------------------------------ */

static void emit_barrier(Rw *rw, int d) {
  em_str(&rw->em, " {");
  em_call(&rw->em, "Barrier_enter", d);
  em_str(&rw->em, " _Pragma(\"omp barrier\")");
  em_call(&rw->em, "Barrier_exit", d);
  em_str(&rw->em, " }");
}

static void close_shape(Rw *rw, const Shape *sh, int d, bool barrier) {
  if (barrier && sh->barrier_inside) emit_barrier(rw, d);
  if (sh->end_post) {
    em_call(&rw->em, sh->end_post, d);
    em_str(&rw->em, " }");
  }
  if (barrier && !sh->barrier_inside) emit_barrier(rw, d);
  if (sh->end_pre) {
    em_call(&rw->em, sh->end_pre, d);
    em_str(&rw->em, " }");
  }
}

static void emit_close(Rw *rw, const Pending *p) {
  if (p->kind == CLOSE_SUPPRESS) {
    rw->suppress--;
    return;
  }
  if (p->kind == CLOSE_RETURN) {
    em_str(&rw->em, " }");
    return;
  }
  Descr *d = &rw->descr.v[p->descr];
  if (p->kind != OMP_SECTION) d->end_line1 = d->end_lineN = p->end_line;
  if (p->kind == OMP_PARALLEL_FOR || p->kind == OMP_PARALLEL_SECTIONS) {
    close_shape(rw, &shapes[p->kind == OMP_PARALLEL_FOR ? OMP_FOR : OMP_SECTIONS], p->descr,
                p->barrier);
    close_shape(rw, &shapes[OMP_PARALLEL], p->descr, false);
  } else
    close_shape(rw, &shapes[p->kind], p->descr, p->barrier);
}

/* Closes every construct whose block ended before `pos`. */
static void close_pendings(Rw *rw, size_t pos) {
  while (rw->npend && rw->pend[rw->npend - 1].end <= pos) {
    Pending p = rw->pend[--rw->npend];
    em_copy_to(&rw->em, p.end);
    emit_close(rw, &p);
  }
}

/* ---- OpenMP constructs ------------------------------------------------ */

static bool has_clause(const Rw *rw, const Site *site, const char *name) {
  return omp_dir_clause(&rw->dir, site->text, name) != NULL;
}

/* `shared(pomp_rd)` after a default clause: default(none) would reject the
   descriptor table, default(private/firstprivate) would privatise it. */
static void add_shared_table(Rw *rw, const Site *site) {
  if (has_clause(rw, site, "default")) app_add(rw, " shared(pomp_rd)", 16);
}

static Body body_after(Rw *rw, const Site *site) { return find_body(rw, site, &rw->lx, false); }

static void instrument(Rw *rw, const Site *site, OmpKind kind) {
  const Shape *sh = &shapes[kind];
  const char *t = site->text;
  Body body = {0};
  if (!sh->standalone) body = body_after(rw, site);
  const char *sub = "";
  size_t sub_len = 0;
  if (kind == OMP_CRITICAL && rw->dir.has_paren) {
    size_t a = dir_skip_gap(t, site->len, rw->dir.paren.start);
    sub = t + a;
    sub_len = dir_ident_end(t, site->len, a) - a;
  }
  int d = descr_add(&rw->descr, sh->descr, sub, sub_len, site->line, site->end_line);
  app_reset(rw);
  bool barrier = false;
  if (kind == OMP_PARALLEL || kind == OMP_TASK) add_shared_table(rw, site);
  if (kind == OMP_PARALLEL) barrier = true;
  if (kind == OMP_FOR || kind == OMP_SECTIONS || kind == OMP_SINGLE) {
    unsigned cancel = kind == OMP_FOR ? CANCEL_FOR : kind == OMP_SECTIONS ? CANCEL_SECTIONS : 0;
    barrier = !has_clause(rw, site, "nowait") && !has_clause(rw, site, "copyprivate") &&
              !(body.cancel & cancel);
    if (barrier) app_add(rw, " nowait", 7);
  }
  if (sh->pre) {
    pre_begin(rw, site);
    em_str(&rw->em, "{");
    em_call(&rw->em, sh->pre, d);
    pre_end(rw, site);
  }
  put_variant(rw, site, NULL, 0);
  if (sh->standalone) {
    post_begin(rw, site);
    em_call(&rw->em, sh->end_pre, d);
    em_str(&rw->em, " }");
    post_end(rw, site);
    return;
  }
  if (sh->post) {
    post_begin(rw, site);
    em_str(&rw->em, "{");
    em_call(&rw->em, sh->post, d);
    post_end(rw, site);
  }
  push_pending(rw, kind, d, site, body, barrier);
  if (kind == OMP_SECTIONS) rw->want_brace = (int)rw->npend - 1;
}

enum { TO_OUTER, TO_INNER, TO_UNKNOWN };

static bool name_in(const char *t, Span w, const char *const *list) {
  for (; *list; list++)
    if (span_is(t, w, *list)) return true;
  return false;
}

/* Which half of `parallel for|sections [simd]` a clause belongs to. */
static int clause_target(const char *t, size_t n, const OmpClause *c, bool simd) {
  static const char *const outer[] = {"num_threads", "default", "shared", "private",
                                      "firstprivate", "copyin", "proc_bind", "allocate",
                                      NULL};
  static const char *const inner[] = {"lastprivate", "schedule", "ordered", "collapse",
                                      "linear", "order", "safelen", "simdlen", "aligned",
                                      "nontemporal", "nowait", NULL};
  if (span_is(t, c->name, "if") && c->has_args) {
    size_t a = dir_skip_gap(t, n, c->args.start), e = dir_ident_end(t, n, a);
    size_t q = dir_skip_gap(t, n, e);
    bool modifier = e > a && q + 1 < n && t[q] == ':' && t[q + 1] != ':';
    return modifier && e - a == 4 && memcmp(t + a, "simd", 4) == 0 ? TO_INNER : TO_OUTER;
  }
  if (span_is(t, c->name, "reduction")) {
    size_t a = dir_skip_gap(t, n, c->args.start);
    return simd || dir_word_at(t, n, a, "inscan") ? TO_INNER : TO_OUTER;
  }
  if (name_in(t, c->name, outer)) return TO_OUTER;
  if (name_in(t, c->name, inner)) return TO_INNER;
  return TO_UNKNOWN;
}

/* The variables of a list clause moved to the inner half: the text after
   its last top-level `:` (not `::`), array sections dropped. */
static void add_moved_vars(Rw *rw, const char *t, const OmpClause *c) {
  size_t from = c->args.start;
  int depth = 0;
  for (size_t i = c->args.start; i < c->args.end; i++) {
    char ch = t[i];
    if (ch == '(' || ch == '[') depth++;
    else if (ch == ')' || ch == ']') depth--;
    else if (ch == ':' && depth == 0) {
      if (i + 1 < c->args.end && t[i + 1] == ':') i++;
      else if (i == 0 || t[i - 1] != ':') from = i + 1;
    }
  }
  app_add(rw, ", ", 2);
  depth = 0;
  for (size_t i = from; i < c->args.end; i++) {
    if (t[i] == '[') depth++;
    if (!depth && t[i] != '\n' && t[i] != '\\') app_add(rw, t + i, 1);
    if (t[i] == ']') depth--;
  }
}

static void push_blank(Rw *rw, int half, Span s) {
  PU_PUSH(rw->bl[half], rw->nbl[half], rw->bl_cap[half], s);
}

/* parallel for / parallel sections: split in place, column preserving,
   into `parallel <its clauses>` and `for|sections <its clauses> nowait`. */
static void instrument_combined(Rw *rw, const Site *site, OmpKind kind) {
  const OmpDir *dir = &rw->dir;
  const char *t = site->text;
  OmpKind inner = kind == OMP_PARALLEL_FOR ? OMP_FOR : OMP_SECTIONS;
  rw->nbl[0] = rw->nbl[1] = 0;
  push_blank(rw, 1, dir->words[0]);
  for (int i = 1; i < dir->nwords; i++) push_blank(rw, 0, dir->words[i]);
  bool has_default = false, moved = false;
  app_reset(rw);
  for (size_t i = 0; i < dir->nclauses; i++) {
    const OmpClause *c = &dir->clauses[i];
    int to = clause_target(t, site->len, c, dir->inner_simd);
    if (to == TO_UNKNOWN) {
      rw_warn(rw, site->line,
              "clause '%.*s' cannot be assigned to one half of a combined construct: "
              "directive passed through uninstrumented",
              (int)(c->name.end - c->name.start), t + c->name.start);
      return;
    }
    push_blank(rw, to == TO_OUTER ? 1 : 0, c->whole);
    if (span_is(t, c->name, "default")) has_default = true;
    if (to == TO_INNER && c->has_args &&
        (span_is(t, c->name, "lastprivate") || span_is(t, c->name, "reduction"))) {
      if (!moved) app_add(rw, " shared(pomp_rd", 15);
      moved = true;
      add_moved_vars(rw, t, c);
    }
  }
  if (!has_default) app_reset(rw);
  else if (moved) app_add(rw, ")", 1);
  else app_add(rw, " shared(pomp_rd)", 16);
  Body body = body_after(rw, site);
  unsigned cancel = inner == OMP_FOR ? CANCEL_FOR : CANCEL_SECTIONS;
  bool barrier = !has_clause(rw, site, "nowait") && !(body.cancel & cancel);
  int d = descr_add(&rw->descr, kind == OMP_PARALLEL_FOR ? "parallelfor" : "parallelsections",
                    "", 0, site->line, site->end_line);
  pre_begin(rw, site);
  em_str(&rw->em, "{");
  em_call(&rw->em, "Parallel_fork", d);
  pre_end(rw, site);
  put_variant(rw, site, rw->bl[0], rw->nbl[0]);
  post_begin(rw, site);
  em_str(&rw->em, "{");
  em_call(&rw->em, "Parallel_begin", d);
  em_str(&rw->em, " {");
  em_call(&rw->em, shapes[inner].pre, d);
  if (site->op) em_str(&rw->em, " ");
  else {
    em_str(&rw->em, "\n");
    em_line(&rw->em, site->line);
    em_pad(&rw->em, line_start(rw, site->start), site->start);
  }
  app_reset(rw);
  if (barrier) app_add(rw, " nowait", 7);
  make_variant(rw, site, rw->bl[1], rw->nbl[1]);
  write_variant(rw, site);
  post_end(rw, site);
  push_pending(rw, kind, d, site, body, barrier);
  if (kind == OMP_PARALLEL_SECTIONS) rw->want_brace = (int)rw->npend - 1;
}

static Pending *enclosing_sections(Rw *rw) {
  if (!rw->npend) return NULL;
  Pending *p = &rw->pend[rw->npend - 1];
  bool sections = p->kind == OMP_SECTIONS || p->kind == OMP_PARALLEL_SECTIONS;
  return sections && p->block_depth == rw->depth ? p : NULL;
}

static void section(Rw *rw, const Site *site) {
  Pending *sections = enclosing_sections(rw);
  if (!sections) return; /* its sections construct is not instrumented */
  int d = sections->descr;
  Body body = find_body(rw, site, &rw->lx, true);
  rw->descr.v[d].num_sections++;
  post_begin(rw, site);
  em_str(&rw->em, "{");
  em_call(&rw->em, "Section_begin", d);
  post_end(rw, site);
  push_pending(rw, OMP_SECTION, d, site, body, false);
}

/* The `{` of an instrumented sections construct: statements before its
   first `section` directive form an implicit first section. */
static void sections_block(Rw *rw, CTok brace) {
  Pending *p = &rw->pend[rw->want_brace];
  rw->want_brace = -1;
  if (!ctok_is(&rw->lx, brace, '{'))
    rw_error(rw, brace.line, "a sections construct must be followed by '{'");
  p->block_depth = rw->depth;
  Site site = {.line = brace.line};
  Body body = find_body(rw, &site, &rw->lx, true);
  if (body.end == brace.end) return;
  int d = p->descr;
  rw->descr.v[d].num_sections++;
  em_copy_to(&rw->em, brace.end);
  em_str(&rw->em, " {");
  em_call(&rw->em, "Section_begin", d);
  push_pending(rw, OMP_SECTION, d, &site, body, false);
}

static void pass_warning(Rw *rw, const Site *site, const char *what) {
  char name[96];
  omp_dir_name(&rw->dir, site->text, name, sizeof name);
  rw_warn(rw, site->line, "'omp %s' is not instrumented: %s", name, what);
}

static void omp_directive(Rw *rw, const Site *site) {
  OmpDir *dir = &rw->dir;
  bool parsed = omp_dir_parse(dir, site->text, site->len, site->after);
  OmpKind kind = dir->kind;
  if (kind == OMP_DECLARE_TARGET_BEGIN) {
    rw->suppress++;
    return;
  }
  if (kind == OMP_DECLARE_TARGET_END) {
    if (rw->suppress) rw->suppress--;
    return;
  }
  if (!instrumenting(rw)) return;
  if (!parsed) {
    if (kind == OMP_UNKNOWN || kind == OMP_PASS || kind == OMP_PASS_WARN ||
        kind == OMP_PASS_SUPPRESS || kind == OMP_CANCEL)
      return;
    rw_error(rw, site->line, "%s", dir->error);
  }
  switch (kind) {
  case OMP_UNKNOWN: {
    char name[96];
    omp_dir_name(dir, site->text, name, sizeof name);
    rw_warn(rw, site->line, "unknown OpenMP directive '%s' passed through unchanged", name);
    return;
  }
  case OMP_PASS:
  case OMP_CANCEL:
  case OMP_DECLARE_TARGET_BEGIN:
  case OMP_DECLARE_TARGET_END:
    return;
  case OMP_PASS_WARN:
    pass_warning(rw, site, "passed through unchanged (constructs inside it are instrumented)");
    return;
  case OMP_PASS_SUPPRESS: {
    pass_warning(rw, site, "passed through unchanged with everything inside it");
    push_pending(rw, CLOSE_SUPPRESS, -1, site, body_after(rw, site), false);
    rw->suppress++;
    return;
  }
  case OMP_PARALLEL_FOR:
  case OMP_PARALLEL_SECTIONS: {
    unsigned inner = kind == OMP_PARALLEL_FOR ? DIS_FOR : DIS_SECTIONS;
    if (!(rw->opt->disabled & (DIS_PARALLEL | inner))) instrument_combined(rw, site, kind);
    return;
  }
  case OMP_SECTION:
    section(rw, site);
    return;
  case OMP_ORDERED:
    if (has_clause(rw, site, "depend") || has_clause(rw, site, "doacross")) return;
    break;
  default:
    break;
  }
  if (!(rw->opt->disabled & shapes[kind].disable)) instrument(rw, site, kind);
}

/* ---- POMP directives, user regions, locks ------------------------------ */

/* Replaces a POMP directive by `code` (and event `event` of descriptor d),
   keeping the line count. */
static void replace_directive(Rw *rw, const Site *site, const char *code, const char *event,
                              int d) {
  em_copy_to(&rw->em, site->start);
  em_str(&rw->em, code);
  if (event) em_call(&rw->em, event, d);
  if (!site->op)
    for (int l = site->line; l < site->end_line; l++) em_str(&rw->em, "\n");
  em_skip_to(&rw->em, site->end);
}

static void pomp_directive(Rw *rw, const Site *site) {
  Span name = {0, 0};
  PompKind k = pomp_dir_parse(site->text, site->len, site->after, &name);
  if (k == POMP_INSTRUMENT) {
    rw->noinstrument = false;
    replace_directive(rw, site, "", NULL, 0);
    return;
  }
  if (!instrumenting(rw)) return;
  const char *t = site->text;
  switch (k) {
  case POMP_BAD:
    rw_error(rw, site->line,
             "malformed POMP directive (expected 'inst init|finalize|on|off|begin(name)|"
             "end(name)', 'noinstrument' or 'instrument')");
  case POMP_NOINSTRUMENT:
    rw->noinstrument = true;
    replace_directive(rw, site, "", NULL, 0);
    return;
  case POMP_INIT: replace_directive(rw, site, "POMP_Init();", NULL, 0); return;
  case POMP_FINALIZE: replace_directive(rw, site, "POMP_Finalize();", NULL, 0); return;
  case POMP_ON: replace_directive(rw, site, "POMP_On();", NULL, 0); return;
  case POMP_OFF: replace_directive(rw, site, "POMP_Off();", NULL, 0); return;
  case POMP_BEGIN: {
    if (rw->opt->disabled & DIS_REGION) break;
    int d = descr_add(&rw->descr, "region", t + name.start, name.end - name.start, site->line,
                      site->end_line);
    UserRegion u = {d, site->line};
    PU_PUSH(rw->user, rw->nuser, rw->user_cap, u);
    replace_directive(rw, site, "", "Begin", d);
    return;
  }
  case POMP_END: {
    if (rw->opt->disabled & DIS_REGION) break;
    int len = (int)(name.end - name.start);
    if (!rw->nuser)
      rw_error(rw, site->line, "'end(%.*s)' without a matching 'begin(%.*s)'", len,
               t + name.start, len, t + name.start);
    Descr *d = &rw->descr.v[rw->user[rw->nuser - 1].descr];
    if (strlen(d->sub_name) != (size_t)len || memcmp(d->sub_name, t + name.start, len) != 0)
      rw_error(rw, site->line, "'end(%.*s)' does not match the open region '%s' (line %d)",
               len, t + name.start, d->sub_name, d->begin_line1);
    d->end_line1 = site->line;
    d->end_lineN = site->end_line;
    replace_directive(rw, site, "", "End", rw->user[--rw->nuser].descr);
    return;
  }
  case POMP_INSTRUMENT:
    break;
  }
  replace_directive(rw, site, "", NULL, 0); /* a disabled user region */
}

/* `return` inside user regions: end them first ({ POMP_End(..); return x; }). */
static void early_return(Rw *rw, CTok t) {
  CLexer at = rw->lx;
  at.pos = t.start;
  at.line = t.line;
  Site site = {.line = t.line};
  Body body = find_body(rw, &site, &at, false);
  em_copy_to(&rw->em, t.start);
  em_str(&rw->em, "{");
  for (size_t i = rw->nuser; i-- > 0;) em_call(&rw->em, "End", rw->user[i].descr);
  em_str(&rw->em, " ");
  push_pending(rw, CLOSE_RETURN, -1, &site, body, false);
}

static const char *const lock_calls[][2] = {
    {"omp_init_lock", "POMP_Init_lock"},         {"omp_destroy_lock", "POMP_Destroy_lock"},
    {"omp_set_lock", "POMP_Set_lock"},           {"omp_unset_lock", "POMP_Unset_lock"},
    {"omp_test_lock", "POMP_Test_lock"},         {"omp_init_nest_lock", "POMP_Init_nest_lock"},
    {"omp_destroy_nest_lock", "POMP_Destroy_nest_lock"},
    {"omp_set_nest_lock", "POMP_Set_nest_lock"}, {"omp_unset_nest_lock", "POMP_Unset_nest_lock"},
    {"omp_test_nest_lock", "POMP_Test_nest_lock"}};

static const char lock_declarations[] =
    "#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
    "void POMP_Init_lock(omp_lock_t *), POMP_Destroy_lock(omp_lock_t *), "
    "POMP_Set_lock(omp_lock_t *), POMP_Unset_lock(omp_lock_t *), "
    "POMP_Init_nest_lock(omp_nest_lock_t *), POMP_Destroy_nest_lock(omp_nest_lock_t *), "
    "POMP_Set_nest_lock(omp_nest_lock_t *), POMP_Unset_nest_lock(omp_nest_lock_t *);\n"
    "int POMP_Test_lock(omp_lock_t *), POMP_Test_nest_lock(omp_nest_lock_t *);\n"
    "#ifdef __cplusplus\n}\n#endif\n";

/* After `#include <omp.h>` at file scope: the POMP lock functions need
   omp_lock_t, so they are declared here rather than in the prelude. */
static void declare_locks(Rw *rw, CTok t) {
  if (rw->depth != 0 || !instrumenting(rw) || (rw->opt->disabled & DIS_LOCKS)) return;
  em_copy_to(&rw->em, t.end);
  em_str(&rw->em, "\n");
  em_str(&rw->em, lock_declarations);
  em_line(&rw->em, t.end_line + 1);
  if (t.end < rw->n && rw->s[t.end] == '\n') em_skip_to(&rw->em, t.end + 1);
  rw->omp_h_seen = true;
}

static void lock_call(Rw *rw, CTok t) {
  size_t len = t.end - t.start;
  const char *w = rw->s + t.start;
  for (size_t i = 0; i < sizeof lock_calls / sizeof *lock_calls; i++) {
    if (strlen(lock_calls[i][0]) != len || memcmp(w, lock_calls[i][0], len) != 0) continue;
    if (!ctok_is(&rw->lx, clex_peek(&rw->lx), '(')) return;
    if (!rw->omp_h_seen) {
      if (!rw->lock_warned)
        rw_warn(rw, t.line, "'%s' is used before any '#include <omp.h>' in this file: "
                            "lock calls are not instrumented", lock_calls[i][0]);
      rw->lock_warned = true;
      return;
    }
    em_copy_to(&rw->em, t.start);
    em_str(&rw->em, lock_calls[i][1]);
    em_skip_to(&rw->em, t.end);
    return;
  }
}

/* ---- preprocessor structure --------------------------------------------- */

/* A construct begun inside the conditional arm that ends here cannot be
   closed consistently in every arm. */
static void check_arm_end(Rw *rw, CTok t) {
  if (rw->npend && rw->pend[rw->npend - 1].pp_level >= (int)rw->npp && rw->npp)
    rw_error(rw, t.line,
             "the OpenMP construct at line %d is not closed before this conditional "
             "directive; move the #if/#else/#endif outside the construct",
             rw->pend[rw->npend - 1].line);
}

/* Skips a dead arm (it is copied verbatim, never instrumented). */
static void dead_arm(Rw *rw) {
  PPCond cond = COND_UNKNOWN;
  PPKind k = pp_skip_arm(&rw->lx, true, &cond);
  if (k == PP_ENDIF || k == PP_OTHER) rw->npp--;
  else rw->pp[rw->npp - 1].done = k == PP_ELIF && cond == COND_TRUE;
}

static void conditional(Rw *rw, CTok t, PPKind k, PPCond cond) {
  if (k == PP_IF) {
    PPFrame f = {rw->depth, -1, cond == COND_TRUE};
    PU_PUSH(rw->pp, rw->npp, rw->pp_cap, f);
    if (cond == COND_FALSE) dead_arm(rw);
    return;
  }
  if (!rw->npp) return; /* unbalanced: the compiler will say so */
  check_arm_end(rw, t);
  PPFrame *f = &rw->pp[rw->npp - 1];
  if (k == PP_ENDIF) {
    if (f->first_end_depth >= 0) rw->depth = f->first_end_depth;
    rw->npp--;
    return;
  }
  if (f->first_end_depth < 0) f->first_end_depth = rw->depth;
  rw->depth = f->depth_at_if;
  if (f->done) {
    pp_skip_arm(&rw->lx, false, &cond);
    rw->depth = f->first_end_depth;
    rw->npp--;
  } else if (k == PP_ELIF && cond == COND_FALSE)
    dead_arm(rw);
  else if (k == PP_ELIF && cond == COND_TRUE)
    f->done = true;
}

static void directive(Rw *rw, CTok t) {
  PPCond cond;
  size_t after;
  PPKind k = pp_classify(rw->s + t.start, t.end - t.start, &cond, &after);
  Site site = {.op = false, .start = t.start, .end = t.end, .line = t.line,
               .end_line = t.end_line, .text = rw->s + t.start, .len = t.end - t.start,
               .after = after};
  switch (k) {
  case PP_IF:
  case PP_ELIF:
  case PP_ELSE:
  case PP_ENDIF: conditional(rw, t, k, cond); break;
  case PP_INCLUDE_OMP: declare_locks(rw, t); break;
  case PP_OMP: omp_directive(rw, &site); break;
  case PP_POMP: pomp_directive(rw, &site); break;
  default: break;
  }
}

static void pragma_operator(Rw *rw, CTok t) {
  if (!pp_pragma_operator(&rw->lx, &rw->op)) return;
  size_t after;
  PPKind family = pp_pragma_text_family(rw->op.buf, rw->op.len, &after);
  Site site = {.op = true, .start = t.start, .end = rw->op.end, .line = t.line,
               .end_line = rw->op.end_line, .text = rw->op.buf, .len = rw->op.len,
               .after = after};
  if (family == PP_OMP) omp_directive(rw, &site);
  else if (family == PP_POMP) pomp_directive(rw, &site);
}

static void identifier(Rw *rw, CTok t) {
  const char *w = rw->s + t.start;
  size_t len = t.end - t.start;
  if (len == 7 && memcmp(w, "_Pragma", 7) == 0) pragma_operator(rw, t);
  else if (!instrumenting(rw)) return;
  else if (len == 6 && rw->nuser && memcmp(w, "return", 6) == 0) early_return(rw, t);
  else if (len >= 12 && w[0] == 'o' && w[3] == '_' && !(rw->opt->disabled & DIS_LOCKS))
    lock_call(rw, t);
}

static void run(Rw *rw) {
  for (;;) {
    CTok t = clex_next(&rw->lx);
    close_pendings(rw, t.start);
    if (t.kind == CT_EOF) break;
    if (t.kind == CT_PUNCT && rw->s[t.start] == '{') rw->depth++;
    if (t.kind == CT_PUNCT && rw->s[t.start] == '}') rw->depth--;
    if (rw->want_brace >= 0) sections_block(rw, t);
    if (t.kind == CT_DIRECTIVE) directive(rw, t);
    else if (t.kind == CT_IDENT) identifier(rw, t);
  }
  if (rw->npend) {
    const Pending *p = &rw->pend[rw->npend - 1];
    rw_error(rw, p->line, "end of file inside this construct");
  }
  if (rw->nuser) {
    const UserRegion *u = &rw->user[rw->nuser - 1];
    rw_error(rw, u->line, "user region '%s' is never ended", rw->descr.v[u->descr].sub_name);
  }
  em_copy_to(&rw->em, rw->n);
  if (rw->n && rw->s[rw->n - 1] != '\n') em_str(&rw->em, "\n");
}

static void rw_free(Rw *rw) {
  descr_free(&rw->descr);
  free(rw->pend);
  free(rw->pp);
  free(rw->user);
  omp_dir_free(&rw->dir);
  omp_dir_free(&rw->look_dir);
  free(rw->op.buf);
  free(rw->look_op.buf);
  free(rw->stack);
  free(rw->buf);
  free(rw->app);
  free(rw->bl[0]);
  free(rw->bl[1]);
}

bool opari_c(const char *src, size_t n, FILE *out, const OpariOptions *opt) {
  Rw *rw = pu_calloc(1, sizeof *rw);
  rw->opt = opt;
  rw->s = src;
  rw->n = n;
  rw->want_brace = -1;
  clex_init(&rw->lx, src, n, opt->cxx);
  rw->em = (Emit){.f = out, .src = src, .line_name = opt->line_name, .nosrc = opt->nosrc};
  volatile bool ok = false;
  if (setjmp(rw->fail) == 0) {
    long count_pos;
    unit_prelude(out, opt->line_name, opt->nosrc, &count_pos);
    run(rw);
    unit_epilogue(out, &rw->descr, opt->file_name, count_pos);
    ok = true;
  }
  rw_free(rw);
  free(rw);
  return ok;
}
