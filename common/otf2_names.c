/* otf2_names.c -- see otf2_names.h. */
#include "otf2_names.h"

#include <string.h>

static const char *const paradigm_names[] = {[OTF2_PARADIGM_USER] = "user",
                                             [OTF2_PARADIGM_COMPILER] = "compiler",
                                             [OTF2_PARADIGM_OPENMP] = "openmp",
                                             [OTF2_PARADIGM_MPI] = "mpi",
                                             [OTF2_PARADIGM_MEASUREMENT_SYSTEM] = "measurement"};

/* Indexed by OTF2_RegionRole, whose values are dense from 0. */
static const char *const role_names[] = {"unknown",
                                         "function",
                                         "wrapper",
                                         "loop",
                                         "code",
                                         "parallel",
                                         "sections",
                                         "section",
                                         "workshare",
                                         "single",
                                         "single_sblock",
                                         "master",
                                         "critical",
                                         "critical_sblock",
                                         "atomic",
                                         "barrier",
                                         "implicit_barrier",
                                         "flush",
                                         "ordered",
                                         "ordered_sblock",
                                         "task",
                                         "task_create",
                                         "task_wait",
                                         "coll_one2all",
                                         "coll_all2one",
                                         "coll_all2all",
                                         "coll_other",
                                         "file_io",
                                         "point2point",
                                         "rma",
                                         "data_transfer",
                                         "artificial",
                                         "thread_create",
                                         "thread_wait",
                                         "task_untied",
                                         "allocate",
                                         "deallocate",
                                         "reallocate",
                                         "file_io_metadata"};

#define COUNT(a) (sizeof(a) / sizeof *(a))

static const char *name_at(const char *const *names, size_t n, unsigned i) {
  return i < n && names[i] ? names[i] : "unknown";
}

static int index_of(const char *const *names, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (names[i] && strcmp(names[i], s) == 0) return (int)i;
  return -1;
}

const char *pu_paradigm_name(OTF2_Paradigm p) {
  return name_at(paradigm_names, COUNT(paradigm_names), p);
}

const char *pu_role_name(OTF2_RegionRole r) { return name_at(role_names, COUNT(role_names), r); }

int pu_paradigm_by_name(const char *name) {
  return index_of(paradigm_names, COUNT(paradigm_names), name);
}

int pu_role_by_name(const char *name) { return index_of(role_names, COUNT(role_names), name); }
