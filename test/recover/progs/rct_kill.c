/* rct_kill.c -- a process without MPI: argv[1] visits of a user region
   (enough for a small POMP_BUFFER to be flushed), then SIGKILL, or, with
   argv[2] = "int", SIGINT (libpomp writes the whole trace as before);
   "stop": SIGSTOP first (the run is still going until it is killed). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "pomp.h"

static OMPRegDescr step = {"region", "step", 0, "rct_kill.c", 11, 11, 12, 12, {0}, 0};

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  for (long i = 0; i < n; i++) {
    POMP_Begin(&step);
    POMP_End(&step);
  }
  const char *how = argc > 2 ? argv[2] : "kill";
  if (!strcmp(how, "stop")) raise(SIGSTOP); /* alive, until killed */
  raise(!strcmp(how, "int") ? SIGINT : SIGKILL);
  return 0;
}
