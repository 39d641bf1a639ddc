/* omp.c -- OpenMP properties of one process, computed once all its
   locations are replayed: barrier waits per team instance and lock
   contention from the acquisition order (docs/PROPERTIES.md). */
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_cells.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_metrics.h"
#include "az_omp.h"
#include "az_records.h"
#include "pomp_util.h"

size_t az_omp_add_instance(az_omp_process *o, const az_team_instance *in) {
  size_t i =
      az_slot_take((void **)&o->inst, &o->ninst, &o->capinst, sizeof *o->inst, &o->free_inst);
  o->inst[i] = *in;
  az_index_list *l = &o->by_team[in->team];
  PU_PUSH(l->idx, l->n, l->cap, i);
  return i;
}

az_team_instance *az_omp_instance(az_omp_process *o, uint32_t team, uint64_t k) {
  if (team >= o->nteams) return NULL;
  const az_index_list *l = &o->by_team[team];
  if (k < l->base || k - l->base >= l->n) return NULL;
  return &o->inst[l->idx[k - l->base]];
}

/* Instances whose join lies before stop are over on every location of
   the process (each read up to stop): limited parallelism, then their
   slots are released.  A team's instances end in order. */
static void retire_instances(az_analysis *a, az_omp_process *o, az_time stop, int last) {
  for (size_t t = 0; t < o->nteams; t++) {
    az_index_list *l = &o->by_team[t];
    size_t done = 0;
    for (; done < l->n; done++) {
      az_team_instance *in = &o->inst[l->idx[done]];
      if (!last && (!in->joined || in->join >= stop || in->open_bars)) break;
      az_threads_instance(a, o, in);
      free(in->workers);
      in->workers = NULL;
      in->free = 1;
      az_slot_give(&o->free_inst, l->idx[done]);
    }
    if (!done) continue;
    memmove(l->idx, l->idx + done, (l->n - done) * sizeof *l->idx);
    l->n -= done;
    l->base += done;
  }
}

/* Barriers in the order (team instance, barrier of the instance,
   location): one barrier's records together. */
static size_t *sorted_barriers(const az_omp_process *o, size_t *count) {
  az_sort_row *rows = pu_malloc((o->nbars ? o->nbars : 1) * sizeof *rows);
  size_t n = 0;
  for (size_t i = 0; i < o->nbars; i++) {
    const az_barrier *b = &o->bars[i];
    if (!b->free) rows[n++] = (az_sort_row){{b->instance, b->seq, b->loc, 0, 0}, i};
  }
  az_sort_rows(rows, n);
  size_t *g = pu_malloc((n ? n : 1) * sizeof *g);
  for (size_t i = 0; i < n; i++) g[i] = rows[i].i;
  free(rows);
  *count = n;
  return g;
}

/* A barrier is complete when every member of its team instance left it
   (and the instance is over, so that the member count is final). */
static int barrier_complete(const az_omp_process *o, const size_t *g, size_t n) {
  const az_team_instance *in = &o->inst[o->bars[g[0]].instance];
  if (!in->joined || n != in->members) return 0;
  for (size_t k = 0; k < n; k++)
    if (!o->bars[g[k]].left) return 0;
  return 1;
}

/* A barrier some members of its team never reached (their record ended
   before: a run that did not finish; or a defective trace): whom the
   others waited for is unknown, so nobody gets a wait state, as for a
   collective operation some ranks never entered. */
static void unreached(az_analysis *a, const az_omp_process *o, const az_barrier *b, size_t n) {
  char label[160];
  az_loc_label(&a->defs, b->loc, label, sizeof label);
  int32_t region = a->tree.nodes[b->cnode].region;
  az_warn(&a->diag, AZ_W_BARRIER,
          "%s: %s (barrier %u of its team instance) was reached by %zu of "
          "%u threads; no wait state",
          label, a->defs.regions[region].name, b->seq + 1, n, o->inst[b->instance].members);
}

/* The j-th barrier of each member of one team instance is one barrier;
   everybody waits for the latest to arrive.  Evaluated barriers release
   their records (slots: a pending Leave refers to a record by index). */
static void barrier_waits(az_analysis *a, az_omp_process *o, int last) {
  size_t n;
  size_t *g = sorted_barriers(o, &n);
  for (size_t i = 0, j; i < n; i = j) {
    const az_barrier *first = &o->bars[g[i]];
    az_time latest = first->e;
    for (j = i;
         j < n && o->bars[g[j]].instance == first->instance && o->bars[g[j]].seq == first->seq; j++)
      if (o->bars[g[j]].e > latest) latest = o->bars[g[j]].e;
    if (!last && !barrier_complete(o, g + i, j - i)) continue;
    int whole = j - i == o->inst[first->instance].members;
    if (!whole) unreached(a, o, first, j - i);
    for (size_t k = i; k < j; k++) {
      az_barrier *b = &o->bars[g[k]];
      az_time until = latest < b->x ? latest : b->x;
      int m = b->implicit ? AZ_OMP_IBARRIER_WAIT : AZ_OMP_EBARRIER_WAIT;
      /* tasks it ran while the others were late are not waiting */
      if (whole && until > b->e + b->busy)
        az_cell(&a->cells[b->loc], b->cnode)[m] += (int64_t)(until - b->e - b->busy);
      o->inst[b->instance].open_bars--;
      b->free = 1;
      az_slot_give(&o->free_bars, g[k]);
    }
  }
  free(g);
}

static int cmp_lock(const void *pa, const void *pb) {
  const az_lock_event *a = pa, *b = pb;
  if (a->lock != b->lock) return a->lock < b->lock ? -1 : 1;
  if (a->order != b->order) return a->order < b->order ? -1 : 1;
  return (a->release > b->release) - (a->release < b->release);
}

static void no_release(az_analysis *a, const az_lock_event *e) {
  char label[160];
  az_loc_label(&a->defs, e->loc, label, sizeof label);
  az_warn(&a->diag, AZ_W_LOCK,
          "%s: event %llu: acquisition %u of lock %u has no release of "
          "acquisition %u",
          label, (unsigned long long)e->pos, e->order, e->lock, e->order - 1);
}

/* Acquisition k of a lock waits for release k-1 when another thread
   held it: the wait starts at the enter of the critical construct or
   omp_set_lock call and ends at that release.  Kept for the next step:
   acquisitions whose release k-1 was not read yet, and the latest release
   of each lock. */
static void lock_contention(az_analysis *a, az_omp_process *o, int last) {
  az_sort(o->locks, o->nlocks, sizeof *o->locks, cmp_lock);
  az_lock_event prev = {0};
  int have_prev = 0;
  size_t kept = 0;
  for (size_t i = 0; i < o->nlocks; i++) {
    az_lock_event e = o->locks[i];
    if (e.release) {
      prev = e;
      have_prev = 1;
      int later = i + 1 < o->nlocks && o->locks[i + 1].lock == e.lock;
      if (!last && !later) o->locks[kept++] = e; /* the latest release */
      continue;
    }
    int have = have_prev && prev.lock == e.lock && prev.order + 1 == e.order;
    if (!have) {
      if (e.order <= 1) continue; /* the first acquisition never waits */
      if (!last) o->locks[kept++] = e;
      else no_release(a, &e);
      continue;
    }
    if (e.cnode < 0 || prev.loc == e.loc) continue;
    az_time until = prev.t < e.t ? prev.t : e.t;
    if (until <= e.e_region) continue;
    int m = e.critical ? AZ_OMP_CRITICAL_CONTENTION : AZ_OMP_LOCK_CONTENTION;
    az_cell(&a->cells[e.loc], e.cnode)[m] += (int64_t)(until - e.e_region);
  }
  o->nlocks = kept;
}

void az_omp_step(az_analysis *a, az_omp_process *o, az_time stop, int last) {
  barrier_waits(a, o, last);
  lock_contention(a, o, last);
  retire_instances(a, o, stop, last);
}

void az_omp_finish(az_omp_process *o) {
  free(o->free_inst.idx);
  free(o->free_bars.idx);
  for (size_t t = 0; t < o->nteams; t++) free(o->by_team[t].idx);
  free(o->by_team);
  free(o->inst);
  free(o->bars);
  free(o->locks);
  free(o->leaves);
  free(o->team_thread);
  free(o->cut);
  free(o->spans);
}
