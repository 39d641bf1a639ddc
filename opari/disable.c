/* disable.c -- the --pomp-disable list (see opari.h). */
#include <string.h>

#include "opari.h"

static const struct {
  const char *name;
  unsigned bits;
} names[] = {
    {"parallel", DIS_PARALLEL}, {"for", DIS_FOR},
    {"sections", DIS_SECTIONS}, {"single", DIS_SINGLE},
    {"master", DIS_MASTER},     {"critical", DIS_CRITICAL},
    {"atomic", DIS_ATOMIC},     {"barrier", DIS_BARRIER},
    {"flush", DIS_FLUSH},       {"ordered", DIS_ORDERED},
    {"task", DIS_TASK},         {"taskwait", DIS_TASKWAIT},
    {"locks", DIS_LOCKS},       {"region", DIS_REGION},
    /* every synchronisation construct, as OPARI's `sync` */
    {"sync", DIS_MASTER | DIS_CRITICAL | DIS_ATOMIC | DIS_BARRIER | DIS_FLUSH | DIS_ORDERED |
                 DIS_TASKWAIT | DIS_LOCKS},
    /* everything but parallel regions */
    {"omp", ~(unsigned)(DIS_PARALLEL | DIS_REGION)},
};

bool opari_parse_disable(const char *list, unsigned *bits, const char **bad, size_t *bad_len) {
  for (const char *p = list; *p;) {
    size_t len = strcspn(p, ",");
    bool found = false;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
      if (strlen(names[i].name) == len && memcmp(p, names[i].name, len) == 0) {
        *bits |= names[i].bits;
        found = true;
      }
    if (!found && len) {
      *bad = p;
      *bad_len = len;
      return false;
    }
    p += len;
    if (*p == ',') p++;
  }
  return true;
}
