/* Declarative and stand-alone directives pass silently; a `cancellation
   point for` keeps its loop without nowait (clang rejects nowait there). */
#pragma omp requires atomic_default_mem_order(seq_cst)
int counter;
#pragma omp threadprivate(counter)
#pragma omp declare simd uniform(a)
int twice(int a, int i);
#pragma omp declare reduction(mymax : int : omp_out = omp_in > omp_out ? omp_in : omp_out) \
    initializer(omp_priv = 0)
int decl(int n) {
  int m = 0, i;
#pragma omp parallel for copyin(counter) reduction(mymax : m) proc_bind(close)
  for (i = 0; i < n; i++) {
    m = i;
#pragma omp cancellation point for
  }
#pragma omp parallel
  {
#pragma omp taskyield
    counter++;
  }
  return m;
}
