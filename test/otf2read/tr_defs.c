/* tr_defs.c -- the definitions of a trace: strings, locations and their
   groups, regions, groups and communicators (global), clock offsets
   (local, per location). Names are kept as string ids while reading and
   resolved at the end, so the order of the definitions does not matter. */
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "tr_internal.h"

#define UNDEF OTF2_UNDEFINED_UINT32

/* Entry id of a by-id array of *n entries, grown as needed with copies of
   blank for ids not (yet) defined. */
static void *slot(void *arr, size_t *n, size_t id, size_t elem, const void *blank) {
  void **p = arr;
  if (id >= *n) {
    *p = pu_realloc(*p, (id + 1) * elem);
    for (size_t i = *n; i <= id; i++) memcpy((char *)*p + i * elem, blank, elem);
    *n = id + 1;
  }
  return (char *)*p + id * elem;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *s) {
  tr_trace *t = ((tr_reading *)u)->t;
  static char *const none = NULL;
  char **entry = slot(&t->strings, &t->nstrings, self, sizeof *t->strings, &none);
  if (!*entry) *entry = pu_strdup(s); /* OTF2 defines each string once */
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group) {
  tr_reading *rd = u;
  tr_trace *t = rd->t;
  tr_location l = {
      .id = self, .name_id = name, .type = type, .group = group, .declared_events = events};
  PU_PUSH(t->locs, t->nlocs, rd->cap_locs, l);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location_group(void *u, OTF2_LocationGroupRef self,
                                            OTF2_StringRef name, OTF2_LocationGroupType type,
                                            OTF2_SystemTreeNodeRef parent,
                                            OTF2_LocationGroupRef creator) {
  (void)creator;
  tr_trace *t = ((tr_reading *)u)->t;
  static const tr_location_group blank = {UNDEF, NULL, 0, UNDEF};
  *(tr_location_group *)slot(&t->loc_groups, &t->nloc_groups, self, sizeof blank, &blank) =
      (tr_location_group){name, NULL, type, parent};
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef descr,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                    uint32_t end) {
  (void)canonical, (void)descr, (void)flags;
  tr_trace *t = ((tr_reading *)u)->t;
  static const tr_region blank = {UNDEF, UNDEF, NULL, NULL, 0, 0, -1, -1};
  *(tr_region *)slot(&t->regions, &t->nregions, self, sizeof blank, &blank) =
      (tr_region){name, file, NULL, NULL, begin, end, paradigm, role};
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t n, const uint64_t *members) {
  (void)flags;
  tr_trace *t = ((tr_reading *)u)->t;
  static const tr_group blank = {UNDEF, NULL, -1, 0, NULL, -1};
  tr_group *g = slot(&t->groups, &t->ngroups, self, sizeof blank, &blank);
  free(g->members);
  *g = (tr_group){name, NULL, type, n, pu_malloc(n * sizeof *members + 1), paradigm};
  memcpy(g->members, members, n * sizeof *members);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag f) {
  (void)f;
  tr_trace *t = ((tr_reading *)u)->t;
  static const tr_comm blank = {UNDEF, NULL, UNDEF, UNDEF};
  *(tr_comm *)slot(&t->comms, &t->ncomms, self, sizeof blank, &blank) =
      (tr_comm){name, NULL, group, parent};
  return OTF2_CALLBACK_SUCCESS;
}

void tr_set_def_callbacks(OTF2_GlobalDefReaderCallbacks *cb) {
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, def_location_group);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
}

void tr_resolve_names(tr_trace *t) {
  for (size_t i = 0; i < t->nlocs; i++) t->locs[i].name = tr_string(t, t->locs[i].name_id);
  for (size_t i = 0; i < t->nloc_groups; i++)
    t->loc_groups[i].name = tr_string(t, t->loc_groups[i].name_id);
  for (size_t i = 0; i < t->nregions; i++) {
    t->regions[i].name = tr_string(t, t->regions[i].name_id);
    t->regions[i].file = tr_string(t, t->regions[i].file_id);
  }
  for (size_t i = 0; i < t->ngroups; i++) t->groups[i].name = tr_string(t, t->groups[i].name_id);
  for (size_t i = 0; i < t->ncomms; i++) t->comms[i].name = tr_string(t, t->comms[i].name_id);
}

/* ------------------------------------------------------------ local */

static OTF2_CallbackCode def_clock_offset(void *u, OTF2_TimeStamp time, int64_t offset,
                                          double stddev) {
  (void)stddev;
  tr_reading *rd = u;
  tr_location *l = &rd->t->locs[rd->def_loc];
  l->offsets = pu_realloc(l->offsets, (l->noffsets + 1) * sizeof *l->offsets);
  l->offsets[l->noffsets++] = (tr_clock_offset){time, offset};
  return OTF2_CALLBACK_SUCCESS;
}

void tr_set_local_def_callbacks(OTF2_DefReaderCallbacks *cb) {
  OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, def_clock_offset);
}
