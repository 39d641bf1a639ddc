/* a user header: its inline function's directive is instrumented, with
   this file's name and line in the descriptor */
static inline void fill(int *a, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] = 3 * i;
}
