/*
 * az.h -- internal interfaces of pomp-analyze.
 *
 * The replay (replay.c) streams every location's event file with its own
 * OTF2 reader, all of them together in windows of time, keeping per
 * location only a call stack.  It accumulates time, visits and bytes per
 * (call path, location) and turns the events another location's analysis
 * needs into compact *synchronisation records*: message ends, collective
 * participations, OpenMP team instances, barriers, lock acquisitions.
 * After each window whatever is complete is evaluated (p2p.c,
 * collective.c, omp.c) and its records are released, so memory holds the
 * records in flight, not the trace (docs/PROPERTIES.md, "How the replay
 * works").
 *
 * Every quantity is kept as an integer number of clock ticks (or counts)
 * per (call path, location, metric) cell, so sums are exact; conversion to
 * seconds happens once, when the report is written (output.c).
 */
#ifndef POMP_AZ_H
#define POMP_AZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t az_time; /* clock ticks after clock-offset correction */

/* qsort that accepts an empty (NULL) array, which qsort itself must not
   be given. */
void az_sort(void *base, size_t n, size_t size,
             int (*cmp)(const void *, const void *));

/* ---- metrics --------------------------------------------------------- */

/* Cell slots.  The first AZ_NUM_METRICS are the catalogue metrics (names in
   metrics.c, which must exist in pomp_report_add_catalogue), stored
   exclusive along the metric tree.  The internal slots after them feed the
   finishing step (cells.c). */
enum {
  AZ_TIME, AZ_EXECUTION, AZ_COMP, AZ_MPI, AZ_MPI_MANAGEMENT,
  AZ_MPI_SYNCHRONIZATION, AZ_MPI_BARRIER_WAIT, AZ_MPI_BARRIER_COMPLETION,
  AZ_MPI_COMMUNICATION, AZ_MPI_POINT2POINT, AZ_MPI_LATESENDER,
  AZ_MPI_LATESENDER_WO, AZ_MPI_LATERECEIVER, AZ_MPI_COLLECTIVE,
  AZ_MPI_EARLYREDUCE, AZ_MPI_EARLYSCAN, AZ_MPI_LATEBROADCAST, AZ_MPI_WAIT_NXN,
  AZ_MPI_NXN_COMPLETION, AZ_OMP, AZ_OMP_MANAGEMENT, AZ_OMP_SYNCHRONIZATION,
  AZ_OMP_BARRIER, AZ_OMP_EBARRIER_WAIT, AZ_OMP_IBARRIER_WAIT,
  AZ_OMP_CRITICAL_CONTENTION, AZ_OMP_LOCK_CONTENTION, AZ_OMP_ORDERED,
  AZ_OMP_TASKWAIT, AZ_OMP_FLUSH,
  AZ_OMP_IDLE_THREADS, AZ_OMP_LIMITED_PARALLELISM, AZ_VISITS,
  AZ_BYTES_SENT, AZ_BYTES_RECEIVED,
  AZ_NUM_METRICS,
  /* internal: call-exclusive time the location really executed here */
  AZ_X_RUN = AZ_NUM_METRICS,
  /* internal: the part of AZ_X_RUN outside any parallel region (master) */
  AZ_X_SERIAL,
  /* internal: time of the outermost team instances forked here (master) */
  AZ_X_TEAM,
  /* internal: the part of AZ_X_TEAM this location took part in (worker),
     and, for a worker whose record was cut off, the team time after its
     end, which it is not charged for either */
  AZ_X_MEMBER,
  /* internal: for a worker whose record was cut off by the end of the
     run, the master's AZ_X_SERIAL time after its end (not idle: unknown) */
  AZ_X_AFTER_END,
  AZ_NUM_SLOTS
};

extern const char *const az_metric_name[AZ_NUM_METRICS];
/* 1 for metrics measured in clock ticks (converted to seconds). */
int az_metric_is_time(int m);
/* Metric slots that are a part of execution time, carved out of the
   bucket of their cell (wait states, management). */
int az_metric_is_part(int m);

/* ---- definitions (defs.c) -------------------------------------------- */

enum az_region_kind {
  AZ_RK_PLAIN = 0,
  AZ_RK_PARALLEL,     /* OpenMP parallel region */
  AZ_RK_EBARRIER,     /* explicit OpenMP barrier */
  AZ_RK_IBARRIER,     /* implicit OpenMP barrier */
  AZ_RK_CRITICAL,     /* critical construct (waits for its lock) */
  AZ_RK_LOCK_SET,     /* omp_set_lock / omp_set_nest_lock */
  AZ_RK_MPI_COLL      /* MPI collective or barrier */
};

typedef struct {
  const char *name, *file;
  uint32_t begin_line, end_line;
  int paradigm, role; /* OTF2 values */
  uint8_t bucket;     /* metric receiving the exclusive time */
  uint8_t kind;       /* enum az_region_kind */
  uint8_t defined;
} az_region;

typedef struct {
  uint64_t id;       /* OTF2 location id */
  const char *name;
  uint32_t process;  /* index into az_defs.procs */
  uint32_t thread;   /* position inside its process */
  uint64_t events;   /* as declared in the definitions */
} az_location;

typedef struct {
  uint64_t id;       /* OTF2 location-group id */
  const char *name;
  uint32_t node;     /* system-tree node id of its host */
  uint32_t first_loc, num_locs; /* locations are numbered process by process */
} az_process;

typedef struct {
  uint32_t size;
  uint32_t *world;   /* communicator rank -> process index (world rank) */
  int defined;
  int self;          /* MPI_COMM_SELF: rank 0 is the calling process */
} az_comm;

typedef struct {
  uint32_t id, parent;
  const char *name, *cls;
} az_sysnode;

typedef struct az_defs {
  uint64_t resolution, global_offset, trace_length;
  char **strings; size_t num_strings;
  az_region *regions; size_t num_regions;
  az_location *locs; size_t num_locs;   /* sorted by (process, thread) */
  az_process *procs; size_t num_procs;  /* sorted by group id = rank */
  az_comm *comms; size_t num_comms;     /* indexed by Comm id */
  az_sysnode *nodes; size_t num_nodes;
  uint64_t total_events;
} az_defs;

/* ---- diagnostics (diag.c) -------------------------------------------- */

enum az_warn_kind {
  AZ_W_UNKNOWN_RECORD, AZ_W_UNMATCHED_MSG, AZ_W_UNMATCHED_COLL,
  AZ_W_CLOCK, AZ_W_NESTING, AZ_W_TEAM, AZ_W_DEFS, AZ_W_LOCK,
  AZ_W_BARRIER,                /* an OpenMP barrier not every member reached */
  AZ_W_ENDED,                  /* a location's record ends early (the run
                                  did not finish) */
  AZ_W_NUM_KINDS
};

typedef struct {
  int verbosity;               /* 0 quiet, 1 normal, 2 verbose */
  int incomplete;              /* the run did not finish: operations whose
                                  partner never came are expected, counted
                                  and summed up, listed only when verbose */
  uint64_t count[AZ_W_NUM_KINDS];
  int errors;
  char first_error[512];
} az_diag;

/* Counts a warning; prints it unless too many of its kind were printed. */
void az_warn(az_diag *d, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Records a fatal problem of the input (the analysis result is invalid). */
void az_fail(az_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
uint64_t az_warn_total(const az_diag *d);
void az_diag_summary(const az_diag *d, FILE *out);
/* The kinds of warning a run that did not finish is expected to cause
   (unmatched messages, collectives, barriers, locks, cut-off locations). */
int az_warn_is_end_effect(int kind);

/* roles.c: sets bucket and kind from paradigm, role and name. */
void az_region_classify(az_region *r);

/* Reads the global definitions of an archive (file: their path, for
   messages); 0 on success. */
struct OTF2_Reader_struct;
int az_defs_read(az_defs *defs, struct OTF2_Reader_struct *reader,
                 const char *file, az_diag *diag);
void az_defs_free(az_defs *defs);
const char *az_defs_string(const az_defs *defs, uint32_t id);
/* World rank (process index) of a communicator rank, as seen by process
   caller, or UINT32_MAX. */
uint32_t az_comm_world(const az_defs *defs, uint32_t comm, uint32_t rank,
                       uint32_t caller);
/* Human name of a location for messages: "rank 1 thread 0". */
void az_loc_label(const az_defs *defs, uint32_t loc, char *buf, size_t size);

/* ---- call tree (calltree.c) ------------------------------------------ */

typedef struct {
  int32_t region, parent;
} az_cnode;

typedef struct {
  az_cnode *nodes; size_t len, cap;
  int32_t *slots; size_t nslots; /* open addressing over (region, parent) */
  uint8_t *dead;   /* NULL, or per node: grafted away, not reported */
} az_calltree;

void az_calltree_init(az_calltree *t);
void az_calltree_free(az_calltree *t);
int32_t az_calltree_child(az_calltree *t, int32_t parent, int32_t region);

/* ---- values (cells.c) -------------------------------------------------- */

typedef int64_t az_row[AZ_NUM_SLOTS];

typedef struct {
  int32_t *row_of; size_t nrow_of; /* cnode -> row index + 1 (0 = none) */
  az_row *rows; int32_t *row_cnode; size_t nrows, caprows;
} az_cells;

void az_cells_free(az_cells *c);
/* The row of one call path, created zeroed on first use. */
int64_t *az_cell(az_cells *c, int32_t cnode);
/* Turns the AZ_X_RUN remainder into the bucket metric of each row. */
void az_cells_finish(az_cells *c, const az_calltree *t, const az_defs *d);

/* ---- synchronisation records ------------------------------------------ */

typedef struct {           /* one end of a point-to-point message */
  uint32_t comm, src, dst, tag; /* src/dst: world ranks */
  uint32_t loc : 25;       /* (at most 2^25 locations) */
  uint32_t shipped : 1;    /* sent to the analysis process of dst */
  uint32_t state : 2;      /* AZ_MSG_* */
  uint32_t by_test : 1;    /* completed by MPI_Test*: no wait state there */
  uint32_t left : 1;       /* the completing call was left: x_done known */
  uint32_t matched : 1;    /* send matched; e_post is now the receive's
                              posting time (windowed replay) */
  uint32_t ls_call : 1;    /* its completing call holds a Late Sender */
  int32_t cnode_done;      /* call path of the completing call */
  az_time e_post;          /* enter of the Send/Isend/Recv/Irecv call */
  az_time e_done, x_done;  /* enter/leave of the completing call: with loc
                              they name the call (two calls can only share
                              them if both last 0 ticks, and then neither
                              holds a wait state) */
  uint64_t pos;            /* event position of the posting record (the
                              MpiIrecvRequest of an Irecv): posting order */
} az_msg;                  /* 56 bytes */

enum { AZ_MSG_OPEN = 0, AZ_MSG_DONE, AZ_MSG_CANCELLED,
       AZ_MSG_FREE /* a released slot (see az_slots) */ };

typedef struct {
  uint32_t comm, loc, proc, root;
  uint64_t seq;            /* instance number of comm in its process */
  az_time e, x;
  int32_t cnode;
  uint8_t role;            /* OTF2 region role of the operation */
  uint8_t op;              /* OTF2_CollectiveOp: instances pair only equals */
  uint8_t left;            /* the operation was left: x known */
  uint8_t free;            /* a released slot */
  uint64_t pos;
} az_coll;


/* Records stay where they are while anything refers to them by index (a
   request, a call waiting for its Leave); evaluated ones are released and
   their slots reused, so the arrays only grow to the records in flight. */
typedef struct {
  size_t *idx; size_t n, cap;
} az_slots;

/* Index of a new element of *arr: a released slot, or a new one at the
   end (the array grows). */
size_t az_slot_take(void **arr, size_t *len, size_t *cap, size_t elem,
                    az_slots *released);
void az_slot_give(az_slots *released, size_t i);

typedef struct {
  az_msg *sends; size_t nsends, capsends;
  az_msg *recvs; size_t nrecvs, caprecvs;
  az_coll *colls; size_t ncolls, capcolls;
  az_slots free_sends, free_recvs, free_colls;
  uint8_t *coll_broken;    /* per Comm id: its collectives stopped pairing
                              (different operations in one instance) */
} az_mpi_records;

/* ---- the analysis ------------------------------------------------------ */

typedef struct az_analysis {
  az_defs defs;
  az_diag diag;
  az_calltree tree;
  az_cells *cells;         /* per location */
  az_mpi_records mpi;
  uint64_t events_read;
  int progress;            /* draw a progress bar on stderr */
  /* parallel analysis: charges for locations of other processes */
  void (*charge_hook)(struct az_analysis *a, uint32_t loc, int32_t cnode,
                      int metric, int64_t v);
  void *hook_data;
  uint64_t window_events;  /* events per replay window; 0 = default */
  /* after each replay window: evaluate what is complete; returns whether
     any location (of any analysis process) is still active */
  int (*window_hook)(struct az_analysis *a, int active, int *failed);
  void *window_data;
  void *wo;                /* p2p.c: per-location wrong-order windows */
  int incomplete;          /* the run did not finish (a recovered trace):
                              docs/PROPERTIES.md, "Runs that did not
                              finish" */
  char *run_status;        /* "complete" or "incomplete: ..." (report) */
  char *throttled;         /* az_throttled_read's line, or NULL (report) */
  char *files;             /* the archive's directory of per-location
                              files: the anchor without ".otf2" */
} az_analysis;

struct az_omp_process; /* omp.c */

/* analyze.c: path of a location's file in the archive ("DIR/traces/0.evt"
   for ext "evt") in buf, for messages and checks. */
const char *az_loc_file(const az_analysis *a, uint64_t id, const char *ext,
                        char *buf, size_t size);
/* analyze.c: redraws the progress bar (events_read of defs.total_events). */
void az_progress_draw(az_analysis *a);

/* replay.c: streams the locations of the processes p with mine[p] (all
   when mine is NULL), all of them together in windows of time, master
   first in each process; 0 on success. */
int az_replay(az_analysis *a, struct OTF2_Reader_struct *reader,
              const uint8_t *mine);

/* omp.c: per-process OpenMP bookkeeping filled by the replay. */
typedef struct {
  uint32_t team;           /* Comm id of the team */
  int32_t cnode;           /* call path of the parallel region (master) */
  int32_t parent_cnode;    /* master's call path at the fork */
  az_time fork, join;      /* on the master */
  uint32_t members;        /* locations that joined the instance */
  uint8_t joined;          /* the master's ThreadJoin was replayed */
  uint8_t free;            /* a released slot */
  uint32_t open_bars;      /* its barrier records not evaluated yet */
  uint32_t *workers; size_t nworkers, capworkers; /* locations that joined */
} az_team_instance;

typedef struct {           /* a worker left before the master's join */
  size_t inst;
  uint32_t loc;
  az_time t;
} az_leave;

typedef struct {
  uint32_t team; uint32_t instance; uint32_t seq;
  uint32_t loc; az_time e, x; int32_t cnode; uint8_t implicit;
  uint8_t left, free;      /* x known; a released slot */
  az_time busy;            /* time in callees: tasks run while waiting */
} az_barrier;

typedef struct {
  uint32_t lock, order, loc;
  az_time t, e_region; int32_t cnode; uint8_t critical; uint8_t release;
  uint64_t pos;
} az_lock_event;

typedef struct {           /* a worker whose record was cut off */
  uint32_t loc;
  az_time end;             /* its last timestamp */
} az_cut;

typedef struct {           /* master time outside parallel regions, kept
                              while a worker may still turn out cut off */
  az_time from, to;
  int32_t cnode;
} az_serial_span;

typedef struct {           /* the live instances base, base+1, ... */
  size_t *idx; size_t n, cap;
  uint64_t base;
} az_index_list;

typedef struct az_omp_process {
  uint32_t proc;
  az_team_instance *inst; size_t ninst, capinst;
  az_slots free_inst;
  az_index_list *by_team; size_t nteams;   /* team Comm id -> instances */
  az_barrier *bars; size_t nbars, capbars;
  az_slots free_bars;
  az_lock_event *locks; size_t nlocks, caplocks;
  az_leave *leaves; size_t nleaves, capleaves;
  uint8_t *team_thread;    /* per thread of the process: it joined a team
                              (an OpenMP thread, not one the program made) */
  /* runs that did not finish (threads.c): workers cut off, and the
     master's recent serial time, which they are not idle for */
  az_cut *cut; size_t ncut, capcut;
  az_serial_span *spans; size_t nspans, capspans;
} az_omp_process;

/* The k-th instance of team on the master, or NULL. */
az_team_instance *az_omp_instance(az_omp_process *o, uint32_t team,
                                  uint64_t k);
/* Appends a new instance of team (teams < o->nteams); returns its index. */
size_t az_omp_add_instance(az_omp_process *o, const az_team_instance *in);
/* Barrier waits and lock contention of what is complete, and team
   instances over before stop (last: all), whose records are released. */
void az_omp_step(az_analysis *a, az_omp_process *o, az_time stop, int last);
/* Frees o (after its last step). */
void az_omp_finish(az_omp_process *o);
/* threads.c: a retired team instance adds its duration to the team time
   of its call path and to the member time of each of its workers; once
   per process (every instance retired), the OpenMP threads of o's process
   (o->team_thread) get the team time they were not a member of as limited
   parallelism, and the master's time outside parallel regions as idle
   threads.  Threads the program created itself get neither: they do only
   what they recorded. */
void az_threads_instance(az_analysis *a, const az_omp_process *o,
                         const az_team_instance *in);
/* threads.c, runs that did not finish: the master's time outside parallel
   regions in [from, to) at cnode (kept as a span while some worker may
   still end before it); a worker cut off at `end` (not idle after it);
   spans no unfinished worker can end before (`horizon`) are dropped. */
void az_threads_serial(az_analysis *a, az_omp_process *o, az_time from,
                       az_time to, int32_t cnode);
void az_threads_cut(az_analysis *a, az_omp_process *o, uint32_t loc,
                    az_time end);
void az_threads_forget(az_omp_process *o, az_time horizon);
void az_threads_finish(az_analysis *a, const az_omp_process *o);

/* p2p.c: point-to-point properties.  Messages are matched and evaluated
   in steps, at the end of each replay window (last: after the replay):
   what can be matched and evaluated is, and its records are released, so
   that memory holds only messages in flight. */
void az_p2p_step(az_analysis *a, int last);
void az_p2p_free(az_analysis *a);

typedef struct {
  az_time posted;   /* enter of the call that posted the matching receive */
  uint8_t matched;
} az_p2p_answer;

typedef struct {    /* a completing call: location, enter, leave */
  uint32_t loc;
  az_time e, x;
} az_call_key;

/* The two halves of a step, for a parallel analysis.  Receiver half: the
   sends in pool (addressed to this process's locations) against its
   receives: Late Sender; answer[i] says when the receive of pool[i] was
   posted; matched pool records are released to release_to (unless NULL).
   Returns the calls holding a Late Sender (sorted; free it).  Sender half:
   Late Receiver of a->mpi.sends, once az_p2p_answered was told. */
az_call_key *az_p2p_receive_step(az_analysis *a, az_msg *pool, size_t npool,
                                 az_slots *release_to, int last,
                                 az_p2p_answer *answer, size_t *nls);
void az_p2p_answered(az_msg *send, az_time posted);
void az_p2p_send_step(az_analysis *a, const az_call_key *ls, size_t nls,
                      int last);

/* collective.c: wait states of the collective instances in a->mpi.colls.
   Each severity goes through az_charge. */
void az_collective_analyze(az_analysis *a);
/* Complete instances only, which are then freed (last: all). */
void az_collective_step(az_analysis *a, int last);

/* nested.c: after the replay, the call paths of the extra threads of a
   nested parallel region (roots of the call tree) move to where the other
   threads met that region, when that is one call path. */
void az_nested_graft(az_analysis *a);

/* Adds v to metric at (loc, cnode): directly, or through a->charge_hook
   when the location is analysed by another process. */
void az_charge(az_analysis *a, uint32_t loc, int32_t cnode, int metric,
               int64_t v);

/* analyze.c: the whole analysis of one archive.  Returns 0 on success;
   on failure a->diag.first_error says why. */
typedef struct {
  int verbosity;
  int progress;
  uint64_t window_events; /* events per replay window (tests); 0: default */
  /* the run did not finish (its trace was recovered from fragments):
     run_status says how ("incomplete: ..."); NULL = complete */
  const char *run_status;
} az_options;
int az_analyze(az_analysis *a, const char *anchor, const az_options *opt);
/* The first steps of every analysis: reader, definitions, empty cells.
   NULL on failure (a->diag says why). */
/* The functions the measurement switched off (throttled.txt next to the
   anchor, docs/TRACE.md) as one line, summed over the ranks (malloc'd), or
   NULL when there is no such file; a malformed line is warned about. */
char *az_throttled_read(const char *anchor, az_diag *diag);

struct OTF2_Reader_struct *az_open(az_analysis *a, const char *anchor,
                                   const az_options *opt);
/* Raises the open-file limit for the event files of `locations`; -1 (and
   a->diag says why) when the system does not allow as many. */
int az_check_open_files(az_analysis *a, size_t locations, const char *anchor);
/* Clears the progress bar. */
void az_progress_done(az_analysis *a);
void az_analysis_free(az_analysis *a);

/* Value of a catalogue metric (exclusive) in its unit: seconds, count or
   bytes; for tests and the summary. */
double az_value(const az_analysis *a, int metric, int32_t cnode, uint32_t loc);

#endif
