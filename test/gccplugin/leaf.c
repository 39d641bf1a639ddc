/* leaf.c -- C for the GCC plugin tests: a straight-line leaf called in a
   loop (not recorded unless --all-functions), a function with a loop, and
   one the compile-time filter excludes (no hook calls in its code at all). */
#include <stdio.h>

__attribute__((noinline)) double mix(double a, double b) { return a * 0.75 + b * 0.25; }

__attribute__((noinline)) double smooth(const double *x, int n) {
  double s = 0;
  for (int i = 1; i < n; i++) s += mix(x[i - 1], x[i]);
  return s;
}

__attribute__((noinline)) double excluded_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  return s;
}

int main(void) {
  double x[100];
  for (int i = 0; i < 100; i++) x[i] = i;
  double s = 0;
  for (int k = 0; k < 5; k++) {
    x[0] = k; /* new input each time: the calls cannot be hoisted */
    s += smooth(x, 100) + excluded_sum(x, 100);
  }
  printf("s=%.2f\n", s);
  return 0;
}
