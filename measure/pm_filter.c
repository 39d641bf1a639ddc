/* pm_filter.c -- POMP_FILTER: which user functions are recorded.
 *
 *   # comment
 *   exclude *_kernel_inner     one glob per line (fnmatch: * ? [...]),
 *   include main               spaces allowed (C++ signatures)
 *
 * The last rule whose glob matches the (demangled) name decides; a name no
 * rule matches is recorded. The result is cached per function address, so
 * the rules cost nothing after a function's first call.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pm_runtime.h"
#include "pm_user.h"
#include "pomp_util.h"

typedef struct rule {
  int include;
  char *glob;
} rule;

static rule *rules;
static size_t nrules, cap_rules;

void pm_filter_clear(void) {
  for (size_t i = 0; i < nrules; i++) free(rules[i].glob);
  free(rules);
  rules = NULL;
  nrules = cap_rules = 0;
}

/* One line without its newline: blank, comment, or "keyword glob". */
static int parse_line(char *s, const char *path, unsigned lineno) {
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
    fprintf(stderr, "%s:%u: error: unknown rule '%.*s' (expected include or exclude)\n", path,
            lineno, (int)(kw > 40 ? 40 : kw), s);
    return -1;
  }
  char *glob = s + kw;
  while (isspace((unsigned char)*glob)) glob++;
  if (!*glob) {
    fprintf(stderr, "%s:%u: error: '%.7s' needs a name pattern\n", path, lineno, s);
    return -1;
  }
  rule r = {include, pu_strdup(glob)};
  PU_PUSH(rules, nrules, cap_rules, r);
  return 0;
}

int pm_filter_parse(const char *text, size_t len, const char *path) {
  pm_filter_clear();
  unsigned lineno = 0;
  size_t pos = 0;
  while (pos < len) {
    size_t end = pos;
    while (end < len && text[end] != '\n') end++;
    lineno++;
    if (memchr(text + pos, '\0', end - pos)) {
      fprintf(stderr, "%s:%u: error: NUL byte in a filter file\n", path, lineno);
      pm_filter_clear();
      return -1;
    }
    char *line = pu_malloc(end - pos + 1);
    memcpy(line, text + pos, end - pos);
    line[end - pos] = '\0';
    int rc = parse_line(line, path, lineno);
    free(line);
    if (rc != 0) {
      pm_filter_clear();
      return -1;
    }
    pos = end + 1;
  }
  return 0;
}

int pm_filter_load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    pm_err("cannot open filter file '%s': %s; measurement disabled", path, strerror(errno));
    return -1;
  }
  char *text = NULL;
  size_t len = 0, cap = 0, got;
  char chunk[4096];
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    pu_reserve((void **)&text, &cap, len + got, 1);
    memcpy(text + len, chunk, got);
    len += got;
  }
  fclose(f);
  int rc = pm_filter_parse(text ? text : "", len, path);
  free(text);
  if (rc != 0) pm_err("bad filter file '%s'; measurement disabled", path);
  else pm_log("filter %s: %zu rules", path, nrules);
  return rc;
}

int pm_filter_accepts(const char *name) {
  for (size_t i = nrules; i-- > 0;)
    if (fnmatch(rules[i].glob, name, 0) == 0) return rules[i].include;
  return 1;
}
