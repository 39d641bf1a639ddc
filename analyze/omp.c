/* omp.c -- OpenMP properties of one process, computed once all its
   locations are replayed: barrier waits per team instance and lock
   contention from the acquisition order (docs/PROPERTIES.md). */
#include <stdlib.h>

#include "az.h"
#include "pomp_util.h"

size_t az_omp_add_instance(az_omp_process *o, const az_team_instance *in) {
  PU_PUSH(o->inst, o->ninst, o->capinst, *in);
  az_index_list *l = &o->by_team[in->team];
  PU_PUSH(l->idx, l->n, l->cap, o->ninst - 1);
  return o->ninst - 1;
}

az_team_instance *az_omp_instance(az_omp_process *o, uint32_t team,
                                  uint64_t k) {
  if (team >= o->nteams || k >= o->by_team[team].n) return NULL;
  return &o->inst[o->by_team[team].idx[k]];
}

static int cmp_barrier(const void *pa, const void *pb) {
  const az_barrier *a = pa, *b = pb;
  if (a->instance != b->instance) return a->instance < b->instance ? -1 : 1;
  if (a->seq != b->seq) return a->seq < b->seq ? -1 : 1;
  return (a->loc > b->loc) - (a->loc < b->loc);
}

/* The j-th barrier of each member of one team instance is one barrier;
   everybody waits for the latest to arrive. */
static void barrier_waits(az_analysis *a, az_omp_process *o) {
  az_sort(o->bars, o->nbars, sizeof *o->bars, cmp_barrier);
  for (size_t i = 0, j; i < o->nbars; i = j) {
    az_time latest = o->bars[i].e;
    for (j = i; j < o->nbars && o->bars[j].instance == o->bars[i].instance &&
                o->bars[j].seq == o->bars[i].seq;
         j++)
      if (o->bars[j].e > latest) latest = o->bars[j].e;
    for (size_t k = i; k < j; k++) {
      const az_barrier *b = &o->bars[k];
      az_time until = latest < b->x ? latest : b->x;
      if (until <= b->e) continue;
      int m = b->implicit ? AZ_OMP_IBARRIER_WAIT : AZ_OMP_EBARRIER_WAIT;
      az_cell(&a->cells[b->loc], b->cnode)[m] += (int64_t)(until - b->e);
    }
  }
}

static int cmp_lock(const void *pa, const void *pb) {
  const az_lock_event *a = pa, *b = pb;
  if (a->lock != b->lock) return a->lock < b->lock ? -1 : 1;
  if (a->order != b->order) return a->order < b->order ? -1 : 1;
  return (a->release > b->release) - (a->release < b->release);
}

/* Acquisition k of a lock waits for release k-1 when another thread
   held it: the wait starts at the enter of the critical construct or
   omp_set_lock call and ends at that release. */
static void lock_contention(az_analysis *a, az_omp_process *o) {
  az_sort(o->locks, o->nlocks, sizeof *o->locks, cmp_lock);
  const az_lock_event *prev_release = NULL;
  for (size_t i = 0; i < o->nlocks; i++) {
    const az_lock_event *e = &o->locks[i];
    if (e->release) {
      prev_release = e;
      continue;
    }
    int have = prev_release && prev_release->lock == e->lock &&
               prev_release->order + 1 == e->order;
    if (!have && e->order > 1) {
      char label[160];
      az_loc_label(&a->defs, e->loc, label, sizeof label);
      az_warn(&a->diag, AZ_W_LOCK,
              "%s: event %llu: acquisition %u of lock %u has no release of "
              "acquisition %u",
              label, (unsigned long long)e->pos, e->order, e->lock,
              e->order - 1);
    }
    if (!have || e->cnode < 0 || prev_release->loc == e->loc) continue;
    az_time until = prev_release->t < e->t ? prev_release->t : e->t;
    if (until <= e->e_region) continue;
    int m = e->critical ? AZ_OMP_CRITICAL_CONTENTION : AZ_OMP_LOCK_CONTENTION;
    az_cell(&a->cells[e->loc], e->cnode)[m] += (int64_t)(until - e->e_region);
  }
}

void az_omp_finish(az_analysis *a, az_omp_process *o) {
  barrier_waits(a, o);
  lock_contention(a, o);
  for (size_t t = 0; t < o->nteams; t++) free(o->by_team[t].idx);
  free(o->by_team);
  free(o->inst);
  free(o->bars);
  free(o->locks);
  free(o->leaves);
}
