/* az_archive.h -- the first steps of every analysis, serial or parallel:
   the trace archive checked and opened, its definitions read, the event
   files' names and how many may be open (archive.c).
   Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_ARCHIVE_H
#define POMP_AZ_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#include "az.h"

/* Resets a, then opens the archive: reader, definitions, empty cells.
   NULL on failure (a->diag says why). */
struct OTF2_Reader_struct *az_open(az_analysis *a, const char *anchor, const az_options *opt);
/* Raises the open-file limit for the event files of `locations`; -1 (and
   a->diag says why) when the system does not allow as many. */
int az_check_open_files(az_analysis *a, size_t locations, const char *anchor);
/* Path of a location's file in the archive ("DIR/traces/0.evt" for ext
   "evt") in buf, for messages and checks. */
const char *az_loc_file(const az_analysis *a, uint64_t id, const char *ext, char *buf, size_t size);
/* throttled.c: the functions the measurement switched off (throttled.txt
   next to the anchor, docs/TRACE.md) as one line, summed over the ranks
   (malloc'd), or NULL when there is no such file; a malformed line is
   warned about. */
char *az_throttled_read(const char *anchor, az_diag *diag);
/* How the program was instrumented: the line of instrumentation.txt next to
   the trace (libpomp writes it from pomp-cc's records, docs/TRACE.md), or
   NULL when there is none. */
char *az_instrumentation_read(const char *anchor);

#endif
