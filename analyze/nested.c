/* nested.c -- where the extra threads of a nested parallel region ran.
   Nested regions are recorded flattened (docs/TRACE.md): the threads of an
   inner team other than the one that encountered it are extra locations
   that never join a team, so the replay starts their call paths at the
   inner region, as a root of the call tree -- it cannot tell which thread
   encountered it.  Once the whole trace is replayed (and gathered, under
   mpirun), such a root is grafted where the threads of the other teams met
   the same parallel region, when they met it at one call path only: the
   extra threads' values move there, and the emptied root subtree is left
   out of the report (az_calltree.dead).  Done on the final tree, the graft
   depends neither on the replay windows nor on the analysis processes. */
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_calltree.h"
#include "az_cells.h"
#include "az_defs.h"
#include "az_metrics.h"
#include "az_nested.h"
#include "pomp_util.h"

/* The one non-root call path of root r's parallel region, or -1. */
static int32_t graft_target(const az_analysis *a, size_t r) {
  const az_calltree *t = &a->tree;
  int32_t region = t->nodes[r].region, target = -1;
  if (region < 0 || (size_t)region >= a->defs.num_regions ||
      a->defs.regions[region].kind != AZ_RK_PARALLEL)
    return -1;
  for (size_t c = 0; c < t->len; c++) {
    if (t->nodes[c].parent < 0 || t->nodes[c].region != region) continue;
    if (target >= 0) return -1; /* met at several call paths */
    target = (int32_t)c;
  }
  /* not inside the root's own subtree (the region nested in itself) */
  for (int32_t p = target; p >= 0; p = t->nodes[p].parent)
    if ((size_t)p == r) return -1;
  return target;
}

/* Moves the values of every location from the grafted call paths to
   their new places; the old rows stay, zeroed. */
static void move_values(az_analysis *a, const int32_t *map, size_t n) {
  for (size_t l = 0; l < a->defs.num_locs; l++) {
    az_cells *c = &a->cells[l];
    for (size_t r = 0; r < c->nrows; r++) {
      int32_t from = c->row_cnode[r];
      if ((size_t)from >= n || map[from] < 0) continue;
      az_row v;
      memcpy(v, c->rows[r], sizeof v);
      memset(c->rows[r], 0, sizeof v);
      int64_t *to = az_cell(c, map[from]); /* may move c->rows */
      for (int m = 0; m < AZ_NUM_SLOTS; m++) to[m] += v[m];
    }
  }
}

void az_nested_graft(az_analysis *a) {
  size_t n = a->tree.len;
  int32_t *map = pu_malloc((n ? n : 1) * sizeof *map);
  int any = 0;
  for (size_t k = 0; k < n; k++) {
    map[k] = a->tree.nodes[k].parent < 0 ? graft_target(a, k) : -1;
    any |= map[k] >= 0;
  }
  if (!any) {
    free(map);
    return;
  }
  /* parents precede their children: the subtrees follow their roots */
  for (size_t k = 0; k < n; k++) {
    int32_t p = a->tree.nodes[k].parent;
    if (map[k] < 0 && p >= 0 && map[p] >= 0)
      map[k] = az_calltree_child(&a->tree, map[p], a->tree.nodes[k].region);
  }
  move_values(a, map, n);
  a->tree.dead = pu_calloc(a->tree.len, 1);
  for (size_t k = 0; k < n; k++) a->tree.dead[k] = map[k] >= 0;
  free(map);
}
