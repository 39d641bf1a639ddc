/* sc_signal.c -- a program that dies: argv[1] = "term" raises SIGTERM,
   "int" SIGINT, "abort" calls abort(), inside an open user region;
   "hold" waits inside it for a signal from outside (a run still going);
   "segv" writes to address 0x10 there (a crash);
   "omp": thread 1 of a team sends SIGTERM to the process while thread 0
   records events as fast as it can. */
#include <omp.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sc.h"

DESCR(work, "region", "work", "sc_signal.c", 5, 6);
DESCR(doomed, "region", "doomed", "sc_signal.c", 7, 8);

DESCR(par, "parallel", "", "sc_signal.c", 9, 20);
DESCR(spin, "region", "spin", "sc_signal.c", 11, 12);

static void die_while_recording(void) {
  POMP_Parallel_fork(&par);
#pragma omp parallel num_threads(2)
  {
    POMP_Parallel_begin(&par);
#pragma omp barrier
    if (omp_get_thread_num() == 1) {
      for (int i = 0; i < 1000; i++) {
        POMP_Begin(&spin);
        POMP_End(&spin);
      }
      kill(getpid(), SIGTERM);
    }
    for (;;) { /* until the signal ends the process */
      POMP_Begin(&spin);
      POMP_End(&spin);
    }
  }
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "term";
  if (!strcmp(how, "omp")) die_while_recording();
  for (int i = 0; i < 3; i++) {
    POMP_Begin(&work);
    POMP_End(&work);
  }
  POMP_Begin(&doomed);
  fflush(stdout);
  if (!strcmp(how, "abort")) abort();
  if (!strcmp(how, "segv")) {
    volatile int *volatile bad = (volatile int *)(uintptr_t)0x10;
    *bad = 1;
  }
  if (!strcmp(how, "hold")) {
    printf("holding\n");
    fflush(stdout);
    for (;;) pause();
  }
  raise(!strcmp(how, "int") ? SIGINT : SIGTERM);
  POMP_End(&doomed);
  return 0;
}
