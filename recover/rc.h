/*
 * rc.h -- internals of pomp-recover-core: the fragments of an experiment
 * (rc_fragments.c) and the archive written from them (rc_archive.c).
 */
#ifndef RC_H
#define RC_H

#include <stddef.h>
#include <stdint.h>

#include "pomp_unify.h"
#include "pomp_util.h"

/* One rank's fragment, read and checked. */
typedef struct rc_rank {
  int present;
  char path[PU_TMP_PATH_MAX];
  unsigned char *bytes; /* the whole file; frag points into it */
  size_t size;
  pm_frag frag;
  uint64_t events;                /* a partial rank: events on disk, counted by recovery */
  uint64_t first_time, last_time; /* a partial rank: its first and last event kept */
} rc_rank;

/* The first and last event time of one event file (0: unknown). */
typedef struct rc_times {
  uint64_t first, last;
} rc_times;

typedef struct rc_set {
  const char *dir;
  uint32_t nranks, mpi;
  uint64_t evt_chunk, def_chunk;
  rc_rank *ranks;          /* nranks entries */
  int skip_damaged;        /* a damaged fragment is warned about, its rank missing */
  int damaged;             /* one was refused (the error said so) */
  uint64_t flush_interval; /* POMP_FLUSH_INTERVAL of the tails found (ns), 0: none */
} rc_set;

/* Reads and checks every EXP/fragments/<n>.frag: format, checksum, rank
   range, the same rank count / MPI flag / chunk sizes everywhere, and
   each rank's definitions. 0, or -1 with "file: offset N: ..." reported;
   skip_damaged: such a fragment is a warning and its rank is missing. */
int rc_load(const char *dir, int skip_damaged, rc_set *set);
void rc_free(rc_set *set);

/* -1 (reported) when a rank's process is still alive on this host. */
int rc_check_finished(const rc_set *set);

/* Writes anchor, global and local definitions into dir (see
   pomp_recover.h); cuts a partial rank's event files to whole chunks.
   Counts each partial rank's events on disk (rc_rank.events).
   0 or -1 (reported). */
int rc_write_archive(rc_set *set);

/* Appends location loc's tail file (fragments/<rank>.<thread>.tail,
   docs/TRACE.md) to its event file evt (created if missing) when the
   tail continues the file's *whole bytes of whole chunks; *whole grows
   by what it appended. 1 appended, 0 not (no tail, an older one, or a
   problem, warned). Notes the tail's flush interval in set. */
int rc_tail_append(rc_set *set, uint32_t rank, uint64_t loc, const char *evt, uint64_t *whole);
/* The last of evt's whole chunks (whole bytes) ends after the event its
   header counts as its last: what follows is cleared (the memory a tail
   copied held old content there), the count set to the events found.
   times: the file's first and last event time. 0 or -1. */
int rc_tail_settle(const char *evt, uint64_t whole, uint64_t chunk, rc_times *times);

/* A path that is a symbolic link (a recovery elsewhere, rc_elsewhere.c)
   becomes a copy of its file, so it can be repaired. 0 or -1 (warned). */
int rc_own_copy(const char *path);

/* "dir/name" into buf. */
void rc_path(char *buf, size_t size, const char *dir, const char *name);

#endif /* RC_H */
