/* records.c -- storage of the synchronisation records (az_records.h):
   released slots are reused, so the arrays only grow to the records in
   flight. */
#include <stdlib.h>
#include <string.h>

#include "az_records.h"
#include "pomp_util.h"

size_t az_slot_take(void **arr, size_t *len, size_t *cap, size_t elem, az_slots *released) {
  if (released->n) return released->idx[--released->n];
  pu_reserve(arr, cap, *len + 1, elem);
  return (*len)++;
}

void az_slot_give(az_slots *released, size_t i) {
  PU_PUSH(released->idx, released->n, released->cap, i);
}

static int row_before(const az_sort_row *a, const az_sort_row *b) {
  for (int k = 0; k < AZ_ROW_WORDS; k++)
    if (a->w[k] != b->w[k]) return a->w[k] < b->w[k];
  return 0;
}

/* Rows v[a..b) and v[b..c), each in order, merged in place (tmp: room for
   b - a rows). */
static void merge_rows(az_sort_row *v, az_sort_row *tmp, size_t a, size_t b, size_t c) {
  if (!row_before(&v[b], &v[b - 1])) return;
  memcpy(tmp, v + a, (b - a) * sizeof *v);
  size_t i = 0, j = b, k = a;
  while (i < b - a && j < c) v[k++] = row_before(&v[j], &tmp[i]) ? v[j++] : tmp[i++];
  while (i < b - a) v[k++] = tmp[i++];
}

/* The run that starts at v[i], in order (a reversed one turned round);
   returns its end. */
static size_t take_run(az_sort_row *v, size_t i, size_t n) {
  size_t j = i + 1;
  if (j < n && row_before(&v[j], &v[i])) {
    while (j < n && row_before(&v[j], &v[j - 1])) j++;
    for (size_t l = i, h = j - 1; l < h; l++, h--) {
      az_sort_row x = v[l];
      v[l] = v[h];
      v[h] = x;
    }
    return j;
  }
  while (j < n && !row_before(&v[j], &v[j - 1])) j++;
  return j;
}

void az_sort_rows(az_sort_row *v, size_t n) {
  size_t *run = NULL, nruns = 0, cap = 0; /* run k: v[run[k] .. run[k + 1]) */
  for (size_t i = 0; i < n; i = take_run(v, i, n)) PU_PUSH(run, nruns, cap, i);
  PU_PUSH(run, nruns, cap, n);
  nruns--;
  az_sort_row *tmp = nruns > 1 ? pu_malloc(n * sizeof *tmp) : NULL;
  while (nruns > 1) { /* neighbours merged pairwise */
    size_t kept = 0;
    for (size_t k = 0; k < nruns; k += 2) {
      if (k + 1 < nruns) merge_rows(v, tmp, run[k], run[k + 1], run[k + 2]);
      run[kept++] = run[k];
    }
    run[kept] = n;
    nruns = kept;
  }
  free(tmp);
  free(run);
}

void az_mpi_records_free(az_mpi_records *m) {
  free(m->sends);
  free(m->recvs);
  free(m->colls);
  free(m->coll_broken);
  free(m->free_sends.idx);
  free(m->free_recvs.idx);
  free(m->free_colls.idx);
  memset(m, 0, sizeof *m);
}
