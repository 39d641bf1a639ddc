/* pm_archive.c -- opening the OTF2 archive and the callbacks OTF2 calls
 * while writing: memory (POMP_BUFFER per location), flush (recorded as a
 * TRACE BUFFER FLUSH region), locking (pthreads), collectives (pm_coll).
 */
#include <otf2/OTF2_Pthread_Locks.h>
#include <stdlib.h>

#include "pm_location.h"
#include "pm_trace.h"
#include "pomp_util.h"

OTF2_Archive *pm_archive;
uint64_t pm_evt_chunk, pm_def_chunk;
/* What runs before a full event buffer reaches the disk, given by the
   life-cycle code that opens the archive (the periodic fragment). */
static void (*before_flush)(void);

/* Chunks of one OTF2 buffer, linked through a header in front of each. */
enum { CHUNK_HEADER = 64 }; /* keeps the chunk cache-line aligned */
typedef struct chunk {
  struct chunk *next;
} chunk;
typedef struct buffer_memory {
  chunk *chunks;
  uint64_t used;
} buffer_memory;

/* Called by the buffer's own writer thread only, so no locking. A NULL
   answer for a full event buffer makes OTF2 flush it to disk. */
static void *mem_allocate(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
                          uint64_t size) {
  (void)user, (void)loc;
  buffer_memory *b = *per_buffer;
  if (!b) *per_buffer = b = calloc(1, sizeof *b);
  if (!b) return NULL;
  if (type == OTF2_FILETYPE_EVENTS && b->used && b->used + size > pm_cfg.buffer) return NULL;
  chunk *c = malloc(CHUNK_HEADER + size);
  if (!c) return NULL; /* OTF2 flushes and retries */
  c->next = b->chunks;
  b->chunks = c;
  b->used += size;
  return (char *)c + CHUNK_HEADER;
}

static void mem_free_all(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
                         bool final) {
  (void)user, (void)type, (void)loc;
  buffer_memory *b = *per_buffer;
  if (!b) return;
  while (b->chunks) {
    chunk *next = b->chunks->next;
    free(b->chunks);
    b->chunks = next;
  }
  b->used = 0;
  if (final) {
    free(b);
    *per_buffer = NULL;
  }
}

static const OTF2_MemoryCallbacks memory_callbacks = {mem_allocate, mem_free_all};

/* A full event buffer is about to reach the disk: first before_flush (the
   periodic fragment, so that the definitions of every event in it are on
   disk before the events are: a later SIGKILL leaves them readable).
   Called by the buffer's own thread; final flushes (closing) need no
   fragment. */
static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final) {
  (void)user;
  if (type == OTF2_FILETYPE_EVENTS && !final) {
    pm_location *l = pm_location_get((uint32_t)loc);
    uint64_t events = 0;
    if (l && OTF2_EvtWriter_GetNumberOfEvents(caller, &events) == OTF2_SUCCESS)
      atomic_store_explicit(&l->flushed_events, events, memory_order_relaxed);
    if (before_flush) before_flush();
    pm_location_flush_began(loc);
  }
  return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc) {
  (void)user;
  uint64_t t = pm_clock(); /* the events' clock, so BufferFlush fits in */
  if (type == OTF2_FILETYPE_EVENTS) pm_location_flush_ended(loc, t);
  return t;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

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
  before_flush = flush_hook;
  pm_archive = a;
  pm_locations_open_writers();
  return 0;
}

OTF2_EvtWriter *pm_archive_evt_writer(uint64_t location_id) {
  OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(pm_archive, location_id);
  if (!w) pm_err("no OTF2 event writer for location %llu", (unsigned long long)location_id);
  return w;
}
