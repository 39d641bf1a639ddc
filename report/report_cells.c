/* report_cells.c -- the values of a report being built: a hash table from
   (metric, cnode, location) to a cell, so that pomp_report_add_value
   accumulates in O(1) however the analyzer orders its additions. */
#include <stdlib.h>

#include "pomp_util.h"
#include "report_internal.h"

void report_cells_free(report_cells *c) {
  free(c->cells);
  free(c->slots);
  *c = (report_cells){0};
}

static size_t cell_hash(int32_t m, int32_t n, int32_t l, size_t mask) {
  uint64_t k = ((uint64_t)(uint32_t)m * 0x9e3779b97f4a7c15u) ^ ((uint64_t)(uint32_t)n << 21) ^
               (uint64_t)(uint32_t)l;
  k *= 0xff51afd7ed558ccdu;
  return (size_t)(k ^ k >> 32) & mask;
}

static uint32_t *cell_slot(const report_cells *c, int32_t m, int32_t n, int32_t l) {
  size_t mask = c->nslots - 1;
  for (size_t i = cell_hash(m, n, l, mask);; i = (i + 1) & mask) {
    uint32_t *s = &c->slots[i];
    if (!*s) return s;
    const report_cell *x = &c->cells[*s - 1];
    if (x->metric == m && x->cnode == n && x->location == l) return s;
  }
}

/* Rebuilds the slots for the current cells (after growth or a sort). */
void report_cells_rehash(report_cells *c, size_t nslots) {
  free(c->slots);
  c->nslots = nslots;
  c->slots = pu_calloc(nslots, sizeof *c->slots);
  for (size_t i = 0; i < c->ncells; i++) {
    const report_cell *x = &c->cells[i];
    *cell_slot(c, x->metric, x->cnode, x->location) = (uint32_t)i + 1;
  }
}

void report_cells_add(report_cells *c, int32_t metric, int32_t cnode, int32_t location, double v) {
  if (2 * (c->ncells + 1) > c->nslots) report_cells_rehash(c, c->nslots ? 2 * c->nslots : 1024);
  uint32_t *s = cell_slot(c, metric, cnode, location);
  if (*s) {
    c->cells[*s - 1].value += v;
    return;
  }
  /* A new cell takes v itself (not 0 + v), so -0.0 survives. */
  if (c->ncells >= UINT32_MAX - 1)
    pu_die(POMP_EXIT_FAILURE, "report: more than 2^32 values in memory");
  report_cell x = {metric, cnode, location, v};
  PU_PUSH(c->cells, c->ncells, c->cells_cap, x);
  *s = (uint32_t)c->ncells;
}

pomp_report_status pomp_report_add_value(pomp_report *r, int32_t metric, int32_t cnode,
                                         int32_t location, double v) {
  if (r->readonly || metric < 0 || (size_t)metric >= r->nmetrics || cnode < 0 ||
      (size_t)cnode >= r->ncnodes || location < 0 || (size_t)location >= r->nlocations)
    return POMP_REPORT_ERR_ARG;
  report_cells_add(&r->cells, metric, cnode, location, v);
  r->frozen_stale = 1;
  return POMP_REPORT_OK;
}
