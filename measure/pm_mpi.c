/* pm_mpi.c -- the pm_ interface of pomp_measure.h for libpomp-mpi. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm_location.h"
#include "pm_throttle.h"
#include "pm_profile.h"
#include "pm_trace.h"
#include "pm_unify.h"
#include "pomp_util.h"

int pm_rank;
int pm_mpi_waiting;
int pm_mpi_active;

uint64_t pm_now(void) { return pm_clock(); }

pm_location *pm_location_recording(void) {
  pm_location *l = pm_self();
  if (PM_LIKELY(l && pm_location_records(l))) return l;
  return NULL;
}

/* The location first: its first call starts the measurement, which reads
   the configuration (POMP_IO) in the first place. */
pm_location *pm_io_recording(void) {
  pm_location *l = pm_location_recording();
  return l && pm_cfg.io ? l : NULL;
}

void pm_pause(pm_location *l) { l->paused++; }
void pm_resume(pm_location *l) { l->paused--; }

uint64_t pm_enter(pm_location *l, uint32_t region) {
  uint64_t t = pm_clock();
  pm_ev_enter(l, region, t);
  return t;
}

uint64_t pm_leave(pm_location *l, uint32_t region) {
  uint64_t t = pm_clock();
  pm_ev_leave(l, region, t);
  return t;
}

void pm_mpi_expected(void) { pm_mpi_waiting = 1; }

static int unbound; /* pm_mpi_unbound was called */

/* The rank the MPI launcher gives this process, -1 if none says. */
static long launcher_rank(void) {
  static const char *const vars[] = {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
    const char *v = getenv(vars[i]);
    char *end;
    long rank = v ? strtol(v, &end, 10) : -1;
    if (v && *v && !*end && rank >= 0) return rank;
  }
  return -1;
}

/* Said at once (before main: a program that records nothing is told too);
   measure.log gets the line when it opens. */
void pm_mpi_unbound(const char *library) {
  unbound = 1;
  long rank = launcher_rank();
  if (rank > 0) return; /* rank 0 measures and tells */
  pm_warn("MPI calls are NOT recorded: this program's MPI_Init is %s's, not libpomp-mpi's (the "
          "MPI library comes first on the link line). Link with pomp-cc, which puts "
          "libpomp-mpi first, or run with LD_PRELOAD=libpomp-mpi.so. Measuring this process "
          "as one without MPI%s",
          library ? library : "?", rank == 0 ? " (rank 0 only)" : "");
}

int pm_mpi_unbound_check(void) { return unbound && launcher_rank() > 0 ? -1 : 0; }

void pm_clock_offset(uint64_t time, int64_t offset) {
  int n = atomic_load(&pm_noffsets);
  if (n >= PM_MAX_OFFSETS) return;
  pm_offsets[n] = (pm_offset){time, offset};
  atomic_store(&pm_noffsets, n + 1);
}

/* Rank 0 decides for all (a rank measuring alone would hang the others in
   the archive's collectives): measurement runs only if it runs on every
   rank and the experiment directory could be created. */
static int agree(const pm_mpi_handover *h, int local_ok, char *dir, size_t size) {
  struct {
    char dir[sizeof pm_experiment_dir];
    char ok;
  } verdict = {"", 0};
  uint64_t *oks = pu_calloc((size_t)h->size, sizeof *oks);
  pm_coll_gather_u64((uint64_t)local_ok, oks);
  if (h->rank == 0) {
    int all = 1;
    for (int r = 0; r < h->size; r++) all &= oks[r] != 0;
    pm_experiment_name(verdict.dir, sizeof verdict.dir, h->size, omp_get_max_threads());
    if (!all)
      pm_err("measurement is disabled on some ranks (POMP_ENABLE, POMP_FILTER?); "
             "disabled on all");
    else verdict.ok = pm_experiment_create(verdict.dir, sizeof verdict.dir) == 0;
  }
  free(oks);
  pm_coll_bcast(&verdict, sizeof verdict);
  snprintf(dir, size, "%s", verdict.dir);
  return verdict.ok;
}

int pm_mpi_init(const pm_mpi_handover *h) {
  int local_ok = pm_running();
  pm_run_lock();
  pm_rank = h->rank;
  pm_coll = (pm_collectives){h->collectives, h->collectives_data, h->world, (uint32_t)h->rank,
                             (uint32_t)h->size};
  int rc = -1;
  if (agree(h, local_ok, pm_experiment_dir, sizeof pm_experiment_dir)) {
    pm_mpi_waiting = 0;
    pm_mpi_active = 1;
    pm_log_open(pm_experiment_dir);
    static const char *levels[] = {"SINGLE", "FUNNELED", "SERIALIZED", "MULTIPLE"};
    pm_log("MPI rank %d of %d, thread level MPI_THREAD_%s", h->rank, h->size,
           h->thread_level >= 0 && h->thread_level < 4 ? levels[h->thread_level] : "?");
    if (h->rank == 0) pm_info(1, "experiment directory %s", pm_experiment_dir);
    rc = pm_profiling() ? 0 : pm_archive_open(pm_fragment_periodic);
    if (pm_cfg.signals) pm_signals_after_mpi_init();
  }
  if (rc != 0) {
    pm_mpi_active = 0;
    if (atomic_load(&pm_state) == PM_RUNNING) pm_set_state(PM_DISABLED);
  }
  pm_run_unlock();
  return rc;
}

void pm_mpi_finalize(void) {
  pm_run_lock();
  if (atomic_load(&pm_state) == PM_RUNNING && pm_mpi_active) {
    pm_set_state(PM_FINISHED);
    pm_locations_quiesce(0);
    pm_locations_leave_all(pm_clock());
    pm_trace_write();
    pm_profile_write();
    pm_log("measurement finished (MPI_Finalize)");
    pm_nested_report();
    pm_throttle_report();
    pm_clock_report();
    pm_mpi_active = 0; /* after the last lines: they too carry the rank */
  }
  pm_run_unlock();
}
