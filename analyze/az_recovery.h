/* az_recovery.h -- how the measured run ended (recovery.c; only in the
   pomp-analyze executable, which links pomp-recover's library).  Internal
   to pomp-analyze (not installed). */
#ifndef POMP_AZ_RECOVERY_H
#define POMP_AZ_RECOVERY_H

typedef struct {
  int recover;   /* complete the trace of a run that died (not --no-recover) */
  int verbosity; /* 0: say nothing but errors */
} az_recovery_options;

/* For the trace anchor of an experiment: when the run died and left only
   fragments, completes its trace first (or refuses, with o->recover 0).
   *status: NULL for a run that finished, else the malloc'd run_status
   line ("incomplete: ...").  An experiment that cannot be written
   (read-only storage) is recovered in a temporary directory instead:
   *elsewhere is then that directory (malloc'd; its traces.otf2 is the
   anchor to analyse), else NULL.  0, or -1 after an error message. */
int az_run_ended(const char *anchor, const az_recovery_options *o, char **status, char **elsewhere);
/* Removes (and frees) the directory az_run_ended recovered in; NULL: nothing. */
void az_recovery_discard(char *elsewhere);

#endif
