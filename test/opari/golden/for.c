/* for: enter/exit, nowait added with an explicit barrier unless nowait is
   already there; unbraced nested loops end after the innermost body. */
void f(int n, double *x, double (*m)[8]) {
  int i, j;
#pragma omp parallel private(j)
  {
#pragma omp for schedule(dynamic, 4) reduction(+: x[0])
    for (i = 0; i < n; i++)
      for (j = 0; j < 8; j++)
        x[0] += m[i][j];
#pragma omp for nowait
    for (i = 0; i < n; i++) { x[i] = 0; }
#pragma omp for collapse(2)
    for (i = 0; i < n; i++)
      for (j = 0; j < 8; j++) m[i][j] = i * j;
  }
}
