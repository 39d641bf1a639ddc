// opari: --preprocessed
# 1 "app.c"
void f(void) {
#pragma omp barrier
}
