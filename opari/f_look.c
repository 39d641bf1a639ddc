/*
 * f_look.c -- look-ahead for constructs whose END directive is optional:
 * where the DO loop after `!$omp do` / `!$omp parallel do` ends (END DO
 * of a block DO, or the statement carrying the label of a labelled DO),
 * and whether an END directive follows.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "f_rw.h"

size_t opf_next_significant(const opf_rw *rw, size_t li) {
  for (; li < rw->nlines; li++) {
    opf_line_kind k = opf_classify(rw, li).kind;
    if (k == FL_CODE || k == FL_OMP || k == FL_POMP) break;
  }
  return li;
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static long digits(const char *s, size_t *p) {
  long v = -1;
  while (isdigit((unsigned char)s[*p]) && v < 100000000)
    v = (v < 0 ? 0 : v * 10) + (s[(*p)++] - '0');
  return v;
}

/* Whether the blank-free fixed-form text after `do` is a DO statement's
   rest (`i=1,n`, `while(...)`, nothing) rather than an assignment to a
   variable whose name starts with "do". */
static bool fixed_do_rest(const char *r) {
  if (!*r || strncmp(r, "while(", 6) == 0) return true;
  const char *eq = strchr(r, '=');
  if (!eq) return false;
  int depth = 0;
  for (const char *p = eq + 1; *p; p++) {
    if (*p == '(') depth++;
    else if (*p == ')') depth--;
    else if (*p == ',' && depth == 0) return true;
  }
  return false;
}

/* Whether w (lower case; without blanks in fixed form) is `RETURN [n]`
   (1) or `IF (...) RETURN [n]` (2), else 0. */
static int return_kind(const char *w, bool fixed) {
  int kind = 1;
  if (strncmp(w, "if", 2) == 0 && (w[2] == '(' || w[2] == ' ' || w[2] == '\t')) {
    const char *p = w + 2;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != '(') return 0;
    int depth = 0;
    for (; *p; p++) {
      if (*p == '(') depth++;
      else if (*p == ')' && --depth == 0) break;
    }
    if (!*p) return 0;
    for (p++; *p == ' ' || *p == '\t'; p++) {
    }
    w = p;
    kind = 2;
  }
  if (strncmp(w, "return", 6) != 0) return 0;
  const char *r = w + 6;
  if (!fixed && ident_char(*r)) return 0; /* a name like return_code */
  while (*r == ' ' || *r == '\t' || isdigit((unsigned char)*r)) r++;
  return *r ? 0 : kind;
}

size_t opf_stmt_text(const opf_rw *rw, size_t li, char *text, size_t size, long *label) {
  const opf_line *l = &rw->lines[li];
  size_t len = l->end - l->start, from = opf_classify(rw, li).body;
  const char *s = rw->src + l->start;
  size_t k = 0;
  *label = -1;
  if (rw->fixed) {
    size_t p = 0;
    while (p < len && p < 5 && s[p] != '\t') {
      if (isdigit((unsigned char)s[p])) *label = (*label < 0 ? 0 : *label * 10) + (s[p] - '0');
      p++;
    }
    from = p < len && s[p] == '\t' ? p + 1 : 6;
    if (len > 72) len = 72;
  }
  char quote = 0;
  for (size_t i = from; i < len && k + 1 < size; i++) {
    char c = s[i];
    if (!quote && c == '!') break;
    if (quote && c == quote) quote = 0;
    else if (!quote && (c == '\'' || c == '"')) quote = c;
    if (rw->fixed && (c == ' ' || c == '\t')) continue;
    text[k++] = (char)tolower((unsigned char)c);
  }
  text[k] = 0;
  size_t p = 0;
  if (!rw->fixed) {
    *label = digits(text, &p);
    while (text[p] == ' ' || text[p] == '\t') p++;
  }
  memmove(text, text + p, k - p + 1);
  return k - p;
}

size_t opf_construct_name(const char *text, size_t *name_len) {
  size_t q = 0;
  while (ident_char(text[q])) q++;
  size_t r = q;
  while (text[r] == ' ' || text[r] == '\t') r++;
  *name_len = 0;
  if (q == 0 || text[r] != ':' || text[r + 1] == ':') return 0;
  *name_len = q;
  for (r++; text[r] == ' ' || text[r] == '\t'; r++) {
  }
  return r;
}

/* The first line of the statement at code line li, read for its label and
   its keyword (lower case; without blanks in fixed form). */
opf_stmt opf_stmt_at(const opf_rw *rw, size_t li) {
  opf_stmt st = {-1, false, -1, false, 0};
  char text[160];
  opf_stmt_text(rw, li, text, sizeof text, &st.label);
  size_t name_len, p = opf_construct_name(text, &name_len);
  const char *w = text + p;
  st.ret = return_kind(w, rw->fixed);
  if (rw->fixed) {
    if (strncmp(w, "enddo", 5) == 0) st.is_enddo = true;
    else if (strncmp(w, "do", 2) == 0) {
      size_t d = 2;
      if (isdigit((unsigned char)w[2])) {
        st.is_do = true;
        st.do_label = digits(w, &d);
      } else st.is_do = fixed_do_rest(w + 2);
    }
    return st;
  }
  size_t e = 0;
  while (ident_char(w[e])) e++;
  size_t after = e;
  while (w[after] == ' ' || w[after] == '\t') after++;
  if (e == 5 && strncmp(w, "enddo", 5) == 0) st.is_enddo = true;
  else if (e == 3 && strncmp(w, "end", 3) == 0 && strncmp(w + after, "do", 2) == 0 &&
           !ident_char(w[after + 2]))
    st.is_enddo = true;
  else if (e == 2 && strncmp(w, "do", 2) == 0 && w[after] != '=' && w[after] != '(') {
    st.is_do = true;
    st.do_label = digits(w, &after);
  }
  return st;
}

size_t opf_loop_end(const opf_rw *rw, size_t li) {
  opf_stmt first = opf_stmt_at(rw, li);
  int depth = 1;
  for (size_t k = opf_stmt_last(rw, li) + 1; (k = opf_next_significant(rw, k)) < rw->nlines;) {
    if (opf_classify(rw, k).kind != FL_CODE) {
      k++;
      continue;
    }
    opf_stmt st = opf_stmt_at(rw, k);
    size_t last = opf_stmt_last(rw, k);
    if (first.do_label >= 0) {
      if (st.label == first.do_label) return last;
    } else if (st.is_do && st.do_label < 0) depth++;
    else if (st.is_enddo && --depth == 0) return last;
    k = last + 1;
  }
  return SIZE_MAX;
}

size_t opf_loop_last(opf_rw *rw, size_t li, size_t dir_line) {
  if (li >= rw->nlines || opf_classify(rw, li).kind != FL_CODE || !opf_stmt_at(rw, li).is_do)
    opf_error(rw, dir_line, "this directive must be followed by a DO loop");
  size_t last = opf_loop_end(rw, li);
  if (last != SIZE_MAX) return last;
  if (opf_stmt_at(rw, li).do_label >= 0)
    opf_error(rw, dir_line, "cannot find the statement labelled %ld that ends the DO loop",
              opf_stmt_at(rw, li).do_label);
  opf_error(rw, dir_line, "cannot find the END DO of the loop after this directive");
}

bool opf_is_end_directive(opf_rw *rw, size_t li, const char *words) {
  if (li >= rw->nlines) return false;
  opf_line_class c = opf_classify(rw, li);
  if (c.kind != FL_OMP || c.cont) return false;
  const opf_line *l = &rw->lines[li];
  char want[48] = "end", got[48];
  size_t k = 3;
  for (const char *w = words; *w && k + 1 < sizeof want; w++)
    if (*w != ' ') want[k++] = *w;
  want[k] = 0;
  size_t g = 0, end = l->end;
  if (rw->fixed && end - l->start > 72) end = l->start + 72; /* sequence numbers */
  for (size_t i = l->start + c.body; i < end && g + 1 < sizeof got; i++) {
    char ch = rw->src[i];
    if (ch == '!' || ch == '&') break;
    if (ch != ' ' && ch != '\t') got[g++] = (char)tolower((unsigned char)ch);
  }
  got[g] = 0;
  /* blanks are gone: `end do nowait` reads "enddonowait" */
  return strncmp(got, want, k) == 0 && (!ident_char(got[k]) || strncmp(got + k, "nowait", 6) == 0);
}

int opf_return_at(const opf_rw *rw, size_t li) {
  opf_stmt st = opf_stmt_at(rw, li);
  return st.ret == 1 && st.label >= 0 ? 2 : st.ret;
}
