/* disable.c -- the --pomp-disable list (see opari.h). */
#include <string.h>

#include "opari.h"

static const struct {
  const char *name;
  unsigned bits;
} names[] = {
    {"parallel", OPARI_DIS_PARALLEL},
    {"for", OPARI_DIS_FOR},
    {"sections", OPARI_DIS_SECTIONS},
    {"single", OPARI_DIS_SINGLE},
    {"master", OPARI_DIS_MASTER},
    {"critical", OPARI_DIS_CRITICAL},
    {"atomic", OPARI_DIS_ATOMIC},
    {"barrier", OPARI_DIS_BARRIER},
    {"flush", OPARI_DIS_FLUSH},
    {"ordered", OPARI_DIS_ORDERED},
    {"task", OPARI_DIS_TASK},
    {"taskwait", OPARI_DIS_TASKWAIT},
    {"locks", OPARI_DIS_LOCKS},
    {"region", OPARI_DIS_REGION},
    /* every synchronisation construct, as OPARI's `sync` */
    {"sync", OPARI_DIS_MASTER | OPARI_DIS_CRITICAL | OPARI_DIS_ATOMIC | OPARI_DIS_BARRIER |
                 OPARI_DIS_FLUSH | OPARI_DIS_ORDERED | OPARI_DIS_TASKWAIT | OPARI_DIS_LOCKS},
    /* everything but parallel regions */
    {"omp", ~(unsigned)(OPARI_DIS_PARALLEL | OPARI_DIS_REGION)},
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
