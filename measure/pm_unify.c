/* pm_unify.c -- see pm_unify.h: this process's definitions as a blob.
   The merge side is pm_merge.c (shared with pomp-recover). */
#include <string.h>
#include <unistd.h>

#include "pm_defs.h"
#include "pm_runtime.h"
#include "pm_trace.h"
#include "pm_unify.h"

void pm_unify_describe(pm_blob *b, uint64_t start, uint64_t end, const pm_local_location *locs,
                       uint32_t nlocs) {
  char host[256];
  if (gethostname(host, sizeof host) != 0) strcpy(host, "localhost");
  host[sizeof host - 1] = '\0';
  pm_blob_str(b, host);
  pm_blob_u64(b, start);
  pm_blob_u64(b, end);
  pm_blob_u32(b, nlocs);
  for (uint32_t i = 0; i < nlocs; i++) {
    pm_blob_u32(b, locs[i].thread);
    pm_blob_u64(b, locs[i].events);
  }
  /* under the tables' locks: other threads may define regions and comms
     while a buffer flush writes the periodic fragment */
  pm_region_serialise_all(b);
  pm_comm_serialise_all(b);
  uint32_t n = pm_team_comm_count();
  pm_blob_u32(b, n);
  for (uint32_t i = 0; i < n; i++) pm_blob_u32(b, pm_team_comm_size(i));
  pm_io_serialise_all(b); /* last: a blob without it has no I/O handles */
}

void pm_unify_describe_self(pm_blob *b, uint64_t end, const pm_local_location *locs,
                            uint32_t nlocs) {
  /* start and end in rank 0's clock, for ClockProperties */
  int n = atomic_load(&pm_noffsets);
  int64_t first = n ? pm_offsets[0].offset : 0;
  int64_t last = n ? pm_offsets[n - 1].offset : 0;
  pm_unify_describe(b, pm_start_time + (uint64_t)first, end + (uint64_t)last, locs, nlocs);
}
