/* defs.c -- the global definitions of an OTF2 archive: strings, regions,
   system tree, processes and their locations, communicators.  Locations are
   renumbered densely, process by process (rank order = group id order),
   threads by location id, as docs/TRACE.md prescribes for readers. */
#include <errno.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "az_common.h"
#include "az_defs.h"
#include "az_diag.h"
#include "pomp_util.h"

/* Definition ids are meant to be dense; anything beyond this is taken as a
   corrupt file rather than a reason to allocate gigabytes. */
enum { AZ_MAX_DEF_ID = 1 << 24 };

typedef struct { /* a location as defined, before sorting */
  uint64_t id, group, events;
  uint32_t name;
} raw_loc;

typedef struct {
  uint64_t id;
  uint32_t name, node;
} raw_group;

typedef struct {
  uint32_t id, size;
  uint64_t *members;
  int type;
} raw_commgroup;

typedef struct {
  az_defs *d;
  az_diag *diag;
  raw_loc *locs;
  size_t nlocs, caplocs;
  raw_group *groups;
  size_t ngroups, capgroups;
  raw_commgroup *cgroups;
  size_t ncgroups, capcgroups;
  uint32_t *comm_group;
  size_t ncomm_group; /* Comm id -> Group id + 1 */
  size_t capnodes;
} defs_ctx;

/* Grows an id-indexed array so that index id exists (zero-filled). */
static int grow_to(void **arr, size_t *len, size_t id, size_t elem) {
  if (id >= AZ_MAX_DEF_ID) return -1;
  if (id < *len) return 0;
  size_t n = id + 1;
  *arr = pu_realloc(*arr, n * elem);
  memset((char *)*arr + *len * elem, 0, (n - *len) * elem);
  *len = n;
  return 0;
}

const char *az_defs_string(const az_defs *d, uint32_t id) {
  if (id < d->num_strings && d->strings[id]) return d->strings[id];
  return "";
}

static OTF2_CallbackCode on_clock(void *u, uint64_t res, uint64_t off, uint64_t len,
                                  uint64_t realtime) {
  (void)realtime;
  az_defs *d = ((defs_ctx *)u)->d;
  d->resolution = res;
  d->global_offset = off;
  d->trace_length = len;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_string(void *u, OTF2_StringRef id, const char *s) {
  defs_ctx *c = u;
  if (grow_to((void **)&c->d->strings, &c->d->num_strings, id, sizeof(char *)))
    return OTF2_CALLBACK_INTERRUPT;
  free(c->d->strings[id]);
  c->d->strings[id] = pu_strdup(s ? s : "");
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_region(void *u, OTF2_RegionRef id, OTF2_StringRef name,
                                   OTF2_StringRef canon, OTF2_StringRef desc, OTF2_RegionRole role,
                                   OTF2_Paradigm paradigm, OTF2_RegionFlag fl, OTF2_StringRef file,
                                   uint32_t begin, uint32_t end) {
  (void)canon;
  (void)desc;
  (void)fl;
  defs_ctx *c = u;
  if (grow_to((void **)&c->d->regions, &c->d->num_regions, id, sizeof(az_region)))
    return OTF2_CALLBACK_INTERRUPT;
  az_region *r = &c->d->regions[id];
  /* strings precede regions in OTF2's global definitions */
  r->name = az_defs_string(c->d, name);
  r->file = az_defs_string(c->d, file);
  /* Score-P (and libpomp since issue 17) name MPI regions' file "MPI": a
     module, not a source file the report could point to */
  if (paradigm == OTF2_PARADIGM_MPI && !strcmp(r->file, "MPI")) r->file = "";
  r->begin_line = begin;
  r->end_line = end;
  r->paradigm = paradigm;
  r->role = role;
  r->defined = 1;
  az_region_classify(r);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_node(void *u, OTF2_SystemTreeNodeRef id, OTF2_StringRef name,
                                 OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent) {
  defs_ctx *c = u;
  az_sysnode n = {id, parent, az_defs_string(c->d, name), az_defs_string(c->d, cls)};
  PU_PUSH(c->d->nodes, c->d->num_nodes, c->capnodes, n);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *u, OTF2_LocationGroupRef id, OTF2_StringRef name,
                                  OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                  OTF2_LocationGroupRef creator) {
  (void)creator;
  defs_ctx *c = u;
  if (type != OTF2_LOCATION_GROUP_TYPE_PROCESS) return OTF2_CALLBACK_SUCCESS;
  raw_group g = {id, name, parent};
  PU_PUSH(c->groups, c->ngroups, c->capgroups, g);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *u, OTF2_LocationRef id, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t events,
                                     OTF2_LocationGroupRef group) {
  defs_ctx *c = u;
  if (type != OTF2_LOCATION_TYPE_CPU_THREAD) return OTF2_CALLBACK_SUCCESS;
  raw_loc l = {id, group, events, name};
  PU_PUSH(c->locs, c->nlocs, c->caplocs, l);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_commgroup(void *u, OTF2_GroupRef id, OTF2_StringRef name,
                                      OTF2_GroupType type, OTF2_Paradigm paradigm,
                                      OTF2_GroupFlag flags, uint32_t n, const uint64_t *members) {
  (void)name;
  (void)paradigm;
  (void)flags;
  defs_ctx *c = u;
  if (type != OTF2_GROUP_TYPE_COMM_GROUP && type != OTF2_GROUP_TYPE_COMM_SELF)
    return OTF2_CALLBACK_SUCCESS;
  raw_commgroup g = {id, n, NULL, type};
  if (n) {
    g.members = pu_malloc(n * sizeof *members);
    memcpy(g.members, members, n * sizeof *members);
  }
  PU_PUSH(c->cgroups, c->ncgroups, c->capcgroups, g);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *u, OTF2_CommRef id, OTF2_StringRef name, OTF2_GroupRef group,
                                 OTF2_CommRef parent, OTF2_CommFlag flags) {
  (void)name;
  (void)parent;
  (void)flags;
  defs_ctx *c = u;
  if (grow_to((void **)&c->comm_group, &c->ncomm_group, id, sizeof(uint32_t)))
    return OTF2_CALLBACK_INTERRUPT;
  c->comm_group[id] = group + 1;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_rma_win(void *u, OTF2_RmaWinRef id, OTF2_StringRef name,
                                    OTF2_CommRef comm, OTF2_RmaWinFlag flags) {
  (void)name;
  (void)flags;
  az_defs *d = ((defs_ctx *)u)->d;
  if (grow_to((void **)&d->win_comm, &d->num_wins, id, sizeof(uint32_t)))
    return OTF2_CALLBACK_INTERRUPT;
  d->win_comm[id] = comm + 1;
  return OTF2_CALLBACK_SUCCESS;
}

static int cmp_group(const void *a, const void *b) {
  uint64_t x = ((const raw_group *)a)->id, y = ((const raw_group *)b)->id;
  return (x > y) - (x < y);
}

/* qsort has no context argument in C11: the comparison of locations reads
   the sorted process table through these two. */
static const raw_group *groups_sorted;
static size_t groups_n;

static size_t group_index(uint64_t id) {
  size_t lo = 0, hi = groups_n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (groups_sorted[mid].id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < groups_n && groups_sorted[lo].id == id ? lo : SIZE_MAX;
}

static int cmp_loc(const void *a, const void *b) {
  const raw_loc *x = a, *y = b;
  size_t gx = group_index(x->group), gy = group_index(y->group);
  if (gx != gy) return (gx > gy) - (gx < gy);
  return (x->id > y->id) - (x->id < y->id);
}

/* Processes in group-id order, their locations in id order. */
static int build_locations(defs_ctx *c) {
  az_defs *d = c->d;
  az_sort(c->groups, c->ngroups, sizeof *c->groups, cmp_group);
  groups_sorted = c->groups;
  groups_n = c->ngroups;
  az_sort(c->locs, c->nlocs, sizeof *c->locs, cmp_loc);
  d->procs = pu_calloc(c->ngroups, sizeof *d->procs);
  d->num_procs = c->ngroups;
  for (size_t i = 0; i < c->ngroups; i++) {
    d->procs[i].id = c->groups[i].id;
    d->procs[i].name = az_defs_string(d, c->groups[i].name);
    d->procs[i].node = c->groups[i].node;
  }
  d->locs = pu_calloc(c->nlocs, sizeof *d->locs);
  for (size_t i = 0; i < c->nlocs; i++) {
    size_t g = group_index(c->locs[i].group);
    if (g == SIZE_MAX) {
      az_warn(c->diag, AZ_W_DEFS, "location %llu belongs to no process; ignored",
              (unsigned long long)c->locs[i].id);
      continue;
    }
    az_process *p = &d->procs[g];
    if (!p->num_locs) p->first_loc = (uint32_t)d->num_locs;
    az_location *l = &d->locs[d->num_locs++];
    l->id = c->locs[i].id;
    l->name = az_defs_string(d, c->locs[i].name);
    l->process = (uint32_t)g;
    l->thread = p->num_locs++;
    l->events = c->locs[i].events;
    d->total_events += l->events;
  }
  return 0;
}

/* The region paused recording stands for (Score-P's MeasurementOnOff;
   Score-P's profiles call it the same): measurement time, like a buffer
   flush, so paused time stays in the call path where recording paused. */
static void add_off_region(az_defs *d) {
  d->off_region = (uint32_t)d->num_regions;
  if (grow_to((void **)&d->regions, &d->num_regions, d->off_region, sizeof(az_region))) {
    d->off_region = UINT32_MAX; /* a table this large is refused later anyway */
    return;
  }
  az_region *r = &d->regions[d->off_region];
  r->name = "MEASUREMENT OFF";
  r->file = "";
  r->paradigm = OTF2_PARADIGM_MEASUREMENT_SYSTEM;
  r->role = OTF2_REGION_ROLE_ARTIFICIAL;
  r->defined = 1;
  az_region_classify(r);
}

/* Communicator rank -> world rank, from the Comm's COMM_GROUP. */
static void build_comms(defs_ctx *c) {
  az_defs *d = c->d;
  d->num_comms = c->ncomm_group;
  d->comms = pu_calloc(d->num_comms, sizeof *d->comms);
  for (size_t i = 0; i < c->ncomm_group; i++) {
    if (!c->comm_group[i]) continue;
    uint32_t gid = c->comm_group[i] - 1;
    const raw_commgroup *g = NULL;
    for (size_t k = 0; k < c->ncgroups; k++)
      if (c->cgroups[k].id == gid) g = &c->cgroups[k];
    if (!g) continue; /* OpenMP team: no member list needed */
    az_comm *cm = &d->comms[i];
    cm->defined = 1;
    if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
      cm->self = 1;
      cm->size = 1;
      continue;
    }
    cm->size = g->size;
    cm->world = pu_malloc((g->size ? g->size : 1) * sizeof *cm->world);
    for (uint32_t r = 0; r < g->size; r++)
      cm->world[r] = g->members[r] < d->num_procs ? (uint32_t)g->members[r] : UINT32_MAX;
  }
}

/* The COMM_GROUP groups by id (RmaGroupSync names them). */
static void build_groups(defs_ctx *c) {
  az_defs *d = c->d;
  for (size_t k = 0; k < c->ncgroups; k++) {
    const raw_commgroup *g = &c->cgroups[k];
    if (g->type != OTF2_GROUP_TYPE_COMM_GROUP) continue;
    if (grow_to((void **)&d->groups, &d->num_groups, g->id, sizeof *d->groups)) continue;
    az_comm *gr = &d->groups[g->id];
    free(gr->world);
    gr->defined = 1;
    gr->size = g->size;
    gr->world = pu_malloc((g->size ? g->size : 1) * sizeof *gr->world);
    for (uint32_t r = 0; r < g->size; r++)
      gr->world[r] = g->members[r] < d->num_procs ? (uint32_t)g->members[r] : UINT32_MAX;
  }
}

const az_comm *az_group(const az_defs *d, uint32_t group) {
  return group < d->num_groups && d->groups[group].defined ? &d->groups[group] : NULL;
}

uint32_t az_win_world(const az_defs *d, uint32_t win, uint32_t rank, uint32_t caller) {
  if (win >= d->num_wins || !d->win_comm[win]) return UINT32_MAX;
  return az_comm_world(d, d->win_comm[win] - 1, rank, caller);
}

uint32_t az_comm_world(const az_defs *d, uint32_t comm, uint32_t rank, uint32_t caller) {
  if (comm >= d->num_comms || !d->comms[comm].defined) return UINT32_MAX;
  const az_comm *c = &d->comms[comm];
  if (c->self) return rank == 0 ? caller : UINT32_MAX;
  return rank < c->size ? c->world[rank] : UINT32_MAX;
}

void az_loc_label(const az_defs *d, uint32_t loc, char *buf, size_t size) {
  if (loc >= d->num_locs) {
    snprintf(buf, size, "location #%u", loc);
    return;
  }
  snprintf(buf, size, "rank %u thread %u (location %llu)", d->locs[loc].process,
           d->locs[loc].thread, (unsigned long long)d->locs[loc].id);
}

int az_defs_read(az_defs *d, OTF2_Reader *reader, const char *file, az_diag *diag) {
  defs_ctx c = {.d = d, .diag = diag};
  d->resolution = 1000000000;
  struct stat st;
  if (stat(file, &st) != 0) {
    az_fail(diag, "%s: %s", file, strerror(errno));
    return -1;
  }
  OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(reader);
  if (!gdr) {
    az_fail(diag, "%s: cannot read the global definitions", file);
    return -1;
  }
  OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
  OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, on_node);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_group);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_commgroup);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
  OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, on_rma_win);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, gdr, cb, &c);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  uint64_t n = 0;
  OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(reader, gdr, &n);
  OTF2_Reader_CloseGlobalDefReader(reader, gdr);
  int ok = rc == OTF2_SUCCESS;
  if (!ok)
    az_fail(diag, "%s: global definition %llu: %s", file, (unsigned long long)n + 1,
            rc == OTF2_ERROR_INTERRUPTED_BY_CALLBACK ? "definition id out of range"
                                                     : OTF2_Error_GetDescription(rc));
  if (ok && d->resolution == 0) {
    az_fail(diag, "%s: clock resolution is 0", file);
    ok = 0;
  }
  if (ok) {
    add_off_region(d);
    build_locations(&c);
    build_comms(&c);
    build_groups(&c);
    if (!d->num_locs) {
      az_fail(diag, "%s: the trace defines no thread locations", file);
      ok = 0;
    }
  }
  for (size_t i = 0; i < c.ncgroups; i++) free(c.cgroups[i].members);
  free(c.cgroups);
  free(c.locs);
  free(c.groups);
  free(c.comm_group);
  return ok ? 0 : -1;
}

void az_defs_free(az_defs *d) {
  for (size_t i = 0; i < d->num_strings; i++) free(d->strings[i]);
  free(d->strings);
  free(d->regions);
  free(d->locs);
  free(d->procs);
  for (size_t i = 0; i < d->num_comms; i++) free(d->comms[i].world);
  free(d->comms);
  for (size_t i = 0; i < d->num_groups; i++) free(d->groups[i].world);
  free(d->groups);
  free(d->win_comm);
  free(d->nodes);
  memset(d, 0, sizeof *d);
}
