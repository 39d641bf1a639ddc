/* az_cells.h -- the values of one location: a row of slots (az_metrics.h)
   per call path it visited, in integer ticks or counts (cells.c).
   Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_CELLS_H
#define POMP_AZ_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "az_metrics.h"

typedef int64_t az_row[AZ_NUM_SLOTS];

typedef struct {
  int32_t *row_of;
  size_t nrow_of; /* cnode -> row index + 1 (0 = none) */
  az_row *rows;
  int32_t *row_cnode;
  size_t nrows, caprows;
} az_cells;

void az_cells_free(az_cells *c);
/* The row of one call path, created zeroed on first use (rows may move). */
int64_t *az_cell_new(az_cells *c, int32_t cnode);
/* ... inline when it exists: a charge per event and pass (az_charge). */
static inline int64_t *az_cell(az_cells *c, int32_t cnode) {
  size_t i = (size_t)cnode;
  if (i < c->nrow_of && c->row_of[i]) return c->rows[c->row_of[i] - 1];
  return az_cell_new(c, cnode);
}
/* Turns the AZ_X_RUN remainder into the bucket metric of each row. */
struct az_calltree;
struct az_defs;
void az_cells_finish(az_cells *c, const struct az_calltree *t, const struct az_defs *d);

#endif
