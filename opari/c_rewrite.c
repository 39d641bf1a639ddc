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
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "c_rw.h"
#include "diag.h"
#include "pomp_util.h"

static void diag(const Rw *rw, const char *kind, int line, const char *fmt, va_list ap) {
  opari_vdiag(rw->opt, kind, line, fmt, ap);
}

_Noreturn void rw_error(Rw *rw, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag(rw, "error", line, fmt, ap);
  va_end(ap);
  longjmp(rw->fail, 1);
}

void rw_warn(Rw *rw, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag(rw, "warning", line, fmt, ap);
  va_end(ap);
}

/* ---- look-ahead -------------------------------------------------------- */

Body find_body(Rw *rw, const Site *site, const CLexer *from, bool sequence) {
  static const Body none = {0, 0, 0};
  if (!sequence && from->pos > rw->chain_start && from->pos <= rw->chain_code &&
      rw->chain_body.end)
    return rw->chain_body;
  CStmt st;
  cstmt_init(&st, from, &rw->look_dir, &rw->look_op, &rw->stack, &rw->stack_cap);
  st.budget = &rw->look_budget;
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

void push_pending(Rw *rw, int kind, int descr, const Site *site, Body body,
                         bool barrier) {
  Pending p = {.end = body.end, .end_line = body.end_line, .kind = kind, .descr = descr,
               .line = site->line, .pp_level = (int)rw->npp, .block_depth = -1,
               .barrier = barrier};
  PU_PUSH(rw->pend, rw->npend, rw->pend_cap, p);
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
    UserRegion u = {d, site->line, rw->nlambda};
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
  if (rw->nlambda != rw->user[rw->nuser - 1].lambdas) return; /* returns from a lambda */
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

/* After `#include <omp.h>` at file or namespace scope: the POMP lock functions need
   omp_lock_t, so they are declared here rather than in the prelude. */
static void declare_locks(Rw *rw, CTok t) {
  if (rw->depth != (int)rw->nscope || !instrumenting(rw) || (rw->opt->disabled & DIS_LOCKS))
    return;
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

static bool punct(const Rw *rw, CTok t, char c) { return ctok_is(&rw->lx, t, c); }

/* C++ braces that matter: lambda bodies (a `{` after `]`, after a
   parameter list that follows `]`, or after `mutable`/`noexcept`) and
   namespace or extern "C" blocks. */
static void track_cxx_braces(Rw *rw, CTok t) {
  bool after_bracket = punct(rw, rw->prev, ']');
  if (punct(rw, t, '(')) {
    PU_PUSH(rw->paren, rw->nparen, rw->paren_cap, after_bracket);
  } else if (punct(rw, t, ')')) {
    rw->closed_lambda_params = rw->nparen && rw->paren[--rw->nparen];
  } else if (punct(rw, t, '{')) {
    const CLexer *lx = &rw->lx;
    if (after_bracket || (punct(rw, rw->prev, ')') && rw->closed_lambda_params) ||
        ctok_word(lx, rw->prev, "mutable") || ctok_word(lx, rw->prev, "noexcept"))
      PU_PUSH(rw->lambda, rw->nlambda, rw->lambda_cap, rw->depth + 1);
    else if (rw->prev.kind == CT_STRING || ctok_word(lx, rw->prev, "namespace") ||
             (rw->prev.kind == CT_IDENT && ctok_word(lx, rw->prev2, "namespace")))
      PU_PUSH(rw->scope, rw->nscope, rw->scope_cap, rw->depth + 1);
  } else if (punct(rw, t, '}')) {
    if (rw->nlambda && rw->lambda[rw->nlambda - 1] == rw->depth) rw->nlambda--;
    if (rw->nscope && rw->scope[rw->nscope - 1] == rw->depth) rw->nscope--;
  }
  rw->prev2 = rw->prev;
  rw->prev = t;
}

static void run(Rw *rw) {
  for (;;) {
    CTok t = clex_next(&rw->lx);
    close_pendings(rw, t.start);
    if (t.kind == CT_EOF) break;
    if (t.kind != CT_DIRECTIVE && rw->opt->cxx) track_cxx_braces(rw, t);
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
  free(rw->lambda);
  free(rw->paren);
  free(rw->scope);
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
  rw->look_budget = 32 * n + 10000000;
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
