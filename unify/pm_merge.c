/* pm_merge.c -- the merge (pomp_unify.h). Global ids are handed out in rank order,
   so rank 0's definitions keep their local ids (no mapping table needed
   for a process alone) and MPI_COMM_WORLD / MPI_COMM_SELF become comms 0
   and 1 (docs/TRACE.md). A missing rank (recovery) leaves no gap: the next
   rank's definitions simply come next. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_unify.h"
#include "pomp_util.h"

/* Ids of the OTF2_IdMap / comm tables are uint32: blobs come from
   outside when recovering, so every count is checked against the bytes
   left before anything is allocated for it. */

typedef struct u64s {
  uint64_t *v;
  size_t n, cap;
} u64s;

/* The global id of MPI comm group i is MPI_GROUP_BASE + i: group 0 is the
   MPI COMM_LOCATIONS group, written first (write_defs). */
#define MPI_GROUP_BASE 1u

typedef struct ggroup {
  uint32_t name;
  OTF2_GroupType type;
  OTF2_Paradigm paradigm;
  u64s members;
} ggroup;

typedef struct gcomm {
  uint32_t name, parent;
  size_t group; /* index into the comm's group list (mpi or omp) */
  int omp;
  uint32_t win; /* RmaWin id of a window's comm, else OTF2_UNDEFINED_RMA_WIN */
} gcomm;

typedef struct merge {
  pm_map strings;
  const char **strs;
  size_t nstrs, cap_strs;
  pm_map nodes, regions, comms, groups; /* groups: MPI member list -> index */
  uint32_t nnodes, *node_names;
  size_t cap_nodes;
  pm_blob region_defs; /* u32 name, file, begin, end, paradigm, role */
  uint32_t nregions;
  gcomm *gcomms;
  size_t ngcomms, cap_gcomms;
  uint32_t nwins; /* RmaWins so far */
  ggroup *mpi_groups, *omp_groups;
  size_t nmpi_groups, cap_mpi_groups, nomp_groups, cap_omp_groups;
  u64s omp_locations; /* location ids of every thread, in rank order */
  u64s locations;     /* id, events, rank: three entries per location */
  uint64_t start, end;
  int have_times; /* start/end set by a rank */
  uint32_t *rank_node;
  pm_map io_files; /* file name -> global IoRegularFile id */
  uint32_t nio_files;
  pm_blob io_file_names; /* u32 string id per file */
  pm_blob io_handles;    /* u32 name, file, paradigm per handle */
  uint32_t nio_handles;
} merge;

static uint32_t str_id(merge *m, const char *s) {
  uint32_t id = pm_map_intern(&m->strings, s, strlen(s), (uint32_t)m->nstrs);
  if (id == m->nstrs) {
    const char *copy = pu_strdup(s); /* callers pass stack buffers too */
    PU_PUSH(m->strs, m->nstrs, m->cap_strs, copy);
  }
  return id;
}

/* Regions of one rank: interned by their serialised form. */
static void merge_regions(merge *m, pm_cursor *c, pm_blob *map) {
  uint32_t n = pm_get_u32(c);
  pm_blob_u32(map, n);
  for (uint32_t i = 0; i < n && !c->bad; i++) {
    const unsigned char *key = c->p;
    const char *name = pm_get_str(c), *file = pm_get_str(c);
    uint32_t nums[4];
    for (int k = 0; k < 4; k++) nums[k] = pm_get_u32(c);
    if (c->bad) break;
    uint32_t id = pm_map_intern(&m->regions, key, (size_t)(c->p - key), m->nregions);
    if (id == m->nregions) {
      uint32_t def[6] = {str_id(m, name), str_id(m, file), nums[0], nums[1], nums[2], nums[3]};
      pm_blob_put(&m->region_defs, def, sizeof def);
      m->nregions++;
    }
    pm_blob_u32(map, id);
  }
}

/* The global group of an MPI comm's member list (is_self: MPI_COMM_SELF's
   group): comms with the same members share one group, so 10^5 duplicates
   of MPI_COMM_WORLD define one group, not 10^5 copies of it. */
static size_t mpi_group_of(merge *m, const pm_blob *members, int is_self, uint32_t size) {
  size_t index = pm_map_intern(&m->groups, members->data, members->len, (uint32_t)m->nmpi_groups);
  if (index < m->nmpi_groups) return index;
  ggroup g = {str_id(m, ""),
              is_self ? OTF2_GROUP_TYPE_COMM_SELF : OTF2_GROUP_TYPE_COMM_GROUP,
              OTF2_PARADIGM_MPI,
              {0}};
  const unsigned char *ranks = members->data + 1;
  for (uint32_t k = 0; k < size && !is_self; k++) {
    uint32_t r;
    memcpy(&r, ranks + 4 * k, 4);
    PU_PUSH(g.members.v, g.members.n, g.members.cap, r);
  }
  PU_PUSH(m->mpi_groups, m->nmpi_groups, m->cap_mpi_groups, g);
  return index;
}

/* MPI comms of one rank: the same comm on every member is recognised by
   its member list, its parent's global comm and how many comms with that
   list and parent the rank created before it (counted in a map of the
   rank's keys, so n comms cost O(n), not the O(n^2) of comparing each with
   all earlier ones); MPI_COMM_SELF is one comm for all. The parent tells
   apart children of different parents made in different orders (legal
   with MPI_Comm_idup: MPICH's comm/idup_with_info); a comm larger than its
   parent (an intercomm's union, whose parent is each side's own local
   comm) is keyed without it. */
static void merge_comms(merge *m, pm_cursor *c, pm_blob *map, pm_blob *wins, pm_blob *groups) {
  uint32_t n = pm_get_u32(c);
  if (n > (uint32_t)(c->end - c->p) / 17) { /* a comm takes >= 17 bytes */
    c->bad = 1;
    n = 0;
  }
  pm_blob_u32(map, n);
  pm_blob_u32(wins, n);
  pm_blob_u32(groups, n);
  uint32_t *global = pu_calloc(n ? n : 1, sizeof *global);
  uint32_t *sizes = pu_calloc(n ? n : 1, sizeof *sizes);
  pm_map lists = {0};    /* member list and parent -> index in seen */
  uint32_t *seen = NULL; /* comms of this rank with that list so far */
  size_t nseen = 0, cap_seen = 0;
  pm_blob key = {0};
  for (uint32_t i = 0; i < n && !c->bad; i++) {
    const char *name = pm_get_str(c);
    uint32_t parent = pm_get_u32(c), is_self = pm_get_u32(c), size = pm_get_u32(c);
    if (c->bad || size > (uint32_t)(c->end - c->p) / 4) {
      c->bad = 1;
      break;
    }
    const unsigned char *ranks = c->p;
    c->p += (size_t)size * 4;
    sizes[i] = size;
    key.len = 0;
    pm_blob_put(&key, is_self ? "S" : "C", 1);
    if (!is_self) pm_blob_put(&key, ranks, (size_t)size * 4);
    size_t members_len = key.len;
    int keyed_by_parent = !is_self && parent < i && size <= sizes[parent];
    pm_blob_u32(&key, keyed_by_parent ? global[parent] : UINT32_MAX);
    uint32_t list = pm_map_intern(&lists, key.data, key.len, (uint32_t)nseen);
    if (list == nseen) PU_PUSH(seen, nseen, cap_seen, 0);
    pm_blob_u32(&key, seen[list]++); /* the occurrence */
    uint32_t id = pm_map_intern(&m->comms, key.data, key.len, (uint32_t)m->ngcomms);
    if (id == m->ngcomms) {
      key.len = members_len;
      size_t group = mpi_group_of(m, &key, is_self, size);
      char unnamed[32];
      snprintf(unnamed, sizeof unnamed, "MPI_Comm %u", id);
      gcomm gc = {str_id(m, *name ? name : unnamed),
                  parent < i ? global[parent] : OTF2_UNDEFINED_COMM, group, 0,
                  strcmp(name, PM_WIN_COMM_NAME) ? OTF2_UNDEFINED_RMA_WIN : m->nwins++};
      PU_PUSH(m->gcomms, m->ngcomms, m->cap_gcomms, gc);
    }
    global[i] = id;
    pm_blob_u32(map, id);
    pm_blob_u32(wins, m->gcomms[id].win);
    pm_blob_u32(groups, MPI_GROUP_BASE + (uint32_t)m->gcomms[id].group);
  }
  pm_blob_free(&key);
  pm_map_free(&lists);
  free(seen);
  free(sizes);
  free(global);
}

/* Team comms of one rank: one comm each, members = the rank's threads
   0..size-1 as indexes into the OpenMP COMM_LOCATIONS group. */
static void merge_teams(merge *m, pm_cursor *c, pm_blob *map, size_t first_loc,
                        const uint32_t *threads, uint32_t nlocs) {
  uint32_t n = pm_get_u32(c);
  pm_blob_u32(map, n);
  for (uint32_t i = 0; i < n && !c->bad; i++) {
    uint32_t size = pm_get_u32(c);
    ggroup g = {str_id(m, ""), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP, {0}};
    for (uint32_t k = 0; k < nlocs; k++)
      if (threads[k] < size) PU_PUSH(g.members.v, g.members.n, g.members.cap, first_loc + k);
    gcomm gc = {str_id(m, "OpenMP thread team"), OTF2_UNDEFINED_COMM, m->nomp_groups, 1,
                OTF2_UNDEFINED_RMA_WIN};
    PU_PUSH(m->omp_groups, m->nomp_groups, m->cap_omp_groups, g);
    pm_blob_u32(map, (uint32_t)m->ngcomms);
    PU_PUSH(m->gcomms, m->ngcomms, m->cap_gcomms, gc);
  }
}

/* I/O handles of one rank (the blob's last section, absent in blobs
   written before I/O was recorded: then the map has no I/O part either):
   a handle per rank and (paradigm, file), files one per name across
   ranks. */
static void merge_io(merge *m, pm_cursor *c, pm_blob *map) {
  if (c->p >= c->end) return; /* no section: no I/O map either */
  uint32_t n = pm_get_u32(c);
  if (n > (uint32_t)(c->end - c->p) / 9) { /* a handle takes >= 9 bytes */
    c->bad = 1;
    n = 0;
  }
  pm_blob_u32(map, n);
  for (uint32_t i = 0; i < n && !c->bad; i++) {
    const char *file = pm_get_str(c);
    uint32_t paradigm = pm_get_u32(c);
    if (c->bad || paradigm >= PM_IO_PARADIGMS) {
      c->bad = 1;
      break;
    }
    uint32_t name = str_id(m, file);
    uint32_t fid = pm_map_intern(&m->io_files, file, strlen(file), m->nio_files);
    if (fid == m->nio_files) {
      pm_blob_u32(&m->io_file_names, name);
      m->nio_files++;
    }
    uint32_t def[3] = {name, fid, paradigm};
    pm_blob_put(&m->io_handles, def, sizeof def);
    pm_blob_u32(map, m->nio_handles++);
  }
}

static int merge_rank(merge *m, uint32_t rank, pm_cursor *c, pm_blob *map) {
  const char *host = pm_get_str(c);
  uint64_t start = pm_get_u64(c), end = pm_get_u64(c);
  if (!m->have_times || start < m->start) m->start = start;
  if (!m->have_times || end > m->end) m->end = end;
  m->have_times = 1;
  uint32_t node = pm_map_intern(&m->nodes, host, strlen(host), m->nnodes + 1);
  if (node == m->nnodes + 1) {
    uint32_t name = str_id(m, host);
    PU_PUSH(m->node_names, m->nnodes, m->cap_nodes, name);
  }
  m->rank_node[rank] = node;
  uint32_t nlocs = pm_get_u32(c);
  if (nlocs > (uint32_t)(c->end - c->p) / 12) return -1;
  uint32_t *threads = pu_calloc(nlocs, sizeof *threads);
  size_t first_loc = m->omp_locations.n;
  for (uint32_t i = 0; i < nlocs; i++) {
    threads[i] = pm_get_u32(c);
    uint64_t id = pm_loc_id(rank, threads[i]), events = pm_get_u64(c);
    PU_PUSH(m->omp_locations.v, m->omp_locations.n, m->omp_locations.cap, id);
    PU_PUSH(m->locations.v, m->locations.n, m->locations.cap, id);
    PU_PUSH(m->locations.v, m->locations.n, m->locations.cap, events);
    PU_PUSH(m->locations.v, m->locations.n, m->locations.cap, rank);
  }
  merge_regions(m, c, map);
  pm_blob wins = {0}, groups = {0}; /* the map's last tables (pomp_unify.h) */
  merge_comms(m, c, map, &wins, &groups);
  merge_teams(m, c, map, first_loc, threads, nlocs);
  size_t before_io = map->len;
  merge_io(m, c, map);
  if (map->len == before_io) pm_blob_u32(map, 0); /* no I/O: an empty I/O map */
  pm_blob_put(map, wins.data, wins.len);
  pm_blob_put(map, groups.data, groups.len);
  pm_blob_free(&wins);
  pm_blob_free(&groups);
  free(threads);
  return c->bad ? -1 : 0;
}

static void write_group(OTF2_GlobalDefWriter *w, uint32_t id, const ggroup *g) {
  OTF2_GlobalDefWriter_WriteGroup(w, id, g->name, g->type, g->paradigm, OTF2_GROUP_FLAG_NONE,
                                  (uint32_t)g->members.n, g->members.v);
}

/* The I/O paradigms (ids = pm_io paradigm numbers of pomp_unify.h), files
   and handles, after the strings and the system tree they name. */
static const struct {
  const char *id, *name;
  OTF2_IoParadigmClass class;
} io_paradigms[PM_IO_PARADIGMS] = {{"POSIX", "POSIX I/O", OTF2_IO_PARADIGM_CLASS_SERIAL},
                                   {"ISOC", "ISO C I/O", OTF2_IO_PARADIGM_CLASS_SERIAL},
                                   {"MPI-IO", "MPI I/O", OTF2_IO_PARADIGM_CLASS_PARALLEL}};

static void intern_io_strings(merge *m, uint32_t *names) {
  for (int p = 0; p < PM_IO_PARADIGMS && m->nio_handles; p++) {
    names[2 * p] = str_id(m, io_paradigms[p].id);
    names[2 * p + 1] = str_id(m, io_paradigms[p].name);
  }
}

static void write_io(merge *m, OTF2_GlobalDefWriter *w, const uint32_t *names) {
  if (!m->nio_handles) return;
  for (int p = 0; p < PM_IO_PARADIGMS; p++)
    OTF2_GlobalDefWriter_WriteIoParadigm(w, (uint32_t)p, names[2 * p], names[2 * p + 1],
                                         io_paradigms[p].class, OTF2_IO_PARADIGM_FLAG_NONE, 0, NULL,
                                         NULL, NULL);
  const uint32_t *fn = (const uint32_t *)m->io_file_names.data;
  for (uint32_t f = 0; f < m->nio_files; f++)
    OTF2_GlobalDefWriter_WriteIoRegularFile(w, f, fn[f], 0);
  const uint32_t *h = (const uint32_t *)m->io_handles.data;
  for (uint32_t i = 0; i < m->nio_handles; i++, h += 3)
    OTF2_GlobalDefWriter_WriteIoHandle(w, i, h[0], h[1], h[2], OTF2_IO_HANDLE_FLAG_NONE,
                                       OTF2_UNDEFINED_COMM, OTF2_UNDEFINED_IO_HANDLE);
}

/* MPI windows: libpomp-mpi registers each window as a comm of the
   window's members named PM_WIN_COMM_NAME (docs/TRACE.md, "RMA"), so
   windows unify exactly as comms do; each such comm also gets an RmaWin,
   numbered in the order of the comms, on that comm. */
static void write_windows(const merge *m, OTF2_GlobalDefWriter *w) {
  for (size_t i = 0; i < m->ngcomms; i++)
    if (m->gcomms[i].win != OTF2_UNDEFINED_RMA_WIN)
      OTF2_GlobalDefWriter_WriteRmaWin(w, m->gcomms[i].win, m->gcomms[i].name, (uint32_t)i,
                                       OTF2_RMA_WIN_FLAG_NONE);
}

static void write_all(merge *m, OTF2_GlobalDefWriter *w, uint32_t nranks, int mpi,
                      uint64_t mono_now, uint64_t real_now) {
  OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, m->start, m->end - m->start,
                                            real_now - (mono_now - m->start));
  /* every string the other definitions name must be interned first */
  uint32_t s_machine = str_id(m, "machine"), s_node = str_id(m, "node");
  uint32_t *group_names = pu_calloc(nranks, sizeof *group_names);
  for (uint32_t r = 0; r < nranks; r++) {
    char name[64];
    if (mpi) snprintf(name, sizeof name, "MPI Rank %u", r);
    else snprintf(name, sizeof name, "Process");
    group_names[r] = str_id(m, name);
  }
  size_t nlocs = m->locations.n / 3;
  uint32_t *loc_names = pu_calloc(nlocs ? nlocs : 1, sizeof *loc_names);
  for (size_t i = 0; i < nlocs; i++) {
    char name[64];
    uint32_t t = pm_loc_thread(m->locations.v[3 * i]);
    if (t == 0) snprintf(name, sizeof name, "Master thread");
    else snprintf(name, sizeof name, "OMP thread %u", t);
    loc_names[i] = str_id(m, name);
  }
  /* a rank recovery found no fragment of has no known host: a node of
     its own, "unknown host", rather than the machine itself (viewers then
     showed it as a second machine inside the first) */
  uint32_t s_unknown = 0, unknown_node = m->nnodes + 1;
  for (uint32_t r = 0; r < nranks && !s_unknown; r++)
    if (m->rank_node[r] == 0) s_unknown = str_id(m, "unknown host");
  uint32_t s_mpi_locs = str_id(m, "MPI_COMM_WORLD locations");
  uint32_t s_omp_locs = str_id(m, "OpenMP threads");
  uint32_t io_names[2 * PM_IO_PARADIGMS];
  intern_io_strings(m, io_names);

  for (size_t i = 0; i < m->nstrs; i++)
    OTF2_GlobalDefWriter_WriteString(w, (uint32_t)i, m->strs[i]);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, s_machine, s_machine,
                                           OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (uint32_t n = 0; n < m->nnodes; n++)
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, n + 1, m->node_names[n], s_node, 0);
  if (s_unknown) OTF2_GlobalDefWriter_WriteSystemTreeNode(w, unknown_node, s_unknown, s_node, 0);
  for (uint32_t r = 0; r < nranks; r++)
    OTF2_GlobalDefWriter_WriteLocationGroup(w, r, group_names[r], OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                            m->rank_node[r] ? m->rank_node[r] : unknown_node,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
  for (size_t i = 0; i < nlocs; i++) {
    const uint64_t *l = &m->locations.v[3 * i];
    OTF2_GlobalDefWriter_WriteLocation(w, l[0], loc_names[i], OTF2_LOCATION_TYPE_CPU_THREAD, l[1],
                                       (uint32_t)l[2]);
  }
  const uint32_t *rd = (const uint32_t *)m->region_defs.data;
  for (uint32_t i = 0; i < m->nregions; i++, rd += 6)
    OTF2_GlobalDefWriter_WriteRegion(w, i, rd[0], rd[0], 0, (OTF2_RegionRole)rd[5],
                                     (OTF2_Paradigm)rd[4], OTF2_REGION_FLAG_NONE, rd[1], rd[2],
                                     rd[3]);

  /* groups: MPI locations, MPI comm groups, OpenMP locations, team groups */
  uint32_t gid = 0, mpi_base = 0, omp_base = 0;
  if (m->nmpi_groups) {
    ggroup world = {s_mpi_locs, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, {0}};
    for (uint32_t r = 0; r < nranks; r++)
      PU_PUSH(world.members.v, world.members.n, world.members.cap, pm_loc_id(r, 0));
    write_group(w, gid++, &world);
    free(world.members.v);
    mpi_base = gid; /* = MPI_GROUP_BASE */
    for (size_t i = 0; i < m->nmpi_groups; i++) write_group(w, gid++, &m->mpi_groups[i]);
  }
  if (m->nomp_groups) {
    ggroup all = {s_omp_locs, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                  m->omp_locations};
    write_group(w, gid++, &all);
    omp_base = gid;
    for (size_t i = 0; i < m->nomp_groups; i++) write_group(w, gid++, &m->omp_groups[i]);
  }
  for (size_t i = 0; i < m->ngcomms; i++) {
    const gcomm *c = &m->gcomms[i];
    OTF2_GlobalDefWriter_WriteComm(w, (uint32_t)i, c->name,
                                   (uint32_t)c->group + (c->omp ? omp_base : mpi_base), c->parent,
                                   OTF2_COMM_FLAG_NONE);
  }
  write_windows(m, w);
  write_io(m, w, io_names);
  free(group_names);
  free(loc_names);
}

static void merge_free(merge *m) {
  pm_map_free(&m->strings);
  pm_map_free(&m->nodes);
  pm_map_free(&m->regions);
  pm_map_free(&m->comms);
  pm_map_free(&m->groups);
  for (size_t i = 0; i < m->nstrs; i++) free((char *)m->strs[i]);
  free(m->strs);
  free(m->node_names);
  pm_blob_free(&m->region_defs);
  free(m->gcomms);
  for (size_t i = 0; i < m->nmpi_groups; i++) free(m->mpi_groups[i].members.v);
  for (size_t i = 0; i < m->nomp_groups; i++) free(m->omp_groups[i].members.v);
  free(m->mpi_groups);
  free(m->omp_groups);
  free(m->omp_locations.v);
  free(m->locations.v);
  free(m->rank_node);
  pm_map_free(&m->io_files);
  pm_blob_free(&m->io_file_names);
  pm_blob_free(&m->io_handles);
}

int pm_unify_merge(OTF2_GlobalDefWriter *w, const unsigned char *blobs, const uint32_t *sizes,
                   uint32_t nranks, int mpi, uint64_t mono_now, uint64_t real_now, pm_blob *maps,
                   pm_merge_error *err) {
  merge m = {0};
  m.rank_node = pu_calloc(nranks ? nranks : 1, sizeof *m.rank_node);
  str_id(&m, ""); /* string 0: the empty string */
  int rc = 0;
  for (uint32_t r = 0; r < nranks && rc == 0; r++) {
    pm_cursor c = {blobs, blobs + sizes[r], 0};
    pm_blob scratch = {0};
    blobs += sizes[r];
    if (sizes[r] == 0) continue; /* missing rank: node 0 (machine), no locations */
    if (merge_rank(&m, r, &c, maps ? &maps[r] : &scratch) != 0) {
      if (err) *err = (pm_merge_error){r, (size_t)(c.p - (blobs - sizes[r]))};
      rc = -1;
    }
    pm_blob_free(&scratch);
  }
  if (rc == 0 && w) write_all(&m, w, nranks, mpi, mono_now, real_now);
  merge_free(&m);
  return rc;
}
