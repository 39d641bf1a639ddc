/* replay_file.c -- a location's event file, for the replay driver
 * (replay.c, az_replay.h): its local definitions, how many events it
 * holds, how its events end (a file that ends early or cannot be read),
 * and the messages naming file, location and event; OTF2's words for a
 * failure; the records the driver handles itself (unknown records,
 * samples).  Local definitions carry the clock offsets and the id mapping
 * tables that the event reader applies. */
#include <errno.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "az.h"
#include "az_archive.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_pass.h"
#include "az_replay.h"
#include "pomp_util.h"

/* last error text from OTF2, per thread: the decoding threads read too */
_Thread_local char az_otf2_message[256];

OTF2_ErrorCode az_on_otf2_error(void *u, const char *file, uint64_t line, const char *fn,
                                OTF2_ErrorCode code, const char *fmt, va_list va) {
  (void)u;
  (void)file;
  (void)line;
  (void)fn;
  vsnprintf(az_otf2_message, sizeof az_otf2_message, fmt, va);
  return code;
}

OTF2_CallbackCode az_on_unknown(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                OTF2_AttributeList *al) {
  (void)l;
  (void)t;
  (void)al;
  az_cursor *s = u;
  az_warn(&s->a->diag, AZ_W_UNKNOWN_RECORD, "%s: event %llu: unknown record type; skipped",
          s->label, (unsigned long long)pos);
  return az_next(s);
}

/* Sampling records carry no region nesting: counted, not analysed
   (check_samples refuses a trace that has nothing else). */
OTF2_CallbackCode az_on_sample(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                               OTF2_AttributeList *al, OTF2_CallingContextRef context,
                               uint32_t unwind_distance, OTF2_InterruptGeneratorRef generator) {
  (void)l, (void)t, (void)pos, (void)al, (void)context, (void)unwind_distance, (void)generator;
  az_cursor *c = u;
  c->a->samples++;
  return az_next(c);
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

int az_no_local_defs(const az_analysis *a, uint32_t loc) {
  char path[4096];
  az_loc_file(a, a->defs.locs[loc].id, "def", path, sizeof path);
  struct stat st;
  return stat(path, &st) == 0 && no_local_defs(path, &st);
}

/* Reads location loc's local definitions with reader: 0, or -1 and why in
   err ("PATH: LABEL: local definitions: WHY"). */
int az_load_local_defs(const az_analysis *a, uint32_t loc, OTF2_Reader *reader, char *err,
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
           az_otf2_message[0] ? " (" : "", az_otf2_message, az_otf2_message[0] ? ")" : "");
  return -1;
}

/* ---- the tables OTF2's reader applies, for the decoder ----
 * Read by OTF2's own definition reader, on a reader of the decoder's own:
 * the analysis's reader keeps the location's tables once it read them
 * (a second reading there fails: "Mapping already set"). */

typedef struct {
  az_local_tables *t;
  int kind; /* the table being traversed (AZ_MAP_*) */
} tables_read;

static void on_pair(uint64_t local, uint64_t global, void *u) {
  tables_read *r = u;
  az_local_tables *t = r->t;
  pu_reserve((void **)&t->pairs[r->kind], &t->cap[r->kind], t->npairs[r->kind] + 1,
             2 * sizeof(uint64_t));
  uint64_t *p = t->pairs[r->kind] + 2 * t->npairs[r->kind]++;
  p[0] = local, p[1] = global;
}

/* The kinds the decoded records reference: regions (Enter, Leave),
   communicators (the MPI events', the thread teams', the tasks' teams),
   I/O handles, calling contexts and interrupt generators (samples); the
   others' tables (groups, windows, ...) change no record it buffers. */
static OTF2_CallbackCode on_mapping(void *u, OTF2_MappingType type, const OTF2_IdMap *map) {
  tables_read *r = u;
  r->kind = type == OTF2_MAPPING_REGION                ? AZ_MAP_REGION
            : type == OTF2_MAPPING_COMM                ? AZ_MAP_COMM
            : type == OTF2_MAPPING_IO_HANDLE           ? AZ_MAP_IO_HANDLE
            : type == OTF2_MAPPING_CALLING_CONTEXT     ? AZ_MAP_CONTEXT
            : type == OTF2_MAPPING_INTERRUPT_GENERATOR ? AZ_MAP_GENERATOR
                                                       : -1;
  if (r->kind >= 0) OTF2_IdMap_Traverse(map, on_pair, r);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_clock_offset(void *u, OTF2_TimeStamp time, int64_t offset,
                                         double stddev) {
  (void)stddev;
  az_local_tables *t = ((tables_read *)u)->t;
  t->offset_time = pu_realloc(t->offset_time, (t->noffsets + 1) * sizeof *t->offset_time);
  t->offset = pu_realloc(t->offset, (t->noffsets + 1) * sizeof *t->offset);
  t->offset_time[t->noffsets] = time;
  t->offset[t->noffsets++] = offset;
  return OTF2_CALLBACK_SUCCESS;
}

int az_read_local_tables(const az_analysis *a, uint32_t loc, az_local_tables *t) {
  memset(t, 0, sizeof *t);
  uint64_t id = a->defs.locs[loc].id;
  char anchor[4200];
  snprintf(anchor, sizeof anchor, "%s.otf2", a->files ? a->files : "traces");
  OTF2_Reader *reader = OTF2_Reader_Open(anchor);
  if (!reader) return -1;
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  OTF2_Reader_SelectLocation(reader, id);
  int ok = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  OTF2_DefReader *dr = ok ? OTF2_Reader_GetDefReader(reader, id) : NULL;
  OTF2_DefReaderCallbacks *cb = OTF2_DefReaderCallbacks_New();
  OTF2_DefReaderCallbacks_SetMappingTableCallback(cb, on_mapping);
  OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, on_clock_offset);
  tables_read r = {t, -1};
  uint64_t n = 0;
  ok = dr && OTF2_Reader_RegisterDefCallbacks(reader, dr, cb, &r) == OTF2_SUCCESS &&
       OTF2_Reader_ReadAllLocalDefinitions(reader, dr, &n) == OTF2_SUCCESS;
  OTF2_DefReaderCallbacks_Delete(cb);
  if (dr) OTF2_Reader_CloseDefReader(reader, dr);
  OTF2_Reader_Close(reader);
  if (!ok) az_free_local_tables(t);
  return ok ? 0 : -1;
}

void az_free_local_tables(az_local_tables *t) {
  for (int k = 0; k < AZ_MAP_KINDS; k++) free(t->pairs[k]);
  free(t->offset_time);
  free(t->offset);
  memset(t, 0, sizeof *t);
}

static int read_local_defs(az_cursor *s, OTF2_Reader *reader) {
  char err[4600];
  if (!az_load_local_defs(s->a, s->loc, reader, err, sizeof err)) return 0;
  az_fail(&s->a->diag, "%s", err);
  s->failed = 1;
  return -1;
}

/* Whether event files that end early are read up to where they end: in
   a run that did not finish (their last chunks were cut), or with
   --skip-damaged; otherwise such a file is an error. */
int az_cut_files_read(const az_analysis *a) { return a->incomplete || a->skip_damaged; }

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
const char *az_otf2_why(OTF2_ErrorCode rc) {
  return az_otf2_message[0] ? az_otf2_message : OTF2_Error_GetDescription(rc);
}

/* A finished trace with a missing, truncated or corrupt event file is not
   analysed (hint: the option that analyses it up to the damage). */
void az_unreadable(az_cursor *s, const char *otf2_text, const char *hint) {
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
void az_finish_location(az_replay *r, az_cursor *s, OTF2_Reader *reader, const char *cut_chunk) {
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
uint64_t az_chunk_limit(az_cursor *s, OTF2_Reader *reader) {
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

OTF2_EvtReader *az_event_reader(OTF2_Reader *reader, uint64_t id) {
  OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(reader, id);
  if (er) OTF2_EvtReader_ApplyClockOffsets(er, true);
  return er;
}

/* defs_read: the location's local definitions were read by an earlier
   pass (OTF2 keeps them for the archive; reading them again fails). */
int az_open_location(az_cursor *s, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb,
                     uint8_t *defs_read) {
  az_otf2_message[0] = 0;
  if (!defs_read[s->loc] && read_local_defs(s, reader)) return -1;
  defs_read[s->loc] = 1;
  az_otf2_message[0] = 0;
  s->er = az_event_reader(reader, s->a->defs.locs[s->loc].id);
  if (!s->er && az_cut_files_read(s->a)) {
    /* an empty event file (a full disk cut it before its first chunk):
       the location holds no events, az_end_of_file says so */
    s->limit = 0;
    return 0;
  }
  if (!s->er) {
    az_unreadable(s, "no event reader", NULL);
    return -1;
  }
  OTF2_Reader_RegisterEvtCallbacks(reader, s->er, cb, s);
  s->limit = az_chunk_limit(s, reader);
  return 0;
}

/* All events of the file were read: it must hold the events the
   definitions declare.  A run that did not finish: one warning naming
   the file and position (why: msg) and the location ends there.
   Otherwise an error.  0 when the location is finished. */
int az_end_of_file(az_replay *r, az_cursor *s, OTF2_Reader *reader, const char *why) {
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
    az_finish_location(r, s, reader, NULL);
    return 0;
  }
  int damaged = !s->a->incomplete;
  if (!az_cut_files_read(s->a)) {
    az_unreadable(s, why,
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
  az_finish_location(r, s, reader, msg);
  return 0;
}
