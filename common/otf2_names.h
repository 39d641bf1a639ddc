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

/* MPI set-up and communicator/group/topology handling (MPI_Init,
   MPI_Comm_split, ...): the calls whose time is "mpi_management". */
int pu_mpi_is_management(const char *name);
/* The catalogue metric of an MPI one-sided call's time (mpi_management,
   mpi_rma_sync_active, mpi_rma_sync_passive, mpi_rma_communication), or
   NULL when name is no one-sided call. */
const char *pu_mpi_rma_metric(const char *name);
/* The catalogue metric (docs/PROPERTIES.md, "Time breakdown") a region's
   exclusive time belongs to when no replay splits it into wait states:
   "comp", "mpi_point2point", "omp_barrier", ... (libpomp's profile mode;
   pomp-analyze's analyze/roles.c applies the same rules and adds kinds). */
const char *pu_region_time_metric(OTF2_Paradigm paradigm, OTF2_RegionRole role, const char *name);

#endif /* POMP_OTF2_NAMES_H */
