/* pm_filter.c -- POMP_FILTER: which user functions are recorded.
 *
 * The rules and their syntax are common/pomp_filter.c's, shared with
 * pomp-cc --filter (the GCC plugin), so one file means the same at compile
 * and at run time. The verdict is cached per function address (pm_user.c),
 * so the rules cost nothing after a function's first call.
 */
#include "pm_runtime.h"
#include "pm_user.h"
#include "pomp_filter.h"

static pu_filter rules;

void pm_filter_clear(void) { pu_filter_clear(&rules); }

int pm_filter_parse(const char *text, size_t len, const char *path) {
  char why[512];
  if (pu_filter_parse(&rules, text, len, path, why, sizeof why) == 0) return 0;
  pm_err("%s", why);
  return -1;
}

int pm_filter_load(const char *path) {
  char why[512];
  /* through the log like every other message: "libpomp: error: FILE:LINE:
     what; measurement disabled", rank-prefixed and kept for measure.log */
  if (pu_filter_load(&rules, path, why, sizeof why) != 0) {
    pm_err("%s; measurement disabled", why);
    return -1;
  }
  pm_log("filter %s: %zu rules", path, rules.n);
  return 0;
}

int pm_filter_accepts(const char *name) { return pu_filter_accepts(&rules, name); }
