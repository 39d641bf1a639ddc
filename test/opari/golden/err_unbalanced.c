void e(int n) {
#pragma omp parallel
  {
    n++;
  )
}
