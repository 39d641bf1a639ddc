/* pomp_filter.c -- filter rules of user functions and the names they
 * match (see pomp_filter.h): the one parser behind POMP_FILTER and
 * pomp-cc --filter, so a file means the same at compile and at run time.
 */
#include "pomp_filter.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pomp_util.h"

void pu_filter_clear(pu_filter *f) {
  for (size_t i = 0; i < f->n; i++) free(f->rules[i].glob);
  free(f->rules);
  f->rules = NULL;
  f->n = f->cap = 0;
}

/* One line without its newline: blank, comment, or "keyword glob". */
static int parse_line(pu_filter *f, char *s, const char *path, unsigned lineno, char *why,
                      size_t why_size) {
  char *hash = strchr(s, '#');
  if (hash) *hash = '\0';
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  if (!n) return 0;
  size_t kw = strcspn(s, " \t");
  int include;
  if (kw == 7 && !strncasecmp(s, "include", 7)) include = 1;
  else if (kw == 7 && !strncasecmp(s, "exclude", 7)) include = 0;
  else {
    snprintf(why, why_size, "%s:%u: unknown rule '%.*s' (expected include or exclude)", path,
             lineno, (int)(kw > 40 ? 40 : kw), s);
    return -1;
  }
  char *glob = s + kw;
  while (isspace((unsigned char)*glob)) glob++;
  if (!*glob) {
    snprintf(why, why_size, "%s:%u: '%.7s' needs a name pattern", path, lineno, s);
    return -1;
  }
  pu_filter_rule r = {include, pu_strdup(glob)};
  PU_PUSH(f->rules, f->n, f->cap, r);
  return 0;
}

int pu_filter_parse(pu_filter *f, const char *text, size_t len, const char *path, char *why,
                    size_t why_size) {
  pu_filter_clear(f);
  unsigned lineno = 0;
  size_t pos = 0;
  while (pos < len) {
    size_t end = pos;
    while (end < len && text[end] != '\n') end++;
    lineno++;
    if (memchr(text + pos, '\0', end - pos)) {
      snprintf(why, why_size, "%s:%u: NUL byte in a filter file", path, lineno);
      pu_filter_clear(f);
      return -1;
    }
    char *line = pu_malloc(end - pos + 1);
    memcpy(line, text + pos, end - pos);
    line[end - pos] = '\0';
    int rc = parse_line(f, line, path, lineno, why, why_size);
    free(line);
    if (rc != 0) {
      pu_filter_clear(f);
      return -1;
    }
    pos = end + 1;
  }
  return 0;
}

int pu_filter_load(pu_filter *f, const char *path, char *why, size_t why_size) {
  FILE *in = fopen(path, "rb");
  if (!in) {
    snprintf(why, why_size, "cannot open filter file '%s': %s", path, strerror(errno));
    return -1;
  }
  char *text = NULL;
  size_t len = 0, cap = 0, got;
  char chunk[4096];
  while ((got = fread(chunk, 1, sizeof chunk, in)) > 0) {
    pu_reserve((void **)&text, &cap, len + got, 1);
    memcpy(text + len, chunk, got);
    len += got;
  }
  int failed = ferror(in);
  fclose(in);
  int rc = failed ? -1 : pu_filter_parse(f, text ? text : "", len, path, why, why_size) ? -2 : 0;
  if (failed) snprintf(why, why_size, "cannot read filter file '%s'", path);
  free(text);
  return rc;
}

int pu_filter_accepts(const pu_filter *f, const char *name) {
  for (size_t i = f->n; i-- > 0;)
    if (fnmatch(f->rules[i].glob, name, 0) == 0) return f->rules[i].include;
  return 1;
}

/* gfortran's names: a module procedure is __<module>_MOD_<proc> and the
   main program's body MAIN__ (its own name is only in DWARF's
   .debug_info). Returns 0 for other names. */
static int fortran_name(const char *name, char *buf, size_t size) {
  if (!strcmp(name, "MAIN__")) {
    snprintf(buf, size, "program");
    return 1;
  }
  const char *mod = name[0] == '_' && name[1] == '_' ? strstr(name + 2, "_MOD_") : NULL;
  if (!mod || mod == name + 2 || !mod[5]) return 0;
  snprintf(buf, size, "%.*s::%s", (int)(mod - name - 2), name + 2, mod + 5);
  return 1;
}

void pu_function_name(const char *symbol, pu_demangler demangle, char *buf, size_t size) {
  if (fortran_name(symbol, buf, size)) return;
  int status = -1;
  char *d = demangle && symbol[0] == '_' && symbol[1] == 'Z' ? demangle(symbol, NULL, NULL, &status)
                                                             : NULL;
  snprintf(buf, size, "%s", status == 0 && d ? d : symbol);
  free(d);
}
