/* pm_alone.c -- an MPI rank that ends without MPI_Finalize (MPI_Abort, a
   fatal signal, exit, or a same-node peer dying) cannot unify its
   definitions with the other ranks: that needs collectives, and the others
   may be dead or about to be killed. So it finishes alone: stops
   recording, leaves the open regions, closes its event writers (each
   flushes its own buffer; nothing collective) and writes its complete
   fragment, from which pomp-recover completes the trace later. */
#include <stdlib.h>

#include "pm_location.h"
#include "pm_profile.h"
#include "pm_trace.h"
#include "pm_unify.h"

/* The locations of the complete fragment: a rank that wrote it for a
   peer's death and then dies of a signal itself says so (pm_alone_dies_of). */
static pm_local_location *final_locs;
static uint32_t final_n;

void pm_finish_alone_locked(const char *reason, int grace_ms) {
  pm_set_state(PM_FINISHED); /* no thread starts a record any more */
  if (pm_profiling()) {      /* nothing on disk to recover from */
    pm_log("%s: profile mode: the ranks' profiles are merged at MPI_Finalize, "
           "so no report is written for this run",
           reason);
    return;
  }
  pm_locations_quiesce(grace_ms);
  pm_locations_leave_all(pm_clock());
  /* closing the writers puts up to POMP_BUFFER per thread on disk, which
     takes a while: should the rank be killed meanwhile, a fragment must
     already describe those events (a partial one, unless a flush wrote
     one with these definitions already) */
  pm_fragment_periodic();
  uint32_t n;
  pm_local_location *locs = pm_trace_close_writers(&n);
  uint64_t events = 0;
  for (uint32_t i = 0; i < n; i++) events += locs[i].events;
  if (pm_fragment_write(1, reason, locs, n) == 0)
    pm_log("%s: rank finished alone, complete fragment written (%u locations, %llu "
           "events); pomp-recover completes the trace",
           reason, n, (unsigned long long)events);
  free(final_locs);
  final_locs = locs;
  final_n = n;
}

void pm_alone_dies_of(const char *reason) {
  if (final_locs) pm_fragment_write(1, reason, final_locs, final_n);
}

void pm_rank_ends_alone(const char *reason) {
  pm_run_lock();
  int mine = atomic_load(&pm_state) == PM_RUNNING && pm_mpi_active;
  if (mine) pm_finish_alone_locked(reason, 0);
  pm_run_unlock();
  if (mine) pm_peers_alert(reason);
}
