/* pm_runtime.c -- starting and finishing the measurement: at the first
   event (or POMP_Init), at exit (atexit) or POMP_Finalize, and on
   fatal signals (pm_signal.c). An MPI rank that ends before MPI_Finalize
   finishes alone (pm_alone.c). POMP_On/Off. */
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pm_location.h"
#include "pm_throttle.h"
#include "pm_profile.h"
#include "pm_trace.h"
#include "pm_unify.h"
#include "pomp.h"
#include "pomp_util.h"

_Atomic int pm_state = PM_UNSTARTED;
_Atomic int pm_recording;
uint64_t pm_start_time;
static _Atomic int on = 1;
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;

/* Under run_lock. */
static void set_state(int s) {
  atomic_store_explicit(&pm_state, s, memory_order_release);
  atomic_store_explicit(&pm_recording,
                        s == PM_RUNNING && atomic_load(&on) && !pm_archive_disk_full(),
                        memory_order_release);
}

void pm_run_lock(void) { pthread_mutex_lock(&run_lock); }
void pm_run_unlock(void) { pthread_mutex_unlock(&run_lock); }
int pm_run_trylock(void) { return pthread_mutex_trylock(&run_lock); }
void pm_set_state(int s) { set_state(s); }

static void log_header(void) {
  char cmd[1024] = "";
  FILE *f = fopen("/proc/self/cmdline", "r");
  if (f) {
    size_t n = fread(cmd, 1, sizeof cmd - 1, f);
    fclose(f);
    for (size_t i = 0; i + 1 < n; i++)
      if (!cmd[i]) cmd[i] = ' ';
    cmd[n] = '\0';
  }
  pm_log("libpomp %s: measurement of '%s' (pid %ld)", POMP_VERSION_STRING, cmd, (long)getpid());
  pm_config_log();
  pm_build_read();
}

/* Creates the experiment directory of a process alone and its archive. */
int pm_open_single_process(void) {
  pm_experiment_name(pm_experiment_dir, sizeof pm_experiment_dir, 1, omp_get_max_threads());
  if (pm_experiment_create(pm_experiment_dir, sizeof pm_experiment_dir) != 0) return -1;
  pm_log_open(pm_experiment_dir);
  pm_info(1, "experiment directory %s", pm_experiment_dir);
  return pm_profiling() ? 0 : pm_archive_open(pm_fragment_periodic);
}

static void at_exit(void) { pm_finish("program exit"); }

/* A child made by fork() (without exec) shares the parent's experiment: it
   must neither record into the parent's buffers nor write the trace at
   its exit. It runs unobserved. */
static void in_forked_child(void) {
  pthread_mutex_init(&run_lock, NULL); /* may have been held at fork() */
  pm_clock_after_fork();
  set_state(PM_DISABLED);
  pm_log_forget();
}

static void begin(void) {
  pm_config_load();
  if (!pm_cfg.enable) {
    pm_start_time = pm_clock();
    set_state(PM_DISABLED);
    return;
  }
  if (pm_mpi_unbound_check() != 0) {
    pm_start_time = pm_clock();
    set_state(PM_DISABLED);
    return;
  }
  log_header();
  pm_clock_init(pm_cfg.clock);
  pm_start_time = pm_clock();
  if (pm_user_functions_init() != 0) {
    set_state(PM_DISABLED);
    return;
  }
  if (!pm_mpi_waiting && pm_open_single_process() != 0) {
    set_state(PM_DISABLED);
    return;
  }
  if (pm_profiling())
    pm_log("profile mode: a call-path profile per thread, written as report.pomp at the end "
           "(MPI: at MPI_Finalize, by rank 0); no trace");
  else if (pm_mpi_waiting) pm_log("MPI program: events kept in memory until MPI_Init");
  atexit(at_exit);
  pthread_atfork(NULL, NULL, in_forked_child);
  if (pm_cfg.signals) pm_signals_install();
  set_state(PM_RUNNING);
}

bool pm_start(void) {
  pthread_mutex_lock(&run_lock);
  if (atomic_load(&pm_state) == PM_UNSTARTED) begin();
  pthread_mutex_unlock(&run_lock);
  return atomic_load(&pm_state) == PM_RUNNING;
}

/* A thread without a location: the measurement starts at the first event
   of the program, then the thread is bound. */
pm_location *pm_self_slow(void) {
  if (!pm_running()) return NULL;
  return pm_bind_self();
}

/* Under run_lock, state PM_RUNNING: stop recording, close the open regions
   and write the trace of this process alone. */
void pm_finish_locked(const char *why) {
  set_state(PM_FINISHED);
  if (pm_mpi_active) { /* no unification without the other ranks */
    int at_exit = !strcmp(why, "program exit");
    char reason[128];
    snprintf(reason, sizeof reason, "%s without MPI_Finalize", at_exit ? "exit" : why);
    pm_finish_alone_locked(reason, 0);
    if (at_exit) pm_peers_alert(reason); /* mpirun kills the others next */
    return;
  }
  pm_locations_quiesce(0);
  if (!pm_archive && pm_mpi_waiting) { /* an MPI program that never called MPI_Init */
    pm_mpi_waiting = 0;
    if (pm_open_single_process() != 0) return;
    pm_warn("this program links libpomp-mpi but never called MPI_Init: no MPI events; its "
            "trace is written as that of a process without MPI");
  }
  pm_locations_leave_all(pm_clock());
  /* a process alone ends normally at exit or POMP_Finalize; otherwise a
     signal (pm_signal.c) ends it: its trace says so */
  if (strcmp(why, "program exit") && strcmp(why, "POMP_Finalize")) pm_trace_mark_died(why);
  pm_trace_write();
  pm_profile_write();
  pm_log("measurement finished (%s)", why);
  pm_nested_report();
  pm_throttle_report();
  pm_clock_report();
}

void pm_finish(const char *why) {
  pthread_mutex_lock(&run_lock);
  if (atomic_load(&pm_state) == PM_RUNNING) pm_finish_locked(why);
  pthread_mutex_unlock(&run_lock);
}

void POMP_Init(void) { pm_start(); }
void POMP_Finalize(void) { pm_finish("POMP_Finalize"); }

void POMP_On(void) {
  pthread_mutex_lock(&run_lock);
  atomic_store(&on, 1);
  set_state(atomic_load(&pm_state));
  pthread_mutex_unlock(&run_lock);
}

void POMP_Off(void) {
  pthread_mutex_lock(&run_lock);
  atomic_store(&on, 0);
  set_state(atomic_load(&pm_state));
  pthread_mutex_unlock(&run_lock);
}
