void w(int);
void r(void) {
#pragma omp parallel sections
  w(1);
}
