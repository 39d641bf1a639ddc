/* threads.c -- time of OpenMP threads that exist but have nothing to do:
   the workers outside parallel regions (omp_idle_threads, charged to the
   call path the master executes meanwhile, as in EXPERT) and workers left
   out of a team that ran with fewer threads (omp_limited_parallelism).

   Only OpenMP threads are idle in that sense: the locations that joined a
   team at least once.  A thread the program created itself (pthreads: an
   I/O or progress thread) also has a location, but it is busy with what
   it recorded; charging it the master's serial time would make it exceed
   the wall time.  Which locations are OpenMP threads is known only at the
   end, so instances add their time per call path (AZ_X_TEAM on the
   master, AZ_X_MEMBER on each member) and the charges are made once.

   A run that did not finish: a worker whose record was cut off (regions
   still open at its last event) may have done anything after its end, its
   events are lost.  It is idle neither for the master's serial time after
   its end (AZ_X_AFTER_END) nor for team instances after it (added to
   AZ_X_MEMBER), so its time is its own span.  The master's serial time
   is kept as spans while a worker that may still turn out cut off could
   end before them (docs/PROPERTIES.md, "Runs that did not finish"). */
#include <stdlib.h>

#include "az.h"
#include "az_cells.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_metrics.h"
#include "az_omp.h"
#include "pomp_util.h"

/* Length of [from, to) after end. */
static int64_t after(az_time from, az_time to, az_time end) {
  az_time start = from > end ? from : end;
  return to > start ? (int64_t)(to - start) : 0;
}

static int is_worker(const az_team_instance *in, uint32_t loc) {
  for (size_t k = 0; k < in->nworkers; k++)
    if (in->workers[k] == loc) return 1;
  return 0;
}

void az_threads_instance(az_analysis *a, const az_omp_process *o, const az_team_instance *in) {
  if (in->cnode < 0 || in->join <= in->fork) return;
  int64_t length = (int64_t)(in->join - in->fork);
  uint32_t master = a->defs.procs[o->proc].first_loc;
  az_cell(&a->cells[master], in->cnode)[AZ_X_TEAM] += length;
  for (size_t k = 0; k < in->nworkers; k++)
    if (in->workers[k] != master)
      az_cell(&a->cells[in->workers[k]], in->cnode)[AZ_X_MEMBER] += length;
  /* a worker cut off before the join: unknown, not left out, after its
     end (an instance retires once every unfinished location is past its
     join, so a worker ending before the join is in o->cut already) */
  for (size_t k = 0; k < o->ncut; k++) {
    int64_t unknown = after(in->fork, in->join, o->cut[k].end);
    if (unknown && !is_worker(in, o->cut[k].loc))
      az_cell(&a->cells[o->cut[k].loc], in->cnode)[AZ_X_MEMBER] += unknown;
  }
}

void az_threads_serial(az_analysis *a, az_omp_process *o, az_time from, az_time to, int32_t cnode) {
  if (to <= from) return;
  for (size_t k = 0; k < o->ncut; k++) {
    int64_t v = after(from, to, o->cut[k].end);
    if (v) az_cell(&a->cells[o->cut[k].loc], cnode)[AZ_X_AFTER_END] += v;
  }
  az_serial_span *last = o->nspans ? &o->spans[o->nspans - 1] : NULL;
  if (last && last->cnode == cnode && last->to == from) { /* one span */
    last->to = to;
    return;
  }
  az_serial_span sp = {from, to, cnode};
  PU_PUSH(o->spans, o->nspans, o->capspans, sp);
}

void az_threads_cut(az_analysis *a, az_omp_process *o, uint32_t loc, az_time end) {
  for (size_t i = 0; i < o->nspans; i++) {
    int64_t v = after(o->spans[i].from, o->spans[i].to, end);
    if (v) az_cell(&a->cells[loc], o->spans[i].cnode)[AZ_X_AFTER_END] += v;
  }
  az_cut c = {loc, end};
  PU_PUSH(o->cut, o->ncut, o->capcut, c);
}

void az_threads_forget(az_omp_process *o, az_time horizon) {
  size_t k = 0;
  for (size_t i = 0; i < o->nspans; i++)
    if (o->spans[i].to > horizon) o->spans[k++] = o->spans[i];
  o->nspans = k;
}

/* The value of slot at cnode of c, without creating its row. */
static int64_t peek(const az_cells *c, int32_t cnode, int slot) {
  if ((size_t)cnode >= c->nrow_of || !c->row_of[cnode]) return 0;
  return c->rows[c->row_of[cnode] - 1][slot];
}

void az_threads_finish(az_analysis *a, const az_omp_process *o) {
  const az_process *p = &a->defs.procs[o->proc];
  const az_cells *master = &a->cells[p->first_loc];
  for (size_t r = 0; r < master->nrows; r++) {
    int64_t serial = master->rows[r][AZ_X_SERIAL];
    int64_t team = master->rows[r][AZ_X_TEAM];
    int32_t cnode = master->row_cnode[r];
    for (uint32_t w = 1; w < p->num_locs; w++) {
      if (!o->team_thread[w]) continue;
      az_cells *c = &a->cells[p->first_loc + w];
      int64_t idle = serial - peek(c, cnode, AZ_X_AFTER_END);
      if (idle > 0) az_cell(c, cnode)[AZ_OMP_IDLE_THREADS] += idle;
      int64_t left_out = team - peek(c, cnode, AZ_X_MEMBER);
      if (left_out > 0) az_cell(c, cnode)[AZ_OMP_LIMITED_PARALLELISM] += left_out;
    }
  }
}
