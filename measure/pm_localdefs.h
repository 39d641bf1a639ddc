/*
 * pm_localdefs.h -- the local definitions of one rank's locations: the
 * mapping tables of pm_unify_merge's map blob (regions, MPI comms, team
 * comms) and the rank's clock offsets. Written by every rank at
 * MPI_Finalize, and by pomp-recover for every rank with a fragment. Part
 * of the internal static library pomp-unify.
 */
#ifndef PM_LOCALDEFS_H
#define PM_LOCALDEFS_H

#include <stdint.h>

#include <otf2/otf2.h>

#include "pm_blob.h"

/* The archive's definition files must be open (OTF2_Archive_OpenDefFiles).
   threads[i]: T of the location (rank << 32) | T. 0, or -1 when the map
   is malformed (nothing written). */
int pm_write_local_defs(OTF2_Archive *a, uint32_t rank, const pm_blob *map,
                        const uint32_t *threads, uint32_t nthreads,
                        const uint64_t *offset_time, const int64_t *offset, int noffsets);

/* The threads (T) of the locations in a rank's definition blob (see
   pm_merge.h); n of them in *threads (malloc'd). -1 if malformed. */
int pm_unify_threads(const unsigned char *blob, uint32_t len, uint32_t **threads,
                     uint32_t *n);

/* Sets the event count of the index-th location of a rank's blob (a
   partial rank's files hold fewer events than its last flush counted).
   0, or -1 if there is no such location. */
int pm_unify_set_events(unsigned char *blob, uint32_t len, uint32_t index, uint64_t events);

#endif /* PM_LOCALDEFS_H */
