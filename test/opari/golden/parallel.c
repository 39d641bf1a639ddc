/* parallel: fork/begin/explicit barrier/end/join; default(none) needs the
   descriptor table listed as shared. */
int main(void) {
  int a = 0, b = 1;
#pragma omp parallel
  {
    a = 1;
  }
  #pragma omp parallel default(none) shared(a) firstprivate(b) if (a > 0)
  {
#pragma omp atomic
    a += b;
  }
  return a;
}
