/* A statement-like macro with a braced body ends with its block: the
   statement after it stays outside the construct. */
#define FOR_EACH(i, n) for (i = 0; i < (n); i++)
struct point { int x, y; };
int m(int n, int *a) {
  int i, y = 0;
#pragma omp parallel for
  FOR_EACH(i, n) {
    a[i] = i;
  }
  y = 1;
#pragma omp single
  y += ((struct point){1, 2}).x;
  return y;
}
