/*
 * az.h -- the analysis of one trace as a whole: its state and result
 * (az_analysis), its options and its entry points.  What the command
 * (main.c), the parallel analysis, the tests and the benchmark use.
 * Internal to pomp-analyze (not installed).
 *
 * The analysis replays every location's event file (az_pass.h: the replay
 * driver and its passes), all locations together in windows of time,
 * keeping per location only a call stack.  It accumulates time, visits and
 * bytes per (call path, location) and turns the events another location's
 * analysis needs into compact synchronisation records (az_records.h,
 * az_omp.h).  After each window whatever is complete is evaluated (p2p.c,
 * collective.c, omp.c) and its records are released, so memory holds the
 * records in flight, not the trace (docs/PROPERTIES.md, "How the replay
 * works").  Values are integer ticks per cell (az_cells.h), converted to
 * seconds once, when the report is written (output.c).
 */
#ifndef POMP_AZ_H
#define POMP_AZ_H

#include <stddef.h>
#include <stdint.h>

/* the members of az_analysis, and the metric slots (az_value) and
   warning kinds (diag.count) its users ask about */
#include "az_calltree.h"
#include "az_cells.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_metrics.h"
#include "az_records.h"

/* Test hooks of the delay pass (delay_central.c); a zeroed one, or none,
   in every real analysis. */
typedef struct az_delay_hooks {
  /* 1: evaluate the instances that became ready first in, first out, not
     last in, first out (the order the serial pass uses); the reports must
     not change (long-term sums are order-free) */
  int ready_fifo;
  /* called with each waiter's incoming cost and idleness as it charges
     them (ticks) */
  void (*charged)(double incoming, double idle);
  /* >0: the bound on a chain of intervals through messages that did not
     wait (delay_central.c, DL_THROUGH_BOUND otherwise) */
  uint32_t through_bound;
  /* called after each backward window but the last (its evaluations
     done) with the instances the central part holds (dl_central_held) */
  void (*window_held)(size_t instances);
} az_delay_hooks;

typedef struct az_analysis {
  az_defs defs;
  az_diag diag;
  az_calltree tree;
  az_cells *cells; /* per location */
  az_mpi_records mpi;
  uint64_t events_read;
  uint64_t samples;       /* CallingContextSample records (not analysed) */
  struct az_tasks *tasks; /* tasks.c: the check of OpenMP task records */
  int progress;           /* draw a progress bar on stderr */
  /* parallel analysis: charges for locations of other processes */
  void (*charge_hook)(struct az_analysis *a, uint32_t loc, int32_t cnode, int metric, int64_t v);
  void *hook_data;
  uint64_t window_events;            /* events per replay window; 0 = default */
  const az_delay_hooks *delay_hooks; /* tests; NULL: none */
  /* parallel analysis (parallel.c), after each replay window: all
     analysis processes agree on going on (active: any location of this
     one still reading) and on failure; returns whether to go on.  NULL:
     a serial analysis, which goes on while active. */
  int (*agree_hook)(struct az_analysis *a, int active, int *failed);
  void *exchange_data; /* parallel.c: what its exchanges keep */
  /* parallel analysis: how the delay pass's op logs travel (az_delay.h);
     NULL: a serial analysis applies them where they are written */
  struct dl_link *delay_link;
  /* ... and the critical-path pass's records (az_critical.h); NULL: a
     serial analysis walks them where they are written */
  struct az_cp_link *critical_link;
  /* the delay pass while it runs (pass_delay.c), and the hook it
     registers there through which the critical path's first stage it
     feeds (az_pass_critical_fed's begin) gives it its locations
     (az_pass_delay_feeding) */
  struct az_replay *delay_run;
  void (*feed_critical)(struct az_analysis *a, const struct az_replay *critical);
  void *wo;             /* p2p.c: per-location wrong-order windows */
  int incomplete;       /* the run did not finish (a recovered trace):
                              docs/PROPERTIES.md, "Runs that did not
                              finish" */
  char *run_status;     /* "complete" or "incomplete: ..." (report) */
  char *throttled;      /* az_throttled_read's line, or NULL (report) */
  char *files;          /* the archive's directory of per-location
                              files: the anchor without ".otf2" */
  int skip_damaged;     /* --skip-damaged (az_options) */
  char *damaged;        /* the locations read only up to a damage:
                              "rank 0 thread 1 up to event 1234; ..."
                              (report attribute damaged_locations), or NULL */
  uint8_t *damaged_loc; /* per location: counted in damaged */
  /* az_instrumentation_read's line, or NULL (report) */
  char *instrumentation;

  /* the cells were finished (az_cells_finish) before a later pass ran:
     the parallel analysis runs pass_delay and pass_rma after it, so a
     wait state charged then is also taken out of its region's bucket */
  int cells_finished;
  /* p2p.c: message groups whose order the trace does not decide (several
     threads on one key), noted once at the end */
  uint64_t p2p_ambiguous;
  /* pass_critical: where the root-cause model does not hold
     (az_critical.h, AZ_LIMIT_*) */
  unsigned model_limits;
  /* the analyses the user switched off (AZ_OFF_*, az_options): their
     passes are not run, the report says so (output.c) */
  unsigned switched_off;
  /* threads of this analysis process (az_options.threads; decoders.c):
     1 + the decoding threads */
  int threads;
  /* analyze.c: the windows whose critical path a thread of its own walked
     beside the serial replay (the same values either way: tests ask) */
  uint64_t walked_beside;
} az_analysis;

/* Analyses the user can switch off, as scout can (bits). */
enum {
  AZ_OFF_ROOTCAUSE = 1,    /* --no-rootcause: delay costs and the
                              classification of waits (pass_delay) */
  AZ_OFF_CRITICAL_PATH = 2 /* --no-critical-path: the critical path and
                              the performance impact (pass_critical) */
};

/* Adds v to metric at (loc, cnode): directly, or through a->charge_hook
   when the location is analysed by another process (cells.c). */
void az_charge(az_analysis *a, uint32_t loc, int32_t cnode, int metric, int64_t v);

/* analyze.c: the whole analysis of one archive.  Returns 0 on success;
   on failure a->diag.first_error says why. */
typedef struct {
  int verbosity;
  int progress;
  uint64_t window_events;            /* events per replay window (tests); 0: default */
  const az_delay_hooks *delay_hooks; /* tests; NULL: none */
  /* the run did not finish (its trace was recovered from fragments):
     run_status says how ("incomplete: ..."); NULL = complete */
  const char *run_status;
  /* a finished trace with a damaged event file: analyse the other
     locations, and that one up to the damage (else an error that names
     it and suggests the option) */
  int skip_damaged;
  unsigned switched_off; /* AZ_OFF_*: analyses not to run */
  /* threads of each analysis process: the replay plus threads that decode
     the event files ahead of it (decoders.c); 0 or 1: the replay alone */
  int threads;
} az_options;
int az_analyze(az_analysis *a, const char *anchor, const az_options *opt);
/* decoders.c: the threads an analysis process uses by default, --threads'
   default: the CPUs it may run on (its affinity mask) shared among the
   `procs` analysis processes of its node, at least 1, at most
   AZ_THREADS_USEFUL (beyond it the replay thread is the bound). */
enum { AZ_THREADS_USEFUL = 3 };
int az_default_threads(int procs);
/* The CPUs this process may run on (its affinity mask). */
long az_usable_cpus(void);
void az_analysis_free(az_analysis *a);

/* Value of a catalogue metric (exclusive) in its unit: seconds, count or
   bytes; for tests and the summary. */
double az_value(const az_analysis *a, int metric, int32_t cnode, uint32_t loc);

#endif
