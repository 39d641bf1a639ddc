/*
 * pm_profile.h -- profile mode (POMP_MODE=profile): instead of writing
 * a trace, every location keeps a call-path tree of bounded size
 * (visits, inclusive time, MPI and I/O bytes per call path), and at the end the
 * trees of all ranks are merged into one report.pomp (docs/FORMAT.md)
 * by rank 0. Internal to measure/.
 *
 * The event path hands the profile every record it would have written
 * (pm_event.c: a location without an OTF2 writer); only Enter, Leave,
 * the master's fork and a team's begin matter here. A location's tree is
 * touched only by the thread bound to it, so no lock is taken.
 */
#ifndef PM_PROFILE_H
#define PM_PROFILE_H

#include <stdint.h>

#include "pm_location.h"

/* Call paths per location at most: enters of a new path beyond it are
   counted in the enclosing path (time) and as dropped (measure.log, the
   report's attribute profile_paths_dropped). 72 bytes each. */
#define PM_PROFILE_MAX_NODES 65536u

/* True in profile mode (POMP_MODE=profile), fixed once the measurement
   started. */
static inline int pm_profiling(void) { return pm_cfg.mode == PM_MODE_PROFILE; }

/* One event of l at time t (a = region of an Enter/Leave): updates l's
   call-path tree. Called by the event path instead of writing a record. */
void pm_profile_event(pm_location *l, enum pm_event_kind kind, uint64_t t, uint32_t a);

/* Writes the profile of every rank as <experiment>/report.pomp: collective
   over pm_coll (rank 0 gathers and writes). The caller has stopped
   recording and left every open region. */
void pm_profile_write(void);

/* Reads location T's tree (NULL when it recorded nothing). For the
   writer and the tests. */
typedef struct pm_pnode {
  uint32_t region;  /* local region id; PM_NO_REGION: the root / a graft */
  uint32_t parent;  /* index in the tree; UINT32_MAX for the root */
  uint32_t child;   /* first child, UINT32_MAX when none */
  uint32_t sibling; /* next child of the same parent */
  uint32_t graft;   /* a graft: the master's node this team forked at */
  uint64_t visits, incl_ns, sent, received;
  uint64_t io_written, io_read; /* bytes of I/O calls (pm_io_bytes) */
} pm_pnode;
typedef struct pm_profile pm_profile;
const pm_profile *pm_profile_of(uint32_t thread);
uint32_t pm_profile_nodes(const pm_profile *p, const pm_pnode **nodes);
uint64_t pm_profile_dropped(const pm_profile *p);
/* A copy of p's nodes (*copy, malloc'd; returns their number) that another
   thread may take while p's owner records: values a little behind, never
   torn (pm_profile.c). now != 0: the regions open at now get their time so
   far. */
uint32_t pm_profile_copy(const pm_profile *p, uint64_t now, pm_pnode **copy);

/* Snapshots (POMP_SNAPSHOT, pm_profile_snapshot.c): a background thread
   writes the profile so far as <experiment>/snapshot.pomp (MPI: each
   rank its snapshot.<rank>.pomp) every pm_snapshot_ns. Started by the
   first tree (once); stopped and joined by pm_profile_write before the
   final report, after which rank 0 removes the snapshot files. */
extern uint64_t pm_snapshot_ns; /* POMP_SNAPSHOT in ns, 0 = none (pm_config.c) */
void pm_profile_snapshots_start(void);
void pm_profile_snapshots_stop(void);
/* A snapshot in two steps (pm_profile_write.c): take copies this rank's
   regions and trees at now and what the report says of the run (under
   the caller's run lock); write builds the report from the copy, writes
   it to path (no lock needed) and frees the copy. Returns 0 when written. */
typedef struct pm_profile_snapshot pm_profile_snapshot;
pm_profile_snapshot *pm_profile_snapshot_take(uint64_t now);
int pm_profile_snapshot_write(pm_profile_snapshot *s, const char *path);
/* The snapshot file of rank (-1: a process without MPI) in the experiment
   directory: POMP_REPORT_SNAPSHOT or POMP_REPORT_RANK_SNAPSHOT. */
void pm_profile_snapshot_file(char *path, size_t size, int rank);
/* Frees every tree (tests). */
void pm_profile_reset(void);

#endif /* PM_PROFILE_H */
