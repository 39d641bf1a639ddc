/* parallel master: split into an instrumented parallel (own descriptor)
   and master (own descriptor); parallel masked: the masked half (with
   its filter clause) is passed. */
int pm(int n) {
  int x = 0;
#pragma omp parallel master num_threads(2) default(none) shared(x, n)
  x += n;
#pragma omp parallel masked filter(1) shared(x)
  {
    x++;
  }
  return x;
}
