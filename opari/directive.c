/* directive.c -- see directive.h. */
#include "directive.h"

#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

static bool ident_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c >= 0x80;
}

size_t op_skip_gap(const char *t, size_t n, size_t p) {
  while (p < n) {
    char c = t[p];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') p++;
    else if (c == '\\' && p + 1 < n && (t[p + 1] == '\n' || t[p + 1] == '\r')) p += 2;
    else if (c == '/' && p + 1 < n && t[p + 1] == '*') {
      size_t q = p + 2;
      while (q + 1 < n && !(t[q] == '*' && t[q + 1] == '/')) q++;
      p = q + 1 < n ? q + 2 : n;
    } else if (c == '/' && p + 1 < n && t[p + 1] == '/') p = n;
    else break;
  }
  return p;
}

size_t op_ident_end(const char *t, size_t n, size_t p) {
  if (p >= n || !ident_char((unsigned char)t[p]) || (t[p] >= '0' && t[p] <= '9')) return p;
  while (p < n && ident_char((unsigned char)t[p])) p++;
  return p;
}

size_t op_word_at(const char *t, size_t n, size_t p, const char *word) {
  size_t e = op_ident_end(t, n, p), k = strlen(word);
  return e - p == k && memcmp(t + p, word, k) == 0 ? e : 0;
}

bool op_span_is(const char *t, op_span s, const char *word) {
  size_t k = strlen(word);
  return s.end - s.start == k && memcmp(t + s.start, word, k) == 0;
}

size_t op_match_paren(const char *t, size_t n, size_t p) {
  int depth = 0;
  for (; p < n; p++) {
    char c = t[p];
    if (c == '(') depth++;
    else if (c == ')' && --depth == 0) return p;
    else if (c == '"' || c == '\'') {
      for (p++; p < n && t[p] != c; p++)
        if (t[p] == '\\') p++;
      if (p >= n) return 0;
    }
  }
  return 0;
}

/* Words that can follow another one in a combined directive name. */
static const char *const combinable[] = {"parallel",   "for",       "simd",     "target", "teams",
                                         "distribute", "loop",      "taskloop", "masked", "master",
                                         "sections",   "workshare", "data",     "enter",  "exit",
                                         "update",     NULL};
/* First words that never combine with a following word. */
static const char *const single_word[] = {
    "atomic",   "critical", "flush",      "barrier",   "taskwait",      "taskyield",
    "single",   "section",  "sections",   "cancel",    "ordered",       "threadprivate",
    "requires", "allocate", "allocators", "depobj",    "scan",          "error",
    "nothing",  "task",     "interop",    "dispatch",  "assume",        "assumes",
    "tile",     "unroll",   "scope",      "taskgroup", "metadirective", NULL};

bool op_span_in(const char *t, op_span w, const char *const *list) {
  for (; *list; list++)
    if (op_span_is(t, w, *list)) return true;
  return false;
}

static bool has_word(const op_dir *d, const char *t, const char *w) {
  for (int i = 0; i < d->nwords; i++)
    if (op_span_is(t, d->words[i], w)) return true;
  return false;
}

/* Directive-name words starting at p; returns the position after them. */
static size_t read_words(op_dir *d, const char *t, size_t n, size_t p) {
  d->nwords = 0;
  for (;;) {
    size_t q = op_skip_gap(t, n, p), e = op_ident_end(t, n, q);
    if (e == q) break;
    op_span w = {q, e};
    if (d->nwords > 0) {
      op_span w0 = d->words[0];
      bool more = false;
      if (op_span_is(t, w0, "declare") || op_span_is(t, w0, "begin") || op_span_is(t, w0, "end"))
        more = d->nwords < 3 && (op_span_is(t, w, "declare") || op_span_is(t, w, "target") ||
                                 op_span_is(t, w, "variant") || op_span_is(t, w, "simd") ||
                                 op_span_is(t, w, "assumes") || op_span_is(t, w, "metadirective"));
      else if (op_span_is(t, w0, "cancellation"))
        more = d->nwords == 1 && op_span_is(t, w, "point");
      else more = !op_span_in(t, w0, single_word) && op_span_in(t, w, combinable);
      if (!more || d->nwords == 6) break;
    }
    d->words[d->nwords++] = w;
    p = e;
  }
  return p;
}

static op_dir_kind classify(op_dir *d, const char *t) {
  static const struct {
    const char *name;
    op_dir_kind kind;
    bool simd;
  } table[] = {
      {"parallel", OP_DIR_PARALLEL, false},
      {"parallel for", OP_DIR_PARALLEL_FOR, false},
      {"parallel for simd", OP_DIR_PARALLEL_FOR, true},
      {"parallel sections", OP_DIR_PARALLEL_SECTIONS, false},
      {"parallel master", OP_DIR_PARALLEL_MASTER, false},
      {"parallel masked", OP_DIR_PARALLEL_MASKED, false},
      {"for", OP_DIR_FOR, false},
      {"for simd", OP_DIR_FOR, true},
      {"sections", OP_DIR_SECTIONS, false},
      {"section", OP_DIR_SECTION, false},
      {"single", OP_DIR_SINGLE, false},
      {"master", OP_DIR_MASTER, false},
      {"critical", OP_DIR_CRITICAL, false},
      {"atomic", OP_DIR_ATOMIC, false},
      {"barrier", OP_DIR_BARRIER, false},
      {"flush", OP_DIR_FLUSH, false},
      {"ordered", OP_DIR_ORDERED, false},
      {"task", OP_DIR_TASK, false},
      {"taskwait", OP_DIR_TASKWAIT, false},
      {"cancel", OP_DIR_CANCEL, false},
      {"end declare target", OP_DIR_DECLARE_TARGET_END, false},
      {"begin declare target", OP_DIR_DECLARE_TARGET_BEGIN, false},
  };
  char name[96];
  op_dir_name(d, t, name, sizeof name);
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (strcmp(name, table[i].name) == 0) {
      d->inner_simd = table[i].simd;
      return table[i].kind;
    }
  if (d->nwords == 0) return OP_DIR_UNKNOWN;
  if (strcmp(name, "declare target") == 0) return OP_DIR_PASS; /* decided by caller */
  if (has_word(d, t, "enter") || has_word(d, t, "exit") || has_word(d, t, "update"))
    return has_word(d, t, "target") ? OP_DIR_PASS : OP_DIR_UNKNOWN;
  if (has_word(d, t, "target") || has_word(d, t, "teams") || has_word(d, t, "distribute") ||
      has_word(d, t, "simd") || has_word(d, t, "loop") ||
      op_span_is(t, d->words[0], "metadirective"))
    return op_span_is(t, d->words[0], "declare") ? OP_DIR_PASS : OP_DIR_PASS_SUPPRESS;
  if (has_word(d, t, "taskloop") || has_word(d, t, "masked") || has_word(d, t, "master") ||
      has_word(d, t, "taskgroup") || has_word(d, t, "scope") || has_word(d, t, "workshare") ||
      has_word(d, t, "parallel"))
    return OP_DIR_PASS_WARN;
  static const char *const silent[] = {"cancellation point",
                                       "taskyield",
                                       "threadprivate",
                                       "requires",
                                       "depobj",
                                       "scan",
                                       "allocate",
                                       "allocators",
                                       "error",
                                       "nothing",
                                       "assume",
                                       "assumes",
                                       "interop",
                                       "dispatch",
                                       "tile",
                                       "unroll",
                                       NULL};
  for (const char *const *s = silent; *s; s++)
    if (strcmp(name, *s) == 0) return OP_DIR_PASS;
  if (op_span_is(t, d->words[0], "declare") || op_span_is(t, d->words[0], "begin") ||
      op_span_is(t, d->words[0], "end"))
    return OP_DIR_PASS;
  return OP_DIR_UNKNOWN;
}

bool op_dir_parse(op_dir *d, const char *t, size_t n, size_t from) {
  d->nclauses = 0;
  d->has_paren = false;
  d->inner_simd = false;
  d->error = NULL;
  size_t p = read_words(d, t, n, from);
  d->content_end = d->nwords ? d->words[d->nwords - 1].end : from;
  d->kind = classify(d, t);
  bool paren = d->kind == OP_DIR_CRITICAL || d->kind == OP_DIR_FLUSH || d->kind == OP_DIR_UNKNOWN ||
               d->kind == OP_DIR_PASS;
  if (!op_dir_parse_rest(d, t, n, p, paren)) return false;
  if (d->kind == OP_DIR_PASS && d->nwords == 2 && op_span_is(t, d->words[0], "declare") &&
      op_span_is(t, d->words[1], "target") && d->nclauses == 0 && !d->has_paren)
    d->kind = OP_DIR_DECLARE_TARGET_BEGIN;
  return true;
}

bool op_dir_parse_rest(op_dir *d, const char *t, size_t n, size_t p, bool paren) {
  d->nclauses = 0;
  d->has_paren = false;
  p = op_skip_gap(t, n, p);
  if (paren && p < n && t[p] == '(') {
    size_t e = op_match_paren(t, n, p);
    if (!e) {
      d->error = "unbalanced parentheses in directive";
      return false;
    }
    d->paren = (op_span){p + 1, e};
    d->has_paren = true;
    d->content_end = e + 1;
    p = e + 1;
  }
  for (;;) {
    p = op_skip_gap(t, n, p);
    if (p >= n) break;
    if (t[p] == ',') {
      p++;
      continue;
    }
    size_t e = op_ident_end(t, n, p);
    if (e == p) {
      if (d->kind == OP_DIR_UNKNOWN) break; /* passed whole anyway */
      d->error = "unexpected character in directive";
      return false;
    }
    op_clause c = {.name = {p, e}, .whole = {p, e}};
    size_t q = op_skip_gap(t, n, e);
    if (q < n && t[q] == '(') {
      size_t close = op_match_paren(t, n, q);
      if (!close) {
        d->error = "unbalanced parentheses in clause";
        return false;
      }
      c.args = (op_span){q + 1, close};
      c.has_args = true;
      c.whole.end = close + 1;
      q = close + 1;
    }
    PU_PUSH(d->clauses, d->nclauses, d->cap, c);
    d->content_end = c.whole.end;
    p = q;
  }
  return true;
}

void op_dir_free(op_dir *d) {
  free(d->clauses);
  d->clauses = NULL;
  d->nclauses = d->cap = 0;
}

bool op_clause_is(const op_clause *c, const char *t, const char *name) {
  return c->word ? strcmp(c->word, name) == 0 : op_span_is(t, c->name, name);
}

bool op_clause_in(const op_clause *c, const char *t, const char *const *list) {
  for (; *list; list++)
    if (op_clause_is(c, t, *list)) return true;
  return false;
}

const op_clause *op_dir_clause(const op_dir *d, const char *t, const char *name) {
  for (size_t i = 0; i < d->nclauses; i++)
    if (op_clause_is(&d->clauses[i], t, name)) return &d->clauses[i];
  return NULL;
}

void op_dir_name(const op_dir *d, const char *t, char *buf, size_t size) {
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < d->nwords; i++) {
    size_t len = d->words[i].end - d->words[i].start;
    if (k + len + 2 > size) break;
    if (i) buf[k++] = ' ';
    memcpy(buf + k, t + d->words[i].start, len);
    k += len;
    buf[k] = 0;
  }
}

op_inst_kind op_inst_parse(const char *t, size_t n, size_t from, op_span *name) {
  size_t p = op_skip_gap(t, n, from), e;
  if ((e = op_word_at(t, n, p, "noinstrument"))) return OP_INST_NOINSTRUMENT;
  if ((e = op_word_at(t, n, p, "instrument"))) return OP_INST_INSTRUMENT;
  if (!(e = op_word_at(t, n, p, "inst"))) return OP_INST_BAD;
  p = op_skip_gap(t, n, e);
  static const struct {
    const char *w;
    op_inst_kind k;
  } words[] = {{"init", OP_INST_INIT},    {"finalize", OP_INST_FINALIZE}, {"on", OP_INST_ON},
               {"off", OP_INST_OFF},      {"begin", OP_INST_BEGIN},       {"end", OP_INST_END},
               {"altend", OP_INST_ALTEND}};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
    if (!(e = op_word_at(t, n, p, words[i].w))) continue;
    if (words[i].k < OP_INST_BEGIN || words[i].k > OP_INST_ALTEND) return words[i].k;
    p = op_skip_gap(t, n, e);
    if (p >= n || t[p] != '(') return OP_INST_BAD;
    size_t close = op_match_paren(t, n, p);
    if (!close) return OP_INST_BAD;
    size_t a = op_skip_gap(t, n, p + 1), b = op_ident_end(t, n, a);
    if (b == a || op_skip_gap(t, n, b) != close) return OP_INST_BAD;
    *name = (op_span){a, b};
    return words[i].k;
  }
  return OP_INST_BAD;
}
