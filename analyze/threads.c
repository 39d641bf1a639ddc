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
   master, AZ_X_MEMBER on each member) and the charges are made once. */
#include "az.h"

void az_threads_instance(az_analysis *a, uint32_t proc,
                         const az_team_instance *in) {
  if (in->cnode < 0 || in->join <= in->fork) return;
  int64_t length = (int64_t)(in->join - in->fork);
  uint32_t master = a->defs.procs[proc].first_loc;
  az_cell(&a->cells[master], in->cnode)[AZ_X_TEAM] += length;
  for (size_t k = 0; k < in->nworkers; k++)
    if (in->workers[k] != master)
      az_cell(&a->cells[in->workers[k]], in->cnode)[AZ_X_MEMBER] += length;
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
      if (serial > 0) az_cell(c, cnode)[AZ_OMP_IDLE_THREADS] += serial;
      int64_t left_out = team - peek(c, cnode, AZ_X_MEMBER);
      if (left_out > 0)
        az_cell(c, cnode)[AZ_OMP_LIMITED_PARALLELISM] += left_out;
    }
  }
}
