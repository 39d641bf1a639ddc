/* diag.c -- warnings about the input, counted by kind and summarised, so
   that a trace with a million unmatched messages prints a few examples and
   one total instead of flooding the terminal. */
#include <stdarg.h>
#include <string.h>

#include "az_diag.h"
#include "pomp_util.h"

enum { AZ_WARN_PRINT_MAX = 5 }; /* examples printed per kind */

static const char *const kind_name[AZ_W_NUM_KINDS] = {
    [AZ_W_UNKNOWN_RECORD] = "unknown records",
    [AZ_W_UNMATCHED_MSG] = "unmatched messages",
    [AZ_W_UNMATCHED_COLL] = "unmatched collectives",
    [AZ_W_CLOCK] = "clock condition violations",
    [AZ_W_NESTING] = "badly nested events",
    [AZ_W_TEAM] = "OpenMP team mismatches",
    [AZ_W_DEFS] = "definition problems",
    [AZ_W_LOCK] = "lock order problems",
    [AZ_W_BARRIER] = "OpenMP barriers not every team member reached",
    [AZ_W_ENDED] = "locations whose record ends early",
    [AZ_W_MODEL] = "limits of the root-cause model",
};

int az_warn_is_end_effect(int kind) {
  return kind == AZ_W_UNMATCHED_MSG || kind == AZ_W_UNMATCHED_COLL || kind == AZ_W_TEAM ||
         kind == AZ_W_LOCK || kind == AZ_W_BARRIER;
}

/* A run that did not finish leaves operations whose partner never came,
   as many as there were in flight: counted, listed only when verbose. */
static int printed(const az_diag *d, int kind, uint64_t n) {
  if (d->verbosity == 0) return 0;
  if (d->verbosity >= 2) return 1;
  if (d->incomplete && az_warn_is_end_effect(kind)) return 0;
  return n <= AZ_WARN_PRINT_MAX;
}

void az_warn(az_diag *d, int kind, const char *fmt, ...) {
  uint64_t n = ++d->count[kind];
  if (!printed(d, kind, n)) return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  pu_warn("%s", buf);
  if (n == AZ_WARN_PRINT_MAX && d->verbosity < 2)
    pu_warn("further %s are only counted (--verbose shows all)", kind_name[kind]);
}

/* This thread's held errors (az_diag_hold), NULL: said at once. */
static _Thread_local az_diag_held *held;

void az_diag_hold(az_diag_held *h) {
  if (h) h->errors = 0, h->first[0] = 0;
  held = h;
}

void az_fail(az_diag *d, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (held) {
    if (!held->errors++) memcpy(held->first, buf, sizeof buf);
    return;
  }
  if (!d->errors++) memcpy(d->first_error, buf, sizeof buf);
  if (d->verbosity && !d->errors_later) pu_error("%s", buf);
}

void az_diag_release(az_diag *d, const az_diag_held *h) {
  if (!h->errors) return;
  az_fail(d, "%s", h->first);
  d->errors += h->errors - 1;
}

uint64_t az_warn_total(const az_diag *d) {
  uint64_t n = 0;
  for (int k = 0; k < AZ_W_NUM_KINDS; k++) n += d->count[k];
  return n;
}

void az_diag_summary(const az_diag *d, FILE *out) {
  uint64_t total = az_warn_total(d);
  if (!total) return;
  fprintf(out, "%s: %llu warning%s:", pu_progname(), (unsigned long long)total,
          total == 1 ? "" : "s");
  const char *sep = " ";
  for (int k = 0; k < AZ_W_NUM_KINDS; k++) {
    if (!d->count[k]) continue;
    fprintf(out, "%s%llu %s", sep, (unsigned long long)d->count[k], kind_name[k]);
    sep = ", ";
  }
  fputc('\n', out);
  int effects = 0;
  for (int k = 0; k < AZ_W_NUM_KINDS; k++) effects |= az_warn_is_end_effect(k) && d->count[k];
  if (d->incomplete && effects && d->verbosity < 2)
    fprintf(out,
            "%s: the run did not finish: operations whose partner never came "
            "have no wait state (--verbose lists them)\n",
            pu_progname());
}
