/* tr_read.c -- see trace_reader.h: drives OTF2's readers (global
   definitions, each location's local definitions, then the global event
   reader, which applies the local mapping tables and clock offsets), then
   indexes the events by location. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "tr_internal.h"

/* Process by process (group id = rank), threads by id: the order both
   location-id layouts give (docs/TRACE.md, "System tree and locations"). */
static int by_rank_thread(const void *a, const void *b) {
  const tr_location *x = a, *y = b;
  if (x->group != y->group) return x->group < y->group ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* Rank and thread of every location (sorted), and which id layout the
   trace uses: Score-P's (T << 32 | R) when every id's low half is its
   group's id, the old one (R << 32 | T) when every high half is. */
static void number_locations(tr_trace *t) {
  int scorep = 1, old = 1;
  for (size_t i = 0; i < t->nlocs; i++) {
    tr_location *l = &t->locs[i];
    l->rank = l->group;
    l->thread = i && t->locs[i - 1].group == l->group ? t->locs[i - 1].thread + 1 : 0;
    scorep &= (uint32_t)l->id == l->group;
    old &= (uint32_t)(l->id >> 32) == l->group;
  }
  t->id_layout = scorep && old ? TR_IDS_EITHER
                 : scorep      ? TR_IDS_SCOREP
                 : old         ? TR_IDS_RANK_MAJOR
                               : TR_IDS_OTHER;
}

static OTF2_ErrorCode read_global_defs(OTF2_Reader *r, tr_reading *rd) {
  OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(r);
  if (!gd) return OTF2_ERROR_INVALID;
  OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
  tr_set_def_callbacks(cb);
  OTF2_Reader_RegisterGlobalDefCallbacks(r, gd, cb, rd);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  uint64_t n = 0;
  OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(r, gd, &n);
  OTF2_Reader_CloseGlobalDefReader(r, gd);
  return rc;
}

/* Local definitions: the mapping tables the global event reader applies,
   and the clock offsets (an archive may have none). */
static void read_local_defs(OTF2_Reader *r, tr_reading *rd) {
  if (OTF2_Reader_OpenDefFiles(r) != OTF2_SUCCESS) return;
  OTF2_DefReaderCallbacks *cb = OTF2_DefReaderCallbacks_New();
  tr_set_local_def_callbacks(cb);
  for (size_t i = 0; i < rd->t->nlocs; i++) {
    OTF2_DefReader *dr = OTF2_Reader_GetDefReader(r, rd->t->locs[i].id);
    if (!dr) continue;
    rd->def_loc = i;
    OTF2_Reader_RegisterDefCallbacks(r, dr, cb, rd);
    uint64_t n = 0;
    OTF2_Reader_ReadAllLocalDefinitions(r, dr, &n);
    OTF2_Reader_CloseDefReader(r, dr);
  }
  OTF2_DefReaderCallbacks_Delete(cb);
  OTF2_Reader_CloseDefFiles(r);
}

static OTF2_ErrorCode read_events(OTF2_Reader *r, tr_reading *rd) {
  OTF2_Reader_OpenEvtFiles(r);
  for (size_t i = 0; i < rd->t->nlocs; i++) OTF2_Reader_GetEvtReader(r, rd->t->locs[i].id);
  OTF2_GlobalEvtReader *g = OTF2_Reader_GetGlobalEvtReader(r);
  if (!g) return OTF2_ERROR_INVALID;
  OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
  tr_set_event_callbacks(cb);
  OTF2_Reader_RegisterGlobalEvtCallbacks(r, g, cb, rd);
  OTF2_GlobalEvtReaderCallbacks_Delete(cb);
  uint64_t n = 0;
  OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalEvents(r, g, &n);
  OTF2_Reader_CloseGlobalEvtReader(r, g);
  OTF2_Reader_CloseEvtFiles(r);
  return rc;
}

/* Each location's events (indices), decreasing timestamps, and lines. */
static void index_locations(tr_trace *t, unsigned flags) {
  for (size_t i = 0; i < t->nevents; i++) t->locs[t->events[i].loc].nevents++;
  for (size_t i = 0; i < t->nlocs; i++) {
    t->locs[i].at = pu_malloc((t->locs[i].nevents + 1) * sizeof(size_t));
    if (flags & TR_LINES) t->locs[i].lines = pu_malloc((t->locs[i].nevents + 1) * sizeof(char *));
    t->locs[i].nevents = 0;
  }
  for (size_t i = 0; i < t->nevents; i++) {
    const tr_event *e = &t->events[i];
    tr_location *l = &t->locs[e->loc];
    if (l->nevents && e->time < t->events[l->at[l->nevents - 1]].time) l->decreasing++;
    if (flags & TR_LINES) {
      char line[512];
      tr_plain(t, e, line, sizeof line);
      l->lines[l->nevents] = pu_strdup(line);
    }
    l->at[l->nevents++] = i;
  }
}

int tr_read(const char *archive, tr_trace *t, unsigned flags) {
  memset(t, 0, sizeof *t);
  OTF2_Reader *r = OTF2_Reader_Open(archive);
  if (!r) {
    pu_error("%s: cannot open the trace archive", archive);
    return -1;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(r);
  tr_reading rd = {.t = t};
  const char *what = "definitions";
  OTF2_ErrorCode rc = read_global_defs(r, &rd);
  if (rc == OTF2_SUCCESS) {
    tr_resolve_names(t);
    if (t->nlocs) qsort(t->locs, t->nlocs, sizeof *t->locs, by_rank_thread);
    number_locations(t);
    for (size_t i = 0; i < t->nlocs; i++) OTF2_Reader_SelectLocation(r, t->locs[i].id);
    read_local_defs(r, &rd);
    rd.in_collective = pu_calloc(t->nlocs + 1, sizeof *rd.in_collective);
    what = "events";
    rc = read_events(r, &rd);
    free(rd.in_collective);
  }
  OTF2_Reader_Close(r);
  if (rc != OTF2_SUCCESS) {
    pu_error("%s: reading the %s failed: %s", archive, what, OTF2_Error_GetName(rc));
    tr_free(t);
    return -1;
  }
  index_locations(t, flags);
  return 0;
}

void tr_free(tr_trace *t) {
  for (size_t i = 0; i < t->nlocs; i++) {
    tr_location *l = &t->locs[i];
    for (size_t k = 0; l->lines && k < l->nevents; k++) free(l->lines[k]);
    free(l->lines);
    free(l->at);
    free(l->offsets);
  }
  for (size_t i = 0; i < t->nstrings; i++) free(t->strings[i]);
  for (size_t i = 0; i < t->ngroups; i++) free(t->groups[i].members);
  free(t->strings);
  free(t->locs);
  free(t->loc_groups);
  free(t->regions);
  free(t->groups);
  free(t->comms);
  free(t->events);
  memset(t, 0, sizeof *t);
}

tr_location *tr_location_by_id(tr_trace *t, uint64_t id) {
  for (size_t i = 0; i < t->nlocs; i++) /* sorted by rank and thread, not id */
    if (t->locs[i].id == id) return &t->locs[i];
  return NULL;
}

const char *tr_string(const tr_trace *t, uint32_t id) {
  return id < t->nstrings && t->strings[id] ? t->strings[id] : "?";
}

const char *tr_region_name(const tr_trace *t, uint32_t region) {
  return region < t->nregions ? t->regions[region].name : "?";
}

const char *tr_comm_name(const tr_trace *t, uint32_t comm) {
  return comm < t->ncomms ? t->comms[comm].name : "?";
}

const tr_event *tr_event_of(const tr_trace *t, const tr_location *l, size_t i) {
  return &t->events[l->at[i]];
}
