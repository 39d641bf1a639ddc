/* pm_descr.c -- POMP descriptors become regions (docs/TRACE.md names:
   "!$omp for @file:line"), defined at first use; POMP_Register.
   As in Score-P, the name carries the file's base name only (short, and
   the same wherever the program was built from); the region's source
   file keeps the path as given to the compiler. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "pm_pomp.h"

static _Atomic int registered;

void POMP_Register(OMPRegDescr **descriptors, int count) {
  (void)descriptors; /* regions are defined at first use, not here */
  if (count > 0) atomic_fetch_add(&registered, count);
}

int pm_registered_descriptors(void) { return atomic_load(&registered); }

static const char *construct_word(const OMPRegDescr *d, OTF2_RegionRole role) {
  switch (role) {
  case OTF2_REGION_ROLE_PARALLEL: return "parallel";
  case OTF2_REGION_ROLE_LOOP: return strstr(d->name, "do") ? "do" : "for";
  case OTF2_REGION_ROLE_SECTIONS: return "sections";
  case OTF2_REGION_ROLE_SECTION: return "section";
  case OTF2_REGION_ROLE_SINGLE: return "single";
  case OTF2_REGION_ROLE_SINGLE_SBLOCK: return "single sblock";
  case OTF2_REGION_ROLE_MASTER: return "master";
  case OTF2_REGION_ROLE_CRITICAL: return "critical";
  case OTF2_REGION_ROLE_CRITICAL_SBLOCK: return "critical sblock";
  case OTF2_REGION_ROLE_ATOMIC: return "atomic";
  case OTF2_REGION_ROLE_BARRIER: return "barrier";
  case OTF2_REGION_ROLE_IMPLICIT_BARRIER: return "implicit barrier";
  case OTF2_REGION_ROLE_FLUSH: return "flush";
  case OTF2_REGION_ROLE_ORDERED: return "ordered";
  case OTF2_REGION_ROLE_ORDERED_SBLOCK: return "ordered sblock";
  case OTF2_REGION_ROLE_TASK_CREATE: return "create task";
  case OTF2_REGION_ROLE_TASK: return "task";
  case OTF2_REGION_ROLE_TASK_WAIT: return "taskwait";
  case OTF2_REGION_ROLE_WORKSHARE: return "workshare";
  default: return d->name;
  }
}

uint32_t pm_descr_region_slow(OMPRegDescr *d, enum pm_slot slot, OTF2_RegionRole role) {
  const char *file = d->file_name ? d->file_name : "";
  const char *slash = strrchr(file, '/');
  const char *base = slash ? slash + 1 : file;
  const char *sub = d->sub_name ? d->sub_name : "";
  uint32_t id;
  if (!strcmp(d->name, "loop")) { /* pomp-opari --loops: "loop @file:line" */
    char name[1024];
    snprintf(name, sizeof name, "loop @%s:%d", base, d->begin_line1);
    id = pm_region_define(name, file, (uint32_t)d->begin_line1, (uint32_t)d->end_line1,
                          OTF2_PARADIGM_USER, OTF2_REGION_ROLE_LOOP);
  } else if (!strcmp(d->name, "region")) { /* #pragma pomp inst begin(sub) */
    id = pm_region_define(sub, file, (uint32_t)d->begin_line1, (uint32_t)d->end_line1,
                          OTF2_PARADIGM_USER, OTF2_REGION_ROLE_FUNCTION);
  } else {
    int critical = role == OTF2_REGION_ROLE_CRITICAL || role == OTF2_REGION_ROLE_CRITICAL_SBLOCK;
    int implicit = role == OTF2_REGION_ROLE_IMPLICIT_BARRIER;
    uint32_t line = (uint32_t)(implicit ? d->end_line1 : d->begin_line1);
    char name[1024];
    if (critical && *sub)
      snprintf(name, sizeof name, "!$omp %s (%s) @%s:%u", construct_word(d, role), sub, base, line);
    else snprintf(name, sizeof name, "!$omp %s @%s:%u", construct_word(d, role), base, line);
    uint32_t end = implicit ? line : (uint32_t)d->end_lineN;
    id = pm_region_define(name, file, line, end, OTF2_PARADIGM_OPENMP, role);
  }
  __atomic_store_n(&d->data[slot], (uintptr_t)id + 1, __ATOMIC_RELEASE);
  return id;
}

void pm_descr_enter(OMPRegDescr *d, enum pm_slot slot, OTF2_RegionRole role) {
  pm_location *l = pm_self();
  if (l) pm_ev_enter(l, pm_descr_region(d, slot, role), pm_clock());
}

int pm_descr_leave(OMPRegDescr *d, enum pm_slot slot, OTF2_RegionRole role) {
  pm_location *l = pm_tls_location;
  return l ? pm_ev_leave(l, pm_descr_region(d, slot, role), pm_clock()) : 0;
}
