/* A worksharing construct that is the last thing in its parallel region
   (the region's statement, or the last statement of its block) gets nowait
   and reports the arrival at the join: one barrier per region. Not last:
   a statement follows, or it sits in an if; a cancelled loop keeps its own. */
void join_last(int n, double *a) {
  double s = 0;
#pragma omp parallel
  {
    a[0] = 1;
#pragma omp for reduction(+:s)
    for (int i = 0; i < n; i++) s += a[i];
  }
#pragma omp parallel
#pragma omp for
  for (int i = 0; i < n; i++) a[i] = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) a[i] = 0;
    a[1] = s;
  }
#pragma omp parallel
  {
    if (n) {
#pragma omp single
      a[2] = 1;
    }
  }
#pragma omp parallel
  {
#pragma omp sections
    {
      a[3] = 1;
#pragma omp section
      a[4] = 1;
    }
  }
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) {
      if (a[i] < 0) {
#pragma omp cancel for
      }
    }
  }
}
