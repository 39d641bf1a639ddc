/* parallel for: split in place, each clause to its half, expressions
   copied byte for byte (n - -m must not become n--m), continuation
   lines kept, lastprivate made shared in the parallel half under
   default(none). */
int g(int n, int m, int *a) {
  int i, last = 0, s = 0;
#pragma omp parallel for if(parallel: n > 1) num_threads(n - -m) \
        schedule(static) lastprivate(last) collapse(1) reduction(+:s)
  for (i = 0; i < n; i++) { last = a[i]; s += a[i]; }
#pragma omp parallel for default(none) shared(a, n) lastprivate(last) private(i)
  for (i = 0; i < n; i++)
    last = a[i];
#pragma omp parallel for ordered
  for (i = 0; i < n; i++) {
#pragma omp ordered
    s += i;
  }
  return last + s;
}
