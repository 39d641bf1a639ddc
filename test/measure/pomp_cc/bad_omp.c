int main(void) {
  int x = 0;
#pragma omp parallel
}
