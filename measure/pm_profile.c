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
   as pomp-analyze's call tree does. */
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

/* *p (old bytes) grown to n bytes on lines of its own. */
static void *grow_lines(void *p, size_t old, size_t n) {
  void *q = own_lines(n);
  if (p) memcpy(q, p, old);
  free(p);
  return q;
}

static pm_profile *profiles[PM_MAX_LOCATIONS];
/* The master's node where the outermost team forked (a node of location 0). */
static _Atomic uint32_t fork_node;

static uint32_t add_node(pm_profile *p, uint32_t parent, uint32_t region, uint32_t graft) {
  if (p->n == p->cap) {
    if (p->cap >= PM_PROFILE_MAX_NODES) return NONE;
    uint32_t cap = p->cap ? p->cap * 2 : 64;
    p->nodes = grow_lines(p->nodes, p->cap * sizeof *p->nodes, cap * sizeof *p->nodes);
    p->cap = cap;
  }
  uint32_t i = p->n++;
  p->nodes[i] = (pm_pnode){region, parent, NONE, NONE, graft, 0, 0, 0, 0};
  if (parent != NONE) {
    p->nodes[i].sibling = p->nodes[parent].child;
    p->nodes[parent].child = i;
  }
  return i;
}

static pm_profile *profile(pm_location *l) {
  pm_profile *p = profiles[l->thread];
  if (PM_LIKELY(p != NULL)) return p;
  p = own_lines(sizeof *p);
  memset(p->cache, 0xff, sizeof p->cache); /* NONE */
  add_node(p, NONE, PM_NO_REGION, NONE);
  profiles[l->thread] = p;
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
    p->stack = grow_lines(p->stack, p->stack_cap * sizeof *p->stack, cap * sizeof *p->stack);
    p->stack_cap = cap;
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

const pm_profile *pm_profile_of(uint32_t thread) {
  return thread < PM_MAX_LOCATIONS ? profiles[thread] : NULL;
}

uint32_t pm_profile_nodes(const pm_profile *p, const pm_pnode **nodes) {
  *nodes = p->nodes;
  return p->n;
}

uint64_t pm_profile_dropped(const pm_profile *p) { return p->dropped; }

void pm_profile_reset(void) {
  for (uint32_t i = 0; i < PM_MAX_LOCATIONS; i++) {
    if (!profiles[i]) continue;
    free(profiles[i]->nodes);
    free(profiles[i]->stack);
    free(profiles[i]);
    profiles[i] = NULL;
  }
  atomic_store(&fork_node, 0);
}
