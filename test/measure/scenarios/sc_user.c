/* sc_user.c -- user functions (compiled with -finstrument-functions),
   user regions (#pragma pomp inst begin/end) and POMP_Off/On. With the
   argument "off", the second call of outer() runs switched off. */
#include <stdio.h>
#include <string.h>

#include "sc.h"

DESCR(phase, "region", "phase", "sc_user.c", 10, 20);

int helper(int x); /* first function of sc_user_helper.c, the second unit */
__attribute__((noinline)) static int inner(int x) { return helper(x) * 2; }
__attribute__((noinline)) int outer(int x) { return inner(x) + inner(x + 1); }

int main(int argc, char **argv) {
  int off = argc > 1 && !strcmp(argv[1], "off");
  POMP_Begin(&phase);
  int r = outer(1);
  POMP_End(&phase);
  if (off) POMP_Off();
  r += outer(2);
  if (off) POMP_On();
  r += helper(0);
  printf("r=%d\n", r);
  return 0;
}
