/* c_stmt.c -- see c_stmt.h. */
#include "c_stmt.h"

#include "pomp_util.h"

enum { MAX_NESTING = 400 };

void cstmt_init(CStmt *st, const CLexer *lx, OmpDir *dir, PragmaOp *op, char **stack,
                size_t *stack_cap) {
  *st = (CStmt){.lx = *lx, .end = lx->pos, .end_line = lx->line, .dir = dir, .op = op,
                .stack = stack, .stack_cap = stack_cap};
}

static bool fail(CStmt *st, CTok t, const char *msg) {
  if (!st->error) {
    st->error = msg;
    st->error_line = t.line;
  }
  return false;
}

/* An OpenMP directive met while scanning: note cancels; true if it is a
   `section` that ends a sequence. */
static bool omp_seen(CStmt *st, const char *t, size_t n, size_t after) {
  if (!omp_dir_parse(st->dir, t, n, after)) return false;
  if (st->dir->kind == OMP_SECTION) return st->stop_at_section;
  /* `cancellation point` too: its construct must not be nowait either */
  bool cancel = st->dir->kind == OMP_CANCEL ||
                (st->dir->nwords == 2 && span_is(t, st->dir->words[0], "cancellation"));
  if (cancel && st->dir->nclauses > 0) {
    Span w = st->dir->clauses[0].name;
    if (span_is(t, w, "for")) st->cancel |= CANCEL_FOR;
    else if (span_is(t, w, "sections")) st->cancel |= CANCEL_SECTIONS;
    else if (span_is(t, w, "parallel")) st->cancel |= CANCEL_PARALLEL;
    else if (span_is(t, w, "taskgroup")) st->cancel |= CANCEL_TASKGROUP;
  }
  return false;
}

/* Conditional levels entered by the scan; deeper than 64 they are not
   told apart (the outermost unknown one is still reported). */
static void pp_enter(CStmt *st, bool unknown, int line) {
  if (unknown && st->pp_level < 64) {
    st->pp_unknown |= 1ull << st->pp_level;
    if (!st->pp_unknown_line) st->pp_unknown_line = line;
  }
  st->pp_level++;
}

static void pp_leave(CStmt *st) {
  if (st->pp_level == 0) return; /* a conditional begun before the scan */
  st->pp_level--;
  if (st->pp_level < 64) st->pp_unknown &= ~(1ull << st->pp_level);
  if (!st->pp_unknown) st->pp_unknown_line = 0;
}

int cstmt_end_in_arm(const CStmt *st) { return st->pp_unknown ? st->pp_unknown_line : 0; }

/* The next code token; directives and _Pragma operators are consumed,
   except a `section` directive in sequence mode (returned as CT_DIRECTIVE). */
static CTok next(CStmt *st) {
  for (;;) {
    CTok t = clex_next(&st->lx);
    if (st->budget) {
      if (*st->budget == 0) {
        fail(st, t, "constructs nested too deeply to find their ends in reasonable time");
        t.kind = CT_EOF;
        return t;
      }
      (*st->budget)--;
    }
    const char *s = st->lx.s;
    if (t.kind == CT_IDENT && ctok_word(&st->lx, t, "_Pragma")) {
      size_t after;
      if (!pp_pragma_operator(&st->lx, st->op)) return t;
      if (pp_pragma_text_family(st->op->buf, st->op->len, &after) == PP_OMP &&
          omp_seen(st, st->op->buf, st->op->len, after)) {
        t.kind = CT_DIRECTIVE;
        return t;
      }
      continue;
    }
    if (t.kind != CT_DIRECTIVE) return t;
    PPCond cond;
    size_t after;
    switch (pp_classify(s + t.start, t.end - t.start, &cond, &after)) {
    case PP_IF:
      if (cond == COND_FALSE) {
        PPKind arm = pp_skip_arm(&st->lx, true, &cond);
        if (arm == PP_ELSE || arm == PP_ELIF)
          pp_enter(st, arm == PP_ELIF && cond != COND_TRUE, t.line);
      } else
        pp_enter(st, cond == COND_UNKNOWN, t.line);
      break;
    case PP_ELIF:
    case PP_ELSE: /* only the first live arm is read */
      pp_skip_arm(&st->lx, false, &cond);
      pp_leave(st);
      break;
    case PP_ENDIF:
      pp_leave(st);
      break;
    case PP_OMP:
      if (omp_seen(st, s + t.start, t.end - t.start, after)) return t;
      break;
    default:
      break;
    }
  }
}

static CTok peek(const CStmt *st) {
  CStmt copy = *st;
  return next(&copy);
}

static void done_at(CStmt *st, CTok t) {
  st->end = t.end;
  st->end_line = t.end_line;
}

static char closer_of(char c) { return c == '(' ? ')' : c == '[' ? ']' : '}'; }

/* After an opening bracket `open`: through its matching closer. */
static bool balanced(CStmt *st, CTok open_tok) {
  st->depth = 0;
  PU_PUSH(*st->stack, st->depth, *st->stack_cap, closer_of(st->lx.s[open_tok.start]));
  while (st->depth > 0) {
    CTok t = next(st);
    if (t.kind == CT_EOF) return fail(st, open_tok, "unbalanced brackets: end of file inside a statement");
    if (t.kind != CT_PUNCT) continue;
    char c = st->lx.s[t.start];
    if (c == '(' || c == '[' || c == '{') PU_PUSH(*st->stack, st->depth, *st->stack_cap, closer_of(c));
    else if (c == ')' || c == ']' || c == '}') {
      if ((*st->stack)[st->depth - 1] != c) return fail(st, t, "mismatched closing bracket");
      if (--st->depth == 0) done_at(st, t);
    }
  }
  return true;
}

static bool expect(CStmt *st, char c, const char *msg) {
  CTok t = next(st);
  if (!ctok_is(&st->lx, t, c)) return fail(st, t, msg);
  if (c == '(' || c == '{' || c == '[') return balanced(st, t);
  done_at(st, t);
  return true;
}

static bool statement(CStmt *st, int nest);

/* Through the `;` ending an expression or declaration.  A block right
   after `)` that no operator or punctuation continues, as in
   `FOR_EACH(i, n) { ... }`, is a statement-like macro's body: the
   statement ends with it (it does not swallow the next statement). */
static bool expression(CStmt *st, CTok t) {
  bool after_paren = false; /* the last thing read was a (...) group */
  for (;; t = next(st)) {
    if (t.kind == CT_EOF) return fail(st, t, "end of file inside a statement");
    if (t.kind != CT_PUNCT) {
      after_paren = false;
      continue;
    }
    char c = st->lx.s[t.start];
    if (c == ';') {
      done_at(st, t);
      return true;
    }
    if (c == ')' || c == ']' || c == '}')
      return fail(st, t, "unexpected closing bracket in a statement");
    if (c == '(' || c == '[' || c == '{') {
      if (!balanced(st, t)) return false;
      if (c == '{' && after_paren) {
        CTok n = peek(st);
        if (n.kind != CT_PUNCT || ctok_is(&st->lx, n, '{') || ctok_is(&st->lx, n, '}'))
          return true; /* balanced() noted the end */
      }
    }
    after_paren = c == '(';
  }
}

static bool statement(CStmt *st, int nest) {
  CTok t = next(st);
  while (t.kind == CT_DIRECTIVE) t = next(st);
  if (nest == 0) st->first_code = t.start;
  if (nest > MAX_NESTING) return fail(st, t, "statements nested too deeply");
  if (t.kind == CT_EOF) return fail(st, t, "end of file where a statement was expected");
  if (t.kind == CT_PUNCT) {
    char c = st->lx.s[t.start];
    if (c == '{') return balanced(st, t);
    if (c == ')' || c == ']' || c == '}') return fail(st, t, "expected a statement");
  }
  const CLexer *lx = &st->lx;
  if (ctok_word(lx, t, "if")) {
    CTok n = peek(st);
    if (ctok_word(lx, n, "constexpr") || ctok_word(lx, n, "consteval")) next(st);
    if (!expect(st, '(', "expected '(' after 'if'") || !statement(st, nest + 1)) return false;
    if (ctok_word(lx, peek(st), "else")) {
      next(st);
      return statement(st, nest + 1);
    }
    return true;
  }
  if (ctok_word(lx, t, "for") || ctok_word(lx, t, "while") || ctok_word(lx, t, "switch"))
    return expect(st, '(', "expected '(' after a loop or switch keyword") &&
           statement(st, nest + 1);
  if (ctok_word(lx, t, "do")) {
    if (!statement(st, nest + 1)) return false;
    CTok w = next(st);
    if (!ctok_word(lx, w, "while")) return fail(st, w, "expected 'while' after a do body");
    return expect(st, '(', "expected '(' after 'while'") && expect(st, ';', "expected ';' after do/while");
  }
  if (ctok_word(lx, t, "try")) {
    if (!expect(st, '{', "expected '{' after 'try'")) return false;
    while (ctok_word(lx, peek(st), "catch")) {
      next(st);
      if (!expect(st, '(', "expected '(' after 'catch'") ||
          !expect(st, '{', "expected '{' after catch(...)"))
        return false;
    }
    return true;
  }
  return expression(st, t);
}

bool cstmt_skip(CStmt *st) { return statement(st, 0); }

bool cstmt_skip_sequence(CStmt *st) {
  st->stop_at_section = true;
  for (;;) {
    CTok t = peek(st);
    if (t.kind == CT_EOF) return fail(st, t, "end of file inside a sections construct");
    if (t.kind == CT_DIRECTIVE || ctok_is(&st->lx, t, '}')) return true;
    if (!statement(st, 0)) return false;
  }
}
