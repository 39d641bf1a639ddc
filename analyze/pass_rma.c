/* pass_rma.c -- one-sided communication (MPI RMA): Scalasca's wait states
 * of active and passive target synchronisation and the bytes RMA moved.
 *
 * A forward pass that keeps one small record per RMA call (its kind,
 * window, target, call path, enter and exit) for the whole run: one-sided
 * synchronisation is coarse (an epoch holds many operations), and its
 * partners (the posts an access epoch needs, the locks that held a target)
 * lie anywhere in the trace, so the evaluation runs once at the end over
 * all of them (docs/PROPERTIES.md, "One-sided communication"):
 *  - Wait at Fence / Create / Free: the k-th MPI_Win_fence (create, free)
 *    of every member of a window is one instance; each member waited
 *    min(latest enter, own exit) - own enter.
 *  - Early Fence: the part of a fence's Wait at Fence until the last
 *    operation of the epoch that targets the process had ended.
 *  - Late Post: an origin's access epoch (MPI_Win_start ... complete)
 *    with target t (in its start's group) matches t's next exposure epoch
 *    (MPI_Win_post ... wait) whose post's group holds the origin, as MPI
 *    pairs them; where the groups are not recorded (traces before issue
 *    21's item 2), the targets of its operations and t's next exposure
 *    epoch counted per (origin, target). Start, complete (sync) and the
 *    operations (comm) wait until the targets' post.
 *  - Early Wait: the target's MPI_Win_wait waits for the latest complete
 *    of its origins; Late Complete is the part after their last
 *    operation to it had ended.
 *  - Lock competition: per (window, target), lock epochs ordered by their
 *    MPI_Win_lock enter; an epoch waits, in its lock and unlock calls
 *    (sync) and its operations (comm), until the latest release of an
 *    earlier conflicting epoch (one of the two exclusive). */
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_calltree.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_metrics.h"
#include "az_pass.h"
#include "pomp_util.h"

enum rm_kind {
  RM_FENCE,
  RM_CREATE,
  RM_FREE,
  RM_POST,
  RM_START,
  RM_COMPLETE,
  RM_WAIT,
  RM_LOCK,
  RM_UNLOCK,
  RM_OP,
  RM_NONE
};

typedef struct {
  uint8_t kind, exclusive;
  uint32_t win, proc, loc;
  uint32_t target; /* process index of a lock's or an operation's target;
                      a post's or start's Group id */
  int32_t cnode;
  az_time e, x;
} rm_call;

typedef struct {
  rm_call *v;
  size_t n, cap;
} rm_calls;

typedef struct {
  az_cursor cur;
  int32_t *stack;
  az_time *enter;
  size_t depth, cap;
  rm_calls open; /* records of the MPI call now open: e, x, cnode at its Leave */
  rm_calls *all; /* the pass's: every RMA call of the run */
} rm_loc;

static rm_loc *loc_of(void *u) { return u; }

static int32_t top(const rm_loc *s) { return s->depth ? s->stack[s->depth - 1] : -1; }

static OTF2_CallbackCode on_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l, (void)al;
  rm_loc *s = loc_of(u);
  if (az_cursor_at(&s->cur, &t, pos)) return az_next(&s->cur);
  if (s->depth == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 16;
    s->stack = pu_realloc(s->stack, s->cap * sizeof *s->stack);
    s->enter = pu_realloc(s->enter, s->cap * sizeof *s->enter);
  }
  s->stack[s->depth] = az_calltree_child(&s->cur.a->tree, top(s), (int32_t)r);
  s->enter[s->depth++] = t;
  return az_next(&s->cur);
}

static OTF2_CallbackCode on_leave(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l, (void)al, (void)r;
  rm_loc *s = loc_of(u);
  if (az_cursor_at(&s->cur, &t, pos) || !s->depth) return az_next(&s->cur);
  s->depth--;
  for (size_t i = 0; i < s->open.n; i++) {
    rm_call c = s->open.v[i];
    c.cnode = s->stack[s->depth];
    c.e = s->enter[s->depth];
    c.x = t;
    PU_PUSH(s->all->v, s->all->n, s->all->cap, c);
  }
  s->open.n = 0;
  return az_next(&s->cur);
}

/* One RMA record of the call now open (its times come at the Leave). */
static OTF2_CallbackCode note(rm_loc *s, OTF2_TimeStamp t, uint64_t pos, int kind, uint32_t win,
                              uint32_t target_rank, int exclusive) {
  if (az_cursor_at(&s->cur, &t, pos) || !s->depth || kind == RM_NONE) return az_next(&s->cur);
  const az_defs *d = &s->cur.a->defs;
  uint32_t proc = d->locs[s->cur.loc].process;
  uint32_t target = UINT32_MAX;
  if (kind == RM_LOCK || kind == RM_UNLOCK || kind == RM_OP) {
    target = az_win_world(d, win, target_rank, proc);
    if (target == UINT32_MAX) return az_next(&s->cur); /* unknown window or rank */
  }
  if (kind == RM_POST || kind == RM_START)
    target = az_group(d, target_rank) ? target_rank : UINT32_MAX;
  rm_call c = {(uint8_t)kind, (uint8_t)exclusive, win, proc, s->cur.loc, target, -1, 0, 0};
  PU_PUSH(s->open.v, s->open.n, s->open.cap, c);
  return az_next(&s->cur);
}

static OTF2_CallbackCode on_coll_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_CollectiveOp op,
                                     OTF2_RmaSyncLevel level, OTF2_RmaWinRef win, uint32_t root,
                                     uint64_t sent, uint64_t received) {
  (void)l, (void)al, (void)level, (void)root, (void)sent, (void)received;
  int kind = op == OTF2_COLLECTIVE_OP_BARRIER          ? RM_FENCE
             : op == OTF2_COLLECTIVE_OP_CREATE_HANDLE  ? RM_CREATE
             : op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE ? RM_FREE
                                                       : RM_NONE;
  return note(loc_of(u), t, pos, kind, win, 0, 0);
}

/* Which PSCW call a group synchronisation belongs to: its region's name. */
static int group_sync_kind(const rm_loc *s) {
  const az_analysis *a = s->cur.a;
  int32_t region = a->tree.nodes[top(s)].region;
  if (region < 0 || (size_t)region >= a->defs.num_regions) return RM_NONE;
  const char *name = a->defs.regions[region].name;
  if (!name) return RM_NONE;
  if (!strcmp(name, "MPI_Win_post")) return RM_POST;
  if (!strcmp(name, "MPI_Win_start")) return RM_START;
  if (!strcmp(name, "MPI_Win_complete")) return RM_COMPLETE;
  if (!strcmp(name, "MPI_Win_wait") || !strcmp(name, "MPI_Win_test")) return RM_WAIT;
  return RM_NONE;
}

static OTF2_CallbackCode on_group_sync(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                       OTF2_AttributeList *al, OTF2_RmaSyncLevel level,
                                       OTF2_RmaWinRef win, OTF2_GroupRef group) {
  (void)l, (void)al, (void)level;
  rm_loc *s = loc_of(u);
  return note(s, t, pos, s->depth ? group_sync_kind(s) : RM_NONE, win, group, 0);
}

static OTF2_CallbackCode on_request_lock(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                         void *u, OTF2_AttributeList *al, OTF2_RmaWinRef win,
                                         uint32_t remote, uint64_t id, OTF2_LockType type) {
  (void)l, (void)al, (void)id;
  return note(loc_of(u), t, pos, RM_LOCK, win, remote, type == OTF2_LOCK_EXCLUSIVE);
}

static OTF2_CallbackCode on_release_lock(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                         void *u, OTF2_AttributeList *al, OTF2_RmaWinRef win,
                                         uint32_t remote, uint64_t id) {
  (void)l, (void)al, (void)id;
  return note(loc_of(u), t, pos, RM_UNLOCK, win, remote, 0);
}

/* An operation: its bytes on the call path of its call, and its record. */
static OTF2_CallbackCode operation(void *u, OTF2_TimeStamp t, uint64_t pos, OTF2_RmaWinRef win,
                                   uint32_t remote, uint64_t put, uint64_t got) {
  rm_loc *s = loc_of(u);
  if (s->depth && !s->cur.stale && t >= s->cur.last) {
    if (put) az_charge(s->cur.a, s->cur.loc, top(s), AZ_BYTES_PUT, (int64_t)put);
    if (got) az_charge(s->cur.a, s->cur.loc, top(s), AZ_BYTES_GET, (int64_t)got);
  }
  return note(s, t, pos, RM_OP, win, remote, 0);
}

static OTF2_CallbackCode on_put(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                OTF2_AttributeList *al, OTF2_RmaWinRef win, uint32_t remote,
                                uint64_t bytes, uint64_t id) {
  (void)l, (void)al, (void)id;
  return operation(u, t, pos, win, remote, bytes, 0);
}

static OTF2_CallbackCode on_get(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                OTF2_AttributeList *al, OTF2_RmaWinRef win, uint32_t remote,
                                uint64_t bytes, uint64_t id) {
  (void)l, (void)al, (void)id;
  return operation(u, t, pos, win, remote, 0, bytes);
}

static OTF2_CallbackCode on_atomic(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *al, OTF2_RmaWinRef win, uint32_t remote,
                                   OTF2_RmaAtomicType type, uint64_t sent, uint64_t received,
                                   uint64_t id) {
  (void)l, (void)al, (void)type, (void)id;
  return operation(u, t, pos, win, remote, sent, received);
}

/* ------------------------------------------------------------ evaluation */

/* A wait state v at (loc, cnode); once the cells are finished (the
   parallel analysis runs this pass after that) it also leaves the
   region's bucket, as az_cells_finish would have taken it out. */
static void charge_part(az_analysis *a, uint32_t loc, int32_t cnode, int metric, int64_t v) {
  az_charge(a, loc, cnode, metric, v);
  int32_t region = a->tree.nodes[cnode].region;
  if (a->cells_finished && region >= 0 && (size_t)region < a->defs.num_regions)
    az_charge(a, loc, cnode, a->defs.regions[region].bucket, -v);
}

static void charge(az_analysis *a, const rm_call *c, int metric, az_time until) {
  if (until > c->x) until = c->x;
  if (until > c->e) charge_part(a, c->loc, c->cnode, metric, (int64_t)(until - c->e));
}

/* Calls in the order (window, kind, process, enter). */
static int by_win_kind_proc(const void *pa, const void *pb) {
  const rm_call *x = pa, *y = pb;
  if (x->win != y->win) return x->win < y->win ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  if (x->proc != y->proc) return x->proc < y->proc ? -1 : 1;
  return (x->e > y->e) - (x->e < y->e);
}

/* v[0..n): the calls of one (window, collective kind), by process: the
   k-th call of every process is instance k. */
static void eval_collective(az_analysis *a, rm_call *v, size_t n, int metric) {
  size_t nprocs = 0, *first = NULL, cap = 0, longest = 0;
  for (size_t i = 0; i < n; i++)
    if (!i || v[i].proc != v[i - 1].proc) PU_PUSH(first, nprocs, cap, i);
  for (size_t p = 0; p < nprocs; p++) {
    size_t len = (p + 1 < nprocs ? first[p + 1] : n) - first[p];
    if (len > longest) longest = len;
  }
  for (size_t k = 0; k < longest; k++) {
    az_time latest = 0;
    for (size_t p = 0; p < nprocs; p++) {
      size_t i = first[p] + k, end = p + 1 < nprocs ? first[p + 1] : n;
      if (i < end && v[i].e > latest) latest = v[i].e;
    }
    for (size_t p = 0; p < nprocs; p++) {
      size_t i = first[p] + k, end = p + 1 < nprocs ? first[p + 1] : n;
      if (i < end) charge(a, &v[i], metric, latest);
    }
  }
  free(first);
}

/* The calls of one window by kind and process: slice[kind][proc]. */
typedef struct {
  const rm_call *v;
  size_t n;
} rm_slice;

typedef struct {
  az_analysis *a;
  size_t nprocs;
  rm_slice *slice; /* RM_NONE x nprocs */
} rm_window;

static rm_slice slice_of(const rm_window *w, int kind, uint32_t proc) {
  return w->slice[(size_t)kind * w->nprocs + proc];
}

/* First index in s whose enter is >= t. */
static size_t first_from(rm_slice s, az_time t) {
  size_t lo = 0, hi = s.n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (s.v[mid].e < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* An origin's access epoch with one target, matched with that target's
   exposure epoch `post` (index in its post slice; SIZE_MAX: none). */
typedef struct {
  uint32_t target, origin;
  size_t epoch; /* index in the origin's start slice */
  size_t post;
} rm_pair;

static int by_target_origin(const void *pa, const void *pb) {
  const rm_pair *x = pa, *y = pb;
  if (x->target != y->target) return x->target < y->target ? -1 : 1;
  if (x->origin != y->origin) return x->origin < y->origin ? -1 : 1;
  return (x->epoch > y->epoch) - (x->epoch < y->epoch);
}

static int by_target_post(const void *pa, const void *pb) {
  const rm_pair *x = pa, *y = pb;
  if (x->target != y->target) return x->target < y->target ? -1 : 1;
  return (x->post > y->post) - (x->post < y->post);
}

static int cmp_u32(const void *pa, const void *pb) {
  uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;
  return (x > y) - (x < y);
}

/* 1 if post (a post call) exposes its window to origin o: o is in its
   group, or the group is not recorded (then every post does). */
static int post_has(const rm_window *w, const rm_call *post, uint32_t o) {
  const az_comm *g = post->target == UINT32_MAX ? NULL : az_group(&w->a->defs, post->target);
  if (!g) return 1;
  for (uint32_t i = 0; i < g->size; i++)
    if (g->world[i] == o) return 1;
  return 0;
}

/* The targets of an access epoch: its start's group, or, where that is
   not recorded, the targets of its operations (unsorted, repeated). */
static void epoch_targets(const rm_window *w, uint32_t o, size_t e, uint32_t **targets, size_t *n,
                          size_t *cap) {
  rm_slice st = slice_of(w, RM_START, o), co = slice_of(w, RM_COMPLETE, o);
  rm_slice ops = slice_of(w, RM_OP, o);
  const az_comm *g = st.v[e].target == UINT32_MAX ? NULL : az_group(&w->a->defs, st.v[e].target);
  *n = 0;
  if (g) {
    for (uint32_t i = 0; i < g->size; i++)
      if (g->world[i] < w->nprocs) PU_PUSH(*targets, *n, *cap, g->world[i]);
    return;
  }
  for (size_t i = first_from(ops, st.v[e].e); i < ops.n && ops.v[i].e <= co.v[e].e; i++)
    PU_PUSH(*targets, *n, *cap, ops.v[i].target);
}

/* Pairs of one (target, origin), in epoch order, with that target's
   posts that expose to the origin, in order. */
static void match_posts(const rm_window *w, rm_pair *run, size_t n) {
  rm_slice posts = slice_of(w, RM_POST, run[0].target);
  size_t j = 0;
  for (size_t i = 0; i < n; i++) {
    while (j < posts.n && !post_has(w, &posts.v[j], run[i].origin)) j++;
    run[i].post = j < posts.n ? j++ : SIZE_MAX;
  }
}

/* The access epochs of every origin and their targets, as (target,
   origin, epoch) pairs, each matched with its exposure epoch. */
static rm_pair *pscw_pairs(const rm_window *w, size_t *npairs) {
  rm_pair *pairs = NULL;
  size_t n = 0, cap = 0;
  uint32_t *targets = NULL;
  size_t ntargets = 0, captargets = 0;
  for (uint32_t o = 0; o < w->nprocs; o++) {
    rm_slice st = slice_of(w, RM_START, o), co = slice_of(w, RM_COMPLETE, o);
    for (size_t e = 0; e < st.n && e < co.n; e++) {
      epoch_targets(w, o, e, &targets, &ntargets, &captargets);
      if (ntargets > 1) qsort(targets, ntargets, sizeof *targets, cmp_u32);
      for (size_t i = 0; i < ntargets; i++)
        if (!i || targets[i] != targets[i - 1])
          PU_PUSH(pairs, n, cap, ((rm_pair){targets[i], o, e, SIZE_MAX}));
    }
  }
  free(targets);
  if (n > 1) qsort(pairs, n, sizeof *pairs, by_target_origin);
  for (size_t i = 0, end; i < n; i = end) {
    for (end = i;
         end < n && pairs[end].target == pairs[i].target && pairs[end].origin == pairs[i].origin;
         end++)
      continue;
    match_posts(w, pairs + i, end - i);
  }
  *npairs = n;
  return pairs;
}

/* Late Post on the origin side of one pair: its start and complete wait
   for the latest post of the epoch's targets (*latest_post, gathered
   over the epoch's pairs), its operations to the target for that post. */
static void late_post_ops(const rm_window *w, const rm_pair *p, az_time post) {
  rm_slice st = slice_of(w, RM_START, p->origin), co = slice_of(w, RM_COMPLETE, p->origin);
  rm_slice ops = slice_of(w, RM_OP, p->origin);
  for (size_t i = first_from(ops, st.v[p->epoch].e); i < ops.n && ops.v[i].e <= co.v[p->epoch].e;
       i++)
    if (ops.v[i].target == p->target) charge(w->a, &ops.v[i], AZ_MPI_RMA_COMM_LATE_POST, post);
}

/* When the origin of p ended its last operation to p's target in the
   epoch (its start's exit when it has none). */
static az_time last_op_end(const rm_window *w, const rm_pair *p) {
  rm_slice st = slice_of(w, RM_START, p->origin), co = slice_of(w, RM_COMPLETE, p->origin);
  rm_slice ops = slice_of(w, RM_OP, p->origin);
  az_time last = st.v[p->epoch].x;
  for (size_t i = first_from(ops, st.v[p->epoch].e); i < ops.n && ops.v[i].e <= co.v[p->epoch].e;
       i++)
    if (ops.v[i].target == p->target && ops.v[i].x > last) last = ops.v[i].x;
  return last;
}

static void eval_pscw(const rm_window *w) {
  size_t n;
  rm_pair *pairs = pscw_pairs(w, &n);
  /* per access epoch (origin, epoch): the latest post of its targets */
  size_t *start_base = pu_calloc(w->nprocs + 1, sizeof *start_base);
  for (uint32_t o = 0; o < w->nprocs; o++)
    start_base[o + 1] = start_base[o] + slice_of(w, RM_START, o).n;
  az_time *latest_post = pu_calloc(start_base[w->nprocs] + 1, sizeof *latest_post);
  for (size_t i = 0; i < n; i++) {
    rm_slice posts = slice_of(w, RM_POST, pairs[i].target);
    if (pairs[i].post == SIZE_MAX) continue; /* no exposure epoch left: not analysed */
    az_time post = posts.v[pairs[i].post].e;
    late_post_ops(w, &pairs[i], post);
    az_time *lp = &latest_post[start_base[pairs[i].origin] + pairs[i].epoch];
    if (post > *lp) *lp = post;
  }
  for (uint32_t o = 0; o < w->nprocs; o++) {
    rm_slice st = slice_of(w, RM_START, o), co = slice_of(w, RM_COMPLETE, o);
    for (size_t e = 0; e < st.n && e < co.n; e++) {
      charge(w->a, &st.v[e], AZ_MPI_RMA_SYNC_LATE_POST, latest_post[start_base[o] + e]);
      charge(w->a, &co.v[e], AZ_MPI_RMA_SYNC_LATE_POST, latest_post[start_base[o] + e]);
    }
  }
  /* per exposure epoch (target, k): its origins' latest complete and
     last operation */
  if (n > 1) qsort(pairs, n, sizeof *pairs, by_target_post);
  for (size_t i = 0; i < n;) {
    uint32_t t = pairs[i].target;
    size_t k = pairs[i].post, end = i;
    az_time complete = 0, last_op = 0;
    for (; end < n && pairs[end].target == t && pairs[end].post == k; end++) {
      rm_slice co = slice_of(w, RM_COMPLETE, pairs[end].origin);
      if (co.v[pairs[end].epoch].e > complete) complete = co.v[pairs[end].epoch].e;
      az_time op = last_op_end(w, &pairs[end]);
      if (op > last_op) last_op = op;
    }
    i = end;
    rm_slice waits = slice_of(w, RM_WAIT, t);
    if (k < waits.n) {
      const rm_call *wt = &waits.v[k];
      az_time until = complete < wt->x ? complete : wt->x;
      if (until <= wt->e) continue;
      az_time from = last_op > wt->e ? last_op : wt->e;
      int64_t late = until > from ? (int64_t)(until - from) : 0;
      charge_part(w->a, wt->loc, wt->cnode, AZ_MPI_RMA_EARLY_WAIT, (int64_t)(until - wt->e) - late);
      if (late) charge_part(w->a, wt->loc, wt->cnode, AZ_MPI_RMA_LATE_COMPLETE, late);
    }
  }
  free(latest_post);
  free(start_base);
  free(pairs);
}

/* A lock epoch: an origin's lock and unlock of one target. */
typedef struct {
  const rm_call *lock, *unlock;
} rm_epoch;

static int by_target_enter(const void *pa, const void *pb) {
  const rm_epoch *x = pa, *y = pb;
  if (x->lock->target != y->lock->target) return x->lock->target < y->lock->target ? -1 : 1;
  return (x->lock->e > y->lock->e) - (x->lock->e < y->lock->e);
}

static int by_call_target_enter(const void *pa, const void *pb) {
  const rm_call *x = *(const rm_call *const *)pa, *y = *(const rm_call *const *)pb;
  if (x->target != y->target) return x->target < y->target ? -1 : 1;
  return (x->e > y->e) - (x->e < y->e);
}

/* The calls of s by (target, enter). */
static const rm_call **by_target(rm_slice s) {
  const rm_call **v = pu_malloc((s.n ? s.n : 1) * sizeof *v);
  for (size_t i = 0; i < s.n; i++) v[i] = &s.v[i];
  qsort(v, s.n, sizeof *v, by_call_target_enter);
  return v;
}

/* Each origin's k-th lock of a target pairs with its k-th unlock of it. */
static rm_epoch *lock_epochs(const rm_window *w, size_t *nepochs) {
  rm_epoch *epochs = NULL;
  size_t n = 0, cap = 0;
  for (uint32_t o = 0; o < w->nprocs; o++) {
    rm_slice lk = slice_of(w, RM_LOCK, o), un = slice_of(w, RM_UNLOCK, o);
    if (!lk.n) continue;
    const rm_call **locks = by_target(lk), **unlocks = by_target(un);
    for (size_t i = 0, j = 0; i < lk.n; i++) {
      while (j < un.n && unlocks[j]->target < locks[i]->target) j++;
      if (j < un.n && unlocks[j]->target == locks[i]->target)
        PU_PUSH(epochs, n, cap, ((rm_epoch){locks[i], unlocks[j++]}));
    }
    free(locks);
    free(unlocks);
  }
  if (n > 1) qsort(epochs, n, sizeof *epochs, by_target_enter);
  *nepochs = n;
  return epochs;
}

static void eval_locks(const rm_window *w) {
  size_t n;
  rm_epoch *epochs = lock_epochs(w, &n);
  az_time any = 0, exclusive = 0; /* latest release of earlier epochs of the target */
  for (size_t i = 0; i < n; i++) {
    const rm_epoch *b = &epochs[i];
    if (!i || b->lock->target != epochs[i - 1].lock->target) any = exclusive = 0;
    az_time release = b->lock->exclusive ? any : exclusive;
    charge(w->a, b->lock, AZ_MPI_RMA_SYNC_LOCK_COMPETITION, release);
    charge(w->a, b->unlock, AZ_MPI_RMA_SYNC_LOCK_COMPETITION, release);
    rm_slice ops = slice_of(w, RM_OP, b->lock->proc);
    for (size_t j = first_from(ops, b->lock->e); j < ops.n && ops.v[j].e <= b->unlock->e; j++)
      if (ops.v[j].target == b->lock->target)
        charge(w->a, &ops.v[j], AZ_MPI_RMA_COMM_LOCK_COMPETITION, release);
    if (b->unlock->x > any) any = b->unlock->x;
    if (b->lock->exclusive && b->unlock->x > exclusive) exclusive = b->unlock->x;
  }
  free(epochs);
}

/* The operations of origin o in its fence epoch k (after the exit of its
   fence k - 1, up to the enter of fence k): the range [*from, *to). */
static void fence_epoch_ops(const rm_window *w, uint32_t o, size_t k, size_t *from, size_t *to) {
  rm_slice fe = slice_of(w, RM_FENCE, o), ops = slice_of(w, RM_OP, o);
  *from = k ? first_from(ops, fe.v[k - 1].x) : 0;
  *to = first_from(ops, fe.v[k].e + 1);
  if (*to < *from) *to = *from;
}

/* Early Fence (Scalasca's): the part of a fence's Wait at Fence before
   the last operation of the epoch that targets the process had ended (its
   origin's call returned): the process entered while others still
   accessed its window. Moved out of Wait at Fence, its parent. */
static void eval_early_fence(const rm_window *w) {
  size_t longest = 0;
  for (uint32_t p = 0; p < w->nprocs; p++)
    if (slice_of(w, RM_FENCE, p).n > longest) longest = slice_of(w, RM_FENCE, p).n;
  az_time *last_op = pu_calloc(w->nprocs + 1, sizeof *last_op); /* per target */
  for (size_t k = 0; k < longest; k++) {
    az_time latest = 0;
    for (uint32_t p = 0; p < w->nprocs; p++) {
      rm_slice fe = slice_of(w, RM_FENCE, p);
      last_op[p] = 0;
      if (k < fe.n && fe.v[k].e > latest) latest = fe.v[k].e;
    }
    for (uint32_t o = 0; o < w->nprocs; o++) {
      rm_slice ops = slice_of(w, RM_OP, o);
      if (k >= slice_of(w, RM_FENCE, o).n) continue;
      size_t from, to;
      fence_epoch_ops(w, o, k, &from, &to);
      for (size_t i = from; i < to; i++)
        if (ops.v[i].target < w->nprocs && ops.v[i].x > last_op[ops.v[i].target])
          last_op[ops.v[i].target] = ops.v[i].x;
    }
    for (uint32_t p = 0; p < w->nprocs; p++) {
      rm_slice fe = slice_of(w, RM_FENCE, p);
      if (k >= fe.n) continue;
      const rm_call *c = &fe.v[k];
      az_time waited = latest < c->x ? latest : c->x;
      if (waited <= c->e || last_op[p] <= c->e || last_op[p] > c->x) continue;
      int64_t early = (int64_t)((last_op[p] < waited ? last_op[p] : waited) - c->e);
      charge_part(w->a, c->loc, c->cnode, AZ_MPI_RMA_EARLY_FENCE, early);
      charge_part(w->a, c->loc, c->cnode, AZ_MPI_RMA_WAIT_AT_FENCE, -early);
    }
  }
  free(last_op);
}

/* v[0..n): the calls of one window, sorted by (kind, process, enter). */
static void eval_window(az_analysis *a, rm_call *v, size_t n) {
  rm_window w = {a, a->defs.num_procs, NULL};
  w.slice = pu_calloc((size_t)RM_NONE * w.nprocs + 1, sizeof *w.slice);
  for (size_t i = 0; i < n;) {
    size_t end = i;
    while (end < n && v[end].kind == v[i].kind && v[end].proc == v[i].proc) end++;
    if (v[i].proc < w.nprocs)
      w.slice[(size_t)v[i].kind * w.nprocs + v[i].proc] = (rm_slice){&v[i], end - i};
    i = end;
  }
  static const struct {
    int kind, metric;
  } colls[] = {{RM_FENCE, AZ_MPI_RMA_WAIT_AT_FENCE},
               {RM_CREATE, AZ_MPI_RMA_WAIT_AT_CREATE},
               {RM_FREE, AZ_MPI_RMA_WAIT_AT_FREE}};
  for (size_t c = 0; c < sizeof colls / sizeof *colls; c++) {
    size_t from = 0;
    while (from < n && v[from].kind != colls[c].kind) from++;
    size_t to = from;
    while (to < n && v[to].kind == colls[c].kind) to++;
    if (to > from) eval_collective(a, v + from, to - from, colls[c].metric);
  }
  eval_early_fence(&w);
  eval_pscw(&w);
  eval_locks(&w);
  free(w.slice);
}

/* ------------------------------------------------------------ the pass */

static void rm_begin(az_replay *r) {
  r->data = pu_calloc(1, sizeof(rm_calls));
  for (uint32_t l = 0; l < r->a->defs.num_locs; l++) {
    rm_loc *s = (rm_loc *)(void *)az_replay_loc(r, l);
    if (s->cur.a) s->all = r->data;
  }
}

static void rm_loc_end(az_replay *r, az_cursor *c, const char *cut) {
  (void)r, (void)cut;
  rm_loc *s = (rm_loc *)(void *)c;
  free(s->stack);
  free(s->enter);
  free(s->open.v);
  s->stack = NULL;
  s->enter = NULL;
  s->open = (rm_calls){0};
  s->depth = s->cap = 0;
}

static void rm_end(az_replay *r, int ok) {
  rm_calls *all = r->data;
  if (ok && all->n) {
    qsort(all->v, all->n, sizeof *all->v, by_win_kind_proc);
    for (size_t i = 0; i < all->n;) {
      size_t end = i;
      while (end < all->n && all->v[end].win == all->v[i].win) end++;
      eval_window(r->a, all->v + i, end - i);
      i = end;
    }
  }
  for (uint32_t l = 0; l < r->a->defs.num_locs; l++) {
    az_cursor *c = az_replay_loc(r, l);
    if (c->a) rm_loc_end(r, c, NULL);
  }
  free(all->v);
  free(all);
  r->data = NULL;
}

/* Only traces that define RMA windows are read again. */
static int rm_wanted(const az_analysis *a) { return a->defs.num_wins > 0; }

const az_pass az_pass_rma = {
    .name = "rma",
    .direction = AZ_FORWARD,
    .loc_size = sizeof(rm_loc),
    .on =
        {
            .enter = on_enter,
            .leave = on_leave,
            .rma_collective_end = on_coll_end,
            .rma_group_sync = on_group_sync,
            .rma_request_lock = on_request_lock,
            .rma_release_lock = on_release_lock,
            .rma_put = on_put,
            .rma_get = on_get,
            .rma_atomic = on_atomic,
        },
    .begin = rm_begin,
    .loc_end = rm_loc_end,
    .end = rm_end,
    .wanted = rm_wanted,
};
