/*
 * pm_unify.h -- definition unification on rank 0. Every rank describes its
 * definitions in a blob (pm_unify_describe); rank 0 merges the blobs into
 * global definitions, writes them, and answers each rank with its mapping
 * of local to global ids (pm_unify_merge). Internal to measure/.
 *
 * Rank blob: host, start/end time (rank 0's clock), locations (thread,
 * events), regions (pm_region_serialise), MPI comms (name, parent, is_self,
 * world ranks), OpenMP team comms (team size).
 * Map blob: region map, MPI comm map, team comm map (u32 count + ids each).
 */
#ifndef PM_UNIFY_H
#define PM_UNIFY_H

#include <stdint.h>

#include "pm_blob.h"
#include "pomp_measure.h"

typedef struct pm_local_location {
  uint32_t thread;
  uint64_t events;
} pm_local_location;

void pm_unify_describe(pm_blob *b, uint64_t start, uint64_t end,
                       const pm_local_location *locs, uint32_t nlocs);

/* Rank 0: blobs[r] of size sizes[r] for r < nranks (concatenated). Writes
   the global definitions with w and fills maps[r]. mpi: the run has MPI.
   Returns 0, or -1 when a blob is malformed (reported). */
int pm_unify_merge(OTF2_GlobalDefWriter *w, const unsigned char *blobs,
                   const uint32_t *sizes, uint32_t nranks, int mpi, pm_blob *maps);

#endif /* PM_UNIFY_H */
