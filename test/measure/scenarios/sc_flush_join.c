/* sc_flush_join.c -- many short parallel loops (built through pomp-opari),
   so that a small POMP_BUFFER is flushed in the middle of the records a
   join writes at one instant: the implicit barrier's Leave, the loop's,
   the region's, ThreadTeamEnd, ThreadJoin (docs/TRACE.md, "Buffer flush").
   usage: sc_flush_join REGIONS THREADS */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long regions = argc > 1 ? atol(argv[1]) : 20000;
  int threads = argc > 2 ? atoi(argv[2]) : 1;
  long sum = 0;
  for (long r = 0; r < regions; r++) {
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : sum)
    for (int i = 0; i < 4; i++) sum += i;
  }
  printf("sum=%ld\n", sum);
  return 0;
}
