/* pm_tail.c -- time-based flushing. OTF2 writes a location's events only
   when its buffer is full (16 MiB by default: minutes of a thread's
   events), so a rank killed with SIGKILL, and every rank mpirun kills
   with it, used to lose them all. Every POMP_FLUSH_INTERVAL each thread
   copies the event chunks still in its buffer to its tail file,
   fragments/<rank>.<thread>.tail (docs/TRACE.md), at its next record:
   between two records, so the chunks hold whole records. The periodic
   fragment is written first (its definitions before the events that use
   them). pomp-recover appends a tail to the event file it continues.

   The copy is incremental: a chunk is written whole once it is full, the
   chunk being filled at every copy (with the number of its last event in
   its header, which OTF2 writes only when the chunk is full). A thread
   that records nothing new writes nothing. OTF2's event file and its
   memory are never touched: the tail is a separate file, removed when
   the run finishes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "pm_location.h"
#include "pm_trace.h"
#include "pomp_unify.h"
#include "pomp_util.h"

/* The tail file's header (docs/TRACE.md, "Tail files"), little-endian. */
enum {
  TAIL_MAGIC = 0,     /* "POMPTAIL" */
  TAIL_VERSION = 8,   /* u32, 1 */
  TAIL_HEADER = 12,   /* u32, the header's size: the chunks follow it */
  TAIL_LOCATION = 16, /* u64, the OTF2 location id */
  TAIL_CHUNK = 24,    /* u64, the event chunk size */
  TAIL_BASE = 32,     /* u64, the bytes of the event file the chunks follow */
  TAIL_EVENTS = 40,   /* u64, the number of the last event in the chunks */
  TAIL_INTERVAL = 48, /* u64, POMP_FLUSH_INTERVAL in ns */
  TAIL_TIME = 56,     /* u64, the time of the copy (the events' clock) */
  TAIL_BYTES = 64
};
/* OTF2's chunk header: the number of the chunk's last event, written by
   OTF2 when the chunk is full (pm_tail writes it for the current one). */
enum { CHUNK_LAST_EVENT = 10 };

typedef struct pm_tail {
  int fd;          /* open during a copy only (thousands of threads, one fd each, would
                      exhaust the process's limit); -1 otherwise */
  int broken;      /* could not be written (said once): no more copies */
  uint64_t base;   /* TAIL_BASE written */
  size_t whole;    /* chunks written full since base */
  uint64_t events; /* TAIL_EVENTS written */
  char path[PU_PATH_MAX];
} pm_tail;

static void put_u64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

static int write_at(int fd, const void *p, size_t n, uint64_t at) {
  const unsigned char *b = p;
  while (n) {
    ssize_t w = pwrite(fd, b, n, (off_t)at);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    b += w, at += (uint64_t)w, n -= (size_t)w;
  }
  return 0;
}

static pm_tail *open_tail(pm_location *l) {
  pm_tail *tail = calloc(1, sizeof *tail);
  if (!tail) return NULL;
  snprintf(tail->path, sizeof tail->path, "%s/fragments/%u.%u.tail", pm_experiment_dir,
           pm_coll.rank, l->thread);
  int fd = open(tail->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  tail->fd = -1;
  tail->base = UINT64_MAX; /* the header is written at the first copy */
  tail->broken = fd < 0;
  if (fd < 0) pm_err("cannot write %s: %s", tail->path, strerror(errno));
  else close(fd);
  return tail;
}

/* A new base (the buffer was flushed since: the old chunks are in the
   event file now): the header first, then the chunks. */
static int write_header(const pm_location *l, pm_tail *tail, uint64_t base) {
  unsigned char h[TAIL_BYTES] = {0};
  memcpy(h + TAIL_MAGIC, "POMPTAIL", 8);
  uint32_t version = 1, bytes = TAIL_BYTES;
  memcpy(h + TAIL_VERSION, &version, 4);
  memcpy(h + TAIL_HEADER, &bytes, 4);
  put_u64(h + TAIL_LOCATION, pm_location_id(l));
  put_u64(h + TAIL_CHUNK, pm_evt_chunk);
  put_u64(h + TAIL_BASE, base);
  put_u64(h + TAIL_INTERVAL, pm_cfg.flush_interval);
  if (ftruncate(tail->fd, TAIL_BYTES) != 0 || write_at(tail->fd, h, sizeof h, 0) != 0) return -1;
  tail->base = base;
  tail->whole = 0;
  return 0;
}

/* The chunks not yet written full, then the one being filled with the
   number of its last event in its header. */
static int write_chunks(pm_tail *tail, const unsigned char **chunks, size_t n, uint64_t events) {
  for (size_t i = tail->whole; i < n; i++) {
    uint64_t at = TAIL_BYTES + i * pm_evt_chunk;
    if (i + 1 < n) {
      if (write_at(tail->fd, chunks[i], pm_evt_chunk, at) != 0) return -1;
      tail->whole = i + 1;
      continue;
    }
    unsigned char head[CHUNK_LAST_EVENT + 8];
    memcpy(head, chunks[i], CHUNK_LAST_EVENT);
    put_u64(head + CHUNK_LAST_EVENT, events);
    if (write_at(tail->fd, head, sizeof head, at) != 0 ||
        write_at(tail->fd, chunks[i] + sizeof head, pm_evt_chunk - sizeof head, at + sizeof head) !=
            0)
      return -1;
  }
  return 0;
}

/* The buffer's chunks from where the tail stands; then the count and the
   time in the header. */
static int copy_chunks(const pm_location *l, pm_tail *tail, uint64_t events, uint64_t t) {
  /* the buffer's chunks: the first is always granted, then POMP_BUFFER */
  size_t max = pm_cfg.buffer / pm_evt_chunk + 2;
  const unsigned char **chunks = malloc(max * sizeof *chunks); /* every few seconds */
  uint64_t flushed;
  size_t n = chunks ? pm_archive_evt_chunks(l, chunks, max, &flushed) : 0;
  /* a copy must not take the room the event buffers claim next
     (pm_room.c): on a nearly full disk there is no copy */
  if (n && !pm_archive_room_for((n + 1) * pm_evt_chunk)) {
    free(chunks);
    return 0;
  }
  int rc = n && flushed != tail->base ? write_header(l, tail, flushed) : 0;
  if (n && rc == 0) rc = write_chunks(tail, chunks, n, events);
  free(chunks);
  if (!n || rc != 0) return rc;
  unsigned char count[8], when[8];
  put_u64(count, events);
  put_u64(when, t);
  if (write_at(tail->fd, count, 8, TAIL_EVENTS) != 0 || write_at(tail->fd, when, 8, TAIL_TIME) != 0)
    return -1;
  tail->events = events;
  return 0;
}

void pm_tail_write(pm_location *l, uint64_t t) {
  uint64_t every = pm_cfg.flush_interval;
  int running = atomic_load_explicit(&pm_state, memory_order_relaxed) == PM_RUNNING;
  if (!every || !l->writer || !running || pm_archive_disk_full() || pm_archive_full_elsewhere()) {
    l->tail_due = UINT64_MAX; /* the finishing thread writes the rest */
    return;
  }
  int first = l->tail_due == 0;
  /* every 3/4 of the interval: a copy's own time and a thread that
     records again only a little after the due time stay within it, so a
     kill loses at most the last interval */
  l->tail_due = t + every / 4 * 3;
  if (first) return; /* the interval starts with the first record */
  uint64_t events = 0;
  if (OTF2_EvtWriter_GetNumberOfEvents(l->writer, &events) != OTF2_SUCCESS) return;
  if (l->tail && events == l->tail->events) return; /* nothing new */
  pm_archive_before_flush();                        /* the fragment: definitions first */
  if (!l->tail) l->tail = open_tail(l);
  pm_tail *tail = l->tail;
  if (!tail || tail->broken) return;
  tail->fd = open(tail->path, O_WRONLY | O_CLOEXEC);
  int rc = tail->fd >= 0 ? copy_chunks(l, tail, events, t) : -1;
  int err = errno;
  if (tail->fd >= 0) close(tail->fd);
  tail->fd = -1;
  if (rc == 0) return;
  if (err == ENOSPC) pm_archive_out_of_space();
  else
    pm_err("cannot write %s: %s; no more copies of this thread's events", tail->path,
           strerror(err));
  tail->broken = 1;
  l->tail_due = UINT64_MAX;
}

void pm_tail_remove_all(void) {
  for (uint32_t i = 0; i < PM_MAX_LOCATIONS; i++) {
    pm_location *l = pm_location_get(i);
    if (!l || !l->tail) continue;
    l->tail_due = UINT64_MAX;
    unlink(l->tail->path);
    free(l->tail);
    l->tail = NULL;
  }
}
