/*
 * rows.c -- reads the CSV of `pomp-report dump --format csv`:
 * header metric,callpath,rank,thread,value, then one value per line.
 * Fields may be double-quoted (RFC 4180: "" inside stands for a quote), so
 * that region names with commas or quotes survive.
 */
#include "e2e_check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

enum { FIELDS = 5 };
static const char HEADER[] = "metric,callpath,rank,thread,value";

/* Reads one field starting at *p into a new string; leaves *p after the
   field's separator (or at the line's end).  Returns NULL on a bad quote. */
static char *read_field(const char **p) {
  const char *s = *p;
  size_t cap = strcspn(s, "\n") + 1, n = 0;
  char *out = pu_malloc(cap);
  if (*s == '"') {
    s++;
    for (;;) {
      if (*s == '\0' || *s == '\n') {
        free(out);
        return NULL;
      }
      if (*s == '"') {
        if (s[1] != '"') break;
        s++;
      }
      out[n++] = *s++;
    }
    s++; /* closing quote */
    if (*s && *s != ',' && *s != '\n' && *s != '\r') {
      free(out);
      return NULL;
    }
  } else {
    while (*s && *s != ',' && *s != '\n' && *s != '\r') out[n++] = *s++;
  }
  out[n] = '\0';
  if (*s == ',') s++;
  *p = s;
  return out;
}

static int parse_int(const char *text, int *out) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (end == text || *end || errno || v < 0 || v > 1 << 30) return -1;
  *out = (int)v;
  return 0;
}

/* Parses one data line (without its newline) into a row. */
static int parse_row(const e2e_where *w, const char *line, e2e_row *row) {
  char *f[FIELDS] = {0};
  const char *p = line;
  int n = 0, rc = 0;
  while (n < FIELDS && *p && *p != '\n' && *p != '\r') {
    if (!(f[n] = read_field(&p))) {
      rc = e2e_fail(w, "bad quoting in field %d", n + 1);
      break;
    }
    n++;
  }
  if (rc == 0 && (n != FIELDS || (*p && *p != '\n' && *p != '\r')))
    rc = e2e_fail(w, "want 5 fields (%s)", HEADER);
  char *end = NULL;
  if (rc == 0 && (parse_int(f[2], &row->rank) < 0 || parse_int(f[3], &row->thread) < 0))
    rc = e2e_fail(w, "rank and thread must be counts");
  if (rc == 0) {
    row->value = strtod(f[4], &end);
    if (end == f[4] || *end) rc = e2e_fail(w, "value '%s' is not a number", f[4]);
  }
  if (rc == 0) {
    row->metric = f[0];
    row->callpath = f[1];
    row->covered = 0;
    row->trace_checked = 0;
    f[0] = f[1] = NULL;
  }
  for (int i = 0; i < FIELDS; i++) free(f[i]);
  return rc;
}

int e2e_rows_parse(e2e_rows *rows, const char *text, const char *file, char *err, size_t errlen) {
  memset(rows, 0, sizeof *rows);
  e2e_where w = {file, 1, err, errlen};
  size_t len = strcspn(text, "\r\n");
  if (len != sizeof HEADER - 1 || strncmp(text, HEADER, len) != 0)
    return e2e_fail(&w, "header must be '%s'", HEADER);
  const char *p = text + len;
  while (*p) {
    p += strspn(p, "\r");
    if (*p == '\n') p++;
    if (!*p) break;
    w.line++;
    e2e_row row;
    if (parse_row(&w, p, &row) < 0) {
      e2e_rows_free(rows);
      return -1;
    }
    PU_PUSH(rows->rows, rows->n, rows->cap, row);
    p += strcspn(p, "\n");
  }
  return 0;
}

void e2e_rows_free(e2e_rows *rows) {
  for (size_t i = 0; i < rows->n; i++) {
    free(rows->rows[i].metric);
    free(rows->rows[i].callpath);
  }
  free(rows->rows);
  memset(rows, 0, sizeof *rows);
}
