/*
 * match.c -- the small matchers of an expectation: location selectors, run
 * conditions and call-path suffixes.
 */
#include "e2e_check.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* A non-negative decimal integer filling all of text, or -1. */
static int parse_index(const char *text) {
  if (!*text) return -1;
  char *end;
  long v = strtol(text, &end, 10);
  if (*end || v < 0 || v > 1000000 || text[0] == '-' || text[0] == '+')
    return -1;
  return (int)v;
}

int e2e_selector_parse(const char *text, e2e_selector *out) {
  static const struct {
    const char *word;
    e2e_sel_kind kind;
  } words[] = {{"*", E2E_SEL_ALL},   {"even", E2E_SEL_EVEN},
               {"odd", E2E_SEL_ODD}, {"last", E2E_SEL_LAST},
               {"!last", E2E_SEL_ALL_BUT_LAST}};
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
  }
  return 0;
}

int e2e_conditions_hold(const e2e_expectation *e, int ranks, int threads) {
  for (int i = 0; i < e->nconds; i++) {
    const e2e_condition *c = &e->cond[i];
    int have = c->what == 'r' ? ranks : threads;
    int ok = c->op == '>'   ? have >= c->n
             : c->op == '<' ? have <= c->n
                            : have == c->n;
    if (!ok) return 0;
  }
  return 1;
}

/* The first character of the ';'-separated component that ends at end
   (exclusive), searching no further back than begin. */
static const char *component_start(const char *begin, const char *end) {
  const char *p = end;
  while (p > begin && p[-1] != ';') p--;
  return p;
}

/* fnmatch on a component that is not NUL-terminated. */
static int component_matches(const char *pat, size_t patlen, const char *s,
                             size_t slen) {
  char pbuf[1024], sbuf[1024];
  if (patlen >= sizeof pbuf || slen >= sizeof sbuf) return 0;
  memcpy(pbuf, pat, patlen);
  pbuf[patlen] = '\0';
  memcpy(sbuf, s, slen);
  sbuf[slen] = '\0';
  return fnmatch(pbuf, sbuf, 0) == 0;
}

int e2e_callpath_ends_with(const char *callpath, const char *pattern) {
  const char *cend = callpath + strlen(callpath);
  const char *pend = pattern + strlen(pattern);
  for (;;) {
    const char *pstart = component_start(pattern, pend);
    const char *cstart = component_start(callpath, cend);
    if (!component_matches(pstart, (size_t)(pend - pstart), cstart,
                           (size_t)(cend - cstart)))
      return 0;
    if (pstart == pattern) return 1;
    if (cstart == callpath) return 0;
    pend = pstart - 1;
    cend = cstart - 1;
  }
}
