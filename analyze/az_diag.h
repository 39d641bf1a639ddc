/* az_diag.h -- warnings about the input, counted by kind, and the first
   fatal error (diag.c).  Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_DIAG_H
#define POMP_AZ_DIAG_H

#include <stdint.h>
#include <stdio.h>

enum az_warn_kind {
  AZ_W_UNKNOWN_RECORD,
  AZ_W_UNMATCHED_MSG,
  AZ_W_UNMATCHED_COLL,
  AZ_W_CLOCK,
  AZ_W_NESTING,
  AZ_W_TEAM,
  AZ_W_DEFS,
  AZ_W_LOCK,
  AZ_W_BARRIER, /* an OpenMP barrier not every member reached */
  AZ_W_ENDED,   /* a location's record ends early (the run
                                  did not finish) */
  AZ_W_MODEL,   /* tasks, nested parallelism, MPI on several threads:
                                  no delay costs, no critical path */
  AZ_W_NUM_KINDS
};

typedef struct az_diag {
  int verbosity;  /* 0 quiet, 1 normal, 2 verbose */
  int incomplete; /* the run did not finish: operations whose
                                  partner never came are expected, counted
                                  and summed up, listed only when verbose */
  uint64_t count[AZ_W_NUM_KINDS];
  int errors;
  char first_error[512];
  int errors_later; /* az_fail keeps its message unsaid: a parallel
                                  analysis's process 0 says the first at the end */
} az_diag;

/* Counts a warning; prints it unless too many of its kind were printed. */
void az_warn(az_diag *d, int kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Records a fatal problem of the input (the analysis result is invalid). */
void az_fail(az_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fatal errors held back by one thread (az_diag_hold), to be said later
   in the order of the serial replay: the backward passes' local handlers
   run in the decoding threads (replay.c, "local" passes). */
typedef struct {
  int errors;
  char first[512];
} az_diag_held;
/* From now on this thread's az_fail only counts into h and keeps the
   first message (NULL: say them again); h is cleared. */
void az_diag_hold(az_diag_held *h);
/* What h held, as az_fail would have said it (the first message; the
   others counted). */
void az_diag_release(az_diag *d, const az_diag_held *h);
uint64_t az_warn_total(const az_diag *d);
void az_diag_summary(const az_diag *d, FILE *out);
/* The kinds of warning a run that did not finish is expected to cause
   (unmatched messages, collectives, barriers, locks, cut-off locations). */
int az_warn_is_end_effect(int kind);

#endif
