/* sc_locks.c -- the OpenMP lock API through its POMP twins: 2 threads take
   a lock 3 times each, one successful test_lock, and a nest lock taken
   twice by the master. */
#include <omp.h>
#include <stdio.h>

#include "sc.h"

DESCR(par, "parallel", "", "sc_locks.c", 10, 30);

int main(void) {
  omp_lock_t lock;
  omp_nest_lock_t nest;
  int count = 0;
  POMP_Init_lock(&lock);
  POMP_Parallel_fork(&par);
#pragma omp parallel num_threads(2)
  {
    POMP_Parallel_begin(&par);
    for (int i = 0; i < 3; i++) {
      POMP_Set_lock(&lock);
      count++;
      POMP_Unset_lock(&lock);
    }
    POMP_Parallel_end(&par);
  }
  POMP_Parallel_join(&par);
  if (POMP_Test_lock(&lock)) POMP_Unset_lock(&lock);
  POMP_Destroy_lock(&lock);
  POMP_Init_nest_lock(&nest);
  POMP_Set_nest_lock(&nest);
  POMP_Set_nest_lock(&nest);
  POMP_Unset_nest_lock(&nest);
  POMP_Unset_nest_lock(&nest);
  POMP_Destroy_nest_lock(&nest);
  printf("count=%d\n", count);
  return 0;
}
