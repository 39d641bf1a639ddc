/*
 * pomp_report.h -- the report model: severity of each performance property
 * (metric) for each call path and each location, with the definitions that
 * give them meaning.  The contract between pomp-analyze (writes),
 * pomp-tui and pomp-report (read).  File layout: docs/FORMAT.md.
 *
 * Model
 *   metric tree   time > execution > comp ... (docs/ARCHITECTURE.md §4)
 *   region table  name, file, lines, paradigm, role
 *   call tree     call-tree nodes ("cnodes"): (region, parent cnode)
 *   system tree   machine > node > process > thread; the threads are the
 *                 *locations*, numbered densely 0..num_locations-1
 *   values        sparse double per (metric, cnode, location), stored
 *                 EXCLUSIVE along both the metric tree and the call tree:
 *                 every inclusive value is a sum over subtrees.
 *
 * Ids are dense int32 indices in definition order; a parent precedes its
 * children in every tree (parent id < child id), so one backward pass over
 * the ids accumulates inclusive values.  -1 means "none" (root's parent).
 *
 * Two ways to make a report:
 *   - in memory: pomp_report_new, add definitions, pomp_report_add_value
 *     (accumulates), pomp_report_write.  For the analyzer and tests.
 *   - streaming: pomp_report_write_begin with the definitions of a report
 *     made by pomp_report_new, then rows in any order with
 *     pomp_report_write_row, then pomp_report_write_end.  Memory does not
 *     grow with the values (generator of large reports, diff).
 * Reading: pomp_report_open maps the file and parses definitions and the
 * row index only; values are decoded on demand.
 * Threads: an opened report may be read from several threads at once.  A
 * report built in memory lays its values out as rows on the first value
 * query after a change, so query it from one thread while building.
 *
 * Errors: functions that can fail return a pomp_status and fill a
 * pomp_report_error with a message naming the file and the byte offset.
 */
#ifndef POMP_REPORT_H
#define POMP_REPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Format version written by this library; a reader rejects a newer major. */
#define POMP_REPORT_VERSION_MAJOR 1
#define POMP_REPORT_VERSION_MINOR 0

typedef enum {
  POMP_REPORT_OK = 0,
  POMP_REPORT_ERR_IO,      /* open/read/write/mmap failed (errno text) */
  POMP_REPORT_ERR_FORMAT,  /* not a report, corrupt or truncated */
  POMP_REPORT_ERR_VERSION, /* newer major version than this reader */
  POMP_REPORT_ERR_ARG      /* bad id or argument from the caller */
} pomp_report_status;

typedef struct {
  pomp_report_status status;
  char message[512]; /* "report.pomp: offset 1234: row index truncated" */
} pomp_report_error;

typedef enum { POMP_UNIT_SEC = 0, POMP_UNIT_OCC, POMP_UNIT_BYTES } pomp_unit;

typedef enum {
  POMP_SYS_MACHINE = 0,
  POMP_SYS_NODE,
  POMP_SYS_PROCESS,
  POMP_SYS_THREAD
} pomp_sys_kind;

typedef struct {
  const char *name;        /* unique snake_case, e.g. "mpi_latesender" */
  const char *display;     /* "Late Sender" */
  const char *description; /* one paragraph */
  pomp_unit unit;
  int32_t parent;
} pomp_metric;

typedef struct {
  const char *name;   /* "MPI_Recv", "main", "!$omp parallel @a.c:12" */
  const char *file;   /* "" when unknown */
  int32_t begin_line; /* 0 when unknown */
  int32_t end_line;
  const char *paradigm; /* "user", "compiler", "openmp", "mpi", "measurement" */
  const char *role;     /* "function", "parallel", "barrier", ... (OTF2 role,
                           lower case) */
} pomp_region;

typedef struct {
  int32_t region;
  int32_t parent;
} pomp_cnode;

typedef struct {
  const char *name;
  pomp_sys_kind kind;
  int32_t parent;
  int32_t rank;     /* process and thread nodes: MPI rank, else -1 */
  int32_t thread;   /* thread nodes: OpenMP thread number, else -1 */
  int32_t location; /* thread nodes: location index, else -1 */
} pomp_sysnode;

typedef struct pomp_report pomp_report;

/* ---- building ---------------------------------------------------------- */

pomp_report *pomp_report_new(void);
/* Each add returns the new id, or -1 on a bad parent / duplicate name. */
int32_t pomp_report_add_metric(pomp_report *r, const char *name, const char *display,
                               pomp_unit unit, const char *description, int32_t parent);
int32_t pomp_report_add_region(pomp_report *r, const char *name, const char *file,
                               int32_t begin_line, int32_t end_line, const char *paradigm,
                               const char *role);
/* Returns the existing cnode when (region, parent) is already defined. */
int32_t pomp_report_add_cnode(pomp_report *r, int32_t region, int32_t parent);
int32_t pomp_report_add_sysnode(pomp_report *r, pomp_sys_kind kind, const char *name,
                                int32_t parent, int32_t rank, int32_t thread);
/* Experiment facts shown by the viewer: "application", "ranks", "threads",
   "created", "trace", ...  Setting a key again replaces its value. */
void pomp_report_set_attr(pomp_report *r, const char *key, const char *value);
/* Adds v to the value of (metric, cnode, location). */
pomp_report_status pomp_report_add_value(pomp_report *r, int32_t metric, int32_t cnode,
                                         int32_t location, double v);
pomp_report_status pomp_report_write(const pomp_report *r, const char *path,
                                     pomp_report_error *err);

/* Writes r as a CUBE4 .cubex (tar of anchor.xml and per-metric .index
   and .data) for the CUBE GUI and cube tools; docs/FORMAT.md (added).
   pomp_report_open reads .cubex files (Scalasca's, Score-P's, these). */
pomp_report_status pomp_report_write_cube(const pomp_report *r, const char *path,
                                          pomp_report_error *err);

/* Streaming writer over the definitions of r (r must outlive the writer). */
typedef struct pomp_report_writer pomp_report_writer;
pomp_report_writer *pomp_report_write_begin(const pomp_report *r, const char *path,
                                            pomp_report_error *err);
/* One (metric, cnode) row: n pairs, locations strictly increasing, zeros
   allowed (dropped).  Each row may be written at most once.
   (Only +0.0 is dropped; -0.0 is kept so that round trips are exact.) */
pomp_report_status pomp_report_write_row(pomp_report_writer *w, int32_t metric, int32_t cnode,
                                         const int32_t *locations, const double *values, size_t n,
                                         pomp_report_error *err);
pomp_report_status pomp_report_write_end(pomp_report_writer *w, pomp_report_error *err);
/* Gives up: removes the partial file and frees the writer (added). */
void pomp_report_write_abort(pomp_report_writer *w);

/* ---- reading ----------------------------------------------------------- */

/* Opens a report file, or the report.pomp inside an experiment directory;
   a directory without report.pomp that holds profile snapshots (below):
   pomp_report_open_snapshots. */
pomp_report *pomp_report_open(const char *path, pomp_report_error *err);
/* The same from a report's bytes in memory (kept alive by the caller
   while the report is used); name appears in messages (added). */
pomp_report *pomp_report_open_memory(const void *data, size_t size, const char *name,
                                     pomp_report_error *err);
void pomp_report_free(pomp_report *r);

int32_t pomp_report_num_metrics(const pomp_report *r);
int32_t pomp_report_num_regions(const pomp_report *r);
int32_t pomp_report_num_cnodes(const pomp_report *r);
int32_t pomp_report_num_sysnodes(const pomp_report *r);
int32_t pomp_report_num_locations(const pomp_report *r);
const pomp_metric *pomp_report_metric(const pomp_report *r, int32_t id);
const pomp_region *pomp_report_region(const pomp_report *r, int32_t id);
const pomp_cnode *pomp_report_cnode(const pomp_report *r, int32_t id);
const pomp_sysnode *pomp_report_sysnode(const pomp_report *r, int32_t id);
/* The thread sysnode of a location. */
int32_t pomp_report_location_sysnode(const pomp_report *r, int32_t location);
const char *pomp_report_attr(const pomp_report *r, const char *key);
/* Number of attributes and the i-th key (definition order). */
int32_t pomp_report_num_attrs(const pomp_report *r);
const char *pomp_report_attr_key(const pomp_report *r, int32_t i);
/* How the measured run ended (added): pomp-analyze sets the attribute
   POMP_REPORT_RUN_STATUS to "complete", or to a one-line description of a
   run that did not finish ("incomplete: rank 1 called MPI_Abort(...); ...").
   A report without it (written before) is complete, as is an empty value.
   Returns the description of an incomplete run without its "incomplete: "
   prefix ("rank 1 called MPI_Abort(...); ..."), NULL for a complete one. */
#define POMP_REPORT_RUN_STATUS "run_status"
const char *pomp_report_run_incomplete(const pomp_report *r);
/* How the values were measured (added): the attribute POMP_REPORT_MODE is
   "profile" for a report libpomp wrote itself under POMP_MODE=profile (no
   trace, no replay: wait-state properties are absent), absent or "trace"
   for pomp-analyze's. Returns the line viewers show for a profile,
   "profile: wait-state properties need a trace (POMP_MODE=trace)", or
   NULL for a report from a trace. */
#define POMP_REPORT_MODE "mode"
const char *pomp_report_mode_note(const pomp_report *r);
/* What the analysis did not compute (added): pomp-analyze sets the
   attribute POMP_REPORT_NOT_COMPUTED when it skipped metric subtrees
   (switched off: --no-rootcause, --no-critical-path) or voided them where
   their model does not hold (OpenMP tasks, ...); docs/FORMAT.md gives its
   syntax.  Their values are absent, not zero.  Returns why metric was not
   computed ("switched off: --no-critical-path", "model limit: the trace
   has OpenMP tasks"), owned by the report, or NULL when it was (always for
   a report without the attribute). */
#define POMP_REPORT_NOT_COMPUTED "not_computed"
const char *pomp_report_not_computed(const pomp_report *r, int32_t metric);

int32_t pomp_report_find_metric(const pomp_report *r, const char *name);
/* Children in definition order; returns the count, fills up to cap ids. */
int32_t pomp_report_metric_children(const pomp_report *r, int32_t metric, int32_t *out,
                                    int32_t cap);
int32_t pomp_report_cnode_children(const pomp_report *r, int32_t cnode, int32_t *out, int32_t cap);
int32_t pomp_report_sysnode_children(const pomp_report *r, int32_t sysnode, int32_t *out,
                                     int32_t cap);
/* Call path as region names joined by sep ("main;solve;MPI_Recv"). Returns
   the length it needs (like snprintf). */
size_t pomp_report_callpath(const pomp_report *r, int32_t cnode, const char *sep, char *buf,
                            size_t size);

/* ---- profile snapshots of a running program (added) ------------------- */

/* libpomp under POMP_MODE=profile POMP_SNAPSHOT=SECONDS writes the profile
   so far into the experiment directory every SECONDS: POMP_REPORT_SNAPSHOT
   in a process without MPI, else one file per MPI rank named by
   POMP_REPORT_RANK_SNAPSHOT (printf format of the rank), each a one-rank
   report with the attributes run_status "running", snapshot_seconds
   (seconds since that process's measurement began) and snapshot_ranks
   ("rank K of N"), replaced whole by a rename; all are removed once
   report.pomp is written. */
#define POMP_REPORT_SNAPSHOT "snapshot.pomp"
#define POMP_REPORT_RANK_SNAPSHOT "snapshot.%d.pomp"
/* The snapshots of experiment directory dir as one report: the
   POMP_REPORT_SNAPSHOT file as it is, else every rank's file there, merged
   (definitions by name, each rank's locations in rank order, values
   added), a rank that wrote none yet missing: its attribute snapshot_ranks
   says "K of N ranks", ranks is K, snapshot_seconds the oldest file's.
   NULL with err filled when there is none ("DIR: no snapshot.pomp or
   snapshot.RANK.pomp") or one cannot be read.  The caller frees it. */
pomp_report *pomp_report_open_snapshots(const char *dir, pomp_report_error *err);
/* What a follower looks at: how many snapshot files dir holds (0: none),
   the newest one's modification time (seconds since the epoch), and a
   stamp that changes whenever one is written, added or removed (0: none). */
typedef struct {
  int32_t files;
  int64_t newest_mtime;
  uint64_t stamp;
} pomp_report_snapshots;
pomp_report_snapshots pomp_report_snapshots_look(const char *dir);

/* ---- values (exclusive in metric and call tree unless said otherwise) -- */

/* Value of one cell; 0 where nothing is stored. */
double pomp_report_value(const pomp_report *r, int32_t metric, int32_t cnode, int32_t location);
/* Sum over all locations of one row, from the row index (no decoding). */
double pomp_report_row_sum(const pomp_report *r, int32_t metric, int32_t cnode);
/* Adds one row into acc[num_locations]. Returns non-zero if the row exists.
   A corrupt row yields an error status through err (never a crash). */
int pomp_report_row_add(const pomp_report *r, int32_t metric, int32_t cnode, double *acc,
                        pomp_report_error *err);

/* Row iteration (added for pomp-report dump/diff/fold): rows are ordered by
   (metric, cnode).  row_at gives the i-th row's ids, stored-value count and
   sum (no decoding); returns 0 when i is out of range. */
int64_t pomp_report_num_rows(const pomp_report *r);
int pomp_report_row_at(const pomp_report *r, int64_t i, int32_t *metric, int32_t *cnode,
                       int32_t *count, double *sum);
/* Decodes one row into locations[]/values[] (num_locations capacity each),
   locations increasing.  Returns the count (0: no row), -1 on a corrupt
   row or bad id (err filled).  row_add returns 0 with err filled on a
   corrupt row. */
int32_t pomp_report_row_get(const pomp_report *r, int32_t metric, int32_t cnode, int32_t *locations,
                            double *values, pomp_report_error *err);

/*
 * Inclusive helpers.  A "selection" names one node per dimension and
 * whether its subtree is included (inclusive) or the node alone
 * (exclusive).  metric = -1 or cnode = -1 means "all roots, inclusive".
 */
typedef struct {
  int32_t metric;
  int metric_inclusive;
  int32_t cnode;
  int cnode_inclusive;
} pomp_report_selection;

/* Per-location values of the selection: out[num_locations]. */
pomp_report_status pomp_report_location_values(const pomp_report *r, const pomp_report_selection *s,
                                               double *out, pomp_report_error *err);
/* Per-cnode values of a metric (exclusive in the call tree) summed over all
   locations: out[num_cnodes].  Uses the row sums only. */
void pomp_report_cnode_values(const pomp_report *r, int32_t metric, int metric_inclusive,
                              double *out);
/* Turns per-node exclusive values into inclusive ones in place, for any
   tree: parents[i] < i. */
void pomp_report_accumulate(const int32_t *parents, int32_t n, double *v);
/* Per-sysnode inclusive values from per-location values:
   out[num_sysnodes]. */
void pomp_report_sysnode_values(const pomp_report *r, const double *per_loc, double *out);
/* Total of a metric (metric-inclusive when asked) over everything. */
double pomp_report_metric_total(const pomp_report *r, int32_t metric, int metric_inclusive);

/* The definitions as JSON text (the format of the file's definitions
   section), pretty-printed or compact, always valid UTF-8: a name's byte
   outside a valid UTF-8 sequence is written as U+FFFD; free() the result
   (added). */
char *pomp_report_defs_json(const pomp_report *r, int pretty);

/* ---- display helpers shared by the viewers (added) --------------------- */

/* The label a summary shows for a region, written like snprintf (returns
   the length it needs): a function (paradigm compiler or user) without its
   C++ parameter list and qualifiers ("Domain::x(int) const" -> "Domain::x"),
   GCC's static-initialiser functions as "static init (FILE)" (the
   region's source file or GCC's file key), "static init (file of F)"
   (GCC keyed it to function F's mangled name) or "static init"; any
   other region by its name. */
size_t pomp_report_region_label(const pomp_report *r, int32_t region, char *buf, size_t size);
/* Whether a region is one of GCC's static-initialiser functions
   (_GLOBAL__sub_I_*, __static_initialization_and_destruction_*). */
int pomp_report_is_static_init(const pomp_report *r, int32_t region);
/* Whether a region is a sequential loop (pomp-opari --loops: paradigm
   "user", role "loop", named "loop @FILE:LINE"); an OpenMP worksharing
   loop (paradigm "openmp") is not. */
int pomp_report_is_loop(const pomp_report *r, int32_t region);
/* The call path of region labels joined by sep, at most width characters:
   where it is longer, the root end is cut and "...<sep>" stands for it,
   so the leaf stays ("...;solve;MPI_Recv"); a leaf longer than width
   keeps its end.  Written like snprintf. */
size_t pomp_report_callpath_label(const pomp_report *r, int32_t cnode, const char *sep,
                                  size_t width, char *buf, size_t size);

/* Measurement perturbation: the share (0..1) of the total time (metric
   "time", inclusive) spent in regions of paradigm "measurement" (the
   TRACE BUFFER FLUSH region), 0 without time. */
double pomp_report_measurement_share(const pomp_report *r);
/* Above this share the viewers warn. */
#define POMP_REPORT_PERTURBATION_LIMIT 0.05
/* Fills buf with the one-line warning ("measurement perturbation: 14.2 %
   of the time is trace buffer flushes; see pomp-report score /
   POMP_FILTER") and returns 1 when the share is above the limit; else
   buf = "" and 0. */
int pomp_report_perturbation_warning(const pomp_report *r, char *buf, size_t size);
/* The problems of a report, as pomp-analyze's summary and pomp-tui's
   problem list (w) show them (added).  A problem property is a wait state
   or overhead: a property in seconds under time other than time itself,
   computation ("comp") and MPI management (start-up); the other trees
   (delay costs, wait-state classifications, critical path) explain or
   split wait states and are none.  1 for such a metric. */
int pomp_report_metric_is_problem(const pomp_report *r, int32_t metric);
/* A call path ending in MPI start-up or shut-down (MPI_Init,
   MPI_Init_thread, MPI_Finalize), which every MPI program pays once: 1. */
int pomp_report_cnode_is_startup(const pomp_report *r, int32_t cnode);
/* 1 when metric's value at cnode is start-up cost, which the problems
   leave out: any problem at a start-up call path but Wait at Finalize
   (mpi_finalize_wait), the waiting for the last process to finish, which
   is the run's imbalance and no cost of MPI itself (added). */
int pomp_report_startup_left_out(const pomp_report *r, int32_t metric, int32_t cnode);
typedef struct {
  int32_t metric;
  int32_t cnode;
  double seconds; /* own part: exclusive in the property and call trees */
} pomp_report_problem;
/* (problem property, call path) pairs by their own seconds over all
   locations, largest first, start-up call paths left out: the first max
   into out; returns how many were written. */
int32_t pomp_report_problems(const pomp_report *r, pomp_report_problem *out, int32_t max);
/* The root cause of a wait-state metric in one sentence, from the delay
   costs: "0.9 s Wait at N x N at global_residual;MPI_Allreduce, caused by
   write_checkpoint on rank 0 (92% of its delay costs)" (the wait at its
   worst call path; the call path and location with the largest delay
   cost).  1 when there is one; else buf = "" and 0 (no delay costs, or
   a metric they do not explain).  When that call path is itself a wait
   of its location (an MPI or OpenMP wait call path), the sentence says so
   ("caused by rank 1 waiting in main;MPI_Waitall for another rank") and
   names the computation with the largest long-term cost ("; root cause:
   main;compute on rank 2, long-term (40%)") when it holds 0.5 % or more,
   else says "; no computation at the root holds 1%".
   POMP_REPORT_CAUSE_SIZE holds any sentence. */
enum { POMP_REPORT_CAUSE_SIZE = 800 };
int pomp_report_wait_cause(const pomp_report *r, int32_t wait, char *buf, size_t size);

/* ---- POP efficiencies (added; docs/PROPERTIES.md "POP efficiencies") --- */

/* The efficiencies of the POP model, in the order of its tree: parallel
   efficiency = load balance x communication efficiency, communication
   efficiency = serialisation x transfer efficiency; and the hybrid split
   parallel efficiency = MPI x OpenMP parallel efficiency, each of those
   = its load balance x its communication efficiency. */
typedef enum {
  POMP_REPORT_POP_PARALLEL = 0,
  POMP_REPORT_POP_LOAD_BALANCE,
  POMP_REPORT_POP_COMMUNICATION,
  POMP_REPORT_POP_SERIALISATION,
  POMP_REPORT_POP_TRANSFER,
  POMP_REPORT_POP_MPI_PARALLEL,
  POMP_REPORT_POP_MPI_LOAD_BALANCE,
  POMP_REPORT_POP_MPI_COMMUNICATION,
  POMP_REPORT_POP_OMP_PARALLEL,
  POMP_REPORT_POP_OMP_LOAD_BALANCE,
  POMP_REPORT_POP_OMP_COMMUNICATION,
  POMP_REPORT_POP_COUNT
} pomp_report_pop_kind;

typedef struct {
  const char *name;    /* "load_balance": the key of pomp-report pop's JSON */
  const char *display; /* "Load balance" */
  int depth;           /* 0 parallel efficiency, 1 its factors, 2 theirs */
} pomp_report_pop_info;

/* Name, display name and depth of efficiency k (NULL out of range). */
const pomp_report_pop_info *pomp_report_pop_describe(pomp_report_pop_kind k);

typedef struct {
  int32_t locations, processes;
  double runtime;    /* max over locations of time (metric-inclusive) */
  double useful_avg; /* comp per location, average and maximum */
  double useful_max;
  double outside_mpi_avg; /* time - mpi of each process's master thread */
  double outside_mpi_max;
  double ideal_runtime;                   /* computation on the critical path, at least useful_max;
                           NAN without one */
  int has_critical_path;                  /* the report holds critical_path values */
  double value[POMP_REPORT_POP_COUNT];    /* NAN where undefined ... */
  const char *why[POMP_REPORT_POP_COUNT]; /* ... and then why (static text,
                                             or "not computed: REASON" owned
                                             by the report), else NULL */
} pomp_report_pop;

/* Efficiency k as one line of the POP tree, written like snprintf: the
   display name indented by its depth, padded to 36 columns, then
   "  80.00 %" or "    n/a (why)".  What pomp-report pop and pomp-tui
   print. */
size_t pomp_report_pop_line(const pomp_report_pop *p, pomp_report_pop_kind k, char *buf,
                            size_t size);

/* The POP efficiencies of the call-tree sub-trees rooted at roots[0..n)
   (a root inside another root's sub-tree counts once), or of the whole run
   when n is 0.  Reads the metrics time, comp, mpi and, where the report
   has values of it, critical_path (docs/PROPERTIES.md).  Returns
   POMP_REPORT_ERR_ARG without time or comp, with a bad root or for a
   difference of two reports (pomp-report diff), POMP_REPORT_ERR_FORMAT on a corrupt row; err names the report. */
pomp_report_status pomp_report_pop_compute(const pomp_report *r, const int32_t *roots, int32_t n,
                                           pomp_report_pop *out, pomp_report_error *err);
/* ---- the automated search (added; Paradyn's Performance Consultant) ---

   Tests hypotheses (why) against thresholds and refines each true one
   top-down: first along the property hierarchy, then down the call tree
   (functions and loops alike), then along the locations (ranks, then
   threads).  Each test is a node of the search history graph; node 0 is
   the root ("top_level").  A node's value is its severity as a fraction
   of the time of its locations (of the total time for all locations).
   Verdicts: a hypothesis tested on the whole program is true or false; a
   refinement under its threshold is pruned (not refined further); a
   hypothesis whose metrics the report lacks is untestable.  The deepest
   true nodes are the bottlenecks, ranked by seconds.  Rules and defaults:
   docs/PROPERTIES.md ("The automated search"). */
typedef enum {
  POMP_SEARCH_CPU_BOUND = 0,
  POMP_SEARCH_SYNC_WAIT,
  POMP_SEARCH_PARALLEL_OVERHEAD,
  POMP_SEARCH_LOAD_IMBALANCE,
  POMP_SEARCH_IO_BLOCKING,
  POMP_SEARCH_SMALL_IO_OPS, /* Paradyn's TooManySmallIOOps (appended) */
  POMP_SEARCH_HYPOTHESES    /* how many */
} pomp_report_search_hypothesis;

typedef enum {
  POMP_SEARCH_TRUE = 0,
  POMP_SEARCH_FALSE,
  POMP_SEARCH_PRUNED,
  POMP_SEARCH_UNTESTABLE
} pomp_report_search_verdict;

typedef struct {
  int32_t parent;           /* node id; -1 at the root */
  int32_t hypothesis;       /* pomp_report_search_hypothesis; -1 at the root */
  int32_t metric;           /* the property refined to; -1: the hypothesis whole */
  int32_t cnode;            /* -1: the whole program */
  int32_t num_locations;    /* 0: all locations */
  const int32_t *locations; /* num_locations ids, increasing */
  double seconds;           /* severity behind value */
  double value;             /* fraction of the time of its locations */
  double threshold;
  pomp_report_search_verdict verdict;
} pomp_report_search_node;

typedef struct pomp_report_search pomp_report_search;

/* "cpu_bound", ... and the default threshold (fraction of time). */
const char *pomp_report_search_hypothesis_name(int32_t h);
double pomp_report_search_default_threshold(int32_t h);
/* By name; -1 if there is none. */
int32_t pomp_report_search_find_hypothesis(const char *name);
/* Runs the search.  thresholds[POMP_SEARCH_HYPOTHESES] or NULL for the
   defaults.  Returns NULL with err filled on a corrupt row, a report
   without a "time" metric or a difference of two reports (its values are
   no run's shares of time).  Free with pomp_report_search_free; r must
   outlive the result. */
pomp_report_search *pomp_report_search_run(const pomp_report *r, const double *thresholds,
                                           pomp_report_error *err);
void pomp_report_search_free(pomp_report_search *s);
/* The 100 %: the total of metric "time" in seconds. */
double pomp_report_search_total(const pomp_report_search *s);
int32_t pomp_report_search_num_nodes(const pomp_report_search *s);
const pomp_report_search_node *pomp_report_search_node_at(const pomp_report_search *s, int32_t id);
/* Children of a node in the order they were tested (most seconds first
   within each refinement); returns the count, fills up to cap ids. */
int32_t pomp_report_search_node_children(const pomp_report_search *s, int32_t id, int32_t *out,
                                         int32_t cap);
/* What a node tests: "top_level", a hypothesis or a property name. */
const char *pomp_report_search_node_name(const pomp_report_search *s, int32_t id);
/* Why hypothesis h is untestable in this report, NULL if it is not. */
const char *pomp_report_search_untestable(const pomp_report_search *s, int32_t h);
/* Bottlenecks, ranked (most seconds first, then lower id): node ids. */
int32_t pomp_report_search_num_bottlenecks(const pomp_report_search *s);
int32_t pomp_report_search_bottleneck(const pomp_report_search *s, int32_t i);
/* The locations of a node in words ("all 8 locations", "ranks 0, 2",
   "rank 0 threads 1, 3"), written like snprintf. */
size_t pomp_report_search_locations_label(const pomp_report_search *s, int32_t id, char *buf,
                                          size_t size);
/* A node as one line of the search history graph, like snprintf:
   "cpu_bound @ main;loop @b.c:5 on rank 1: true 84.5 %" (the full call
   path, "(program)" for the whole program), with "(threshold 30.0 %)" on
   a hypothesis and the reason on an untestable one. */
size_t pomp_report_search_node_label(const pomp_report_search *s, int32_t id, char *buf,
                                     size_t size);
/* The property a viewer selects for a node: its metric, or the nearest
   common ancestor of its hypothesis's metrics (-1 at the root). */
int32_t pomp_report_search_node_property(const pomp_report_search *s, int32_t id);
/* One plain sentence on a node: what, where, which locations, how much,
   and what it waits for where a wait state is involved; like snprintf. */
size_t pomp_report_search_sentence(const pomp_report_search *s, int32_t id, char *buf, size_t size);

/* ---- synthetic reports (tests, benchmarks) ---------------------------- */

typedef struct {
  int32_t cnodes;    /* call paths */
  int32_t locations; /* threads; split into processes of `threads` each */
  int32_t threads;   /* threads per process (>= 1) */
  int32_t metrics;   /* at most the catalogue size, then synthetic ones */
  double density;    /* fraction of (metric, cnode, location) cells set */
  uint64_t seed;
} pomp_report_synth;

/* Writes a deterministic synthetic report (same parameters, same bytes). */
pomp_report_status pomp_report_generate(const pomp_report_synth *p, const char *path,
                                        pomp_report_error *err);

/* The metric catalogue of docs/ARCHITECTURE.md §4, added to r in order;
   returns the number of metrics added. */
int32_t pomp_report_add_catalogue(pomp_report *r);
/* Size of the catalogue, and adding only its first n metrics (a prefix is
   always a valid tree: parents come first). */
int32_t pomp_report_catalogue_size(void);
int32_t pomp_report_add_catalogue_n(pomp_report *r, int32_t n);

#ifdef __cplusplus
}
#endif

#endif /* POMP_REPORT_H */
