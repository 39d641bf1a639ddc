/*
 * f_lines.c -- physical lines of a Fortran unit: free or fixed form,
 * sentinels (`!$OMP`, `!$POMP`, `!P$`; `C`/`*` too in fixed form),
 * continuation lines, `# N "file"` marks, dead `#if 0` arms, and the text
 * of one directive, cleaned so that the language-neutral parser
 * (directive.c) can read it with unchanged offsets.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "f_rw.h"
#include "mark.h"
#include "pomp_util.h"

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static bool ci_prefix(const char *s, size_t len, const char *word) {
  size_t k = strlen(word);
  if (len < k) return false;
  for (size_t i = 0; i < k; i++)
    if (tolower((unsigned char)s[i]) != word[i]) return false;
  return true;
}

/* `#if 0` ... `#else` ... `#endif` structure: lines in an arm known to be
   dead are not looked at (like comments).  Only the literal conditions 0
   and 1 are known; any other arm is live. */
typedef struct {
  bool parent_dead, dead;
  int literal; /* 0, 1, or -1 unknown */
} opf_cond;

static size_t skip_blanks(const char *s, size_t p, size_t len) {
  while (p < len && blank(s[p])) p++;
  return p;
}

static bool word_at(const char *s, size_t p, size_t len, const char *w) {
  size_t k = strlen(w);
  return len - p >= k && memcmp(s + p, w, k) == 0 &&
         (p + k == len || !isalnum((unsigned char)s[p + k]));
}

/* Updates the conditional stack for the preprocessor line s; returns
   whether the lines after it are dead. */
static bool conditional(opf_cond *stack, int *depth, const char *s, size_t len) {
  enum { MAX_DEPTH = 64 };
  size_t p = skip_blanks(s, 1, len);
  bool dead = *depth ? stack[*depth - 1].dead : false;
  if (word_at(s, p, len, "if") || word_at(s, p, len, "ifdef") || word_at(s, p, len, "ifndef")) {
    int literal = -1;
    if (word_at(s, p, len, "if")) {
      size_t q = skip_blanks(s, p + 2, len);
      if (q < len && (s[q] == '0' || s[q] == '1') &&
          (q + 1 == len || blank(s[q + 1]) || s[q + 1] == '/'))
        literal = s[q] - '0';
    }
    if (*depth < MAX_DEPTH) stack[(*depth)++] = (opf_cond){dead, dead || literal == 0, literal};
  } else if (*depth && (word_at(s, p, len, "else") || word_at(s, p, len, "elif"))) {
    opf_cond *c = &stack[*depth - 1];
    c->dead = c->parent_dead || c->literal == 1;
    c->literal = c->literal == 1 ? 1 : -1; /* after a true arm, all are dead */
  } else if (*depth && word_at(s, p, len, "endif")) (*depth)--;
  return *depth ? stack[*depth - 1].dead : false;
}

void opf_split_lines(opf_rw *rw) {
  int logical = 1, depth = 0;
  unsigned file = 0;
  opf_cond stack[64];
  bool dead = false;
  for (size_t p = 0; p < rw->n;) {
    const char *nl = memchr(rw->src + p, '\n', rw->n - p);
    size_t end = nl ? (size_t)(nl - rw->src) : rw->n;
    opf_line l = {p, end, nl ? end + 1 : rw->n, logical++, dead, file};
    if (rw->src[p] == '#') {
      op_line_mark lm;
      int mark = op_line_mark_parse(rw->src + p, end - p, &lm) ? lm.line : 0;
      op_span name = lm.file;
      if (mark) logical = mark;
      if (mark && name.end) {
        name.start += p;
        name.end += p;
        PU_PUSH(rw->files, rw->nfiles, rw->files_cap, name);
        file = (unsigned)rw->nfiles;
      }
      dead = conditional(stack, &depth, rw->src + p, end - p);
      l.dead = false;
    }
    PU_PUSH(rw->lines, rw->nlines, rw->lines_cap, l);
    p = l.next;
  }
}

static opf_line_class classify_fixed(const char *s, size_t len) {
  opf_line_class c = {FL_CODE, false, 0, 0, false};
  size_t p = 0;
  while (p < len && blank(s[p])) p++;
  if (p == len) return (opf_line_class){FL_BLANK, false, 0, 0, false};
  if (s[0] == '#') return (opf_line_class){FL_CPP, false, 0, 0, false};
  if (strchr("cC*!", s[0])) {
    bool cont6 = len > 5 && !blank(s[5]) && s[5] != '0';
    if (len >= 5 && s[1] == '$' && ci_prefix(s + 2, len - 2, "omp"))
      return (opf_line_class){FL_OMP, cont6, 0, len > 5 ? 6 : len, false};
    if (len >= 6 && s[1] == '$' && ci_prefix(s + 2, len - 2, "pomp") && (len == 6 || blank(s[6])))
      return (opf_line_class){FL_POMP, false, 0, 6, false};
    if (len >= 3 && (s[1] == 'p' || s[1] == 'P') && s[2] == '$')
      return (opf_line_class){FL_CODE, cont6, 0, 3, true};
    /* OpenMP conditional compilation (`!$`, `C$`, `*$` then blanks or a
       label up to column 5): code when compiled with OpenMP */
    bool cond = len >= 2 && s[1] == '$';
    for (size_t i = 2; cond && i < len && i < 5; i++)
      cond = blank(s[i]) || (s[i] >= '0' && s[i] <= '9');
    if (cond) return (opf_line_class){FL_CODE, cont6, 0, 2, false};
    return (opf_line_class){FL_COMMENT, false, 0, 0, false};
  }
  if (s[p] == '!' && p != 5) return (opf_line_class){FL_COMMENT, false, 0, 0, false};
  if (s[0] == '\t') c.cont = len > 1 && s[1] >= '1' && s[1] <= '9';
  else c.cont = len > 5 && !blank(s[5]) && s[5] != '0';
  c.body = p;
  return c;
}

static opf_line_class classify_free(const char *s, size_t len) {
  size_t p = 0;
  while (p < len && blank(s[p])) p++;
  if (p == len) return (opf_line_class){FL_BLANK, false, 0, 0, false};
  if (s[0] == '#') return (opf_line_class){FL_CPP, false, 0, 0, false};
  if (s[p] != '!') return (opf_line_class){FL_CODE, false, 0, p, false};
  const char *t = s + p;
  size_t k = len - p;
  if (ci_prefix(t, k, "!$omp") && (k == 5 || blank(t[5]) || t[5] == '&'))
    return (opf_line_class){FL_OMP, false, p, p + 5, false};
  if (ci_prefix(t, k, "!$pomp") && (k == 6 || blank(t[6])))
    return (opf_line_class){FL_POMP, false, p, p + 6, false};
  if (ci_prefix(t, k, "!p$") && (k == 3 || blank(t[3])))
    return (opf_line_class){FL_CODE, false, p, p + 3, true};
  /* OpenMP conditional compilation: code when compiled with OpenMP */
  if (k >= 2 && t[1] == '$' && (k == 2 || blank(t[2])))
    return (opf_line_class){FL_CODE, false, p, p + 2, false};
  return (opf_line_class){FL_COMMENT, false, 0, 0, false};
}

opf_line_class opf_classify(const opf_rw *rw, size_t li) {
  const opf_line *l = &rw->lines[li];
  if (l->dead) return (opf_line_class){FL_COMMENT, false, 0, 0, false};
  const char *s = rw->src + l->start;
  size_t len = l->end - l->start;
  return rw->fixed ? classify_fixed(s, len) : classify_free(s, len);
}

void opf_set_indent(opf_rw *rw, size_t li) {
  const opf_line *l = &rw->lines[li];
  size_t k = 0;
  if (!rw->fixed)
    while (l->start + k < l->end && k + 1 < sizeof rw->indent && blank(rw->src[l->start + k]) &&
           rw->src[l->start + k] != '\r')
      k++;
  memcpy(rw->indent, rw->src + l->start, k);
  rw->indent[k] = 0;
}

size_t opf_code_end(const char *s, size_t from, size_t end, char *quote) {
  for (size_t i = from; i < end; i++) {
    char c = s[i];
    if (*quote) {
      if (c == *quote) {
        if (i + 1 < end && s[i + 1] == c) i++; /* doubled quote */
        else *quote = 0;
      }
    } else if (c == '\'' || c == '"') *quote = c;
    else if (c == '!') return i;
  }
  return end;
}

/* The last significant byte of s[from..to) before the comment, or to. */
static size_t last_significant(const char *s, size_t from, size_t to) {
  while (to > from && blank(s[to - 1])) to--;
  return to > from ? to - 1 : (size_t)-1;
}

size_t opf_stmt_last(const opf_rw *rw, size_t li) {
  size_t last = li;
  char quote = 0;
  for (;;) {
    size_t k = last + 1;
    while (k < rw->nlines) {
      opf_line_kind kind = opf_classify(rw, k).kind;
      if (kind != FL_BLANK && kind != FL_COMMENT && kind != FL_CPP) break;
      k++;
    }
    if (rw->fixed) {
      if (k < rw->nlines && opf_classify(rw, k).cont && opf_classify(rw, k).kind == FL_CODE) {
        last = k;
        continue;
      }
      return last;
    }
    const opf_line *l = &rw->lines[last];
    size_t from = l->start;
    opf_line_class c = opf_classify(rw, last);
    if (!quote && c.kind == FL_CODE) from += c.body; /* after a `!$` sentinel */
    while (from < l->end && blank(rw->src[from])) from++;
    if (last != li && from < l->end && rw->src[from] == '&') from++;
    size_t e = opf_code_end(rw->src, from, l->end, &quote);
    size_t amp = last_significant(rw->src, from, e);
    if (amp == (size_t)-1 || rw->src[amp] != '&') return last;
    /* a character context goes on in the very next line, whatever it
       looks like; otherwise comment lines may come in between */
    if (quote) k = last + 1;
    if (k >= rw->nlines || (!quote && opf_classify(rw, k).kind != FL_CODE)) return last;
    last = k;
  }
}

/* ---- directives --------------------------------------------------------- */

/* Cleans the text of line li (copied at clean[off..]) after its sentinel:
   returns whether it ends with a free-form continuation `&`. */
static bool clean_line(opf_rw *rw, size_t li, size_t off, bool cont) {
  const opf_line *l = &rw->lines[li];
  opf_line_class c = opf_classify(rw, li);
  char *t = rw->fd.clean + off;
  size_t len = l->end - l->start, body = c.body;
  memset(t, ' ', body);
  if (!rw->fixed && cont) {
    size_t p = body;
    while (p < len && blank(t[p])) p++;
    if (p < len && t[p] == '&') t[p] = ' ';
  }
  char quote = 0;
  size_t e = opf_code_end(t, body, len, &quote);
  if (rw->fixed && e > 72) e = 72; /* columns after 72 are ignored */
  memset(t + e, ' ', len - e);
  for (size_t i = body; i < e; i++) {
    if (t[i] == '\'' || t[i] == '"') {
      char q = t[i];
      for (i++; i < e && t[i] != q; i++) {
      }
    } else if (t[i] == '\r' || t[i] == '\t') t[i] = ' ';
    else t[i] = (char)tolower((unsigned char)t[i]);
  }
  if (rw->fixed) return false;
  size_t amp = last_significant(t, body, e);
  if (amp != (size_t)-1 && t[amp] == '&') {
    t[amp] = ' ';
    return true;
  }
  return false;
}

void opf_read_directive(opf_rw *rw, size_t li) {
  opf_dir *fd = &rw->fd;
  fd->first = fd->last = li;
  fd->start = rw->lines[li].start;
  for (;;) {
    size_t need = rw->lines[fd->last].end - fd->start + 1;
    if (need > fd->cap) {
      fd->cap = need * 2;
      fd->clean = pu_realloc(fd->clean, fd->cap);
    }
    const opf_line *l = &rw->lines[fd->last];
    memcpy(fd->clean + (l->start - fd->start), rw->src + l->start, l->end - l->start);
    if (l->next > l->end) fd->clean[l->end - fd->start] = '\n';
    fd->len = l->end - fd->start;
    bool amp = clean_line(rw, fd->last, l->start - fd->start, fd->last != li);
    size_t k = fd->last + 1;
    if (rw->fixed) {
      if (k < rw->nlines && opf_classify(rw, k).kind == FL_OMP && opf_classify(rw, k).cont) {
        fd->len++;
        fd->last = k;
        continue;
      }
      break;
    }
    if (!amp) break;
    if (k >= rw->nlines || opf_classify(rw, k).kind != FL_OMP)
      opf_error(rw, fd->last,
                "the directive continues with '&' but the next line is no '!$omp' line");
    fd->len++;
    fd->last = k;
  }
  fd->kind = opf_read_names(rw);
}
