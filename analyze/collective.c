/* collective.c -- wait states of MPI collective operations.  The k-th
   collective a process runs on a communicator is instance k of it; all
   ranks of the communicator take part in every instance.  Formulas (as
   Scalasca's, docs/PROPERTIES.md):
     latest = min(latest enter, my leave)
     N x N, barrier:  wait = latest - my enter,
                      completion = my leave - max(earliest leave, latest)
     1-to-N:          non-root wait = min(root enter, my leave) - my enter
     N-to-1:          root wait = min(latest non-root enter, root leave)
                                  - root enter                         */
#include <otf2/otf2.h>
#include <stdlib.h>

#include "az.h"
#include "pomp_util.h"

static int cmp_instance(const void *pa, const void *pb) {
  const az_coll *a = pa, *b = pb;
  if (a->comm != b->comm) return a->comm < b->comm ? -1 : 1;
  if (a->seq != b->seq) return a->seq < b->seq ? -1 : 1;
  return (a->loc > b->loc) - (a->loc < b->loc);
}

static int64_t positive(az_time from, az_time to) {
  return to > from ? (int64_t)(to - from) : 0;
}

static void charge(az_analysis *a, const az_coll *c, int metric, int64_t v) {
  if (v > 0) az_charge(a, c->loc, c->cnode, metric, v);
}

static void nxn(az_analysis *a, const az_coll *g, size_t n, int wait_m,
                int completion_m) {
  az_time latest = g[0].e, earliest_x = g[0].x;
  for (size_t i = 1; i < n; i++) {
    if (g[i].e > latest) latest = g[i].e;
    if (g[i].x < earliest_x) earliest_x = g[i].x;
  }
  for (size_t i = 0; i < n; i++) {
    az_time begin = latest < g[i].x ? latest : g[i].x;
    charge(a, &g[i], wait_m, positive(g[i].e, begin));
    charge(a, &g[i], completion_m,
           positive(earliest_x > begin ? earliest_x : begin, g[i].x));
  }
}

static void rooted(az_analysis *a, const az_coll *g, size_t n) {
  uint32_t root = az_comm_world(&a->defs, g[0].comm, g[0].root, g[0].proc);
  const az_coll *r = NULL;
  for (size_t i = 0; i < n; i++)
    if (g[i].proc == root) r = &g[i];
  if (!r) return;
  if (r->role == OTF2_REGION_ROLE_COLL_ONE2ALL) {
    for (size_t i = 0; i < n; i++) {
      if (&g[i] == r) continue;
      az_time until = r->e < g[i].x ? r->e : g[i].x;
      charge(a, &g[i], AZ_MPI_LATEBROADCAST, positive(g[i].e, until));
    }
    return;
  }
  az_time latest = 0;
  int any = 0;
  for (size_t i = 0; i < n; i++)
    if (&g[i] != r && (!any || g[i].e > latest)) latest = g[i].e, any = 1;
  if (!any) return;
  az_time until = latest < r->x ? latest : r->x;
  charge(a, r, AZ_MPI_EARLYREDUCE, positive(r->e, until));
}

static void instance(az_analysis *a, const az_coll *g, size_t n) {
  const az_comm *cm = &a->defs.comms[g[0].comm];
  if (cm->defined && n != cm->size) {
    char label[160];
    az_loc_label(&a->defs, g[0].loc, label, sizeof label);
    az_warn(&a->diag, AZ_W_UNMATCHED_COLL,
            "%s: event %llu: collective %llu on communicator %u has %zu of "
            "%u ranks; not analysed",
            label, (unsigned long long)g[0].pos,
            (unsigned long long)g[0].seq + 1, g[0].comm, n, cm->size);
    return;
  }
  switch (g[0].role) {
  case OTF2_REGION_ROLE_BARRIER:
    nxn(a, g, n, AZ_MPI_BARRIER_WAIT, AZ_MPI_BARRIER_COMPLETION);
    break;
  case OTF2_REGION_ROLE_COLL_ALL2ALL:
    nxn(a, g, n, AZ_MPI_WAIT_NXN, AZ_MPI_NXN_COMPLETION);
    break;
  case OTF2_REGION_ROLE_COLL_ONE2ALL: case OTF2_REGION_ROLE_COLL_ALL2ONE:
    rooted(a, g, n);
    break;
  default: /* scans and others: time only */
    break;
  }
}

void az_collective_analyze(az_analysis *a) {
  az_mpi_records *m = &a->mpi;
  az_sort(m->colls, m->ncolls, sizeof *m->colls, cmp_instance);
  for (size_t i = 0, j; i < m->ncolls; i = j) {
    for (j = i + 1; j < m->ncolls && m->colls[j].comm == m->colls[i].comm &&
                    m->colls[j].seq == m->colls[i].seq;
         j++) {
    }
    instance(a, &m->colls[i], j - i);
  }
}
