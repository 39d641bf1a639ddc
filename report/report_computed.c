/* report_computed.c -- what pomp-analyze did not compute, and why: the
   attribute POMP_REPORT_NOT_COMPUTED (docs/FORMAT.md, "Attributes"), parsed
   when it is set, asked per metric.

   Its value is entries joined by "; ", each the names of metric subtrees
   separated by spaces, then the reason in parentheses:
     delay_omp critical_path performance_impact (model limit: ...)
   A metric is not computed when it or one of its ancestors is named; the
   first entry that names one gives the reason.  Text that does not fit
   (no parentheses) still marks its names, with the reason "unknown". */
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "report_internal.h"

/* What readers see before the reason ("not computed: model limit: ..."). */
static const char prefix[] = "not computed: ";

void report_computed_free(pomp_report *r) {
  for (size_t i = 0; i < r->nnot_computed; i++) {
    free(r->not_computed[i].names);
    free(r->not_computed[i].why);
  }
  free(r->not_computed);
  r->not_computed = NULL;
  r->nnot_computed = r->not_computed_cap = 0;
}

/* One entry, text[0..len): names, then "(reason)". */
static void parse_entry(pomp_report *r, const char *text, size_t len) {
  const char *open = memchr(text, '(', len);
  const char *close = NULL;
  for (const char *p = text + len; open && p > open; p--)
    if (p[-1] == ')') {
      close = p - 1;
      break;
    }
  size_t nlen = open ? (size_t)(open - text) : len;
  const char *reason = close ? open + 1 : "unknown";
  size_t rlen = close ? (size_t)(close - open - 1) : strlen(reason);
  struct report_not_computed e;
  e.names = pu_malloc(nlen + 3);
  /* " a b " : a name is found as " NAME " */
  e.names[0] = ' ';
  memcpy(e.names + 1, text, nlen);
  e.names[nlen + 1] = ' ';
  e.names[nlen + 2] = '\0';
  for (char *p = e.names; *p; p++)
    if (*p == '\t') *p = ' ';
  e.why = pu_malloc(sizeof prefix + rlen);
  memcpy(e.why, prefix, sizeof prefix - 1);
  memcpy(e.why + sizeof prefix - 1, reason, rlen);
  e.why[sizeof prefix - 1 + rlen] = '\0';
  PU_PUSH(r->not_computed, r->nnot_computed, r->not_computed_cap, e);
}

void report_computed_parse(pomp_report *r, const char *value) {
  report_computed_free(r);
  for (const char *p = value; p && *p;) {
    const char *end = strchr(p, ';');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    while (len && (*p == ' ' || *p == '\t')) p++, len--;
    if (len) parse_entry(r, p, len);
    p = end ? end + 1 : NULL;
  }
}

/* Whether entry e names the metric called name. */
static int names(const struct report_not_computed *e, const char *name) {
  size_t n = strlen(name);
  for (const char *p = strstr(e->names, name); p; p = strstr(p + 1, name))
    if (p > e->names && p[-1] == ' ' && p[n] == ' ') return 1;
  return 0;
}

const char *report_not_computed_text(const pomp_report *r, int32_t metric) {
  if (metric < 0 || (size_t)metric >= r->nmetrics) return NULL;
  for (size_t i = 0; i < r->nnot_computed; i++)
    for (int32_t m = metric; m >= 0; m = r->metrics[m].parent)
      if (*r->metrics[m].name && names(&r->not_computed[i], r->metrics[m].name))
        return r->not_computed[i].why;
  return NULL;
}

const char *pomp_report_not_computed(const pomp_report *r, int32_t metric) {
  const char *text = report_not_computed_text(r, metric);
  return text ? text + sizeof prefix - 1 : NULL;
}
