/* pm_omp_lock.c -- the POMP twins of the OpenMP lock API (pomp.h): each
   calls the OpenMP routine inside an Enter/Leave of a region named after
   it; set/test record the acquisition after the lock is held, unset the
   release before it is given up (docs/TRACE.md, Score-P's order). */
#include <omp.h>
#include <stdatomic.h>

#include "pm_pomp.h"

enum api { INIT, DESTROY, SET, UNSET, TEST, NINIT, NDESTROY, NSET, NUNSET, NTEST, NAPI };
static const char *const api_names[NAPI] = {
    "omp_init_lock",       "omp_destroy_lock",   "omp_set_lock",          "omp_unset_lock",
    "omp_test_lock",       "omp_init_nest_lock", "omp_destroy_nest_lock", "omp_set_nest_lock",
    "omp_unset_nest_lock", "omp_test_nest_lock"};
static _Atomic uint32_t api_regions[NAPI]; /* region id + 1 */

static uint32_t api_region(enum api a) {
  uint32_t v = atomic_load_explicit(&api_regions[a], memory_order_acquire);
  if (PM_LIKELY(v)) return v - 1;
  uint32_t id =
      pm_region_define(api_names[a], NULL, 0, 0, OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_FUNCTION);
  atomic_store_explicit(&api_regions[a], id + 1, memory_order_release);
  return id;
}

/* Enter of the API region; returns the location (NULL: not measuring). */
static pm_location *api_enter(enum api a) {
  pm_location *l = pm_self();
  if (l) pm_ev_enter(l, api_region(a), pm_clock());
  return l;
}

static void api_leave(pm_location *l, enum api a, uint64_t t) {
  if (l) pm_ev_leave(l, api_region(a), t);
}

/* Init and destroy: a fresh lock id at init (the address may be reused). */
#define INIT_DESTROY(type, init_fn, destroy_fn, omp_init, omp_destroy, a_init, a_destroy)          \
  void init_fn(type *s) {                                                                          \
    pm_location *l = api_enter(a_init);                                                            \
    omp_init(s);                                                                                   \
    pm_lock_variable(s, 1);                                                                        \
    api_leave(l, a_init, pm_clock());                                                              \
  }                                                                                                \
  void destroy_fn(type *s) {                                                                       \
    pm_location *l = api_enter(a_destroy);                                                         \
    omp_destroy(s);                                                                                \
    api_leave(l, a_destroy, pm_clock());                                                           \
  }

INIT_DESTROY(omp_lock_t, POMP_Init_lock, POMP_Destroy_lock, omp_init_lock, omp_destroy_lock, INIT,
             DESTROY)
INIT_DESTROY(omp_nest_lock_t, POMP_Init_nest_lock, POMP_Destroy_nest_lock, omp_init_nest_lock,
             omp_destroy_nest_lock, NINIT, NDESTROY)

void POMP_Set_lock(omp_lock_t *s) {
  pm_location *l = api_enter(SET);
  omp_set_lock(s);
  uint64_t t = pm_clock();
  pm_lock_acquired(l, pm_lock_variable(s, 0), t);
  api_leave(l, SET, t);
}

void POMP_Unset_lock(omp_lock_t *s) {
  pm_location *l = api_enter(UNSET);
  pm_lock_released(l, pm_lock_variable(s, 0), pm_clock());
  omp_unset_lock(s);
  api_leave(l, UNSET, pm_clock());
}

int POMP_Test_lock(omp_lock_t *s) {
  pm_location *l = api_enter(TEST);
  int got = omp_test_lock(s);
  uint64_t t = pm_clock();
  if (got) pm_lock_acquired(l, pm_lock_variable(s, 0), t);
  api_leave(l, TEST, t);
  return got;
}

/* Nest locks: only the outermost set/unset of the owner acquires and
   releases the lock; inner ones just change the nesting depth. */
static void nest_acquired(pm_location *l, omp_nest_lock_t *s, uint64_t t) {
  pm_lock *k = pm_lock_variable(s, 0);
  if (k->depth++ == 0) pm_lock_acquired(l, k, t);
}

void POMP_Set_nest_lock(omp_nest_lock_t *s) {
  pm_location *l = api_enter(NSET);
  omp_set_nest_lock(s);
  uint64_t t = pm_clock();
  nest_acquired(l, s, t);
  api_leave(l, NSET, t);
}

void POMP_Unset_nest_lock(omp_nest_lock_t *s) {
  pm_location *l = api_enter(NUNSET);
  pm_lock *k = pm_lock_variable(s, 0);
  if (k->depth > 0 && --k->depth == 0) pm_lock_released(l, k, pm_clock());
  omp_unset_nest_lock(s);
  api_leave(l, NUNSET, pm_clock());
}

int POMP_Test_nest_lock(omp_nest_lock_t *s) {
  pm_location *l = api_enter(NTEST);
  int depth = omp_test_nest_lock(s);
  uint64_t t = pm_clock();
  if (depth > 0) nest_acquired(l, s, t);
  api_leave(l, NTEST, t);
  return depth;
}
