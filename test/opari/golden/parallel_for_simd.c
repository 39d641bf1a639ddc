/* parallel for simd: the simd clauses and the reduction go with `for
   simd`; OPARI2 leaves simd on the parallel half. */
double dot(int n, const double *x, const double *y) {
  double s = 0;
  int i;
#pragma omp parallel for simd reduction(+:s) simdlen(4) aligned(x, y : 32) num_threads(2)
  for (i = 0; i < n; i++)
    s += x[i] * y[i];
#pragma omp for simd
  for (i = 0; i < n; i++)
    s += x[i];
  return s;
}
