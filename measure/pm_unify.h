/*
 * pm_unify.h -- definition unification. Every rank describes its
 * definitions in a blob (pm_unify_describe, here); rank 0 merges the blobs
 * into global definitions and answers each rank with its mapping of local
 * to global ids (pm_unify_merge, unify/pomp_unify.h: also used by
 * pomp-recover). The blob formats are described there. Internal to measure/.
 */
#ifndef PM_UNIFY_H
#define PM_UNIFY_H

#include <stdint.h>

#include "pomp_measure.h"
#include "pomp_unify.h"

typedef struct pm_local_location {
  uint32_t thread;
  uint64_t events;
} pm_local_location;

void pm_unify_describe(pm_blob *b, uint64_t start, uint64_t end, const pm_local_location *locs,
                       uint32_t nlocs);
/* The same for this process, from its start to `end` (pm_clock), shifted
   into rank 0's clock by the clock offsets so far. */
void pm_unify_describe_self(pm_blob *b, uint64_t end, const pm_local_location *locs,
                            uint32_t nlocs);

/* ------------------------------------------------- fragments (pm_fragment.c) */

/* Writes (replaces) EXP/fragments/<rank>.frag atomically (temp + rename):
   complete = every event of the listed locations is on disk. Thread-safe.
   0, or -1 (reported). */
int pm_fragment_write(int complete, const char *reason, const pm_local_location *locs,
                      uint32_t nlocs);
/* The periodic fragment, from a buffer flush (pre-flush callback of the
   flushing thread): every location with its events flushed so far. */
void pm_fragment_periodic(void);
/* The last fragment of a process whose trace cannot be written (the disk
   filled): its locations up to their last flush, with `reason`. */
void pm_fragment_final_partial(const char *reason);
/* After the trace was written: removes this rank's fragment, and the
   fragments/ directory once it is empty. */
void pm_fragment_remove(void);
/* The path of a rank's fragment (for peers waiting on it). */
void pm_fragment_path(char *buf, size_t size, uint32_t rank);

#endif /* PM_UNIFY_H */
