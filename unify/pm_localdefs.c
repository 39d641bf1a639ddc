/* pm_localdefs.c -- one rank's local definitions (pomp_unify.h). */
#include "pomp_unify.h"

#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

/* Reads "u32 n, u32 ids[n]" from the map blob. */
static uint32_t *read_ids(pm_cursor *c, uint32_t *n) {
  *n = pm_get_u32(c);
  if (*n > (size_t)(c->end - c->p) / 4) c->bad = 1;
  if (c->bad) return *n = 0, NULL;
  uint32_t *ids = pu_malloc((*n ? *n : 1) * sizeof *ids);
  for (uint32_t i = 0; i < *n; i++) ids[i] = pm_get_u32(c);
  return ids;
}

int pm_write_local_defs(OTF2_Archive *a, uint32_t rank, const pm_blob *map, const uint32_t *threads,
                        uint32_t nthreads, const uint64_t *offset_time, const int64_t *offset,
                        int noffsets) {
  pm_cursor c = {map->data, map->data + map->len, 0};
  uint32_t nreg, ncomm, nteam;
  uint32_t *reg = read_ids(&c, &nreg), *comm = read_ids(&c, &ncomm), *team = read_ids(&c, &nteam);
  uint32_t nio = 0, *io = c.p < c.end ? read_ids(&c, &nio) : NULL;    /* absent: no I/O */
  uint32_t nwin = 0, *win = c.p < c.end ? read_ids(&c, &nwin) : NULL; /* absent: no windows */
  uint32_t ngrp = 0, *grp = c.p < c.end ? read_ids(&c, &ngrp) : NULL; /* absent: older merge */
  int rc = c.bad ? -1 : 0;
  OTF2_IdMap *handles = !rc && nio ? OTF2_IdMap_CreateFromUint32Array(nio, io, true) : NULL;
  OTF2_IdMap *regions = !rc && nreg ? OTF2_IdMap_CreateFromUint32Array(nreg, reg, true) : NULL;
  OTF2_IdMap *comms = NULL;
  if (!rc && ncomm + nteam) {
    comms = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, ncomm + nteam);
    for (uint32_t i = 0; i < ncomm; i++) OTF2_IdMap_AddIdPair(comms, i, comm[i]);
    for (uint32_t i = 0; i < nteam; i++)
      OTF2_IdMap_AddIdPair(comms, PM_TEAM_COMM_BASE + i, team[i]);
  }
  OTF2_IdMap *wins = NULL; /* local window id = its comm's local id */
  for (uint32_t i = 0; i < nwin && !rc; i++) {
    if (win[i] == OTF2_UNDEFINED_RMA_WIN) continue;
    if (!wins) wins = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, nwin);
    OTF2_IdMap_AddIdPair(wins, i, win[i]);
  }
  /* local group id = the local id of the comm registered with its members
     (RmaGroupSync's PSCW groups, libpomp-mpi) */
  OTF2_IdMap *groups = !rc && ngrp ? OTF2_IdMap_CreateFromUint32Array(ngrp, grp, true) : NULL;
  for (uint32_t i = 0; i < nthreads && !rc; i++) {
    OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(a, pm_loc_id(rank, threads[i]));
    if (!w) continue;
    if (regions) OTF2_DefWriter_WriteMappingTable(w, OTF2_MAPPING_REGION, regions);
    if (comms) OTF2_DefWriter_WriteMappingTable(w, OTF2_MAPPING_COMM, comms);
    if (wins) OTF2_DefWriter_WriteMappingTable(w, OTF2_MAPPING_RMA_WIN, wins);
    if (groups) OTF2_DefWriter_WriteMappingTable(w, OTF2_MAPPING_GROUP, groups);
    if (handles) OTF2_DefWriter_WriteMappingTable(w, OTF2_MAPPING_IO_HANDLE, handles);
    for (int k = 0; k < noffsets; k++)
      OTF2_DefWriter_WriteClockOffset(w, offset_time[k], offset[k], 0.0);
    OTF2_Archive_CloseDefWriter(a, w);
  }
  if (regions) OTF2_IdMap_Free(regions);
  if (comms) OTF2_IdMap_Free(comms);
  if (handles) OTF2_IdMap_Free(handles);
  if (wins) OTF2_IdMap_Free(wins);
  if (groups) OTF2_IdMap_Free(groups);
  free(grp);
  free(win);
  free(io);
  free(reg);
  free(comm);
  free(team);
  return rc;
}

int pm_unify_threads(const unsigned char *blob, uint32_t len, uint32_t **threads, uint32_t *n) {
  pm_cursor c = {blob, blob + len, 0};
  pm_get_str(&c); /* host */
  pm_get_u64(&c); /* start */
  pm_get_u64(&c); /* end */
  *n = pm_get_u32(&c);
  if (c.bad || *n > (uint32_t)(c.end - c.p) / 12) return *threads = NULL, *n = 0, -1;
  *threads = pu_malloc((*n ? *n : 1) * sizeof **threads);
  for (uint32_t i = 0; i < *n; i++) {
    (*threads)[i] = pm_get_u32(&c);
    pm_get_u64(&c); /* events */
  }
  return 0;
}

int pm_unify_set_events(unsigned char *blob, uint32_t len, uint32_t index, uint64_t events) {
  pm_cursor c = {blob, blob + len, 0};
  pm_get_str(&c);
  pm_get_u64(&c);
  pm_get_u64(&c);
  uint32_t n = pm_get_u32(&c);
  if (c.bad || index >= n || (size_t)(c.end - c.p) < (size_t)(index + 1) * 12) return -1;
  memcpy(blob + (c.p - blob) + (size_t)index * 12 + 4, &events, 8);
  return 0;
}
