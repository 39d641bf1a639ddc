/* Directives in headers: a user header's inline function is instrumented
   (its file and line in the descriptor), a system header's is not; lock
   calls of the user's own code are. */
#include <stdio.h>
#include <omp.h>
#include "inline_par.h"
#include <sys_par.h>

int main(void) {
  int a[4];
  omp_lock_t l;
  omp_init_lock(&l);
  fill(a, 4);
  int k = sys_count(&l);
  omp_set_lock(&l);
  omp_unset_lock(&l);
  omp_destroy_lock(&l);
  printf("%d %d\n", a[3], k > 0);
  return 0;
}
