/* rc_tail.c -- a partial rank's events that never reached its event file:
   the tail files libpomp copies them to every POMP_FLUSH_INTERVAL
   (measure/pm_tail.c, docs/TRACE.md "Tail files"), and the last chunk
   such a copy ends with, which holds whatever the memory held after its
   last event. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rc.h"

/* The tail file's header (written by measure/pm_tail.c). */
enum {
  TAIL_VERSION = 8,
  TAIL_HEADER = 12,
  TAIL_LOCATION = 16,
  TAIL_CHUNK = 24,
  TAIL_BASE = 32,
  TAIL_INTERVAL = 48,
  TAIL_BYTES = 64
};
/* OTF2's records as a chunk holds them: the chunk header (type, byte
   order, first and last event number), timestamps (type and 8 bytes),
   attribute lists and events (type, length byte, or 0xff and 8 bytes of
   length, then the data). */
enum {
  END_OF_CHUNK = 0,
  TIMESTAMP = 5,
  ATTRIBUTE_LIST = 6,
  FIRST_EVENT_TYPE = 10,
  CHUNK_FIRST = 2,
  CHUNK_LAST = 10,
  CHUNK_HEADER_BYTES = 18,
  LONG_RECORD = 0xff
};

static uint64_t get_u64(const unsigned char *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static int copy_range(int from, int to, uint64_t at, uint64_t n, uint64_t to_at) {
  enum { STEP = 1 << 20 };
  unsigned char *buf = malloc(STEP);
  int rc = buf ? 0 : -1;
  for (uint64_t done = 0; rc == 0 && done < n;) {
    size_t want = n - done < STEP ? (size_t)(n - done) : STEP;
    ssize_t r = pread(from, buf, want, (off_t)(at + done));
    if (r <= 0 || pwrite(to, buf, (size_t)r, (off_t)(to_at + done)) != r) rc = -1;
    done += r > 0 ? (uint64_t)r : 0;
  }
  free(buf);
  return rc;
}

int rc_tail_append(rc_set *set, uint32_t rank, uint64_t loc, const char *evt, uint64_t *whole) {
  char path[PU_PATH_MAX], name[64];
  snprintf(name, sizeof name, "fragments/%u.%u.tail", rank, pm_loc_thread(loc));
  rc_path(path, sizeof path, set->dir, name);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  unsigned char h[TAIL_BYTES];
  struct stat st;
  uint32_t version = 0, header = 0;
  int ok = fstat(fd, &st) == 0 && pread(fd, h, sizeof h, 0) == (ssize_t)sizeof h &&
           !memcmp(h, "POMPTAIL", 8);
  if (ok) {
    memcpy(&version, h + TAIL_VERSION, 4);
    memcpy(&header, h + TAIL_HEADER, 4);
  }
  uint64_t chunk = set->evt_chunk;
  ok = ok && version == 1 && header == TAIL_BYTES && get_u64(h + TAIL_LOCATION) == loc &&
       get_u64(h + TAIL_CHUNK) == chunk;
  if (!ok) pu_warn("%s: not a tail file of this location; ignored", path);
  /* a tail continues the file's whole chunks; one that starts elsewhere
     is older than the file's last flush (which holds its events) */
  uint64_t chunks = ok ? ((uint64_t)st.st_size - TAIL_BYTES) / chunk : 0;
  int used = 0;
  if (ok && get_u64(h + TAIL_BASE) == *whole && chunks) {
    int out = open(evt, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    used = out >= 0 && copy_range(fd, out, TAIL_BYTES, chunks * chunk, *whole) == 0;
    if (out >= 0 && close(out) != 0) used = 0;
    if (!used) pu_warn("%s: cannot append %s: %s", evt, path, strerror(errno));
    else *whole += chunks * chunk;
  }
  uint64_t interval = ok ? get_u64(h + TAIL_INTERVAL) : 0;
  if (interval > set->flush_interval) set->flush_interval = interval;
  close(fd);
  return used;
}

/* The length of the record at c[at] (type byte included) within n
   bytes; 0 when it is no record or does not fit. */
static uint64_t record_bytes(const unsigned char *c, uint64_t at, uint64_t n) {
  unsigned char type = c[at];
  if (type == TIMESTAMP) return at + 9 <= n ? 9 : 0;
  if (type != ATTRIBUTE_LIST && type < FIRST_EVENT_TYPE) return 0;
  if (at + 2 > n) return 0;
  uint64_t len = c[at + 1], head = 2;
  if (len == LONG_RECORD) {
    if (at + 10 > n) return 0;
    len = get_u64(c + at + 2);
    head = 10;
  }
  return len <= n - at - head ? head + len : 0;
}

int rc_tail_settle(const char *evt, uint64_t whole, uint64_t chunk, rc_times *times) {
  int fd = open(evt, O_RDWR | O_CLOEXEC);
  unsigned char *c = fd >= 0 ? malloc(chunk) : NULL;
  int rc = -1;
  if (c && pread(fd, c, CHUNK_HEADER_BYTES + 9, 0) == CHUNK_HEADER_BYTES + 9 &&
      c[CHUNK_HEADER_BYTES] == TIMESTAMP)
    times->first = get_u64(c + CHUNK_HEADER_BYTES + 1);
  if (c && pread(fd, c, chunk, (off_t)(whole - chunk)) == (ssize_t)chunk) {
    uint64_t first = get_u64(c + CHUNK_FIRST), last = get_u64(c + CHUNK_LAST);
    uint64_t want = last >= first ? last - first + 1 : 0, seen = 0, at = CHUNK_HEADER_BYTES;
    uint64_t end = at, t = 0;
    while (seen < want && at < chunk && c[at] != END_OF_CHUNK) {
      uint64_t n = record_bytes(c, at, chunk);
      if (!n) break;
      if (c[at] == TIMESTAMP) t = get_u64(c + at + 1);
      else if (c[at] >= FIRST_EVENT_TYPE) seen++, end = at + n, times->last = t;
      at += n;
    }
    /* what follows the last event is the memory's old content */
    memset(c + end, END_OF_CHUNK, chunk - end);
    uint64_t now_last = first + seen - 1;
    memcpy(c + CHUNK_LAST, &now_last, 8);
    rc = pwrite(fd, c, chunk, (off_t)(whole - chunk)) == (ssize_t)chunk ? 0 : -1;
  }
  free(c);
  if (fd >= 0 && close(fd) != 0) rc = -1;
  return rc;
}
