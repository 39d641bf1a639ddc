/* Lock calls become POMP calls in code, not in comments, strings or when
   the name is not called. */
#include <omp.h>
#include <stdio.h>
void (*keep)(omp_lock_t *) = omp_set_lock;
int l(void) {
  omp_lock_t a;
  omp_nest_lock_t b;
  omp_init_lock(&a); omp_init_nest_lock(&b);
  omp_set_lock(&a);   /* omp_set_lock(&a) */
  puts("omp_unset_lock(&a)");
  omp_unset_lock(&a);
  int r = omp_test_lock(&a) + omp_test_nest_lock(&b);
  omp_set_nest_lock(&b); omp_unset_nest_lock(&b);
  omp_destroy_lock(&a); omp_destroy_nest_lock(&b);
  return r;
}
