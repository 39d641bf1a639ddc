// omp.h included inside extern "C" and a namespace: the lock calls are
// still replaced (prototypes follow the include there).
extern "C" {
#include <omp.h>
}
namespace app {
void guarded(omp_lock_t *l, int *x) {
  omp_set_lock(l);
  ++*x;
  omp_unset_lock(l);
}
}
