/*
 * pm_location.h -- locations (one per thread in the trace) and the event
 * path. Each location is written only by the thread bound to it, so the
 * event path takes no lock. Internal to measure/.
 *
 * Every Enter is pushed on the location's region stack, recorded or not
 * (POMP_Off, paused): a Leave is written exactly when its Enter was, so
 * the trace stays properly nested whatever On/Off does, and regions still
 * open at the end are left at finalisation.
 */
#ifndef PM_LOCATION_H
#define PM_LOCATION_H

#include <stdint.h>

#include "pm_runtime.h"

#define PM_MAX_LOCATIONS 4096u      /* threads per process */
#define PM_HIDDEN_ENTER 0x80000000u /* stack mark: Enter not recorded */
#define PM_TEAM_ENTER 0x40000000u   /* stack mark: the Enter of a team's parallel region */
#define PM_REGION_MASK 0x3fffffffu  /* the region id of a stack entry */
#define PM_FAST_SLOTS 1024u         /* pm_user.c's table of filtered-out function addresses */

/* Thread events other than Enter/Leave (one record function for all). */
enum pm_event_kind {
  PM_EV_ENTER,
  PM_EV_LEAVE,
  PM_EV_FORK, /* a = requested threads */
  PM_EV_JOIN,
  PM_EV_TEAM_BEGIN,   /* a = team comm */
  PM_EV_TEAM_END,     /* a = team comm */
  PM_EV_ACQUIRE_LOCK, /* a = lock id, b = acquisition order */
  PM_EV_RELEASE_LOCK  /* a = lock id, b = acquisition order */
};

/* A location's buffer flush, as its records see it (pm_event.c): nonzero
   sends every record through the slow path. */
enum pm_flush_state {
  PM_FLUSH_NONE,
  PM_FLUSH_TO_WRITE, /* to be written as a region before the next record */
  PM_FLUSH_WRITTEN   /* written: a record read before flush_end moves to it */
};

/* An OpenMP task as the trace names it: the team's comm, the creating
   thread (T of its location) and the creator's count of tasks it made
   (from 1; 0 is the thread's implicit task). docs/TRACE.md. */
typedef struct pm_task {
  uint32_t comm, creator, generation;
} pm_task;

/* An event kept in memory before the archive exists (MPI, before MPI_Init). */
typedef struct pm_kept_event {
  uint64_t time;
  uint32_t a, b;
  enum pm_event_kind kind;
} pm_kept_event;

struct pm_location {
  OTF2_EvtWriter *writer; /* NULL until the archive is open */
  uint32_t *stack;        /* region ids entered, | PM_HIDDEN_ENTER */
  uint32_t depth, cap;
  int paused;                      /* pm_pause nesting */
  _Atomic int writing;             /* a record is being written (pm_event.c) */
  int in_flush;                    /* between the pre- and post-flush callbacks */
  _Atomic uint64_t flushed_events; /* events on disk (periodic fragment) */
  int flush_pending;               /* enum pm_flush_state (pm_event.c) */
  uint64_t flush_begin, flush_end;
  uint64_t nflushes;
  uint64_t tail_due;    /* time of the next copy to the tail file (pm_tail.c); 0: unset */
  struct pm_tail *tail; /* the tail file's state (pm_tail.c), NULL before the first */
  void *evt_memory;     /* the event buffer's chunks (pm_archive.c) */
  /* the disk room its event file holds (pm_room.c), on its own thread */
  struct {
    uint64_t claimed;      /* bytes of the file whose room is allocated */
    uint64_t in_room_file; /* of them, held in its room file */
    uint64_t unclaimed;    /* bytes given to it beyond its room after the stop (never, so far) */
    int created;           /* OTF2 created the event file (its first flush) */
    int handing;           /* between a hand-over and its settling */
    int lock;              /* the room lock held through a hand-over; -1 */
  } room;
  uint64_t unmatched;  /* Leaves without their Enter (ignored) */
  uint32_t thread;     /* T of the location id pm_loc_id(rank, T) */
  uint32_t team_comm;  /* comm of the team this location is in (TeamBegin) */
  int forked;          /* ThreadFork written, ThreadJoin not yet */
  pm_kept_event *kept; /* events before the archive opened */
  size_t nkept, cap_kept;
  struct pm_fn_stats *fn_stats; /* user functions' calls and times (pm_throttle.h) */
  /* OpenMP tasks: the ones this thread runs now, innermost last (a tied
     task runs to its end on the thread's stack, inside the scheduling point
     that started it), above the implicit task they interrupted; empty
     while the implicit task runs. tasks_created: ThreadTaskCreate's count */
  pm_task *tasks;
  size_t ntasks, cap_tasks;
  uint32_t tasks_created;
  /* calls that pm_user.c's filtered-address table dropped, by its slot:
     the calls not recorded of switched-off functions (pm_throttle.c) */
  _Atomic uint64_t dropped[PM_FAST_SLOTS];
};

/* A signal taken in the middle of a record, to be handled at its end:
   the signal handler sets pm_deferred_signal (pm_event.c owns it), and
   the record's end then calls handler, which the signal code registers
   before it installs its handlers (pm_signal.c). */
extern _Atomic int pm_deferred_signal;
void pm_ev_on_deferred_signal(void (*handler)(void));

/* The location the calling thread writes to (NULL before its first event).
   initial-exec: a plain %fs-relative load instead of __tls_get_addr on the
   event path (libpomp is linked at start-up, not dlopen'ed). */
#define PM_TLS __attribute__((tls_model("initial-exec")))
extern _Thread_local pm_location *pm_tls_location PM_TLS;

/* The calling thread's location, created at its first event; NULL when
   the measurement is not running. Starts the measurement if needed
   (pm_runtime.c: the location table itself never starts anything). */
pm_location *pm_self_slow(void);
static inline pm_location *pm_self(void) {
  pm_location *l = pm_tls_location;
  if (PM_LIKELY(l != NULL)) return l;
  return pm_self_slow();
}

/* Binding at the begin of a parallel region: the thread becomes location
   T of its process (outermost team), or its own extra location (a thread
   of a nested team that is not the encountering thread). */
pm_location *pm_bind_team_member(uint32_t thread);
pm_location *pm_bind_extra(void);
/* The calling thread's binding from its OpenMP level: a team member, or
   an extra location (pm_self_slow, once the measurement runs). */
pm_location *pm_bind_self(void);

/* Location T of the process (0 <= T < PM_MAX_LOCATIONS), or NULL. */
pm_location *pm_location_get(uint32_t thread);
uint64_t pm_location_id(const pm_location *l);

/* Gives every existing location its OTF2 event writer and writes the
   events kept in memory (called when the archive opens). */
void pm_locations_open_writers(void);
/* Called by the OTF2 flush callbacks of a location's event buffer. */
void pm_location_flush_began(uint64_t location_id);
void pm_location_flush_ended(uint64_t location_id, uint64_t end);

/* -------------------------------------------------------- the event path */

/* Enter/Leave with the stack discipline above; t = pm_clock().
   pm_ev_leave returns 1 when it wrote the Leave (its Enter was recorded). */
void pm_ev_enter(pm_location *l, uint32_t region, uint64_t t);
int pm_ev_leave(pm_location *l, uint32_t region, uint64_t t);
/* A parallel region's team: ThreadTeamBegin + Enter, Leave +
   ThreadTeamEnd (if the Enter was recorded); ThreadFork / ThreadJoin on
   the master (the join only after a recorded fork). */
void pm_ev_team_begin(pm_location *l, uint32_t region, uint32_t comm, uint64_t t);
void pm_ev_team_end(pm_location *l, uint32_t region, uint64_t t);
void pm_ev_fork(pm_location *l, uint32_t threads, uint64_t t);
void pm_ev_join(pm_location *l, uint64_t t);
/* OpenMP task records with the region that carries them (docs/TRACE.md),
   into the archive only (none kept before it opens, none in profile
   mode). create: Enter(region) ThreadTaskCreate(k); returns whether the
   task was recorded. begin: ThreadTaskSwitch(k) Enter(region), k pushed
   on l->tasks. end: Leave(region) ThreadTaskComplete(k), and when k is
   l's innermost task ThreadTaskSwitch to the task it interrupted.
   k NULL (a task without identity): the region's Enter / Leave alone. */
int pm_ev_task_create(pm_location *l, uint32_t region, const pm_task *k, uint64_t t);
void pm_ev_task_begin(pm_location *l, uint32_t region, const pm_task *k, uint64_t t);
void pm_ev_task_end(pm_location *l, uint32_t region, const pm_task *k, uint64_t t);
/* Any other event, written if the location records now. */
void pm_ev_thread(pm_location *l, enum pm_event_kind kind, uint64_t t, uint32_t a, uint32_t b);
/* True when l records now (measurement running, POMP_On, not paused). */
static inline int pm_location_records(const pm_location *l) {
  return atomic_load_explicit(&pm_recording, memory_order_relaxed) && !l->paused;
}
/* Writes one event as it is (kept in memory before the archive opens);
   nothing once the measurement is no longer running. */
void pm_ev_write(pm_location *l, enum pm_event_kind kind, uint64_t t, uint32_t a, uint32_t b);
/* The same without the guard, for the thread that owns every location
   (the measurement finished and the locations are quiesced). */
void pm_ev_write_owned(pm_location *l, enum pm_event_kind kind, uint64_t t, uint32_t a, uint32_t b);
/* After the state left PM_RUNNING: waits grace_ms, then until no location
   is in the middle of a record (at most ~1 s each). */
void pm_locations_quiesce(int grace_ms);
/* Leaves every open region of every location at time t (finalisation). */
void pm_locations_leave_all(uint64_t t);
/* The pending buffer-flush region of l, if not written yet (before its
   next record); the records after it whose time is earlier than its end
   are written at its end. */
void pm_write_flush_region(pm_location *l);

/* ------------------------------------------------ time-based flushing */

/* Called on l's own thread between two records once t reached
   l->tail_due: copies the event chunks still in l's buffer to its tail
   file (fragments/<rank>.<thread>.tail, docs/TRACE.md), after the
   periodic fragment, so that a SIGKILL loses at most the last
   POMP_FLUSH_INTERVAL of events; sets the next due time (UINT64_MAX:
   never, e.g. POMP_FLUSH_INTERVAL=0). Never collective. */
void pm_tail_write(pm_location *l, uint64_t t);
/* Removes this process's tail files (the run finished, or the rank wrote
   its complete fragment after closing its writers). */
void pm_tail_remove_all(void);

#endif /* PM_LOCATION_H */
