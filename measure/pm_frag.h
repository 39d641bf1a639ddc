/*
 * pm_frag.h -- a fragment: what one rank leaves on disk so that its trace
 * can be completed without the other ranks (docs/TRACE.md, "Unfinished
 * runs and fragments"). libpomp writes EXP/fragments/<rank>.frag (at each
 * buffer flush, and complete when the rank dies); pomp-recover reads them.
 * Part of the internal static library pomp-unify.
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
 *      u32 defs_len, defs    (pm_unify_describe blob, pm_merge.h)
 *      u64 checksum          FNV-1a 64 of every byte before it
 */
#ifndef PM_FRAG_H
#define PM_FRAG_H

#include <stddef.h>
#include <stdint.h>

#include "pm_blob.h"

#define PM_FRAG_MAGIC "POMPFRAG"
#define PM_FRAG_VERSION 2u
#define PM_FRAG_MAX_OFFSETS 16
#define PM_FRAG_COMPLETE_AT 24 /* byte offset of the complete flag */

typedef struct pm_frag {
  uint32_t rank, nranks, mpi, complete, noffsets;
  uint64_t evt_chunk, def_chunk, mono_now, real_now;
  const char *reason;   /* decoded: points into the fragment's bytes */
  const char *host, *boot_id; /* the writing process (decoded: likewise) */
  uint32_t pid;
  uint64_t start;       /* its start time, clock ticks after boot */
  uint64_t offset_time[PM_FRAG_MAX_OFFSETS];
  int64_t offset[PM_FRAG_MAX_OFFSETS];
  const unsigned char *defs;
  uint32_t defs_len;
  size_t defs_at;       /* decoded: byte offset of defs in the fragment */
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

#endif /* PM_FRAG_H */
