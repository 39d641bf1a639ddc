/*
 * c_lex.h -- a C/C++ lexer for the instrumenter.
 *
 * It does not interpret tokens; it only knows exactly where comments,
 * string and character literals (prefixed, raw), numbers, identifiers and
 * whole preprocessor directives (with `\` continuations and comments)
 * begin and end, so that nothing inside a comment or literal is taken for
 * code or for a directive.  Whitespace, comments and line splices between
 * tokens are skipped; the caller copies source bytes by offset.
 */
#ifndef OPARI_C_LEX_H
#define OPARI_C_LEX_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  CT_EOF,
  CT_IDENT,
  CT_NUMBER,
  CT_STRING, /* also raw strings */
  CT_CHAR,
  CT_PUNCT,    /* one character */
  CT_DIRECTIVE /* `#` at the start of a line up to the end of its line */
} opc_tok_kind;

typedef struct {
  opc_tok_kind kind;
  size_t start, end; /* byte offsets, end exclusive */
  int line;          /* line of the first byte (1-based) */
  int end_line;      /* line of the last byte */
} opc_tok;

typedef struct {
  const char *s;
  size_t len, pos;
  int line;
  bool bol; /* only whitespace/comments since the last newline */
  bool cxx; /* C++: R"(...)" raw strings */
} opc_lexer;

void opc_lex_init(opc_lexer *lx, const char *s, size_t len, bool cxx);
opc_tok opc_lex_next(opc_lexer *lx);
/* The next token without consuming it. */
opc_tok opc_lex_peek(const opc_lexer *lx);

static inline bool opc_tok_is(const opc_lexer *lx, opc_tok t, char c) {
  return t.kind == CT_PUNCT && lx->s[t.start] == c;
}
/* Whether token t is the identifier or keyword `word`. */
bool opc_tok_word(const opc_lexer *lx, opc_tok t, const char *word);

#endif
