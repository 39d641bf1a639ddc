/*
 * pomp_recover.h -- completing the trace of a run that died (pomp-recover,
 * and pomp-analyze when an experiment has fragments but no traces.otf2).
 *
 * A rank that cannot take part in the unification at MPI_Finalize
 * (MPI_Abort, a fatal signal, exit without MPI_Finalize, SIGKILL) leaves
 * EXP/fragments/<rank>.frag (docs/TRACE.md, "Unfinished runs and
 * fragments"). Recovery reads them all, unifies their definitions with the
 * code MPI_Finalize uses and writes what the archive lacks: the anchor
 * traces.otf2, the global traces.def and every location's traces/<loc>.def;
 * the event files the run wrote stay as they are.
 */
#ifndef POMP_RECOVER_H
#define POMP_RECOVER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pomp_recover_summary {
  unsigned ranks, ranks_complete, ranks_partial, ranks_missing;
  char reason[256]; /* e.g. "rank 1: MPI_Abort(MPI_COMM_WORLD, 3)" */
} pomp_recover_summary;

/* 1 if dir holds fragments and no finished trace, 0 if not, -1 on error
   (reported). */
int pomp_recover_needed(const char *dir);

/* Completes the archive in dir. 0 = done (summary filled; ranks == 0 when
   there was nothing to recover), -1 = failed; messages go to stderr
   prefixed with the calling program's name (pu_error/pu_warn). Running it
   again on a recovered experiment is harmless (nothing to recover). */
int pomp_recover(const char *dir, pomp_recover_summary *summary);

/* pomp_recover with options (POMP_RECOVER_*; 0 = as pomp_recover). */
#define POMP_RECOVER_SKIP_DAMAGED 1 /* a damaged fragment: warned, its rank missing */
int pomp_recover_with(const char *dir, int options, pomp_recover_summary *summary);

/* An experiment on storage this process cannot write (read-only, another
   user's): recovers it in a new temporary directory (under $TMPDIR, else
   /tmp) that mirrors dir with symbolic links, the event files it must
   repair copied; dir is not touched. work (size bytes) receives the
   directory, whose traces.otf2 is the recovered anchor; remove it with
   pomp_recover_discard. 0 or -1 (reported; nothing left behind). */
int pomp_recover_elsewhere(const char *dir, int options, char *work, size_t size,
                           pomp_recover_summary *summary);
/* Removes a directory pomp_recover_elsewhere made (its links, never what
   they point to). */
void pomp_recover_discard(const char *work);

#ifdef __cplusplus
}
#endif

#endif /* POMP_RECOVER_H */
