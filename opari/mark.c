/* mark.c -- see mark.h. */
#include "mark.h"

#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool op_line_mark_parse(const char *s, size_t len, op_line_mark *m) {
  size_t p = 1;
  while (p < len && blank(s[p])) p++;
  if (len - p >= 4 && memcmp(s + p, "line", 4) == 0) p += 4;
  while (p < len && blank(s[p])) p++;
  int v = 0;
  size_t d = p;
  while (p < len && s[p] >= '0' && s[p] <= '9' && v < 100000000) v = v * 10 + (s[p++] - '0');
  *m = (op_line_mark){v, {0, 0}, 0};
  if (p == d) return false;
  while (p < len && blank(s[p])) p++;
  if (p < len && s[p] == '"') {
    size_t q = p + 1;
    while (q < len && s[q] != '"') q += s[q] == '\\' && q + 1 < len ? 2 : 1;
    if (q < len) m->file = (op_span){p + 1, q};
    p = q + 1;
  }
  /* flags: single digits 1 to 4 separated by blanks */
  for (;;) {
    while (p < len && blank(s[p])) p++;
    if (p >= len || s[p] < '1' || s[p] > '4' || (p + 1 < len && !blank(s[p + 1]))) break;
    m->flags |= 1u << (s[p] - '1');
    p++;
  }
  return true;
}

/* The name with C escapes resolved (\\, \", octal as GCC writes them). */
static char *unescape(const char *s, size_t n) {
  char *out = pu_malloc(n + 1), *o = out;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\' || i + 1 >= n) {
      *o++ = s[i];
      continue;
    }
    i++;
    if (s[i] >= '0' && s[i] <= '7') {
      int v = 0;
      for (int k = 0; k < 3 && i < n && s[i] >= '0' && s[i] <= '7'; k++) v = v * 8 + s[i++] - '0';
      i--;
      *o++ = (char)v;
    } else *o++ = s[i];
  }
  *o = 0;
  return out;
}

/* Index of the file named s[span], added if new.  The last one matched
   first: marks mostly return to the file they left. */
static int file_index(op_line_map *lm, const char *s, op_span span) {
  size_t len = span.end - span.start;
  for (size_t i = lm->nfiles; i-- > 0;) {
    const char *e = lm->files[i].esc;
    if (strlen(e) == len && memcmp(e, s + span.start, len) == 0) return (int)i;
  }
  op_mark_file f = {pu_malloc(len + 1), unescape(s + span.start, len)};
  memcpy(f.esc, s + span.start, len);
  f.esc[len] = 0;
  PU_PUSH(lm->files, lm->nfiles, lm->files_cap, f);
  return (int)lm->nfiles - 1;
}

const op_mark_entry *op_line_map_add(op_line_map *lm, const char *s, const op_line_mark *m,
                                     int phys) {
  op_mark_entry e = {phys, m->line, lm->n ? lm->v[lm->n - 1].file : -1,
                     (m->flags & MARK_SYSTEM) != 0};
  if (m->file.end) e.file = file_index(lm, s, m->file);
  PU_PUSH(lm->v, lm->n, lm->cap, e);
  return &lm->v[lm->n - 1];
}

const op_mark_entry *op_line_map_find(const op_line_map *lm, int phys) {
  size_t lo = 0, hi = lm->n; /* the first entry after phys */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (lm->v[mid].phys <= phys) lo = mid + 1;
    else hi = mid;
  }
  return lo ? &lm->v[lo - 1] : NULL;
}

int op_line_map_line(const op_line_map *lm, int phys) {
  const op_mark_entry *e = op_line_map_find(lm, phys);
  return e ? e->line + (phys - e->phys) : phys;
}

void op_line_map_free(op_line_map *lm) {
  for (size_t i = 0; i < lm->nfiles; i++) {
    free(lm->files[i].esc);
    free(lm->files[i].raw);
  }
  free(lm->files);
  free(lm->v);
  *lm = (op_line_map){0};
}
