/* One region with every synchronisation construct; thread 0 is made to
   reach the single first (the others wait for a flag it sets inside), so
   every thread's event sequence is deterministic. */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int go;

int main(void) {
  int n = 1000, i, sum = 0, crit = 0, locked = 0, at = 0, single_val = 0, ord = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel num_threads(4)
  {
    if (omp_get_thread_num() != 0)
      while (!atomic_load(&go)) continue;
#pragma omp single
    {
      single_val = 42;
      atomic_store(&go, 1);
    }
#pragma omp for schedule(static) reduction(+:sum)
    for (i = 0; i < n; i++) sum += i;
#pragma omp critical(acc)
    crit++;
#pragma omp atomic
    at++;
    omp_set_lock(&lock);
    locked++; /* crit is the critical section's: one counter under both raced */
    omp_unset_lock(&lock);
#pragma omp barrier
#pragma omp master
    printf("master sees crit=%d\n", crit + locked);
#pragma omp for ordered schedule(static, 1)
    for (i = 0; i < 4; i++) {
#pragma omp ordered
      ord = ord * 10 + i;
    }
#pragma omp flush
  }
  omp_destroy_lock(&lock);
#pragma omp parallel for num_threads(4) reduction(+:sum)
  for (i = 0; i < 8; i++) sum += 1;
  printf("sum=%d crit=%d at=%d single=%d ord=%d\n", sum, crit + locked, at, single_val, ord);
  return 0;
}
