/* az_omp.h -- per-process OpenMP bookkeeping filled by the replay: team
   instances, barrier and lock records (omp.c evaluates them), and the
   time of threads with nothing to do (threads.c).
   Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_OMP_H
#define POMP_AZ_OMP_H

#include <stddef.h>
#include <stdint.h>

#include "az_common.h"
#include "az_records.h"

struct az_analysis;

typedef struct {
  uint32_t team;        /* Comm id of the team */
  int32_t cnode;        /* call path of the parallel region (master) */
  int32_t parent_cnode; /* master's call path at the fork */
  az_time fork, join;   /* on the master */
  uint32_t members;     /* locations that joined the instance */
  uint8_t joined;       /* the master's ThreadJoin was replayed */
  uint8_t free;         /* a released slot */
  uint32_t open_bars;   /* its barrier records not evaluated yet */
  uint32_t *workers;
  size_t nworkers, capworkers; /* locations that joined */
} az_team_instance;

typedef struct { /* a worker left before the master's join */
  size_t inst;
  uint32_t loc;
  az_time t;
} az_leave;

typedef struct {
  uint32_t team;
  uint32_t instance;
  uint32_t seq;
  uint32_t loc;
  az_time e, x;
  int32_t cnode;
  uint8_t implicit;
  uint8_t left, free; /* x known; a released slot */
  az_time busy;       /* time in callees: tasks run while waiting */
} az_barrier;

typedef struct {
  uint32_t lock, order, loc;
  az_time t, e_region;
  int32_t cnode;
  uint8_t critical;
  uint8_t release;
  uint64_t pos;
} az_lock_event;

typedef struct { /* a worker whose record was cut off */
  uint32_t loc;
  az_time end; /* its last timestamp */
} az_cut;

typedef struct { /* master time outside parallel regions, kept
                              while a worker may still turn out cut off */
  az_time from, to;
  int32_t cnode;
} az_serial_span;

typedef struct { /* the live instances base, base+1, ... */
  size_t *idx;
  size_t n, cap;
  uint64_t base;
} az_index_list;

typedef struct az_omp_process {
  uint32_t proc;
  az_team_instance *inst;
  size_t ninst, capinst;
  az_slots free_inst;
  az_index_list *by_team;
  size_t nteams; /* team Comm id -> instances */
  az_barrier *bars;
  size_t nbars, capbars;
  az_slots free_bars;
  az_lock_event *locks;
  size_t nlocks, caplocks;
  az_leave *leaves;
  size_t nleaves, capleaves;
  uint8_t *team_thread; /* per thread of the process: it joined a team
                              (an OpenMP thread, not one the program made) */
  /* runs that did not finish (threads.c): workers cut off, and the
     master's recent serial time, which they are not idle for */
  az_cut *cut;
  size_t ncut, capcut;
  az_serial_span *spans;
  size_t nspans, capspans;
} az_omp_process;

/* The k-th instance of team on the master, or NULL. */
az_team_instance *az_omp_instance(az_omp_process *o, uint32_t team, uint64_t k);
/* Appends a new instance of team (teams < o->nteams); returns its index. */
size_t az_omp_add_instance(az_omp_process *o, const az_team_instance *in);
/* Barrier waits and lock contention of what is complete, and team
   instances over before stop (last: all), whose records are released. */
void az_omp_step(struct az_analysis *a, az_omp_process *o, az_time stop, int last);
/* Frees o (after its last step). */
void az_omp_finish(az_omp_process *o);

/* threads.c: a retired team instance adds its duration to the team time
   of its call path and to the member time of each of its workers; once
   per process (every instance retired), the OpenMP threads of o's process
   (o->team_thread) get the team time they were not a member of as limited
   parallelism, and the master's time outside parallel regions as idle
   threads.  Threads the program created itself get neither: they do only
   what they recorded. */
void az_threads_instance(struct az_analysis *a, const az_omp_process *o,
                         const az_team_instance *in);
/* threads.c, runs that did not finish: the master's time outside parallel
   regions in [from, to) at cnode (kept as a span while some worker may
   still end before it); a worker cut off at `end` (not idle after it);
   spans no unfinished worker can end before (`horizon`) are dropped. */
void az_threads_serial(struct az_analysis *a, az_omp_process *o, az_time from, az_time to,
                       int32_t cnode);
void az_threads_cut(struct az_analysis *a, az_omp_process *o, uint32_t loc, az_time end);
void az_threads_forget(az_omp_process *o, az_time horizon);
void az_threads_finish(struct az_analysis *a, const az_omp_process *o);

#endif
