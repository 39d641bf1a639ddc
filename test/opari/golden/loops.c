// opari: --loops
/* Which loops --loops instruments, and how (C: a cleanup variable). */
void f(int);
void loops(int n, int *a) {
  for (int t = 0; t < n; t++) { /* a time step: instrumented */
    while (n > 100) { f(n); n /= 2; f(n); }
    for (int i = 0; i < n; i++) a[i] = i; /* no call */
  }
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) { f(i); f(j); f(i + j); } /* collapsed: OpenMP's */
#pragma GCC unroll 4
  for (int i = 0; i < n; i++) { f(i); f(i + 1); f(i + 2); }
  if (n) do { f(n); f(n - 1); } while (--n > 0); else f(0);
  for (int i = 0; i < n; i++) {
  again:
    f(i); f(i + 1);
    if (i < 0) goto again; /* a label inside: left alone */
  }
  switch (n) {
  case 0: do { f(n); f(n + 1); case 1: f(n + 2); } while (0); /* Duff's device */
  }
  for (int k = 0; k < 8; ++k) { f(k); f(k + 1); f(k + 2); } /* 8 iterations: left alone */
  for (int k = 0; k <= 0x3; ++k) { f(k); f(k + 1); f(k + 2); } /* 4: left alone */
  for (int k = 0; k <= 16; ++k) { f(k); f(k + 1); f(k + 2); } /* 17 trips: instrumented */
  for (int k = 0; k < 17; ++k) { f(k); f(k + 1); f(k + 2); } /* 17: instrumented */
  for (int k = 0; k < n + 8; ++k) { f(k); f(k + 1); f(k + 2); } /* not a literal: instrumented */
}
