/* az_critical.h -- what the critical-path pass (pass_critical.c) leaves for
   the step that derives Scalasca's critical-path metrics from it
   (pass_critical_impact.c), and the limits of the model.
   Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_CRITICAL_H
#define POMP_AZ_CRITICAL_H

#include <stddef.h>
#include <stdint.h>

#include "az.h"
#include "pomp_util.h"

/* Where the model of the delay costs and of the critical path does not
   hold (Scalasca's known limits), as bits. */
enum {
  AZ_LIMIT_TASKS = 1,      /* OpenMP tasks */
  AZ_LIMIT_NESTED = 2,     /* nested parallel regions, threads outside a team */
  AZ_LIMIT_MPI_THREADS = 4 /* MPI calls on a thread other than the first */
};

/* After the backward walk: AZ_CRITICAL_PATH holds each (call path,
   location)'s time on the critical path.  Derives critical_path_imbalance
   and the performance_impact tree from it and from the forward pass's
   times (docs/PROPERTIES.md, "Critical path"). */
void az_critical_impact(az_analysis *a);

/* az_critical_impact, then az_critical_limits when limits is not 0: what
   the critical-path pass does at its end, once the walk's values and
   every other value are in. */
void az_critical_derive(az_analysis *a, unsigned limits);

/* The model's limits met (bits of AZ_LIMIT_*, kept in a->model_limits):
   the delay costs and the critical-path metrics are removed and
   az_critical_warn says why. */
void az_critical_limits(az_analysis *a, unsigned limits);
/* One warning per limit in a->model_limits (again after the parallel
   analysis's re-reading, whose warnings are not counted). */
void az_critical_warn(az_analysis *a);
/* Why the limits void values, for the report ("the trace has OpenMP tasks
   and ...", no parentheses, no ';'), written like snprintf into why;
   returns the first slot they void (AZ_RECOUNT_LAST + 1: none). */
int az_critical_limits_why(unsigned limits, char *why, size_t size);

/* ---- the pass in two stages on different analysis processes ----------

   A parallel analysis (parallel.c) runs the first stage (pass_critical.c's
   header: a location's records and steps) in the backward replay of the
   processes that replay locations, and ships each window's arrays to the
   analysis process that walks (docs/analyze/critical-path.md, "The critical
   path in a parallel analysis"). */

typedef struct { /* one location's arrays of a window, as the first stage wrote them */
  void *recs, *steps;
  size_t rec_bytes, step_bytes;
  size_t rec_room, step_room; /* the arrays' room in bytes */
} az_cp_part;

enum az_cp_ship { AZ_CP_WINDOW, AZ_CP_LAST, AZ_CP_FAILED };

/* Set in a->critical_link while the pass runs: it does not walk; after
   each window all analysis processes agreed on (az_critical_exchange) and at
   its end, `ship` gets parts[l] for every location l (empty for those
   replayed elsewhere; the pass's memory, emptied afterwards: copy it, or
   where `swaps` is set take it, leaving arrays of its own in parts[l],
   with their room, which the pass empties and fills next), the latest
   time of a location here still reading (the walk's bound, 0: none) and
   what it is (AZ_CP_WINDOW; at the end AZ_CP_LAST, or AZ_CP_FAILED after
   a failure, with no parts).  `ended`: the end was shipped. */
typedef struct az_cp_link {
  void (*ship)(az_analysis *a, az_cp_part *parts, az_time bound, enum az_cp_ship what);
  void *data;  /* the link owner's (parallel.c, analyze.c) */
  void *state; /* the pass's, while it runs */
  int ended;
  int swaps;
} az_cp_link;

/* The pass's exchange (az_pass.exchange) where a link is set: after each
   window (not the last call, last 1) its arrays to the link. */
void az_critical_exchange(az_analysis *a, int last);

/* The second stage alone, on the analysis process that walks: it gets
   every location's arrays, window by window, in the order the first
   stage shipped them, and walks them as the serial pass does. */
typedef struct az_cp_walker az_cp_walker;

/* A walker for every location of a's definitions (read, never changed:
   the walker may run on a thread of its own while the replay goes on);
   its charges go to a call tree and cells of its own, added to an
   analysis's by az_cp_walker_free.  Every call on one thread at a time. */
az_cp_walker *az_cp_walker_new(az_analysis *a);
/* Appends location loc's arrays of the window (copied). */
void az_cp_walker_add(az_cp_walker *w, uint32_t loc, const void *recs, size_t rec_bytes,
                      const void *steps, size_t step_bytes);
/* After every location's arrays of a window: walks what is later than
   bound (the largest of the senders' bounds). */
void az_cp_walker_window(az_cp_walker *w, az_time bound);
/* After the last window (ok 0: a failure, nothing more is walked): the
   rest of the walk.  Returns the model's limits met (AZ_LIMIT_* bits). */
unsigned az_cp_walker_end(az_cp_walker *w, int ok);
/* into not NULL: adds the walk's time on the path to into's cells (its
   call paths made in into's tree where new, as the forward pass made
   them); then frees w (ended or not).  On the thread that owns into. */
void az_cp_walker_free(az_cp_walker *w, az_analysis *into);

/* ---- walk_queue.c: the walk on a thread of its own ----------------------

   A ring of windows handed from the replay thread to a walker thread
   (docs/analyze/critical-path.md, "The walker thread"), each window the
   arrays of one or more senders (the serial analysis: itself; process 1
   of a parallel one: every delay process), as az_cp_job holds them. */

typedef struct {        /* one window's arrays, as each sender shipped them */
  uint64_t *head;       /* per sender az_cp_head_words words: what, bound, then
                           per location its records' and its steps' bytes */
  pu_bytes *arrays;     /* per sender: per location its records, then its steps */
  az_cp_part *taken;    /* or per location the arrays taken (az_cp_job_take: a queue's
                           windows are all filled one way), NULL: none */
  az_time bound;        /* the walk's bound: the largest of the senders' */
  enum az_cp_ship what; /* AZ_CP_LAST: the end; AZ_CP_FAILED: the end, nothing more walked */
} az_cp_job;

typedef struct az_cp_queue az_cp_queue;

/* A sender's words in az_cp_job.head (a parallel analysis's message head). */
size_t az_cp_head_words(const az_analysis *a);
/* How many windows a walker thread may hold: POMP_ANALYZE_WALK_QUEUE
   where set, else 4 where the caller would walk beside (beside 1) and the
   process may run on more than one CPU (with one, a second thread only
   adds switches); 0: walk on the replay thread. */
long az_cp_queue_windows(int beside);
/* A walk of a's locations (az_cp_walker_new) fed by `senders` senders a
   window at a time: on a walker thread with a ring of `windows` windows,
   or (windows 0, or the thread cannot start) on the calling thread, each
   window walked when handed.  Every call below on the replay thread. */
az_cp_queue *az_cp_queue_new(az_analysis *a, int senders, long windows);
/* 1: the walk runs on a thread of its own. */
int az_cp_queue_threaded(const az_cp_queue *q);
/* The next window to fill, emptied (what AZ_CP_WINDOW, bound 0): waits
   while the walker still has every one. */
az_cp_job *az_cp_queue_slot(az_cp_queue *q);
/* Sender `sender`'s arrays of the window (parts[l] per location of a, as
   a link's ship gets them) copied into job. */
void az_cp_job_put(az_cp_job *job, const az_analysis *a, int sender, const az_cp_part *parts);
/* The arrays of the one sender of the window (a link that swaps) taken
   into job, swapped for the arrays job took the last time it was filled
   (emptied; none at first). */
void az_cp_job_take(az_cp_job *job, const az_analysis *a, az_cp_part *parts);
/* The window az_cp_queue_slot gave, filled, to the walk. */
void az_cp_queue_hand(az_cp_queue *q, az_cp_job *job);
/* After the end was handed: waits for the walk's end, then frees q (the
   walker's values added to into's, where not NULL); returns the end's
   model limits (AZ_LIMIT_* bits). */
unsigned az_cp_queue_free(az_cp_queue *q, az_analysis *into);

/* limits.c: the model's limits as the call paths show them (AZ_LIMIT_*
   bits), for an analysis without the critical-path walk that finds them
   (--no-critical-path): a region of an OpenMP task, an MPI call on a
   location other than its process's first, a parallel region inside
   another.  Before the cells are finished (az_cells_finish). */
unsigned az_model_limits_scan(const az_analysis *a);
/* The delay costs computed without the walk (a->switched_off is
   AZ_OFF_CRITICAL_PATH alone): az_critical_limits with the scan's limits;
   else nothing. */
void az_model_limits_without_walk(az_analysis *a);

#endif
