/*
 * pm_trace.h -- the OTF2 archive of the experiment: opening it, the
 * collectives it runs on (serial, or PMPI ones handed over by libpomp-mpi),
 * and writing the definitions at the end. Internal to measure/.
 */
#ifndef PM_TRACE_H
#define PM_TRACE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "pomp_measure.h"

/* The archive, NULL until opened (first event, or pm_mpi_init). */
extern OTF2_Archive *pm_archive;

/* The collectives of the process group that writes the archive. */
typedef struct pm_collectives {
  const OTF2_CollectiveCallbacks *cb;
  void *data;
  OTF2_CollectiveContext *ctx;
  uint32_t rank, size;
} pm_collectives;
extern pm_collectives pm_coll; /* serial (rank 0 of 1) until pm_mpi_init */
/* Callbacks for one process alone (OTF2's and libpomp's own use). */
extern const OTF2_CollectiveCallbacks pm_serial_collectives;

/* Byte-wise collectives over pm_coll, root 0; 0 on success. */
int pm_coll_bcast(void *data, uint32_t n);
int pm_coll_gather_u64(uint64_t value, uint64_t *all);
int pm_coll_gatherv(const void *in, uint32_t n, void *out, const uint32_t *counts);
int pm_coll_scatterv(const void *in, const uint32_t *counts, void *out, uint32_t n);

/* Experiment directory: "$POMP_EXPERIMENT" or pomp_<app>_<ranks>x<threads>. */
void pm_experiment_name(char *buf, size_t size, int ranks, int threads);
/* Creates it, never reusing an existing one: then the first free numbered
   successor "<dir>.1" ... "<dir>.999", written back into dir (size bytes)
   and named on stderr; 0, or -1 with the reason on stderr. */
#define PM_EXPERIMENT_MAX_NUMBER 999
int pm_experiment_create(char *dir, size_t size);
/* The directory of the running experiment ("" before it exists). */
extern char pm_experiment_dir[4096];

/* Opens the archive in pm_experiment_dir, collectively over pm_coll, and
   gives every existing location its writer. 0 or -1 (reported).
   before_flush (NULL: nothing) runs on a thread whose full event buffer
   is about to be written to disk, before it is (pm_fragment_periodic):
   the archive is below the life-cycle code and calls it only through
   this hook. */
int pm_archive_open(void (*before_flush)(void));
/* The OTF2 chunk sizes the archive was opened with (fragments record them:
   the recovered anchor must name the ones the event files were cut in). */
extern uint64_t pm_evt_chunk, pm_def_chunk;
/* l's event writer, the room of its first chunk claimed first. */
OTF2_EvtWriter *pm_archive_evt_writer(struct pm_location *l);
/* Location l's event chunks still in memory, oldest first, into chunks
   (at most max; 0 if more), each pm_evt_chunk bytes; *flushed: the bytes
   its buffer flushes wrote to its event file, which the chunks follow.
   Only on l's own thread between two records (pm_tail.c), or when l is
   quiesced. */
size_t pm_archive_evt_chunks(const struct pm_location *l, const unsigned char **chunks, size_t max,
                             uint64_t *flushed);
/* Runs the before_flush hook pm_archive_open was given (the periodic
   fragment: definitions on disk before the events that use them). */
void pm_archive_before_flush(void);

/* ClockOffset records of this process (pm_clock_offset). */
typedef struct pm_offset {
  uint64_t time;
  int64_t offset;
} pm_offset;
#define PM_MAX_OFFSETS 16
extern pm_offset pm_offsets[PM_MAX_OFFSETS];
/* Atomic: a buffer flush on another thread (the periodic fragment) may
   read them while MPI_Finalize's wrapper adds the last one; an entry is
   written before the count that makes it visible. */
extern _Atomic int pm_noffsets;

/* Writes everything and closes the archive: collective over pm_coll. The
   caller has stopped recording and left every open region. */
void pm_trace_write(void);
/* The program is dying (why: "SIGINT", ...): pm_trace_write records in
   the anchor (property POMP::RUN_STATUS, docs/TRACE.md) that the trace
   ends there, so the analysis says incomplete. Called before it. */
void pm_trace_mark_died(const char *why);
/* The disk is full (a tail copy or a fragment failed with ENOSPC; the
   room claims of pm_archive.c find it themselves): recording stops for
   good, one line says so (once for the run). */
void pm_archive_out_of_space(void);
/* 1 once the disk filled while tracing (pm_archive.c; recording then
   stays off whatever POMP_On says); *events and *thread (either may be
   NULL): the events of the location that found it full. */
int pm_archive_disk_full(void);
/* 1 when another process of the run found the disk full (its marker in
   the experiment directory): this one stops recording at its next flush. */
int pm_archive_full_elsewhere(void);
/* The disk-full marker and the room lock removed (rank 0, once the trace
   is written). */
void pm_archive_remove_markers(void);
/* 1 once an OTF2 write failed for want of space (the disk filled under
   it, e.g. by another program): its writers cannot be closed, the trace
   is left as a died run's fragments. */
int pm_archive_write_failed(void);
/* 1 when the disk has room for bytes more (a tail copy) on top of one
   more POMP_BUFFER per location. */
int pm_archive_room_for(uint64_t bytes);
void pm_archive_disk_full_at(uint64_t *events, uint32_t *thread);
/* Frees the space kept in reserve for the definitions (pm_archive_open):
   before they are written, or when the disk fills. */
void pm_archive_release_reserve(void);
/* The room on the disk each location's event file holds (pm_room.c),
   claimed before its buffer takes the events that need it. */
struct pm_location;
/* The run's room lock file, when the archive opens; removed by
   pm_room_remove_lock once the trace is written. */
void pm_room_open(void);
void pm_room_remove_lock(void);
/* Room for l's event file up to byte need; 0, or ENOSPC: the disk is
   full. Other failures are said once and claims stop (0). On l's own
   thread. */
int pm_room_claim(struct pm_location *l, uint64_t need);
/* In the pre-flush callback: before OTF2 creates l's event file (its
   first flush), its room file is freed under the run's room lock. */
void pm_room_hand_over(struct pm_location *l);
/* In the post-flush callback: the room handed over moves into the event
   file; the lock is released. 0, or ENOSPC (another program took it). */
int pm_room_settle(struct pm_location *l);
/* After l's writer closed: the lock of a hand-over at close released, the
   room the file did not use given back. */
void pm_room_closed(struct pm_location *l);
/* Every room file removed (the trace is abandoned). */
void pm_room_forget_all(void);
/* "file system MOUNT (TYPE), SIZE, FREE free" of the experiment. */
void pm_room_describe(char *buf, size_t size);
/* Closes every event writer of this process (its buffers reach the disk;
   not collective) and returns its locations with their event counts
   (n of them, malloc'd). */
struct pm_local_location *pm_trace_close_writers(uint32_t *n);

#endif /* PM_TRACE_H */
