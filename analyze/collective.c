/* collective.c -- wait states of MPI collective operations.  The k-th
   collective a process runs on a communicator is instance k of it; all
   ranks of the communicator take part in every instance, with the same
   operation (else the communicator is no longer analysed, see
   mismatched()).  Which formula applies is the kind of the operation's
   region (az_coll.coll, from az_region.coll, roles.c), as in the delay
   and critical-path passes.  Formulas (as Scalasca's, docs/PROPERTIES.md):
     latest = min(latest enter, my leave)
     N x N, barrier:  wait = latest - my enter,
                      completion = my leave - max(earliest leave, latest)
     1-to-N:          non-root wait = min(root enter, my leave) - my enter
     N-to-1:          root wait = min(latest non-root enter, root leave)
                                  - root enter
     prefix (Scan, Exscan): wait = min(latest enter of the lower
                                  communicator ranks, my leave) - my enter
     MPI_Finalize (all processes, AZ_COMM_FINALIZE): wait as N x N, no
                      completion (Scalasca's Wait at Finalize) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_collective.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_metrics.h"
#include "az_records.h"
#include "pomp_util.h"

static int cmp_instance(const void *pa, const void *pb) {
  const az_coll *a = pa, *b = pb;
  if (a->comm != b->comm) return a->comm < b->comm ? -1 : 1;
  if (a->seq != b->seq) return a->seq < b->seq ? -1 : 1;
  return (a->loc > b->loc) - (a->loc < b->loc);
}

static int64_t positive(az_time from, az_time to) { return to > from ? (int64_t)(to - from) : 0; }

static void charge(az_analysis *a, const az_coll *c, int metric, int64_t v) {
  if (v > 0) az_charge(a, c->loc, c->cnode, metric, v);
}

static void nxn(az_analysis *a, const az_coll *g, size_t n, int wait_m, int completion_m) {
  az_time latest = g[0].e, earliest_x = g[0].x;
  for (size_t i = 1; i < n; i++) {
    if (g[i].e > latest) latest = g[i].e;
    if (g[i].x < earliest_x) earliest_x = g[i].x;
  }
  for (size_t i = 0; i < n; i++) {
    az_time begin = latest < g[i].x ? latest : g[i].x;
    charge(a, &g[i], wait_m, positive(g[i].e, begin));
    if (completion_m >= 0) /* < 0: the operation has no completion metric */
      charge(a, &g[i], completion_m, positive(earliest_x > begin ? earliest_x : begin, g[i].x));
  }
}

/* The (last) record of the instance's root, NULL if none is. */
static const az_coll *root_of(const az_analysis *a, const az_coll *g, size_t n) {
  uint32_t root = az_comm_world(&a->defs, g[0].comm, g[0].root, g[0].proc);
  const az_coll *r = NULL;
  for (size_t i = 0; i < n; i++)
    if (g[i].proc == root) r = &g[i];
  return r;
}

static void late_broadcast(az_analysis *a, const az_coll *g, size_t n) {
  const az_coll *r = root_of(a, g, n);
  if (!r) return;
  for (size_t i = 0; i < n; i++) {
    if (&g[i] == r) continue;
    az_time until = r->e < g[i].x ? r->e : g[i].x;
    charge(a, &g[i], AZ_MPI_LATEBROADCAST, positive(g[i].e, until));
  }
}

static void early_reduce(az_analysis *a, const az_coll *g, size_t n) {
  const az_coll *r = root_of(a, g, n);
  if (!r) return;
  az_time latest = 0;
  int any = 0;
  for (size_t i = 0; i < n; i++)
    if (&g[i] != r && (!any || g[i].e > latest)) latest = g[i].e, any = 1;
  if (!any) return;
  az_time until = latest < r->x ? latest : r->x;
  charge(a, r, AZ_MPI_EARLYREDUCE, positive(r->e, until));
}

/* One warning for an instance that is not analysed: why, after the
   location, event and instance it names. */
static void not_analysed(az_analysis *a, const az_coll *g, const char *why) {
  char label[160];
  az_loc_label(&a->defs, g[0].loc, label, sizeof label);
  az_warn(&a->diag, AZ_W_UNMATCHED_COLL,
          "%s: event %llu: collective %llu on communicator %u %s; not "
          "analysed",
          label, (unsigned long long)g[0].pos, (unsigned long long)g[0].seq + 1, g[0].comm, why);
}

/* The records of an instance in communicator rank order, through the
   inverse of the communicator's rank -> world map; 0 unless every rank
   has exactly one record (a defective trace). */
static int in_rank_order(const az_analysis *a, const az_coll *g, size_t n,
                         const az_coll **by_rank) {
  const az_comm *cm = &a->defs.comms[g[0].comm];
  size_t nprocs = a->defs.num_procs;
  uint32_t *comm_rank = pu_malloc((nprocs ? nprocs : 1) * sizeof *comm_rank);
  for (size_t p = 0; p < nprocs; p++) comm_rank[p] = UINT32_MAX;
  for (uint32_t r = 0; r < cm->size; r++)
    if (cm->world[r] < nprocs) comm_rank[cm->world[r]] = r;
  int whole = 1;
  for (size_t i = 0; i < n && whole; i++) {
    uint32_t r = g[i].proc < nprocs ? comm_rank[g[i].proc] : UINT32_MAX;
    if (r >= n || by_rank[r]) whole = 0;
    else by_rank[r] = &g[i];
  }
  free(comm_rank);
  return whole;
}

/* Scan and Exscan: communicator rank r needs the contributions of ranks
   0..r-1 only, so it waits for the latest of their enters, not for the
   ranks above it (Scalasca's Early Scan; the min with my leave clamps
   clock-condition violations). */
static void prefix(az_analysis *a, const az_coll *g, size_t n) {
  const az_comm *cm = &a->defs.comms[g[0].comm];
  if (!cm->defined || cm->self || n != cm->size || n < 2) return;
  const az_coll **by_rank = pu_calloc(n, sizeof *by_rank);
  if (!in_rank_order(a, g, n, by_rank)) {
    not_analysed(a, g, "(a scan) has not one record per rank");
    free(by_rank);
    return;
  }
  az_time latest = by_rank[0]->e;
  for (size_t r = 1; r < n; r++) {
    const az_coll *me = by_rank[r];
    az_time until = latest < me->x ? latest : me->x;
    charge(a, me, AZ_MPI_EARLYSCAN, positive(me->e, until));
    if (me->e > latest) latest = me->e;
  }
  free(by_rank);
}

static const char *op_name(const az_analysis *a, const az_coll *c) {
  return c->region >= 0 && (size_t)c->region < a->defs.num_regions ? a->defs.regions[c->region].name
                                                                   : "?";
}

/* Instances pair the k-th collectives of every rank.  When a rank skipped
   one (recording paused with MPI_Pcontrol, a collective not recorded)
   the k-th are different operations, and so may be every later instance:
   the communicator's collectives are not analysed from the first such
   instance on, so that no wait lands on the wrong operation.  1 when g
   is not to be analysed. */
static int mismatched(az_analysis *a, const az_coll *g, size_t n) {
  az_mpi_records *m = &a->mpi;
  if (!m->coll_broken) m->coll_broken = pu_calloc(a->defs.num_comms ? a->defs.num_comms : 1, 1);
  if (m->coll_broken[g[0].comm]) return 1;
  size_t k = 1;
  while (k < n && g[k].op == g[0].op && g[k].role == g[0].role && g[k].coll == g[0].coll) k++;
  if (k == n) return 0;
  m->coll_broken[g[0].comm] = 1;
  char label[160], other[160];
  az_loc_label(&a->defs, g[0].loc, label, sizeof label);
  az_loc_label(&a->defs, g[k].loc, other, sizeof other);
  az_warn(&a->diag, AZ_W_UNMATCHED_COLL,
          "%s: event %llu: collective %llu on communicator %u is %s, but on "
          "%s (event %llu) %s; this communicator's collectives are not "
          "analysed from here on",
          label, (unsigned long long)g[0].pos, (unsigned long long)g[0].seq + 1, g[0].comm,
          op_name(a, &g[0]), other, (unsigned long long)g[k].pos, op_name(a, &g[k]));
  return 1;
}

/* The first MPI_Finalize of every process: each waited for the last to
   enter.  Without all of them (a run that died, a trace without MPI) there
   is nothing to compare with: no wait, no warning (the missing ends are
   warned about already). */
static void finalize(az_analysis *a, const az_coll *g, size_t n) {
  if (n == a->defs.num_procs) nxn(a, g, n, AZ_MPI_FINALIZE_WAIT, -1);
}

static void instance(az_analysis *a, const az_coll *g, size_t n) {
  if (g[0].comm == AZ_COMM_FINALIZE) {
    finalize(a, g, n);
    return;
  }
  const az_comm *cm = &a->defs.comms[g[0].comm];
  if (mismatched(a, g, n)) return;
  if (cm->defined && n != cm->size) {
    char why[64];
    snprintf(why, sizeof why, "has %zu of %u ranks", n, cm->size);
    not_analysed(a, g, why);
    return;
  }
  switch (g[0].coll) {
  case AZ_COLL_BARRIER: nxn(a, g, n, AZ_MPI_BARRIER_WAIT, AZ_MPI_BARRIER_COMPLETION); break;
  case AZ_COLL_NXN: nxn(a, g, n, AZ_MPI_WAIT_NXN, AZ_MPI_NXN_COMPLETION); break;
  /* a collective MPI-IO transfer (mpiwrap/mw_io.c): every member waits
     for the last to enter, as at N x N */
  case AZ_COLL_IO: nxn(a, g, n, AZ_MPI_IO_COLLECTIVE_WAIT, -1); break;
  case AZ_COLL_12N: late_broadcast(a, g, n); break;
  case AZ_COLL_N21: early_reduce(a, g, n); break;
  case AZ_COLL_PREFIX: prefix(a, g, n); break;
  default: /* other operations: time only */ break;
  }
}

/* All participants recorded and left: the instance can be evaluated. */
static int complete(const az_analysis *a, const az_coll *g, size_t n) {
  const az_comm *cm = g[0].comm == AZ_COMM_FINALIZE ? NULL : &a->defs.comms[g[0].comm];
  if (cm ? !cm->defined || n != cm->size : n != a->defs.num_procs) return 0;
  for (size_t i = 0; i < n; i++)
    if (!g[i].left) return 0;
  return 1;
}

static const az_coll *sort_colls; /* qsort context */

static int cmp_instance_index(const void *pa, const void *pb) {
  return cmp_instance(&sort_colls[*(const size_t *)pa], &sort_colls[*(const size_t *)pb]);
}

void az_collective_step(az_analysis *a, int last) {
  az_mpi_records *m = &a->mpi;
  /* records stay in place (a pending Leave refers to them by index) */
  size_t *idx = pu_malloc((m->ncolls ? m->ncolls : 1) * sizeof *idx), n = 0;
  for (size_t i = 0; i < m->ncolls; i++)
    if (!m->colls[i].free) idx[n++] = i;
  sort_colls = m->colls;
  az_sort(idx, n, sizeof *idx, cmp_instance_index);
  az_coll *g = NULL;
  size_t cap = 0;
  for (size_t i = 0, j; i < n; i = j) {
    const az_coll *first = &m->colls[idx[i]];
    for (j = i + 1;
         j < n && m->colls[idx[j]].comm == first->comm && m->colls[idx[j]].seq == first->seq; j++) {
    }
    pu_reserve((void **)&g, &cap, j - i, sizeof *g);
    for (size_t k = i; k < j; k++) g[k - i] = m->colls[idx[k]];
    if (!last && !complete(a, g, j - i)) continue;
    instance(a, g, j - i);
    for (size_t k = i; k < j; k++) {
      m->colls[idx[k]].free = 1;
      az_slot_give(&m->free_colls, idx[k]);
    }
  }
  free(g);
  free(idx);
}
