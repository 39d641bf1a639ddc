/*
 * tracegen.h -- writes OTF2 archives following docs/TRACE.md from a compact
 * text description, so that every test trace's answer is known by
 * construction.  Events are written as they are read: memory does not grow
 * with the trace (the benchmark writes millions of events through it).
 *
 * The language, one statement per line ('#' starts a comment):
 *
 *   ids rank-major                 location ids rank << 32 | thread and MPI
 *                                  regions in file "", as before issue
 *                                  17 (default: Score-P's thread << 32 |
 *                                  rank, MPI regions in file "MPI")
 *   clock RES                      ticks per second (default 1e9)
 *   process R threads T [host H]   rank R with T thread locations
 *   region A PARADIGM ROLE NAME... A is the short name events use;
 *                                  PARADIGM user|compiler|openmp|mpi|
 *                                  measurement, ROLE as in OTF2 in lower
 *                                  case (function, parallel, barrier,
 *                                  implicit_barrier, point2point, ...);
 *                                  NAME is the rest of the line (default A)
 *   comm C ranks R...              MPI communicator C over world ranks R...
 *                                  (comm 0 = all processes, comm 1 = self
 *                                  exist once the first event is written)
 *   team C                         OpenMP thread-team communicator C (with a
 *                                  team, the definitions hold Score-P's OpenMP
 *                                  COMM_LOCATIONS group of all locations and
 *                                  the team's members are rank 0's threads:
 *                                  Scalasca's scout.omp / scout.hyb read the
 *                                  trace)
 *   win W comm C                   MPI RMA window W on communicator C
 *   offset R TIME OFFSET           clock offset of rank R's locations
 *   loc R.T                        the following events happen on rank R,
 *                                  thread T
 *   TIME enter A | leave [A]       A: an alias, or @N the region
 *                                  reference N as it is (damaged traces)
 *   TIME send DEST COMM TAG BYTES | recv SRC COMM TAG BYTES
 *   TIME isend DEST COMM TAG BYTES REQ | isendcomplete REQ
 *   TIME irecvreq REQ | irecv SRC COMM TAG BYTES REQ
 *   TIME test REQ | cancel REQ
 *   TIME collbegin | collend OP COMM ROOT SENT RECEIVED   (ROOT or '-')
 *   TIME fork N | join | teambegin C | teamend C
 *   TIME acquire LOCK ORDER | release LOCK ORDER
 *   TIME off | on                  MeasurementOnOff (Score-P's paused recording)
 *   TIME taskcreate C [T N] | taskswitch C [T N] | taskcomplete C [T N]
 *                                  OpenMP task N created by thread T of team C
 *                                  (default: T 0, N 1; N 0: T's implicit task)
 *   TIME sample                    CallingContextSample (context 0, generator 0)
 *   TIME iobegin H MODE FLAGS BYTES M | iocomplete H BYTES M
 *                                  IoOperationBegin / IoOperationComplete of
 *                                  handle H, matching id M
 *   TIME rmacoll fence|create|free WIN   RmaCollectiveEnd (BARRIER,
 *                                  CREATE_HANDLE, DESTROY_HANDLE)
 *   TIME rmagsync WIN [GROUP]      RmaGroupSync, with Group id GROUP (the
 *                                  i-th comm declared, from 0, has group
 *                                  i + 1; comms 0 and 1 come after the
 *                                  declared ones unless declared)
 *   TIME rmalock WIN TARGET excl|shared   RmaRequestLock + RmaAcquireLock
 *   TIME rmaunlock WIN TARGET      RmaReleaseLock
 *   TIME rmaput|rmaget WIN TARGET BYTES
 *
 * Declarations (ids, clock, process, region, comm, team, win) must come before the
 * first event.
 */
#ifndef POMP_TRACEGEN_H
#define POMP_TRACEGEN_H

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tg_writer tg_writer;

/* Creates DIR/traces.otf2 and DIR/traces/.  NULL with a message in err. */
tg_writer *tg_open(const char *dir, char *err, size_t errsize);
/* The same with event chunks of `chunk` bytes (OTF2 allows 256 KiB to
   16 MiB; tg_open: 1 MiB): a test cutting off the last chunk of an event
   file needs files of several chunks. */
tg_writer *tg_open_chunks(const char *dir, uint64_t chunk, char *err, size_t errsize);
/* One statement; line_no is used in the message.  0 on success. */
int tg_line(tg_writer *w, const char *line, int line_no, char *err, size_t errsize);
/* Many statements separated by newlines.  0 on success. */
int tg_text(tg_writer *w, const char *text, char *err, size_t errsize);
/* Writes the definitions and closes the archive; frees w.  0 on success. */
int tg_close(tg_writer *w, char *err, size_t errsize);

/* For generators that write events directly (benchmarks): the event
   writer of a location and the OTF2 id of a region short name (-1 when
   unknown). */
OTF2_EvtWriter *tg_evt_writer(tg_writer *w, uint32_t rank, uint32_t thread);
int64_t tg_region(tg_writer *w, const char *short_name);
/* Widens the trace's time span (ClockProperties) to include t: for events
   written directly. */
void tg_time_span(tg_writer *w, uint64_t t);

/* Writes a whole description to DIR in one call.  0 on success. */
int tg_write(const char *dir, const char *text, char *err, size_t errsize);

#endif
