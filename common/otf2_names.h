/*
 * otf2_names.h -- the lower-case names of OTF2 paradigms and region roles,
 * as report.pomp stores them in its region table (docs/FORMAT.md) and as
 * the test trace language of test/analyze spells them.  One table, so the
 * analyzer and the traces that test it cannot drift apart.
 */
#ifndef POMP_OTF2_NAMES_H
#define POMP_OTF2_NAMES_H

#include <otf2/otf2.h>

/* "user", "compiler", "openmp", "mpi", "measurement"; "unknown" otherwise. */
const char *pu_paradigm_name(OTF2_Paradigm p);
/* "function", "loop", "implicit_barrier", ...; "unknown" otherwise. */
const char *pu_role_name(OTF2_RegionRole r);
/* The inverse mappings: -1 for a name not in the tables ("unknown"
   paradigm included; "unknown" role is OTF2_REGION_ROLE_UNKNOWN). */
int pu_paradigm_by_name(const char *name);
int pu_role_by_name(const char *name);

#endif /* POMP_OTF2_NAMES_H */
