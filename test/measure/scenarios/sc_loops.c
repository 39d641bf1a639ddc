/* sc_loops.c -- loops as regions (pomp-opari --loops at build time): a
   loop left by break, by return (value computed inside it) and by goto
   out of two loops, a nest, and a short loop run argv[1] times (default
   50) per thread of a team of argv[2] threads (default 1), so that
   POMP_THROTTLE can switch it off. Prints what it computed. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static _Thread_local volatile int sink;
__attribute__((noinline)) static int step(int i) {
  sink = i;
  return i & 3;
}

static int find(int n) {
  for (int i = 0; i < n; i++) { /* loop A: line 17 */
    step(i);
    if (i == 3) return step(i) + 100;
  }
  return -1;
}

static int nest(int n) {
  int hits = 0;
  for (int i = 0; i < n; i++) {   /* loop B: line 26 */
    for (int j = 0; j < n; j++) { /* loop C: line 27 */
      hits += step(j);
      if (j == 4) break;
      if (i == 2 && j == 1) goto out;
    }
  }
out:
  return hits;
}

static long short_loop(int x) {
  long s = 0;
  int k = 0;
  while (k < 2) { /* loop D: line 40, short */
    s += step(x + k);
    k++;
  }
  return s;
}

int main(int argc, char **argv) {
  long reps = argc > 1 ? atol(argv[1]) : 50;
  int threads = argc > 2 ? atoi(argv[2]) : 1;
  printf("find %d nest %d\n", find(10), nest(5));
  long sum = 0;
#pragma omp parallel num_threads(threads) reduction(+ : sum)
  {
    long r = 0;
    while (r < reps) { /* loop E: line 55 */
      sum += short_loop((int)r) & 1;
      r++;
    }
  }
  printf("%ld\n", sum);
  return 0;
}
