/* progress.c -- the progress bar pomp-analyze draws on stderr (a
   terminal) while it replays the trace. */
#include <stdio.h>
#include <string.h>

#include "az_progress.h"
#include "pomp_util.h"

void az_progress_draw(az_analysis *a) {
  uint64_t total = a->defs.total_events ? a->defs.total_events : 1;
  uint64_t done = a->events_read < total ? a->events_read : total;
  int width = 40, fill = (int)(done * (uint64_t)width / total);
  fprintf(stderr, "\r%s: [%.*s%*s] %3d%%", pu_progname(), fill,
          "########################################", width - fill, "", (int)(done * 100 / total));
  fflush(stderr);
}

void az_progress_done(az_analysis *a) {
  if (a->progress) fprintf(stderr, "\r%*s\r", 60 + (int)strlen(pu_progname()), "");
}
