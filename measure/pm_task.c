/* pm_task.c -- OpenMP tasks with their identity (include/pomp.h,
   docs/TRACE.md): POMP_Task_new names a new task at its creation, and the
   task's body passes that id to POMP_Task_run_begin/run_end wherever it
   runs. The id packs what the trace names a task by: the team's comm,
   the creating thread and its count of tasks created, so the thread that
   runs the task needs nothing from the creator but the id. */
#include <omp.h>

#include "pm_defs.h"
#include "pm_pomp.h"

#define R(role) OTF2_REGION_ROLE_##role

/* Id layout: the team comm's index (its local id - PM_TEAM_COMM_BASE; one
   per team size, at most 4097) in bits 48..63, the creator (< 2^16:
   PM_MAX_LOCATIONS) in 32..47, the generation in 0..31 (never 0: that id
   names no task). */
enum { ID_COMM_SHIFT = 48, ID_CREATOR_SHIFT = 32 };

static unsigned long long task_id(const pm_task *k) {
  return (unsigned long long)(k->comm - PM_TEAM_COMM_BASE) << ID_COMM_SHIFT |
         (unsigned long long)k->creator << ID_CREATOR_SHIFT | k->generation;
}

static pm_task task_of(unsigned long long id) {
  return (pm_task){PM_TEAM_COMM_BASE + (uint32_t)(id >> ID_COMM_SHIFT),
                   (uint32_t)(id >> ID_CREATOR_SHIFT) & 0xffffu, (uint32_t)id};
}

/* The team a task created now belongs to: the location's team inside the
   outermost parallel region, a team of one outside any (the initial
   task's); none inside a nested region, recorded flattened without team
   events (docs/TRACE.md). 0 when the task gets no identity. */
static int creating_team(const pm_location *l, uint32_t *comm) {
  int level = omp_get_level();
  if (level > 1) return 0;
  *comm = level == 1 ? l->team_comm : pm_team_comm(1);
  return *comm >= PM_TEAM_COMM_BASE; /* a team begun while not recording has none */
}

unsigned long long POMP_Task_new(OMPRegDescr *d) {
  pm_location *l = pm_self();
  if (!l) return 0;
  uint32_t region = pm_descr_region(d, PM_SLOT_MAIN, R(TASK_CREATE));
  uint64_t t = pm_clock();
  pm_task k = {0, l->thread, 0};
  if (!creating_team(l, &k.comm)) {
    pm_ev_enter(l, region, t);
    return 0;
  }
  k.generation = ++l->tasks_created;
  if (!k.generation) k.generation = ++l->tasks_created; /* wrapped: 0 is the implicit task */
  return pm_ev_task_create(l, region, &k, t) ? task_id(&k) : 0;
}

static uint32_t task_region(OMPRegDescr *d) { return pm_descr_region(d, PM_SLOT_BODY, R(TASK)); }

void POMP_Task_run_begin(OMPRegDescr *d, unsigned long long task) {
  pm_location *l = pm_self();
  if (!l) return;
  pm_task k = task_of(task);
  pm_ev_task_begin(l, task_region(d), task ? &k : NULL, pm_clock());
}

void POMP_Task_run_end(OMPRegDescr *d, unsigned long long task) {
  pm_location *l = pm_tls_location;
  if (!l) return;
  pm_task k = task_of(task);
  pm_ev_task_end(l, task_region(d), task ? &k : NULL, pm_clock());
}
