/* sc_signal.c -- a program that dies: argv[1] = "term" raises SIGTERM,
   "int" SIGINT, "abort" calls abort(), inside an open user region. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sc.h"

DESCR(work, "region", "work", "sc_signal.c", 5, 6);
DESCR(doomed, "region", "doomed", "sc_signal.c", 7, 8);

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "term";
  for (int i = 0; i < 3; i++) {
    POMP_Begin(&work);
    POMP_End(&work);
  }
  POMP_Begin(&doomed);
  fflush(stdout);
  if (!strcmp(how, "abort")) abort();
  raise(!strcmp(how, "int") ? SIGINT : SIGTERM);
  POMP_End(&doomed);
  return 0;
}
