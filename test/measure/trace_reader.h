/*
 * trace_reader.h -- reads an OTF2 trace back for the tests: per location,
 * its events as text lines ("Enter !$omp for @a.c:3", "ThreadAcquireLock
 * 0 1", ...) in file order, so tests compare whole sequences exactly.
 * Timestamps are not in the text; the reader counts decreasing ones.
 */
#ifndef TRACE_READER_H
#define TRACE_READER_H

#include <stddef.h>
#include <stdint.h>

#include <otf2/otf2.h>

typedef struct tr_location {
  uint64_t id;
  char *name;
  uint64_t declared_events; /* Location definition's count */
  char **events;
  uint64_t *times;
  size_t nevents, cap;
  size_t decreasing; /* timestamps smaller than their predecessor */
} tr_location;

typedef struct tr_trace {
  tr_location *locs;
  size_t nlocs;
  uint64_t nregions, ncomms;
  char **region_names;
  char **region_files; /* by region id */
  int *region_roles, *region_paradigms;
  uint32_t *region_lines; /* begin lines */
} tr_trace;

/* Reads archive (path of traces.otf2); 0, or -1 with a message on stderr. */
int tr_read(const char *archive, tr_trace *t);
void tr_free(tr_trace *t);

/* The location with this id, or NULL. */
tr_location *tr_location_by_id(tr_trace *t, uint64_t id);
/* Events i..j-1 of l joined with '\n' (each line ends with '\n'); malloc'd. */
char *tr_join(const tr_location *l, size_t from, size_t to);
/* How many events of l equal line exactly. */
size_t tr_count(const tr_location *l, const char *line);

#endif /* TRACE_READER_H */
