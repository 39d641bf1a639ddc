void r(int n) {
#pragma omp parallel num_threads(n
  n++;
}
