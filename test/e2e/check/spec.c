/*
 * spec.c -- reads an expectation file (format in e2e_check.h).
 *
 * Fields are separated by blanks; a field that holds blanks (region names
 * such as "!$omp parallel @heat.c:12" do) is written in double quotes.
 */
#include "e2e_check.h"

#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

enum { MAX_FIELDS = 8 };

/* Splits line (modified in place) into at most MAX_FIELDS fields; stops at
   '#' outside quotes.  Returns the count, or -1 with a message. */
static int split_fields(e2e_where *c, char *line, char **field) {
  int n = 0;
  char *p = line;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\r') p++;
    if (!*p || *p == '#') return n;
    if (n == MAX_FIELDS) return e2e_fail(c, "too many fields");
    if (*p == '"') {
      char *close = strchr(p + 1, '"');
      if (!close) return e2e_fail(c, "unterminated quote");
      field[n++] = p + 1;
      *close = '\0';
      p = close + 1;
      if (*p && *p != ' ' && *p != '\t' && *p != '\r')
        return e2e_fail(c, "blank expected after a quoted field");
      continue;
    }
    field[n++] = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r') p++;
    if (*p) *p++ = '\0';
  }
}

static int parse_seconds(e2e_where *c, const char *text, double *out) {
  char *end;
  *out = strtod(text, &end);
  if (end == text || *end || *out < 0.0 || *out > 1e6)
    return e2e_fail(c, "'%s' is not a number of seconds", text);
  return 0;
}

static int parse_tolerance(e2e_where *c, const char *text, e2e_expectation *e) {
  size_t len = strlen(text);
  e->relative = len > 1 && text[len - 1] == '%';
  char number[64];
  if (len >= sizeof number) return e2e_fail(c, "bad tolerance '%s'", text);
  memcpy(number, text, len + 1);
  if (e->relative) number[len - 1] = '\0';
  if (parse_seconds(c, number, &e->tolerance) < 0)
    return e2e_fail(c, "bad tolerance '%s' (want 10%% or 0.005)", text);
  if (e->relative) e->tolerance /= 100.0;
  return 0;
}

static int parse_locations(e2e_where *c, const char *text, e2e_expectation *e) {
  char buf[64];
  const char *colon = strchr(text, ':');
  size_t len = colon ? (size_t)(colon - text) : 0;
  if (!colon || len >= sizeof buf) return e2e_fail(c, "locations '%s': want RANKS:THREADS", text);
  memcpy(buf, text, len);
  buf[len] = '\0';
  if (e2e_selector_parse(buf, &e->ranks) < 0) return e2e_fail(c, "bad rank selector '%s'", buf);
  if (e2e_selector_parse(colon + 1, &e->threads) < 0)
    return e2e_fail(c, "bad thread selector '%s'", colon + 1);
  return 0;
}

/* "ranks>=2,threads==1" */
static int parse_conditions(e2e_where *c, const char *text, e2e_expectation *e) {
  const char *p = text;
  while (*p) {
    if (e->nconds == E2E_MAX_CONDITIONS) return e2e_fail(c, "too many conditions");
    e2e_condition *cond = &e->cond[e->nconds++];
    if (strncmp(p, "ranks", 5) == 0) {
      cond->what = 'r';
      p += 5;
    } else if (strncmp(p, "threads", 7) == 0) {
      cond->what = 't';
      p += 7;
    } else {
      return e2e_fail(c, "condition '%s': want ranks or threads", p);
    }
    if ((p[0] != '>' && p[0] != '<' && p[0] != '=') || p[1] != '=')
      return e2e_fail(c, "condition: want >=, <= or ==");
    cond->op = p[0];
    p += 2;
    char *end;
    long n = strtol(p, &end, 10);
    if (end == p || n < 0 || n > 1000000)
      return e2e_fail(c, "condition: want a count after the operator");
    cond->n = (int)n;
    p = end;
    if (*p == ',') p++;
    else if (*p) return e2e_fail(c, "condition: unexpected '%c'", *p);
  }
  return 0;
}

static int parse_expectation(e2e_where *c, char **f, int n, e2e_expectation *e) {
  if (n < 5 || n > 6)
    return e2e_fail(c,
                    "want PROPERTY CALLPATH LOCATIONS VALUE TOLERANCE "
                    "[REQUIRES], got %d fields",
                    n);
  if (parse_locations(c, f[2], e) < 0 || parse_seconds(c, f[3], &e->value) < 0 ||
      parse_tolerance(c, f[4], e) < 0 || (n == 6 && parse_conditions(c, f[5], e) < 0))
    return -1;
  e->property = pu_strdup(f[0]);
  e->callpath = pu_strdup(f[1]);
  return 0;
}

static int parse_ignore(e2e_where *c, char **f, int n, e2e_expectation *e) {
  if (n < 3 || n > 4) return e2e_fail(c, "want ignore PROPERTY CALLPATH [REQUIRES]");
  if (n == 4 && parse_conditions(c, f[3], e) < 0) return -1;
  e->property = pu_strdup(f[1]);
  e->callpath = pu_strdup(f[2]);
  return 0;
}

/* "plus PROPERTY CALLPATH LOCATIONS", a term of the last expectation */
static int parse_plus(e2e_where *c, char **f, int n, e2e_spec *spec) {
  if (n != 4) return e2e_fail(c, "want plus PROPERTY CALLPATH LOCATIONS");
  if (!spec->nexpect) return e2e_fail(c, "plus without an expectation before it");
  e2e_expectation term = {.line = c->line};
  if (parse_locations(c, f[3], &term) < 0) return -1;
  term.property = pu_strdup(f[1]);
  term.callpath = pu_strdup(f[2]);
  e2e_expectation *e = &spec->expect[spec->nexpect - 1];
  PU_PUSH(e->plus, e->nplus, e->capplus, term);
  return 0;
}

static int parse_line(e2e_where *c, e2e_spec *spec, char *line) {
  char *f[MAX_FIELDS];
  int n = split_fields(c, line, f);
  if (n <= 0) return n;
  e2e_expectation e = {.line = c->line};
  if (strcmp(f[0], "large") == 0) {
    if (n != 2) return e2e_fail(c, "want large SECONDS");
    return parse_seconds(c, f[1], &spec->large);
  }
  if (strcmp(f[0], "plus") == 0) return parse_plus(c, f, n, spec);
  if (strcmp(f[0], "ignore") == 0) {
    if (parse_ignore(c, f, n, &e) < 0) return -1;
    PU_PUSH(spec->ignore, spec->nignore, spec->capignore, e);
    return 0;
  }
  if (parse_expectation(c, f, n, &e) < 0) return -1;
  PU_PUSH(spec->expect, spec->nexpect, spec->capexpect, e);
  return 0;
}

int e2e_spec_parse(e2e_spec *spec, const char *text, const char *file, char *err, size_t errlen) {
  memset(spec, 0, sizeof *spec);
  spec->large = 0.010;
  e2e_where c = {file, 0, err, errlen};
  const char *p = text;
  while (*p) {
    c.line++;
    size_t len = strcspn(p, "\n");
    char *line = pu_malloc(len + 1);
    memcpy(line, p, len);
    line[len] = '\0';
    int rc = parse_line(&c, spec, line);
    free(line);
    if (rc < 0) {
      e2e_spec_free(spec);
      return -1;
    }
    p += len;
    if (*p) p++;
  }
  return 0;
}

static void free_lines(e2e_expectation *e, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(e[i].property);
    free(e[i].callpath);
    free_lines(e[i].plus, e[i].nplus);
  }
  free(e);
}

void e2e_spec_free(e2e_spec *spec) {
  free_lines(spec->expect, spec->nexpect);
  free_lines(spec->ignore, spec->nignore);
  memset(spec, 0, sizeof *spec);
}
