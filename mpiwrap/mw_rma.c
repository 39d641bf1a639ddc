/* mw_rma.c -- one-sided communication as OTF2 RMA records (docs/TRACE.md,
   "RMA"). A window is registered with libpomp as a comm of its members
   named "MPI_Win" (PM_WIN_COMM_NAME of unify/pomp_unify.h): windows are
   created collectively, so they unify across ranks exactly as comms do,
   and the merge writes an RmaWin of the same id for each.

   Every RMA operation gets a matching id; the synchronisation that
   completes it (fence, complete, unlock, unlock_all, flush, flush_all)
   writes RmaOpCompleteBlocking for it. The table of windows and of their
   operations not yet completed is small (windows are few and long-lived)
   and guarded by one mutex. */
#include "mw.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

#define MW_WIN_COMM_NAME "MPI_Win" /* = PM_WIN_COMM_NAME (unify/pomp_unify.h) */
/* = PM_WIN_GROUP_COMM_NAME: a post's or start's group */
#define MW_WIN_GROUP_COMM_NAME "MPI_Win group"
/* "every member" in place of a target rank (MPI_PROC_NULL is -1) */
#define ALL INT_MIN
#define SYNC_FULL (OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY)

typedef struct pending {
  uint64_t id;
  int target;
} pending;

/* A member list a post or start named, and the comm registered for it. */
typedef struct pscw_group {
  uint32_t *ranks; /* world ranks */
  int size;
  uint32_t id;
} pscw_group;

typedef struct win {
  MPI_Win handle; /* MPI_WIN_NULL: freed */
  uint32_t id;    /* local comm id of the window's comm */
  int size;       /* members */
  pending *ops;   /* operations not yet completed */
  size_t nops, cap_ops;
  pscw_group *groups; /* the PSCW groups recorded on it */
  size_t ngroups, cap_groups;
} win;

static void free_groups(win *wn) {
  for (size_t k = 0; k < wn->ngroups; k++) free(wn->groups[k].ranks);
  free(wn->groups);
  wn->groups = NULL;
  wn->ngroups = wn->cap_groups = 0;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static win *wins;
static size_t nwins, cap_wins;
static _Atomic uint64_t next_match = 1;

/* Index of handle's window (lock held), or nwins. */
static size_t find(MPI_Win handle) {
  size_t i = 0;
  while (i < nwins && wins[i].handle != handle) i++;
  return i;
}

uint32_t mw_win_ref(MPI_Win handle) {
  pthread_mutex_lock(&lock);
  size_t i = find(handle);
  uint32_t id = i < nwins ? wins[i].id : OTF2_UNDEFINED_RMA_WIN;
  pthread_mutex_unlock(&lock);
  return id;
}

void mw_rma_coll_begin(mw_frame *f) {
  if (!f->l) return;
  OTF2_EvtWriter *w = mw_writer(f);
  if (w) OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, f->t);
}

static void coll_end(mw_frame *f, OTF2_CollectiveOp op, uint32_t id) {
  OTF2_EvtWriter *w = mw_writer(f);
  if (w)
    OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, f->t, op, SYNC_FULL, id, OTF2_UNDEFINED_UINT32, 0, 0);
}

/* Always (recorded or not): windows made while recording is off still
   take their place in the comm order that unification relies on. */
void mw_win_new(mw_frame *f, MPI_Win handle, MPI_Comm comm) {
  MPI_Group g;
  PMPI_Win_get_group(handle, &g);
  win nw = {.handle = handle};
  nw.id = mw_comm_register_group(MW_WIN_COMM_NAME, mw_comm_ref(mw_comm_of(comm)), g, &nw.size);
  PMPI_Group_free(&g);
  pthread_mutex_lock(&lock);
  size_t i = find(MPI_WIN_NULL); /* reuse a freed slot */
  if (i == nwins) PU_PUSH(wins, nwins, cap_wins, nw);
  else wins[i] = nw;
  pthread_mutex_unlock(&lock);
  if (!f->l || nw.id == OTF2_UNDEFINED_COMM) return;
  OTF2_EvtWriter *w = mw_writer(f);
  if (w) OTF2_EvtWriter_RmaWinCreate(w, NULL, f->t, nw.id);
  coll_end(f, OTF2_COLLECTIVE_OP_CREATE_HANDLE, nw.id);
}

/* Before PMPI_Win_free (the handle is gone after it): forgets the window. */
uint32_t mw_win_forget(MPI_Win handle) {
  pthread_mutex_lock(&lock);
  size_t i = find(handle);
  uint32_t id = OTF2_UNDEFINED_RMA_WIN;
  if (i < nwins) {
    id = wins[i].id;
    free(wins[i].ops);
    free_groups(&wins[i]);
    wins[i] = (win){.handle = MPI_WIN_NULL};
  }
  pthread_mutex_unlock(&lock);
  return id;
}

void mw_win_freed(mw_frame *f, uint32_t id) {
  if (!f->l || id == OTF2_UNDEFINED_RMA_WIN) return;
  coll_end(f, OTF2_COLLECTIVE_OP_DESTROY_HANDLE, id);
  OTF2_EvtWriter *w = mw_writer(f);
  if (w) OTF2_EvtWriter_RmaWinDestroy(w, NULL, f->t, id);
}

/* Registers an operation to `target` on handle; its matching id, or 0 for
   an unknown window (no record then). */
static uint64_t op_started(MPI_Win handle, int target, uint32_t *id) {
  uint64_t m = atomic_fetch_add_explicit(&next_match, 1, memory_order_relaxed);
  pthread_mutex_lock(&lock);
  size_t i = find(handle);
  if (i < nwins) {
    *id = wins[i].id;
    PU_PUSH(wins[i].ops, wins[i].nops, wins[i].cap_ops, ((pending){m, target}));
  } else m = 0;
  pthread_mutex_unlock(&lock);
  return m;
}

/* Put/Get (get: 1) and atomics (type; sent and received bytes) at Enter. */
void mw_rma_op(mw_frame *f, MPI_Win handle, int target, int get, MPI_Count count,
               MPI_Datatype type) {
  uint32_t id = 0;
  uint64_t m = target == MPI_PROC_NULL ? 0 : op_started(handle, target, &id);
  OTF2_EvtWriter *w = m ? mw_writer(f) : NULL;
  if (!w) return;
  uint64_t bytes = mw_type_bytes(count, type);
  if (get) OTF2_EvtWriter_RmaGet(w, NULL, f->t, id, (uint32_t)target, bytes, m);
  else OTF2_EvtWriter_RmaPut(w, NULL, f->t, id, (uint32_t)target, bytes, m);
}

void mw_rma_atomic(mw_frame *f, MPI_Win handle, int target, OTF2_RmaAtomicType kind, uint64_t sent,
                   uint64_t received) {
  uint32_t id = 0;
  uint64_t m = target == MPI_PROC_NULL ? 0 : op_started(handle, target, &id);
  OTF2_EvtWriter *w = m ? mw_writer(f) : NULL;
  if (w) OTF2_EvtWriter_RmaAtomic(w, NULL, f->t, id, (uint32_t)target, kind, sent, received, m);
}

/* Completes the window's pending operations to target (-1: all). */
static uint32_t complete_ops(mw_frame *f, MPI_Win handle, int target) {
  pthread_mutex_lock(&lock);
  size_t i = find(handle);
  uint32_t id = i < nwins ? wins[i].id : OTF2_UNDEFINED_RMA_WIN;
  if (i < nwins) {
    win *wn = &wins[i];
    size_t kept = 0;
    for (size_t k = 0; k < wn->nops; k++) {
      if (target != ALL && wn->ops[k].target != target) {
        wn->ops[kept++] = wn->ops[k];
        continue;
      }
      OTF2_EvtWriter *w = f->l ? mw_writer(f) : NULL;
      if (w) OTF2_EvtWriter_RmaOpCompleteBlocking(w, NULL, f->t, id, wn->ops[k].id);
    }
    wn->nops = kept;
  }
  pthread_mutex_unlock(&lock);
  return id;
}

void mw_rma_fence(mw_frame *f, MPI_Win handle) {
  uint32_t id = complete_ops(f, handle, ALL);
  if (id != OTF2_UNDEFINED_RMA_WIN) coll_end(f, OTF2_COLLECTIVE_OP_BARRIER, id);
}

/* The group ref of a post's or start's group on handle: the local id of
   a comm of its members, registered once per member list and window (the
   merge unifies the ranks' registrations by list and window and maps the
   ref to the list's Group, unify/pomp_unify.h); undefined for an empty
   group or an unknown window. */
static uint32_t group_ref(MPI_Win handle, MPI_Group group) {
  int size = 0;
  if (group == MPI_GROUP_NULL || PMPI_Group_size(group, &size) != MPI_SUCCESS || size <= 0)
    return OTF2_UNDEFINED_GROUP;
  uint32_t *ranks = pu_malloc((size_t)size * sizeof *ranks);
  if (!mw_group_world_ranks(group, size, ranks)) {
    free(ranks);
    return OTF2_UNDEFINED_GROUP;
  }
  uint32_t ref = OTF2_UNDEFINED_GROUP;
  pthread_mutex_lock(&lock);
  size_t i = find(handle);
  win *wn = i < nwins ? &wins[i] : NULL;
  for (size_t k = 0; wn && k < wn->ngroups && ref == OTF2_UNDEFINED_GROUP; k++)
    if (wn->groups[k].size == size && !memcmp(wn->groups[k].ranks, ranks, (size_t)size * 4))
      ref = wn->groups[k].id;
  if (wn && ref == OTF2_UNDEFINED_GROUP) {
    ref = pm_comm_register(MW_WIN_GROUP_COMM_NAME, wn->id, (uint32_t)size, ranks, 0);
    PU_PUSH(wn->groups, wn->ngroups, wn->cap_groups, ((pscw_group){ranks, size, ref}));
    ranks = NULL;
  }
  pthread_mutex_unlock(&lock);
  free(ranks);
  return ref == OTF2_UNDEFINED_COMM ? OTF2_UNDEFINED_GROUP : ref;
}

/* Post, start (with their group), complete (ops completed first), wait,
   a successful test. */
void mw_rma_group_sync(mw_frame *f, MPI_Win handle, MPI_Group group, int completes) {
  uint32_t id = completes ? complete_ops(f, handle, ALL) : mw_win_ref(handle);
  OTF2_EvtWriter *w = id != OTF2_UNDEFINED_RMA_WIN ? mw_writer(f) : NULL;
  if (w) OTF2_EvtWriter_RmaGroupSync(w, NULL, f->t, SYNC_FULL, id, group_ref(handle, group));
}

/* Win_lock: RmaRequestLock at Enter (before = 1), RmaAcquireLock after;
   rank ALL (lock_all): one record per member. */
void mw_rma_lock(mw_frame *f, MPI_Win handle, int rank, int exclusive, int before) {
  pthread_mutex_lock(&lock);
  size_t i = find(handle);
  uint32_t id = i < nwins ? wins[i].id : OTF2_UNDEFINED_RMA_WIN;
  int size = i < nwins ? wins[i].size : 0;
  pthread_mutex_unlock(&lock);
  if (id == OTF2_UNDEFINED_RMA_WIN || rank == MPI_PROC_NULL) return;
  OTF2_LockType type = exclusive ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED;
  for (int r = rank == ALL ? 0 : rank; r < (rank == ALL ? size : rank + 1); r++) {
    OTF2_EvtWriter *w = mw_writer(f);
    if (!w) return;
    if (before) OTF2_EvtWriter_RmaRequestLock(w, NULL, f->t, id, (uint32_t)r, 0, type);
    else OTF2_EvtWriter_RmaAcquireLock(w, NULL, f->t, id, (uint32_t)r, 0, type);
  }
}

/* Win_unlock(rank) / unlock_all (rank ALL): completes, then releases. */
void mw_rma_unlock(mw_frame *f, MPI_Win handle, int rank) {
  if (rank == MPI_PROC_NULL) return;
  uint32_t id = complete_ops(f, handle, rank);
  int size = 0;
  pthread_mutex_lock(&lock);
  size_t i = find(handle);
  if (i < nwins) size = wins[i].size;
  pthread_mutex_unlock(&lock);
  for (int r = rank == ALL ? 0 : rank; r < (rank == ALL ? size : rank + 1); r++) {
    OTF2_EvtWriter *w = id != OTF2_UNDEFINED_RMA_WIN ? mw_writer(f) : NULL;
    if (!w) return;
    OTF2_EvtWriter_RmaReleaseLock(w, NULL, f->t, id, (uint32_t)r, 0);
  }
}

void mw_rma_flush(mw_frame *f, MPI_Win handle, int rank) {
  if (rank != MPI_PROC_NULL) complete_ops(f, handle, rank);
}

void mw_rma_lock_all(mw_frame *f, MPI_Win handle, int before) {
  mw_rma_lock(f, handle, ALL, 0, before);
}
void mw_rma_unlock_all(mw_frame *f, MPI_Win handle) { mw_rma_unlock(f, handle, ALL); }
void mw_rma_flush_all(mw_frame *f, MPI_Win handle) { complete_ops(f, handle, ALL); }

void mw_rma_fini(void) {
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < nwins; i++) {
    free(wins[i].ops);
    free_groups(&wins[i]);
  }
  free(wins);
  wins = NULL;
  nwins = cap_wins = 0;
  pthread_mutex_unlock(&lock);
}
