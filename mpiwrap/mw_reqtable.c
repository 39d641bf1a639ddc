/* mw_reqtable.c -- see mw_reqtable.h. Chained hash table with a fixed
   number of buckets (outstanding requests are counted in thousands, not
   millions) and one spinlock per stripe of buckets; freed nodes go to the
   stripe's free list, so steady request traffic does not call malloc. */
#include "mw_reqtable.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#define BUCKETS 4096 /* power of two */
#define STRIPES 64   /* divides BUCKETS */

typedef struct node {
  struct node *next;
  uint64_t key;
  mw_req req;
} node;

typedef struct stripe {
  atomic_flag lock;
  node *free; /* recycled nodes */
  uint64_t count;
} stripe;

struct mw_reqtable {
  node *bucket[BUCKETS];
  stripe stripes[STRIPES];
};

static unsigned bucket_of(uint64_t key) {
  /* Fibonacci hashing: MPICH handles differ in their low bits only. */
  return (unsigned)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 52) & (BUCKETS - 1);
}

static stripe *stripe_of(mw_reqtable *t, unsigned b) { return &t->stripes[b % STRIPES]; }

/* A stripe is held for a few dozen instructions and threads rarely meet on
   one, so a test-and-set lock beats a mutex: one locked instruction to take
   it and a plain store to release it, against two locked instructions
   (every Isend, Irecv and completion takes the lock once). A thread that
   finds it taken yields now and then, in case the holder was preempted. */
static void lock(stripe *s) {
  for (unsigned spins = 1; atomic_flag_test_and_set_explicit(&s->lock, memory_order_acquire);
       spins++)
    if (spins % 64 == 0) sched_yield();
}

static void unlock(stripe *s) { atomic_flag_clear_explicit(&s->lock, memory_order_release); }

mw_reqtable *mw_reqtable_new(void) {
  mw_reqtable *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  for (int i = 0; i < STRIPES; i++) atomic_flag_clear(&t->stripes[i].lock);
  return t;
}

static void free_list(node *n) {
  while (n) {
    node *next = n->next;
    free(n);
    n = next;
  }
}

void mw_reqtable_free(mw_reqtable *t) {
  if (!t) return;
  for (int b = 0; b < BUCKETS; b++) free_list(t->bucket[b]);
  for (int i = 0; i < STRIPES; i++) free_list(t->stripes[i].free);
  free(t);
}

void mw_reqtable_put(mw_reqtable *t, uint64_t key, const mw_req *r) {
  unsigned b = bucket_of(key);
  stripe *s = stripe_of(t, b);
  lock(s);
  node *n = s->free;
  if (n) s->free = n->next;
  else if (!(n = malloc(sizeof *n))) {
    /* Out of memory: the request goes unrecorded rather than the program
       dying inside MPI; its completion then finds no entry. */
    unlock(s);
    return;
  }
  n->next = NULL;
  n->key = key;
  n->req = *r;
  node **tail = &t->bucket[b]; /* append: entries of a key stay FIFO */
  while (*tail) tail = &(*tail)->next;
  *tail = n;
  s->count++;
  unlock(s);
}

/* initial-exec: a plain %fs-relative address instead of a __tls_get_addr
   call (libpomp-mpi is linked or preloaded at start-up, not dlopen'ed). */
static _Thread_local char self __attribute__((tls_model("initial-exec")));

uintptr_t mw_reqtable_thread(void) {
  return (uintptr_t)&self; /* its address tells threads apart */
}

/* The link pointing at owner's oldest node of key, else at key's oldest,
   or NULL; caller holds the lock. */
static node **lookup(mw_reqtable *t, unsigned b, uint64_t key, uintptr_t owner) {
  node **first = NULL;
  for (node **p = &t->bucket[b]; *p; p = &(*p)->next)
    if ((*p)->key == key) {
      if (!owner || (*p)->req.owner == owner) return p;
      if (!first) first = p;
    }
  return first;
}

/* Unlinks *p onto the stripe's free list; caller holds the lock. */
static void unlink_node(stripe *s, node **p) {
  node *n = *p;
  *p = n->next;
  n->next = s->free;
  s->free = n;
  s->count--;
}

/* Runs op on the node lookup() picks, under its stripe's lock; 0 if key
   has none. Every lookup below is one of these ops. */
typedef void (*node_op)(stripe *s, node **p, mw_req *io, void (*fn)(mw_req *, void *), void *arg);

static int with_entry(mw_reqtable *t, uint64_t key, uintptr_t owner, node_op op, mw_req *io,
                      void (*fn)(mw_req *, void *), void *arg) {
  unsigned b = bucket_of(key);
  stripe *s = stripe_of(t, b);
  lock(s);
  node **p = lookup(t, b, key, owner);
  if (p) op(s, p, io, fn, arg);
  unlock(s);
  return p != NULL;
}

static void op_take(stripe *s, node **p, mw_req *out, void (*fn)(mw_req *, void *), void *arg) {
  (void)fn, (void)arg;
  if (out) *out = (*p)->req;
  unlink_node(s, p);
}

static void op_finish(stripe *s, node **p, mw_req *out, void (*fn)(mw_req *, void *), void *arg) {
  (void)fn, (void)arg;
  *out = (*p)->req;
  if ((*p)->req.persistent) (*p)->req.active = 0;
  else unlink_node(s, p);
}

static void op_find(stripe *s, node **p, mw_req *out, void (*fn)(mw_req *, void *), void *arg) {
  (void)s, (void)fn, (void)arg;
  if (out) *out = (*p)->req;
}

static void op_update(stripe *s, node **p, mw_req *unused, void (*fn)(mw_req *, void *),
                      void *arg) {
  (void)s, (void)unused;
  fn(&(*p)->req, arg);
}

int mw_reqtable_take(mw_reqtable *t, uint64_t key, uintptr_t owner, mw_req *out) {
  return with_entry(t, key, owner, op_take, out, NULL, NULL);
}

int mw_reqtable_finish(mw_reqtable *t, uint64_t key, uintptr_t owner, mw_req *out) {
  return with_entry(t, key, owner, op_finish, out, NULL, NULL);
}

int mw_reqtable_find(mw_reqtable *t, uint64_t key, uintptr_t owner, mw_req *out) {
  return with_entry(t, key, owner, op_find, out, NULL, NULL);
}

int mw_reqtable_update(mw_reqtable *t, uint64_t key, uintptr_t owner,
                       void (*fn)(mw_req *r, void *arg), void *arg) {
  return with_entry(t, key, owner, op_update, NULL, fn, arg);
}

uint64_t mw_reqtable_count(mw_reqtable *t) {
  uint64_t total = 0;
  for (int i = 0; i < STRIPES; i++) {
    lock(&t->stripes[i]);
    total += t->stripes[i].count;
    unlock(&t->stripes[i]);
  }
  return total;
}
