/* cli.c -- helpers shared by the pomp-report subcommands. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>

#include "pomp_util.h"

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

const char *cli_callpath(const pomp_report *r, int32_t cnode, char **buf, size_t *cap) {
  size_t need = pomp_report_callpath(r, cnode, ";", NULL, 0) + 1;
  if (need > *cap) {
    *buf = pu_realloc(*buf, need);
    *cap = need;
  }
  pomp_report_callpath(r, cnode, ";", *buf, *cap);
  return *buf;
}

void cli_json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}
