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

/* Opens a report file, or the report.pomp inside an experiment directory. */
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
