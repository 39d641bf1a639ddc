/*
 * pm_defs.h -- the process-local definitions libpomp collects while the
 * program runs (regions, communicators, OpenMP team comms) and reads back
 * when it writes the trace. Ids are local to the process and dense; the
 * trace writer unifies them across ranks. Internal to measure/.
 */
#ifndef PM_DEFS_H
#define PM_DEFS_H

#include <stdint.h>

#include "pomp_measure.h"
#include "pomp_unify.h" /* pm_blob, PM_TEAM_COMM_BASE */

typedef struct pm_region_def {
  char *name, *file;
  uint32_t begin_line, end_line;
  OTF2_Paradigm paradigm;
  OTF2_RegionRole role;
} pm_region_def;

/* Regions defined so far (pm_region_define); any thread, any time. */
uint32_t pm_region_count(void);
/* Copies region id's definition into *out under the table's lock (the
   table moves when it grows; the strings do not, and live as long as the
   process). 0, or -1 when there is no such region. */
int pm_region_get(uint32_t id, pm_region_def *out);
/* Appends the definition to b (the key of the table and the form ranks
   exchange at unification). */
void pm_region_serialise(pm_blob *b, const pm_region_def *r);
/* u32 count + every region, under the table's lock (any thread, any time). */
void pm_region_serialise_all(pm_blob *b);

/* MPI communicators of pm_comm_register, in registration order. */
typedef struct pm_comm_def {
  char *name;
  uint32_t parent; /* local id or OTF2_UNDEFINED_COMM */
  uint32_t size;
  uint32_t *world_ranks;
  int is_self;
} pm_comm_def;
uint32_t pm_comm_count(void);
/* Copies comm id's definition into *out under the table's lock (the
   table moves when it grows; name and world_ranks do not, and live as
   long as the process). 0, or -1 when there is no such comm. */
int pm_comm_get(uint32_t id, pm_comm_def *out);
/* u32 count + every comm (name, parent, is_self, size, world ranks), under
   the table's lock (any thread, any time). */
void pm_comm_serialise_all(pm_blob *b);

/* OpenMP team comms: one per team size, local ids from PM_TEAM_COMM_BASE
   (pomp_unify.h) so they never collide with the MPI comm ids of
   libpomp-mpi. */
uint32_t pm_team_comm(uint32_t team_size);
/* The team sizes of the team comms, by local id - PM_TEAM_COMM_BASE. */
uint32_t pm_team_comm_count(void);
uint32_t pm_team_comm_size(uint32_t index);

/* I/O handles of pm_io_handle_define (pm_io.c): u32 count + (file name,
   u32 pm_io_paradigm) each, under the table's lock (any thread, any time). */
void pm_io_serialise_all(pm_blob *b);

#endif /* PM_DEFS_H */
