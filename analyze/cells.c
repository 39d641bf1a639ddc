/* cells.c -- the values of one location: a row of slots per call path it
   visited, found through a dense cnode -> row index. */
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_calltree.h"
#include "az_cells.h"
#include "az_defs.h"
#include "az_metrics.h"
#include "pomp_util.h"

int64_t *az_cell_new(az_cells *c, int32_t cnode) {
  size_t i = (size_t)cnode;
  if (i >= c->nrow_of) {
    size_t n = c->nrow_of ? c->nrow_of : 64;
    while (n <= i) n *= 2;
    c->row_of = pu_realloc(c->row_of, n * sizeof *c->row_of);
    memset(c->row_of + c->nrow_of, 0, (n - c->nrow_of) * sizeof *c->row_of);
    c->nrow_of = n;
  }
  if (!c->row_of[i]) {
    size_t old_cap = c->caprows;
    pu_reserve((void **)&c->rows, &c->caprows, c->nrows + 1, sizeof *c->rows);
    if (c->caprows != old_cap) /* row_cnode has the capacity of rows */
      c->row_cnode = pu_realloc(c->row_cnode, c->caprows * sizeof *c->row_cnode);
    memset(c->rows[c->nrows], 0, sizeof *c->rows);
    c->row_cnode[c->nrows] = cnode;
    c->row_of[i] = (int32_t)++c->nrows;
  }
  return c->rows[c->row_of[i] - 1];
}

void az_cells_free(az_cells *c) {
  free(c->row_of);
  free(c->rows);
  free(c->row_cnode);
  memset(c, 0, sizeof *c);
}

/* What the location executed at a call path is split between the wait
   states and management found there and the bucket of the region (comp,
   mpi_point2point, omp_barrier, ...), which gets the remainder. */
void az_cells_finish(az_cells *c, const az_calltree *t, const az_defs *d) {
  for (size_t r = 0; r < c->nrows; r++) {
    int64_t *v = c->rows[r];
    int64_t rest = v[AZ_X_RUN];
    for (int m = 0; m < AZ_NUM_METRICS; m++)
      if (az_metric_is_part(m)) rest -= v[m];
    if (rest < 0) rest = 0; /* overlapping waits of one Sendrecv */
    int32_t region = t->nodes[c->row_cnode[r]].region;
    int bucket =
        region >= 0 && (size_t)region < d->num_regions ? d->regions[region].bucket : AZ_COMP;
    v[bucket] += rest;
  }
}

void az_charge(az_analysis *a, uint32_t loc, int32_t cnode, int metric, int64_t v) {
  if (a->charge_hook) a->charge_hook(a, loc, cnode, metric, v);
  else az_cell(&a->cells[loc], cnode)[metric] += v;
}
