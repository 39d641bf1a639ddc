/* c_pp.c -- see c_pp.h. */
#include "c_pp.h"

#include <string.h>

#include "directive.h"
#include "pomp_util.h"

static PPCond literal_cond(const char *t, size_t n, size_t p) {
  p = dir_skip_gap(t, n, p);
  if (p < n && (t[p] == '0' || t[p] == '1')) {
    size_t q = p + 1;
    if (q < n && ((t[q] >= '0' && t[q] <= '9') || t[q] == 'x' || t[q] == 'X' ||
                  t[q] == '.' || t[q] == 'u' || t[q] == 'U' || t[q] == 'l' || t[q] == 'L'))
      return COND_UNKNOWN;
    if (dir_skip_gap(t, n, q) == n) return t[p] == '0' ? COND_FALSE : COND_TRUE;
  }
  return COND_UNKNOWN;
}

PPKind pp_pragma_text_family(const char *t, size_t n, size_t *after) {
  size_t p = dir_skip_gap(t, n, 0), e;
  if ((e = dir_word_at(t, n, p, "omp"))) { *after = e; return PP_OMP; }
  if ((e = dir_word_at(t, n, p, "pomp"))) { *after = e; return PP_POMP; }
  return PP_OTHER;
}

PPKind pp_classify(const char *t, size_t n, PPCond *cond, size_t *after) {
  size_t p = dir_skip_gap(t, n, 1), e = dir_ident_end(t, n, p);
  size_t k = e - p;
  if (p < n && t[p] >= '0' && t[p] <= '9') return PP_LINE;
  const char *w = t + p;
  *cond = COND_UNKNOWN;
#define IS(word) (k == sizeof(word) - 1 && memcmp(w, word, k) == 0)
  if (IS("if")) { *cond = literal_cond(t, n, e); return PP_IF; }
  if (IS("ifdef") || IS("ifndef")) return PP_IF;
  if (IS("elif")) { *cond = literal_cond(t, n, e); return PP_ELIF; }
  if (IS("elifdef") || IS("elifndef")) return PP_ELIF;
  if (IS("else")) return PP_ELSE;
  if (IS("endif")) return PP_ENDIF;
  if (IS("line")) return PP_LINE;
  if (IS("define")) return PP_DEFINE;
  if (IS("pragma")) {
    PPKind f = pp_pragma_text_family(t + e, n - e, after);
    *after += e;
    return f;
  }
  if (IS("include")) {
    size_t q = dir_skip_gap(t, n, e);
    if (q + 7 <= n && (memcmp(t + q, "<omp.h>", 7) == 0 || memcmp(t + q, "\"omp.h\"", 7) == 0))
      return PP_INCLUDE_OMP;
  }
#undef IS
  return PP_OTHER;
}

bool pp_pragma_operator(CLexer *lx, PragmaOp *op) {
  CLexer look = *lx;
  CTok open = clex_next(&look), str = clex_next(&look), close = clex_next(&look);
  if (!ctok_is(&look, open, '(') || str.kind != CT_STRING || !ctok_is(&look, close, ')'))
    return false;
  const char *s = lx->s;
  size_t p = str.start;
  while (s[p] != '"') p++; /* skip an encoding prefix */
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

bool pp_define_makes_directive(const char *t, size_t n, bool cxx, PragmaOp *op, Span *name) {
  size_t p = dir_skip_gap(t, n, 1);
  p = dir_skip_gap(t, n, dir_ident_end(t, n, p)); /* after `define` */
  *name = (Span){p, dir_ident_end(t, n, p)};
  CLexer lx;
  clex_init(&lx, t, n, cxx);
  lx.pos = name->end;
  lx.bol = false;
  for (CTok k = clex_next(&lx); k.kind != CT_EOF; k = clex_next(&lx)) {
    if (!ctok_word(&lx, k, "_Pragma")) continue;
    size_t after;
    if (!pp_pragma_operator(&lx, op)) return ctok_is(&lx, clex_peek(&lx), '(');
    if (pp_pragma_text_family(op->buf, op->len, &after) != PP_OTHER) return true;
  }
  return false;
}

PPKind pp_skip_arm(CLexer *lx, bool stop_at_live_arm, PPCond *cond_out) {
  int nest = 0;
  for (;;) {
    CTok t = clex_next(lx);
    if (t.kind == CT_EOF) return PP_OTHER;
    if (t.kind != CT_DIRECTIVE) continue;
    PPCond cond;
    size_t after;
    PPKind k = pp_classify(lx->s + t.start, t.end - t.start, &cond, &after);
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
