/* pm_location.c -- the location table and the thread -> location binding.
 *
 * A thread's location is chosen by its position in the outermost OpenMP
 * team (docs/TRACE.md: T = thread number, 0 = master); threads that are
 * not in the outermost team (nested teams, threads created by the program
 * itself) get an "extra" location of their own, numbered downwards from
 * PM_MAX_LOCATIONS - 1 so they never take a team member's number.
 * The binding is a _Thread_local pointer, refreshed at every outermost
 * parallel-region begin (Score-P does the same).
 *
 * An extra location of a thread the program created, whose thread ended
 * outside every region, is reused by the next such thread: a program that starts 10^4 short-lived
 * threads one after another records them on as many locations as ran at
 * once, not 10^4 (each location costs two files and two 4 MiB OTF2
 * buffers when the trace is written: 1,210 of them per rank took longer
 * than mpirun's grace after SIGTERM; past 4095 threads nothing was
 * recorded at all). The location's timeline then holds its threads one
 * after another, as a thread pool's would.
 */
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pm_defs.h"
#include "pm_location.h"
#include "pm_trace.h"
#include "pomp_util.h"

_Thread_local pm_location *pm_tls_location PM_TLS;
static _Thread_local pm_location *own_extra PM_TLS;

static _Atomic(pm_location *) locations[PM_MAX_LOCATIONS];
static pthread_mutex_t loc_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t next_extra = PM_MAX_LOCATIONS - 1;
static pthread_t main_thread;
/* Extra locations of threads that ended outside every region (under
   loc_lock), and the key whose destructor finds those threads. */
static pm_location *ended_extras[PM_MAX_LOCATIONS];
static uint32_t nended_extras;
static pthread_key_t extra_key;
static int have_extra_key;

/* A thread with an extra location ends: its location can serve the next
   thread, unless a region is still open on it (a thread that exits
   inside a region; finalisation leaves it there). */
static void extra_thread_ended(void *location) {
  pm_location *l = location;
  if (l != own_extra || l->depth != 0 || l->paused) return;
  own_extra = NULL;
  if (pm_tls_location == l) pm_tls_location = NULL;
  pthread_mutex_lock(&loc_lock);
  ended_extras[nended_extras++] = l;
  pthread_mutex_unlock(&loc_lock);
}

__attribute__((constructor)) static void remember_main_thread(void) {
  main_thread = pthread_self();
  have_extra_key = pthread_key_create(&extra_key, extra_thread_ended) == 0;
}

uint64_t pm_location_id(const pm_location *l) { return pm_loc_id((uint32_t)pm_rank, l->thread); }

pm_location *pm_location_get(uint32_t thread) {
  if (thread >= PM_MAX_LOCATIONS) return NULL;
  return atomic_load_explicit(&locations[thread], memory_order_acquire);
}

/* Under loc_lock. */
static pm_location *create(uint32_t thread) {
  /* whole cache lines of its own: threads write their locations on every
     event, and must not slow each other down by false sharing */
  size_t size = (sizeof(pm_location) + 63) / 64 * 64;
  pm_location *l = aligned_alloc(64, size);
  if (!l) pu_die(POMP_EXIT_FAILURE, "out of memory (a location)");
  memset(l, 0, size);
  l->thread = thread;
  l->room.lock = -1;
  l->cap = 64;
  l->stack = aligned_alloc(64, l->cap * sizeof *l->stack);
  if (!l->stack) pu_die(POMP_EXIT_FAILURE, "out of memory (a location)");
  if (pm_archive) l->writer = pm_archive_evt_writer(l);
  atomic_store_explicit(&locations[thread], l, memory_order_release);
  return l;
}

static pm_location *get_or_create(uint32_t thread) {
  pm_location *l = pm_location_get(thread);
  if (PM_LIKELY(l != NULL)) return l;
  pthread_mutex_lock(&loc_lock);
  l = atomic_load_explicit(&locations[thread], memory_order_relaxed);
  if (!l) l = create(thread);
  pthread_mutex_unlock(&loc_lock);
  return l;
}

pm_location *pm_bind_team_member(uint32_t thread) {
  if (thread >= next_extra) return pm_bind_extra(); /* absurdly large team */
  return pm_tls_location = get_or_create(thread);
}

/* reusable: a thread the program created (bound outside any parallel
   region), whose location may serve a later such thread once it ended.
   Not the threads of nested teams: whether libgomp keeps them would
   decide how many locations a nested region has. */
static pm_location *bind_extra(int reusable) {
  if (!own_extra) {
    pthread_mutex_lock(&loc_lock);
    if (reusable && nended_extras > 0) own_extra = ended_extras[--nended_extras];
    else if (next_extra > 0 &&
             !atomic_load_explicit(&locations[next_extra], memory_order_relaxed)) {
      own_extra = create(next_extra--);
    }
    pthread_mutex_unlock(&loc_lock);
    if (own_extra && reusable && have_extra_key) pthread_setspecific(extra_key, own_extra);
    if (!own_extra) {
      static _Atomic int warned;
      if (!atomic_exchange(&warned, 1))
        pm_warn("more than %u threads: further threads are not recorded", PM_MAX_LOCATIONS);
      return NULL;
    }
  }
  return pm_tls_location = own_extra;
}

pm_location *pm_bind_extra(void) { return bind_extra(0); }

/* The OS thread's outermost team level: the thread is thread
   omp_get_ancestor_thread_num(1) of the outermost team when every level
   below that number is thread 0 (the encountering thread of each nested
   team runs on the same OS thread). */
pm_location *pm_bind_self(void) {
  int level = omp_get_level();
  if (level == 0)
    return pthread_equal(pthread_self(), main_thread) ? pm_bind_team_member(0) : bind_extra(1);
  int k = level;
  while (k > 1 && omp_get_ancestor_thread_num(k) == 0) k--;
  if (k == 1) return pm_bind_team_member((uint32_t)omp_get_ancestor_thread_num(1));
  return pm_bind_extra();
}

void pm_locations_open_writers(void) {
  pthread_mutex_lock(&loc_lock);
  for (uint32_t t = 0; t < PM_MAX_LOCATIONS; t++) {
    pm_location *l = atomic_load_explicit(&locations[t], memory_order_relaxed);
    if (!l || l->writer) continue;
    l->writer = pm_archive_evt_writer(l);
    pm_kept_event *kept = l->kept;
    size_t n = l->nkept;
    l->kept = NULL;
    l->nkept = l->cap_kept = 0;
    /* a process that never reached MPI_Init opens its archive when the
       measurement has finished: it owns the (quiesced) locations then */
    int owned = atomic_load(&pm_state) != PM_RUNNING;
    for (size_t i = 0; i < n; i++)
      (owned ? pm_ev_write_owned : pm_ev_write)(l, kept[i].kind, kept[i].time, kept[i].a,
                                                kept[i].b);
    free(kept);
  }
  pthread_mutex_unlock(&loc_lock);
}

void pm_location_flush_began(uint64_t location_id) {
  pm_location *l = pm_location_get(pm_loc_thread(location_id));
  if (!l) return;
  l->flush_begin = pm_clock();
  l->in_flush = 1;
}

void pm_location_flush_ended(uint64_t location_id, uint64_t end) {
  pm_location *l = pm_location_get(pm_loc_thread(location_id));
  if (!l || !l->in_flush) return;
  l->in_flush = 0;
  l->flush_end = end;
  l->flush_pending = PM_FLUSH_TO_WRITE;
  l->nflushes++;
  pm_info(1, "buffer of location %u flushed to disk (%.3f ms, flush %llu)", l->thread,
          (double)(end - l->flush_begin) / 1e6, (unsigned long long)l->nflushes);
}
