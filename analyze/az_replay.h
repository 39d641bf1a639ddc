/*
 * az_replay.h -- what the files of the replay driver share: replay.c (the
 * driver: the windows, the passes' run), decoders.c (the decoding threads
 * of --threads N), replay_back.c (the buffers of the backward reading) and
 * replay_file.c (a location's event file and its messages).  Internal to
 * these four; a pass uses az_pass.h.  Calls go one way, each file calling
 * only those after it: replay -> decoders -> replay_back -> replay_file
 * (analyze/README.md, "Who calls whom").
 */
#ifndef POMP_AZ_REPLAY_H
#define POMP_AZ_REPLAY_H

#include <otf2/otf2.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "az.h"
#include "az_common.h"
#include "az_pass.h"

/* ---- replay_file.c: a location's event file ---- */

/* last error text from OTF2, per thread: the decoding threads read too */
extern _Thread_local char az_otf2_message[256];
OTF2_ErrorCode az_on_otf2_error(void *u, const char *file, uint64_t line, const char *fn,
                                OTF2_ErrorCode code, const char *fmt, va_list va);
const char *az_otf2_why(OTF2_ErrorCode rc);
OTF2_CallbackCode az_on_unknown(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                OTF2_AttributeList *al);
OTF2_CallbackCode az_on_sample(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                               OTF2_AttributeList *al, OTF2_CallingContextRef context,
                               uint32_t unwind_distance, OTF2_InterruptGeneratorRef generator);
int az_load_local_defs(const az_analysis *a, uint32_t loc, OTF2_Reader *reader, char *err,
                       size_t size);
/* 1 when location loc's local definitions file holds no record: OTF2
   then maps no reference and corrects no timestamp of its events. */
int az_no_local_defs(const az_analysis *a, uint32_t loc);
int az_cut_files_read(const az_analysis *a);
/* The id mapping tables and clock offsets of a location's local
   definitions that change what the decoder buffers (replay_back.c,
   "decoded here"), as OTF2's definition reader gives them: pairs
   (local, global) of the region, communicator, I/O handle, calling
   context and interrupt generator tables in OTF2's order (ascending local
   ids), the clock offsets in the file's order. */
enum {
  AZ_MAP_REGION,
  AZ_MAP_COMM,
  AZ_MAP_IO_HANDLE,
  AZ_MAP_CONTEXT,
  AZ_MAP_GENERATOR,
  AZ_MAP_KINDS
};
typedef struct {
  uint64_t *pairs[AZ_MAP_KINDS];
  size_t npairs[AZ_MAP_KINDS], cap[AZ_MAP_KINDS];
  uint64_t *offset_time;
  int64_t *offset;
  size_t noffsets;
} az_local_tables;
/* 0, or -1 (t empty) when they cannot be read (OTF2 then reads). */
int az_read_local_tables(const az_analysis *a, uint32_t loc, az_local_tables *t);
void az_free_local_tables(az_local_tables *t);

void az_unreadable(az_cursor *s, const char *otf2_text, const char *hint);
void az_finish_location(az_replay *r, az_cursor *s, OTF2_Reader *reader, const char *cut_chunk);
uint64_t az_chunk_limit(az_cursor *s, OTF2_Reader *reader);
/* An event reader of location id whose timestamps are corrected by the
   archive's clock offsets (every pass and decoding thread reads so), or
   NULL. */
OTF2_EvtReader *az_event_reader(OTF2_Reader *reader, uint64_t id);
int az_open_location(az_cursor *s, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb,
                     uint8_t *defs_read);
int az_end_of_file(az_replay *r, az_cursor *s, OTF2_Reader *reader, const char *why);

/* ---- replay_back.c: the buffers of the backward reading ---- */

/* A backward pass gets a window's events of one location in reverse: the
   driver reads them forward (OTF2 3.0's backward reading crashes on our
   archives) into this buffer, then calls the pass's handlers from the
   last to the first.  17 bytes an event (16 and its kind beside): most
   are Enter and Leave, whose region is all they carry; the others keep
   as many values as their kind has beside (rev_values).  Smaller records
   than the 24 bytes and 40 bytes of values before: a third less memory to
   fill and read again, and fewer pages to fault in (the buffers are most
   of the backward passes' memory). */
typedef struct {
  OTF2_TimeStamp t;
  uint32_t dpos; /* its position less the buffer's lo */
  uint32_t arg;  /* Enter, Leave: the region; else the index of its values in more */
} az_rev_event;

/* Where the decoding of a chunk may start again (replay_back.c, "a block
   decoded here"): its events before a block's first are passed over, and
   the next block, which ends there, mostly starts in the same chunk. */
enum { AZ_RESUME_POINTS = 64, AZ_RESUME_EVERY = 8192 };
typedef struct {
  uint64_t count; /* events before it */
  az_time t;      /* the time in force there (timed: one was read) */
  uint32_t offset, timed;
} az_resume_point;

typedef struct { /* points every AZ_RESUME_EVERY events of chunk `chunk` of
                    the file of location loc, up to the last block's first
                    event; kept per location (a buffer, a decoding thread's
                    feed) from block to block */
  uint32_t loc, n;
  size_t chunk;
  size_t interval; /* forward: the clock interval of the point's time */
  az_resume_point at[AZ_RESUME_POINTS];
} az_resume;

typedef struct az_rev_buffer { /* per location: a block of several windows */
  az_rev_event *ev;
  uint8_t *kind; /* of each event in ev (REV_*) */
  size_t len, cap;
  uint64_t *more; /* the values of the events other than Enter and Leave */
  size_t nmore, capmore;
  uint32_t off_region; /* az_defs.off_region (MeasurementOnOff) */
  uint32_t kinds;      /* the REV_* kinds the decoder buffers, a bit each
                          (az_buffered_kinds: those the callbacks buffer) */
  uint64_t upto;       /* az_decode_block: the last event it decoded */
  size_t end;          /* ev[0..end) not delivered yet */
  uint64_t lo;         /* the block (a segment) holds the events after position lo */
  uint64_t *chunk;     /* the number of the first event of each chunk of its file */
  size_t nchunks;
  uint64_t chunk_size; /* of its event file, when a block may be decoded here
                          (az_chunk_starts: replay_back.c, "decoded here") */
  /* the location's id mapping tables and clock intervals the decoder
     applies (NULL: none); kept in the allocation of chunk */
  const struct az_loc_map *map;
  /* a decoding thread's segment of a forward pass (pace): it ends after
     the first event at or after stop (maxt: the latest time decoded) */
  int pace;
  az_time stop, maxt;
  az_resume resume; /* where its blocks' chunks may be decoded from */
} az_rev_buffer;

/* Events of all locations read in one go (blocks of windows): OTF2's Seek
   decodes from the start of its chunk, once per block instead of once per
   window; a block that can start at its chunk's start at most doubled
   does (az_rev_buffer.chunk), and Seek decodes nothing.  At most twice
   this many buffered events (17 bytes each, and the values of the MPI and
   thread events).  The bytes of the 24-byte records kept before (2^19 x
   24 / 17 events) were measured too: fewer blocks need a new reader and a
   Seek, but on bench_analyze's 8-rank trace (8.14 M events) the peak RSS
   was 65 MB against 41 MB for no measurable CPU (1.02-1.09 s against
   1.01-1.10 s, three runs each alternated, load ~6), and on its 4 x 4
   trace 46 MB against 37 MB for 0.19-0.20 s against 0.20-0.22 s. */
enum { AZ_BACK_BLOCK_EVENTS = 1 << 19 };

/* The most events a block may span: its positions and the index of its
   values (at most 5 an event) are 32-bit.  Only a location with this many
   events in one window of the first pass (whose windows hold 2^15 or 2^16
   events of all locations on average) has a larger one. */
#define AZ_BLOCK_SPAN_MAX ((uint64_t)UINT32_MAX / 5)

enum {
  REV_ENTER,
  REV_LEAVE,
  REV_FORK,
  REV_JOIN,
  REV_TEAM_BEGIN,
  REV_TEAM_END,
  REV_ACQUIRE,
  REV_RELEASE,
  REV_SEND,
  REV_ISEND,
  REV_ISEND_COMPLETE,
  REV_IRECV_REQUEST,
  REV_RECV,
  REV_IRECV,
  REV_CANCELLED,
  REV_COLL_END,
  /* decoded ahead for a forward pass only */
  REV_IO_BEGIN,
  REV_IO_COMPLETE,
  REV_TASK_CREATE,
  REV_TASK_SWITCH,
  REV_TASK_COMPLETE,
  REV_SAMPLE,
  REV_UNKNOWN
};

OTF2_EvtReaderCallbacks *az_make_rev_callbacks(const az_event_handlers *on, int forward);
/* The kinds az_make_rev_callbacks buffers, a bit each (az_rev_buffer.kinds). */
uint32_t az_buffered_kinds(const az_event_handlers *on, int forward);
/* An event other than Enter and Leave, of kind with values v (the
   buffer's), at t and position pos of the location with id l. */
OTF2_CallbackCode az_deliver_values(const az_event_handlers *on, az_cursor *c, OTF2_LocationRef l,
                                    uint8_t kind, az_time t, uint64_t pos, const uint64_t *v);
OTF2_CallbackCode az_deliver_forward(az_cursor *c, const az_rev_buffer *b, size_t i);
void az_block_room(az_rev_buffer *b, uint64_t n);
/* Events lo+1 .. to of location loc decoded into b from its event file's
   records, its chunks starting at events chunk[0..nchunks) (chunk_size
   bytes each; az_chunk_starts says where this may be done), map applied
   as OTF2's reader does, from a point of res (made anew where none
   serves): 0, or -1 with b emptied when OTF2 must read them.  A forward
   segment (b->pace) ends earlier where rev_put's pacing says so; b->upto
   is the last event decoded, and res keeps where the next segment
   starts.  Any thread; b and res its own. */
int az_decode_block(const az_analysis *a, uint32_t loc, const uint64_t *chunk, size_t nchunks,
                    uint64_t chunk_size, const struct az_loc_map *map, az_rev_buffer *b,
                    az_resume *res, uint64_t lo, uint64_t to);
int az_read_block(az_cursor *c, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb, az_rev_buffer *b,
                  uint64_t lo, uint64_t to);
void az_chunk_starts(az_cursor *c, OTF2_Reader *reader, az_rev_buffer *b);
uint64_t az_block_lo(const uint64_t *at, size_t stride, const uint64_t *chunk, size_t nchunks,
                     size_t w, uint64_t from, uint64_t to, uint64_t budget);
uint32_t az_handled_kinds(const az_event_handlers *on);
az_event_handlers az_union_handlers(const az_replay *rs, size_t np);

/* ---- decoders.c: the decoding threads ---- */

typedef struct az_pool az_pool;
/* NULL: no decoding threads (--threads 1, or none started), except for a
   forward pass (m NULL) whose locations the replay thread then decodes
   itself, segment by segment as a decoding thread would (reader: the
   analysis's); length: the forward windows' (window_stop) */
az_pool *az_pool_start(az_replay *r, const az_event_handlers *on, const az_marks *m,
                       uint64_t budget, az_time length, OTF2_Reader *reader);
int az_open_fed(az_cursor *s, OTF2_Reader *reader, az_pool *p, OTF2_EvtReaderCallbacks *cb,
                uint8_t *defs_read);
/* bufs: per location its chunk starts and tables (az_chunk_starts), or NULL */
void az_pool_go(az_pool *p, az_replay *r, const az_rev_buffer *bufs);
/* Whether location l's events come from the pool (az_advance_fed): with
   decoding threads all, inline those whose files the decoder reads. */
int az_pool_feeds(const az_pool *p, uint32_t l);
void az_pool_window(az_pool *p, size_t window);
void az_pool_stop(az_pool *p);
int az_advance_fed(az_replay *r, az_cursor *s, OTF2_Reader *reader, az_pool *p, az_time stop);
int az_take_block(az_pool *p, az_cursor *c, az_rev_buffer *b, uint64_t lo, uint64_t to);
/* A job's part of az_advance_fed (a forward `local` pass, az_pass.h):
   location s's events of the window from the segments decoded by now,
   to the handlers (s->in_job set), never waiting.  AZ_FED_WINDOW_END: the
   window's end reached, *read_pos where (as az_advance_fed sets it);
   AZ_FED_MORE: the replay thread goes on with az_advance_fed (a handler
   deferred, with s->failed AZ_DEFERRED, its event not delivered; the
   decoded segments used up, the last delivered, or an event of the
   driver's own handlers next). */
enum { AZ_FED_WINDOW_END, AZ_FED_MORE };
int az_fed_job(az_pool *p, az_cursor *s, uint64_t *read_pos);
/* fn(arg) in a decoding thread (or the caller's, az_pool_finish_jobs). */
void az_pool_job(az_pool *p, void (*fn)(void *), void *arg);
/* Returns once every job given is done (the caller runs those not taken). */
void az_pool_finish_jobs(az_pool *p);
/* The calling thread's slot for scratch of its own: 0 on the replay thread
   (and any thread not a pool's), 1 + k on decoding thread k; below
   az_analysis.threads where that is above 1. */
int az_pool_slot(void);
/* Its decoding threads. */
int az_pool_decoders(const az_pool *p);

#endif
