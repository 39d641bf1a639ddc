/* az_calltree.h -- the global call tree: one node per distinct (region,
   parent) over all locations (calltree.c).  Internal to pomp-analyze
   (not installed). */
#ifndef POMP_AZ_CALLTREE_H
#define POMP_AZ_CALLTREE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  int32_t region, parent;
} az_cnode;

typedef struct az_calltree {
  az_cnode *nodes;
  size_t len, cap;
  int32_t *slots;
  size_t nslots; /* open addressing over (region, parent) */
  uint8_t *dead; /* NULL, or per node: grafted away, not reported */
} az_calltree;

void az_calltree_init(az_calltree *t);
void az_calltree_free(az_calltree *t);
/* The node of region under parent (-1: a root), created on first use;
   parents always precede their children. */
int32_t az_calltree_child(az_calltree *t, int32_t parent, int32_t region);
/* The node of region under parent, or -1 when there is none; changes
   nothing (threads may call it while no thread creates nodes). */
int32_t az_calltree_find(const az_calltree *t, int32_t parent, int32_t region);

#endif
