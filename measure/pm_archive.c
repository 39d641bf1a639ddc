/* pm_archive.c -- opening the OTF2 archive and the callbacks OTF2 calls
 * while writing: memory (POMP_BUFFER per location), flush (recorded as a
 * TRACE BUFFER FLUSH region), locking (pthreads), collectives (pm_coll).
 */
#include <errno.h>
#include <fcntl.h>
#include <otf2/OTF2_Pthread_Locks.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "pm_location.h"
#include "pm_trace.h"
#include "pomp_unify.h"
#include "pomp_util.h"

OTF2_Archive *pm_archive;
uint64_t pm_evt_chunk, pm_def_chunk;
/* What runs before a full event buffer reaches the disk, given by the
   life-cycle code that opens the archive (the periodic fragment). */
static void (*before_flush)(void);
static _Atomic int disk_full;    /* pm_archive_out_of_space: once */
static _Atomic int write_failed; /* an OTF2 write failed (ENOSPC): its writers are damaged */

/* Chunks of one OTF2 buffer, linked through a header in front of each. */
enum { CHUNK_HEADER = 64 }; /* keeps the chunk cache-line aligned */
typedef struct chunk {
  struct chunk *next;
} chunk;
typedef struct buffer_memory {
  chunk *chunks;
  uint64_t used;
  uint64_t flushed; /* event buffers: bytes their flushes wrote to the file */
} buffer_memory;

/* The room of a new chunk of l's event buffer (pm_room.c): the chunk
   ends at byte `end` of the event file, and PM_ROOM_SPARE bytes more are
   claimed with it. When a claim fails the disk is full: recording stops,
   and the chunk asked for is given all the same: what is still recorded
   on l (the record in flight, the Leaves of the regions still open, a
   few hundred bytes) fits in the spare room at its start, and the last
   chunk is written at close only as far as it is used. Another process's
   marker stops recording here too. */
enum { PM_ROOM_SPARE = 64 * 1024 };
static void stop_recording(pm_location *l, uint64_t events);

/* The events recorded on l (NULL: none): its writer's count, or the count
   at its last flush where the writer cannot count: it has none, or OTF2
   is between two chunks (inside a flush, or after one with no chunk used
   yet, where asking the writer crashes). */
static uint64_t recorded_events(pm_location *l, int between_chunks) {
  uint64_t events = 0;
  if (!l) return 0;
  if (between_chunks || !l->writer ||
      OTF2_EvtWriter_GetNumberOfEvents(l->writer, &events) != OTF2_SUCCESS)
    events = atomic_load_explicit(&l->flushed_events, memory_order_relaxed);
  return events;
}

static void claim_chunk(pm_location *l, const buffer_memory *b, uint64_t size) {
  uint64_t end = b->flushed + b->used + size;
  if (!atomic_load(&disk_full) &&
      (pm_archive_full_elsewhere() || pm_room_claim(l, end + PM_ROOM_SPARE) == ENOSPC))
    stop_recording(l, recorded_events(l, !b->used));
  if (end - size + PM_ROOM_SPARE > l->room.claimed) l->room.unclaimed += size;
}

/* Called by the buffer's own writer thread only, so no locking. A NULL
   answer for a full event buffer makes OTF2 flush it to disk (its room
   is claimed: the flush cannot fail for want of space). */
static void *mem_allocate(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
                          uint64_t size) {
  (void)user;
  buffer_memory *b = *per_buffer;
  pm_location *l = type == OTF2_FILETYPE_EVENTS ? pm_location_get(pm_loc_thread(loc)) : NULL;
  if (!b) {
    *per_buffer = b = calloc(1, sizeof *b);
    if (l && b) l->evt_memory = b; /* pm_archive_evt_chunks: the tail file's copy */
  }
  if (!b) return NULL;
  if (type == OTF2_FILETYPE_EVENTS && b->used && b->used + size > pm_cfg.buffer) return NULL;
  if (l) claim_chunk(l, b, size);
  chunk *c = malloc(CHUNK_HEADER + size);
  if (!c) return NULL; /* OTF2 flushes and retries */
  c->next = b->chunks;
  b->chunks = c;
  b->used += size;
  return (char *)c + CHUNK_HEADER;
}

static void mem_free_all(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
                         bool final) {
  (void)user;
  buffer_memory *b = *per_buffer;
  if (!b) return;
  /* a flush wrote every chunk whole (only the final one cuts the last) */
  for (chunk *c = b->chunks; c && type == OTF2_FILETYPE_EVENTS && !final; c = c->next)
    b->flushed += pm_evt_chunk;
  while (b->chunks) {
    chunk *next = b->chunks->next;
    free(b->chunks);
    b->chunks = next;
  }
  b->used = 0;
  if (final) {
    pm_location *l = type == OTF2_FILETYPE_EVENTS ? pm_location_get(pm_loc_thread(loc)) : NULL;
    if (l && l->evt_memory == b) l->evt_memory = NULL;
    free(b);
    *per_buffer = NULL;
  }
}

size_t pm_archive_evt_chunks(const pm_location *l, const unsigned char **chunks, size_t max,
                             uint64_t *flushed) {
  const buffer_memory *b = l->evt_memory;
  *flushed = b ? b->flushed : 0;
  size_t n = 0;
  for (const chunk *c = b ? b->chunks : NULL; c; c = c->next) n++;
  if (n > max) return 0; /* never: max is the buffer's chunk count */
  size_t i = n;
  for (const chunk *c = b ? b->chunks : NULL; c; c = c->next) /* newest first */
    chunks[--i] = (const unsigned char *)c + CHUNK_HEADER;
  return n;
}

void pm_archive_before_flush(void) {
  if (before_flush) before_flush();
}

static const OTF2_MemoryCallbacks memory_callbacks = {mem_allocate, mem_free_all};

/* Room for a tail copy (pm_tail.c) of bytes: the copy must not take the
   room the event buffers will claim next, one POMP_BUFFER per location of
   this process. */
int pm_archive_room_for(uint64_t bytes) {
  struct statvfs st;
  if (statvfs(pm_experiment_dir, &st) != 0) return 1;
  uint64_t need = bytes;
  for (uint32_t t = 0; t < PM_MAX_LOCATIONS; t++)
    if (pm_location_get(t)) need += pm_cfg.buffer;
  return (uint64_t)st.f_bavail * st.f_frsize >= need;
}

int pm_archive_write_failed(void) { return atomic_load(&write_failed); }

void pm_archive_out_of_space(void);

/* The marker the first process to find the disk full leaves in the
   experiment: the other ranks of an MPI run stop recording at their next
   flush too, and only the first says so on stderr. */
static void marker_path(char *buf, size_t size) {
  snprintf(buf, size, "%s/.pomp-disk-full", pm_experiment_dir);
}

void pm_archive_remove_markers(void) {
  char path[PU_PATH_MAX];
  marker_path(path, sizeof path);
  unlink(path);
  pm_room_remove_lock();
}

int pm_archive_full_elsewhere(void) {
  char marker[PU_PATH_MAX];
  marker_path(marker, sizeof marker);
  return access(marker, F_OK) == 0;
}

/* A full event buffer is about to reach the disk: first before_flush (the
   periodic fragment, so that the definitions of every event in it are on
   disk before the events are: a later SIGKILL leaves them readable).
   Called by the buffer's own thread; final flushes (closing) need no
   fragment. */
static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final) {
  (void)user;
  pm_location *l = type == OTF2_FILETYPE_EVENTS ? pm_location_get(pm_loc_thread(loc)) : NULL;
  if (l && !final) {
    uint64_t events = 0;
    if (OTF2_EvtWriter_GetNumberOfEvents(caller, &events) == OTF2_SUCCESS)
      atomic_store_explicit(&l->flushed_events, events, memory_order_relaxed);
    if (before_flush) before_flush();
    pm_location_flush_began(loc);
  }
  /* a first flush creates the event file: its room moves into it (last,
     so that the run's room lock is held only while OTF2 writes) */
  if (l) pm_room_hand_over(l);
  return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc) {
  (void)user;
  uint64_t t = pm_clock(); /* the events' clock, so BufferFlush fits in */
  pm_location *l = type == OTF2_FILETYPE_EVENTS ? pm_location_get(pm_loc_thread(loc)) : NULL;
  /* ENOSPC: another program took the room handed over meanwhile */
  if (l && pm_room_settle(l) == ENOSPC) stop_recording(l, recorded_events(l, 1));
  if (l) pm_location_flush_ended(loc, t);
  return t;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

/* ---- a full disk ------------------------------------------------------

   Every event file claims its room before its buffer takes events
   (pm_room.c), so when a claim fails recording stops at a record's end on
   every location and every event taken reaches the disk: the files close
   normally. Space for the definitions is reserved when the archive opens
   (a file of PM_RESERVE bytes), freed by rank 0 in the unification once
   every event file is closed (pm_write.c), and the definitions and anchor
   are written as usual: pomp-analyze reads the trace directly. OTF2's own
   messages (about 30 lines on a failed write) give way to one line of
   ours. */
enum { PM_RESERVE = 512 * 1024 };
static char reserve_path[PU_PATH_MAX];

static void make_reserve(void) {
  snprintf(reserve_path, sizeof reserve_path, "%s/.pomp-reserve", pm_experiment_dir);
  int fd = open(reserve_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  if (posix_fallocate(fd, 0, PM_RESERVE) != 0) unlink(reserve_path);
  close(fd);
}

void pm_archive_release_reserve(void) {
  if (reserve_path[0]) unlink(reserve_path);
}

static uint64_t full_at_events;
static uint32_t full_at_thread;

int pm_archive_disk_full(void) { return atomic_load(&disk_full); }

void pm_archive_disk_full_at(uint64_t *events, uint32_t *thread) {
  if (events) *events = full_at_events;
  if (thread) *thread = full_at_thread;
}

void pm_archive_out_of_space(void) {
  /* recorded so far: they all reach the file when it closes */
  stop_recording(pm_tls_location, recorded_events(pm_tls_location, 0));
}

/* Once: recording stops for good (pm_runtime.c's set_state asks
   pm_archive_disk_full); l (may be NULL) found the disk full after its
   events. */
static void stop_recording(pm_location *l, uint64_t events) {
  if (atomic_exchange(&disk_full, 1)) return;
  atomic_store(&pm_recording, 0);
  uint32_t thread = l ? l->thread : 0;
  full_at_events = events;
  full_at_thread = thread;
  /* one line for the run: the first process to create the marker says
     it, the others (ranks on the same disk) log it */
  char marker[PU_PATH_MAX];
  marker_path(marker, sizeof marker);
  int fd = open(marker, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  int first = fd >= 0 || errno != EEXIST;
  if (fd >= 0) close(fd);
  uint64_t location = pm_loc_id(pm_coll.rank, thread);
  char fs[PU_PATH_MAX + 200];
  pm_room_describe(fs, sizeof fs);
  (first ? pm_err : pm_log)("trace incomplete: disk full after %llu events of location %llu (%s: "
                            "%s); recording stops on every location, every event recorded is "
                            "kept; the program runs on",
                            (unsigned long long)events, (unsigned long long)location,
                            pm_experiment_dir, fs);
}

static OTF2_ErrorCode on_otf2_error(void *user, const char *file, uint64_t line,
                                    const char *function, OTF2_ErrorCode code, const char *fmt,
                                    va_list va) {
  (void)user, (void)file, (void)line, (void)function;
  /* the first report of a full disk may carry another code (a failed
     buffer write): errno still says why */
  if (code == OTF2_ERROR_ENOSPC || errno == ENOSPC) {
    atomic_store(&write_failed, 1);
    stop_recording(pm_tls_location, recorded_events(pm_tls_location, 1)); /* inside a flush */
  }
  if (atomic_load(&disk_full)) return code; /* its consequences: said already */
  char what[512];
  vsnprintf(what, sizeof what, fmt, va);
  pm_err("OTF2: %s: %s", OTF2_Error_GetDescription(code), what);
  return code;
}

int pm_archive_open(void (*flush_hook)(void)) {
  /* OTF2 keeps writes smaller than its 4 MiB file buffer in memory until
     the buffer is full (otf2_file_write_buffered): a flush would then not
     reach the disk, and a SIGKILL would lose it. Chunks of 4 MiB are
     written straight through (the buffer's threshold), so every buffer
     flush really reaches the kernel. A POMP_BUFFER below 4 MiB keeps the
     smallest chunk: up to 4 MiB of its flushes stay in memory. */
  uint64_t chunk = pm_cfg.buffer >= (4u << 20) ? (4u << 20) : OTF2_CHUNK_SIZE_MIN;
  pm_evt_chunk = chunk;
  pm_def_chunk = 4u << 20;
  OTF2_Archive *a = OTF2_Archive_Open(pm_experiment_dir, "traces", OTF2_FILEMODE_WRITE, chunk,
                                      pm_def_chunk, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!a) {
    pm_err("cannot open the OTF2 archive in '%s'; measurement disabled", pm_experiment_dir);
    return -1;
  }
  OTF2_ErrorCode rc = OTF2_Archive_SetFlushCallbacks(a, &flush_callbacks, NULL);
  if (rc == OTF2_SUCCESS) rc = OTF2_Archive_SetMemoryCallbacks(a, &memory_callbacks, NULL);
  if (rc == OTF2_SUCCESS)
    rc = OTF2_Archive_SetCollectiveCallbacks(a, pm_coll.cb, pm_coll.data, pm_coll.ctx, NULL);
  if (rc == OTF2_SUCCESS) rc = OTF2_Pthread_Archive_SetLockingCallbacks(a, NULL);
  if (rc == OTF2_SUCCESS) rc = OTF2_Archive_SetCreator(a, "libpomp " POMP_VERSION_STRING);
  if (rc == OTF2_SUCCESS) rc = OTF2_Archive_OpenEvtFiles(a);
  if (rc != OTF2_SUCCESS) {
    pm_err("cannot set up the OTF2 archive in '%s': %s; measurement disabled", pm_experiment_dir,
           OTF2_Error_GetDescription(rc));
    OTF2_Archive_Close(a);
    return -1;
  }
  OTF2_Error_RegisterCallback(on_otf2_error, NULL);
  make_reserve();
  pm_room_open();
  before_flush = flush_hook;
  pm_archive = a;
  pm_locations_open_writers();
  return 0;
}

OTF2_EvtWriter *pm_archive_evt_writer(pm_location *l) {
  /* the first chunk's room, before OTF2 allocates it: l may not be in the
     location table yet, where mem_allocate looks for it */
  if (!atomic_load(&disk_full) && pm_room_claim(l, pm_evt_chunk + PM_ROOM_SPARE) == ENOSPC)
    stop_recording(l, 0);
  uint64_t location_id = pm_location_id(l);
  OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(pm_archive, location_id);
  if (!w) pm_err("no OTF2 event writer for location %llu", (unsigned long long)location_id);
  return w;
}
