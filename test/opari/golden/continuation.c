/* Multi-line directives with comments; nowait goes before a trailing
   comment, never into it. */
void cont(int n, int *a) {
  int i;
#pragma omp parallel \
    shared(a) /* a comment */ \
    firstprivate(n)
  {
#pragma omp for \
        schedule(guided) // a trailing comment
    for (i = 0; i < n; i++) a[i] = i;
  }
}
