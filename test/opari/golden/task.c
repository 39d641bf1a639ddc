/* task: create_begin/create_end around it on the creating thread,
   begin/end inside; default(none) gets the descriptor table shared. */
int fib(int n) {
  int a, b;
  if (n < 2) return n;
#pragma omp task shared(a) firstprivate(n) default(none)
  a = fib(n - 1);
#pragma omp task shared(b) if(n > 20)
  {
    b = fib(n - 2);
  }
#pragma omp taskwait
  return a + b;
}
