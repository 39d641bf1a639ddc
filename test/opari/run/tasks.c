/* sections and tasks: who runs what is not deterministic, so the log is
   compared sorted (event counts and descriptors). */
#include <stdio.h>

static int fib(int n) {
  int a, b;
  if (n < 2) return n;
#pragma omp task shared(a) firstprivate(n)
  a = fib(n - 1);
#pragma omp task shared(b) firstprivate(n)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

int main(void) {
  int r = 0, s1 = 0, s2 = 0, s3 = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp single
    r = fib(4);
#pragma omp sections
    {
      s1 = 1;
#pragma omp section
      s2 = 2;
#pragma omp section
      s3 = 3;
    }
  }
  printf("fib=%d sections=%d%d%d\n", r, s1, s2, s3);
  return 0;
}
