// opari: --nosrc
/* --nosrc: no #line directives. */
void z(int *x) {
#pragma omp parallel
  (*x)++;
}
