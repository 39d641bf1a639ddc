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
 * read, and the messages naming file, location and event.
 *
 * With az_analysis.threads > 1 threads of their own decode the event files
 * ahead of the replay ("Decoding threads" below): the replay thread runs
 * the pass handlers on what they decoded, in the same order. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <errno.h>
#include <otf2/otf2.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
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

/* last error text from OTF2, per thread: the decoding threads read too */
static _Thread_local char otf2_message[256];

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

/* Reads location loc's local definitions with reader: 0, or -1 and why in
   err ("PATH: LABEL: local definitions: WHY"). */
static int load_local_defs(const az_analysis *a, uint32_t loc, OTF2_Reader *reader, char *err,
                           size_t size) {
  uint64_t id = a->defs.locs[loc].id;
  char path[4096], label[160];
  az_loc_file(a, id, "def", path, sizeof path);
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
  az_loc_label(&a->defs, loc, label, sizeof label);
  snprintf(err, size, "%s: %s: local definitions: %s%s%s%s", path, label, why,
           otf2_message[0] ? " (" : "", otf2_message, otf2_message[0] ? ")" : "");
  return -1;
}

static int read_local_defs(az_cursor *s, OTF2_Reader *reader) {
  char err[4600];
  if (!load_local_defs(s->a, s->loc, reader, err, sizeof err)) return 0;
  az_fail(&s->a->diag, "%s", err);
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

/* The decoding threads (below, "Decoding threads"). */
typedef struct az_pool az_pool;
struct az_rev_buffer;
static az_pool *pool_start(az_replay *r, const az_event_handlers *on, const az_marks *m,
                           uint64_t budget);
static int open_fed(az_cursor *s, OTF2_Reader *reader, az_pool *p);
static void pool_go(az_pool *p, const az_replay *r, const struct az_rev_buffer *bufs);
static void pool_window(az_pool *p, size_t window);
static void pool_stop(az_pool *p);
static int advance_fed(az_replay *r, az_cursor *s, OTF2_Reader *reader, az_pool *p, az_time stop);

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
static int read_window(az_replay *r, OTF2_Reader *reader, az_pool *pool, az_time stop,
                       int *failed) {
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
    *failed = pool ? advance_fed(r, c, reader, pool, stop) : advance(r, c, reader, stop);
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
  /* passes with handlers of RMA records read alone (pass_rma, rare) */
  const az_event_handlers *on = &r->pass->on;
  int decoded = !on->rma_collective_end && !on->rma_group_sync && !on->rma_request_lock &&
                !on->rma_acquire_lock && !on->rma_release_lock && !on->rma_put && !on->rma_get &&
                !on->rma_atomic;
  az_pool *pool = decoded ? pool_start(r, on, NULL, 0) : NULL;
  for (uint32_t l = 0; l < d->num_locs && !failed; l++) {
    az_cursor *c = az_replay_loc(r, l);
    if (c->a) failed = pool ? open_fed(c, reader, pool) : open_location(c, reader, cb, marks_defs);
  }
  if (pool) pool_go(pool, r, NULL);
  az_time length = window_length(r->a), stop = d->global_offset;
  for (size_t k = 0, active = 1; active; k++) {
    stop = UINT64_MAX - stop < length ? UINT64_MAX : stop + length;
    if (pool) pool_window(pool, k);
    int any = read_window(r, reader, pool, stop, &failed);
    if (marks) mark_window(marks, r, stop);
    active = end_window(r, stop, any, &failed);
  }
  if (pool) pool_stop(pool);
  return failed;
}

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

typedef struct az_rev_buffer { /* per location: a block of several windows */
  az_rev_event *ev;
  uint8_t *kind; /* of each event in ev (REV_*) */
  size_t len, cap;
  uint64_t *more; /* the values of the events other than Enter and Leave */
  size_t nmore, capmore;
  uint32_t off_region; /* az_defs.off_region (MeasurementOnOff) */
  size_t end;          /* ev[0..end) not delivered yet */
  uint64_t lo;         /* the block (a segment) holds the events after position lo */
  uint64_t *chunk;     /* the number of the first event of each chunk of its file */
  size_t nchunks;
  /* a decoding thread's segment of a forward pass (pace): it ends after
     the first event at or after stop (maxt: the latest time decoded) */
  int pace;
  az_time stop, maxt;
} az_rev_buffer;

/* Events of all locations read in one go (blocks of windows): OTF2's Seek
   decodes from the start of its chunk, once per block instead of once per
   window; a block that can start at its chunk's start at most doubled
   does (az_rev_buffer.chunk), and Seek decodes nothing.  At most twice
   this many buffered events (17 bytes each, and the values of the MPI and
   thread events): the bytes of 2^19 events of the 24-byte records kept
   before, so that fewer blocks need a new reader and a Seek (bench_analyze's
   4 x 4 trace: 0.215 -> 0.208 s CPU, peak RSS 34.6 -> 43.4 MB; 66.1 MB
   with the records before). */
enum { AZ_BACK_BLOCK_EVENTS = (1 << 19) * 24 / 17 };

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

/* The values each kind keeps in az_rev_buffer.more. */
static const uint8_t rev_values[] = {
    [REV_ENTER] = 0,       [REV_LEAVE] = 0,          [REV_FORK] = 2,
    [REV_JOIN] = 1,        [REV_TEAM_BEGIN] = 1,     [REV_TEAM_END] = 1,
    [REV_ACQUIRE] = 3,     [REV_RELEASE] = 3,        [REV_SEND] = 4,
    [REV_ISEND] = 5,       [REV_ISEND_COMPLETE] = 1, [REV_IRECV_REQUEST] = 1,
    [REV_RECV] = 4,        [REV_IRECV] = 5,          [REV_CANCELLED] = 1,
    [REV_COLL_END] = 5,    [REV_IO_BEGIN] = 5,       [REV_IO_COMPLETE] = 3,
    [REV_TASK_CREATE] = 3, [REV_TASK_SWITCH] = 3,    [REV_TASK_COMPLETE] = 3,
    [REV_SAMPLE] = 3,      [REV_UNKNOWN] = 0};

/* A decoding thread's segment of a forward pass holds at most this many
   events, spanning fewer than 2^31 positions. */
enum { AZ_SEG_EVENTS = 1 << 14 };

static void grow_events(az_rev_buffer *b) {
  /* a decoding thread's segment starts small: a window of many
     locations makes many small segments */
  b->cap = b->cap ? 2 * b->cap : b->pace ? 64 : 1024;
  b->ev = pu_realloc(b->ev, b->cap * sizeof *b->ev);
  b->kind = pu_realloc(b->kind, b->cap);
}

static inline OTF2_CallbackCode rev_put(void *u, int kind, OTF2_TimeStamp t, uint64_t pos,
                                        uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3,
                                        uint64_t v4) {
  az_rev_buffer *b = u;
  if (b->len == b->cap) grow_events(b);
  uint32_t arg = (uint32_t)v0; /* a region reference */
  if (kind != REV_ENTER && kind != REV_LEAVE) {
    if (b->capmore - b->nmore < 5) {
      b->capmore = b->capmore ? 2 * b->capmore : b->pace ? 64 : 1024;
      b->more = pu_realloc(b->more, b->capmore * sizeof *b->more);
    }
    uint64_t *v = b->more + b->nmore; /* all five written, its own kept */
    v[0] = v0, v[1] = v1, v[2] = v2, v[3] = v3, v[4] = v4;
    arg = (uint32_t)b->nmore;
    b->nmore += rev_values[kind];
  }
  b->ev[b->len] = (az_rev_event){t, (uint32_t)(pos - b->lo), arg};
  b->kind[b->len++] = (uint8_t)kind;
  if (!b->pace) return OTF2_CALLBACK_SUCCESS;
  if (t > b->maxt) b->maxt = t;
  return b->maxt >= b->stop || b->len >= AZ_SEG_EVENTS || pos - b->lo >= (1u << 31)
             ? OTF2_CALLBACK_INTERRUPT
             : OTF2_CALLBACK_SUCCESS;
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

static OTF2_CallbackCode rev_io_begin(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                      OTF2_AttributeList *al, OTF2_IoHandleRef handle,
                                      OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags,
                                      uint64_t bytes, uint64_t matching) {
  (void)l;
  (void)al;
  return rev_put(u, REV_IO_BEGIN, t, pos, handle, mode, flags, bytes, matching);
}

static OTF2_CallbackCode rev_io_complete(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                         void *u, OTF2_AttributeList *al, OTF2_IoHandleRef handle,
                                         uint64_t bytes, uint64_t matching) {
  (void)l;
  (void)al;
  return rev_put(u, REV_IO_COMPLETE, t, pos, handle, bytes, matching, 0, 0);
}

static OTF2_CallbackCode rev_task(int kind, void *u, OTF2_TimeStamp t, uint64_t pos,
                                  OTF2_CommRef team, uint32_t creator, uint32_t generation) {
  return rev_put(u, kind, t, pos, team, creator, generation, 0, 0);
}

static OTF2_CallbackCode rev_task_create(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                         void *u, OTF2_AttributeList *al, OTF2_CommRef team,
                                         uint32_t creator, uint32_t generation) {
  (void)l, (void)al;
  return rev_task(REV_TASK_CREATE, u, t, pos, team, creator, generation);
}

static OTF2_CallbackCode rev_task_switch(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                         void *u, OTF2_AttributeList *al, OTF2_CommRef team,
                                         uint32_t creator, uint32_t generation) {
  (void)l, (void)al;
  return rev_task(REV_TASK_SWITCH, u, t, pos, team, creator, generation);
}

static OTF2_CallbackCode rev_task_complete(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos,
                                           void *u, OTF2_AttributeList *al, OTF2_CommRef team,
                                           uint32_t creator, uint32_t generation) {
  (void)l, (void)al;
  return rev_task(REV_TASK_COMPLETE, u, t, pos, team, creator, generation);
}

static OTF2_CallbackCode rev_sample(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                    OTF2_AttributeList *al, OTF2_CallingContextRef context,
                                    uint32_t unwind_distance,
                                    OTF2_InterruptGeneratorRef generator) {
  (void)l, (void)al;
  return rev_put(u, REV_SAMPLE, t, pos, context, unwind_distance, generator, 0, 0);
}

static OTF2_CallbackCode rev_unknown(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al) {
  (void)l, (void)al;
  return rev_put(u, REV_UNKNOWN, t, pos, 0, 0, 0, 0, 0);
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

/* Only the kinds the pass handles are buffered; for a forward pass
   (decoding threads) also those make_callbacks gives the driver. */
static OTF2_EvtReaderCallbacks *make_rev_callbacks(const az_event_handlers *on, int forward) {
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
  if (on->enter && on->leave)
    OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, rev_measurement);
  if (!forward) return cb;
  AZ_SET(IoOperationBegin, io_begin, rev_io_begin);
  AZ_SET(IoOperationComplete, io_complete, rev_io_complete);
#undef AZ_SET
  OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(cb, rev_task_create);
  OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(cb, rev_task_switch);
  OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(cb, rev_task_complete);
  OTF2_EvtReaderCallbacks_SetCallingContextSampleCallback(cb, rev_sample);
  OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, rev_unknown);
  return cb;
}

/* One buffered event to the pass's handler (the location reference and
   the attribute list are not kept: NULL and the location's id). */
static OTF2_CallbackCode deliver(const az_event_handlers *on, az_cursor *c, const az_rev_buffer *b,
                                 size_t i) {
  OTF2_LocationRef l = c->a->defs.locs[c->loc].id;
  const az_rev_event *e = &b->ev[i];
  uint64_t region[1] = {e->arg}, pos = b->lo + e->dpos;
  const uint64_t *v =
      b->kind[i] == REV_ENTER || b->kind[i] == REV_LEAVE ? region : b->more + e->arg;
  switch (b->kind[i]) {
  case REV_ENTER: return on->enter(l, e->t, pos, c, NULL, (OTF2_RegionRef)v[0]);
  case REV_LEAVE: return on->leave(l, e->t, pos, c, NULL, (OTF2_RegionRef)v[0]);
  case REV_FORK: return on->thread_fork(l, e->t, pos, c, NULL, (OTF2_Paradigm)v[0], (uint32_t)v[1]);
  case REV_JOIN: return on->thread_join(l, e->t, pos, c, NULL, (OTF2_Paradigm)v[0]);
  case REV_TEAM_BEGIN: return on->team_begin(l, e->t, pos, c, NULL, (OTF2_CommRef)v[0]);
  case REV_TEAM_END: return on->team_end(l, e->t, pos, c, NULL, (OTF2_CommRef)v[0]);
  case REV_ACQUIRE:
    return on->acquire_lock(l, e->t, pos, c, NULL, (OTF2_Paradigm)v[0], (uint32_t)v[1],
                            (uint32_t)v[2]);
  case REV_RELEASE:
    return on->release_lock(l, e->t, pos, c, NULL, (OTF2_Paradigm)v[0], (uint32_t)v[1],
                            (uint32_t)v[2]);
  case REV_SEND:
    return on->mpi_send(l, e->t, pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1], (uint32_t)v[2],
                        v[3]);
  case REV_ISEND:
    return on->mpi_isend(l, e->t, pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1], (uint32_t)v[2],
                         v[3], v[4]);
  case REV_ISEND_COMPLETE: return on->mpi_isend_complete(l, e->t, pos, c, NULL, v[0]);
  case REV_IRECV_REQUEST: return on->mpi_irecv_request(l, e->t, pos, c, NULL, v[0]);
  case REV_RECV:
    return on->mpi_recv(l, e->t, pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1], (uint32_t)v[2],
                        v[3]);
  case REV_IRECV:
    return on->mpi_irecv(l, e->t, pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1], (uint32_t)v[2],
                         v[3], v[4]);
  case REV_CANCELLED: return on->mpi_request_cancelled(l, e->t, pos, c, NULL, v[0]);
  default:
    return on->mpi_collective_end(l, e->t, pos, c, NULL, (OTF2_CollectiveOp)v[0],
                                  (OTF2_CommRef)v[1], (uint32_t)v[2], v[3], v[4]);
  }
}

/* One decoded event to a forward pass (decoding threads): the pass's
   handler, or the driver's own (tasks, samples, unknown records), as OTF2
   calls them in advance. */
static OTF2_CallbackCode deliver_forward(az_cursor *c, const az_rev_buffer *b, size_t i) {
  OTF2_LocationRef l = c->a->defs.locs[c->loc].id;
  const az_rev_event *e = &b->ev[i];
  uint64_t pos = b->lo + e->dpos;
  const uint64_t *v = b->kind[i] == REV_ENTER || b->kind[i] == REV_LEAVE ? NULL : b->more + e->arg;
  switch (b->kind[i]) {
  case REV_IO_BEGIN:
    return c->on->io_begin(l, e->t, pos, c, NULL, (OTF2_IoHandleRef)v[0],
                           (OTF2_IoOperationMode)v[1], (OTF2_IoOperationFlag)v[2], v[3], v[4]);
  case REV_IO_COMPLETE:
    return c->on->io_complete(l, e->t, pos, c, NULL, (OTF2_IoHandleRef)v[0], v[1], v[2]);
  case REV_TASK_CREATE:
    return az_task_create(l, e->t, pos, c, NULL, (OTF2_CommRef)v[0], (uint32_t)v[1],
                          (uint32_t)v[2]);
  case REV_TASK_SWITCH:
    return az_task_switch(l, e->t, pos, c, NULL, (OTF2_CommRef)v[0], (uint32_t)v[1],
                          (uint32_t)v[2]);
  case REV_TASK_COMPLETE:
    return az_task_complete(l, e->t, pos, c, NULL, (OTF2_CommRef)v[0], (uint32_t)v[1],
                            (uint32_t)v[2]);
  case REV_SAMPLE:
    return on_sample(l, e->t, pos, c, NULL, (OTF2_CallingContextRef)v[0], (uint32_t)v[1],
                     (OTF2_InterruptGeneratorRef)v[2]);
  case REV_UNKNOWN: return on_unknown(l, e->t, pos, c, NULL);
  default: return deliver(c->on, c, b, i);
  }
}

/* Room for the n events of a block in its buffer before it is read: the
   arrays are reused from block to block, and one too small is allocated
   anew at its size, not grown by doubling while the block is read (each
   realloc copied what it held and touched fresh pages: a quarter of the
   analysis's page faults on bench_analyze's 4 x 4 trace). */
static void block_room(az_rev_buffer *b, uint64_t n) {
  b->len = 0;
  b->nmore = 0;
  if (b->cap >= n) return;
  free(b->ev);
  free(b->kind);
  b->cap = (size_t)n;
  b->ev = pu_malloc(b->cap * sizeof *b->ev);
  b->kind = pu_malloc(b->cap);
}

/* Reads events lo+1 .. to of a location into its buffer.  Each block
   with a reader of its own: OTF2 3.0's Seek back to an earlier chunk of a
   reader that read a later one frees a chunk buffer it still holds (a
   double free when the reader is closed; valgrind); the first block with
   the reader run_backward opened.  The reader is closed once the block is
   read: then the blocks hold one OTF2 chunk buffer at a time (its memory
   reused), not one per location (16 MB of the peak on bench_analyze's
   4 x 4 trace, and their page faults). */
static int read_block(az_cursor *c, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb,
                      az_rev_buffer *b, uint64_t lo, uint64_t to) {
  block_room(b, to - lo);
  b->lo = lo;
  uint64_t n = 0;
  otf2_message[0] = 0;
  if (!c->er) {
    c->er = OTF2_Reader_GetEvtReader(reader, c->a->defs.locs[c->loc].id);
    if (!c->er) {
      unreadable(c, "no event reader", NULL);
      return -1;
    }
    OTF2_EvtReader_ApplyClockOffsets(c->er, true);
  }
  OTF2_Reader_RegisterEvtCallbacks(reader, c->er, cb, b);
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
  OTF2_Reader_CloseEvtReader(reader, c->er);
  c->er = NULL;
  b->end = b->len;
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
static uint64_t block_start(const uint64_t *chunk, size_t nchunks, uint64_t lo, uint64_t need,
                            uint64_t extra) {
  if (!nchunks) return lo;
  size_t l = 0, h = nchunks; /* the last chunk whose first event is <= lo + 1 */
  while (h - l > 1) {
    size_t mid = l + (h - l) / 2;
    if (chunk[mid] <= lo + 1) l = mid;
    else h = mid;
  }
  if (lo + 1 - chunk[l] <= extra) return chunk[l] - 1;
  if (l + 1 < nchunks && chunk[l + 1] <= need + 1) return chunk[l + 1] - 1;
  return lo;
}

/* The block a backward reading of a location's windows w, w-1, .. reads
   for window w whose events are (from, to]: from the start of as many
   earlier windows as the budget allows (at: the location's positions,
   stride apart), or from the start of its chunk. */
static uint64_t block_lo(const uint64_t *at, size_t stride, const uint64_t *chunk, size_t nchunks,
                         size_t w, uint64_t from, uint64_t to, uint64_t budget) {
  size_t first = w;
  while (first > 0 && to - (first > 1 ? at[(first - 2) * stride] : 0) <= budget) first--;
  return block_start(chunk, nchunks, first ? at[(first - 1) * stride] : 0, from, budget);
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
static int take_block(az_pool *p, az_cursor *c, az_rev_buffer *b, uint64_t lo, uint64_t to);

static int read_back(az_replay *rs, size_t np, uint32_t l, OTF2_Reader *reader,
                     OTF2_EvtReaderCallbacks *cb, az_pool *pool, az_rev_buffer *b,
                     const az_marks *m, size_t w, uint64_t budget) {
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
    uint64_t lo = block_lo(at, m->nlocs, b->chunk, b->nchunks, w, from, to, budget);
    if (to - lo > AZ_BLOCK_SPAN_MAX) {
      az_fail(&c->a->diag,
              "%s: events %llu to %llu: one window of the first pass holds more events of "
              "this location than the backward passes buffer (%llu)",
              c->label, (unsigned long long)from + 1, (unsigned long long)to,
              (unsigned long long)AZ_BLOCK_SPAN_MAX);
      c->failed = 1;
      return -1;
    }
    if (pool ? take_block(pool, c, b, lo, to) : read_block(c, reader, cb, b, lo, to)) return -1;
  }
  size_t end = b->end, rest = end;
  for (size_t i = 0; i < np; i++) {
    az_cursor *ci = az_replay_loc(&rs[i], l);
    const az_event_handlers *on = &rs[i].pass->on;
    uint32_t mask = handled_kinds(on);
    size_t e = end;
    uint64_t after = from - b->lo; /* the window's first event: dpos > after */
    OTF2_LocationRef id = c->a->defs.locs[l].id;
    while (e > 0 && b->ev[e - 1].dpos > after && !ci->failed) {
      uint8_t k = b->kind[--e];
      const az_rev_event *ev = &b->ev[e];
      /* Leave and Enter, most events, without deliver's switch */
      if (k == REV_LEAVE && on->leave) on->leave(id, ev->t, b->lo + ev->dpos, ci, NULL, ev->arg);
      else if (k == REV_ENTER && on->enter)
        on->enter(id, ev->t, b->lo + ev->dpos, ci, NULL, ev->arg);
      else if (mask >> k & 1) deliver(on, ci, b, e);
    }
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
  OTF2_EvtReaderCallbacks *cb = make_rev_callbacks(&all, 0);
  int failed = 0;
  uint64_t mine = 0;
  for (uint32_t l = 0; l < d->num_locs; l++) mine += az_replay_loc(r, l)->a != NULL;
  /* small windows (tests) make small blocks too, so that blocks of
     several windows and new readers are exercised */
  uint64_t block = AZ_BACK_BLOCK_EVENTS;
  if (r->a->window_events && 8 * r->a->window_events < block) block = 8 * r->a->window_events;
  uint64_t budget = block / (mine ? mine : 1);
  az_pool *pool = pool_start(r, &all, m, budget);
  for (uint32_t l = 0; l < d->num_locs && !failed; l++) {
    az_cursor *c = az_replay_loc(r, l);
    if (!c->a) continue;
    for (size_t i = 0; i < np; i++) az_replay_loc(&rs[i], l)->last = UINT64_MAX;
    b[l].lo = UINT64_MAX;
    b[l].off_region = d->off_region;
    failed = pool ? open_fed(c, reader, pool) : open_location(c, reader, cb, m->defs_read);
    if (!failed && !c->cut_file) chunk_starts(c, reader, &b[l]);
  }
  if (pool) pool_go(pool, r, b);
  for (size_t w = m->windows; w-- > 0;) {
    az_time low = w ? m->stop[w - 1] : 0;
    for (uint32_t l = 0; l < d->num_locs && !failed; l++) {
      az_cursor *c = az_replay_loc(r, l);
      if (!c->a || c->done) continue;
      for (size_t i = 0; i < np; i++) az_replay_loc(&rs[i], l)->stop = low;
      failed = read_back(rs, np, l, reader, cb, pool, &b[l], m, w, budget);
    }
    /* not active before the first window: a failure all agreed on */
    if (!end_windows(rs, np, low, w > 0, &failed)) break;
  }
  if (pool) pool_stop(pool);
  for (uint32_t l = 0; l < d->num_locs && !failed; l++)
    if (az_replay_loc(r, l)->a && !az_replay_loc(r, l)->done)
      for (size_t i = 0; i < np; i++)
        finish_location(&rs[i], az_replay_loc(&rs[i], l), reader, NULL);
  for (uint32_t l = 0; l < d->num_locs; l++) {
    free(b[l].ev);
    free(b[l].kind);
    free(b[l].more);
    free(b[l].chunk);
  }
  free(b);
  OTF2_EvtReaderCallbacks_Delete(cb);
  return failed;
}

/* ---- Decoding threads ----

   With az_analysis.threads = N > 1, N - 1 threads decode the event files
   of the locations replayed here while this thread (the replay) runs the
   passes' handlers on what they decoded, in the order of the serial
   replay: the same handlers see the same events in the same order, so the
   report is the same.  Each decoding thread has an OTF2 reader of its own
   (OTF2 3.0's reader objects are not for several threads) and the
   locations given to it, about the same number of events each.

   Forward pass: a location's events go to the replay in segments, each
   up to the first event at or after the end of a window (or at most
   AZ_SEG_EVENTS): a decoding thread decodes up to AZ_AHEAD_WINDOWS
   windows after the one the replay reads, at most AZ_AHEAD_EVENTS events
   of all locations together (a few windows: waking a thread per window
   cost more than it saved on the 2-core machine).  Where a window ends
   stays the pass's business (az_next); a segment only paces the
   decoding.  The last segment says how the reading ended (as
   OTF2_Reader_ReadLocalEvents would have told advance).

   Backward passes: the blocks read_back reads, in the same order, one
   block a location ahead of the one it delivers from (so twice the memory
   of the serial backward reading).

   A decoding thread touches nothing of the analysis but the definitions;
   errors go back in the segments, the replay says them. */

enum { AZ_AHEAD_WINDOWS = 4, AZ_AHEAD_EVENTS = 1 << 17 };

typedef struct az_seg { /* decoded events of one location */
  az_rev_buffer b;
  size_t next;         /* forward: b.ev[next ..] not delivered yet */
  uint64_t lo, to;     /* backward: the block (lo, to] */
  int last;            /* forward: its events end here (rc, hit_limit, read_pos) */
  int failed;          /* backward: the block could not be read (why) */
  OTF2_ErrorCode rc;   /* forward: how the reading ended */
  int hit_limit;       /* ... it read as many events as its chunks hold */
  uint64_t read_pos;   /* ... the position of the last event read */
  char why[512];       /* OTF2's words for a failure */
  struct az_seg *tail; /* the next segment of the queue */
} az_seg;

/* How a decoding thread's first opening of a location went. */
enum { FEED_OPEN, FEED_NO_DEFS, FEED_NO_READER, FEED_NO_ARCHIVE };

typedef struct {
  int worker; /* the decoding thread that owns it; -1: not replayed here */
  /* the decoding thread's alone until `opened` */
  int open;         /* FEED_* */
  char *open_error; /* FEED_NO_DEFS: why */
  int fresh;        /* er not read yet */
  /* the decoding thread's alone */
  OTF2_EvtReader *er;
  int defs_read;
  uint64_t limit, pos; /* forward: events its chunks hold; the last read */
  az_time maxt;        /* forward: the latest time decoded */
  size_t target;       /* forward: the window it decodes up to */
  size_t bw;           /* backward: windows left to look for blocks in */
  uint64_t blo;        /* backward: where the last block starts */
  const uint64_t *chunk;
  size_t nchunks;
  uint64_t events; /* declared: to share the locations out */
  /* under the pool's lock */
  az_seg *head, *end;
  size_t queued;
  int opened, busy, ended, wanted;
} az_feed;

typedef struct {
  az_pool *pool;
  int id;
  pthread_t tid;
  int started;
} az_decoder;

struct az_pool {
  pthread_mutex_t mu;
  pthread_cond_t work, ready; /* for the decoding threads; for the replay */
  const az_analysis *a;
  const az_event_handlers *on;
  int forward;
  char *anchor;
  az_feed *feed; /* per location */
  uint32_t nlocs;
  az_decoder *dec;
  int ndec, quit;
  int go;        /* the replay opened every location: limits and chunks known */
  size_t window; /* forward: the window the replay reads */
  size_t ahead;  /* forward: events decoded, not delivered */
  int idle;      /* decoding threads waiting for work */
  az_time offset, length;
  const az_marks *m; /* backward */
  uint64_t budget;
  az_seg *spare;
};

int az_default_threads(int procs) {
  cpu_set_t set;
  long cpus =
      sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
  long n = cpus / (procs > 0 ? procs : 1);
  return n < 1 ? 1 : n > AZ_THREADS_USEFUL ? AZ_THREADS_USEFUL : (int)n;
}

/* The end of forward window k, as run_forward counts them. */
static az_time window_stop(const az_pool *p, size_t k) {
  if (p->length == UINT64_MAX) return UINT64_MAX;
  uint64_t room = (UINT64_MAX - p->offset) / p->length;
  return (uint64_t)k + 1 > room ? UINT64_MAX : p->offset + ((uint64_t)k + 1) * p->length;
}

static void seg_failed(az_seg *s, const char *why) {
  if (why != s->why) snprintf(s->why, sizeof s->why, "%s", why);
  s->failed = s->last = 1;
  s->rc = OTF2_ERROR_INVALID;
}

/* The first event reader of the location, its local definitions read
   first (by this thread's reader), as open_location does: FEED_*. */
static int open_first(az_pool *p, OTF2_Reader *reader, az_feed *f, uint32_t loc) {
  char err[4600];
  if (!reader) return FEED_NO_ARCHIVE;
  otf2_message[0] = 0;
  if (load_local_defs(p->a, loc, reader, err, sizeof err)) {
    f->open_error = pu_strdup(err);
    return FEED_NO_DEFS;
  }
  otf2_message[0] = 0;
  f->er = OTF2_Reader_GetEvtReader(reader, p->a->defs.locs[loc].id);
  if (!f->er) return FEED_NO_READER;
  OTF2_EvtReader_ApplyClockOffsets(f->er, true);
  f->fresh = 1;
  return FEED_OPEN;
}

/* The location's event reader: the first one until it read, then a new
   one (a backward block: OTF2's Seek back); 0, or -1 with the segment
   failed. */
static int open_feed(OTF2_Reader *reader, az_feed *f, uint64_t id, az_seg *s) {
  if (f->fresh) {
    f->fresh = 0;
    return 0;
  }
  if (f->er) OTF2_Reader_CloseEvtReader(reader, f->er);
  f->er = OTF2_Reader_GetEvtReader(reader, id);
  if (!f->er) {
    seg_failed(s, "no event reader");
    return -1;
  }
  OTF2_EvtReader_ApplyClockOffsets(f->er, true);
  return 0;
}

/* Forward: the location's events up to the end of its target window. */
static void decode_segment(az_pool *p, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb, az_feed *f,
                           az_seg *s) {
  uint64_t want = f->limit > f->pos ? f->limit - f->pos : 0, n = 0;
  if (!want) { /* as advance: nothing asked, n == want */
    s->last = s->hit_limit = 1;
    s->read_pos = f->pos;
    return;
  }
  if (f->fresh) f->fresh = 0;
  az_time stop = window_stop(p, f->target);
  while (stop <= f->maxt && stop != UINT64_MAX) stop = window_stop(p, ++f->target);
  s->b.pace = 1;
  s->b.lo = f->pos;
  s->b.stop = stop;
  s->b.maxt = f->maxt;
  OTF2_Reader_RegisterEvtCallbacks(reader, f->er, cb, &s->b);
  otf2_message[0] = 0;
  OTF2_ErrorCode rc = OTF2_Reader_ReadLocalEvents(reader, f->er, want, &n);
  OTF2_EvtReader_GetPos(f->er, &f->pos);
  f->maxt = s->b.maxt;
  if (rc == OTF2_ERROR_INTERRUPTED_BY_CALLBACK) {
    if (f->maxt >= stop) f->target++;
    return;
  }
  s->last = 1;
  s->rc = rc;
  s->hit_limit = n == want;
  s->read_pos = f->pos;
  if (rc != OTF2_SUCCESS) snprintf(s->why, sizeof s->why, "%s", otf2_why(rc));
}

/* Backward: the next block read_back will ask for, as it computes it; 0
   when there is none. */
static int decode_block(az_pool *p, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb, az_feed *f,
                        uint32_t loc, az_seg *s) {
  const az_marks *m = p->m;
  const uint64_t *at = m->at + loc;
  uint64_t from = 0, to = 0;
  size_t w = 0;
  int found = 0;
  while (f->bw > 0 && !found) {
    w = --f->bw;
    from = w ? at[(w - 1) * m->nlocs] : 0, to = at[w * m->nlocs];
    if (to <= from && !to) f->bw = 0; /* nothing before either */
    found = to > from && from < f->blo;
  }
  if (!found) return 0;
  s->lo = f->blo = block_lo(at, m->nlocs, f->chunk, f->nchunks, w, from, to, p->budget);
  s->to = to;
  if (to - s->lo > AZ_BLOCK_SPAN_MAX) { /* read_back says so */
    seg_failed(s, "block too large");
    return 1;
  }
  block_room(&s->b, to - s->lo);
  s->b.lo = s->lo;
  /* a new reader per block, as read_block (OTF2's Seek back) */
  if (open_feed(reader, f, p->a->defs.locs[loc].id, s)) return 1;
  OTF2_Reader_RegisterEvtCallbacks(reader, f->er, cb, &s->b);
  otf2_message[0] = 0;
  uint64_t n = 0;
  OTF2_ErrorCode rc = s->lo ? OTF2_EvtReader_Seek(f->er, s->lo + 1) : OTF2_SUCCESS;
  if (rc == OTF2_SUCCESS) rc = OTF2_Reader_ReadLocalEvents(reader, f->er, to - s->lo, &n);
  if (rc != OTF2_SUCCESS && !cut_files_read(p->a)) seg_failed(s, otf2_why(rc));
  /* as read_block: the next block opens its own */
  OTF2_Reader_CloseEvtReader(reader, f->er);
  f->er = NULL;
  return 1;
}

/* What a decoding thread does next: the location the replay waits for,
   else the one needed soonest that may be decoded ahead. */
static az_feed *pick(az_pool *p, int me, uint32_t *loc) {
  az_feed *best = NULL;
  for (uint32_t l = 0; l < p->nlocs; l++) {
    az_feed *f = &p->feed[l];
    if (f->worker != me || f->busy || f->ended || !p->go) continue;
    if (f->wanted) {
      *loc = l;
      return f;
    }
    if (p->forward ? p->ahead >= AZ_AHEAD_EVENTS || f->target > p->window + AZ_AHEAD_WINDOWS
                   : f->queued >= 1)
      continue;
    if (!best || (p->forward ? f->target < best->target : f->bw > best->bw)) {
      best = f;
      *loc = l;
    }
  }
  return best;
}

static az_seg *spare_seg(az_pool *p) {
  az_seg *s = p->spare;
  if (s) p->spare = s->tail;
  else s = pu_calloc(1, sizeof *s);
  az_rev_buffer kept = s->b; /* its arrays */
  memset(s, 0, sizeof *s);
  s->b.ev = kept.ev, s->b.kind = kept.kind, s->b.cap = kept.cap;
  s->b.more = kept.more, s->b.capmore = kept.capmore;
  s->b.off_region = p->a->defs.off_region;
  return s;
}

static void *decoder_main(void *arg) {
  az_decoder *d = arg;
  az_pool *p = d->pool;
  OTF2_Reader *reader = OTF2_Reader_Open(p->anchor);
  if (reader) OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  OTF2_EvtReaderCallbacks *cb = make_rev_callbacks(p->on, p->forward);
  for (uint32_t l = 0; l < p->nlocs; l++)
    if (p->feed[l].worker == d->id) p->feed[l].open = open_first(p, reader, &p->feed[l], l);
  pthread_mutex_lock(&p->mu);
  for (uint32_t l = 0; l < p->nlocs; l++)
    if (p->feed[l].worker == d->id) p->feed[l].opened = 1;
  pthread_cond_broadcast(&p->ready);
  for (;;) {
    uint32_t l = 0;
    az_feed *f = p->quit ? NULL : pick(p, d->id, &l);
    if (!f) {
      if (p->quit) break;
      p->idle++;
      pthread_cond_wait(&p->work, &p->mu);
      p->idle--;
      continue;
    }
    f->busy = 1;
    az_seg *s = spare_seg(p);
    pthread_mutex_unlock(&p->mu);
    int made = 1;
    if (p->forward) decode_segment(p, reader, cb, f, s);
    else made = decode_block(p, reader, cb, f, l, s);
    pthread_mutex_lock(&p->mu);
    f->busy = 0;
    if (made && f->ended) { /* the replay ended the location meanwhile */
      s->tail = p->spare;
      p->spare = s;
    } else if (made) {
      if (f->end) f->end->tail = s;
      else f->head = s;
      f->end = s;
      f->queued++;
      p->ahead += s->b.len;
    } else {
      s->tail = p->spare;
      p->spare = s;
    }
    if (!made || s->last) f->ended = 1;
    if (f->wanted) pthread_cond_broadcast(&p->ready);
  }
  pthread_mutex_unlock(&p->mu);
  for (uint32_t l = 0; l < p->nlocs; l++)
    if (p->feed[l].worker == d->id && p->feed[l].er)
      OTF2_Reader_CloseEvtReader(reader, p->feed[l].er);
  if (reader) OTF2_Reader_Close(reader);
  OTF2_EvtReaderCallbacks_Delete(cb);
  return NULL;
}

/* The locations replayed here to the decoding threads: the largest
   first, each to the thread with the fewest events so far. */
static void share_out(az_pool *p) {
  uint64_t *load = pu_calloc((size_t)p->ndec, sizeof *load);
  for (;;) {
    az_feed *big = NULL;
    for (uint32_t l = 0; l < p->nlocs; l++)
      if (p->feed[l].worker == -2 && (!big || p->feed[l].events > big->events)) big = &p->feed[l];
    if (!big) break;
    int least = 0;
    for (int i = 1; i < p->ndec; i++)
      if (load[i] < load[least]) least = i;
    big->worker = least;
    load[least] += big->events + 1;
  }
  free(load);
}

static az_pool *pool_start(az_replay *r, const az_event_handlers *on, const az_marks *m,
                           uint64_t budget) {
  const az_analysis *a = r->a;
  uint32_t mine = 0;
  for (uint32_t l = 0; l < a->defs.num_locs; l++) mine += az_replay_loc(r, l)->a != NULL;
  int ndec = a->threads - 1 < (int)mine ? a->threads - 1 : (int)mine;
  if (ndec < 1) return NULL;
  az_pool *p = pu_calloc(1, sizeof *p);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  pthread_cond_init(&p->ready, NULL);
  p->a = a;
  p->on = on;
  p->forward = m == NULL;
  p->anchor = pu_malloc(strlen(a->files) + 6);
  sprintf(p->anchor, "%s.otf2", a->files);
  p->nlocs = a->defs.num_locs;
  p->feed = pu_calloc(p->nlocs ? p->nlocs : 1, sizeof *p->feed);
  p->offset = a->defs.global_offset;
  p->length = window_length(a);
  p->m = m;
  p->budget = budget;
  p->ndec = ndec;
  for (uint32_t l = 0; l < p->nlocs; l++) {
    const az_cursor *c = az_replay_loc(r, l);
    az_feed *f = &p->feed[l];
    f->worker = c->a ? -2 : -1;
    f->events = a->defs.locs[l].events;
    f->blo = UINT64_MAX;
    f->bw = m ? m->windows : 0;
  }
  share_out(p);
  p->dec = pu_calloc((size_t)ndec, sizeof *p->dec);
  int ok = 1;
  for (int i = 0; i < ndec && ok; i++) {
    p->dec[i] = (az_decoder){p, i, 0, 0};
    ok = p->dec[i].started = !pthread_create(&p->dec[i].tid, NULL, decoder_main, &p->dec[i]);
  }
  if (ok) return p;
  pool_stop(p); /* no threads: the replay reads alone */
  return NULL;
}

/* open_location, the event reader opened by the decoding thread: the
   same errors; the limit of its events computed here. */
static int open_fed(az_cursor *s, OTF2_Reader *reader, az_pool *p) {
  az_feed *f = &p->feed[s->loc];
  pthread_mutex_lock(&p->mu);
  while (!f->opened) pthread_cond_wait(&p->ready, &p->mu);
  pthread_mutex_unlock(&p->mu);
  switch (f->open) {
  case FEED_NO_DEFS:
    az_fail(&s->a->diag, "%s", f->open_error);
    s->failed = 1;
    return -1;
  case FEED_NO_ARCHIVE: unreadable(s, "cannot open the trace archive", NULL); return -1;
  case FEED_NO_READER:
    if (cut_files_read(s->a)) { /* as open_location */
      s->limit = 0;
      return 0;
    }
    unreadable(s, "no event reader", NULL);
    return -1;
  default: s->limit = chunk_limit(s, reader); return 0;
  }
}

/* The replay opened the locations: the decoding threads may start (what
   they need of the replay's cursors and buffers, read once). */
static void pool_go(az_pool *p, const az_replay *r, const az_rev_buffer *bufs) {
  pthread_mutex_lock(&p->mu);
  for (uint32_t l = 0; l < p->nlocs; l++) {
    az_feed *f = &p->feed[l];
    f->limit = az_replay_loc(r, l)->limit;
    if (bufs) f->chunk = bufs[l].chunk, f->nchunks = bufs[l].nchunks;
  }
  p->go = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

static void pool_window(az_pool *p, size_t window) {
  pthread_mutex_lock(&p->mu);
  p->window = window;
  if (p->idle && window % (AZ_AHEAD_WINDOWS / 2) == 0) pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

static void free_segs(az_seg *s) {
  while (s) {
    az_seg *next = s->tail;
    free(s->b.ev);
    free(s->b.kind);
    free(s->b.more);
    free(s);
    s = next;
  }
}

static void pool_stop(az_pool *p) {
  pthread_mutex_lock(&p->mu);
  p->quit = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->ndec; i++)
    if (p->dec[i].started) pthread_join(p->dec[i].tid, NULL);
  for (uint32_t l = 0; l < p->nlocs; l++) {
    free_segs(p->feed[l].head);
    free(p->feed[l].open_error);
  }
  free_segs(p->spare);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->ready);
  free(p->feed);
  free(p->dec);
  free(p->anchor);
  free(p);
}

/* The first segment of location l not delivered yet, once decoded; NULL
   when its decoding thread has none (a fault of the driver). */
static az_seg *pool_head(az_pool *p, uint32_t l) {
  az_feed *f = &p->feed[l];
  pthread_mutex_lock(&p->mu);
  while (!f->head && !f->ended) {
    f->wanted = 1;
    pthread_cond_broadcast(&p->work);
    pthread_cond_wait(&p->ready, &p->mu);
  }
  f->wanted = 0;
  az_seg *s = f->head;
  pthread_mutex_unlock(&p->mu);
  return s;
}

/* The first segment of location l delivered: to be decoded into again. */
static void pool_pop(az_pool *p, uint32_t l) {
  az_feed *f = &p->feed[l];
  pthread_mutex_lock(&p->mu);
  az_seg *s = f->head;
  f->head = s->tail;
  if (!f->head) f->end = NULL;
  f->queued--;
  size_t had = p->ahead;
  p->ahead -= s->b.len;
  s->tail = p->spare;
  p->spare = s;
  /* backward: its next block; forward: room for more again */
  if (p->idle && (!p->forward || (had >= AZ_AHEAD_EVENTS / 2 && p->ahead < AZ_AHEAD_EVENTS / 2)))
    pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

/* The replay ended location l (a run that did not finish: its clock went
   back): what was decoded ahead of it is not needed. */
static void pool_drop(az_pool *p, uint32_t l) {
  az_feed *f = &p->feed[l];
  pthread_mutex_lock(&p->mu);
  while (f->head) {
    az_seg *s = f->head;
    f->head = s->tail;
    p->ahead -= s->b.len;
    s->tail = p->spare;
    p->spare = s;
  }
  f->end = NULL;
  f->queued = 0;
  f->ended = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

static int driver_fault(az_cursor *c) {
  az_fail(&c->a->diag, "%s: internal error: the decoding thread delivered no events", c->label);
  c->failed = 1;
  return -1;
}

/* advance, on the events a decoding thread decoded: the same handlers
   on the same events, the window ending where the pass says so; the end
   of the events as advance meets it. */
static int advance_fed(az_replay *r, az_cursor *s, OTF2_Reader *reader, az_pool *p, az_time stop) {
  s->stop = stop;
  az_seg *seg;
  int interrupted = 0;
  uint64_t at = 0;
  while ((seg = pool_head(p, s->loc)) != NULL) {
    while (seg->next < seg->b.len && !interrupted) {
      size_t i = seg->next++;
      if (deliver_forward(s, &seg->b, i) == OTF2_CALLBACK_INTERRUPT)
        interrupted = 1, at = seg->b.lo + seg->b.ev[i].dpos;
    }
    if (interrupted || seg->last) break;
    pool_pop(p, s->loc);
  }
  if (!seg) return driver_fault(s);
  int no_reader = p->feed[s->loc].open != FEED_OPEN;
  s->read_pos = s->stale || no_reader ? s->pos : interrupted ? at : seg->read_pos;
  if (s->failed) return -1;
  if (s->stale) {
    pool_drop(p, s->loc);
    return end_of_file(r, s, reader, "timestamps go backwards");
  }
  if (interrupted) return 0;
  char why[sizeof seg->why];
  memcpy(why, seg->why, sizeof why);
  OTF2_ErrorCode rc = seg->rc;
  int hit = seg->hit_limit;
  pool_pop(p, s->loc);
  if (rc == OTF2_SUCCESS)
    return end_of_file(r, s, reader,
                       hit && s->limit_is_size ? "more events than the file has bytes" : NULL);
  return end_of_file(r, s, reader, why);
}

/* read_block, from the block a decoding thread read: its arrays swapped
   with the buffer's. */
static int take_block(az_pool *p, az_cursor *c, az_rev_buffer *b, uint64_t lo, uint64_t to) {
  az_seg *s = pool_head(p, c->loc);
  if (!s || s->lo != lo || s->to != to) return driver_fault(c);
  if (s->failed) {
    unreadable(c, s->why, NULL);
    return -1;
  }
  az_rev_buffer t = *b;
  b->ev = s->b.ev, b->kind = s->b.kind, b->len = s->b.len, b->cap = s->b.cap;
  b->more = s->b.more, b->nmore = s->b.nmore, b->capmore = s->b.capmore;
  s->b.ev = t.ev, s->b.kind = t.kind, s->b.cap = t.cap;
  s->b.more = t.more, s->b.capmore = t.capmore;
  b->end = b->len;
  b->lo = lo;
  pool_pop(p, c->loc);
  return 0;
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
