/* mw_comm.c -- communicators: each one a wrapper sees created is registered
   with libpomp as its list of MPI_COMM_WORLD ranks (libpomp unifies the ids
   across ranks at MPI_Finalize), and every MPI record looks its comm up here.

   The lookup is on the path of every recorded MPI call, so it takes no
   lock: an open-addressing table whose slots are written under a mutex
   (value first, then key, with release order) and read with acquire loads.
   Freed comms keep their slot with a NULL value; MPI reuses freed handles,
   so the table holds about as many keys as comms ever alive at once. */
#include "mw.h"

#include <pthread.h>
#include <stdlib.h>

#include "pomp_util.h"

#define SLOTS 8192 /* power of two */

typedef struct slot {
  _Atomic uint64_t key; /* 0 = empty */
  _Atomic(mw_comm *) comm;
} slot;

typedef struct owned { /* every mw_comm ever made, freed at the end */
  struct owned *next;
  mw_comm comm;
  uint32_t peer[];
} owned;

static slot slots[SLOTS];
static pthread_mutex_t insert_lock = PTHREAD_MUTEX_INITIALIZER;
static owned *all;
static mw_comm world = {.id = 0}, self = {.id = 1, .size = 1, .rank = 0, .peers = 1};
static MPI_Group world_group = MPI_GROUP_NULL;

static uint64_t key_of(MPI_Comm comm) { return (uint64_t)(uintptr_t)comm; }

static unsigned home(uint64_t key) {
  return (unsigned)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 40) & (SLOTS - 1);
}

const mw_comm *mw_comm_of(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return &world;
  if (comm == MPI_COMM_SELF) return &self;
  uint64_t key = key_of(comm);
  for (unsigned i = home(key), n = 0; n < SLOTS; i = (i + 1) & (SLOTS - 1), n++) {
    uint64_t k = atomic_load_explicit(&slots[i].key, memory_order_acquire);
    if (k == key) return atomic_load_explicit(&slots[i].comm, memory_order_acquire);
    if (k == 0) return NULL;
  }
  return NULL;
}

uint32_t mw_comm_peer(const mw_comm *c, int rank) {
  if (!c || rank < 0) return OTF2_UNDEFINED_UINT32;
  if (!c->peer) return (uint32_t)rank;
  return c->peer[rank];
}

/* Points key's slot at c (NULL: the comm was freed). */
static void set_slot(uint64_t key, mw_comm *c) {
  static int warned;
  pthread_mutex_lock(&insert_lock);
  unsigned i = home(key), n = 0;
  for (; n < SLOTS; i = (i + 1) & (SLOTS - 1), n++) {
    uint64_t k = atomic_load_explicit(&slots[i].key, memory_order_relaxed);
    if (k == key || k == 0) break;
  }
  if (n == SLOTS) {
    if (c && !warned++)
      pu_warn("more than %d communicators: later ones are recorded without "
              "a communicator",
              SLOTS);
  } else {
    atomic_store_explicit(&slots[i].comm, c, memory_order_release);
    atomic_store_explicit(&slots[i].key, key, memory_order_release);
  }
  pthread_mutex_unlock(&insert_lock);
}

/* World ranks of group's members appended to out; 0 if one is outside
   MPI_COMM_WORLD (spawned or connected processes). */
int mw_group_world_ranks(MPI_Group group, int n, uint32_t *out) {
  int *ranks = pu_malloc(2 * (size_t)n * sizeof *ranks);
  for (int i = 0; i < n; i++) ranks[i] = i;
  PMPI_Group_translate_ranks(group, n, ranks, world_group, ranks + n);
  int ok = 1;
  for (int i = 0; i < n && ok; i++) {
    ok = ranks[n + i] != MPI_UNDEFINED;
    out[i] = (uint32_t)ranks[n + i];
  }
  free(ranks);
  return ok;
}

void mw_comm_init(MPI_Comm world_comm) {
  PMPI_Comm_group(world_comm, &world_group);
  int rank, size;
  PMPI_Comm_rank(world_comm, &rank);
  PMPI_Comm_size(world_comm, &size);
  uint32_t *ranks = pu_malloc((size_t)size * sizeof *ranks);
  for (int i = 0; i < size; i++) ranks[i] = (uint32_t)i;
  world.size = world.peers = size;
  world.rank = rank;
  world.id = pm_comm_register("MPI_COMM_WORLD", OTF2_UNDEFINED_COMM, (uint32_t)size, ranks, 0);
  ranks[0] = (uint32_t)rank;
  self.id = pm_comm_register("MPI_COMM_SELF", OTF2_UNDEFINED_COMM, 1, ranks, 1);
  free(ranks);
}

/* The registered group of an intercomm is the union of its two groups,
   the one whose first member has the lower world rank first, so that both
   sides list the members in the same order. */
void mw_comm_new(MPI_Comm newcomm, MPI_Comm parent, MPI_Comm groups_of) {
  if (newcomm == MPI_COMM_NULL || groups_of == MPI_COMM_NULL) return;
  int inter = 0, nlocal = 0, nremote = 0;
  PMPI_Comm_test_inter(groups_of, &inter);
  PMPI_Comm_size(groups_of, &nlocal);
  if (inter) PMPI_Comm_remote_size(groups_of, &nremote);
  int n = nlocal + nremote;
  owned *o = pu_malloc(sizeof *o + (inter ? (size_t)nremote : 0) * sizeof(uint32_t));
  uint32_t *ranks = pu_malloc((size_t)n * sizeof *ranks);
  MPI_Group g;
  PMPI_Comm_group(groups_of, &g);
  int ok = mw_group_world_ranks(g, nlocal, ranks);
  PMPI_Group_free(&g);
  if (ok && inter) {
    PMPI_Comm_remote_group(groups_of, &g);
    ok = mw_group_world_ranks(g, nremote, ranks + nlocal);
    PMPI_Group_free(&g);
    int remote_first = ok && ranks[nlocal] < ranks[0];
    if (remote_first) { /* rotate to remote, local */
      uint32_t *tmp = pu_malloc((size_t)n * sizeof *tmp);
      for (int i = 0; i < n; i++) tmp[i] = ranks[(i + nlocal) % n];
      free(ranks);
      ranks = tmp;
    }
    for (int r = 0; r < nremote; r++) o->peer[r] = (uint32_t)(remote_first ? r : nlocal + r);
  }
  if (!ok) { /* not expressible in world ranks: recorded without comm */
    free(ranks);
    free(o);
    return;
  }
  const mw_comm *p = parent == MPI_COMM_NULL ? NULL : mw_comm_of(parent);
  o->comm.id = pm_comm_register(NULL, mw_comm_ref(p), (uint32_t)n, ranks, 0);
  o->comm.size = n;
  o->comm.peer = inter ? o->peer : NULL;
  o->comm.peers = inter ? nremote : nlocal;
  PMPI_Comm_rank(groups_of, &o->comm.rank);
  atomic_init(&o->comm.instances, 0);
  atomic_init(&o->comm.accounted, 0);
  free(ranks);
  pthread_mutex_lock(&insert_lock);
  o->next = all;
  all = o;
  pthread_mutex_unlock(&insert_lock);
  set_slot(key_of(newcomm), &o->comm);
}

uint32_t mw_comm_register_group(const char *name, uint32_t parent, MPI_Group group, int *size) {
  PMPI_Group_size(group, size);
  uint32_t *ranks = pu_malloc((size_t)(*size ? *size : 1) * sizeof *ranks);
  uint32_t id = mw_group_world_ranks(group, *size, ranks)
                    ? pm_comm_register(name, parent, (uint32_t)*size, ranks, 0)
                    : OTF2_UNDEFINED_COMM;
  free(ranks);
  return id;
}

void mw_comm_free(MPI_Comm comm) {
  if (comm != MPI_COMM_NULL && comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF && mw_comm_of(comm))
    set_slot(key_of(comm), NULL);
}

mw_shape mw_comm_shape(MPI_Comm comm) {
  const mw_comm *c = mw_comm_of(comm);
  if (c) return (mw_shape){c->peer != NULL, c->rank, c->peers};
  mw_shape s = {0, 0, 0};
  PMPI_Comm_test_inter(comm, &s.inter);
  PMPI_Comm_rank(comm, &s.rank);
  if (s.inter) PMPI_Comm_remote_size(comm, &s.peers);
  else PMPI_Comm_size(comm, &s.peers);
  return s;
}

void mw_comm_fini(void) {
  pthread_mutex_lock(&insert_lock);
  for (unsigned i = 0; i < SLOTS; i++) {
    atomic_store(&slots[i].key, 0);
    atomic_store(&slots[i].comm, NULL);
  }
  while (all) {
    owned *next = all->next;
    free(all);
    all = next;
  }
  pthread_mutex_unlock(&insert_lock);
  if (world_group != MPI_GROUP_NULL) PMPI_Group_free(&world_group);
}
