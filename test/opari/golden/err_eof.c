void r(void) {
#pragma omp parallel
