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

/* Diagnostics name the file and line a line mark says (a header's, in
   preprocessed input). */
static void diag(const opc_rw *rw, const char *kind, int line, const char *fmt, va_list ap) {
  const op_mark_entry *e = op_line_map_find(&rw->map, line);
  const char *file = e && e->file >= 0 ? rw->map.files[e->file].raw : rw->opt->file_name;
  op_vdiag_in(rw->opt, file, kind, opc_rw_line(rw, line), fmt, ap);
}

_Noreturn void opc_error(opc_rw *rw, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag(rw, "error", line, fmt, ap);
  va_end(ap);
  longjmp(rw->fail, 1);
}

void opc_warn(opc_rw *rw, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag(rw, "warning", line, fmt, ap);
  va_end(ap);
}

/* ---- look-ahead -------------------------------------------------------- */

opc_body opc_find_body(opc_rw *rw, const opc_site *site, const opc_lexer *from, bool sequence) {
  static const opc_body none = {0, 0, 0};
  if (!sequence && from->pos > rw->chain_start && from->pos <= rw->chain_code && rw->chain_body.end)
    return rw->chain_body;
  opc_stmt st;
  opc_stmt_init(&st, from, &rw->look_dir, &rw->look_op, &rw->stack, &rw->stack_cap);
  st.budget = &rw->look_budget;
  if (!(sequence ? opc_stmt_skip_sequence(&st) : opc_stmt_skip(&st)))
    opc_error(rw, site->line,
              "cannot find the end of the structured block of this directive: %s (line %d)",
              st.error, opc_rw_line(rw, st.error_line));
  int arm = opc_stmt_end_in_arm(&st);
  if (arm)
    opc_warn(rw, site->line,
             "the block of this construct ends inside the conditional at line %d, of which "
             "only the first arm is read: built with another arm, its events are misplaced "
             "(preprocess first: pomp-cc does unless --no-preprocess)",
             opc_rw_line(rw, arm));
  opc_body body = {st.end, st.end_line, st.cancel};
  rw->chain_body = none;
  if (!sequence) {
    rw->chain_start = from->pos;
    rw->chain_code = st.first_code;
    rw->chain_body = body;
  }
  return body;
}

void opc_push_pending(opc_rw *rw, int kind, int descr, const opc_site *site, opc_body body,
                      bool barrier) {
  opc_pending p = {.end = body.end,
                   .end_line = body.end_line,
                   .kind = kind,
                   .descr = descr,
                   .line = site->line,
                   .pp_level = (int)rw->npp,
                   .block_depth = -1,
                   .barrier = barrier};
  PU_PUSH(rw->pend, rw->npend, rw->pend_cap, p);
}

/* ---- preprocessor structure --------------------------------------------- */

/* A construct begun inside the conditional arm that ends here cannot be
   closed consistently in every arm. */
static void check_arm_end(opc_rw *rw, opc_tok t) {
  if (rw->npend && rw->pend[rw->npend - 1].pp_level >= (int)rw->npp && rw->npp)
    opc_error(rw, t.line,
              "the OpenMP construct at line %d is not closed before this conditional "
              "directive; move the #if/#else/#endif outside the construct",
              opc_rw_line(rw, rw->pend[rw->npend - 1].line));
}

/* Skips a dead arm (it is copied verbatim, never instrumented). */
static void dead_arm(opc_rw *rw) {
  opc_pp_cond cond = COND_UNKNOWN;
  opc_pp_kind k = opc_pp_skip_arm(&rw->lx, true, &cond);
  if (k == PP_ENDIF || k == PP_OTHER) rw->npp--;
  else rw->pp[rw->npp - 1].done = k == PP_ELIF && cond == COND_TRUE;
}

static void conditional(opc_rw *rw, opc_tok t, opc_pp_kind k, opc_pp_cond cond) {
  if (k == PP_IF) {
    opc_pp_frame f = {rw->depth, -1, cond == COND_TRUE};
    PU_PUSH(rw->pp, rw->npp, rw->pp_cap, f);
    if (cond == COND_FALSE) dead_arm(rw);
    return;
  }
  if (!rw->npp) return; /* unbalanced: the compiler will say so */
  check_arm_end(rw, t);
  opc_pp_frame *f = &rw->pp[rw->npp - 1];
  if (k == PP_ENDIF) {
    if (f->first_end_depth >= 0) rw->depth = f->first_end_depth;
    rw->npp--;
    return;
  }
  if (f->first_end_depth < 0) f->first_end_depth = rw->depth;
  rw->depth = f->depth_at_if;
  if (f->done) {
    opc_pp_skip_arm(&rw->lx, false, &cond);
    rw->depth = f->first_end_depth;
    rw->npp--;
  } else if (k == PP_ELIF && cond == COND_FALSE) dead_arm(rw);
  else if (k == PP_ELIF && cond == COND_TRUE) f->done = true;
}

/* Without the preprocessor, a directive made by a macro is invisible:
   at least say so where the macro is defined. */
static void macro_definition(opc_rw *rw, opc_tok t) {
  op_span name;
  if (rw->opt->preprocessed || !opc_instrumenting(rw) ||
      !opc_pp_define_makes_directive(rw->s + t.start, t.end - t.start, rw->opt->cxx, &rw->op,
                                     &name))
    return;
  opc_warn(rw, t.line,
           "macro '%.*s' makes an OpenMP/POMP directive with _Pragma: it is not instrumented where "
           "the macro is used (preprocess first: pomp-cc does unless --no-preprocess)",
           (int)(name.end - name.start), rw->s + t.start + name.start);
}

static void directive(opc_rw *rw, opc_tok t) {
  opc_pp_cond cond;
  size_t after;
  opc_pp_kind k = opc_pp_classify(rw->s + t.start, t.end - t.start, &cond, &after);
  opc_site site = {.op = false,
                   .start = t.start,
                   .end = t.end,
                   .line = t.line,
                   .end_line = t.end_line,
                   .text = rw->s + t.start,
                   .len = t.end - t.start,
                   .after = after};
  switch (k) {
  case PP_IF:
  case PP_ELIF:
  case PP_ELSE:
  case PP_ENDIF: conditional(rw, t, k, cond); break;
  case PP_INCLUDE_OMP: opc_declare_locks(rw, t); break;
  case PP_LINE: opc_line_mark_directive(rw, t); break;
  case PP_DEFINE: macro_definition(rw, t); break;
  case PP_OMP: opc_omp_directive(rw, &site); break;
  case PP_POMP: opc_inst_directive(rw, &site); break;
  default: break;
  }
}

static void pragma_operator(opc_rw *rw, opc_tok t) {
  if (!opc_pp_pragma_operator(&rw->lx, &rw->op)) return;
  size_t after;
  opc_pp_kind family = opc_pp_pragma_text_family(rw->op.buf, rw->op.len, &after);
  opc_site site = {.op = true,
                   .start = t.start,
                   .end = rw->op.end,
                   .line = t.line,
                   .end_line = rw->op.end_line,
                   .text = rw->op.buf,
                   .len = rw->op.len,
                   .after = after};
  if (family == PP_OMP) opc_omp_directive(rw, &site);
  else if (family == PP_POMP) opc_inst_directive(rw, &site);
}

static void identifier(opc_rw *rw, opc_tok t) {
  const char *w = rw->s + t.start;
  size_t len = t.end - t.start;
  if (len == 7 && memcmp(w, "_Pragma", 7) == 0) {
    pragma_operator(rw, t);
    return;
  }
  if (!opc_instrumenting(rw)) return;
  if (rw->opt->loops) opc_loop_word(rw, t);
  if (rw->nuser) opc_user_region_word(rw, t);
  if (len >= 12 && w[0] == 'o' && w[3] == '_' && !(rw->opt->disabled & OPARI_DIS_LOCKS))
    opc_lock_call(rw, t);
}

static bool punct(const opc_rw *rw, opc_tok t, char c) { return opc_tok_is(&rw->lx, t, c); }

/* C++ braces that matter: lambda bodies (a `{` after `]`, after a
   parameter list that follows `]`, or after `mutable`/`noexcept`) and
   namespace or extern "C" blocks. */
static void track_cxx_braces(opc_rw *rw, opc_tok t) {
  bool after_bracket = punct(rw, rw->prev, ']');
  if (punct(rw, t, '(')) {
    PU_PUSH(rw->paren, rw->nparen, rw->paren_cap, after_bracket);
  } else if (punct(rw, t, ')')) {
    rw->closed_lambda_params = rw->nparen && rw->paren[--rw->nparen];
  } else if (punct(rw, t, '{')) {
    const opc_lexer *lx = &rw->lx;
    if (after_bracket || (punct(rw, rw->prev, ')') && rw->closed_lambda_params) ||
        opc_tok_word(lx, rw->prev, "mutable") || opc_tok_word(lx, rw->prev, "noexcept"))
      PU_PUSH(rw->lambda, rw->nlambda, rw->lambda_cap, rw->depth + 1);
    else if (rw->prev.kind == CT_STRING || opc_tok_word(lx, rw->prev, "namespace") ||
             (rw->prev.kind == CT_IDENT && opc_tok_word(lx, rw->prev2, "namespace")))
      PU_PUSH(rw->scope, rw->nscope, rw->scope_cap, rw->depth + 1);
  } else if (punct(rw, t, '}')) {
    if (rw->nlambda && rw->lambda[rw->nlambda - 1] == rw->depth) rw->nlambda--;
    if (rw->nscope && rw->scope[rw->nscope - 1] == rw->depth) rw->nscope--;
  }
}

static void run(opc_rw *rw) {
  for (;;) {
    opc_tok t = opc_lex_next(&rw->lx);
    opc_close_pendings(rw, t.start);
    if (t.kind == CT_EOF) break;
    if (t.kind != CT_DIRECTIVE && rw->opt->cxx) track_cxx_braces(rw, t);
    if (t.kind == CT_PUNCT && rw->s[t.start] == '{') rw->depth++;
    if (t.kind == CT_PUNCT && rw->s[t.start] == '}') rw->depth--;
    if (rw->want_brace >= 0) opc_sections_block(rw, t);
    if (t.kind == CT_DIRECTIVE) {
      directive(rw, t);
      if (opc_is_pragma(rw->s + t.start, t.end - t.start)) rw->pragma_before = true;
      continue;
    }
    if (t.kind == CT_IDENT) identifier(rw, t);
    if (t.kind == CT_PUNCT && rw->opt->loops) opc_loop_punct(rw, t);
    rw->pragma_before =
        t.kind == CT_IDENT && t.end - t.start == 7 && memcmp(rw->s + t.start, "_Pragma", 7) == 0;
    rw->prev2 = rw->prev;
    rw->prev = t;
  }
  if (rw->npend) {
    const opc_pending *p = &rw->pend[rw->npend - 1];
    opc_error(rw, p->line, "end of file inside this construct");
  }
  if (rw->nuser) {
    const opc_user_region *u = &rw->user[rw->nuser - 1];
    opc_error(rw, u->line, "user region '%s' is never ended", rw->descr.v[u->descr].sub_name);
  }
  if (rw->opt->preprocessed && rw->descr.n && !rw->pomp_h_seen)
    opc_error(rw, rw->lx.line,
              "preprocessed input without pomp.h: append '#include <pomp.h>' "
              "to the unit before preprocessing (pomp-cc does)");
  op_emit_copy_to(&rw->em, rw->n);
  if (rw->n && rw->s[rw->n - 1] != '\n') op_emit_str(&rw->em, "\n");
}

static void rw_free(opc_rw *rw) {
  op_descr_free(&rw->descr);
  free(rw->pend);
  free(rw->pp);
  opc_user_free(rw);
  op_line_map_free(&rw->map);
  free(rw->includes);
  free(rw->lambda);
  free(rw->paren);
  free(rw->scope);
  for (size_t i = 0; i < rw->npassed; i++) free(rw->passed[i]);
  free(rw->passed);
  free(rw->loops);
  op_dir_free(&rw->dir);
  op_dir_free(&rw->look_dir);
  free(rw->op.buf);
  free(rw->look_op.buf);
  free(rw->stack);
  free(rw->buf);
  free(rw->app);
  free(rw->bl[0]);
  free(rw->bl[1]);
}

/* End of the line at p (after its newline), if that line is a line mark. */
static size_t after_mark_line(const char *s, size_t n, size_t p) {
  const char *nl = p < n ? memchr(s + p, '\n', n - p) : NULL;
  op_line_mark m;
  if (!nl || s[p] != '#' || !op_line_mark_parse(s + p, (size_t)(nl - s) - p, &m)) return p;
  return (size_t)(nl - s) + 1;
}

/* In preprocessed input, the compiler takes the unit's name from its first
   line mark and the working directory from a second one (`# 0 "/dir//"`,
   with -g): the prelude goes after them. */
static size_t preprocessed_head(const char *s, size_t n) {
  size_t first = after_mark_line(s, n, 0), second = after_mark_line(s, n, first);
  return second > first && second >= 4 && memcmp(s + second - 4, "//\"", 3) == 0 ? second : first;
}

bool opari_c(const char *src, size_t n, FILE *out, const opari_options *opt) {
  opc_rw *rw = pu_calloc(1, sizeof *rw);
  rw->opt = opt;
  rw->s = src;
  rw->n = n;
  rw->want_brace = -1;
  rw->noloop_depth = -1;
  rw->look_budget = 32 * n + 10000000;
  opc_lex_init(&rw->lx, src, n, opt->cxx);
  rw->em = (op_emit){.f = out,
                     .src = src,
                     .line_name = opt->line_name,
                     .nosrc = opt->nosrc,
                     .gnu_marks = opt->preprocessed};
  op_unit_form form = !opt->preprocessed ? UNIT_SOURCE
                      : opt->cxx         ? UNIT_PREPROCESSED_CXX
                                         : UNIT_PREPROCESSED_C;
  volatile bool ok = false;
  if (setjmp(rw->fail) == 0) {
    long count_pos;
    if (opt->preprocessed) op_emit_copy_to(&rw->em, preprocessed_head(src, n));
    op_unit_prelude(out, form, opt->line_name, opt->nosrc, opt->loops != OPARI_LOOPS_OFF,
                    &count_pos);
    run(rw);
    op_unit_epilogue(out, form, &rw->descr, opt->file_name, count_pos);
    ok = true;
  }
  rw_free(rw);
  free(rw);
  return ok;
}
