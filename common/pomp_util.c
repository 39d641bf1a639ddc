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

void pu_reserve(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return;
  size_t n = *cap ? *cap : 8;
  while (n < need) n *= 2;
  *p = pu_realloc(*p, n * elem);
  *cap = n;
}

void pu_print_version(void) { printf("%s (pomp) %s\n", progname, POMP_VERSION_STRING); }
