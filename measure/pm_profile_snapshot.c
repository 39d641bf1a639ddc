/* pm_profile_snapshot.c -- profile snapshots (POMP_SNAPSHOT=SECONDS with
   POMP_MODE=profile): a background thread writes the call-path profile
   so far as <experiment>/snapshot.pomp (MPI: snapshot.<rank>.pomp) every
   SECONDS, for pomp-tui --follow (Paradyn searched while the program
   ran).

   The event path is untouched: the thread copies the other threads'
   trees without a lock (pm_profile_copy: published counts, retired
   arrays; values a little behind, never torn) and writes the report with
   libpomp-report, whose writer renames a temporary of its own, so a
   reader never sees half a file.

   It takes the run lock only by trylock and only while it copies (the
   experiment directory, the MPI state, the trees): the end of the run
   holds that lock while it stops and joins this thread, so a blocking
   lock could deadlock; a tick that finds it taken is skipped.

   MPI: every rank writes its own snapshot.<rank>.pomp, of its own
   threads, on its own clock (a gather needs every rank at a collective,
   and this thread cannot call MPI unless the program asked for
   MPI_THREAD_MULTIPLE); readers merge whatever ranks' files exist
   (pomp_report_open_snapshots) and say how many in the attribute
   snapshot_ranks. The final report has every rank. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pm_defs.h"
#include "pm_profile.h"
#include "pm_trace.h"

uint64_t pm_snapshot_ns;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake;
static pthread_t thread;
static int started, stopping;
static unsigned written;

/* Under the run lock: where this process writes its snapshot, "" when it
   writes none now (before MPI_Init, the run ended). */
static void snapshot_path(char *path, size_t size) {
  path[0] = '\0';
  if (atomic_load(&pm_state) != PM_RUNNING || pm_mpi_waiting || !pm_experiment_dir[0]) return;
  pm_profile_snapshot_file(path, size, pm_mpi_active ? (int)pm_coll.rank : -1);
}

static void take_snapshot(void) {
  if (pm_run_trylock() != 0) return; /* the run is ending, or MPI_Init: next tick */
  char path[sizeof pm_experiment_dir + 32];
  snapshot_path(path, sizeof path);
  uint64_t begin = pm_clock();
  pm_profile_snapshot *copy = path[0] ? pm_profile_snapshot_take(begin) : NULL;
  pm_run_unlock();
  int ok = copy && pm_profile_snapshot_write(copy, path) == 0;
  if (ok && written++ == 0) pm_log("first profile snapshot written to %s", path);
  if (ok) pm_info(2, "snapshot %u written in %.2f ms", written, (double)(pm_clock() - begin) / 1e6);
}

/* Sleeps until deadline or a stop; returns 0 when stopping. */
static int wait_until(const struct timespec *deadline) {
  pthread_mutex_lock(&lock);
  while (!stopping && pthread_cond_timedwait(&wake, &lock, deadline) != ETIMEDOUT) {
  }
  int go_on = !stopping;
  pthread_mutex_unlock(&lock);
  return go_on;
}

static void *snapshot_loop(void *unused) {
  (void)unused;
  struct timespec next, now;
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (;;) {
    uint64_t ns = (uint64_t)next.tv_nsec + pm_snapshot_ns;
    next.tv_sec += (time_t)(ns / 1000000000u);
    next.tv_nsec = (long)(ns % 1000000000u);
    if (!wait_until(&next)) return NULL;
    take_snapshot();
    /* a snapshot longer than the period (a large profile, a loaded
       machine): the next one a full period after it, never back to back */
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > next.tv_sec || (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec))
      next = now;
  }
}

void pm_profile_snapshots_start(void) {
  pthread_mutex_lock(&lock);
  if (!started) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&wake, &attr);
    pthread_condattr_destroy(&attr);
    /* no signal of the program's is ever delivered to this thread: the
       fatal-signal handlers end the run and join it */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    started = pthread_create(&thread, NULL, snapshot_loop, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!started) pm_warn("cannot start the snapshot thread; POMP_SNAPSHOT ignored");
    else
      pm_log("profile snapshots every %.3g s to snapshot.pomp (MPI: snapshot.RANK.pomp)",
             pm_snapshot_ns / 1e9);
    started = started ? 1 : -1; /* -1: tried once, never again */
  }
  pthread_mutex_unlock(&lock);
}

void pm_profile_snapshots_stop(void) {
  pthread_mutex_lock(&lock);
  int joinable = started == 1;
  stopping = 1;
  if (joinable) pthread_cond_signal(&wake);
  started = -1; /* the run ended: never again */
  pthread_mutex_unlock(&lock);
  if (joinable) pthread_join(thread, NULL);
}
