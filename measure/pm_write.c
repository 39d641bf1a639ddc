/* pm_write.c -- closing the trace: event writers, definition exchange with
   rank 0 (pm_unify), per-location mapping tables and clock offsets, and
   the archive. The same path serves a process alone (serial collectives). */
#include <stdlib.h>
#include <string.h>

#include "pm_defs.h"
#include "pm_location.h"
#include "pm_trace.h"
#include "pm_unify.h"
#include "pomp_util.h"

pm_offset pm_offsets[PM_MAX_OFFSETS];
int pm_noffsets;

/* Closes every event writer of the process; returns the locations. */
static pm_local_location *close_writers(uint32_t *n) {
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
    maps = pu_calloc(size, sizeof *maps);
    OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(pm_archive);
    pm_unify_merge(w, all, counts, size, pm_mpi_active, maps);
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

/* Reads "u32 n, u32 ids[n]" from the map blob. */
static uint32_t *read_ids(pm_cursor *c, uint32_t *n) {
  *n = pm_get_u32(c);
  if (*n > (size_t)(c->end - c->p) / 4) c->bad = 1;
  if (c->bad) return *n = 0, NULL;
  uint32_t *ids = pu_malloc((*n ? *n : 1) * sizeof *ids);
  for (uint32_t i = 0; i < *n; i++) ids[i] = pm_get_u32(c);
  return ids;
}

static void write_local_defs(const pm_blob *map, const pm_local_location *locs, uint32_t n) {
  pm_cursor c = {map->data, map->data + map->len, 0};
  uint32_t nreg, ncomm, nteam;
  uint32_t *reg = read_ids(&c, &nreg), *comm = read_ids(&c, &ncomm), *team = read_ids(&c, &nteam);
  OTF2_IdMap *regions = nreg ? OTF2_IdMap_CreateFromUint32Array(nreg, reg, true) : NULL;
  OTF2_IdMap *comms = NULL;
  if (ncomm + nteam) {
    comms = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, ncomm + nteam);
    for (uint32_t i = 0; i < ncomm; i++) OTF2_IdMap_AddIdPair(comms, i, comm[i]);
    for (uint32_t i = 0; i < nteam; i++) OTF2_IdMap_AddIdPair(comms, PM_TEAM_COMM_BASE + i, team[i]);
  }
  OTF2_Archive_OpenDefFiles(pm_archive);
  for (uint32_t i = 0; i < n; i++) {
    OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(pm_archive, (uint64_t)(uint32_t)pm_rank << 32 | locs[i].thread);
    if (!w) continue;
    if (regions) OTF2_DefWriter_WriteMappingTable(w, OTF2_MAPPING_REGION, regions);
    if (comms) OTF2_DefWriter_WriteMappingTable(w, OTF2_MAPPING_COMM, comms);
    for (int k = 0; k < pm_noffsets; k++)
      OTF2_DefWriter_WriteClockOffset(w, pm_offsets[k].time, pm_offsets[k].offset, 0.0);
    OTF2_Archive_CloseDefWriter(pm_archive, w);
  }
  OTF2_Archive_CloseDefFiles(pm_archive);
  if (regions) OTF2_IdMap_Free(regions);
  if (comms) OTF2_IdMap_Free(comms);
  free(reg);
  free(comm);
  free(team);
}

void pm_trace_write(void) {
  if (!pm_archive) return;
  uint64_t end = pm_clock();
  uint32_t n;
  pm_local_location *locs = close_writers(&n);
  OTF2_Archive_CloseEvtFiles(pm_archive);
  /* start and end in rank 0's clock, for ClockProperties */
  int64_t first = pm_noffsets ? pm_offsets[0].offset : 0;
  int64_t last = pm_noffsets ? pm_offsets[pm_noffsets - 1].offset : 0;
  pm_blob mine = {0}, map = {0};
  pm_unify_describe(&mine, pm_start_time + (uint64_t)first, end + (uint64_t)last, locs, n);
  exchange(&mine, &map);
  write_local_defs(&map, locs, n);
  OTF2_ErrorCode rc = OTF2_Archive_Close(pm_archive);
  pm_archive = NULL;
  if (rc != OTF2_SUCCESS) pm_err("closing the trace failed: %s", OTF2_Error_GetDescription(rc));
  uint64_t events = 0;
  for (uint32_t i = 0; i < n; i++) events += locs[i].events;
  pm_info(1, "trace written to %s: %u locations, %llu events", pm_experiment_dir, n,
          (unsigned long long)events);
  /* counted here, not at start: the program's constructors register
     their units after libpomp has started */
  pm_log("%d descriptors registered by instrumented units", pm_registered_descriptors());
  pm_blob_free(&mine);
  pm_blob_free(&map);
  free(locs);
}
