/* sc_flush.c -- many user-region events, so that a small POMP_BUFFER
   fills up and is flushed to disk while the program runs. argv[1] = the
   number of region visits; argv[2] = "explicit": POMP_Init before and
   POMP_Finalize after them, then as many visits more (not recorded);
   "unwind": each visit enters `inner` inside `step` and leaves only
   `step` (as a longjmp out of inner would), so that libpomp writes both
   Leaves at one time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc.h"

DESCR(step, "region", "step", "sc_flush.c", 5, 6);
DESCR(inner, "region", "inner", "sc_flush.c", 7, 8);

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  int explicit = argc > 2 && !strcmp(argv[2], "explicit");
  int unwind = argc > 2 && !strcmp(argv[2], "unwind");
  if (explicit) POMP_Init();
  for (long i = 0; i < n; i++) {
    POMP_Begin(&step);
    if (unwind) POMP_Begin(&inner);
    POMP_End(&step);
  }
  if (explicit) {
    POMP_Finalize();
    for (long i = 0; i < n; i++) {
      POMP_Begin(&step);
      POMP_End(&step);
    }
  }
  printf("%ld visits\n", n);
  return 0;
}
