/* pomp_util.c -- see pomp_util.h. */
#include "pomp_util.h"

#include <stdlib.h>
#include <string.h>

static const char *progname = "pomp";

void pu_set_progname(const char *argv0) {
  if (!argv0 || !*argv0) return;
  const char *slash = strrchr(argv0, '/');
  progname = slash ? slash + 1 : argv0;
}

const char *pu_progname(void) { return progname; }

static void vreport(const char *kind, const char *fmt, va_list ap) {
  fprintf(stderr, "%s: %s", progname, kind);
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

void pu_reserve(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return;
  size_t n = *cap ? *cap : 8;
  while (n < need) n *= 2;
  *p = pu_realloc(*p, n * elem);
  *cap = n;
}

void pu_print_version(void) { printf("%s (pomp) %s\n", progname, POMP_VERSION_STRING); }
