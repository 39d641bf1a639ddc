// opari: --loops
/* Loops as regions: every way out of an instrumented loop leaves it
   (the log must show balanced Loop_enter/Loop_exit with exact counts). */
#include <stdio.h>

static int total;
static int work(int i) { return total += i % 7; }

static int find(int n, int target) {
  for (int i = 0; i < n; i++) {
    work(i);
    if (i == target) return work(i) + 1000; /* return: expression, then leave */
  }
  return -1;
}

static int nested(int n) {
  int found = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      work(j);
      if (j == 2) continue;
      if (i * j == 6) goto out; /* goto out of two loops */
      for (int k = 0; k < 2; k++) work(k + j); /* depth 3: not instrumented */
    }
  }
out:
  found = total;
  return found;
}

static void exits(int n) {
  int i = 0;
  while (i < n) {
    work(i);
    if (i++ == 3) break; /* break */
  }
  do {
    work(i);
    work(i + 1);
    i--;
  } while (i > 0);
  for (int j = 0; j < n; j++) {
    switch (j) {
    case 1: continue; /* continue of this loop through a switch */
    case 2: break;
    default: work(j); work(j * 2);
    }
  }
  int skip = 0;
  for (int j = 0; j < n; j++) skip += j; /* no call: not instrumented */
  for (int j = 0; j < n; j++) work(j);   /* tiny body: not instrumented */
  printf("skip %d\n", skip);
}

int main(void) {
  printf("find %d\n", find(10, 4));
  printf("find %d\n", find(3, 4));
  printf("nested %d\n", nested(5));
  exits(5);
  long sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 8; i++) sum += i; /* worksharing: an OpenMP region */
  printf("sum %ld total %d\n", sum, total);
  return 0;
}
