void r(int n) {
#ifdef A
#pragma omp parallel
  {
#else
  {
#endif
    n++;
  }
}
