/* az_progress.h -- the progress bar on stderr while the trace is
   replayed (progress.c).  Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_PROGRESS_H
#define POMP_AZ_PROGRESS_H

#include "az.h"

/* Redraws the bar: a->events_read of a->defs.total_events. */
void az_progress_draw(az_analysis *a);
/* Clears it (when a->progress). */
void az_progress_done(az_analysis *a);

#endif
