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
  uint64_t events; /* a partial rank: events on disk, counted by recovery */
} rc_rank;

typedef struct rc_set {
  const char *dir;
  uint32_t nranks, mpi;
  uint64_t evt_chunk, def_chunk;
  rc_rank *ranks;   /* nranks entries */
  int skip_damaged; /* a damaged fragment is warned about, its rank missing */
  int damaged;      /* one was refused (the error said so) */
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

/* "dir/name" into buf. */
void rc_path(char *buf, size_t size, const char *dir, const char *name);

#endif /* RC_H */
