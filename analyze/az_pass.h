/*
 * az_pass.h -- replay passes and the driver that runs them (replay.c).
 * Internal to pomp-analyze (not installed).
 *
 * A pass is one traversal of the events of every location, all locations
 * together in windows of time, so that memory holds what is in flight, not
 * the trace.  The driver owns the reading: the event files, the windows,
 * the clock checks, unreadable and cut-off files and their messages.  A
 * pass owns the meaning: it is one file (pass_*.c) that defines a const
 * az_pass: its state per location (which starts with the driver's
 * az_cursor), a handler per event kind it needs, and what it does when it
 * begins, after each window, when a location's events end and when it
 * ends.  A backward pass sees the windows of the first pass, last first,
 * and each location's events from last to first.  az_replay_run runs a list of passes in order, each over the whole
 * trace; a later pass reads what an earlier one left in the analysis.
 *
 * Serial and MPI-parallel (parallel.c): within a window each analysis
 * process replays its own processes' locations; what needs the records of
 * several processes (message matching, collectives) is the pass's
 * `exchange`, which a parallel analysis replaces by its MPI version.
 * analyze/README.md, "Adding a pass", says how to write one.
 *
 * With az_analysis.threads > 1 the driver decodes the event files in
 * threads of its own (decoders.c); the handlers still
 * run on the calling thread, in the same order, and get no attribute list
 * (NULL): a pass needs no change and must not read one.  Only a pass
 * marked `local` has its handlers run in those threads.
 */
#ifndef POMP_AZ_PASS_H
#define POMP_AZ_PASS_H

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdint.h>

#include "az.h"
#include "az_common.h"
#include "az_progress.h"

/* A backward pass sees each location's events from its end to its start,
   in the windows of the first (forward) pass taken last to first: its
   handlers see time go down (replay.c says how it reads them). */
enum az_direction { AZ_FORWARD, AZ_BACKWARD };

/* The events a pass handles, OTF2's callback types (NULL: skipped; an
   unknown record type gets one warning from the driver).  The driver
   gives a pass with enter and leave Score-P's MeasurementOnOff records as
   Enter (off) and Leave (on) of the region az_defs.off_region, checks
   OpenMP task records (az_tasks.h) and counts sampling records
   (az_analysis.samples; docs/TRACE.md, "Score-P traces"). */
typedef struct {
  OTF2_EvtReaderCallback_Enter enter;
  OTF2_EvtReaderCallback_Leave leave;
  OTF2_EvtReaderCallback_ThreadFork thread_fork;
  OTF2_EvtReaderCallback_ThreadJoin thread_join;
  OTF2_EvtReaderCallback_ThreadTeamBegin team_begin;
  OTF2_EvtReaderCallback_ThreadTeamEnd team_end;
  OTF2_EvtReaderCallback_ThreadAcquireLock acquire_lock;
  OTF2_EvtReaderCallback_ThreadReleaseLock release_lock;
  OTF2_EvtReaderCallback_MpiSend mpi_send;
  OTF2_EvtReaderCallback_MpiIsend mpi_isend;
  OTF2_EvtReaderCallback_MpiIsendComplete mpi_isend_complete;
  OTF2_EvtReaderCallback_MpiIrecvRequest mpi_irecv_request;
  OTF2_EvtReaderCallback_MpiRecv mpi_recv;
  OTF2_EvtReaderCallback_MpiIrecv mpi_irecv;
  OTF2_EvtReaderCallback_MpiRequestCancelled mpi_request_cancelled;
  OTF2_EvtReaderCallback_MpiCollectiveEnd mpi_collective_end;
  OTF2_EvtReaderCallback_IoOperationBegin io_begin;
  OTF2_EvtReaderCallback_IoOperationComplete io_complete;
  /* one-sided communication (pass_rma.c) */
  OTF2_EvtReaderCallback_RmaCollectiveEnd rma_collective_end;
  OTF2_EvtReaderCallback_RmaGroupSync rma_group_sync;
  OTF2_EvtReaderCallback_RmaRequestLock rma_request_lock;
  OTF2_EvtReaderCallback_RmaAcquireLock rma_acquire_lock;
  OTF2_EvtReaderCallback_RmaReleaseLock rma_release_lock;
  OTF2_EvtReaderCallback_RmaPut rma_put;
  OTF2_EvtReaderCallback_RmaGet rma_get;
  OTF2_EvtReaderCallback_RmaAtomic rma_atomic;
} az_event_handlers;

/* The driver's part of a location's state, the first member of every
   pass's per-location state: handlers get it as their user data. */
typedef struct {
  az_analysis *a;
  uint32_t proc, loc; /* process index, location index */
  char label[160];    /* "rank 1 thread 0", for messages */
  OTF2_EvtReader *er;
  az_time stop;                /* end of the current window */
  az_time last;                /* timestamp of the latest event (clamped) */
  az_time prev;                /* ... of the one before it */
  uint64_t pos;                /* position of the latest event */
  int done;                    /* all events read */
  int failed;                  /* a handler met an error (az_fail said why), or
                                  AZ_DEFERRED (az_pass.local) */
  int stale;                   /* a run that did not finish: time went backwards,
                              OTF2 reads stale bytes after a cut-off chunk */
  uint64_t limit;              /* events its chunks hold (replay_file.c) */
  int limit_is_size;           /* ... not known: its size in bytes */
  int cut_file;                /* its file lacks OTF2's closing records */
  uint64_t read_pos;           /* position of the last event its reader read */
  int damaged;                 /* --skip-damaged: its file of a finished trace is
                                  damaged, read up to there (replay_file.c) */
  const az_event_handlers *on; /* the pass's handlers (the driver turns
                                  MeasurementOnOff into Enter/Leave) */
  int in_job;                  /* a `local` pass's handler runs off the replay thread */
  uint64_t job_events;         /* events a forward job counted (added to
                                  events_read by the replay thread) */
} az_cursor;

/* cur.failed of a `local` pass's handler in a job that left its event,
   unchanged, to the replay thread (az_pass.local): the replay stops as at
   an error, with no error. */
enum { AZ_DEFERRED = -1 };

typedef struct az_replay az_replay;

typedef struct az_pass {
  const char *name;
  enum az_direction direction;
  size_t loc_size; /* bytes of per-location state, az_cursor first */
  az_event_handlers on;
  /* Before the first event: the pass's own state (r->data); the cursors
     of the locations replayed here are set (az_replay_loc). */
  void (*begin)(az_replay *r);
  /* After each window (not after a failure): what the locations of one
     trace process completed up to stop, on this analysis process. */
  void (*window)(az_replay *r, az_time stop);
  /* After each window (last 0) and after the pass (last 1), not after a
     failure: what needs the records of several trace processes.  NULL:
     nothing.  A parallel analysis calls its MPI version instead. */
  void (*exchange)(az_analysis *a, int last);
  /* A location's events are all read.  cut: NULL, or why the record of a
     run that did not finish ends early ("PATH: LABEL: event N: ..."). */
  void (*loc_end)(az_replay *r, az_cursor *c, const char *cut);
  /* After the last window (ok: 0 after a failure): the last evaluations;
     frees the pass's state. */
  void (*end)(az_replay *r, int ok);
  /* NULL, or 0 when the trace holds nothing for the pass (it is skipped;
     not for the first pass). */
  int (*wanted)(const az_analysis *a);
  /* A backward pass whose handlers touch only their location's state (its
     per-location struct and what it alone points to) and read only the
     definitions and what `begin` set up; they may az_fail, never az_warn.
     With decoding threads they run there, a location's window at a time,
     while the replay thread runs the other passes' handlers; `window`,
     `loc_end` and `end` stay on the replay thread and see each window's
     handlers done (replay.c).  They may also read what the handlers of
     their process's master location wrote in the same window: a worker's
     window starts once its master's is done.  A handler that would change
     what other locations share (create a call path: az_calltree_find
     instead while cur.in_job) sets cur.failed to AZ_DEFERRED and returns
     OTF2_CALLBACK_INTERRUPT before it changes anything: the replay thread
     delivers that event and the rest of the location's window to every
     local pass, after the window's jobs, in location order (so call paths
     are created in the serial order); a worker whose master deferred
     defers its whole window. */
  int local;
  /* A forward pass may be `local` too: a worker's window (every location
     of a process but its first) then runs in a job once its master's
     window is done on the replay thread, the jobs of a process's workers
     together; the replay thread joins them before the next master and at
     the window's end.  Its handlers, with cur.in_job, change only their
     location's state; what they would change that others share they log
     in the location's state, and local_apply does it on the replay
     thread after the jobs, location by location in order, so it happens
     in the serial order.  A handler that cannot (a warning, an error, a
     call path to create, an update that reads what other locations
     write) sets cur.failed to AZ_DEFERRED and returns
     OTF2_CALLBACK_INTERRUPT before it changes anything, its time check
     (az_cursor_at) included: the replay thread delivers that event and
     the rest of the window after local_apply. */
  void (*local_apply)(az_replay *r, az_cursor *c);
  /* ... but only where the pool has at least this many decoding threads
     (0: any): with one, it decodes and runs them too, and the delay pass's
     handlers cost more there than they save on the replay thread
     (docs/analyze/replay.md, "False sharing, found after"). */
  int local_min_decoders;
} az_pass;

struct az_replay { /* one pass being run */
  az_analysis *a;
  const az_pass *pass;
  const uint8_t *mine; /* trace processes replayed here (NULL: all) */
  char *locs;          /* per location loc_size bytes, loc_stride apart; a
                              location not replayed here has a NULL cursor.a */
  void *data;          /* the pass's own state */
  size_t loc_stride;   /* az_replay_stride(loc_size) */
  int local;           /* its local handlers run in the pool's threads (az_pass.local) */
};

/* Bytes from one location's state to the next: loc_size and at least a
   cache line more, so that two locations, replayed by different threads
   (az_pass.local), never write into one line (every event writes the
   cursor at a state's start), whatever the allocation's alignment. */
static inline size_t az_replay_stride(size_t loc_size) { return (loc_size + 127) / 64 * 64; }

static inline az_cursor *az_replay_loc(const az_replay *r, uint32_t l) {
  return (az_cursor *)(void *)(r->locs + (size_t)l * r->loc_stride);
}

/* 1 when trace process p is replayed by this analysis process. */
static inline int az_replay_mine(const az_replay *r, uint32_t p) { return !r->mine || r->mine[p]; }

/* What every handler returns: stop the reader once the location reached
   the end of the current window (the window is resumed later), or failed. */
static inline OTF2_CallbackCode az_next(const az_cursor *c) {
  return c->failed || c->stale || c->last >= c->stop ? OTF2_CALLBACK_INTERRUPT
                                                     : OTF2_CALLBACK_SUCCESS;
}

/* A timestamp that goes backwards (replay.c): stale, or warned and
   clamped. */
int az_cursor_backwards(az_cursor *c, az_time *t, uint64_t pos);

/* What every handler does first with its event's time and position:
   counts the event; timestamps must not decrease per location, a
   violation is reported and the time clamped, so durations never become
   negative.  1 when the event must not be used (stale: the location ends
   before it).  Afterwards c->last is *t and c->prev the time before. */
static inline int az_cursor_at(az_cursor *c, az_time *t, uint64_t pos) {
  if (*t < c->last && az_cursor_backwards(c, t, pos)) return 1;
  c->pos = pos;
  if (c->in_job) c->job_events++;
  else if (++c->a->events_read % 65536 == 0 && c->a->progress) az_progress_draw(c->a);
  c->prev = c->last;
  c->last = *t;
  return 0;
}

/* The backward counterparts of az_cursor_at and az_next, for the handlers
   of a backward pass: time must not increase from one event to the next
   (the first pass warned about a clock that goes back; here the time is
   clamped silently, so durations never become negative).  No event is
   counted: the first pass counted them all (its bar stays full), and
   az_replay_run_marked sets the count back after a later pass (the count
   cost about 8 instructions an event and pass).  The driver delivers
   whole windows: az_next_back stops only on failure. */
static inline int az_cursor_at_back(az_cursor *c, az_time *t, uint64_t pos) {
  if (*t > c->last) *t = c->last;
  c->pos = pos;
  c->prev = c->last;
  c->last = *t;
  return 0;
}

static inline OTF2_CallbackCode az_next_back(const az_cursor *c) {
  return c->failed ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

/* Runs the passes in order over the locations of the trace processes p
   with mine[p] (all when mine is NULL), each pass all locations together
   in windows of time, master first in each process; 0 on success.  The
   first pass counts the events in a->events_read.  The first pass must be
   forward: a backward pass replays its windows in reverse. */
struct OTF2_Reader_struct;
int az_replay_run(az_analysis *a, struct OTF2_Reader_struct *reader, const uint8_t *mine,
                  const az_pass *const *passes, size_t npasses);

/* Where each window of the first pass ended in each location's file: a
   backward pass reads the same windows, last to first.  One position per
   location and window (8 bytes per 32768 events of the trace serially,
   65536 in a parallel analysis: replay.c, window_length). */
typedef struct {
  uint64_t *at;  /* [window * nlocs + location]: position of the last event read */
  az_time *stop; /* [window]: its end */
  size_t windows, cap;
  uint32_t nlocs;
  uint8_t *defs_read; /* [location]: its local definitions were read (by this reader) */
} az_marks;

/* az_replay_run with the windows kept in *marks: a forward first pass
   notes them there when it holds none, backward passes read them.  The
   parallel analysis (parallel.c) shares the windows of its distributed
   first pass this way, so that its backward passes need no forward
   re-reading.  az_marks_free frees them. */
int az_replay_run_marked(az_analysis *a, struct OTF2_Reader_struct *reader, const uint8_t *mine,
                         const az_pass *const *passes, size_t npasses, az_marks *marks);
void az_marks_free(az_marks *m);

/* analyze.c: az_analyze with other passes than its own (tests). */
int az_analyze_passes(az_analysis *a, const char *anchor, const az_options *opt,
                      const az_pass *const *passes, size_t npasses);

/* The passes, one file each. */
/* pass_waits.c: call paths, time, visits and bytes per (call path,
   location), and every wait state of docs/PROPERTIES.md. */
extern const az_pass az_pass_waits;
/* pass_delay.c (backward): delay costs of the waits at MPI barriers and
   N x N collectives, short-term and long-term. */
extern const az_pass az_pass_delay;
/* pass_critical.c (backward): the critical path and, at its end, the
   performance impact derived from it (pass_critical_impact.c). */
extern const az_pass az_pass_critical;

/* The two backward passes fused: where both run, az_pass_delay_feeding's
   handlers run the critical path's first stage too, event by event after
   their own (not an event one of them deferred or failed at), and
   az_pass_critical_fed has no handlers: each event is dispatched once, not
   once per pass.  The first stage's state stays the critical pass's own
   (its cp_loc), so the values are those of the two passes apart (test
   `fused_backward_passes_give_the_values_of_the_passes_apart`). */
extern const az_pass az_pass_delay_feeding;
extern const az_pass az_pass_critical_fed;
/* pass_critical.c: the first stage's handlers (user data: the critical
   pass's per-location state). */
extern const az_event_handlers az_cp_first_stage;
/* az_pass_critical_fed's begin gives the running delay pass its
   locations through the hook that pass registered,
   az_analysis.feed_critical (no call from pass_critical.c into
   pass_delay.c). */

/* 1 when an analysis process of `threads` threads (az_analysis.threads)
   runs the fused passes: serially, or where the delay pass's handlers run
   in the decoding threads as the critical pass's do (az_pass.local; with
   one decoding thread the first stage runs there alone, off the replay
   thread). */
static inline int az_backward_fused(int threads) {
  return threads <= 1 || threads - 1 >= az_pass_delay.local_min_decoders;
}
/* pass_rma.c: one-sided communication: Scalasca's RMA wait states (Wait
   at Fence/Create/Free, Late Post, Early Wait, Late Complete, lock
   competition) and the bytes RMA moved. */
extern const az_pass az_pass_rma;

#endif
