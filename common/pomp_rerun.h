/*
 * pomp_rerun.h -- re-runs of an experiment: libpomp never overwrites an
 * experiment directory, a re-run writes "<name>.1", "<name>.2", ... beside
 * it (measure/pm_experiment.c).  A reader given the older directory says
 * that a newer one exists, so that nobody studies yesterday's run by
 * mistake.  Internal (not installed).
 */
#ifndef POMP_RERUN_H
#define POMP_RERUN_H

#include <stddef.h>

/* The newest numbered sibling of the experiment that path names (its
   directory, or its report.pomp, traces.otf2 or snapshot.pomp) whose number is
   above path's own ("name" counts as 0): its path, spelled as path spells
   the directory, into newer, and its modification time into *written.
   Returns 1 when there is one, 0 otherwise (also for any path that cannot
   be read: the note is a courtesy, never an error). */
int pu_newer_rerun(const char *path, char *newer, size_t size, long long *written);

/* "PROG: note: NEWER is newer (written HH:MM); this is DIR" on stderr when
   pu_newer_rerun finds one; nothing otherwise. */
void pu_note_newer_rerun(const char *path);

/* When path is an experiment directory (it holds measure.log, traces.otf2
   or fragments/) without report.pomp, says on stderr "PROG: PATH: not
   analysed yet (no report.pomp); run: pomp-analyze PATH" and returns 1;
   otherwise says nothing and returns 0.  The readers (pomp-tui,
   pomp-report) call it when a report does not open: they say the command
   rather than analysing themselves (that can take long and may want
   mpirun). */
int pu_say_not_analysed(const char *path);

#endif /* POMP_RERUN_H */
