/* pm_fragment.c -- this rank's fragment on disk (format: pomp_unify.h,
   docs/TRACE.md). Written at every buffer flush, before the chunks reach
   the disk, so every flushed event has its definitions on disk even if the
   process is killed with SIGKILL later; written complete when the rank
   dies alone (pm_alone.c) and when it starts writing the trace (so a
   signal during unification loses nothing); removed once the trace is
   whole. Never collective. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pm_defs.h"
#include "pm_location.h"
#include "pm_trace.h"
#include "pm_unify.h"
#include "pomp_unify.h"
#include "pomp_util.h"

/* One writer at a time: two threads may flush at once, and they share
   the temporary file name. */
static pthread_mutex_t frag_lock = PTHREAD_MUTEX_INITIALIZER;

static void dir_path(char *buf, size_t size) {
  snprintf(buf, size, "%s/fragments", pm_experiment_dir);
}

void pm_fragment_path(char *buf, size_t size, uint32_t rank) {
  snprintf(buf, size, "%s/fragments/%u.frag", pm_experiment_dir, rank);
}

static int write_all(int fd, const unsigned char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* This process, as fragments name it (pomp_unify.h); read once. */
static struct {
  char host[256], boot_id[64];
  uint64_t start;
  int known;
} self;

static void know_self(void) {
  if (self.known) return;
  if (gethostname(self.host, sizeof self.host) != 0) self.host[0] = '\0';
  self.host[sizeof self.host - 1] = '\0';
  pm_frag_boot_id(self.boot_id, sizeof self.boot_id);
  if (pm_frag_process_start((uint32_t)getpid(), &self.start) != 0) self.start = 0;
  self.known = 1;
}

int pm_fragment_write(int complete, const char *reason, const pm_local_location *locs,
                      uint32_t nlocs) {
  if (!pm_experiment_dir[0]) return -1;
  pm_blob defs = {0}, out = {0};
  pm_unify_describe_self(&defs, pm_clock(), locs, nlocs);
  struct timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  pm_frag f = {.rank = pm_coll.rank,
               .nranks = pm_coll.size,
               .mpi = pm_mpi_active != 0,
               .complete = complete != 0,
               .evt_chunk = pm_evt_chunk,
               .def_chunk = pm_def_chunk,
               .mono_now = pm_clock(),
               .reason = reason,
               .defs = defs.data,
               .defs_len = (uint32_t)defs.len};
  f.real_now = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
  int noffsets = atomic_load(&pm_noffsets);
  for (int i = 0; i < noffsets && i < PM_FRAG_MAX_OFFSETS; i++) {
    f.offset_time[i] = pm_offsets[i].time;
    f.offset[i] = pm_offsets[i].offset;
    f.noffsets++;
  }
  pthread_mutex_lock(&frag_lock);
  know_self();
  pthread_mutex_unlock(&frag_lock);
  f.host = self.host;
  f.boot_id = self.boot_id;
  f.pid = (uint32_t)getpid();
  f.start = self.start;
  pm_frag_encode(&out, &f);
  char dir[PU_DIR_MAX], path[PU_PATH_MAX], tmp[PU_TMP_PATH_MAX];
  dir_path(dir, sizeof dir);
  pm_fragment_path(path, sizeof path, f.rank);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  pthread_mutex_lock(&frag_lock);
  int rc = -1;
  if (mkdir(dir, 0755) == 0 || errno == EEXIST) {
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      rc = write_all(fd, out.data, out.len);
      if (close(fd) != 0) rc = -1;
      /* rename(): a reader sees the old fragment or the new, never half */
      if (rc == 0) rc = rename(tmp, path);
      if (rc != 0) unlink(tmp);
    }
  }
  int err = errno;
  pthread_mutex_unlock(&frag_lock);
  if (rc != 0 && err == ENOSPC) pm_archive_out_of_space(); /* says it, once */
  else if (rc != 0) pm_err("cannot write fragment %s: %s", path, strerror(err));
  pm_blob_free(&defs);
  pm_blob_free(&out);
  return rc;
}

/* What the periodic fragment describes: when none of it changed since the
   last one, the fragment on disk still covers every flushed event (event
   counts need not be current: pomp-recover counts a partial rank's events
   from its files), so steady flushing writes no fragment at all. */
typedef struct shape {
  uint32_t regions, comms, teams, locations;
  int offsets;
} shape;
static shape written; /* under frag_lock */

/* This process's locations with the events their flushes wrote (n of
   them, malloc'd). */
static pm_local_location *flushed_locations(size_t *n) {
  pm_local_location *locs = NULL; /* a flush is rare: malloc is fine here */
  size_t cap = 0;
  *n = 0;
  for (uint32_t t = 0; t < PM_MAX_LOCATIONS; t++) {
    pm_location *l = pm_location_get(t);
    if (!l || !l->writer) continue;
    pm_local_location ll = {t, atomic_load_explicit(&l->flushed_events, memory_order_relaxed)};
    PU_PUSH(locs, *n, cap, ll);
  }
  return locs;
}

void pm_fragment_final_partial(const char *reason) {
  size_t n;
  pm_local_location *locs = flushed_locations(&n);
  pm_fragment_write(0, reason, locs, (uint32_t)n);
  free(locs);
}

void pm_fragment_periodic(void) {
  size_t n;
  pm_local_location *locs = flushed_locations(&n);
  shape now = {pm_region_count(), pm_comm_count(), pm_team_comm_count(), (uint32_t)n,
               atomic_load(&pm_noffsets)};
  pthread_mutex_lock(&frag_lock);
  int same = !memcmp(&now, &written, sizeof now);
  pthread_mutex_unlock(&frag_lock);
  if (!same && pm_fragment_write(0, "buffer flush", locs, (uint32_t)n) == 0) {
    pthread_mutex_lock(&frag_lock);
    written = now;
    pthread_mutex_unlock(&frag_lock);
    pm_info(2, "fragment written (buffer flush, %zu locations)", n);
  }
  free(locs);
}

void pm_fragment_remove(void) {
  char dir[PU_DIR_MAX], path[PU_PATH_MAX], other[PU_PATH_MAX];
  dir_path(dir, sizeof dir);
  pm_fragment_path(path, sizeof path, pm_coll.rank);
  pm_tail_remove_all();
  pthread_mutex_lock(&frag_lock);
  unlink(path);
  /* the run finished: a recovery's record (of a pomp-recover from before
     it refused runs still going) would call it incomplete for ever */
  const char *recovery_files[] = {"RECOVERED", ".lock"};
  for (int i = 0; i < 2; i++) {
    snprintf(other, sizeof other, "%s/%s", dir, recovery_files[i]);
    unlink(other);
  }
  rmdir(dir); /* the last rank to finish finds it empty */
  pthread_mutex_unlock(&frag_lock);
}
