/* pm_lock.c -- lock ids and acquisition orders (docs/TRACE.md): one lock
   per critical name and one per lock variable, ids shared, orders counted
   from 1 per lock. The acquisition counter is only touched by the thread
   that holds the lock, but it is atomic so the reader is never torn. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pm_pomp.h"
#include "pomp_unify.h"
#include "pomp_util.h"

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pm_map by_name, by_address;
static pm_lock **locks;
static size_t nlocks, cap_locks;
static uint32_t next_id;

/* Under table_lock: the lock with index idx, created when idx is new. */
static pm_lock *lock_at(uint32_t idx) {
  if (idx == nlocks) {
    pm_lock *k = pu_calloc(1, sizeof *k);
    k->id = next_id++;
    PU_PUSH(locks, nlocks, cap_locks, k);
  }
  return locks[idx];
}

pm_lock *pm_lock_critical(OMPRegDescr *d) {
  uintptr_t v = __atomic_load_n(&d->data[PM_SLOT_EXTRA], __ATOMIC_ACQUIRE);
  if (PM_LIKELY(v != 0)) return (pm_lock *)v;
  const char *name = d->sub_name ? d->sub_name : "";
  pthread_mutex_lock(&table_lock);
  pm_lock *k = lock_at(pm_map_intern(&by_name, name, strlen(name), (uint32_t)nlocks));
  pthread_mutex_unlock(&table_lock);
  __atomic_store_n(&d->data[PM_SLOT_EXTRA], (uintptr_t)k, __ATOMIC_RELEASE);
  return k;
}

pm_lock *pm_lock_variable(const void *address, int fresh) {
  pthread_mutex_lock(&table_lock);
  uint32_t idx = pm_map_intern(&by_address, &address, sizeof address, (uint32_t)nlocks);
  int existed = idx < nlocks;
  pm_lock *k = lock_at(idx);
  if (existed && fresh) { /* the variable was destroyed and initialised again */
    k->id = next_id++;
    atomic_store(&k->acquisitions, 0);
    k->depth = 0;
  }
  pthread_mutex_unlock(&table_lock);
  return k;
}

void pm_lock_acquired(pm_location *l, pm_lock *k, uint64_t t) {
  uint32_t order = atomic_fetch_add(&k->acquisitions, 1) + 1;
  k->holder_order = order;
  if (l) pm_ev_thread(l, PM_EV_ACQUIRE_LOCK, t, k->id, order);
}

void pm_lock_released(pm_location *l, pm_lock *k, uint64_t t) {
  if (l) pm_ev_thread(l, PM_EV_RELEASE_LOCK, t, k->id, k->holder_order);
}
