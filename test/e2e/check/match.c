/*
 * match.c -- the small matchers of an expectation: location selectors, run
 * conditions and call-path suffixes.
 */
#include "e2e_check.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

/* A non-negative decimal integer filling all of text, or -1. */
static int parse_index(const char *text) {
  if (!*text) return -1;
  char *end;
  long v = strtol(text, &end, 10);
  if (*end || v < 0 || v > 1000000 || text[0] == '-' || text[0] == '+') return -1;
  return (int)v;
}

int e2e_selector_parse(const char *text, e2e_selector *out) {
  static const struct {
    const char *word;
    e2e_sel_kind kind;
  } words[] = {{"*", E2E_SEL_ALL},     {"even", E2E_SEL_EVEN},          {"odd", E2E_SEL_ODD},
               {"last", E2E_SEL_LAST}, {"!last", E2E_SEL_ALL_BUT_LAST}, {"inner", E2E_SEL_INNER}};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (strcmp(text, words[i].word) == 0) {
      out->kind = words[i].kind;
      out->n = 0;
      return 0;
    }
  int negated = text[0] == '!';
  int n = parse_index(text + negated);
  if (n < 0) return -1;
  out->kind = negated ? E2E_SEL_ALL_BUT : E2E_SEL_ONE;
  out->n = n;
  return 0;
}

int e2e_selector_matches(e2e_selector s, int index, int count) {
  switch (s.kind) {
  case E2E_SEL_ALL: return 1;
  case E2E_SEL_ONE: return index == s.n;
  case E2E_SEL_ALL_BUT: return index != s.n;
  case E2E_SEL_EVEN: return index % 2 == 0;
  case E2E_SEL_ODD: return index % 2 == 1;
  case E2E_SEL_LAST: return index == count - 1;
  case E2E_SEL_ALL_BUT_LAST: return index != count - 1;
  case E2E_SEL_INNER: return index != 0 && index != count - 1;
  }
  return 0;
}

int e2e_conditions_hold(const e2e_expectation *e, int ranks, int threads) {
  for (int i = 0; i < e->nconds; i++) {
    const e2e_condition *c = &e->cond[i];
    int have = c->what == 'r' ? ranks : threads;
    int ok = c->op == '>' ? have >= c->n : c->op == '<' ? have <= c->n : have == c->n;
    if (!ok) return 0;
  }
  return 1;
}

/* A call path or pattern cut into its ';'-separated components. */
typedef struct {
  const char *at[E2E_MAX_COMPONENTS];
  size_t len[E2E_MAX_COMPONENTS];
  int n;
} components;

/* Returns 0 when text has more than E2E_MAX_COMPONENTS components. */
static int split_components(const char *text, components *c) {
  c->n = 0;
  for (const char *p = text;;) {
    if (c->n == E2E_MAX_COMPONENTS) return 0;
    size_t len = strcspn(p, ";");
    c->at[c->n] = p;
    c->len[c->n++] = len;
    if (!p[len]) return 1;
    p += len + 1;
  }
}

/* fnmatch on a component that is not NUL-terminated. */
static int component_matches(const char *pat, size_t patlen, const char *s, size_t slen) {
  char pbuf[1024], sbuf[1024];
  if (patlen >= sizeof pbuf || slen >= sizeof sbuf) return 0;
  memcpy(pbuf, pat, patlen);
  pbuf[patlen] = '\0';
  memcpy(sbuf, s, slen);
  sbuf[slen] = '\0';
  return fnmatch(pbuf, sbuf, 0) == 0;
}

/* The two call paths and what is known about their sub-problems. */
typedef struct {
  components pat, path;
  unsigned char *memo; /* [np * (path.n + 1) + nc]: 0 unknown, 1 no, 2 yes */
} suffix_match;

/* Whether the first np pattern components match path components ending at
   the nc-th: "**" stands for any number of components, zero included.
   Memoised, so that many "**" cannot make it exponential. */
static int suffix_matches(suffix_match *m, int np, int nc) {
  if (np == 0) return 1;
  unsigned char *known = &m->memo[(size_t)np * (size_t)(m->path.n + 1) + (size_t)nc];
  if (*known) return *known == 2;
  const char *p = m->pat.at[np - 1];
  size_t plen = m->pat.len[np - 1];
  int yes;
  if (plen == 2 && p[0] == '*' && p[1] == '*')
    yes = suffix_matches(m, np - 1, nc) || (nc > 0 && suffix_matches(m, np, nc - 1));
  else
    yes = nc > 0 && component_matches(p, plen, m->path.at[nc - 1], m->path.len[nc - 1]) &&
          suffix_matches(m, np - 1, nc - 1);
  *known = yes ? 2 : 1;
  return yes;
}

int e2e_callpath_ends_with(const char *callpath, const char *pattern) {
  suffix_match m;
  if (!split_components(callpath, &m.path) || !split_components(pattern, &m.pat)) return 0;
  m.memo = pu_calloc((size_t)(m.pat.n + 1) * (size_t)(m.path.n + 1), 1);
  int yes = suffix_matches(&m, m.pat.n, m.path.n);
  free(m.memo);
  return yes;
}
