/* pomp_util.c -- see pomp_util.h. */
#include "pomp_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *progname = "pomp";
static const char *command; /* a subcommand being run, or NULL */

void pu_set_progname(const char *argv0) {
  if (!argv0 || !*argv0) return;
  const char *slash = strrchr(argv0, '/');
  progname = slash ? slash + 1 : argv0;
}

const char *pu_progname(void) { return progname; }

void pu_set_command(const char *name) { command = name; }

void pu_print_prefix(FILE *out) {
  fprintf(out, "%s: ", progname);
  if (command) fprintf(out, "%s: ", command);
}

static void vreport(const char *kind, const char *fmt, va_list ap) {
  pu_print_prefix(stderr);
  fputs(kind, stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void pu_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport("", fmt, ap);
  va_end(ap);
}

void pu_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport("warning: ", fmt, ap);
  va_end(ap);
}

void pu_die(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport("", fmt, ap);
  va_end(ap);
  exit(code);
}

static void *checked(void *p, size_t n) {
  if (!p && n) pu_die(POMP_EXIT_FAILURE, "out of memory (%zu bytes)", n);
  return p;
}

void *pu_malloc(size_t n) { return checked(malloc(n ? n : 1), n); }
void *pu_calloc(size_t count, size_t size) {
  return checked(calloc(count ? count : 1, size ? size : 1), count * size);
}
void *pu_realloc(void *p, size_t n) { return checked(realloc(p, n ? n : 1), n); }
char *pu_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(pu_malloc(n), s, n);
}

size_t pu_utf8_sequence(const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  if (u[0] < 0x80) return 1;
  /* the allowed range of the second byte depends on the first (Unicode
     Table 3-7); later bytes are 80..BF */
  unsigned char lo = 0x80, hi = 0xBF;
  size_t n;
  if (u[0] >= 0xC2 && u[0] <= 0xDF) n = 2;
  else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
    n = 3;
    if (u[0] == 0xE0) lo = 0xA0;
    if (u[0] == 0xED) hi = 0x9F;
  } else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
    n = 4;
    if (u[0] == 0xF0) lo = 0x90;
    if (u[0] == 0xF4) hi = 0x8F;
  } else return 0;
  if (u[1] < lo || u[1] > hi) return 0;
  for (size_t i = 2; i < n; i++)
    if (u[i] < 0x80 || u[i] > 0xBF) return 0;
  return n;
}

char *pu_utf8_valid(const char *s) {
  size_t len = strlen(s);
  char *out = pu_malloc(3 * len + 1), *o = out; /* each bad byte: 3 */
  while (*s) {
    size_t n = pu_utf8_sequence(s);
    if (n) {
      memcpy(o, s, n);
      o += n;
      s += n;
    } else {
      memcpy(o, "\xEF\xBF\xBD", 3);
      o += 3;
      s++;
    }
  }
  *o = 0;
  return out;
}

void pu_reserve_grow(void **p, size_t *cap, size_t need, size_t elem) {
  size_t n = *cap ? *cap : 8;
  while (n < need) n *= 2;
  *p = pu_realloc(*p, n * elem);
  *cap = n;
}

void pu_bytes_put(pu_bytes *b, const void *data, size_t n) {
  if (!n) return;
  pu_reserve((void **)&b->p, &b->cap, b->len + n, 1);
  memcpy(b->p + b->len, data, n);
  b->len += n;
}

int pu_utf8_columns(const char *s) {
  int n = 0;
  for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80; /* not a continuation byte */
  return n;
}

void pu_print_version(void) { printf("%s (pomp) %s\n", progname, POMP_VERSION_STRING); }

/* Optimal string alignment distance (Levenshtein with swaps of adjacent
   letters) between a[0..n) and b[0..m), stopping at limit + 1. */
static int edit_distance(const char *a, size_t n, const char *b, size_t m, int limit) {
  enum { MAX_NAME = 64 };
  if (n > MAX_NAME || m > MAX_NAME) return limit + 1;
  int d[MAX_NAME + 1][MAX_NAME + 1];
  for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++) {
      int cost = a[i - 1] != b[j - 1];
      int best = d[i - 1][j - 1] + cost;
      if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[n][m] > limit ? limit + 1 : d[n][m];
}

int pu_name_nearness(const char *word, size_t len, const char *candidate) {
  size_t m = strlen(candidate);
  if (len == 0) return 0;
  int limit = len <= 4 ? 1 : 2;
  int distance = edit_distance(word, len, candidate, m, limit);
  if (distance <= limit) return 3 - distance; /* 2 or 1 (0: the same, not asked) */
  return len >= 2 && len < m && strncmp(word, candidate, len) == 0;
}

const pu_scale_step pu_seconds_scale[PU_SECONDS_STEPS] = {
    {1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}};

void pu_format_scaled(char *buf, size_t size, double v, const pu_scale_step *steps, int n) {
  int i = 0;
  /* 0.9995: what rounds to 1.00 of a step is written in that step */
  while (i < n - 1 && fabs(v) < steps[i].factor * 0.9995) i++;
  double x = v / steps[i].factor, a = fabs(x);
  if (a >= 99999.5) {
    snprintf(buf, size, "%.1e", v);
    return;
  }
  const char *fmt = a >= 99.995 ? "%.0f%s%s" : a >= 9.9995 ? "%.1f%s%s" : "%.2f%s%s";
  snprintf(buf, size, fmt, x, *steps[i].name ? " " : "", steps[i].name);
}

void pu_format_seconds(char *buf, size_t size, double v) {
  if (v == 0) snprintf(buf, size, "0 s");
  else pu_format_scaled(buf, size, v, pu_seconds_scale, PU_SECONDS_STEPS);
}
