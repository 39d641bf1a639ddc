/* report_freeze.c -- turns the cells of a report being built into a row
   store laid out exactly like the values section and row index of a file,
   so that queries and the writer have one code path for both. */
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "report_format.h"
#include "report_internal.h"

unsigned char *report_buf_grow(report_buf *b, size_t n) {
  pu_reserve((void **)&b->data, &b->cap, b->len + n, 1);
  unsigned char *p = b->data + b->len;
  b->len += n;
  return p;
}

static int cell_order(const void *a, const void *b) {
  const report_cell *x = a, *y = b;
  if (x->metric != y->metric) return x->metric < y->metric ? -1 : 1;
  if (x->cnode != y->cnode) return x->cnode < y->cnode ? -1 : 1;
  return (x->location > y->location) - (x->location < y->location);
}

/* Only +0.0 means "nothing stored"; -0.0 is kept for an exact round trip. */
static int is_positive_zero(double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  return bits == 0;
}

void report_rows_metric_ranges(report_rows *rows, size_t nmetrics) {
  free(rows->metric_begin);
  rows->metric_begin = pu_malloc((nmetrics + 1) * sizeof *rows->metric_begin);
  uint64_t i = 0;
  for (size_t m = 0; m <= nmetrics; m++) {
    while (i < rows->nrows && (size_t)(int32_t)le_get32(rows->index + i * REPORT_INDEX_ENTRY) < m)
      i++;
    rows->metric_begin[m] = i;
  }
  rows->metric_begin[nmetrics] = rows->nrows;
  free(rows->checked);
  rows->checked = pu_calloc(rows->nrows / 64 + 1, sizeof *rows->checked);
}

int64_t report_rows_find(const report_rows *rows, int32_t metric, int32_t cnode) {
  uint64_t lo = rows->metric_begin[metric], hi = rows->metric_begin[metric + 1];
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    int32_t c = (int32_t)le_get32(rows->index + mid * REPORT_INDEX_ENTRY + 4);
    if (c == cnode) return (int64_t)mid;
    if (c < cnode) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* Encodes one row (zeros already dropped) at the end of values and its
   entry at the end of index. */
static void append_row(report_buf *values, report_buf *index, int32_t metric, int32_t cnode,
                       const int32_t *locs, const double *vals, size_t n, int32_t nloc) {
  int enc = report_row_choose(locs, n, nloc);
  uint64_t size = report_row_size(enc, n, (uint64_t)nloc);
  report_entry e = {.metric = metric, .cnode = cnode, .offset = values->len};
  report_row_encode(&e, enc, locs, vals, n, nloc, report_buf_grow(values, size));
  report_entry_put(report_buf_grow(index, REPORT_INDEX_ENTRY), &e);
}

void report_freeze(const pomp_report *cr) {
  if (cr->readonly || (!cr->frozen_stale && cr->rows.metric_begin)) return;
  pomp_report *r = (pomp_report *)cr; /* the row store is a cache */
  report_cells *c = &r->cells;
  if (c->ncells) /* qsort(NULL, 0, ...) is undefined behaviour */
    qsort(c->cells, c->ncells, sizeof *c->cells, cell_order);
  if (c->nslots) report_cells_rehash(c, c->nslots);

  report_buf values = {0}, index = {0};
  int32_t nloc = (int32_t)r->nlocations;
  int32_t *locs = pu_malloc((r->nlocations + 1) * sizeof *locs);
  double *vals = pu_malloc((r->nlocations + 1) * sizeof *vals);
  for (size_t i = 0; i < c->ncells;) {
    size_t n = 0, j = i;
    for (; j < c->ncells && c->cells[j].metric == c->cells[i].metric &&
           c->cells[j].cnode == c->cells[i].cnode;
         j++)
      if (!is_positive_zero(c->cells[j].value)) {
        locs[n] = c->cells[j].location;
        vals[n++] = c->cells[j].value;
      }
    if (n) append_row(&values, &index, c->cells[i].metric, c->cells[i].cnode, locs, vals, n, nloc);
    i = j;
  }
  free(locs);
  free(vals);
  free(r->owned_values);
  free(r->owned_index);
  r->owned_values = values.data;
  r->owned_index = index.data;
  r->rows.values = values.data;
  r->rows.values_len = values.len;
  r->rows.index = index.data;
  r->rows.nrows = index.len / REPORT_INDEX_ENTRY;
  report_rows_metric_ranges(&r->rows, r->nmetrics);
  r->frozen_stale = 0;
}
