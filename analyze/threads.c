/* threads.c -- time of threads that exist but have nothing to do: the
   workers outside parallel regions (omp_idle_threads, charged to the call
   path the master executes meanwhile, as in EXPERT) and workers left out
   of a team that ran with fewer threads (omp_limited_parallelism). */
#include "az.h"

void az_threads_limited(az_analysis *a, uint32_t proc,
                        const az_team_instance *in) {
  if (in->cnode < 0 || in->join <= in->fork) return;
  const az_process *p = &a->defs.procs[proc];
  for (uint32_t w = 1; w < p->num_locs; w++) {
    uint32_t loc = p->first_loc + w;
    int member = 0;
    for (size_t k = 0; k < in->nworkers && !member; k++)
      member = in->workers[k] == loc;
    if (!member)
      az_cell(&a->cells[loc], in->cnode)[AZ_OMP_LIMITED_PARALLELISM] +=
          (int64_t)(in->join - in->fork);
  }
}

void az_threads_idle(az_analysis *a, uint32_t proc) {
  const az_process *p = &a->defs.procs[proc];
  const az_cells *master = &a->cells[p->first_loc];
  for (size_t r = 0; r < master->nrows; r++) {
    int64_t serial = master->rows[r][AZ_X_SERIAL];
    if (serial <= 0) continue;
    for (uint32_t w = 1; w < p->num_locs; w++)
      az_cell(&a->cells[p->first_loc + w], master->row_cnode[r])
          [AZ_OMP_IDLE_THREADS] += serial;
  }
}
