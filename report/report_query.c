/* report_query.c -- values of a report: cells, rows, and inclusive values
   over subtrees of the metric, call and system trees.  Everything reads the
   row store (report_freeze.c), mapped or made in memory. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "report_format.h"
#include "report_internal.h"

static const report_rows *rows_of(const pomp_report *r) {
  report_freeze(r);
  return &r->rows;
}

static int metric_ok(const pomp_report *r, int32_t m) { return m >= 0 && (size_t)m < r->nmetrics; }
static int cnode_ok(const pomp_report *r, int32_t c) { return c >= 0 && (size_t)c < r->ncnodes; }

/* Decodes row i into locs/vals (num_locations entries each); returns its
   count or -1 with err filled. */
static int64_t decode_row(const pomp_report *r, uint64_t i, int32_t *locs, double *vals,
                          pomp_report_error *err) {
  const report_rows *rows = &r->rows;
  report_entry e;
  report_entry_get(rows->index, i, &e);
  char why[128];
  if (report_row_decode(&e, rows->values + e.offset, (int32_t)r->nlocations, locs, vals, why) !=
      0) {
    report_fail(err, POMP_REPORT_ERR_FORMAT, "%s: offset %llu: row (metric %d, cnode %d): %s",
                r->path, (unsigned long long)(rows->values_pos + e.offset), e.metric, e.cnode, why);
    return -1;
  }
  return e.count;
}

/* Scratch arrays for one decoded row. */
typedef struct {
  int32_t *locs;
  double *vals;
} row_scratch;

static row_scratch scratch_new(const pomp_report *r) {
  return (row_scratch){pu_malloc((r->nlocations + 1) * sizeof(int32_t)),
                       pu_malloc((r->nlocations + 1) * sizeof(double))};
}
static void scratch_free(row_scratch *s) {
  free(s->locs);
  free(s->vals);
}

/* Adds row i into acc; 0 or -1 on a corrupt row. */
static int add_row(const pomp_report *r, uint64_t i, row_scratch *s, double *acc,
                   pomp_report_error *err) {
  int64_t n = decode_row(r, i, s->locs, s->vals, err);
  for (int64_t k = 0; k < n; k++) acc[s->locs[k]] += s->vals[k];
  return n < 0 ? -1 : 0;
}

int64_t pomp_report_num_rows(const pomp_report *r) { return (int64_t)rows_of(r)->nrows; }

int pomp_report_row_at(const pomp_report *r, int64_t i, int32_t *metric, int32_t *cnode,
                       int32_t *count, double *sum) {
  const report_rows *rows = rows_of(r);
  if (i < 0 || (uint64_t)i >= rows->nrows) return 0;
  report_entry e;
  report_entry_get(rows->index, (uint64_t)i, &e);
  if (metric) *metric = e.metric;
  if (cnode) *cnode = e.cnode;
  if (count) *count = (int32_t)e.count;
  if (sum) *sum = e.sum;
  return 1;
}

int32_t pomp_report_row_get(const pomp_report *r, int32_t metric, int32_t cnode, int32_t *locations,
                            double *values, pomp_report_error *err) {
  if (!metric_ok(r, metric) || !cnode_ok(r, cnode)) {
    report_fail(err, POMP_REPORT_ERR_ARG, "bad metric %d or cnode %d", metric, cnode);
    return -1;
  }
  int64_t i = report_rows_find(rows_of(r), metric, cnode);
  return i < 0 ? 0 : (int32_t)decode_row(r, (uint64_t)i, locations, values, err);
}

/* One cell without decoding its row: the row is checked in full the first
   time any of its cells is asked for (a corrupt row gives 0, as before),
   then read in place (report_row_find).  Threads racing on the same row
   may both check it; the mark only ever goes from 0 to 1. */
double pomp_report_value(const pomp_report *r, int32_t metric, int32_t cnode, int32_t location) {
  if (!metric_ok(r, metric) || !cnode_ok(r, cnode) || location < 0 ||
      (size_t)location >= r->nlocations)
    return 0.0;
  const report_rows *rows = rows_of(r);
  int64_t i = report_rows_find(rows, metric, cnode);
  if (i < 0) return 0.0;
  report_entry e;
  report_entry_get(rows->index, (uint64_t)i, &e);
  const unsigned char *p = rows->values + e.offset;
  uint64_t *word = &rows->checked[(uint64_t)i / 64], bit = 1ull << (i % 64);
  if (!(__atomic_load_n(word, __ATOMIC_RELAXED) & bit)) {
    char why[128];
    if (report_row_decode(&e, p, (int32_t)r->nlocations, NULL, NULL, why) != 0) return 0.0;
    __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
  }
  double v = 0.0;
  report_row_find(&e, p, (int32_t)r->nlocations, location, &v);
  return v;
}

double pomp_report_row_sum(const pomp_report *r, int32_t metric, int32_t cnode) {
  if (!metric_ok(r, metric) || !cnode_ok(r, cnode)) return 0.0;
  const report_rows *rows = rows_of(r);
  int64_t i = report_rows_find(rows, metric, cnode);
  if (i < 0) return 0.0;
  report_entry e;
  report_entry_get(rows->index, (uint64_t)i, &e);
  return e.sum;
}

int pomp_report_row_add(const pomp_report *r, int32_t metric, int32_t cnode, double *acc,
                        pomp_report_error *err) {
  if (!metric_ok(r, metric) || !cnode_ok(r, cnode)) {
    report_fail(err, POMP_REPORT_ERR_ARG, "bad metric %d or cnode %d", metric, cnode);
    return 0;
  }
  int64_t i = report_rows_find(rows_of(r), metric, cnode);
  if (i < 0) return 0;
  row_scratch s = scratch_new(r);
  int rc = add_row(r, (uint64_t)i, &s, acc, err);
  scratch_free(&s);
  return rc == 0;
}

/* ---- subtrees ------------------------------------------------------------ */

void pomp_report_accumulate(const int32_t *parents, int32_t n, double *v) {
  for (int32_t i = n - 1; i > 0; i--)
    if (parents[i] >= 0 && parents[i] < i) v[parents[i]] += v[i];
}

/* mask[i] = 1 for the nodes of the selection: node (with its subtree when
   inclusive), or every node for node -1.  parent(i) is the int32 at
   array + i * stride + offset; parents come before children, so one
   forward pass suffices. */
static char *selection_mask(const void *array, size_t stride, size_t offset, size_t n, int32_t node,
                            int inclusive) {
  char *mask = pu_calloc(n + 1, 1);
  for (size_t i = 0; i < n; i++) {
    int32_t parent;
    memcpy(&parent, (const char *)array + i * stride + offset, sizeof parent);
    mask[i] = node < 0 || (int32_t)i == node || (inclusive && parent >= 0 && mask[parent]);
  }
  return mask;
}

static char *metric_mask(const pomp_report *r, int32_t metric, int incl) {
  return selection_mask(r->metrics, sizeof *r->metrics, offsetof(pomp_metric, parent), r->nmetrics,
                        metric, incl);
}

pomp_report_status pomp_report_location_values(const pomp_report *r, const pomp_report_selection *s,
                                               double *out, pomp_report_error *err) {
  if ((s->metric != -1 && !metric_ok(r, s->metric)) || (s->cnode != -1 && !cnode_ok(r, s->cnode)))
    return report_fail(err, POMP_REPORT_ERR_ARG, "bad selection: metric %d, cnode %d", s->metric,
                       s->cnode);
  const report_rows *rows = rows_of(r);
  memset(out, 0, r->nlocations * sizeof *out);
  char *mmask = metric_mask(r, s->metric, s->metric_inclusive);
  char *cmask = selection_mask(r->cnodes, sizeof *r->cnodes, offsetof(pomp_cnode, parent),
                               r->ncnodes, s->cnode, s->cnode_inclusive);
  row_scratch scratch = scratch_new(r);
  pomp_report_status st = POMP_REPORT_OK;
  for (size_t m = 0; m < r->nmetrics && st == POMP_REPORT_OK; m++) {
    if (!mmask[m]) continue;
    for (uint64_t i = rows->metric_begin[m]; i < rows->metric_begin[m + 1]; i++) {
      int32_t c = (int32_t)le_get32(rows->index + i * REPORT_INDEX_ENTRY + 4);
      if (cmask[c] && add_row(r, i, &scratch, out, err) != 0) {
        st = POMP_REPORT_ERR_FORMAT;
        break;
      }
    }
  }
  scratch_free(&scratch);
  free(mmask);
  free(cmask);
  return st;
}

void pomp_report_cnode_values(const pomp_report *r, int32_t metric, int metric_inclusive,
                              double *out) {
  memset(out, 0, r->ncnodes * sizeof *out);
  if (metric != -1 && !metric_ok(r, metric)) return;
  const report_rows *rows = rows_of(r);
  char *mmask = metric_mask(r, metric, metric_inclusive);
  for (size_t m = 0; m < r->nmetrics; m++) {
    if (!mmask[m]) continue;
    for (uint64_t i = rows->metric_begin[m]; i < rows->metric_begin[m + 1]; i++) {
      report_entry e;
      report_entry_get(rows->index, i, &e);
      out[e.cnode] += e.sum;
    }
  }
  free(mmask);
}

void pomp_report_sysnode_values(const pomp_report *r, const double *per_loc, double *out) {
  memset(out, 0, r->nsysnodes * sizeof *out);
  int32_t *parents = pu_malloc((r->nsysnodes + 1) * sizeof *parents);
  for (size_t i = 0; i < r->nsysnodes; i++) parents[i] = r->sysnodes[i].parent;
  for (size_t l = 0; l < r->nlocations; l++) out[r->loc_sysnode[l]] = per_loc[l];
  pomp_report_accumulate(parents, (int32_t)r->nsysnodes, out);
  free(parents);
}

double pomp_report_metric_total(const pomp_report *r, int32_t metric, int metric_inclusive) {
  if (metric != -1 && !metric_ok(r, metric)) return 0.0;
  const report_rows *rows = rows_of(r);
  char *mmask = metric_mask(r, metric, metric_inclusive);
  double total = 0.0;
  for (size_t m = 0; m < r->nmetrics; m++)
    for (uint64_t i = rows->metric_begin[m]; mmask[m] && i < rows->metric_begin[m + 1]; i++)
      total += le_getd(rows->index + i * REPORT_INDEX_ENTRY + 24);
  free(mmask);
  return total;
}
