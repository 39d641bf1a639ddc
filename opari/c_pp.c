/* c_pp.c -- see c_pp.h. */
#include "c_pp.h"

#include <string.h>

#include "directive.h"
#include "pomp_util.h"

static opc_pp_cond literal_cond(const char *t, size_t n, size_t p) {
  p = op_skip_gap(t, n, p);
  if (p < n && (t[p] == '0' || t[p] == '1')) {
    size_t q = p + 1;
    if (q < n && ((t[q] >= '0' && t[q] <= '9') || t[q] == 'x' || t[q] == 'X' || t[q] == '.' ||
                  t[q] == 'u' || t[q] == 'U' || t[q] == 'l' || t[q] == 'L'))
      return COND_UNKNOWN;
    if (op_skip_gap(t, n, q) == n) return t[p] == '0' ? COND_FALSE : COND_TRUE;
  }
  return COND_UNKNOWN;
}

opc_pp_kind opc_pp_pragma_text_family(const char *t, size_t n, size_t *after) {
  size_t p = op_skip_gap(t, n, 0), e;
  if ((e = op_word_at(t, n, p, "omp"))) {
    *after = e;
    return PP_OMP;
  }
  if ((e = op_word_at(t, n, p, "pomp"))) {
    *after = e;
    return PP_POMP;
  }
  return PP_OTHER;
}

opc_pp_kind opc_pp_classify(const char *t, size_t n, opc_pp_cond *cond, size_t *after) {
  size_t p = op_skip_gap(t, n, 1), e = op_ident_end(t, n, p);
  size_t k = e - p;
  if (p < n && t[p] >= '0' && t[p] <= '9') return PP_LINE;
  const char *w = t + p;
  *cond = COND_UNKNOWN;
#define IS(word) (k == sizeof(word) - 1 && memcmp(w, word, k) == 0)
  if (IS("if")) {
    *cond = literal_cond(t, n, e);
    return PP_IF;
  }
  if (IS("ifdef") || IS("ifndef")) return PP_IF;
  if (IS("elif")) {
    *cond = literal_cond(t, n, e);
    return PP_ELIF;
  }
  if (IS("elifdef") || IS("elifndef")) return PP_ELIF;
  if (IS("else")) return PP_ELSE;
  if (IS("endif")) return PP_ENDIF;
  if (IS("line")) return PP_LINE;
  if (IS("define")) return PP_DEFINE;
  if (IS("pragma")) {
    opc_pp_kind f = opc_pp_pragma_text_family(t + e, n - e, after);
    *after += e;
    return f;
  }
  if (IS("include")) {
    size_t q = op_skip_gap(t, n, e);
    if (q + 7 <= n && (memcmp(t + q, "<omp.h>", 7) == 0 || memcmp(t + q, "\"omp.h\"", 7) == 0))
      return PP_INCLUDE_OMP;
  }
#undef IS
  return PP_OTHER;
}

bool opc_pp_pragma_operator(opc_lexer *lx, opc_pragma_op *op) {
  opc_lexer look = *lx;
  opc_tok open = opc_lex_next(&look), str = opc_lex_next(&look), close = opc_lex_next(&look);
  if (!opc_tok_is(&look, open, '(') || str.kind != CT_STRING || !opc_tok_is(&look, close, ')'))
    return false;
  const char *s = lx->s;
  size_t p = str.start;
  while (s[p] != '"') p++;                            /* skip an encoding prefix */
  if (p > str.start && s[p - 1] == 'R') return false; /* raw strings are not allowed */
  size_t q = str.end - 1;
  if (q <= p || s[q] != '"') return false; /* unterminated */
  op->len = 0;
  for (p++; p < q; p++) {
    char c = s[p];
    if (c == '\\' && p + 1 < q && (s[p + 1] == '"' || s[p + 1] == '\\')) c = s[++p];
    PU_PUSH(op->buf, op->len, op->cap, c);
  }
  PU_PUSH(op->buf, op->len, op->cap, '\0');
  op->len--;
  op->end = close.end;
  op->end_line = close.end_line;
  *lx = look;
  return true;
}

bool opc_pp_define_makes_directive(const char *t, size_t n, bool cxx, opc_pragma_op *op,
                                   op_span *name) {
  size_t p = op_skip_gap(t, n, 1);
  p = op_skip_gap(t, n, op_ident_end(t, n, p)); /* after `define` */
  *name = (op_span){p, op_ident_end(t, n, p)};
  opc_lexer lx;
  opc_lex_init(&lx, t, n, cxx);
  lx.pos = name->end;
  lx.bol = false;
  for (opc_tok k = opc_lex_next(&lx); k.kind != CT_EOF; k = opc_lex_next(&lx)) {
    if (!opc_tok_word(&lx, k, "_Pragma")) continue;
    size_t after;
    if (!opc_pp_pragma_operator(&lx, op)) return opc_tok_is(&lx, opc_lex_peek(&lx), '(');
    if (opc_pp_pragma_text_family(op->buf, op->len, &after) != PP_OTHER) return true;
  }
  return false;
}

opc_pp_kind opc_pp_skip_arm(opc_lexer *lx, bool stop_at_live_arm, opc_pp_cond *cond_out) {
  int nest = 0;
  for (;;) {
    opc_tok t = opc_lex_next(lx);
    if (t.kind == CT_EOF) return PP_OTHER;
    if (t.kind != CT_DIRECTIVE) continue;
    opc_pp_cond cond;
    size_t after;
    opc_pp_kind k = opc_pp_classify(lx->s + t.start, t.end - t.start, &cond, &after);
    if (k == PP_IF) nest++;
    else if (k == PP_ENDIF) {
      if (nest-- == 0) return k;
    } else if (nest == 0 && stop_at_live_arm &&
               (k == PP_ELSE || (k == PP_ELIF && cond != COND_FALSE))) {
      *cond_out = cond;
      return k;
    }
  }
}
