/* single: nowait plus explicit barrier, except with copyprivate (where
   nowait is illegal) or an existing nowait. */
int s(void) {
  int x = 0, y;
#pragma omp parallel private(y)
  {
#pragma omp single
    x++;
#pragma omp single copyprivate(y)
    y = 3;
#pragma omp single nowait
    { x += y; }
  }
  return x;
}
