/* pm_profile.c -- the call-path tree of each location in profile mode
   (pm_profile.h). Node 0 is the root; a node's children are a singly
   linked list, the child found last moved to its front, and in front of
   the lists a direct-mapped cache (parent, region) -> child: a loop body
   calling a dozen accessors in turn (LULESH) would otherwise walk a
   dozen list entries per call. Memory grows with the number of
   distinct call paths, never with the run's length, up to
   PM_PROFILE_MAX_NODES per location.

   A worker thread starts its part of a parallel region with an empty
   stack: its path is grafted onto the master's, where the master forked
   (published at the fork; an outermost team forks one at a time). The
   writer puts the worker's parallel region under the master's call path,
   as pomp-analyze's call tree does.

   Snapshots (POMP_SNAPSHOT, pm_profile_snapshot.c) read the trees from
   another thread without a lock, so the owner publishes: a new node is
   filled before the count that covers it is stored (release), a grown
   array before its capacity, and a replaced array is kept (retired) until
   the end instead of freed, so a reader holding the old pointer reads
   stale values, never freed memory. Counters are aligned 64-bit words a
   reader copies while the owner updates them: a copy is a little behind,
   never a torn structure. The event path itself is unchanged. */
#include <stdlib.h>
#include <string.h>

#include "pm_profile.h"
#include "pomp_util.h"

#define NONE UINT32_MAX

typedef struct frame {
  uint32_t node;
  uint32_t folded; /* a new path that did not fit: counted in node */
  uint64_t t;
} frame;

/* Each location's on its own cache lines (threads record side by side). */
#define PM_PROFILE_ALIGN 128
#define CACHE_SLOTS 4096u /* 16 KiB per location */

struct pm_profile {
  _Alignas(PM_PROFILE_ALIGN) pm_pnode *nodes;
  uint32_t n, cap;
  uint32_t cur;  /* node of the innermost open region, 0 at the top */
  int team_next; /* the next Enter begins a team's parallel region */
  frame *stack;
  uint32_t depth, stack_cap;
  uint64_t dropped;
  void **retired; /* replaced arrays a snapshot may still read */
  uint32_t nretired, retired_cap;
  uint32_t cache[CACHE_SLOTS]; /* node index or NONE */
};

/* Zeroed memory of n bytes, from a cache-line boundary, its size rounded
   up to whole lines, so no other thread's data shares them. */
static void *own_lines(size_t n) {
  n = (n + PM_PROFILE_ALIGN - 1) / PM_PROFILE_ALIGN * PM_PROFILE_ALIGN;
  void *p = aligned_alloc(PM_PROFILE_ALIGN, n);
  if (!p) pu_die(POMP_EXIT_FAILURE, "out of memory (%zu bytes)", n);
  return memset(p, 0, n);
}

/* Snapshots are taken (a reader of other threads' trees may exist). */
static _Atomic int readers_possible;

/* *old (old bytes) grown to n bytes on lines of its own; the old array is
   kept in pr's retired list while snapshots may read it. */
static void *grow_lines(pm_profile *pr, void *old, size_t old_size, size_t n) {
  void *q = own_lines(n);
  if (!old) return q;
  memcpy(q, old, old_size);
  if (atomic_load_explicit(&readers_possible, memory_order_relaxed)) {
    if (pr->nretired == pr->retired_cap) {
      pr->retired_cap = pr->retired_cap ? 2 * pr->retired_cap : 16;
      pr->retired = pu_realloc(pr->retired, pr->retired_cap * sizeof *pr->retired);
    }
    pr->retired[pr->nretired++] = old;
  } else {
    free(old);
  }
  return q;
}

static _Atomic(pm_profile *) profiles[PM_MAX_LOCATIONS];
/* The master's node where the outermost team forked (a node of location 0). */
static _Atomic uint32_t fork_node;

static uint32_t add_node(pm_profile *p, uint32_t parent, uint32_t region, uint32_t graft) {
  if (p->n == p->cap) {
    if (p->cap >= PM_PROFILE_MAX_NODES) return NONE;
    uint32_t cap = p->cap ? p->cap * 2 : 64;
    __atomic_store_n(&p->nodes,
                     grow_lines(p, p->nodes, p->cap * sizeof *p->nodes, cap * sizeof *p->nodes),
                     __ATOMIC_RELEASE);
    p->cap = cap;
  }
  uint32_t i = p->n;
  p->nodes[i] = (pm_pnode){
      .region = region, .parent = parent, .child = NONE, .sibling = NONE, .graft = graft};
  if (parent != NONE) {
    p->nodes[i].sibling = p->nodes[parent].child;
    p->nodes[parent].child = i;
  }
  __atomic_store_n(&p->n, i + 1, __ATOMIC_RELEASE); /* node i complete for a snapshot */
  return i;
}

/* A location's first event (the slow path) creates its tree, and the
   first tree of the process starts the snapshots where they are asked for. */
static pm_profile *profile(pm_location *l) {
  pm_profile *p = atomic_load_explicit(&profiles[l->thread], memory_order_relaxed);
  if (PM_LIKELY(p != NULL)) return p;
  if (pm_snapshot_ns) {
    atomic_store_explicit(&readers_possible, 1, memory_order_relaxed);
    pm_profile_snapshots_start();
  }
  p = own_lines(sizeof *p);
  memset(p->cache, 0xff, sizeof p->cache); /* NONE */
  add_node(p, NONE, PM_NO_REGION, NONE);
  atomic_store_explicit(&profiles[l->thread], p, memory_order_release);
  return p;
}

static inline uint32_t slot(uint32_t parent, uint32_t region) {
  return ((parent * 0x9e3779b1u) ^ (region * 0x85ebca6bu)) >> 20; /* 12 bits */
}

/* The child of parent for (region, graft): from the cache, else from the
   list (moved to its front) or created (NONE when the tree is full). */
static uint32_t child(pm_profile *p, uint32_t parent, uint32_t region, uint32_t graft) {
  pm_pnode *n = p->nodes;
  uint32_t *s = &p->cache[slot(parent, region)];
  uint32_t c = *s;
  if (PM_LIKELY(c != NONE && n[c].parent == parent && n[c].region == region && n[c].graft == graft))
    return c;
  uint32_t prev = NONE;
  for (c = n[parent].child; c != NONE; prev = c, c = n[c].sibling) {
    if (n[c].region != region || n[c].graft != graft) continue;
    if (prev != NONE) {
      n[prev].sibling = n[c].sibling;
      n[c].sibling = n[parent].child;
      n[parent].child = c;
    }
    return *s = c;
  }
  c = add_node(p, parent, region, graft);
  if (c != NONE) *s = c;
  return c;
}

static void push(pm_profile *p, uint32_t node, uint32_t folded, uint64_t t) {
  if (p->depth == p->stack_cap) {
    uint32_t cap = p->stack_cap ? p->stack_cap * 2 : 32;
    __atomic_store_n(
        &p->stack, grow_lines(p, p->stack, p->stack_cap * sizeof *p->stack, cap * sizeof *p->stack),
        __ATOMIC_RELEASE);
    __atomic_store_n(&p->stack_cap, cap, __ATOMIC_RELEASE); /* after the array it measures */
  }
  p->stack[p->depth++] = (frame){node, folded, t};
}

static void enter(pm_profile *p, uint32_t region, uint64_t t) {
  uint32_t parent = p->cur;
  if (p->team_next && p->depth == 0) {
    uint32_t g = child(p, 0, PM_NO_REGION, atomic_load_explicit(&fork_node, memory_order_relaxed));
    if (g != NONE) parent = g;
  }
  p->team_next = 0;
  uint32_t node = child(p, parent, region, NONE);
  if (PM_UNLIKELY(node == NONE)) {
    p->dropped++;
    push(p, parent, 1, t);
    return;
  }
  p->nodes[node].visits++;
  push(p, node, 0, t);
  p->cur = node;
}

static void leave(pm_profile *p, uint64_t t) {
  if (PM_UNLIKELY(p->depth == 0)) return; /* the event path keeps Leaves matched */
  frame f = p->stack[--p->depth];
  if (!f.folded) p->nodes[f.node].incl_ns += t > f.t ? t - f.t : 0;
  p->cur = p->depth ? p->stack[p->depth - 1].node : 0;
}

void pm_profile_event(pm_location *l, enum pm_event_kind kind, uint64_t t, uint32_t a) {
  pm_profile *p = profile(l);
  switch (kind) {
  case PM_EV_ENTER: enter(p, a, t); break;
  case PM_EV_LEAVE: leave(p, t); break;
  case PM_EV_FORK: atomic_store_explicit(&fork_node, p->cur, memory_order_relaxed); break;
  case PM_EV_TEAM_BEGIN: p->team_next = 1; break;
  default: break; /* joins, team ends, locks: nothing to count */
  }
}

void pm_bytes(pm_location *l, uint64_t sent, uint64_t received) {
  if (!pm_profiling() || !l || !pm_location_records(l)) return;
  pm_profile *p = profile(l);
  p->nodes[p->cur].sent += sent;
  p->nodes[p->cur].received += received;
}

void pm_io_bytes(pm_location *l, uint64_t written, uint64_t read) {
  if (!pm_profiling() || !l || !pm_location_records(l)) return;
  pm_profile *p = profile(l);
  p->nodes[p->cur].io_written += written;
  p->nodes[p->cur].io_read += read;
}

const pm_profile *pm_profile_of(uint32_t thread) {
  return thread < PM_MAX_LOCATIONS ? atomic_load_explicit(&profiles[thread], memory_order_acquire)
                                   : NULL;
}

uint32_t pm_profile_nodes(const pm_profile *p, const pm_pnode **nodes) {
  *nodes = p->nodes;
  return p->n;
}

/* The time of the regions open on p's stack at now, added to their nodes
   in copy (n nodes): a snapshot would otherwise show main and the time
   step loop without time until they end. The frames are read while the
   owner pushes and pops: a frame is used only when it names a node of the
   copy and began before now, so a frame replaced during the read adds at
   most the time of one short visit to a neighbouring path. */
static void add_open_time(const pm_profile *p, pm_pnode *copy, uint32_t n, uint64_t now) {
  uint32_t cap = __atomic_load_n(&p->stack_cap, __ATOMIC_ACQUIRE);
  const frame *stack = __atomic_load_n(&p->stack, __ATOMIC_ACQUIRE); /* at least cap frames */
  uint32_t depth = __atomic_load_n(&p->depth, __ATOMIC_RELAXED);
  if (!stack) return;
  if (depth > cap) depth = cap;
  for (uint32_t i = 0; i < depth; i++) {
    frame f = stack[i];
    if (!f.folded && f.node < n && f.node > 0 && f.t <= now) copy[f.node].incl_ns += now - f.t;
  }
}

uint32_t pm_profile_copy(const pm_profile *p, uint64_t now, pm_pnode **copy) {
  uint32_t n = __atomic_load_n(&p->n, __ATOMIC_ACQUIRE);
  const pm_pnode *nodes = __atomic_load_n(&p->nodes, __ATOMIC_ACQUIRE); /* holds n nodes */
  *copy = pu_malloc((n ? n : 1) * sizeof **copy);
  if (n) memcpy(*copy, nodes, n * sizeof **copy);
  if (now) add_open_time(p, *copy, n, now);
  return n;
}

uint64_t pm_profile_dropped(const pm_profile *p) { return p->dropped; }

void pm_profile_reset(void) {
  for (uint32_t i = 0; i < PM_MAX_LOCATIONS; i++) {
    pm_profile *p = atomic_load(&profiles[i]);
    if (!p) continue;
    free(p->nodes);
    free(p->stack);
    for (uint32_t k = 0; k < p->nretired; k++) free(p->retired[k]);
    free(p->retired);
    free(p);
    atomic_store(&profiles[i], NULL);
  }
  atomic_store(&fork_node, 0);
}
