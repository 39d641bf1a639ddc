/* OpenMP 4/5 constructs are passed through (with a warning); nothing is
   instrumented inside target/teams/simd; a `cancel for` inside a loop
   keeps its implicit barrier (no nowait). */
#pragma omp declare target
int dev(int x) {
#pragma omp parallel
  x++;
  return x;
}
#pragma omp end declare target
void o(int n, float *a) {
  int i;
#pragma omp simd
  for (i = 0; i < n; i++) a[i] *= 2;
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (i = 0; i < n; i++) a[i] += 1;
#pragma omp target map(a[0:n])
  {
#pragma omp parallel for
    for (i = 0; i < n; i++) a[i] += 1;
  }
#pragma omp parallel
  {
#pragma omp masked
    a[0] = 0;
#pragma omp for
    for (i = 0; i < n; i++) {
      if (a[i] < 0) {
#pragma omp cancel for
      }
    }
#pragma omp taskloop grainsize(4)
    for (i = 0; i < n; i++) a[i]++;
  }
}
