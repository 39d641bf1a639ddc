/*
 * model.h -- the linked weighting of the three trees (EXPERT/CUBE): the
 * property tree carries totals, the call tree the property selected on the
 * left, the location tree that property at the selected call path.  Each
 * "inclusive" flag says whether the selection on the left is collapsed
 * (its subtree counts) or expanded (the node alone counts).
 *
 * Values are recomputed only when the selection they depend on changes;
 * the weigh functions are cheap no-ops otherwise.
 */
#ifndef TUI_MODEL_H
#define TUI_MODEL_H

#include "pomp_report.h"
#include "tree.h"

enum { TUI_PANE_METRIC = 0, TUI_PANE_CALL, TUI_PANE_SYSTEM, TUI_NPANES };

/* Summing the rows of a location selection can take seconds on a large
   report (every row when the root is selected), so it runs as a job in
   slices: the screen stays responsive and shows the values when done.
   The rows are visited in index order (metric, cnode), the order of the
   file for reports written from memory, and only rows that exist: ranges
   of the row index filtered by a mask of the selected call paths, either
   one range per run of selected metrics (wide selections), or the rows of
   the selected (metric, call path) pairs found one by one (narrow ones,
   where scanning the metrics' rows would cost more). */
typedef struct {
  int64_t begin, end; /* index rows [begin, end) */
} tui_row_range;

typedef struct {
  int active;
  uint8_t *cnode_in; /* [cnode]: in the selection */
  tui_row_range *ranges;
  size_t nranges, ranges_cap, range; /* ranges, the one being summed */
  int64_t next;                      /* next index row of that range */
  size_t done, total;                /* selected rows added / in all */
  double *acc;                       /* per location */
  int32_t *locs;                     /* one decoded row */
  double *vals;
  int failed; /* a row could not be read: the sum is partial */
} tui_location_job;

/* Location values of recent selections, so that going back to a call path
   (the root above all) costs nothing.  Least recently used goes first. */
typedef struct {
  pomp_report_selection sel;
  double *values; /* per location */
  uint64_t used;  /* tick of the last use */
} tui_location_cache;

typedef struct {
  pomp_report *report;
  tui_tree tree[TUI_NPANES];
  /* What the call and location trees are weighted by now (-2 = nothing). */
  int32_t call_metric;
  int call_metric_incl;
  pomp_report_selection loc_sel;
  /* The selection's total from the row index's row sums, known as soon as
     the job starts: the value of a lone collapsed system root, shown while
     the locations are still being summed. */
  double loc_total;
  double *per_location;
  tui_location_job job;
  tui_location_cache *cache;
  int ncache, cache_cap; /* cache_cap: entries within TUI_CACHE_BYTES */
  uint64_t tick;
  char error[512]; /* last weighting error (corrupt row), "" if none */
  int errors;      /* weightings that failed so far */
  char first_error[512];
} tui_model;

/* Takes ownership of the report. */
void tui_model_init(tui_model *m, pomp_report *r);
void tui_model_free(tui_model *m);

#define TUI_CACHE_BYTES (64u << 20)

/* Each returns 1 when the values changed (or started changing). */
int tui_model_weigh_calls(tui_model *m, int32_t metric, int metric_incl);
/* Starts the location job for s; then tui_model_work finishes it. */
int tui_model_weigh_locations(tui_model *m, const pomp_report_selection *s);
/* Adds rows of the location job for at most budget seconds (0: until done).
   Returns 1 when the job finished now (the location tree has its values). */
int tui_model_work(tui_model *m, double budget);
/* Monotonic seconds. */
double tui_clock(void);
/* Fraction of the location job done, 1 when idle. */
double tui_model_progress(const tui_model *m);
/* Is the location tree's value of node final?  Always when idle; while the
   job runs only for the system tree's single root, collapsed (its value is
   the selection's total, known from the row sums). */
int tui_model_location_known(const tui_model *m, int32_t node, int inclusive);

#endif
