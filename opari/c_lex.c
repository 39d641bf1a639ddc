/* c_lex.c -- see c_lex.h.  Hand-written, one pass, no allocation. */
#include "c_lex.h"

#include <string.h>

void opc_lex_init(opc_lexer *lx, const char *s, size_t len, bool cxx) {
  *lx = (opc_lexer){.s = s, .len = len, .pos = 0, .line = 1, .bol = true, .cxx = cxx};
}

/* Length of a line splice (`\` newline, `\` CR LF) at p, or 0. */
static size_t splice_at(const char *s, size_t p, size_t n) {
  if (s[p] != '\\' || p + 1 >= n) return 0;
  if (s[p + 1] == '\n') return 2;
  if (s[p + 1] == '\r' && p + 2 < n && s[p + 2] == '\n') return 3;
  return 0;
}

static size_t skip_block_comment(const char *s, size_t p, size_t n, int *line) {
  for (p += 2; p < n; p++) {
    if (s[p] == '\n') (*line)++;
    else if (s[p] == '*' && p + 1 < n && s[p + 1] == '/') return p + 2;
  }
  return n;
}

/* Up to (not including) the newline ending a // comment; splices extend it. */
static size_t skip_line_comment(const char *s, size_t p, size_t n, int *line) {
  for (p += 2; p < n; p++) {
    size_t sp = splice_at(s, p, n);
    if (sp) {
      p += sp - 1;
      (*line)++;
    } else if (s[p] == '\n') return p;
  }
  return n;
}

/* A quoted literal starting at the quote s[p]; ends after the closing
   quote, or before an unescaped newline (unterminated, as compilers do). */
static size_t skip_quoted(const char *s, size_t p, size_t n, int *line) {
  char q = s[p];
  for (p++; p < n; p++) {
    if (s[p] == '\\' && p + 1 < n) {
      size_t sp = splice_at(s, p, n);
      if (sp) {
        p += sp - 1;
        (*line)++;
      } else p++;
    } else if (s[p] == q) return p + 1;
    else if (s[p] == '\n') return p;
  }
  return n;
}

/* Raw string R"delim( ... )delim" with the quote at p; 0 if the delimiter
   is not valid (then the caller lexes an ordinary string). */
static size_t skip_raw(const char *s, size_t p, size_t n, int *line) {
  size_t d = p + 1, k = d;
  while (k < n && k - d <= 16 && s[k] != '(') {
    char c = s[k];
    if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\n' || c == '\r' || c == '"' ||
        c == '\v' || c == '\f')
      return 0;
    k++;
  }
  if (k >= n || s[k] != '(') return 0;
  size_t dl = k - d;
  for (size_t q = k + 1; q < n; q++) {
    if (s[q] == '\n') (*line)++;
    else if (s[q] == ')' && q + dl + 1 < n && s[q + dl + 1] == '"' &&
             memcmp(s + q + 1, s + d, dl) == 0)
      return q + dl + 2;
  }
  return n;
}

/* A whole directive from `#` to its terminating newline (not included). */
static size_t skip_directive(const char *s, size_t p, size_t n, int *line) {
  while (p < n) {
    char c = s[p];
    size_t sp;
    if (c == '\n') return p;
    if ((sp = splice_at(s, p, n))) {
      p += sp;
      (*line)++;
    } else if (c == '/' && p + 1 < n && s[p + 1] == '*') p = skip_block_comment(s, p, n, line);
    else if (c == '/' && p + 1 < n && s[p + 1] == '/') p = skip_line_comment(s, p, n, line);
    else if (c == '"' || c == '\'') p = skip_quoted(s, p, n, line);
    else p++;
  }
  return n;
}

/* Character classes, by table: the lexer's inner loops are the hot path. */
enum { C_SPACE = 1, C_IDENT = 2, C_DIGIT = 4 };
static const unsigned char cls[256] = {
    [' '] = C_SPACE,  ['\t'] = C_SPACE, ['\r'] = C_SPACE, ['\f'] = C_SPACE,
    ['\v'] = C_SPACE, ['_'] = C_IDENT,  ['$'] = C_IDENT,
#define R10(c)                                                                                     \
  [c] = C_IDENT | C_DIGIT, [c + 1] = C_IDENT | C_DIGIT, [c + 2] = C_IDENT | C_DIGIT,               \
  [c + 3] = C_IDENT | C_DIGIT, [c + 4] = C_IDENT | C_DIGIT, [c + 5] = C_IDENT | C_DIGIT,           \
  [c + 6] = C_IDENT | C_DIGIT, [c + 7] = C_IDENT | C_DIGIT, [c + 8] = C_IDENT | C_DIGIT,           \
  [c + 9] = C_IDENT | C_DIGIT
    R10('0'),
#undef R10
#define L13(c)                                                                                     \
  [c] = C_IDENT, [c + 1] = C_IDENT, [c + 2] = C_IDENT, [c + 3] = C_IDENT, [c + 4] = C_IDENT,       \
  [c + 5] = C_IDENT, [c + 6] = C_IDENT, [c + 7] = C_IDENT, [c + 8] = C_IDENT, [c + 9] = C_IDENT,   \
  [c + 10] = C_IDENT, [c + 11] = C_IDENT, [c + 12] = C_IDENT
    L13('a'),         L13('n'),         L13('A'),         L13('N'),
#undef L13
#define H16(c)                                                                                     \
  [c] = C_IDENT, [c + 1] = C_IDENT, [c + 2] = C_IDENT, [c + 3] = C_IDENT, [c + 4] = C_IDENT,       \
  [c + 5] = C_IDENT, [c + 6] = C_IDENT, [c + 7] = C_IDENT, [c + 8] = C_IDENT, [c + 9] = C_IDENT,   \
  [c + 10] = C_IDENT, [c + 11] = C_IDENT, [c + 12] = C_IDENT, [c + 13] = C_IDENT,                  \
  [c + 14] = C_IDENT, [c + 15] = C_IDENT
    H16(0x80),        H16(0x90),        H16(0xa0),        H16(0xb0),
    H16(0xc0),        H16(0xd0),        H16(0xe0),        H16(0xf0),
#undef H16
};

static inline bool ident_char(unsigned char c) { return cls[c] & C_IDENT; }

static bool is_string_prefix(const char *w, size_t n, bool *raw) {
  *raw = n > 0 && w[n - 1] == 'R';
  if (*raw) n--;
  return n == 0 || (n == 1 && (w[0] == 'L' || w[0] == 'u' || w[0] == 'U')) ||
         (n == 2 && w[0] == 'u' && w[1] == '8');
}

static size_t skip_number(const char *s, size_t p, size_t n) {
  for (p++; p < n; p++) {
    unsigned char c = s[p];
    if (ident_char(c) || c == '.') {
      if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && p + 1 < n &&
          (s[p + 1] == '+' || s[p + 1] == '-'))
        p++;
    } else if (c == '\'' && p + 1 < n && ident_char((unsigned char)s[p + 1])) {
      /* C++14/C23 digit separator */
    } else break;
  }
  return p;
}

opc_tok opc_lex_next(opc_lexer *lx) {
  const char *s = lx->s;
  size_t n = lx->len, p = lx->pos;
  int line = lx->line;
  bool bol = lx->bol;
  opc_tok t;
  for (;;) {
    if (p >= n) break;
    char c = s[p];
    size_t sp;
    if (cls[(unsigned char)c] & C_SPACE) p++;
    else if (c == '\n') {
      line++;
      bol = true;
      p++;
    } else if ((sp = splice_at(s, p, n))) {
      p += sp;
      line++;
    } else if (c == '/' && p + 1 < n && s[p + 1] == '*') p = skip_block_comment(s, p, n, &line);
    else if (c == '/' && p + 1 < n && s[p + 1] == '/') p = skip_line_comment(s, p, n, &line);
    else break;
  }
  t.start = p;
  t.line = line;
  if (p >= n) {
    t.kind = CT_EOF;
  } else {
    unsigned char c = (unsigned char)s[p];
    if (c == '#' && bol) {
      t.kind = CT_DIRECTIVE;
      p = skip_directive(s, p, n, &line);
    } else if (cls[c] == C_IDENT) {
      size_t w = p;
      while (p < n && ident_char((unsigned char)s[p])) p++;
      t.kind = CT_IDENT;
      bool raw;
      if (p < n && p - w <= 3 && (s[p] == '"' || s[p] == '\'') &&
          is_string_prefix(s + w, p - w, &raw)) {
        size_t e = 0;
        if (raw && lx->cxx && s[p] == '"') e = skip_raw(s, p, n, &line);
        if (!raw || e) {
          t.kind = s[p] == '"' ? CT_STRING : CT_CHAR;
          p = e ? e : skip_quoted(s, p, n, &line);
        }
      }
    } else if ((c >= '0' && c <= '9') ||
               (c == '.' && p + 1 < n && s[p + 1] >= '0' && s[p + 1] <= '9')) {
      t.kind = CT_NUMBER;
      p = skip_number(s, p, n);
    } else if (c == '"' || c == '\'') {
      t.kind = c == '"' ? CT_STRING : CT_CHAR;
      p = skip_quoted(s, p, n, &line);
    } else {
      t.kind = CT_PUNCT;
      p++;
    }
    bol = false;
  }
  t.end = p;
  t.end_line = line;
  lx->pos = p;
  lx->line = line;
  lx->bol = bol;
  return t;
}

opc_tok opc_lex_peek(const opc_lexer *lx) {
  opc_lexer copy = *lx;
  return opc_lex_next(&copy);
}

bool opc_tok_word(const opc_lexer *lx, opc_tok t, const char *word) {
  size_t n = strlen(word);
  return t.kind == CT_IDENT && t.end - t.start == n && memcmp(lx->s + t.start, word, n) == 0;
}
