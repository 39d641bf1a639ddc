/* Pragmas in comments, strings, continued strings, #if 0 and dead #else
   arms are not instrumented; _Pragma is. */
#include <stdio.h>
/* #pragma omp parallel */
// #pragma omp parallel \
   #pragma omp parallel (still a comment)
const char *s = "#pragma omp parallel";
const char *c = "a\
#pragma omp parallel";
int lx(int n) {
#if 0
#pragma omp parallel
  { unbalanced
#endif
#if 1
#pragma omp parallel
  n++;
#else
#pragma omp parallel
  { also unbalanced
#endif
#ifdef SOMETHING
#pragma omp parallel
  n++;
#else
#pragma omp parallel
  n--;
#endif
  _Pragma("omp parallel for num_threads(2)") for (int i = 0; i < n; i++) n += 0;
  _Pragma("omp barrier")
  return n + (int)'#';
}
