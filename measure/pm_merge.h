/*
 * pm_merge.h -- the merge side of definition unification, shared by
 * libpomp (rank 0 at MPI_Finalize) and pomp-recover (post mortem, from the
 * ranks' fragments): the ranks' definition blobs (pm_unify_describe) become
 * global definitions and, per rank, a map of local to global ids. Part of
 * the internal static library pomp-unify (with pm_blob and pm_frag); it
 * touches no libpomp state, so it runs the same in both places.
 *
 * Rank blob: host, start/end time (rank 0's clock), locations (thread,
 * events), regions (pm_region_serialise), MPI comms (name, parent, is_self,
 * world ranks), OpenMP team comms (team size).
 * Map blob: region map, MPI comm map, team comm map (u32 count + ids each).
 */
#ifndef PM_MERGE_H
#define PM_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include <otf2/otf2.h>

#include "pm_blob.h"

/* Where a blob is malformed: its rank and the byte offset in that blob. */
typedef struct pm_merge_error {
  uint32_t rank;
  size_t offset;
} pm_merge_error;

/* blobs[r] of size sizes[r] for r < nranks (concatenated); size 0 = the
   rank is missing (no definitions: it gets its location group only).
   Writes the global definitions with w (NULL: only checks the blobs) and
   fills maps[r] (maps may be NULL when w is). mpi: the run has MPI.
   (mono_now, real_now): one moment on the events' clock and on
   CLOCK_REALTIME, for ClockProperties' realtime of the trace start.
   Returns 0, or -1 when a blob is malformed (*err says where). */
int pm_unify_merge(OTF2_GlobalDefWriter *w, const unsigned char *blobs,
                   const uint32_t *sizes, uint32_t nranks, int mpi, uint64_t mono_now,
                   uint64_t real_now, pm_blob *maps, pm_merge_error *err);

#endif /* PM_MERGE_H */
