/* c_stmt.c -- see c_stmt.h. */
#include "c_stmt.h"

#include "pomp_util.h"

enum { MAX_NESTING = 400 };

void opc_stmt_init(opc_stmt *st, const opc_lexer *lx, op_dir *dir, opc_pragma_op *op, char **stack,
                   size_t *stack_cap) {
  *st = (opc_stmt){.lx = *lx,
                   .end = lx->pos,
                   .end_line = lx->line,
                   .dir = dir,
                   .op = op,
                   .stack = stack,
                   .stack_cap = stack_cap};
}

static bool fail(opc_stmt *st, opc_tok t, const char *msg) {
  if (!st->error) {
    st->error = msg;
    st->error_line = t.line;
  }
  return false;
}

/* An OpenMP directive met while scanning: note cancels; true if it is a
   `section` that ends a sequence. */
static bool openmp_seen(opc_stmt *st, const char *t, size_t n, size_t after) {
  if (!op_dir_parse(st->dir, t, n, after)) return false;
  if (st->dir->kind == OP_DIR_SECTION) return st->stop_at_section;
  /* `cancellation point` too: its construct must not be nowait either */
  bool cancel = st->dir->kind == OP_DIR_CANCEL ||
                (st->dir->nwords == 2 && op_span_is(t, st->dir->words[0], "cancellation"));
  if (cancel && st->dir->nclauses > 0) {
    op_span w = st->dir->clauses[0].name;
    if (op_span_is(t, w, "for")) st->cancel |= CANCEL_FOR;
    else if (op_span_is(t, w, "sections")) st->cancel |= CANCEL_SECTIONS;
    else if (op_span_is(t, w, "parallel")) st->cancel |= CANCEL_PARALLEL;
    else if (op_span_is(t, w, "taskgroup")) st->cancel |= CANCEL_TASKGROUP;
  }
  return false;
}

/* Conditional levels entered by the scan; deeper than 64 they are not
   told apart (the outermost unknown one is still reported). */
static void pp_enter(opc_stmt *st, bool unknown, int line) {
  if (unknown && st->pp_level < 64) {
    st->pp_unknown |= 1ull << st->pp_level;
    if (!st->pp_unknown_line) st->pp_unknown_line = line;
  }
  st->pp_level++;
}

static void pp_leave(opc_stmt *st) {
  if (st->pp_level == 0) return; /* a conditional begun before the scan */
  st->pp_level--;
  if (st->pp_level < 64) st->pp_unknown &= ~(1ull << st->pp_level);
  if (!st->pp_unknown) st->pp_unknown_line = 0;
}

int opc_stmt_end_in_arm(const opc_stmt *st) { return st->pp_unknown ? st->pp_unknown_line : 0; }

/* The next code token; directives and _Pragma operators are consumed,
   except a `section` directive in sequence mode (returned as CT_DIRECTIVE). */
static opc_tok next(opc_stmt *st) {
  for (;;) {
    opc_tok t = opc_lex_next(&st->lx);
    if (st->budget) {
      if (*st->budget == 0) {
        fail(st, t, "constructs nested too deeply to find their ends in reasonable time");
        t.kind = CT_EOF;
        return t;
      }
      (*st->budget)--;
    }
    const char *s = st->lx.s;
    if (t.kind == CT_IDENT && opc_tok_word(&st->lx, t, "_Pragma")) {
      size_t after;
      if (!opc_pp_pragma_operator(&st->lx, st->op)) return t;
      if (opc_pp_pragma_text_family(st->op->buf, st->op->len, &after) == PP_OMP &&
          openmp_seen(st, st->op->buf, st->op->len, after)) {
        t.kind = CT_DIRECTIVE;
        return t;
      }
      continue;
    }
    if (t.kind != CT_DIRECTIVE) return t;
    opc_pp_cond cond;
    size_t after;
    switch (opc_pp_classify(s + t.start, t.end - t.start, &cond, &after)) {
    case PP_IF:
      if (cond == COND_FALSE) {
        opc_pp_kind arm = opc_pp_skip_arm(&st->lx, true, &cond);
        if (arm == PP_ELSE || arm == PP_ELIF)
          pp_enter(st, arm == PP_ELIF && cond != COND_TRUE, t.line);
      } else pp_enter(st, cond == COND_UNKNOWN, t.line);
      break;
    case PP_ELIF:
    case PP_ELSE: /* only the first live arm is read */
      opc_pp_skip_arm(&st->lx, false, &cond);
      pp_leave(st);
      break;
    case PP_ENDIF: pp_leave(st); break;
    case PP_OMP:
      if (openmp_seen(st, s + t.start, t.end - t.start, after)) return t;
      break;
    default: break;
    }
  }
}

static opc_tok peek(const opc_stmt *st) {
  opc_stmt copy = *st;
  return next(&copy);
}

static void done_at(opc_stmt *st, opc_tok t) {
  st->end = t.end;
  st->end_line = t.end_line;
}

static char closer_of(char c) { return c == '(' ? ')' : c == '[' ? ']' : '}'; }

/* After an opening bracket `open`: through its matching closer. */
static bool balanced(opc_stmt *st, opc_tok open_tok) {
  st->depth = 0;
  PU_PUSH(*st->stack, st->depth, *st->stack_cap, closer_of(st->lx.s[open_tok.start]));
  while (st->depth > 0) {
    opc_tok t = next(st);
    if (t.kind == CT_EOF)
      return fail(st, open_tok, "unbalanced brackets: end of file inside a statement");
    if (t.kind != CT_PUNCT) continue;
    char c = st->lx.s[t.start];
    if (c == '(' || c == '[' || c == '{')
      PU_PUSH(*st->stack, st->depth, *st->stack_cap, closer_of(c));
    else if (c == ')' || c == ']' || c == '}') {
      if ((*st->stack)[st->depth - 1] != c) return fail(st, t, "mismatched closing bracket");
      if (--st->depth == 0) done_at(st, t);
    }
  }
  return true;
}

static bool expect(opc_stmt *st, char c, const char *msg) {
  opc_tok t = next(st);
  if (!opc_tok_is(&st->lx, t, c)) return fail(st, t, msg);
  if (c == '(' || c == '{' || c == '[') return balanced(st, t);
  done_at(st, t);
  return true;
}

static bool statement(opc_stmt *st, int nest);

/* Through the `;` ending an expression or declaration.  A block right
   after `)` that no operator or punctuation continues, as in
   `FOR_EACH(i, n) { ... }`, is a statement-like macro's body: the
   statement ends with it (it does not swallow the next statement). */
static bool expression(opc_stmt *st, opc_tok t) {
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
        opc_tok n = peek(st);
        if (n.kind != CT_PUNCT || opc_tok_is(&st->lx, n, '{') || opc_tok_is(&st->lx, n, '}'))
          return true; /* balanced() noted the end */
      }
    }
    after_paren = c == '(';
  }
}

static bool statement(opc_stmt *st, int nest) {
  opc_tok t = next(st);
  while (t.kind == CT_DIRECTIVE) t = next(st);
  if (nest == 0) st->first_code = t.start;
  if (nest > MAX_NESTING) return fail(st, t, "statements nested too deeply");
  if (t.kind == CT_EOF) return fail(st, t, "end of file where a statement was expected");
  if (t.kind == CT_PUNCT) {
    char c = st->lx.s[t.start];
    if (c == '{') return balanced(st, t);
    if (c == ')' || c == ']' || c == '}') return fail(st, t, "expected a statement");
  }
  const opc_lexer *lx = &st->lx;
  if (opc_tok_word(lx, t, "if")) {
    opc_tok n = peek(st);
    if (opc_tok_word(lx, n, "constexpr") || opc_tok_word(lx, n, "consteval")) next(st);
    if (!expect(st, '(', "expected '(' after 'if'") || !statement(st, nest + 1)) return false;
    if (opc_tok_word(lx, peek(st), "else")) {
      next(st);
      return statement(st, nest + 1);
    }
    return true;
  }
  if (opc_tok_word(lx, t, "for") || opc_tok_word(lx, t, "while") || opc_tok_word(lx, t, "switch"))
    return expect(st, '(', "expected '(' after a loop or switch keyword") &&
           statement(st, nest + 1);
  if (opc_tok_word(lx, t, "do")) {
    if (!statement(st, nest + 1)) return false;
    opc_tok w = next(st);
    if (!opc_tok_word(lx, w, "while")) return fail(st, w, "expected 'while' after a do body");
    return expect(st, '(', "expected '(' after 'while'") &&
           expect(st, ';', "expected ';' after do/while");
  }
  if (opc_tok_word(lx, t, "try")) {
    if (!expect(st, '{', "expected '{' after 'try'")) return false;
    while (opc_tok_word(lx, peek(st), "catch")) {
      next(st);
      if (!expect(st, '(', "expected '(' after 'catch'") ||
          !expect(st, '{', "expected '{' after catch(...)"))
        return false;
    }
    return true;
  }
  return expression(st, t);
}

bool opc_stmt_skip(opc_stmt *st) { return statement(st, 0); }

bool opc_stmt_skip_sequence(opc_stmt *st) {
  st->stop_at_section = true;
  for (;;) {
    opc_tok t = peek(st);
    if (t.kind == CT_EOF) return fail(st, t, "end of file inside a sections construct");
    if (t.kind == CT_DIRECTIVE || opc_tok_is(&st->lx, t, '}')) return true;
    if (!statement(st, 0)) return false;
  }
}
