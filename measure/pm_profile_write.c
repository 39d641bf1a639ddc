/* pm_profile_write.c -- profile mode's report: every rank describes its
   regions and its locations' call-path trees as a blob, rank 0 gathers
   them (pm_coll: PMPI collectives under MPI, a copy alone), unifies the
   call paths by their regions' definitions (name, file, lines, paradigm,
   role) and writes <experiment>/report.pomp with the catalogue metrics a
   profile can fill: visits, the time breakdown by region kind (comp,
   mpi_point2point, omp_barrier, ...), bytes_sent and bytes_received.

   Blob: str host, u32 regions + pm_region_serialise each, u32 locations,
   per location u32 thread, u64 dropped, u32 nodes, per node u32 region,
   u32 parent, u32 graft, u64 visits, incl_ns, sent, received, io_written,
   io_read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "otf2_names.h"
#include "pm_defs.h"
#include "pm_profile.h"
#include "pm_trace.h"
#include "pm_unify.h" /* and through it the blob API (pm_blob_*, pm_get_*, pm_map_*) */
#include "pomp_report.h"
#include "pomp_util.h"

#define PM_PROFILE_NOTE "wait-state properties need a trace (POMP_MODE=trace)"

/* ------------------------------------------------------ this rank's blob */

/* Location thread's tree at now (pm_profile_copy: a snapshot reads it
   while its thread records). */
static void describe_tree(pm_blob *b, uint32_t thread, const pm_profile *p, uint64_t now) {
  pm_pnode *nodes;
  uint32_t n = pm_profile_copy(p, now, &nodes);
  pm_blob_u32(b, thread);
  pm_blob_u64(b, pm_profile_dropped(p));
  pm_blob_u32(b, n);
  for (uint32_t i = 0; i < n; i++) {
    pm_blob_u32(b, nodes[i].region);
    pm_blob_u32(b, nodes[i].parent);
    pm_blob_u32(b, nodes[i].graft);
    pm_blob_u64(b, nodes[i].visits);
    pm_blob_u64(b, nodes[i].incl_ns);
    pm_blob_u64(b, nodes[i].sent);
    pm_blob_u64(b, nodes[i].received);
    pm_blob_u64(b, nodes[i].io_written);
    pm_blob_u64(b, nodes[i].io_read);
  }
  free(nodes);
}

static void describe_self(pm_blob *b, uint64_t now) {
  char host[256];
  if (gethostname(host, sizeof host) != 0) strcpy(host, "localhost");
  host[sizeof host - 1] = '\0';
  pm_blob_str(b, host);
  pm_region_serialise_all(b);
  /* the trees of this moment: a thread starting meanwhile is left out */
  const pm_profile *tree[PM_MAX_LOCATIONS];
  uint32_t nlocs = 0, thread[PM_MAX_LOCATIONS];
  for (uint32_t t = 0; t < PM_MAX_LOCATIONS; t++)
    if ((tree[nlocs] = pm_profile_of(t))) thread[nlocs++] = t;
  pm_blob_u32(b, nlocs);
  for (uint32_t k = 0; k < nlocs; k++) describe_tree(b, thread[k], tree[k], now);
}

/* Rank 0 gets every rank's blob, one after the other (*counts per rank);
   the others get NULL. */
static unsigned char *gather(const pm_blob *mine, uint32_t **counts) {
  uint32_t size = pm_coll.size;
  uint64_t *sizes = pu_calloc(size, sizeof *sizes);
  *counts = pu_calloc(size, sizeof **counts);
  unsigned char *all = NULL;
  pm_coll_gather_u64(mine->len, sizes);
  if (pm_coll.rank == 0) {
    size_t total = 0;
    for (uint32_t r = 0; r < size; r++) total += (*counts)[r] = (uint32_t)sizes[r];
    all = pu_malloc(total ? total : 1);
  }
  pm_coll_gatherv(mine->data, (uint32_t)mine->len, all, *counts);
  free(sizes);
  return all;
}

/* ---------------------------------------------------------- the report */

typedef struct builder {
  pomp_report *r;
  pm_map regions; /* serialised definition -> report region id */
  int32_t visits, bytes_sent, bytes_received, io_bytes_written, io_bytes_read;
  int32_t machine;
  pm_map hosts; /* host name -> report node sysnode id */
  int32_t *host_node;
  uint32_t nhosts;
  int32_t nlocations, max_threads;
  uint64_t dropped;
} builder;

/* This rank's regions as report ids (and their time metrics); NULL when
   the blob is malformed. */
static int32_t *read_regions(builder *bd, pm_cursor *c, int32_t **metric, uint32_t *n) {
  *n = pm_get_u32(c);
  if (c->bad || *n > (size_t)(c->end - c->p)) return NULL;
  int32_t *ids = pu_malloc((*n ? *n : 1) * sizeof *ids);
  *metric = pu_malloc((*n ? *n : 1) * sizeof **metric);
  for (uint32_t i = 0; i < *n && !c->bad; i++) {
    const unsigned char *key = c->p;
    const char *name = pm_get_str(c), *file = pm_get_str(c);
    uint32_t begin = pm_get_u32(c), end = pm_get_u32(c);
    OTF2_Paradigm paradigm = (OTF2_Paradigm)pm_get_u32(c);
    OTF2_RegionRole role = (OTF2_RegionRole)pm_get_u32(c);
    uint32_t fresh = (uint32_t)pomp_report_num_regions(bd->r);
    uint32_t id = pm_map_intern(&bd->regions, key, (size_t)(c->p - key), fresh);
    if (id == fresh)
      pomp_report_add_region(bd->r, name, file, (int32_t)begin, (int32_t)end,
                             pu_paradigm_name(paradigm), pu_role_name(role));
    ids[i] = (int32_t)id;
    (*metric)[i] = pomp_report_find_metric(bd->r, pu_region_time_metric(paradigm, role, name));
  }
  return ids;
}

typedef struct tree {
  uint32_t n;
  uint32_t *region, *parent, *graft;
  uint64_t *visits, *incl, *sent, *received, *io_written, *io_read;
} tree;

static void tree_free(tree *t) {
  free(t->region), free(t->parent), free(t->graft);
  free(t->visits), free(t->incl), free(t->sent), free(t->received);
  free(t->io_written), free(t->io_read);
}

static int read_tree(pm_cursor *c, tree *t) {
  t->n = pm_get_u32(c);
  if (c->bad || t->n == 0 || t->n > PM_PROFILE_MAX_NODES) return -1;
  size_t n = t->n;
  t->region = pu_malloc(n * 4), t->parent = pu_malloc(n * 4), t->graft = pu_malloc(n * 4);
  t->visits = pu_malloc(n * 8), t->incl = pu_malloc(n * 8);
  t->sent = pu_malloc(n * 8), t->received = pu_malloc(n * 8);
  t->io_written = pu_malloc(n * 8), t->io_read = pu_malloc(n * 8);
  for (size_t i = 0; i < n; i++) {
    t->region[i] = pm_get_u32(c), t->parent[i] = pm_get_u32(c), t->graft[i] = pm_get_u32(c);
    t->visits[i] = pm_get_u64(c), t->incl[i] = pm_get_u64(c);
    t->sent[i] = pm_get_u64(c), t->received[i] = pm_get_u64(c);
    t->io_written[i] = pm_get_u64(c), t->io_read[i] = pm_get_u64(c);
    if (i && t->parent[i] >= i) c->bad = 1; /* parents come first */
  }
  return c->bad ? -1 : 0;
}

/* The master's cnodes (thread 0 of the rank: its tree comes first), by
   node index of its tree. */
typedef struct master_map {
  int32_t *cnode;
  uint32_t n;
} master_map;

/* The report's cnode of every node of a location's tree: the root is
   "none" (-1); a graft stands for the master's node it forked at. */
static int32_t *place_tree(builder *bd, const tree *t, const int32_t *regions, uint32_t nregions,
                           const master_map *master) {
  int32_t *cnode = pu_malloc(t->n * sizeof *cnode);
  cnode[0] = -1;
  for (uint32_t i = 1; i < t->n; i++) {
    if (t->region[i] == PM_NO_REGION) {
      cnode[i] = t->graft[i] < master->n ? master->cnode[t->graft[i]] : -1;
      continue;
    }
    int32_t region = t->region[i] < nregions ? regions[t->region[i]] : -1;
    cnode[i] = region < 0 ? -1 : pomp_report_add_cnode(bd->r, region, cnode[t->parent[i]]);
  }
  return cnode;
}

static void add_value(builder *bd, int32_t metric, int32_t cnode, int32_t loc, double v) {
  if (metric >= 0 && cnode >= 0 && v != 0) pomp_report_add_value(bd->r, metric, cnode, loc, v);
}

/* Visits, exclusive time (inclusive minus the children's, clamped at 0:
   the children's Enter and Leave read the clock separately) and bytes. */
static void add_values(builder *bd, const tree *t, const int32_t *cnode, const int32_t *metric,
                       uint32_t nregions, int32_t loc) {
  int64_t *excl = pu_malloc(t->n * sizeof *excl);
  for (uint32_t i = 0; i < t->n; i++) excl[i] = (int64_t)t->incl[i];
  for (uint32_t i = 1; i < t->n; i++) excl[t->parent[i]] -= (int64_t)t->incl[i];
  for (uint32_t i = 1; i < t->n; i++) {
    if (t->region[i] == PM_NO_REGION || t->region[i] >= nregions) continue;
    add_value(bd, bd->visits, cnode[i], loc, (double)t->visits[i]);
    add_value(bd, metric[t->region[i]], cnode[i], loc, excl[i] > 0 ? (double)excl[i] / 1e9 : 0);
    add_value(bd, bd->bytes_sent, cnode[i], loc, (double)t->sent[i]);
    add_value(bd, bd->bytes_received, cnode[i], loc, (double)t->received[i]);
    add_value(bd, bd->io_bytes_written, cnode[i], loc, (double)t->io_written[i]);
    add_value(bd, bd->io_bytes_read, cnode[i], loc, (double)t->io_read[i]);
  }
  free(excl);
}

static int32_t node_of_host(builder *bd, const char *host) {
  uint32_t id = pm_map_intern(&bd->hosts, host, strlen(host), bd->nhosts);
  if (id == bd->nhosts) {
    bd->host_node = pu_realloc(bd->host_node, (bd->nhosts + 1) * sizeof *bd->host_node);
    bd->host_node[bd->nhosts++] =
        pomp_report_add_sysnode(bd->r, POMP_SYS_NODE, host, bd->machine, -1, -1);
  }
  return bd->host_node[id];
}

/* One rank's blob into the report; -1 when malformed. */
static int add_rank(builder *bd, const unsigned char *data, size_t len, uint32_t rank, int mpi) {
  pm_cursor c = {data, data + len, 0};
  int32_t node = node_of_host(bd, pm_get_str(&c));
  char name[64];
  if (mpi) snprintf(name, sizeof name, "MPI Rank %u", rank);
  else snprintf(name, sizeof name, "Process");
  int32_t proc = pomp_report_add_sysnode(bd->r, POMP_SYS_PROCESS, name, node, (int32_t)rank, -1);
  uint32_t nregions;
  int32_t *metric = NULL, *regions = read_regions(bd, &c, &metric, &nregions);
  uint32_t nlocs = regions ? pm_get_u32(&c) : 0;
  master_map master = {NULL, 0};
  for (uint32_t k = 0; k < nlocs && !c.bad; k++) {
    uint32_t thread = pm_get_u32(&c);
    bd->dropped += pm_get_u64(&c);
    tree t = {0};
    if (read_tree(&c, &t) == 0) {
      if (thread == 0) snprintf(name, sizeof name, "Master thread");
      else snprintf(name, sizeof name, "OMP thread %u", thread);
      pomp_report_add_sysnode(bd->r, POMP_SYS_THREAD, name, proc, (int32_t)rank, (int32_t)thread);
      int32_t *cnode = place_tree(bd, &t, regions, nregions, &master);
      add_values(bd, &t, cnode, metric, nregions, bd->nlocations++);
      if (k == 0 && thread == 0) master = (master_map){cnode, t.n}; /* trees come by thread */
      else free(cnode);
      if ((int32_t)k + 1 > bd->max_threads) bd->max_threads = (int32_t)k + 1;
    }
    tree_free(&t);
  }
  free(master.cnode);
  free(regions);
  free(metric);
  return c.bad || !regions ? -1 : 0;
}

/* A snapshot's copy of this rank (pm_profile.h): the blob, and what the
   report says of itself, fixed when it was taken. */
struct pm_profile_snapshot {
  pm_blob blob;
  char seconds[32]; /* since the measurement began */
  char ranks[96];   /* "rank K of N", "" outside MPI */
  int mpi;
  uint32_t rank; /* its process's */
};

/* What a snapshot says of itself: run_status "running" (a reader tells it
   from a finished run's "complete"), the seconds since the measurement
   began, and in an MPI run which rank's it is (readers merge the ranks'
   files: pomp_report_open_snapshots). */
static void set_snapshot_attrs(builder *bd, const pm_profile_snapshot *s) {
  pomp_report_set_attr(bd->r, POMP_REPORT_RUN_STATUS, "running");
  pomp_report_set_attr(bd->r, "snapshot_seconds", s->seconds);
  if (s->ranks[0]) pomp_report_set_attr(bd->r, "snapshot_ranks", s->ranks);
}

static void set_attrs(builder *bd, uint32_t ranks) {
  char buf[64];
  pomp_report_set_attr(bd->r, "mode", "profile");
  pomp_report_set_attr(bd->r, "profile_note", PM_PROFILE_NOTE);
  snprintf(buf, sizeof buf, "%u", ranks);
  pomp_report_set_attr(bd->r, "ranks", buf);
  snprintf(buf, sizeof buf, "%d", bd->max_threads);
  pomp_report_set_attr(bd->r, "threads", buf);
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)bd->dropped);
  pomp_report_set_attr(bd->r, "profile_paths_dropped", buf);
  pomp_report_set_attr(bd->r, "analyzer", "libpomp " POMP_VERSION_STRING " (POMP_MODE=profile)");
  pomp_report_set_attr(bd->r, POMP_REPORT_RUN_STATUS, "complete");
  const char *instrumentation = pm_build_instrumentation();
  if (instrumentation) pomp_report_set_attr(bd->r, "instrumentation", instrumentation);
}

/* The report of the ranks' blobs (counts bytes each) to path; snap: a
   snapshot's (its one rank), else the final report (ranks 0...). Returns 0
   when written. */
static int build_and_write(const unsigned char *all, const uint32_t *counts, uint32_t ranks,
                           const char *path, const pm_profile_snapshot *snap) {
  uint32_t first_rank = snap ? snap->rank : 0;
  int mpi = snap ? snap->mpi : pm_mpi_active;
  builder bd = {0};
  bd.r = pomp_report_new();
  pomp_report_add_catalogue(bd.r);
  bd.visits = pomp_report_find_metric(bd.r, "visits");
  bd.bytes_sent = pomp_report_find_metric(bd.r, "bytes_sent");
  bd.bytes_received = pomp_report_find_metric(bd.r, "bytes_received");
  bd.io_bytes_written = pomp_report_find_metric(bd.r, "io_bytes_written");
  bd.io_bytes_read = pomp_report_find_metric(bd.r, "io_bytes_read");
  bd.machine = pomp_report_add_sysnode(bd.r, POMP_SYS_MACHINE, "machine", -1, -1, -1);
  size_t at = 0;
  for (uint32_t k = 0; k < ranks; at += counts[k++])
    if (add_rank(&bd, all + at, counts[k], first_rank + k, mpi) != 0)
      pm_err("profile of rank %u is malformed; left out of the report", first_rank + k);
  set_attrs(&bd, ranks);
  if (snap) set_snapshot_attrs(&bd, snap);
  pomp_report_error err;
  int rc = pomp_report_write(bd.r, path, &err) == POMP_REPORT_OK ? 0 : -1;
  if (rc) pm_err("writing %s failed: %s", snap ? "a snapshot" : "the profile", err.message);
  else if (!snap)
    pm_info(1, "profile written to %s: %d locations, %d call paths%s", path, bd.nlocations,
            pomp_report_num_cnodes(bd.r), bd.dropped ? " (some paths dropped)" : "");
  if (bd.dropped && !snap)
    pm_warn("%llu enters of call paths beyond %u per thread were counted in their caller",
            (unsigned long long)bd.dropped, PM_PROFILE_MAX_NODES);
  pomp_report_free(bd.r);
  pm_map_free(&bd.regions);
  pm_map_free(&bd.hosts);
  free(bd.host_node);
  return rc;
}

pm_profile_snapshot *pm_profile_snapshot_take(uint64_t now) {
  pm_profile_snapshot *s = pu_calloc(1, sizeof *s);
  describe_self(&s->blob, now);
  snprintf(s->seconds, sizeof s->seconds, "%.1f", (double)(now - pm_start_time) / 1e9);
  s->mpi = pm_mpi_active;
  s->rank = s->mpi ? (uint32_t)pm_coll.rank : 0;
  if (s->mpi) snprintf(s->ranks, sizeof s->ranks, "rank %u of %u", s->rank, pm_coll.size);
  return s;
}

int pm_profile_snapshot_write(pm_profile_snapshot *s, const char *path) {
  uint32_t count = (uint32_t)s->blob.len;
  int rc = build_and_write(s->blob.data, &count, 1, path, s);
  pm_blob_free(&s->blob);
  free(s);
  return rc;
}

void pm_profile_snapshot_file(char *path, size_t size, int rank) {
  char name[64];
  if (rank < 0) snprintf(name, sizeof name, "%s", POMP_REPORT_SNAPSHOT);
  else snprintf(name, sizeof name, POMP_REPORT_RANK_SNAPSHOT, rank);
  snprintf(path, size, "%s/%s", pm_experiment_dir, name);
}

/* Rank 0, after the report: every process's snapshot goes, the report
   supersedes them (a follower switches to it first). Every rank's
   snapshot thread stopped before the gather, so none comes back. */
static void remove_snapshots(void) {
  char path[sizeof pm_experiment_dir + 32];
  pm_profile_snapshot_file(path, sizeof path, -1);
  unlink(path);
  for (int k = 0; pm_mpi_active && k < (int)pm_coll.size; k++) {
    pm_profile_snapshot_file(path, sizeof path, k);
    unlink(path);
  }
}

void pm_profile_write(void) {
  if (!pm_profiling()) return;
  pm_profile_snapshots_stop(); /* no snapshot is written after (or while) the report */
  pm_blob mine = {0};
  describe_self(&mine, 0);
  uint32_t *counts;
  unsigned char *all = gather(&mine, &counts);
  if (pm_coll.rank == 0) {
    char path[sizeof pm_experiment_dir + 16];
    snprintf(path, sizeof path, "%s/report.pomp", pm_experiment_dir);
    build_and_write(all, counts, pm_coll.size, path, NULL);
    remove_snapshots();
  }
  pm_log("profile of this rank handed to rank 0 (%zu bytes); "
         "%d descriptors registered by instrumented units",
         mine.len, pm_registered_descriptors());
  free(all);
  free(counts);
  pm_blob_free(&mine);
}
