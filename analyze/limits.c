/* limits.c -- where the model of the delay costs does not hold, read from
   the call paths each location visited (az_critical.h).  The critical-path
   walk (pass_critical.c) notes the same limits as it meets them; an
   analysis without the walk (--no-critical-path) still voids the delay
   costs those limits break, so its values equal the full analysis's. */
#include <otf2/otf2.h>

#include "az.h"
#include "az_calltree.h"
#include "az_cells.h"
#include "az_critical.h"
#include "az_defs.h"
#include "az_metrics.h"

/* Whether a proper ancestor of call path k is a parallel region. */
static int inside_parallel(const az_analysis *a, int32_t k) {
  for (int32_t p = a->tree.nodes[k].parent; p >= 0; p = a->tree.nodes[p].parent)
    if (a->defs.regions[a->tree.nodes[p].region].kind == AZ_RK_PARALLEL) return 1;
  return 0;
}

/* The limits call path k shows where a location visited it (master: the
   first location of its process). */
static unsigned limits_of(const az_analysis *a, int32_t k, int master) {
  const az_region *g = &a->defs.regions[a->tree.nodes[k].region];
  unsigned limits = 0;
  if (g->role == OTF2_REGION_ROLE_TASK || g->role == OTF2_REGION_ROLE_TASK_CREATE ||
      g->role == OTF2_REGION_ROLE_TASK_UNTIED)
    limits |= AZ_LIMIT_TASKS;
  if (g->paradigm == OTF2_PARADIGM_MPI && !master) limits |= AZ_LIMIT_MPI_THREADS;
  if (g->kind == AZ_RK_PARALLEL && inside_parallel(a, k)) limits |= AZ_LIMIT_NESTED;
  return limits;
}

unsigned az_model_limits_scan(const az_analysis *a) {
  unsigned limits = 0;
  for (uint32_t l = 0; l < a->defs.num_locs; l++) {
    const az_cells *c = &a->cells[l];
    int master = a->defs.procs[a->defs.locs[l].process].first_loc == l;
    /* visited here: a worker's idle time sits at its master's call paths */
    for (size_t r = 0; r < c->nrows; r++)
      if (c->rows[r][AZ_VISITS] > 0) limits |= limits_of(a, c->row_cnode[r], master);
  }
  return limits;
}

void az_model_limits_without_walk(az_analysis *a) {
  if (a->switched_off == AZ_OFF_CRITICAL_PATH) az_critical_limits(a, az_model_limits_scan(a));
}
