/* master, critical (unnamed, named, with hint), atomic (also a capture
   block), barrier, flush, taskwait, ordered (block; depend is passed). */
#include <omp.h>
int t(int n) {
  int x = 0, v, i;
#pragma omp parallel private(v)
  {
#pragma omp master
    x++;
#pragma omp critical
    x++;
#pragma omp critical(update) hint(omp_sync_hint_contended)
    {
      x += 2;
    }
#pragma omp atomic update
    x += 1;
#pragma omp atomic capture
    { v = x; x++; }
#pragma omp barrier
#pragma omp flush(x)
#pragma omp taskwait
#pragma omp for ordered(1)
    for (i = 1; i < n; i++) {
#pragma omp ordered depend(sink: i - 1)
      x += v;
#pragma omp ordered depend(source)
    }
  }
  return x;
}
