/* found through -isystem: a system header, never instrumented (neither
   its directives nor its lock calls) */
#include <omp.h>
static inline int sys_count(omp_lock_t *l) {
  int k = 0;
#pragma omp parallel
  {
    omp_set_lock(l);
    k++;
    omp_unset_lock(l);
  }
  return k;
}
