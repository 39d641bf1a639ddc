// opari: --pomp-disable=critical,locks,atomic
/* --pomp-disable: the disabled constructs and lock calls pass unchanged. */
#include <omp.h>
void d(omp_lock_t *l, int *x) {
#pragma omp parallel
  {
#pragma omp critical
    (*x)++;
#pragma omp atomic
    (*x)++;
    omp_set_lock(l);
    omp_unset_lock(l);
  }
}
