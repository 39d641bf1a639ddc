/* cli.c -- helpers shared by the pomp-report subcommands. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

void cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: %s: ", pu_progname(), cmd);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nTry '%s %s --help'.\n", pu_progname(), cmd);
  exit(POMP_EXIT_USAGE);
}

static const cli_option *find_option(const cli_option *opts, const char *arg,
                                     const char **inline_value) {
  *inline_value = NULL;
  for (const cli_option *o = opts; o && o->name; o++) {
    if (arg[1] != '-') {
      if (o->short_name && arg[1] == o->short_name && arg[2] == '\0') return o;
      continue;
    }
    size_t n = strlen(o->name);
    if (strncmp(arg + 2, o->name, n) != 0) continue;
    if (arg[2 + n] == '\0') return o;
    if (arg[2 + n] == '=' && o->value) {
      *inline_value = arg + 3 + n;
      return o;
    }
  }
  return NULL;
}

void cli_parse(int argc, char **argv, const cli_option *opts,
               const char **pos, int npos, int *got, const char *usage) {
  const char *cmd = argv[0];
  *got = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      fputs(usage, stdout);
      exit(POMP_EXIT_OK);
    }
    if (arg[0] != '-' || arg[1] == '\0') {
      if (*got == npos) cli_usage_error(cmd, "unexpected argument '%s'", arg);
      pos[(*got)++] = arg;
      continue;
    }
    const char *inline_value;
    const cli_option *o = find_option(opts, arg, &inline_value);
    if (!o) cli_usage_error(cmd, "unknown option '%s'", arg);
    if (o->flag) {
      *o->flag = 1;
    } else if (inline_value) {
      *o->value = inline_value;
    } else {
      if (i + 1 >= argc) cli_usage_error(cmd, "option '%s' needs a value", arg);
      *o->value = argv[++i];
    }
  }
}

pomp_report *cli_open(const char *path) {
  pomp_report_error err;
  pomp_report *r = pomp_report_open(path, &err);
  if (!r) pu_die(POMP_EXIT_FAILURE, "%s", err.message);
  return r;
}

int32_t cli_metric(const pomp_report *r, const char *name, const char *path) {
  int32_t m = pomp_report_find_metric(r, name);
  if (m < 0) pu_die(POMP_EXIT_FAILURE, "%s: no metric '%s'", path, name);
  return m;
}

long long cli_integer(const char *cmd, const char *opt, const char *text) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (errno || end == text || *end || v < 0)
    cli_usage_error(cmd, "%s wants a non-negative integer, not '%s'", opt, text);
  return v;
}

double cli_number(const char *cmd, const char *opt, const char *text) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (errno || end == text || *end || !isfinite(v))
    cli_usage_error(cmd, "%s wants a number, not '%s'", opt, text);
  return v;
}

void cli_format_double(char *buf, size_t size, double v) {
  /* Any decimal of at most 15 digits survives a trip through a double
     (DBL_DIG), so when 15 digits read back as v they are its shortest
     form (%g drops the trailing zeros); otherwise 16, else 17 digits. */
  int digits = 15;
  for (;; digits++) {
    snprintf(buf, size, "%.*g", digits, v);
    double back = strtod(buf, NULL);
    if (digits == 17 || (back == v && signbit(back) == signbit(v))) break;
  }
  /* Whole numbers below 1e17 without an exponent: "10", not "1e+01". */
  double mag = fabs(v);
  if (isfinite(v) && mag >= 1 && mag < 1e17) {
    int whole = (int)floor(log10(mag)) + 1;
    if (whole > digits) snprintf(buf, size, "%.*g", whole, v);
  }
}

const char *cli_callpath(const pomp_report *r, int32_t cnode, char **buf,
                         size_t *cap) {
  size_t need = pomp_report_callpath(r, cnode, ";", NULL, 0) + 1;
  if (need > *cap) {
    *buf = pu_realloc(*buf, need);
    *cap = need;
  }
  pomp_report_callpath(r, cnode, ";", *buf, *cap);
  return *buf;
}
