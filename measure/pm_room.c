/* pm_room.c -- room on the disk for every event file, claimed before the
   events that need it are accepted (docs/TRACE.md, "A full disk").

   Each location holds the room of every chunk its buffer has been given
   and 64 KiB more (pm_archive.c's claim_chunk): the disk's blocks are
   allocated to it, so its buffers reach the file whenever OTF2 writes
   them (at a flush, from OTF2's 4 MiB file buffer later, or at close),
   whatever other ranks, threads or programs write meanwhile. When a claim
   fails the disk is full: recording stops, and the 64 KiB take the record
   in flight and the Leaves of the regions still open.

   Where the room lies: OTF2 creates the event file at the location's
   first buffer flush, truncating it (fopen "wb"), so until then the room
   is a file of ours, EXP/.pomp-room.<location>. At that first flush it
   is handed over: the room file is deleted in the pre-flush callback, OTF2
   creates and writes the event file, and the post-flush callback
   allocates the room in the event file itself beyond its end (fallocate
   FALLOC_FL_KEEP_SIZE; a first flush at close needs nothing more once
   the file is written, pm_room_closed). Other processes of the run could
   take the freed room in between, so a hand-over holds the run's room
   lock (flock of EXP/.pomp-room.lock) exclusively and every claim holds
   it shared. A file system that cannot allocate beyond a file's end
   keeps the room in the room file and hands it over at every flush
   (exact while OTF2 writes whole chunks at the flush, i.e. POMP_BUFFER
   >= 4 MiB). At close the room a file did not use is given back. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "pm_location.h"
#include "pm_trace.h"
#include "pomp_util.h"

/* Whether the file system allocates room beyond a file's end (cleared at
   the first refusal, said once in measure.log). */
static _Atomic int in_file = 1;
/* Claims stopped working for another reason than a full disk (said once):
   recording goes on, the stop on a full disk is OTF2's failed write. */
static _Atomic int claims_off;

static void room_path(const pm_location *l, char *buf, size_t size) {
  snprintf(buf, size, "%s/.pomp-room.%llu", pm_experiment_dir,
           (unsigned long long)pm_location_id(l));
}

/* OTF2's name of the location's event file (docs/TRACE.md). */
static void event_path(const pm_location *l, char *buf, size_t size) {
  snprintf(buf, size, "%s/traces/%llu.evt", pm_experiment_dir,
           (unsigned long long)pm_location_id(l));
}

static void lock_path(char *buf, size_t size) {
  snprintf(buf, size, "%s/.pomp-room.lock", pm_experiment_dir);
}

void pm_room_open(void) {
  char path[PU_PATH_MAX];
  lock_path(path, sizeof path);
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) close(fd);
}

void pm_room_remove_lock(void) {
  char path[PU_PATH_MAX];
  lock_path(path, sizeof path);
  unlink(path);
}

/* The run's room lock, LOCK_SH or LOCK_EX; an open file of its own per
   call, since flock locks belong to the open file, not to the thread.
   -1 where it cannot be taken (then the claims go on unlocked). */
static int lock_room(int how) {
  char path[PU_PATH_MAX];
  lock_path(path, sizeof path);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  int rc;
  while ((rc = flock(fd, how)) != 0 && errno == EINTR) {
  }
  if (rc != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

static void unlock_room(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

/* bytes more in the room file; 0 or an errno value */
static int grow_room_file(pm_location *l, uint64_t bytes) {
  char path[PU_PATH_MAX];
  room_path(l, path, sizeof path);
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return errno;
  int rc = posix_fallocate(fd, (off_t)l->room.in_room_file, (off_t)bytes);
  close(fd);
  if (rc == 0) l->room.in_room_file += bytes;
  return rc;
}

/* [from, to) of the event file allocated, its size unchanged; 0 or an
   errno value (EOPNOTSUPP: the file system cannot) */
static int grow_event_file(const pm_location *l, uint64_t from, uint64_t to) {
  char path[PU_PATH_MAX];
  event_path(l, path, sizeof path);
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  int rc = fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)from, (off_t)(to - from)) ? errno : 0;
  close(fd);
  return rc;
}

static int refused_in_file(int rc) {
  if (rc != EOPNOTSUPP && rc != ENOSYS) return 0;
  if (atomic_exchange(&in_file, 0))
    pm_log("the file system of %s cannot allocate room beyond a file's end: each event file's "
           "room stays in its room file and is handed over at every buffer flush",
           pm_experiment_dir);
  return 1;
}

/* Room up to byte `to` of the event file: in the file once OTF2 created
   it (where the file system can), in the room file before. */
static int claim_to(pm_location *l, uint64_t to) {
  int rc = EOPNOTSUPP;
  if (l->room.created && atomic_load(&in_file)) {
    rc = grow_event_file(l, l->room.claimed, to);
    if (rc && !refused_in_file(rc)) return rc;
  }
  if (rc) rc = grow_room_file(l, to - l->room.claimed);
  if (rc == 0) l->room.claimed = to;
  return rc;
}

int pm_room_claim(pm_location *l, uint64_t need) {
  if (l->room.claimed >= need || atomic_load(&claims_off)) return 0;
  /* OTF2 asks for the next chunk inside the flush: a hand-over holds the
     lock already (exclusively) */
  int lock = l->room.handing ? -1 : lock_room(LOCK_SH);
  int rc = claim_to(l, need);
  unlock_room(&lock);
  if (rc && rc != ENOSPC && !atomic_exchange(&claims_off, 1))
    pm_err("cannot claim room on the disk for the events in %s: %s; a full disk may cut the "
           "event files",
           pm_experiment_dir, strerror(rc));
  return rc == ENOSPC ? ENOSPC : 0;
}

/* The room file's room freed (under the run's room lock). */
static void free_room_file(pm_location *l) {
  char path[PU_PATH_MAX];
  room_path(l, path, sizeof path);
  unlink(path);
  l->room.in_room_file = 0;
}

void pm_room_hand_over(pm_location *l) {
  if (l->room.handing || (l->room.created && atomic_load(&in_file))) return;
  l->room.handing = 1;
  l->room.lock = lock_room(LOCK_EX);
  free_room_file(l);
}

/* The event file's size on disk so far. */
static uint64_t event_file_size(const pm_location *l) {
  char path[PU_PATH_MAX];
  struct stat st;
  event_path(l, path, sizeof path);
  return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

int pm_room_settle(pm_location *l) {
  if (!l->room.handing) return 0;
  l->room.handing = 0;
  l->room.created = 1;
  free_room_file(l); /* claims within the flush (OTF2's next chunk) went there */
  int rc = l->room.claimed ? EOPNOTSUPP : 0;
  if (rc && atomic_load(&in_file)) {
    rc = grow_event_file(l, 0, l->room.claimed);
    if (rc) refused_in_file(rc);
  }
  if (rc && rc != ENOSPC) {
    uint64_t written = event_file_size(l);
    rc = l->room.claimed > written ? grow_room_file(l, l->room.claimed - written) : 0;
  }
  unlock_room(&l->room.lock);
  return rc == ENOSPC ? ENOSPC : 0;
}

void pm_room_closed(pm_location *l) {
  /* a hand-over at close: OTF2 has written the file */
  if (l->room.handing) l->room.created = 1;
  l->room.handing = 0;
  unlock_room(&l->room.lock);
  free_room_file(l);
  if (!l->room.created) return;
  char path[PU_PATH_MAX];
  /* the room beyond the file's end goes back (the definitions need it):
     truncating to its own size frees the blocks past it (ext4, tmpfs,
     xfs; a hole punched there is clamped to the size on ext4) */
  event_path(l, path, sizeof path);
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && l->room.claimed > (uint64_t)st.st_size &&
      ftruncate(fd, st.st_size) != 0)
    pm_log("%s: the room beyond its end could not be given back: %s", path, strerror(errno));
  if (fd >= 0) close(fd);
}

void pm_room_forget_all(void) {
  for (uint32_t t = 0; t < PM_MAX_LOCATIONS; t++) {
    pm_location *l = pm_location_get(t);
    if (!l) continue;
    char path[PU_PATH_MAX];
    room_path(l, path, sizeof path);
    unlink(path);
    l->room.handing = 0;
    unlock_room(&l->room.lock);
  }
}

/* "1.5 MiB", "12.0 KiB", "512 B" */
static void human_bytes(char *buf, size_t size, uint64_t bytes) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) {
    snprintf(buf, size, "%llu B", (unsigned long long)bytes);
    return;
  }
  double v = (double)bytes / 1024;
  int u = 0;
  for (; v >= 1024 && u < 3; u++) v /= 1024;
  snprintf(buf, size, "%.1f %s", v, units[u]);
}

void pm_room_describe(char *buf, size_t size) {
  char real[PATH_MAX], total[32], avail[32];
  const char *dir = realpath(pm_experiment_dir, real) ? real : pm_experiment_dir;
  char mount[PU_PATH_MAX] = "?", type[64] = "?";
  size_t best = 0;
  FILE *m = setmntent("/proc/self/mounts", "r");
  for (struct mntent *e; m && (e = getmntent(m));) {
    size_t n = strlen(e->mnt_dir);
    int under = !strncmp(dir, e->mnt_dir, n) && (dir[n] == '/' || !dir[n] || n == 1);
    if (under && n >= best) { /* the last of the mounts on one place is the one seen */
      best = n;
      snprintf(mount, sizeof mount, "%s", e->mnt_dir);
      snprintf(type, sizeof type, "%s", e->mnt_type);
    }
  }
  if (m) endmntent(m);
  struct statvfs st;
  if (statvfs(pm_experiment_dir, &st) != 0) memset(&st, 0, sizeof st);
  human_bytes(total, sizeof total, (uint64_t)st.f_blocks * st.f_frsize);
  human_bytes(avail, sizeof avail, (uint64_t)st.f_bavail * st.f_frsize);
  snprintf(buf, size, "file system %s (%s), %s, %s free", mount, type, total, avail);
}
