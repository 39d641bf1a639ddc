/* replay.c -- the replay driver: runs passes (az_pass.h) over the event
 * files of the trace processes an analysis process owns.
 *
 * Each location's file is read by its own OTF2 reader, all of them
 * together in windows of time: a location reads until its events reach
 * the end of the window, then the next one does, masters before their
 * workers (so that a worker meeting its k-th ThreadTeamBegin finds the
 * master's k-th fork).  After each window the pass evaluates what is
 * complete.  The driver owns everything about reading: local definitions,
 * how many events a file really holds, files that end early or cannot be
 * read, and the messages naming file, location and event. */
#include <errno.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "az.h"
#include "az_archive.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_pass.h"
#include "az_tasks.h"
#include "pomp_util.h"

static char otf2_message[256]; /* last error text from OTF2 */

static OTF2_ErrorCode on_otf2_error(void *u, const char *file, uint64_t line, const char *fn,
                                    OTF2_ErrorCode code, const char *fmt, va_list va) {
  (void)u;
  (void)file;
  (void)line;
  (void)fn;
  vsnprintf(otf2_message, sizeof otf2_message, fmt, va);
  return code;
}

int az_cursor_backwards(az_cursor *c, az_time *t, uint64_t pos) {
  if (c->a->incomplete || c->cut_file) {
    /* the clock of a run that did not finish only goes forward (one
       offset, from MPI_Init), and so does any clock in a file that lacks
       its closing records: this is OTF2 reading the stale bytes of a
       previous chunk after a cut-off one; the location ends before it */
    c->stale = 1;
    *t = c->last;
    return 1;
  }
  az_warn(&c->a->diag, AZ_W_CLOCK, "%s: event %llu: timestamp goes backwards by %llu ticks",
          c->label, (unsigned long long)pos, (unsigned long long)(c->last - *t));
  *t = c->last;
  return 0;
}

static OTF2_CallbackCode on_unknown(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                    OTF2_AttributeList *al) {
  (void)l;
  (void)t;
  (void)al;
  az_cursor *s = u;
  az_warn(&s->a->diag, AZ_W_UNKNOWN_RECORD, "%s: event %llu: unknown record type; skipped",
          s->label, (unsigned long long)pos);
  return az_next(s);
}

/* Score-P's paused recording: the pass sees the pause as the region
   az_defs.off_region (Enter at off, Leave at on). */
static OTF2_CallbackCode on_measurement(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                        OTF2_AttributeList *al, OTF2_MeasurementMode mode) {
  az_cursor *c = u;
  uint32_t off = c->a->defs.off_region;
  if (off == UINT32_MAX) return az_next(c);
  if (mode == OTF2_MEASUREMENT_OFF) return c->on->enter(l, t, pos, u, al, off);
  return c->on->leave(l, t, pos, u, al, off);
}

/* Sampling records carry no region nesting: counted, not analysed
   (check_samples refuses a trace that has nothing else). */
static OTF2_CallbackCode on_sample(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *al, OTF2_CallingContextRef context,
                                   uint32_t unwind_distance, OTF2_InterruptGeneratorRef generator) {
  (void)l, (void)t, (void)pos, (void)al, (void)context, (void)unwind_distance, (void)generator;
  az_cursor *c = u;
  c->a->samples++;
  return az_next(c);
}

/* OTF2's callbacks for the events the pass handles. */
static OTF2_EvtReaderCallbacks *make_callbacks(const az_event_handlers *on) {
  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
#define AZ_SET(kind, handler)                                                                      \
  if (on->handler) OTF2_EvtReaderCallbacks_Set##kind##Callback(cb, on->handler)
  AZ_SET(Enter, enter);
  AZ_SET(Leave, leave);
  AZ_SET(ThreadFork, thread_fork);
  AZ_SET(ThreadJoin, thread_join);
  AZ_SET(ThreadTeamBegin, team_begin);
  AZ_SET(ThreadTeamEnd, team_end);
  AZ_SET(ThreadAcquireLock, acquire_lock);
  AZ_SET(ThreadReleaseLock, release_lock);
  AZ_SET(MpiSend, mpi_send);
  AZ_SET(MpiIsend, mpi_isend);
  AZ_SET(MpiIsendComplete, mpi_isend_complete);
  AZ_SET(MpiIrecvRequest, mpi_irecv_request);
  AZ_SET(MpiRecv, mpi_recv);
  AZ_SET(MpiIrecv, mpi_irecv);
  AZ_SET(MpiRequestCancelled, mpi_request_cancelled);
  AZ_SET(MpiCollectiveEnd, mpi_collective_end);
  AZ_SET(IoOperationBegin, io_begin);
  AZ_SET(IoOperationComplete, io_complete);
  AZ_SET(RmaCollectiveEnd, rma_collective_end);
  AZ_SET(RmaGroupSync, rma_group_sync);
  AZ_SET(RmaRequestLock, rma_request_lock);
  AZ_SET(RmaAcquireLock, rma_acquire_lock);
  AZ_SET(RmaReleaseLock, rma_release_lock);
  AZ_SET(RmaPut, rma_put);
  AZ_SET(RmaGet, rma_get);
  AZ_SET(RmaAtomic, rma_atomic);
#undef AZ_SET
  if (on->enter && on->leave)
    OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_measurement);
  /* task records: checked in the first pass (tasks.c) */
  OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(cb, az_task_create);
  OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(cb, az_task_switch);
  OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(cb, az_task_complete);
  OTF2_EvtReaderCallbacks_SetCallingContextSampleCallback(cb, on_sample);
  OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, on_unknown);
  return cb;
}

/* Local definitions carry the clock offsets and the id mapping tables
   that the event reader applies: without them the events name the wrong
   regions and teams.  Every location has its file (libpomp and tracegen
   write one per location, empty or not), so a missing or unreadable one
   is an error naming it. */
/* A local definitions file that is its chunk header and OTF2's closing
   records (end of file, end of buffer) alone: no record at all (libpomp
   and tracegen write one per location, most of them so).  Nothing to read;
   OTF2 would allocate and clear a buffer of the definition chunk size
   (4 MiB) to find that out.  (The header's record count does not say:
   clock offsets are not counted there.) */
enum { AZ_EMPTY_DEFS = 20 };

static int no_local_defs(const char *path, const struct stat *st) {
  if (st->st_size != AZ_EMPTY_DEFS) return 0;
  FILE *f = fopen(path, "rb");
  unsigned char h[AZ_EMPTY_DEFS];
  int ok = f && fread(h, 1, sizeof h, f) == sizeof h;
  if (f) fclose(f);
  return ok && h[0] == 3 && h[AZ_EMPTY_DEFS - 2] == 2 && h[AZ_EMPTY_DEFS - 1] == 1;
}

static int read_local_defs(az_cursor *s, OTF2_Reader *reader) {
  uint64_t id = s->a->defs.locs[s->loc].id;
  char path[4096];
  az_loc_file(s->a, id, "def", path, sizeof path);
  struct stat st;
  const char *why = NULL;
  if (stat(path, &st) != 0) why = strerror(errno);
  else if (no_local_defs(path, &st)) return 0;
  OTF2_DefReader *dr = why ? NULL : OTF2_Reader_GetDefReader(reader, id);
  if (!why && !dr) why = "cannot open the local definitions";
  uint64_t n = 0;
  if (!why && OTF2_Reader_ReadAllLocalDefinitions(reader, dr, &n) != OTF2_SUCCESS)
    why = "truncated or corrupt";
  if (dr) OTF2_Reader_CloseDefReader(reader, dr);
  if (!why) return 0;
  az_fail(&s->a->diag, "%s: %s: local definitions: %s%s%s%s", path, s->label, why,
          otf2_message[0] ? " (" : "", otf2_message, otf2_message[0] ? ")" : "");
  s->failed = 1;
  return -1;
}

/* Whether event files that end early are read up to where they end: in
   a run that did not finish (their last chunks were cut), or with
   --skip-damaged; otherwise such a file is an error. */
static int cut_files_read(const az_analysis *a) { return a->incomplete || a->skip_damaged; }

/* Why the event file of a location cannot be read (any further), with
   the file, the location and the position after the last good event:
   "PATH: LABEL: event N: WHAT (OTF2's words)". */
static void unreadable_text(az_cursor *s, const char *why, const char *missing_what,
                            const char *bad_what, char *buf, size_t size) {
  char path[4096];
  az_loc_file(s->a, s->a->defs.locs[s->loc].id, "evt", path, sizeof path);
  struct stat st;
  int missing = stat(path, &st) != 0;
  snprintf(buf, size, "%s: %s: event %llu: %s%s%s (%s)", path, s->label,
           (unsigned long long)s->pos + 1, missing ? missing_what : bad_what, missing ? ": " : "",
           missing ? strerror(errno) : "", why);
}

/* OTF2's words for a failed read, or the code's description. */
static const char *otf2_why(OTF2_ErrorCode rc) {
  return otf2_message[0] ? otf2_message : OTF2_Error_GetDescription(rc);
}

/* A finished trace with a missing, truncated or corrupt event file is not
   analysed (hint: the option that analyses it up to the damage). */
static void unreadable(az_cursor *s, const char *otf2_text, const char *hint) {
  char msg[4600];
  unreadable_text(s, otf2_text, "cannot read the event file",
                  "cannot read the event file: truncated or corrupt", msg, sizeof msg);
  az_fail(&s->a->diag, "%s%s", msg, hint ? hint : "");
  s->failed = 1;
}

/* --skip-damaged: the location's damaged file is read up to the damage,
   as a died run's; the other locations are whole. Counted once (the
   backward pass meets the same end). */
static void note_damaged(az_cursor *s) {
  az_analysis *a = s->a;
  s->damaged = 1;
  a->diag.incomplete = 1; /* its partners' unmatched operations are end effects */
  if (!a->damaged_loc) a->damaged_loc = pu_calloc(a->defs.num_locs ? a->defs.num_locs : 1, 1);
  if (a->damaged_loc[s->loc]) return;
  a->damaged_loc[s->loc] = 1;
  char line[256];
  snprintf(line, sizeof line, "%s%s up to event %llu", a->damaged ? "; " : "", s->label,
           (unsigned long long)s->pos);
  size_t had = a->damaged ? strlen(a->damaged) : 0;
  a->damaged = pu_realloc(a->damaged, had + strlen(line) + 1);
  memcpy(a->damaged + had, line, strlen(line) + 1);
}

/* The end of a location's events: the pass closes what is still open.
   cut_chunk: the event file of a run that did not finish ends in an
   unreadable chunk (the message says where). */
static void finish_location(az_replay *r, az_cursor *s, OTF2_Reader *reader,
                            const char *cut_chunk) {
  if (s->er) OTF2_Reader_CloseEvtReader(reader, s->er);
  s->er = NULL;
  s->done = 1;
  if (r->pass->loc_end) r->pass->loc_end(r, s, cut_chunk);
}

/* How many events a location's event file holds: the last event number
   in the header of its last chunk (OTF2's chunk header: type 3, an
   endianness byte, first and last event number as 64-bit integers).
   OTF2 3.0.2 reads a file that ends without its end-of-file record (cut
   after a whole chunk, or inside one) as if the previous chunk followed
   again, for ever: the replay never asks for more than this.  When the
   header cannot tell, each event takes at least one byte of the file. */
static uint64_t chunk_limit(az_cursor *s, OTF2_Reader *reader) {
  char path[4096];
  az_loc_file(s->a, s->a->defs.locs[s->loc].id, "evt", path, sizeof path);
  struct stat st;
  uint64_t chunk = 0, def_chunk = 0;
  if (stat(path, &st) != 0 || st.st_size <= 0) return UINT64_MAX;
  uint64_t size = (uint64_t)st.st_size;
  s->limit_is_size = 1; /* unless a chunk header says better */
  if (OTF2_Reader_GetChunkSize(reader, &chunk, &def_chunk) != OTF2_SUCCESS || !chunk) return size;
  FILE *f = fopen(path, "rb");
  unsigned char h[18], end[2];
  int ok = f && !fseeko(f, (off_t)((size - 1) / chunk * chunk), SEEK_SET) &&
           fread(h, 1, sizeof h, f) == sizeof h && h[0] == 3;
  /* OTF2 closes a file with its end-of-file and end-of-buffer records */
  s->cut_file =
      !f || fseeko(f, -2, SEEK_END) || fread(end, 1, 2, f) != 2 || end[0] != 2 || end[1] != 1;
  if (f) fclose(f);
  uint64_t last = 0;
  for (int i = 7; ok && i >= 0; i--) last = last << 8 | h[10 + i];
  if (!ok || !last || last > size) return size;
  s->limit_is_size = 0;
  return last;
}

/* defs_read: the location's local definitions were read by an earlier
   pass (OTF2 keeps them for the archive; reading them again fails). */
static int open_location(az_cursor *s, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb,
                         uint8_t *defs_read) {
  otf2_message[0] = 0;
  if (!defs_read[s->loc] && read_local_defs(s, reader)) return -1;
  defs_read[s->loc] = 1;
  otf2_message[0] = 0;
  s->er = OTF2_Reader_GetEvtReader(reader, s->a->defs.locs[s->loc].id);
  if (!s->er && cut_files_read(s->a)) {
    /* an empty event file (a full disk cut it before its first chunk):
       the location holds no events, end_of_file says so */
    s->limit = 0;
    return 0;
  }
  if (!s->er) {
    unreadable(s, "no event reader", NULL);
    return -1;
  }
  OTF2_EvtReader_ApplyClockOffsets(s->er, true);
  OTF2_Reader_RegisterEvtCallbacks(reader, s->er, cb, s);
  s->limit = chunk_limit(s, reader);
  return 0;
}

/* All events of the file were read: it must hold the events the
   definitions declare.  A run that did not finish: one warning naming
   the file and position (why: msg) and the location ends there.
   Otherwise an error.  0 when the location is finished. */
static int end_of_file(az_replay *r, az_cursor *s, OTF2_Reader *reader, const char *why) {
  uint64_t declared = s->a->defs.locs[s->loc].events;
  char detail[160];
  if (!why && s->cut_file) why = "it lacks OTF2's closing records";
  /* read_pos: the last event read, whether the pass handles its kind */
  if (!why && declared > s->read_pos) {
    snprintf(detail, sizeof detail, "it holds %llu of the %llu events the definitions declare",
             (unsigned long long)s->read_pos, (unsigned long long)declared);
    why = detail;
  }
  if (!why) {
    finish_location(r, s, reader, NULL);
    return 0;
  }
  int damaged = !s->a->incomplete;
  if (!cut_files_read(s->a)) {
    unreadable(s, why,
               "; --skip-damaged analyses the other locations, and this one up to the damage");
    return -1;
  }
  if (damaged) note_damaged(s);
  /* a process killed while writing leaves a cut-off last chunk */
  char msg[4600];
  unreadable_text(s, why, "no event file",
                  damaged ? "the event file is damaged; analysed up to there (--skip-damaged)"
                          : "the event file ends in a cut-off chunk",
                  msg, sizeof msg);
  finish_location(r, s, reader, msg);
  return 0;
}

/* Reads the location's events up to the end of the window (and never
   beyond the events its chunks hold). */
static int advance(az_replay *r, az_cursor *s, OTF2_Reader *reader, az_time stop) {
  s->stop = stop;
  uint64_t n = 0, want = s->limit > s->pos ? s->limit - s->pos : 0;
  otf2_message[0] = 0;
  OTF2_ErrorCode rc = want ? OTF2_Reader_ReadLocalEvents(reader, s->er, want, &n) : OTF2_SUCCESS;
  /* stale events read after a cut-off chunk stay out of the backward
     passes, which read up to the last event the pass took */
  if (s->stale || !s->er) s->read_pos = s->pos;
  else OTF2_EvtReader_GetPos(s->er, &s->read_pos);
  if (s->failed) return -1;
  if (s->stale) return end_of_file(r, s, reader, "timestamps go backwards");
  if (rc == OTF2_SUCCESS)
    return end_of_file(
        r, s, reader, n == want && s->limit_is_size ? "more events than the file has bytes" : NULL);
  if (rc != OTF2_ERROR_INTERRUPTED_BY_CALLBACK) return end_of_file(r, s, reader, otf2_why(rc));
  return 0;
}

/* Windows of about this many events over the trace's time span, so that
   all locations progress together (one window when the span is not
   known).  A serial analysis takes smaller ones: the delay pass's
   instances in flight grow with a window and its central part pays their
   cache misses (bench_analyze, 8.1 M events, all passes: 0.946 s CPU in
   windows of 2^16, 0.928 s in 2^15; the forward pass alone the same, 8 %
   more in 2^14; analyze/README.md, "Cost of the delay pass").  A parallel
   analysis (parallel.c) keeps 2^16: each window costs it an agreement and
   the exchanges. */
enum { AZ_WINDOW_EVENTS_SERIAL = 1 << 15, AZ_WINDOW_EVENTS_PARALLEL = 1 << 16 };

static az_time window_length(const az_analysis *a) {
  const az_defs *d = &a->defs;
  uint64_t per = a->window_events ? a->window_events
                 : a->agree_hook  ? AZ_WINDOW_EVENTS_PARALLEL
                                  : AZ_WINDOW_EVENTS_SERIAL;
  if (!d->trace_length) return UINT64_MAX;
  /* event counts not declared: a fixed number of windows */
  uint64_t windows = d->total_events ? d->total_events / per : 4096;
  if (windows <= 1) return UINT64_MAX;
  az_time w = d->trace_length / windows;
  return w ? w : 1;
}

/* The cursors of the locations replayed here, each master before its
   workers (locations are numbered process by process). */
static void init_cursors(az_replay *r) {
  const az_defs *d = &r->a->defs;
  for (uint32_t p = 0; p < d->num_procs; p++) {
    if (!az_replay_mine(r, p)) continue;
    for (uint32_t i = 0; i < d->procs[p].num_locs; i++) {
      az_cursor *c = az_replay_loc(r, d->procs[p].first_loc + i);
      c->a = r->a;
      c->proc = p;
      c->loc = d->procs[p].first_loc + i;
      c->on = &r->pass->on;
      az_loc_label(d, c->loc, c->label, sizeof c->label);
    }
  }
}

/* Reads one window: every location up to stop.  Returns whether any is
   still reading; *failed on an error. */
static int read_window(az_replay *r, OTF2_Reader *reader, az_time stop, int *failed) {
  int any = 0;
  for (uint32_t l = 0; l < r->a->defs.num_locs && !*failed; l++) {
    az_cursor *c = az_replay_loc(r, l);
    if (!c->a || c->done) continue;
    /* its last event (read to end the previous window) lies beyond
       this one too: reading on would take a worker past its master */
    if (c->last >= stop) {
      any = 1;
      continue;
    }
    *failed = advance(r, c, reader, stop);
    any |= !c->done;
  }
  return any;
}

/* After a window: the pass evaluates what is complete; a parallel
   analysis agrees here on going on (and on failure). */
static int end_windows(az_replay *rs, size_t np, az_time stop, int any, int *failed) {
  az_analysis *a = rs[0].a;
  for (size_t i = 0; i < np; i++)
    if (any && !*failed && rs[i].pass->window) rs[i].pass->window(&rs[i], stop);
  int active = any && !*failed;
  if (a->agree_hook) active = a->agree_hook(a, active, failed);
  for (size_t i = 0; i < np; i++)
    if (active && rs[i].pass->exchange) rs[i].pass->exchange(a, 0);
  return active;
}

static int end_window(az_replay *r, az_time stop, int any, int *failed) {
  return end_windows(r, 1, stop, any, failed);
}

static void mark_window(az_marks *m, const az_replay *r, az_time stop) {
  if (m->windows == m->cap) {
    m->cap = m->cap ? 2 * m->cap : 64;
    m->at = pu_realloc(m->at, m->cap * m->nlocs * sizeof *m->at);
    m->stop = pu_realloc(m->stop, m->cap * sizeof *m->stop);
  }
  for (uint32_t l = 0; l < m->nlocs; l++) {
    const az_cursor *c = az_replay_loc(r, l);
    m->at[m->windows * m->nlocs + l] = c->a ? c->read_pos : 0;
  }
  m->stop[m->windows++] = stop;
}

static int run_forward(az_replay *r, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb,
                       az_marks *marks, uint8_t *marks_defs) {
  const az_defs *d = &r->a->defs;
  int failed = 0;
  for (uint32_t l = 0; l < d->num_locs && !failed; l++)
    if (az_replay_loc(r, l)->a) failed = open_location(az_replay_loc(r, l), reader, cb, marks_defs);
  az_time length = window_length(r->a), stop = d->global_offset;
  for (int active = 1; active;) {
    stop = UINT64_MAX - stop < length ? UINT64_MAX : stop + length;
    int any = read_window(r, reader, stop, &failed);
    if (marks) mark_window(marks, r, stop);
    active = end_window(r, stop, any, &failed);
  }
  return failed;
}

/* A backward pass gets a window's events of one location in reverse: the
   driver reads them forward (OTF2 3.0's backward reading crashes on our
   archives) into this buffer, then calls the pass's handlers from the
   last to the first.  24 bytes an event: most are Enter and Leave, whose
   region is all they carry; the others keep their values beside. */
typedef struct {
  OTF2_TimeStamp t;
  uint64_t pos;
  uint32_t arg; /* Enter, Leave: the region; else the index of its values in more */
  uint8_t kind;
} az_rev_event;

typedef struct {
  uint64_t v[5];
} az_rev_values;

typedef struct { /* per location: a block of several windows */
  az_rev_event *ev;
  size_t len, cap;
  az_rev_values *more; /* the values of the events other than Enter and Leave */
  size_t nmore, capmore;
  uint32_t off_region; /* az_defs.off_region (MeasurementOnOff) */
  size_t end;          /* ev[0..end) not delivered yet */
  uint64_t lo;         /* the block holds the events after position lo */
  uint64_t *chunk;     /* the number of the first event of each chunk of its file */
  size_t nchunks;
} az_rev_buffer;

/* Events of all locations read in one go (blocks of windows): OTF2's Seek
   decodes from the start of its chunk, once per block instead of once per
   window; a block that can start at its chunk's start at most doubled
   does (az_rev_buffer.chunk), and Seek decodes nothing.  At most twice
   this many buffered events (24 bytes each, and the values of the MPI and
   thread events). */
enum { AZ_BACK_BLOCK_EVENTS = 1 << 19 };

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
  REV_COLL_END
};

static OTF2_CallbackCode rev_put(void *u, int kind, OTF2_TimeStamp t, uint64_t pos, uint64_t v0,
                                 uint64_t v1, uint64_t v2, uint64_t v3, uint64_t v4) {
  az_rev_buffer *b = u;
  if (b->len == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 1024;
    b->ev = pu_realloc(b->ev, b->cap * sizeof *b->ev);
  }
  uint32_t arg = (uint32_t)v0; /* a region reference */
  if (kind != REV_ENTER && kind != REV_LEAVE) {
    if (b->nmore == b->capmore) {
      b->capmore = b->capmore ? 2 * b->capmore : 256;
      b->more = pu_realloc(b->more, b->capmore * sizeof *b->more);
    }
    arg = (uint32_t)b->nmore;
    b->more[b->nmore++] = (az_rev_values){{v0, v1, v2, v3, v4}};
  }
  b->ev[b->len++] = (az_rev_event){t, pos, arg, (uint8_t)kind};
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rev_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *al, OTF2_RegionRef region) {
  (void)l;
  (void)al;
  return rev_put(u, REV_ENTER, t, pos, region, 0, 0, 0, 0);
}

static OTF2_CallbackCode rev_leave(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *al, OTF2_RegionRef region) {
  (void)l;
  (void)al;
  return rev_put(u, REV_LEAVE, t, pos, region, 0, 0, 0, 0);
}

static OTF2_CallbackCode rev_fork(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_Paradigm model, uint32_t n) {
  (void)l;
  (void)al;
  return rev_put(u, REV_FORK, t, pos, model, n, 0, 0, 0);
}

static OTF2_CallbackCode rev_join(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, OTF2_Paradigm model) {
  (void)l;
  (void)al;
  return rev_put(u, REV_JOIN, t, pos, model, 0, 0, 0, 0);
}

static OTF2_CallbackCode rev_team_begin(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                        OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)l;
  (void)al;
  return rev_put(u, REV_TEAM_BEGIN, t, pos, team, 0, 0, 0, 0);
}

static OTF2_CallbackCode rev_team_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                      OTF2_AttributeList *al, OTF2_CommRef team) {
  (void)l;
  (void)al;
  return rev_put(u, REV_TEAM_END, t, pos, team, 0, 0, 0, 0);
}

static OTF2_CallbackCode rev_acquire(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_Paradigm model, uint32_t lock,
                                     uint32_t order) {
  (void)l;
  (void)al;
  return rev_put(u, REV_ACQUIRE, t, pos, model, lock, order, 0, 0);
}

static OTF2_CallbackCode rev_release(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_Paradigm model, uint32_t lock,
                                     uint32_t order) {
  (void)l;
  (void)al;
  return rev_put(u, REV_RELEASE, t, pos, model, lock, order, 0, 0);
}

static OTF2_CallbackCode rev_send(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes) {
  (void)l;
  (void)al;
  return rev_put(u, REV_SEND, t, pos, peer, comm, tag, bytes, 0);
}

static OTF2_CallbackCode rev_isend(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                   uint32_t tag, uint64_t bytes, uint64_t req) {
  (void)l;
  (void)al;
  return rev_put(u, REV_ISEND, t, pos, peer, comm, tag, bytes, req);
}

static OTF2_CallbackCode rev_isend_complete(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                            void *u, OTF2_AttributeList *al, uint64_t req) {
  (void)l;
  (void)al;
  return rev_put(u, REV_ISEND_COMPLETE, t, pos, req, 0, 0, 0, 0);
}

static OTF2_CallbackCode rev_irecv_request(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                           void *u, OTF2_AttributeList *al, uint64_t req) {
  (void)l;
  (void)al;
  return rev_put(u, REV_IRECV_REQUEST, t, pos, req, 0, 0, 0, 0);
}

static OTF2_CallbackCode rev_recv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t bytes) {
  (void)l;
  (void)al;
  return rev_put(u, REV_RECV, t, pos, peer, comm, tag, bytes, 0);
}

static OTF2_CallbackCode rev_irecv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef comm,
                                   uint32_t tag, uint64_t bytes, uint64_t req) {
  (void)l;
  (void)al;
  return rev_put(u, REV_IRECV, t, pos, peer, comm, tag, bytes, req);
}

static OTF2_CallbackCode rev_cancelled(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                       OTF2_AttributeList *al, uint64_t req) {
  (void)l;
  (void)al;
  return rev_put(u, REV_CANCELLED, t, pos, req, 0, 0, 0, 0);
}

static OTF2_CallbackCode rev_coll_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                      OTF2_AttributeList *al, OTF2_CollectiveOp op,
                                      OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                      uint64_t received) {
  (void)l;
  (void)al;
  return rev_put(u, REV_COLL_END, t, pos, op, comm, root, sent, received);
}

/* Paused recording, as on_measurement gives it to a forward pass. */
static OTF2_CallbackCode rev_measurement(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                         void *u, OTF2_AttributeList *al,
                                         OTF2_MeasurementMode mode) {
  (void)l;
  (void)al;
  const az_rev_buffer *b = u;
  if (b->off_region == UINT32_MAX) return OTF2_CALLBACK_SUCCESS;
  return rev_put(u, mode == OTF2_MEASUREMENT_OFF ? REV_ENTER : REV_LEAVE, t, pos, b->off_region, 0,
                 0, 0, 0);
}

/* Only the kinds the pass handles are buffered. */
static OTF2_EvtReaderCallbacks *make_rev_callbacks(const az_event_handlers *on) {
  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
#define AZ_SET(kind, handler, buffer)                                                              \
  if (on->handler) OTF2_EvtReaderCallbacks_Set##kind##Callback(cb, buffer)
  AZ_SET(Enter, enter, rev_enter);
  AZ_SET(Leave, leave, rev_leave);
  AZ_SET(ThreadFork, thread_fork, rev_fork);
  AZ_SET(ThreadJoin, thread_join, rev_join);
  AZ_SET(ThreadTeamBegin, team_begin, rev_team_begin);
  AZ_SET(ThreadTeamEnd, team_end, rev_team_end);
  AZ_SET(ThreadAcquireLock, acquire_lock, rev_acquire);
  AZ_SET(ThreadReleaseLock, release_lock, rev_release);
  AZ_SET(MpiSend, mpi_send, rev_send);
  AZ_SET(MpiIsend, mpi_isend, rev_isend);
  AZ_SET(MpiIsendComplete, mpi_isend_complete, rev_isend_complete);
  AZ_SET(MpiIrecvRequest, mpi_irecv_request, rev_irecv_request);
  AZ_SET(MpiRecv, mpi_recv, rev_recv);
  AZ_SET(MpiIrecv, mpi_irecv, rev_irecv);
  AZ_SET(MpiRequestCancelled, mpi_request_cancelled, rev_cancelled);
  AZ_SET(MpiCollectiveEnd, mpi_collective_end, rev_coll_end);
#undef AZ_SET
  if (on->enter && on->leave)
    OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, rev_measurement);
  return cb;
}

/* One buffered event to the pass's handler (the location reference and
   the attribute list are not kept: NULL and the location's id). */
static OTF2_CallbackCode deliver(const az_event_handlers *on, az_cursor *c, const az_rev_buffer *b,
                                 const az_rev_event *e) {
  OTF2_LocationRef l = c->a->defs.locs[c->loc].id;
  uint64_t region[1] = {e->arg};
  const uint64_t *v = e->kind == REV_ENTER || e->kind == REV_LEAVE ? region : b->more[e->arg].v;
  switch (e->kind) {
  case REV_ENTER: return on->enter(l, e->t, e->pos, c, NULL, (OTF2_RegionRef)v[0]);
  case REV_LEAVE: return on->leave(l, e->t, e->pos, c, NULL, (OTF2_RegionRef)v[0]);
  case REV_FORK:
    return on->thread_fork(l, e->t, e->pos, c, NULL, (OTF2_Paradigm)v[0], (uint32_t)v[1]);
  case REV_JOIN: return on->thread_join(l, e->t, e->pos, c, NULL, (OTF2_Paradigm)v[0]);
  case REV_TEAM_BEGIN: return on->team_begin(l, e->t, e->pos, c, NULL, (OTF2_CommRef)v[0]);
  case REV_TEAM_END: return on->team_end(l, e->t, e->pos, c, NULL, (OTF2_CommRef)v[0]);
  case REV_ACQUIRE:
    return on->acquire_lock(l, e->t, e->pos, c, NULL, (OTF2_Paradigm)v[0], (uint32_t)v[1],
                            (uint32_t)v[2]);
  case REV_RELEASE:
    return on->release_lock(l, e->t, e->pos, c, NULL, (OTF2_Paradigm)v[0], (uint32_t)v[1],
                            (uint32_t)v[2]);
  case REV_SEND:
    return on->mpi_send(l, e->t, e->pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1],
                        (uint32_t)v[2], v[3]);
  case REV_ISEND:
    return on->mpi_isend(l, e->t, e->pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1],
                         (uint32_t)v[2], v[3], v[4]);
  case REV_ISEND_COMPLETE: return on->mpi_isend_complete(l, e->t, e->pos, c, NULL, v[0]);
  case REV_IRECV_REQUEST: return on->mpi_irecv_request(l, e->t, e->pos, c, NULL, v[0]);
  case REV_RECV:
    return on->mpi_recv(l, e->t, e->pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1],
                        (uint32_t)v[2], v[3]);
  case REV_IRECV:
    return on->mpi_irecv(l, e->t, e->pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1],
                         (uint32_t)v[2], v[3], v[4]);
  case REV_CANCELLED: return on->mpi_request_cancelled(l, e->t, e->pos, c, NULL, v[0]);
  default:
    return on->mpi_collective_end(l, e->t, e->pos, c, NULL, (OTF2_CollectiveOp)v[0],
                                  (OTF2_CommRef)v[1], (uint32_t)v[2], v[3], v[4]);
  }
}

/* Reads events lo+1 .. to of a location into its buffer.  Each block
   with a reader of its own: OTF2 3.0's Seek back to an earlier chunk of a
   reader that read a later one frees a chunk buffer it still holds (a
   double free when the reader is closed; valgrind). */
static int read_block(az_cursor *c, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb,
                      az_rev_buffer *b, uint64_t lo, uint64_t to) {
  b->len = 0;
  b->nmore = 0;
  uint64_t n = 0;
  otf2_message[0] = 0;
  if (b->lo != UINT64_MAX) {
    OTF2_Reader_CloseEvtReader(reader, c->er);
    c->er = OTF2_Reader_GetEvtReader(reader, c->a->defs.locs[c->loc].id);
    if (!c->er) {
      unreadable(c, "no event reader", NULL);
      return -1;
    }
    OTF2_EvtReader_ApplyClockOffsets(c->er, true);
    OTF2_Reader_RegisterEvtCallbacks(reader, c->er, cb, b);
  }
  /* a new reader starts at the first event: no Seek, which fails in a
     file of one cut-off chunk (a full disk) whose events the first pass
     read */
  OTF2_ErrorCode rc = lo ? OTF2_EvtReader_Seek(c->er, lo + 1) : OTF2_SUCCESS;
  if (rc == OTF2_SUCCESS) rc = OTF2_Reader_ReadLocalEvents(reader, c->er, to - lo, &n);
  /* a cut-off last chunk (accepted only here: the first pass warned) may
     fail to decode before the event where the first pass saw its
     timestamps go back (OTF2 fills the missing part of the chunk from
     whatever its buffer held): the events read are the block */
  if (rc != OTF2_SUCCESS && cut_files_read(c->a)) rc = OTF2_SUCCESS;
  if (rc != OTF2_SUCCESS) {
    unreadable(c, otf2_why(rc), NULL);
    return -1;
  }
  b->end = b->len;
  b->lo = lo;
  return 0;
}

/* The first event number of each chunk of the location's event file, from
   the chunk headers (as chunk_limit reads the last one); none when a
   header does not say (a cut or damaged file): blocks then start where
   their window does. */
static void chunk_starts(az_cursor *c, OTF2_Reader *reader, az_rev_buffer *b) {
  char path[4096];
  az_loc_file(c->a, c->a->defs.locs[c->loc].id, "evt", path, sizeof path);
  struct stat st;
  uint64_t chunk = 0, def_chunk = 0;
  if (stat(path, &st) != 0 || st.st_size <= 0 ||
      OTF2_Reader_GetChunkSize(reader, &chunk, &def_chunk) != OTF2_SUCCESS || !chunk)
    return;
  FILE *f = fopen(path, "rb");
  if (!f) return;
  size_t n = (size_t)(((uint64_t)st.st_size + chunk - 1) / chunk);
  b->chunk = pu_malloc(n * sizeof *b->chunk);
  unsigned char h[10];
  for (size_t k = 0; k < n; k++) {
    if (fseeko(f, (off_t)(k * chunk), SEEK_SET) || fread(h, 1, sizeof h, f) != sizeof h ||
        h[0] != 3)
      break;
    uint64_t first = 0;
    for (int i = 7; i >= 0; i--) first = first << 8 | h[2 + i];
    if (!first || (k && first <= b->chunk[k - 1])) break;
    b->chunk[b->nchunks++] = first;
  }
  fclose(f);
  if (b->nchunks < n || b->chunk[0] != 1) b->nchunks = 0;
}

/* Where a block that should hold the events after lo (and must hold
   those after need >= lo) starts: at the start of a chunk when one lies
   close enough: that of lo + 1 when it adds at most `extra` events, else
   the next one when it is not after need + 1. */
static uint64_t block_start(const az_rev_buffer *b, uint64_t lo, uint64_t need, uint64_t extra) {
  if (!b->nchunks) return lo;
  size_t l = 0, h = b->nchunks; /* the last chunk whose first event is <= lo + 1 */
  while (h - l > 1) {
    size_t mid = l + (h - l) / 2;
    if (b->chunk[mid] <= lo + 1) l = mid;
    else h = mid;
  }
  if (lo + 1 - b->chunk[l] <= extra) return b->chunk[l] - 1;
  if (l + 1 < b->nchunks && b->chunk[l + 1] <= need + 1) return b->chunk[l + 1] - 1;
  return lo;
}

/* Whether a pass handles a buffered kind (backward passes read together
   buffer the kinds any of them handles). */
static int handles(const az_event_handlers *on, uint8_t kind) {
  switch (kind) {
  case REV_ENTER: return on->enter != NULL;
  case REV_LEAVE: return on->leave != NULL;
  case REV_FORK: return on->thread_fork != NULL;
  case REV_JOIN: return on->thread_join != NULL;
  case REV_TEAM_BEGIN: return on->team_begin != NULL;
  case REV_TEAM_END: return on->team_end != NULL;
  case REV_ACQUIRE: return on->acquire_lock != NULL;
  case REV_RELEASE: return on->release_lock != NULL;
  case REV_SEND: return on->mpi_send != NULL;
  case REV_ISEND: return on->mpi_isend != NULL;
  case REV_ISEND_COMPLETE: return on->mpi_isend_complete != NULL;
  case REV_IRECV_REQUEST: return on->mpi_irecv_request != NULL;
  case REV_RECV: return on->mpi_recv != NULL;
  case REV_IRECV: return on->mpi_irecv != NULL;
  case REV_CANCELLED: return on->mpi_request_cancelled != NULL;
  default: return on->mpi_collective_end != NULL;
  }
}

/* The buffered kinds a pass handles, a bit each: tested per event. */
static uint32_t handled_kinds(const az_event_handlers *on) {
  uint32_t mask = 0;
  for (uint8_t k = REV_ENTER; k <= REV_COLL_END; k++)
    if (handles(on, k)) mask |= 1u << k;
  return mask;
}

/* The handlers of all passes read together: any one's, for buffering. */
static az_event_handlers union_handlers(const az_replay *rs, size_t np) {
  az_event_handlers all = rs[0].pass->on;
  for (size_t i = 1; i < np; i++) {
    const az_event_handlers *on = &rs[i].pass->on;
#define AZ_ANY(h)                                                                                  \
  if (!all.h) all.h = on->h
    AZ_ANY(enter);
    AZ_ANY(leave);
    AZ_ANY(thread_fork);
    AZ_ANY(thread_join);
    AZ_ANY(team_begin);
    AZ_ANY(team_end);
    AZ_ANY(acquire_lock);
    AZ_ANY(release_lock);
    AZ_ANY(mpi_send);
    AZ_ANY(mpi_isend);
    AZ_ANY(mpi_isend_complete);
    AZ_ANY(mpi_irecv_request);
    AZ_ANY(mpi_recv);
    AZ_ANY(mpi_irecv);
    AZ_ANY(mpi_request_cancelled);
    AZ_ANY(mpi_collective_end);
#undef AZ_ANY
  }
  return all;
}

/* Window w of location l, last event first, to each of the np passes in
   turn: from its block, read first (by the first pass's cursor) when the
   block does not hold it (as many earlier windows with it as the share
   `budget` allows).  Its events all delivered, each pass's loc_end. */
static int read_back(az_replay *rs, size_t np, uint32_t l, OTF2_Reader *reader,
                     OTF2_EvtReaderCallbacks *cb, az_rev_buffer *b, const az_marks *m, size_t w,
                     uint64_t budget) {
  az_cursor *c = az_replay_loc(&rs[0], l);
  const uint64_t *at = m->at + c->loc;
  uint64_t from = w ? at[(w - 1) * m->nlocs] : 0, to = at[w * m->nlocs];
  if (to <= from) {
    /* no events up to this window's end (an empty file, a thread that
       starts later): nothing more comes, the location is done now */
    if (!to)
      for (size_t i = 0; i < np; i++)
        finish_location(&rs[i], az_replay_loc(&rs[i], l), reader, NULL);
    return 0;
  }
  if (from < b->lo) {
    size_t first = w;
    while (first > 0 && to - (first > 1 ? at[(first - 2) * m->nlocs] : 0) <= budget) first--;
    uint64_t lo = block_start(b, first ? at[(first - 1) * m->nlocs] : 0, from, budget);
    if (read_block(c, reader, cb, b, lo, to)) return -1;
  }
  size_t end = b->end, rest = end;
  for (size_t i = 0; i < np; i++) {
    az_cursor *ci = az_replay_loc(&rs[i], l);
    const az_event_handlers *on = &rs[i].pass->on;
    uint32_t mask = handled_kinds(on);
    size_t e = end;
    while (e > 0 && b->ev[e - 1].pos > from && !ci->failed)
      if (mask >> b->ev[--e].kind & 1) deliver(on, ci, b, &b->ev[e]);
    if (ci->failed) return -1;
    rest = e;
  }
  b->end = rest;
  if (from == 0)
    for (size_t i = 0; i < np; i++) finish_location(&rs[i], az_replay_loc(&rs[i], l), reader, NULL);
  return 0;
}

/* The first pass's windows, last to first, for np backward passes read
   together (each with its own state); the window's lower bound is the
   end of the one before it. */
static int run_backward(az_replay *rs, size_t np, OTF2_Reader *reader, const az_marks *m) {
  az_replay *r = &rs[0];
  const az_defs *d = &r->a->defs;
  az_rev_buffer *b = pu_calloc(d->num_locs ? d->num_locs : 1, sizeof *b);
  az_event_handlers all = union_handlers(rs, np);
  OTF2_EvtReaderCallbacks *cb = make_rev_callbacks(&all);
  int failed = 0;
  uint64_t mine = 0;
  for (uint32_t l = 0; l < d->num_locs && !failed; l++) {
    az_cursor *c = az_replay_loc(r, l);
    if (!c->a) continue;
    for (size_t i = 0; i < np; i++) az_replay_loc(&rs[i], l)->last = UINT64_MAX;
    b[l].lo = UINT64_MAX;
    b[l].off_region = d->off_region;
    mine++;
    failed = open_location(c, reader, cb, m->defs_read);
    if (!failed) OTF2_Reader_RegisterEvtCallbacks(reader, c->er, cb, &b[l]);
    if (!failed && !c->cut_file) chunk_starts(c, reader, &b[l]);
  }
  /* small windows (tests) make small blocks too, so that blocks of
     several windows and new readers are exercised */
  uint64_t block = AZ_BACK_BLOCK_EVENTS;
  if (r->a->window_events && 8 * r->a->window_events < block) block = 8 * r->a->window_events;
  uint64_t budget = block / (mine ? mine : 1);
  for (size_t w = m->windows; w-- > 0;) {
    az_time low = w ? m->stop[w - 1] : 0;
    for (uint32_t l = 0; l < d->num_locs && !failed; l++) {
      az_cursor *c = az_replay_loc(r, l);
      if (!c->a || c->done) continue;
      for (size_t i = 0; i < np; i++) az_replay_loc(&rs[i], l)->stop = low;
      failed = read_back(rs, np, l, reader, cb, &b[l], m, w, budget);
    }
    /* not active before the first window: a failure all agreed on */
    if (!end_windows(rs, np, low, w > 0, &failed)) break;
  }
  for (uint32_t l = 0; l < d->num_locs && !failed; l++)
    if (az_replay_loc(r, l)->a && !az_replay_loc(r, l)->done)
      for (size_t i = 0; i < np; i++)
        finish_location(&rs[i], az_replay_loc(&rs[i], l), reader, NULL);
  for (uint32_t l = 0; l < d->num_locs; l++) {
    free(b[l].ev);
    free(b[l].more);
    free(b[l].chunk);
  }
  free(b);
  OTF2_EvtReaderCallbacks_Delete(cb);
  return failed;
}

/* Runs one forward pass, or np consecutive backward passes that read the
   trace together, once: each gets every window's events of every
   location in turn, and its callbacks in its order. */
static int run_passes(az_analysis *a, OTF2_Reader *reader, const uint8_t *mine,
                      const az_pass *const *passes, size_t np, az_marks *marks) {
  const az_defs *d = &a->defs;
  int backward = passes[0]->direction == AZ_BACKWARD;
  if (backward && !marks->windows) {
    az_fail(&a->diag, "replay pass '%s': a backward pass needs a forward pass before it",
            passes[0]->name);
    return -1;
  }
  az_replay *rs = pu_calloc(np, sizeof *rs);
  for (size_t i = 0; i < np; i++) {
    rs[i] = (az_replay){a, passes[i], mine, NULL, NULL};
    rs[i].locs = pu_calloc(d->num_locs ? d->num_locs : 1, passes[i]->loc_size);
    init_cursors(&rs[i]);
    if (passes[i]->begin) passes[i]->begin(&rs[i]);
  }
  OTF2_ErrorCallback old = OTF2_Error_RegisterCallback(on_otf2_error, NULL);
  OTF2_EvtReaderCallbacks *cb = make_callbacks(&passes[0]->on);
  int failed =
      backward ? run_backward(rs, np, reader, marks)
               : run_forward(&rs[0], reader, cb, marks->windows ? NULL : marks, marks->defs_read);
  for (uint32_t l = 0; l < d->num_locs; l++)
    if (az_replay_loc(&rs[0], l)->er)
      OTF2_Reader_CloseEvtReader(reader, az_replay_loc(&rs[0], l)->er);
  OTF2_EvtReaderCallbacks_Delete(cb);
  OTF2_Error_RegisterCallback(old, NULL);
  for (size_t i = 0; i < np; i++) {
    if (passes[i]->end) passes[i]->end(&rs[i], !failed);
    free(rs[i].locs);
    if (!failed && passes[i]->exchange) passes[i]->exchange(a, 1);
  }
  free(rs);
  return failed ? -1 : 0;
}

/* After the first pass: a trace of samples alone (Score-P's sampling
   without instrumentation) has no call path to attribute time to. */
static int check_samples(az_analysis *a) {
  if (!a->samples) return 0;
  if (!a->tree.len) {
    az_fail(&a->diag,
            "the trace holds only sampling records (%llu CallingContextSample, no Enter/Leave): "
            "pomp-analyze needs instrumented regions; not analysed",
            (unsigned long long)a->samples);
    return -1;
  }
  az_warn(&a->diag, AZ_W_UNKNOWN_RECORD,
          "%llu sampling records (CallingContextSample) ignored: the analysis uses Enter/Leave",
          (unsigned long long)a->samples);
  return 0;
}

int az_replay_run_marked(az_analysis *a, OTF2_Reader *reader, const uint8_t *mine,
                         const az_pass *const *passes, size_t npasses, az_marks *marks) {
  int rc = 0;
  if (!marks->defs_read) {
    marks->nlocs = a->defs.num_locs;
    marks->defs_read = pu_calloc(a->defs.num_locs ? a->defs.num_locs : 1, 1);
  }
  for (size_t i = 0, n; i < npasses && !rc; i += n) {
    /* backward passes in a row read the trace together */
    n = 1;
    while (passes[i]->direction == AZ_BACKWARD && i + n < npasses &&
           passes[i + n]->direction == AZ_BACKWARD)
      n++;
    /* events_read stays the number of events in the trace (the summary
       says it; the progress bar stays full during later passes) */
    uint64_t events = a->events_read;
    /* a pass with nothing to do in this trace is skipped (alone: a group
       of backward passes reads the trace for all of them) */
    if (n == 1 && passes[i]->wanted && !passes[i]->wanted(a)) continue;
    rc = run_passes(a, reader, mine, passes + i, n, marks);
    if (i) a->events_read = events;
    if (!rc && !i) rc = check_samples(a);
    if (!i) az_tasks_checked(a);
  }
  az_tasks_free(a); /* a later reading checks the task records again */
  return rc;
}

void az_marks_free(az_marks *m) {
  free(m->at);
  free(m->stop);
  free(m->defs_read);
  memset(m, 0, sizeof *m);
}

int az_replay_run(az_analysis *a, OTF2_Reader *reader, const uint8_t *mine,
                  const az_pass *const *passes, size_t npasses) {
  az_marks marks = {0};
  int rc = az_replay_run_marked(a, reader, mine, passes, npasses, &marks);
  az_marks_free(&marks);
  return rc;
}
