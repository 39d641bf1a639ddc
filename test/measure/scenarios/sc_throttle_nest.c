/* sc_throttle_nest.c -- a function switched off by POMP_THROTTLE while it
   is nested inside another recorded function, around a third, and while
   an outer call of itself is in flight. main calls outer(k) 40 times;
   outer(k) calls mid(2k) and mid(2k+1); mid(x) calls leaf(x) for odd x,
   and mid(49) calls mid(1001) first. With POMP_THROTTLE=50,...: mid's
   50th finished call is mid(1001), inside mid(49) inside outer(24); outer
   (40 calls) and leaf (41) stay below 50. Prints the sum. */
#include <stdio.h>

#define FN __attribute__((noipa)) /* no inlining, cloning or tail calls */

FN int leaf(int x) { return x + 1; }

FN int mid(int x) {
  int s = x;
  if (x == 49) s += mid(1001);
  if (x & 1) s += leaf(x);
  return s;
}

FN int outer(int k) { return mid(2 * k) + mid(2 * k + 1) + 1; }

int main(void) {
  long sum = 0;
  for (int k = 0; k < 40; k++) sum += outer(k);
  printf("%ld\n", sum);
  return 0;
}
