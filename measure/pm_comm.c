/* pm_comm.c -- communicator definitions: MPI comms registered by
   libpomp-mpi, and one OpenMP team comm per team size (docs/TRACE.md). */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "pm_defs.h"
#include "pomp_unify.h"
#include "pomp_util.h"

static pthread_mutex_t comm_lock = PTHREAD_MUTEX_INITIALIZER;
static pm_comm_def *comms;
static size_t ncomms, cap_comms;

uint32_t pm_comm_register(const char *name, uint32_t parent, uint32_t size,
                          const uint32_t *world_ranks, int is_self) {
  pm_comm_def c = {.parent = parent, .size = size, .is_self = is_self};
  c.world_ranks = pu_malloc((size ? size : 1) * sizeof *c.world_ranks);
  if (size) memcpy(c.world_ranks, world_ranks, size * sizeof *world_ranks);
  pthread_mutex_lock(&comm_lock);
  uint32_t id = (uint32_t)ncomms;
  c.name = pu_strdup(name ? name : ""); /* unnamed: named by its unified id */
  PU_PUSH(comms, ncomms, cap_comms, c);
  pthread_mutex_unlock(&comm_lock);
  return id;
}

uint32_t pm_comm_count(void) {
  pthread_mutex_lock(&comm_lock);
  uint32_t n = (uint32_t)ncomms;
  pthread_mutex_unlock(&comm_lock);
  return n;
}

int pm_comm_get(uint32_t id, pm_comm_def *out) {
  pthread_mutex_lock(&comm_lock);
  int found = id < ncomms;
  if (found) *out = comms[id]; /* a copy: PU_PUSH may move the table */
  pthread_mutex_unlock(&comm_lock);
  return found ? 0 : -1;
}

void pm_comm_serialise_all(pm_blob *b) {
  pthread_mutex_lock(&comm_lock); /* PU_PUSH may move the table */
  pm_blob_u32(b, (uint32_t)ncomms);
  for (size_t i = 0; i < ncomms; i++) {
    const pm_comm_def *c = &comms[i];
    pm_blob_str(b, c->name);
    pm_blob_u32(b, c->parent);
    pm_blob_u32(b, (uint32_t)c->is_self);
    pm_blob_u32(b, c->size);
    pm_blob_put(b, c->world_ranks, c->size * sizeof *c->world_ranks);
  }
  pthread_mutex_unlock(&comm_lock);
}

/* Team comms: team_index[size] = index + 1 (0 = none yet), read without a
   lock on every parallel-region begin; sizes[index] = team size. */
#define MAX_TEAM 4096
static _Atomic uint32_t team_index[MAX_TEAM + 1];
static uint32_t team_sizes[MAX_TEAM + 1];
static _Atomic uint32_t nteams;

uint32_t pm_team_comm(uint32_t team_size) {
  if (team_size > MAX_TEAM) team_size = MAX_TEAM; /* documented limit */
  uint32_t i = atomic_load_explicit(&team_index[team_size], memory_order_acquire);
  if (__builtin_expect(i != 0, 1)) return PM_TEAM_COMM_BASE + i - 1;
  pthread_mutex_lock(&comm_lock);
  i = atomic_load_explicit(&team_index[team_size], memory_order_relaxed);
  if (!i) {
    uint32_t n = atomic_load_explicit(&nteams, memory_order_relaxed);
    team_sizes[n] = team_size;
    atomic_store_explicit(&nteams, n + 1, memory_order_release);
    i = n + 1;
    atomic_store_explicit(&team_index[team_size], i, memory_order_release);
  }
  pthread_mutex_unlock(&comm_lock);
  return PM_TEAM_COMM_BASE + i - 1;
}

uint32_t pm_team_comm_count(void) { return atomic_load_explicit(&nteams, memory_order_acquire); }

uint32_t pm_team_comm_size(uint32_t index) { return team_sizes[index]; }
