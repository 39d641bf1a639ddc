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
