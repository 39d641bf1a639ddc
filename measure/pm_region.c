/* pm_region.c -- the region table: (name, file, lines, paradigm, role) ->
   dense local id. Callers cache the id, so a mutex is cheap enough here. */
#include <pthread.h>
#include <stdlib.h>

#include "pm_defs.h"
#include "pomp_unify.h"
#include "pomp_util.h"

static pthread_mutex_t region_lock = PTHREAD_MUTEX_INITIALIZER;
static pm_region_def *regions;
static size_t nregions, cap_regions;
static pm_map by_definition;

/* The serialised definition: the key of the map, and what ranks exchange. */
void pm_region_serialise(pm_blob *b, const pm_region_def *r) {
  pm_blob_str(b, r->name);
  pm_blob_str(b, r->file);
  pm_blob_u32(b, r->begin_line);
  pm_blob_u32(b, r->end_line);
  pm_blob_u32(b, (uint32_t)r->paradigm);
  pm_blob_u32(b, (uint32_t)r->role);
}

uint32_t pm_region_define(const char *name, const char *file, uint32_t begin_line,
                          uint32_t end_line, OTF2_Paradigm paradigm, OTF2_RegionRole role) {
  pm_region_def def = {
      (char *)(name ? name : ""), (char *)(file ? file : ""), begin_line, end_line, paradigm, role};
  pm_blob key = {0};
  pm_region_serialise(&key, &def);
  pthread_mutex_lock(&region_lock);
  uint32_t id = pm_map_intern(&by_definition, key.data, key.len, (uint32_t)nregions);
  if (id == nregions) {
    def.name = pu_strdup(def.name);
    def.file = pu_strdup(def.file);
    PU_PUSH(regions, nregions, cap_regions, def);
  }
  pthread_mutex_unlock(&region_lock);
  pm_blob_free(&key);
  return id;
}

uint32_t pm_region_count(void) {
  pthread_mutex_lock(&region_lock);
  uint32_t n = (uint32_t)nregions;
  pthread_mutex_unlock(&region_lock);
  return n;
}

int pm_region_get(uint32_t id, pm_region_def *out) {
  pthread_mutex_lock(&region_lock);
  int found = id < nregions;
  if (found) *out = regions[id]; /* a copy: PU_PUSH may move the table */
  pthread_mutex_unlock(&region_lock);
  return found ? 0 : -1;
}

void pm_region_serialise_all(pm_blob *b) {
  pthread_mutex_lock(&region_lock); /* PU_PUSH may move the table */
  pm_blob_u32(b, (uint32_t)nregions);
  for (size_t i = 0; i < nregions; i++) pm_region_serialise(b, &regions[i]);
  pthread_mutex_unlock(&region_lock);
}
