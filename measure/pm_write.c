/* pm_write.c -- closing the trace: event writers, definition exchange with
   rank 0 (pm_unify), per-location mapping tables and clock offsets, and
   the archive. The same path serves a process alone (serial collectives). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pm_defs.h"
#include "pm_location.h"
#include "pm_trace.h"
#include "pm_unify.h"
#include "pomp_unify.h"
#include "pomp_util.h"

pm_offset pm_offsets[PM_MAX_OFFSETS];
_Atomic int pm_noffsets;

/* Closes every event writer of the process (not collective: each writer
   flushes its own buffer); returns the locations. */
pm_local_location *pm_trace_close_writers(uint32_t *n) {
  pm_local_location *locs = NULL;
  size_t len = 0, cap = 0;
  for (uint32_t t = 0; t < PM_MAX_LOCATIONS; t++) {
    pm_location *l = pm_location_get(t);
    if (!l || !l->writer) continue;
    if (l->flush_pending) pm_write_flush_region(l);
    uint64_t events = 0;
    OTF2_EvtWriter_GetNumberOfEvents(l->writer, &events);
    OTF2_Archive_CloseEvtWriter(pm_archive, l->writer);
    l->writer = NULL;
    pm_room_closed(l); /* its events are written: the room it did not use goes back */
    pm_local_location ll = {t, events};
    PU_PUSH(locs, len, cap, ll);
    if (l->unmatched)
      pm_log("location %u: %llu leaves without their enter were ignored", t,
             (unsigned long long)l->unmatched);
  }
  *n = (uint32_t)len;
  return locs;
}

/* Rank 0 gathers every rank's description, writes the global definitions
   and scatters each rank's id mapping into *map. */
static void exchange(const pm_blob *mine, pm_blob *map) {
  uint32_t size = pm_coll.size, root = pm_coll.rank == 0;
  uint64_t *sizes = pu_calloc(size, sizeof *sizes);
  uint32_t *counts = pu_calloc(size, sizeof *counts);
  unsigned char *all = NULL;
  pm_blob *maps = NULL;
  pm_coll_gather_u64(mine->len, sizes);
  if (root) {
    size_t total = 0;
    for (uint32_t r = 0; r < size; r++) total += counts[r] = (uint32_t)sizes[r];
    all = pu_malloc(total);
  }
  pm_coll_gatherv(mine->data, (uint32_t)mine->len, all, counts);
  if (root) {
    /* the definitions fit, even on a full disk: the reserve (one file for
       the ranks sharing the directory) is freed once every rank has been
       heard from, so every event file is closed; freed by each rank after
       its own close, another rank's last buffers could take its room and
       leave the anchor and the definitions empty (2 ranks x 2 threads on
       a 2 MB disk: 1 run in 28) */
    pm_archive_release_reserve();
    maps = pu_calloc(size, sizeof *maps);
    OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(pm_archive);
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    uint64_t real = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
    pm_merge_error err;
    if (pm_unify_merge(w, all, counts, size, pm_mpi_active, pm_clock(), real, maps, &err))
      pm_err("definitions of rank %u are malformed (byte %zu); the trace has no definitions",
             err.rank, err.offset);
    OTF2_Archive_CloseGlobalDefWriter(pm_archive, w);
    free(all);
    all = NULL;
    pm_blob joined = {0};
    for (uint32_t r = 0; r < size; r++) {
      counts[r] = (uint32_t)maps[r].len;
      pm_blob_put(&joined, maps[r].data, maps[r].len);
      pm_blob_free(&maps[r]);
    }
    free(maps);
    all = joined.data;
  }
  pm_coll_bcast(counts, size * (uint32_t)sizeof *counts);
  map->len = map->cap = counts[pm_coll.rank];
  map->data = pu_malloc(map->len ? map->len : 1);
  pm_coll_scatterv(all, counts, map->data, (uint32_t)map->len);
  free(all);
  free(counts);
  free(sizes);
}

static void write_local_defs(const pm_blob *map, const pm_local_location *locs, uint32_t n) {
  uint32_t *threads = pu_malloc((n ? n : 1) * sizeof *threads);
  uint64_t times[PM_MAX_OFFSETS];
  int64_t offsets[PM_MAX_OFFSETS];
  for (uint32_t i = 0; i < n; i++) threads[i] = locs[i].thread;
  int noffsets = atomic_load(&pm_noffsets);
  for (int k = 0; k < noffsets; k++) {
    times[k] = pm_offsets[k].time;
    offsets[k] = pm_offsets[k].offset;
  }
  OTF2_Archive_OpenDefFiles(pm_archive);
  pm_write_local_defs(pm_archive, (uint32_t)pm_rank, map, threads, n, times, offsets, noffsets);
  OTF2_Archive_CloseDefFiles(pm_archive);
  free(threads);
}

/* The anchor's POMP::RUN_STATUS (docs/TRACE.md); "" for a run that ends
   normally. */
static char run_status[200];

void pm_trace_mark_died(const char *why) {
  snprintf(run_status, sizeof run_status,
           "incomplete: the program died of %s; events up to the signal", why);
}

/* The disk filled (pm_archive.c): run_status says where (here, or on
   another rank). */
static void mark_disk_full(void) {
  uint64_t events;
  uint32_t thread;
  pm_archive_disk_full_at(&events, &thread);
  if (!pm_archive_disk_full())
    snprintf(run_status, sizeof run_status,
             "incomplete: disk full on another rank; events up to each location's last flush");
  else
    snprintf(run_status, sizeof run_status,
             "incomplete: disk full after %llu events of location %llu; events up to there",
             (unsigned long long)events, (unsigned long long)pm_loc_id(pm_coll.rank, thread));
}

/* What the disk did on any rank (FULL, WRITE_FAILED bits), collectively:
   every rank writes the trace, or gives up on it, together (a rank alone
   in the unification would wait for ever), and every anchor says
   incomplete when one rank's disk filled. */
enum { FULL = 1, WRITE_FAILED = 2 };
static uint32_t disk_anywhere(void) {
  uint32_t any =
      (pm_archive_disk_full() ? FULL : 0) | (pm_archive_write_failed() ? WRITE_FAILED : 0);
  if (!pm_mpi_active || pm_coll.size <= 1) return any;
  uint64_t *all = pu_calloc(pm_coll.size, sizeof *all);
  pm_coll_gather_u64(any, all);
  for (uint32_t r = 0; pm_coll.rank == 0 && r < pm_coll.size; r++) any |= (uint32_t)all[r];
  pm_coll_bcast(&any, sizeof any);
  free(all);
  return any;
}

static void write_run_status(void) {
  if (run_status[0]) OTF2_Archive_SetProperty(pm_archive, "POMP::RUN_STATUS", run_status, true);
}

/* The disk filled while tracing: OTF2's writers are not closed (their
   buffers' write failed, and closing them then crashes inside OTF2 3.0);
   the reserve makes room for this process's last fragment, which names
   what reached the disk, and pomp-analyze recovers the trace from it as
   for a run that died (recover/). */
static void give_up_on_full_disk(void) {
  mark_disk_full();
  pm_archive_release_reserve();
  pm_room_forget_all();
  pm_fragment_final_partial(run_status + strlen("incomplete: "));
  pm_archive = NULL; /* abandoned, not closed */
  pm_log("trace incomplete in %s (%s): events up to each location's last buffer flush are "
         "on disk; pomp-analyze recovers them",
         pm_experiment_dir, run_status);
}

/* After a full disk: what each location kept (every event it recorded:
   their room was claimed before they were taken, pm_room.c). */
static void log_stopped_locations(const pm_local_location *locs, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    pm_location *l = pm_location_get(locs[i].thread);
    uint64_t id = pm_loc_id(pm_coll.rank, locs[i].thread);
    pm_log("location %llu: %llu events on disk (recording stopped: disk full)",
           (unsigned long long)id, (unsigned long long)locs[i].events);
    if (l && l->room.unclaimed)
      pm_warn("location %llu took %llu bytes beyond the room it had claimed after the disk "
              "filled (more records after the stop than one chunk holds)",
              (unsigned long long)id, (unsigned long long)l->room.unclaimed);
  }
}

void pm_trace_write(void) {
  if (!pm_archive) return;
  uint32_t disk = disk_anywhere();
  /* a failed write: every rank leaves its fragment, as for a run that died */
  if (disk & WRITE_FAILED) {
    give_up_on_full_disk();
    return;
  }
  if (disk & FULL) mark_disk_full(); /* recording stopped in time: the files close */
  uint64_t end = pm_clock();
  uint32_t n;
  pm_local_location *locs = pm_trace_close_writers(&n);
  /* every event is on disk now: if the unification below is cut short (a
     signal, a peer's death), pomp-recover still finds everything */
  pm_fragment_write(1, "the trace was being written when the run ended", locs, n);
  OTF2_Archive_CloseEvtFiles(pm_archive);
  pm_blob mine = {0}, map = {0};
  pm_unify_describe_self(&mine, end, locs, n);
  exchange(&mine, &map); /* rank 0 frees the reserve there */
  write_local_defs(&map, locs, n);
  write_run_status();
  OTF2_ErrorCode rc = OTF2_Archive_Close(pm_archive);
  pm_archive = NULL;
  if (rc != OTF2_SUCCESS) pm_err("closing the trace failed: %s", OTF2_Error_GetDescription(rc));
  else pm_fragment_remove();                          /* the trace is whole: nothing to recover */
  if (pm_coll.rank == 0) pm_archive_remove_markers(); /* every rank has closed its files */
  uint64_t events = 0;
  for (uint32_t i = 0; i < n; i++) events += locs[i].events;
  if (disk & FULL) {
    pm_log("trace incomplete in %s (%s): definitions written; the event files hold every "
           "event recorded",
           pm_experiment_dir, run_status);
    log_stopped_locations(locs, n);
  } else
    pm_info(1, "trace written to %s: %u locations, %llu events", pm_experiment_dir, n,
            (unsigned long long)events);
  if (!events)
    pm_warn("the trace in %s has no events: no instrumented code ran while measuring "
            "(built with pomp-cc? POMP_FUNCTIONS, POMP_FILTER?)",
            pm_experiment_dir);
  /* counted here, not at start: the program's constructors register
     their units after libpomp has started */
  pm_log("%d descriptors registered by instrumented units", pm_registered_descriptors());
  pm_blob_free(&mine);
  pm_blob_free(&map);
  free(locs);
}
