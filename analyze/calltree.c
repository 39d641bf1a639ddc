/* calltree.c -- the global call tree: one node per distinct (region,
   parent) pair over all locations, found by open addressing so that an
   Enter costs one hash probe. */
#include <stdlib.h>

#include "az_calltree.h"
#include "pomp_util.h"

static size_t hash_pair(int32_t region, int32_t parent, size_t mask) {
  uint64_t k = ((uint64_t)(uint32_t)parent << 32) | (uint32_t)region;
  k *= 0x9E3779B97F4A7C15ull;
  return (size_t)(k >> 32) & mask;
}

void az_calltree_init(az_calltree *t) {
  t->nodes = NULL;
  t->len = t->cap = 0;
  t->dead = NULL;
  t->nslots = 1024;
  t->slots = pu_malloc(t->nslots * sizeof *t->slots);
  for (size_t i = 0; i < t->nslots; i++) t->slots[i] = -1;
}

void az_calltree_free(az_calltree *t) {
  free(t->nodes);
  free(t->slots);
  free(t->dead);
  t->nodes = NULL;
  t->slots = NULL;
  t->dead = NULL;
  t->len = t->cap = t->nslots = 0;
}

static void rehash(az_calltree *t) {
  free(t->slots);
  t->nslots *= 2;
  t->slots = pu_malloc(t->nslots * sizeof *t->slots);
  for (size_t i = 0; i < t->nslots; i++) t->slots[i] = -1;
  for (size_t n = 0; n < t->len; n++) {
    size_t h = hash_pair(t->nodes[n].region, t->nodes[n].parent, t->nslots - 1);
    while (t->slots[h] >= 0) h = (h + 1) & (t->nslots - 1);
    t->slots[h] = (int32_t)n;
  }
}

int32_t az_calltree_find(const az_calltree *t, int32_t parent, int32_t region) {
  size_t mask = t->nslots - 1;
  for (size_t h = hash_pair(region, parent, mask); t->slots[h] >= 0; h = (h + 1) & mask) {
    int32_t n = t->slots[h];
    if (t->nodes[n].region == region && t->nodes[n].parent == parent) return n;
  }
  return -1;
}

int32_t az_calltree_child(az_calltree *t, int32_t parent, int32_t region) {
  int32_t found = az_calltree_find(t, parent, region);
  if (found >= 0) return found;
  size_t mask = t->nslots - 1, h = hash_pair(region, parent, mask);
  while (t->slots[h] >= 0) h = (h + 1) & mask;
  int32_t id = (int32_t)t->len;
  az_cnode node = {region, parent};
  PU_PUSH(t->nodes, t->len, t->cap, node);
  t->slots[h] = id;
  if (t->len * 2 > t->nslots) rehash(t);
  return id;
}
