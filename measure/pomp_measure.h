/*
 * pomp_measure.h -- what libpomp exports to libpomp-mpi (symbol prefix pm_).
 *
 * Internal interface between the measurement core (measure/, libpomp.so)
 * and the PMPI wrappers (mpiwrap/, libpomp-mpi.so). Not installed, not a
 * user API. libpomp never links MPI: everything MPI-specific (rank, size,
 * collectives, communicators, clock offsets) is handed to it through the
 * functions below, so that pure OpenMP programs link only libpomp.
 *
 * Conventions of the trace written here: docs/TRACE.md.
 *
 * Life cycle of an MPI program, seen from libpomp-mpi:
 *
 *   constructor of libpomp-mpi   pm_mpi_expected()
 *   MPI_Init[_thread] wrapper    l = pm_location_recording(); pm_enter(l, r_init)
 *                                PMPI_Init_thread(...)
 *                                (clock ping-pong; pm_clock_offset(...))
 *                                pm_mpi_init(&handover)   -- archive opens
 *                                pm_mpi_node_peers(...)   -- pids of this node
 *                                pm_comm_register(WORLD), pm_comm_register(SELF)
 *                                pm_leave(l, r_init)
 *   every wrapper                see "Recording an MPI call" below
 *   MPI_Finalize wrapper         pm_enter(l, r_fin); (clock ping-pong;
 *                                pm_clock_offset(...)); pm_mpi_finalize()
 *                                -- trace written, later events are ignored
 *                                PMPI_Finalize()
 *   MPI_Abort wrapper            pm_rank_ends_alone("MPI_Abort(...)"); PMPI_Abort
 *                                -- complete fragment, same-node peers' too
 *
 * Recording an MPI call (the wrapper's hot path):
 *
 *   pm_location *l = pm_location_recording();
 *   if (!l) return PMPI_Send(...);        // off, not started, or re-entered
 *   uint64_t t = pm_enter(l, region_send); // region id cached by the wrapper
 *   OTF2_EvtWriter *w = pm_evt_writer_at(l, &t); // right before each record
 *   if (w) OTF2_EvtWriter_MpiSend(w, NULL, t, dest, comm, tag, bytes);
 *   pm_pause(l);                          // MPI calls made inside are not recorded
 *   int rc = PMPI_Send(...);
 *   pm_resume(l);
 *   pm_leave_at(l, region_send, pm_now());
 *
 * Thread safety: every function may be called from any thread. The event
 * functions touch only the calling thread's location (no lock).
 */
#ifndef POMP_MEASURE_H
#define POMP_MEASURE_H

#include <stdint.h>
#include <otf2/otf2.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ clock */

/* Nanoseconds of the one per-process clock (CLOCK_MONOTONIC) used for every
   event, flush and clock offset. Never decreases within a thread. */
uint64_t pm_now(void);

/* -------------------------------------------------------------- locations */

/* One OTF2 location (= one thread in the trace). Opaque. */
typedef struct pm_location pm_location;

/* The calling thread's location if an event must be recorded now, else
   NULL. Creates the location at the thread's first call and starts the
   measurement at the process's first call. NULL when: the measurement is
   disabled (POMP_ENABLE=0, experiment directory exists, ...), switched off
   (POMP_Off), finished (after pm_mpi_finalize or exit), or the location is
   paused (pm_pause). After the first call: one TLS read and two tests. */
pm_location *pm_location_recording(void);

/* Re-entry guard of a location: between pm_pause and pm_resume nothing is
   recorded on it (pm_location_recording returns NULL on that thread).
   Counted, so pairs may nest. Use it around the PMPI call of a wrapper so
   MPI calls made by MPI itself or by user callbacks are not recorded. */
void pm_pause(pm_location *l);
void pm_resume(pm_location *l);

/* ----------------------------------------------------------------- regions */

/* A region id (local to this process, dense from 0) for the given
   definition; the same arguments give the same id. Thread-safe (takes a
   lock): call it once per region and cache the id (an _Atomic uint32_t
   initialised to PM_NO_REGION is the expected pattern). file may be NULL
   (written as ""), lines 0 when unknown. Ids are unified across ranks by
   libpomp at pm_mpi_finalize; the trace carries mapping tables. */
#define PM_NO_REGION UINT32_MAX
uint32_t pm_region_define(const char *name, const char *file, uint32_t begin_line,
                          uint32_t end_line, OTF2_Paradigm paradigm, OTF2_RegionRole role);

/* Enter / Leave of a region on the calling thread's location l (from
   pm_location_recording on this thread). Timestamp = pm_now(), returned. */
uint64_t pm_enter(pm_location *l, uint32_t region);
uint64_t pm_leave(pm_location *l, uint32_t region);

/* Enter/Leave at a timestamp t the caller read with pm_now(), and the
   OTF2 event writer of l for the records libpomp has no function for
   (MpiSend, MpiRecv, MpiIsend, MpiIsendComplete, MpiIrecvRequest, MpiIrecv,
   MpiRequestTest, MpiRequestCancelled, MpiCollectiveBegin/End), so that
   records of one instant share one clock read (libpomp-mpi: an MPI call's
   Enter and the MPI records before its PMPI call; the records after the
   call and its Leave). t must not be below the location's previous record.
   Fetch the writer immediately before each record: the call first writes
   any pending `TRACE BUFFER FLUSH` Enter/Leave of a buffer flush that the
   previous record caused, which ends after t: the record then takes the
   flush's end instead. pm_enter_at / pm_leave_at return the timestamp
   written; pm_evt_writer_at moves *t (use *t for the record, and for the
   next ones of the same instant). The writer is NULL before pm_mpi_init
   (events before it are kept in memory and only Enter/Leave and thread
   events can be recorded then). Communicator arguments of MPI records are
   the local comm ids of pm_comm_register. */
uint64_t pm_enter_at(pm_location *l, uint32_t region, uint64_t t);
uint64_t pm_leave_at(pm_location *l, uint32_t region, uint64_t t);
OTF2_EvtWriter *pm_evt_writer_at(pm_location *l, uint64_t *t);

/* Bytes an MPI call on l moved (sent and received, as its records would
   carry them), for profile mode (POMP_MODE=profile): there is no event
   writer then (pm_evt_writer returns NULL) and the bytes are added to
   the call path of l's innermost open region, the MPI call. Nothing in
   trace mode: call it where the writer was NULL. */
void pm_bytes(pm_location *l, uint64_t sent, uint64_t received);

/* -------------------------------------------------------------------- I/O */

/* Bytes an I/O call on l moved, for profile mode as pm_bytes: written =
   what a write was handed (its IoOperationBegin's bytesRequest), read =
   what a read got (its IoOperationComplete's bytesResult; give 0 for a
   failed one), added to l's innermost open region, the call that the
   trace's record would be at. Call it where the writer was NULL. */
void pm_io_bytes(pm_location *l, uint64_t written, uint64_t read);

/* For libpomp-io (iowrap/: POSIX and stdio) and libpomp-mpi's MPI-IO
   wrappers. A recorded I/O call is
     Enter(region of role FILE_IO or FILE_IO_METADATA)
       [IoCreateHandle | IoOperationBegin ... IoOperationComplete |
        IoSeek | IoDestroyHandle]     (records of pm_evt_writer_at)
     Leave
   on the calling thread's location (docs/TRACE.md, "I/O"). */

/* The calling thread's location if an I/O call must be recorded now:
   pm_location_recording(), or NULL under POMP_IO=0. */
pm_location *pm_io_recording(void);

/* The I/O paradigms of the trace's IoParadigm definitions; the global
   IoParadigm id is the value. */
typedef enum pm_io_paradigm {
  PM_IO_POSIX = 0, /* open/read/write/... on file descriptors */
  PM_IO_ISOC = 1,  /* fopen/fread/fwrite/... on FILE streams */
  PM_IO_MPI = 2,   /* MPI_File_* */
  PM_IO_NPARADIGMS
} pm_io_paradigm;

/* The local IoHandle id for file (a path, or a name such as "stdout")
   under paradigm: one handle per (paradigm, file), the same id for the
   same arguments. Thread-safe (takes a lock): call it at open, keep the id
   with the descriptor. Unified across ranks at pm_mpi_finalize like the
   regions (mapping tables of type OTF2_MAPPING_IO_HANDLE). */
uint32_t pm_io_handle_define(pm_io_paradigm paradigm, const char *file);

/* -------------------------------------------------------------------- MPI */

/* Called by a constructor of libpomp-mpi: this process will call MPI_Init,
   so libpomp keeps events in memory until pm_mpi_init instead of opening
   a single-process archive at the first event. If MPI_Init never comes,
   the trace is written at exit as a single process. */
void pm_mpi_expected(void);
/* Called instead by that constructor when the program's MPI_Init is not
   libpomp-mpi's (library: the object it binds to; the MPI library came
   first on the link line): MPI calls cannot be recorded. libpomp says so
   loudly (stderr, measure.log) and measures the process as one without
   MPI; where the launcher's environment gives a rank (PMI_RANK,
   OMPI_COMM_WORLD_RANK, PMIX_RANK), only rank 0 measures and warns. */
void pm_mpi_unbound(const char *library);

/* Hand-over at the end of the MPI_Init / MPI_Init_thread wrapper (after
   PMPI_Init*). collectives implement OTF2's collective callbacks with PMPI
   over MPI_COMM_WORLD (world is the context passed back to them as
   commContext); libpomp uses them for the archive (OTF2 itself calls them
   during open/close) and for its own definition unification at
   pm_mpi_finalize, always from the thread that calls pm_mpi_init /
   pm_mpi_finalize. The structure and the callbacks must stay valid until
   pm_mpi_finalize returns. Collective over MPI_COMM_WORLD. Returns 0 when
   the measurement runs, -1 when it is disabled on all ranks (e.g. the
   experiment directory exists, or the measurement is off on any rank;
   rank 0 decides for all, the reason goes to stderr and the program goes
   on). Call it on every rank, whatever pm_location_recording says. */
typedef struct pm_mpi_handover {
  int rank, size;   /* in MPI_COMM_WORLD */
  int thread_level; /* provided: 0 SINGLE, 1 FUNNELED, 2 SERIALIZED, 3 MULTIPLE */
  const OTF2_CollectiveCallbacks *collectives;
  void *collectives_data;        /* userData of every callback */
  OTF2_CollectiveContext *world; /* commContext for MPI_COMM_WORLD */
} pm_mpi_handover;
int pm_mpi_init(const pm_mpi_handover *h);

/* Clock offset of this process to rank 0 at time `time` (pm_now() clock):
   rank 0's clock = local + offset. Call it once after MPI_Init and once
   before pm_mpi_finalize (rank 0 passes offset 0 too); written as OTF2
   ClockOffset definitions of every location of the process (stddev 0). */
void pm_clock_offset(uint64_t time, int64_t offset);

/* Registers an MPI communicator created on this process and returns its
   local comm id (dense from 0) to use in MPI event records. Register
   MPI_COMM_WORLD first (id 0) and MPI_COMM_SELF second (id 1, is_self=1,
   world_ranks = the own rank). world_ranks[i] = MPI_COMM_WORLD rank of the
   comm's rank i (copied). parent = local id of the comm it was derived
   from, or OTF2_UNDEFINED_COMM. name may be NULL ("MPI_Comm <unified id>").
   At pm_mpi_finalize libpomp unifies comms across ranks: comms with the
   same member list are told apart by creation order, so register them in
   creation order (MPI makes that order consistent among the members).
   Thread-safe. Intercommunicators: register the union of both groups. */
uint32_t pm_comm_register(const char *name, uint32_t parent, uint32_t size,
                          const uint32_t *world_ranks, int is_self);

/* Writes the trace at MPI_Finalize: collective over MPI_COMM_WORLD, call
   it before PMPI_Finalize, from the thread that called pm_mpi_init, while
   no other thread records MPI events. Leaves every region still open at
   the current time (so main/MPI_Finalize are balanced), unifies regions,
   comms, locations and the system tree through the collectives, writes
   global definitions once (rank 0) and closes the archive. Afterwards
   pm_location_recording returns NULL on every thread. */
void pm_mpi_finalize(void);

/* At MPI_Abort (not collective): the rank finishes alone -- stops
   recording, closes its event writers and writes its complete fragment
   (docs/TRACE.md, "Unfinished runs and fragments"), then has the ranks on
   its node write theirs (pm_mpi_node_peers) and waits for them, at most
   10 s. pomp-recover completes the trace afterwards. The reason is recorded
   in the fragment and measure.log, e.g. "MPI_Abort(MPI_COMM_WORLD, 3)". */
void pm_rank_ends_alone(const char *reason);

/* The pid to hand to the ranks on this node: getpid() when this process
   answers the peer signal (POMP_PEER_SIGNAL), 0 when it does not. */
int pm_mpi_peer_pid(void);
/* After pm_mpi_init returned 0: the n processes on this node (including
   this one) as world ranks and pm_mpi_peer_pid() values (copied). */
void pm_mpi_node_peers(int n, const int *world_ranks, const int *pids);

#ifdef __cplusplus
}
#endif

#endif /* POMP_MEASURE_H */
