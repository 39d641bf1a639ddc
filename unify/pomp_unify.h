/*
 * pomp_unify.h -- the public face of unify/ (static library pomp-unify):
 * what libpomp (measure/) and pomp-recover (recover/) share so that a
 * trace is completed after a crash exactly as MPI_Finalize writes it.
 * The one header of the component: its users include nothing else of it.
 *
 *   byte blobs      pm_blob_*, pm_get_*, pm_map_*: the definitions ranks
 *                   exchange, read back with bounds-checked cursors
 *   the merge       pm_unify_merge: the ranks' definition blobs become the
 *                   global definitions and one map of ids per rank
 *   local defs      pm_write_local_defs, pm_unify_threads,
 *                   pm_unify_set_events: one rank's mapping tables and
 *                   clock offsets, the locations of its blob
 *   fragments       pm_frag_*: what one rank leaves on disk
 *                   (docs/TRACE.md, "Unfinished runs and fragments")
 *
 * Nothing here touches libpomp state: every function works on the bytes
 * and the OTF2 writer it is given, so it runs the same in a dying rank, at
 * MPI_Finalize and post mortem. No function prints or exits.
 */
#ifndef POMP_UNIFY_H
#define POMP_UNIFY_H

#include <stddef.h>
#include <stdint.h>

#include <otf2/otf2.h>

/* ------------------------------------------------------ location ids */

/* The OTF2 location id of thread T (its number in the outermost OpenMP
   team, docs/TRACE.md) of MPI rank R: Score-P's layout T << 32 | R, the
   one Scalasca's PEARL takes the thread number from. libpomp, the merge
   and pomp-recover all name locations (and their event files) by it.
   Traces before issue 17 used R << 32 | T: readers that need rank and
   thread take them from the location group and the order of ids inside
   it, which both layouts share. */
static inline uint64_t pm_loc_id(uint32_t rank, uint32_t thread) {
  return (uint64_t)thread << 32 | rank;
}
/* T of a location id pm_loc_id(R, T). */
static inline uint32_t pm_loc_thread(uint64_t id) { return (uint32_t)(id >> 32); }
/* R of a location id pm_loc_id(R, T). */
static inline uint32_t pm_loc_rank(uint64_t id) { return (uint32_t)id; }

/* ------------------------------------------------------------- byte blobs */

/* A growing byte string (pm_blob_put_*); {0} is empty. The owner frees
   data with pm_blob_free. Not thread-safe: one owner at a time. */
typedef struct pm_blob {
  unsigned char *data;
  size_t len, cap;
} pm_blob;

void pm_blob_put(pm_blob *b, const void *bytes, size_t n);
void pm_blob_u32(pm_blob *b, uint32_t v);
void pm_blob_u64(pm_blob *b, uint64_t v);
void pm_blob_str(pm_blob *b, const char *s); /* u32 length, bytes, NUL */
void pm_blob_free(pm_blob *b);

/* Reading: a short or malformed blob sets bad and yields zeros / "". */
typedef struct pm_cursor {
  const unsigned char *p, *end;
  int bad;
} pm_cursor;
uint32_t pm_get_u32(pm_cursor *c);
uint64_t pm_get_u64(pm_cursor *c);
const char *pm_get_str(pm_cursor *c); /* points into the blob */

/* Hash map from byte strings to uint32 ids ({0} is empty; keys copied). */
typedef struct pm_map {
  struct pm_map_slot *slots;
  size_t nslots, count;
} pm_map;
/* The id of key, or, if absent, adds it with id `fresh` and returns that. */
uint32_t pm_map_intern(pm_map *m, const void *key, size_t len, uint32_t fresh);
void pm_map_free(pm_map *m);

/* ------------------------------------------------------------- the merge */

/* Rank blob (what every rank describes, measure/pm_unify.c): host,
 * start/end time (rank 0's clock), locations (thread, events), regions
 * (name, file, begin/end line, paradigm, role), MPI comms (name, parent,
 * is_self, world ranks), OpenMP team comms (team size), and last, where
 * the rank recorded I/O, I/O handles (file name, paradigm 0 POSIX, 1 ISO C,
 * 2 MPI-IO: the global IoParadigm ids).
 * Map blob (the answer per rank): region map, MPI comm map, team comm map,
 * I/O handle map, RMA window map, group map (u32 count + ids each; the
 * window and group maps have one entry per MPI comm: its RmaWin id,
 * OTF2_UNDEFINED_RMA_WIN for a comm that is no window; the global id of
 * its Group, written as the OTF2_MAPPING_GROUP table, so that an event's
 * group ref is the local id of a comm registered with the group's members).
 *
 * Local comm ids: MPI comms are 0, 1, ... in registration order; OpenMP
 * team comms are PM_TEAM_COMM_BASE + index, so they never collide with
 * libpomp-mpi's. */
#define PM_TEAM_COMM_BASE 0x40000000u

/* An MPI comm registered under this name stands for an RMA window
   (libpomp-mpi, mw_rma.c): the merge writes an RmaWin of the same global
   id for it, and the comm mapping table maps window ids as well. */
#define PM_WIN_COMM_NAME "MPI_Win"
/* An MPI comm registered under this name stands for the group of an
   MPI_Win_post/start (libpomp-mpi, mw_rma.c; parent: the window): only its
   Group is used, by RmaGroupSync records. */
#define PM_WIN_GROUP_COMM_NAME "MPI_Win group"
#define PM_IO_PARADIGMS 3 /* POSIX, ISO C, MPI-IO */

/* Where a blob is malformed: its rank and the byte offset in that blob. */
typedef struct pm_merge_error {
  uint32_t rank;
  size_t offset;
} pm_merge_error;

/* blobs[r] of size sizes[r] for r < nranks (concatenated); size 0 = the
   rank is missing (no definitions: it gets its location group only).
   Writes the global definitions with w (NULL: only checks the blobs) and
   fills maps[r] (maps may be NULL when w is; the caller frees them).
   mpi: the run has MPI. (mono_now, real_now): one moment on the events'
   clock and on CLOCK_REALTIME, for ClockProperties' realtime of the trace
   start. Returns 0, or -1 when a blob is malformed (*err says where).
   Global ids are handed out in rank order: rank 0 keeps its local ids. */
int pm_unify_merge(OTF2_GlobalDefWriter *w, const unsigned char *blobs, const uint32_t *sizes,
                   uint32_t nranks, int mpi, uint64_t mono_now, uint64_t real_now, pm_blob *maps,
                   pm_merge_error *err);

/* ------------------------------------------------------ local definitions */

/* The local definitions of one rank's locations: the mapping tables of
   its map blob and its clock offsets. The archive's definition files must
   be open (OTF2_Archive_OpenDefFiles). threads[i]: T of the location
   pm_loc_id(rank, T). 0, or -1 when the map is malformed (nothing
   written). */
int pm_write_local_defs(OTF2_Archive *a, uint32_t rank, const pm_blob *map, const uint32_t *threads,
                        uint32_t nthreads, const uint64_t *offset_time, const int64_t *offset,
                        int noffsets);

/* The threads (T) of the locations in a rank blob; n of them in *threads
   (malloc'd, the caller frees). -1 if malformed. */
int pm_unify_threads(const unsigned char *blob, uint32_t len, uint32_t **threads, uint32_t *n);

/* Sets the event count of the index-th location of a rank blob in place
   (a partial rank's files hold fewer events than its last flush counted).
   0, or -1 if there is no such location. */
int pm_unify_set_events(unsigned char *blob, uint32_t len, uint32_t index, uint64_t events);

/* -------------------------------------------------------------- fragments */

/* A fragment: what one rank leaves on disk so that its trace can be
 * completed without the other ranks. libpomp writes
 * EXP/fragments/<rank>.frag (at each buffer flush, and complete when the
 * rank dies); pomp-recover reads them.
 *
 * Layout (little-endian as written by the machine, no padding):
 *   0  "POMPFRAG"            8 bytes
 *   8  u32 version           PM_FRAG_VERSION
 *  12  u32 rank, 16 u32 nranks, 20 u32 mpi (0/1), 24 u32 complete (0/1)
 *  28  u32 noffsets          <= PM_FRAG_MAX_OFFSETS
 *  32  u64 evt_chunk, 40 u64 def_chunk   (OTF2 chunk sizes of the archive)
 *  48  u64 mono_now, 56 u64 real_now     (one moment: events' clock, realtime)
 *  64  str reason            (u32 length, bytes, NUL)
 *      str host, str boot_id, u32 pid, u64 start   the writing process
 *                            (start: /proc/<pid>/stat field 22), so that a
 *                            reader can tell whether the run still goes
 *      noffsets x (u64 time, i64 offset) clock offsets so far
 *      u32 defs_len, defs    (rank blob, above)
 *      u64 checksum          FNV-1a 64 of every byte before it
 */
#define PM_FRAG_MAGIC "POMPFRAG"
#define PM_FRAG_VERSION 3u /* 3: location ids pm_loc_id (issue 17) */
#define PM_FRAG_MAX_OFFSETS 16
#define PM_FRAG_COMPLETE_AT 24 /* byte offset of the complete flag */

typedef struct pm_frag {
  uint32_t rank, nranks, mpi, complete, noffsets;
  uint64_t evt_chunk, def_chunk, mono_now, real_now;
  const char *reason;         /* decoded: points into the fragment's bytes */
  const char *host, *boot_id; /* the writing process (decoded: likewise) */
  uint32_t pid;
  uint64_t start; /* its start time, clock ticks after boot */
  uint64_t offset_time[PM_FRAG_MAX_OFFSETS];
  int64_t offset[PM_FRAG_MAX_OFFSETS];
  const unsigned char *defs;
  uint32_t defs_len;
  size_t defs_at; /* decoded: byte offset of defs in the fragment */
} pm_frag;

/* Appends the encoded fragment (checksum included) to out. */
void pm_frag_encode(pm_blob *out, const pm_frag *f);

/* Decodes and checks data[0..len): magic, version, every field in range,
   exact length, checksum. 0, or -1 with *at = byte offset of the problem
   and *what = what is wrong there (a static string). The definitions blob
   itself is checked by pm_unify_merge. */
int pm_frag_decode(const unsigned char *data, size_t len, pm_frag *f, size_t *at,
                   const char **what);

uint64_t pm_frag_checksum(const unsigned char *data, size_t len);

/* The identity of a process on this machine (pid numbers are reused):
   this boot's id into buf ("" if unknown) ... */
void pm_frag_boot_id(char *buf, size_t size);
/* ... and the start time of pid (clock ticks after boot, /proc/<pid>/stat
   field 22): 0, or -1 when there is no such process or it is a zombie
   (dead, not yet reaped). Async-signal-safe. */
int pm_frag_process_start(uint32_t pid, uint64_t *start);

#endif /* POMP_UNIFY_H */
