/* test_reqtable.c -- the request table of libpomp-mpi: per-handle FIFO,
   the issuing thread's entry first, in-place update, counts, and many
   threads putting and taking at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>

#include "mw_reqtable.h"

static void test_take_missing_key(void **state) {
  (void)state;
  mw_reqtable *t = mw_reqtable_new();
  mw_req r;
  assert_int_equal(mw_reqtable_take(t, 42, 0, &r), 0);
  assert_int_equal(mw_reqtable_find(t, 42, 0, &r), 0);
  assert_int_equal(mw_reqtable_count(t), 0);
  mw_reqtable_free(t);
}

/* MPICH may hand out one handle for several requests: oldest first. */
static void test_same_handle_is_fifo(void **state) {
  (void)state;
  mw_reqtable *t = mw_reqtable_new();
  for (uint64_t id = 1; id <= 3; id++) {
    mw_req r = {.id = id, .kind = MW_REQ_SEND};
    mw_reqtable_put(t, 0x2c000000, &r);
  }
  mw_req other = {.id = 99, .kind = MW_REQ_RECV};
  mw_reqtable_put(t, 0x2c000001, &other);
  assert_int_equal(mw_reqtable_count(t), 4);
  mw_req r;
  assert_int_equal(mw_reqtable_find(t, 0x2c000000, 0, &r), 1);
  assert_int_equal(r.id, 1);
  for (uint64_t id = 1; id <= 3; id++) {
    assert_int_equal(mw_reqtable_take(t, 0x2c000000, 0, &r), 1);
    assert_int_equal(r.id, id);
  }
  assert_int_equal(mw_reqtable_take(t, 0x2c000000, 0, &r), 0);
  assert_int_equal(mw_reqtable_take(t, 0x2c000001, 0, &r), 1);
  assert_int_equal(r.id, 99);
  assert_int_equal(r.kind, MW_REQ_RECV);
  assert_int_equal(mw_reqtable_count(t), 0);
  mw_reqtable_free(t);
}

static void bump(mw_req *r, void *arg) {
  r->id += *(uint64_t *)arg;
  r->active = 1;
}

static void test_update_changes_oldest_only(void **state) {
  (void)state;
  mw_reqtable *t = mw_reqtable_new();
  mw_req a = {.id = 10, .persistent = 1}, b = {.id = 20};
  mw_reqtable_put(t, 7, &a);
  mw_reqtable_put(t, 7, &b);
  uint64_t by = 5;
  assert_int_equal(mw_reqtable_update(t, 7, 0, bump, &by), 1);
  assert_int_equal(mw_reqtable_update(t, 8, 0, bump, &by), 0);
  mw_req r;
  assert_int_equal(mw_reqtable_take(t, 7, 0, &r), 1);
  assert_int_equal(r.id, 15);
  assert_int_equal(r.active, 1);
  assert_int_equal(r.persistent, 1);
  assert_int_equal(mw_reqtable_take(t, 7, 0, &r), 1);
  assert_int_equal(r.id, 20);
  assert_int_equal(r.active, 0);
  mw_reqtable_free(t);
}

/* A completion removes an ordinary request, keeps a persistent one. */
static void test_finish(void **state) {
  (void)state;
  mw_reqtable *t = mw_reqtable_new();
  mw_req once = {.id = 1, .active = 1}, again = {.id = 2, .active = 1, .persistent = 1};
  mw_reqtable_put(t, 5, &once);
  mw_reqtable_put(t, 6, &again);
  mw_req r;
  assert_int_equal(mw_reqtable_finish(t, 5, 0, &r), 1);
  assert_int_equal(r.id, 1);
  assert_int_equal(r.active, 1);
  assert_int_equal(mw_reqtable_find(t, 5, 0, &r), 0);
  assert_int_equal(mw_reqtable_finish(t, 6, 0, &r), 1);
  assert_int_equal(r.active, 1); /* as it was when it completed */
  assert_int_equal(mw_reqtable_finish(t, 6, 0, &r), 1);
  assert_int_equal(r.active, 0); /* now inactive: completes empty */
  assert_int_equal(r.id, 2);
  assert_int_equal(mw_reqtable_count(t), 1);
  assert_int_equal(mw_reqtable_finish(t, 7, 0, &r), 0);
  mw_reqtable_free(t);
}

/* One handle held by requests of several threads (MPICH's shared handle
   of sends that completed at once): each lookup acts on the asking
   thread's oldest entry, and on the handle's oldest when it has none. */
static void test_owner_first(void **state) {
  (void)state;
  mw_reqtable *t = mw_reqtable_new();
  const uintptr_t a = 0x1000, b = 0x2000, c = 0x3000;
  const uint64_t h = 0x6c000001;
  mw_req ra1 = {.id = 1, .owner = a}, rb = {.id = 2, .owner = b}, ra2 = {.id = 3, .owner = a},
         rb2 = {.id = 4, .owner = b};
  mw_reqtable_put(t, h, &ra1);
  mw_reqtable_put(t, h, &rb);
  mw_reqtable_put(t, h, &ra2);
  mw_reqtable_put(t, h, &rb2);
  mw_req r;
  assert_int_equal(mw_reqtable_find(t, h, b, &r), 1);
  assert_int_equal(r.id, 2);
  assert_int_equal(mw_reqtable_finish(t, h, b, &r), 1);
  assert_int_equal(r.id, 2);
  uint64_t by = 10;
  assert_int_equal(mw_reqtable_update(t, h, b, bump, &by), 1); /* 4 -> 14 */
  assert_int_equal(mw_reqtable_finish(t, h, a, &r), 1);
  assert_int_equal(r.id, 1);
  /* c issued none of them: it completes the oldest (another thread's) */
  assert_int_equal(mw_reqtable_take(t, h, c, &r), 1);
  assert_int_equal(r.id, 3);
  assert_int_equal(mw_reqtable_take(t, h, a, &r), 1); /* a has none left */
  assert_int_equal(r.id, 14);
  assert_int_equal(r.owner, b);
  assert_int_equal(mw_reqtable_count(t), 0);
  mw_reqtable_free(t);
}

static void *thread_id(void *out) {
  *(uintptr_t *)out = mw_reqtable_thread();
  return NULL;
}

static void test_thread_identity(void **state) {
  (void)state;
  uintptr_t mine = mw_reqtable_thread(), other = 0;
  assert_true(mine != 0);
  assert_int_equal(mw_reqtable_thread(), mine);
  pthread_t tid;
  pthread_create(&tid, NULL, thread_id, &other);
  pthread_join(tid, NULL);
  assert_true(other != 0);
  assert_true(other != mine);
}

/* More live entries than buckets, and removal with a NULL out. */
static void test_many_entries(void **state) {
  (void)state;
  mw_reqtable *t = mw_reqtable_new();
  for (uint64_t k = 0; k < 20000; k++) {
    mw_req r = {.id = k + 1, .peer = (uint32_t)(k % 7)};
    mw_reqtable_put(t, k * 4 + 0x84000000u, &r);
  }
  assert_int_equal(mw_reqtable_count(t), 20000);
  for (uint64_t k = 0; k < 20000; k += 2)
    assert_int_equal(mw_reqtable_take(t, k * 4 + 0x84000000u, 0, NULL), 1);
  assert_int_equal(mw_reqtable_count(t), 10000);
  for (uint64_t k = 1; k < 20000; k += 2) {
    mw_req r;
    assert_int_equal(mw_reqtable_take(t, k * 4 + 0x84000000u, 0, &r), 1);
    assert_int_equal(r.id, k + 1);
    assert_int_equal(r.peer, k % 7);
  }
  assert_int_equal(mw_reqtable_count(t), 0);
  mw_reqtable_free(t);
}

/* Threads of an MPI_THREAD_MULTIPLE program each put and take their own
   requests; keys of different threads share buckets and stripes. */
enum { THREADS = 4, PER_THREAD = 5000 };
typedef struct {
  mw_reqtable *t;
  int thread;
  int mismatches;
} worker_arg;

static void *worker(void *p) {
  worker_arg *a = p;
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < PER_THREAD; i++) {
      mw_req r = {.id = (uint64_t)a->thread << 32 | (uint64_t)i};
      mw_reqtable_put(a->t, (uint64_t)(i * THREADS + a->thread), &r);
    }
    for (int i = PER_THREAD - 1; i >= 0; i--) {
      mw_req r;
      if (!mw_reqtable_take(a->t, (uint64_t)(i * THREADS + a->thread), 0, &r) ||
          r.id != ((uint64_t)a->thread << 32 | (uint64_t)i))
        a->mismatches++;
    }
  }
  return NULL;
}

/* Every thread issues two requests under one shared handle and completes
   them, as the threads of an MPI_THREAD_MULTIPLE program exchanging small
   messages do: each must get back its own requests, in its own order,
   however the threads interleave. */
static void *shared_handle_worker(void *p) {
  worker_arg *a = p;
  uintptr_t self = mw_reqtable_thread();
  for (int i = 0; i < PER_THREAD; i++) {
    uint64_t first = (uint64_t)a->thread << 32 | (uint64_t)(2 * i);
    mw_req r1 = {.id = first, .owner = self}, r2 = {.id = first + 1, .owner = self};
    mw_reqtable_put(a->t, 0x6c000001, &r1);
    mw_reqtable_put(a->t, 0x6c000001, &r2);
    for (uint64_t k = 0; k < 2; k++) {
      mw_req r;
      if (!mw_reqtable_finish(a->t, 0x6c000001, self, &r) || r.id != first + k) a->mismatches++;
    }
  }
  return NULL;
}

static void run_workers(void *(*fn)(void *)) {
  mw_reqtable *t = mw_reqtable_new();
  pthread_t tid[THREADS];
  worker_arg args[THREADS];
  for (int i = 0; i < THREADS; i++) {
    args[i] = (worker_arg){t, i, 0};
    pthread_create(&tid[i], NULL, fn, &args[i]);
  }
  for (int i = 0; i < THREADS; i++) {
    pthread_join(tid[i], NULL);
    assert_int_equal(args[i].mismatches, 0);
  }
  assert_int_equal(mw_reqtable_count(t), 0);
  mw_reqtable_free(t);
}

static void test_threads_shared_handle(void **state) {
  (void)state;
  run_workers(shared_handle_worker);
}

static void test_threads(void **state) {
  (void)state;
  run_workers(worker);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_take_missing_key),
      cmocka_unit_test(test_same_handle_is_fifo),
      cmocka_unit_test(test_update_changes_oldest_only),
      cmocka_unit_test(test_finish),
      cmocka_unit_test(test_owner_first),
      cmocka_unit_test(test_thread_identity),
      cmocka_unit_test(test_many_entries),
      cmocka_unit_test(test_threads),
      cmocka_unit_test(test_threads_shared_handle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
