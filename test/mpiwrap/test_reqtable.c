/* test_reqtable.c -- the request table of libpomp-mpi: per-handle FIFO,
   in-place update, counts, and many threads putting and taking at once. */
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
  assert_int_equal(mw_reqtable_take(t, 42, &r), 0);
  assert_int_equal(mw_reqtable_find(t, 42, &r), 0);
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
  assert_int_equal(mw_reqtable_find(t, 0x2c000000, &r), 1);
  assert_int_equal(r.id, 1);
  for (uint64_t id = 1; id <= 3; id++) {
    assert_int_equal(mw_reqtable_take(t, 0x2c000000, &r), 1);
    assert_int_equal(r.id, id);
  }
  assert_int_equal(mw_reqtable_take(t, 0x2c000000, &r), 0);
  assert_int_equal(mw_reqtable_take(t, 0x2c000001, &r), 1);
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
  assert_int_equal(mw_reqtable_update(t, 7, bump, &by), 1);
  assert_int_equal(mw_reqtable_update(t, 8, bump, &by), 0);
  mw_req r;
  assert_int_equal(mw_reqtable_take(t, 7, &r), 1);
  assert_int_equal(r.id, 15);
  assert_int_equal(r.active, 1);
  assert_int_equal(r.persistent, 1);
  assert_int_equal(mw_reqtable_take(t, 7, &r), 1);
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
  assert_int_equal(mw_reqtable_finish(t, 5, &r), 1);
  assert_int_equal(r.id, 1);
  assert_int_equal(r.active, 1);
  assert_int_equal(mw_reqtable_find(t, 5, &r), 0);
  assert_int_equal(mw_reqtable_finish(t, 6, &r), 1);
  assert_int_equal(r.active, 1);   /* as it was when it completed */
  assert_int_equal(mw_reqtable_finish(t, 6, &r), 1);
  assert_int_equal(r.active, 0);   /* now inactive: completes empty */
  assert_int_equal(r.id, 2);
  assert_int_equal(mw_reqtable_count(t), 1);
  assert_int_equal(mw_reqtable_finish(t, 7, &r), 0);
  mw_reqtable_free(t);
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
    assert_int_equal(mw_reqtable_take(t, k * 4 + 0x84000000u, NULL), 1);
  assert_int_equal(mw_reqtable_count(t), 10000);
  for (uint64_t k = 1; k < 20000; k += 2) {
    mw_req r;
    assert_int_equal(mw_reqtable_take(t, k * 4 + 0x84000000u, &r), 1);
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
      if (!mw_reqtable_take(a->t, (uint64_t)(i * THREADS + a->thread), &r) ||
          r.id != ((uint64_t)a->thread << 32 | (uint64_t)i))
        a->mismatches++;
    }
  }
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  mw_reqtable *t = mw_reqtable_new();
  pthread_t tid[THREADS];
  worker_arg args[THREADS];
  for (int i = 0; i < THREADS; i++) {
    args[i] = (worker_arg){t, i, 0};
    pthread_create(&tid[i], NULL, worker, &args[i]);
  }
  for (int i = 0; i < THREADS; i++) {
    pthread_join(tid[i], NULL);
    assert_int_equal(args[i].mismatches, 0);
  }
  assert_int_equal(mw_reqtable_count(t), 0);
  mw_reqtable_free(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_take_missing_key),
      cmocka_unit_test(test_same_handle_is_fifo),
      cmocka_unit_test(test_update_changes_oldest_only),
      cmocka_unit_test(test_finish),
      cmocka_unit_test(test_many_entries),
      cmocka_unit_test(test_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
