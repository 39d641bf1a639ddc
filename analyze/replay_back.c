/* replay_back.c -- the buffers of the backward reading (az_replay.h): a
 * backward pass gets a window's events of one location in reverse, from a
 * block of several windows read forward into a buffer (az_rev_buffer);
 * the callbacks that fill it, the delivery of a buffered event to a
 * pass's handler, where a block starts and its reading.  The decoding
 * threads (decoders.c) decode into the same buffers, for a forward pass
 * too. */
#include <fcntl.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "az.h"
#include "az_archive.h"
#include "az_defs.h"
#include "az_pass.h"
#include "az_replay.h"
#include "az_tasks.h"
#include "pomp_util.h"

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
OTF2_EvtReaderCallbacks *az_make_rev_callbacks(const az_event_handlers *on, int forward) {
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

uint32_t az_buffered_kinds(const az_event_handlers *on, int forward) {
  uint32_t kinds = az_handled_kinds(on);
  /* MeasurementOnOff as Enter and Leave: those are handled when a block
     is decoded here (az_chunk_starts) */
  if (!forward) return kinds;
  if (on->io_begin) kinds |= 1u << REV_IO_BEGIN;
  if (on->io_complete) kinds |= 1u << REV_IO_COMPLETE;
  return kinds | 1u << REV_TASK_CREATE | 1u << REV_TASK_SWITCH | 1u << REV_TASK_COMPLETE |
         1u << REV_SAMPLE | 1u << REV_UNKNOWN;
}

/* One buffered event other than Enter and Leave (kind, its values v) to
   the pass's handler: the location's id and the event's position as the
   delivery loop has them (replay.c), not looked up again per event and
   pass. */
OTF2_CallbackCode az_deliver_values(const az_event_handlers *on, az_cursor *c, OTF2_LocationRef l,
                                    uint8_t kind, az_time t, uint64_t pos, const uint64_t *v) {
  switch (kind) {
  case REV_FORK: return on->thread_fork(l, t, pos, c, NULL, (OTF2_Paradigm)v[0], (uint32_t)v[1]);
  case REV_JOIN: return on->thread_join(l, t, pos, c, NULL, (OTF2_Paradigm)v[0]);
  case REV_TEAM_BEGIN: return on->team_begin(l, t, pos, c, NULL, (OTF2_CommRef)v[0]);
  case REV_TEAM_END: return on->team_end(l, t, pos, c, NULL, (OTF2_CommRef)v[0]);
  case REV_ACQUIRE:
    return on->acquire_lock(l, t, pos, c, NULL, (OTF2_Paradigm)v[0], (uint32_t)v[1],
                            (uint32_t)v[2]);
  case REV_RELEASE:
    return on->release_lock(l, t, pos, c, NULL, (OTF2_Paradigm)v[0], (uint32_t)v[1],
                            (uint32_t)v[2]);
  case REV_SEND:
    return on->mpi_send(l, t, pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1], (uint32_t)v[2],
                        v[3]);
  case REV_ISEND:
    return on->mpi_isend(l, t, pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1], (uint32_t)v[2],
                         v[3], v[4]);
  case REV_ISEND_COMPLETE: return on->mpi_isend_complete(l, t, pos, c, NULL, v[0]);
  case REV_IRECV_REQUEST: return on->mpi_irecv_request(l, t, pos, c, NULL, v[0]);
  case REV_RECV:
    return on->mpi_recv(l, t, pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1], (uint32_t)v[2],
                        v[3]);
  case REV_IRECV:
    return on->mpi_irecv(l, t, pos, c, NULL, (uint32_t)v[0], (OTF2_CommRef)v[1], (uint32_t)v[2],
                         v[3], v[4]);
  case REV_CANCELLED: return on->mpi_request_cancelled(l, t, pos, c, NULL, v[0]);
  default:
    return on->mpi_collective_end(l, t, pos, c, NULL, (OTF2_CollectiveOp)v[0], (OTF2_CommRef)v[1],
                                  (uint32_t)v[2], v[3], v[4]);
  }
}

/* One buffered event to the pass's handler (the location reference and
   the attribute list are not kept: NULL and the location's id); the
   backward delivery (replay.c) calls the handlers itself. */
static OTF2_CallbackCode deliver(const az_event_handlers *on, az_cursor *c, const az_rev_buffer *b,
                                 size_t i) {
  OTF2_LocationRef l = c->a->defs.locs[c->loc].id;
  const az_rev_event *e = &b->ev[i];
  uint64_t pos = b->lo + e->dpos;
  switch (b->kind[i]) {
  case REV_ENTER: return on->enter(l, e->t, pos, c, NULL, (OTF2_RegionRef)e->arg);
  case REV_LEAVE: return on->leave(l, e->t, pos, c, NULL, (OTF2_RegionRef)e->arg);
  default: return az_deliver_values(on, c, l, b->kind[i], e->t, pos, b->more + e->arg);
  }
}

/* One decoded event to a forward pass (decoding threads): the pass's
   handler, or the driver's own (tasks, samples, unknown records), as OTF2
   calls them in advance. */
OTF2_CallbackCode az_deliver_forward(az_cursor *c, const az_rev_buffer *b, size_t i) {
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
    return az_on_sample(l, e->t, pos, c, NULL, (OTF2_CallingContextRef)v[0], (uint32_t)v[1],
                        (OTF2_InterruptGeneratorRef)v[2]);
  case REV_UNKNOWN: return az_on_unknown(l, e->t, pos, c, NULL);
  default: return deliver(c->on, c, b, i);
  }
}

/* Room for the n events of a block in its buffer before it is read: the
   arrays are reused from block to block, and one too small is allocated
   anew at its size, not grown by doubling while the block is read (each
   realloc copied what it held and touched fresh pages: a quarter of the
   analysis's page faults on bench_analyze's 4 x 4 trace). */
void az_block_room(az_rev_buffer *b, uint64_t n) {
  b->len = 0;
  b->nmore = 0;
  if (b->cap >= n) return;
  free(b->ev);
  free(b->kind);
  b->cap = (size_t)n;
  b->ev = pu_malloc(b->cap * sizeof *b->ev);
  b->kind = pu_malloc(b->cap);
}

/* ---- a block decoded here ---------------------------------------------
 *
 * OTF2's reader spends about 350 instructions on an event (its generic
 * record handling, a look-up of the location for each callback), and the
 * backward passes decode every event a second time: on bench_analyze's
 * traces that was a sixth of the whole analysis.  For a whole file (its
 * chunk headers read) of a run that finished, az_read_block decodes the
 * block from OTF2's records itself, applying what OTF2's reader applies
 * from the location's local definitions (its id mapping tables and clock
 * offsets, read by OTF2's definition reader: "the tables OTF2's reader
 * applies" below; libpomp writes tables for every rank but 0 and offsets
 * for MPI runs).  A chunk holds its header (type 3,
 * byte order, first and last event number, 64-bit), then records:
 * timestamps (type 5, 8 bytes; an event has the time of the last one),
 * attribute lists (type 6), events (type 10 and up), the end of the chunk
 * (type 0).  The events OTF2 1.1 had with a single compressed value
 * (Enter, Leave, the MPI request events) are that value alone; every other
 * record has its length (a byte, or 0xff and 8 bytes) and is skipped to
 * its end, so values added by later versions are passed over.  A
 * compressed integer is a byte count and as many bytes, 0xff alone for
 * undefined; a paradigm, an operation or a mode is one byte.  Anything
 * else (another byte order, a chunk whose first event is not the one
 * counted, OpenMP's old events, which OTF2 hands over as thread events, a
 * record type after ProgramEnd, a record running past the chunk) and the
 * block is read by OTF2 as before.  It buffers the kinds the backward
 * callbacks do, whichever pass handles them (read_back delivers to a pass
 * only the kinds it handles), with the same values, and counts the
 * others.  Byte order: the value OTF2 writes on this (little-endian)
 * machine, which the event numbers of the chunk headers confirm. */

enum { REC_END_OF_CHUNK = 0, REC_TIMESTAMP = 5, REC_ATTRIBUTES = 6, REC_FIRST_EVENT = 10 };
enum { AZ_PAGE = 4096 }; /* a chunk is mapped where its offset is a multiple */
enum { CHUNK_HEADER = 3, CHUNK_LITTLE_ENDIAN = 0x42, CHUNK_FIRST = 2, CHUNK_HEADER_BYTES = 18 };

/* OTF2's event record types (its file format) that matter here. */
enum {
  EV_MEASUREMENT = 11,
  EV_ENTER,
  EV_LEAVE,
  EV_MPI_SEND,
  EV_MPI_ISEND,
  EV_MPI_ISEND_COMPLETE,
  EV_MPI_IRECV_REQUEST,
  EV_MPI_RECV,
  EV_MPI_IRECV,
  EV_MPI_REQUEST_TEST,
  EV_MPI_REQUEST_CANCELLED,
  EV_MPI_COLL_BEGIN,
  EV_MPI_COLL_END,
  EV_OMP_FIRST, /* OpenMP's old events: OmpFork .. OmpTaskComplete */
  EV_OMP_LAST = 30,
  EV_THREAD_FORK = 53,
  EV_THREAD_JOIN,
  EV_THREAD_TEAM_BEGIN,
  EV_THREAD_TEAM_END,
  EV_THREAD_ACQUIRE_LOCK,
  EV_THREAD_RELEASE_LOCK,
  EV_THREAD_TASK_CREATE,
  EV_THREAD_TASK_SWITCH,
  EV_THREAD_TASK_COMPLETE,
  EV_CALLING_CONTEXT_ENTER = 66, /* ..._LEAVE 67: not decoded here (to be safe) */
  EV_CALLING_CONTEXT_SAMPLE = 68,
  EV_IO_OPERATION_BEGIN = 75,
  EV_IO_OPERATION_COMPLETE = 78,
  EV_PROGRAM_END = 84 /* the last type decoded here */
};

/* Decoded here only on a little-endian host (HOST_LE): a value of OTF2's
   little-endian chunks is then its bytes as they lie. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_LE 1
#else
#define HOST_LE 0
#endif

static inline uint64_t get_le(const unsigned char *p, unsigned n) {
  uint64_t v = 0;
  memcpy(&v, p, n);
  return v;
}

static inline uint64_t get_le8(const unsigned char *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

typedef struct { /* the records of a chunk being decoded */
  const unsigned char *p, *end;
  int bad; /* a value ran past its record, or an unknown size */
  /* the chunk's end: a value's 8 bytes may be loaded at once before it
     (those beyond the value masked), also at a record's end (a record's
     last values took a byte-wise copy when its own end decided) */
  const unsigned char *loadable;
} rec_cursor;

/* ---- the tables OTF2's reader applies ----
 * OTF2's event reader maps each reference of an event through the
 * location's table of its kind: a local id the table holds becomes its
 * global id, any other (and every id of a kind without a table) stays as
 * it is (OTF2_IdMap_GetGlobalId, dense or sparse alike); the record's
 * field keeps the low 32 bits.  Of the records buffered here only regions
 * (Enter, Leave) and communicators (the MPI events, the thread teams) are
 * references.  Its timestamps it corrects by the location's clock
 * offsets: consecutive offsets (t0, o0), (t1, o1) make an interval
 * [t0, t1] of slope (o1 - o0) / (t1 - t0) (the differences converted to
 * double); a time takes the first interval whose end it does not pass
 * (the last one beyond), searched forward from the interval of the
 * reader's previous event, and becomes time + o0 + rint(slope * (time -
 * t0)) (the difference a double, negative before t0); a single offset
 * corrects nothing.  Here the same, with a cursor per block (a new OTF2
 * reader per block: the same intervals for times that do not go back). */
typedef struct {
  uint32_t ndense;       /* dense[local] for the local ids below it */
  const uint32_t *dense; /* (the table's pairs, other ids as they are) */
  size_t npairs;         /* the table's pairs (local, global) of larger ids */
  const uint64_t *pairs;
} id_table;

typedef struct {
  uint64_t begin, end;
  double slope;
  int64_t offset;
} clock_interval;

struct az_loc_map {
  id_table id[AZ_MAP_KINDS];
  size_t nclock;
  const clock_interval *clock;
};

static inline uint32_t map_id(const id_table *m, uint64_t local) {
  if (local < m->ndense) return m->dense[local];
  size_t l = 0, h = m->npairs;
  while (l < h) {
    size_t mid = l + (h - l) / 2;
    if (m->pairs[2 * mid] < local) l = mid + 1;
    else h = mid;
  }
  return (uint32_t)(l < m->npairs && m->pairs[2 * l] == local ? m->pairs[2 * l + 1] : local);
}

/* rint in the default rounding mode (to nearest, ties to even), without
   libm: below 2^52 adding and taking away 2^52 leaves the nearest
   integer, as the sum's unit is 1; from 2^52 on a double is one. */
static double round_even(double x) {
  const double two52 = 0x1p52;
  if (!(__builtin_fabs(x) < two52)) return x;
  return x >= 0 ? (x + two52) - two52 : (x - two52) + two52;
}

typedef struct { /* a block being decoded */
  const struct az_loc_map *map;
  size_t nclock;      /* the map's clock intervals (0: no map) */
  size_t interval;    /* the clock interval of the last corrected time */
  az_time raw, fixed; /* the last time corrected, and what it became */
  /* Enter and Leave stored without rev_put's tests: the buffer has room
     for the block and no pace */
  int direct;
  uint32_t loc;
} block_state;

__attribute__((always_inline)) static inline az_time correct_time(block_state *s, az_time t) {
  const struct az_loc_map *m = s->map;
  if (s->interval == SIZE_MAX) s->interval = 0;
  while (s->interval + 1 < m->nclock && t > m->clock[s->interval].end) s->interval++;
  const clock_interval *c = &m->clock[s->interval];
  double diff = t >= c->begin ? (double)(t - c->begin) : -(double)(c->begin - t);
  int64_t offset = c->offset + (int64_t)round_even(c->slope * diff);
  s->raw = t;
  s->fixed = t + (uint64_t)offset;
  return s->fixed;
}

/* An event's time as OTF2's reader gives it (inline: every event). */
static inline az_time corrected(block_state *s, az_time t) {
  if (!s->nclock) return t;
  if (t == s->raw && s->interval != SIZE_MAX) return s->fixed;
  return correct_time(s, t);
}

static inline uint64_t mapped(const block_state *s, int kind, uint64_t local) {
  return s->map ? map_id(&s->map->id[kind], local) : local;
}

static inline uint64_t get_compressed(rec_cursor *r, unsigned most, uint64_t undefined) {
  if (r->p >= r->end) return r->bad = 1, 0;
  unsigned n = *r->p++;
  if (n == 0xff) return undefined;
  if (n > most || (size_t)(r->end - r->p) < n) return r->bad = 1, 0;
  uint64_t v;
  if (r->loadable - r->p >= 8) /* the usual case: one load, the bytes beyond masked */
    v = n ? get_le8(r->p) & (UINT64_MAX >> (64 - 8 * n)) : 0;
  else v = get_le(r->p, n);
  r->p += n;
  return v;
}

static inline uint64_t get_u32(rec_cursor *r) { return get_compressed(r, 4, UINT32_MAX); }
static inline uint64_t get_u64(rec_cursor *r) { return get_compressed(r, 8, UINT64_MAX); }
static inline uint64_t get_byte(rec_cursor *r) {
  if (r->p >= r->end) return r->bad = 1, 0;
  return *r->p++;
}

/* A singleton's single value (Enter, Leave: 32 bits; the request events
   64): its record ends after it. */
static int singleton(uint8_t type) {
  return type == EV_ENTER || type == EV_LEAVE ||
         (type >= EV_MPI_ISEND_COMPLETE && type <= EV_MPI_REQUEST_CANCELLED &&
          type != EV_MPI_RECV && type != EV_MPI_IRECV);
}

/* The values of a record with a length (within r), buffered as the
   callbacks do when its kind is one of b->kinds; rev_put's answer (a
   forward segment's pacing), success when not buffered. */
static OTF2_CallbackCode put_record(az_rev_buffer *b, block_state *s, uint8_t type, rec_cursor *r,
                                    az_time t, uint64_t pos) {
  uint64_t v[5] = {0};
  int kind;
  switch (type) {
  case EV_MEASUREMENT:
    v[0] = get_byte(r);
    if (r->bad || b->off_region == UINT32_MAX) return OTF2_CALLBACK_SUCCESS;
    return rev_put(b, v[0] == OTF2_MEASUREMENT_OFF ? REV_ENTER : REV_LEAVE, corrected(s, t), pos,
                   b->off_region, 0, 0, 0, 0);
  case EV_MPI_SEND:
  case EV_MPI_ISEND:
  case EV_MPI_RECV:
  case EV_MPI_IRECV:
    v[0] = get_u32(r), v[1] = mapped(s, AZ_MAP_COMM, get_u32(r)), v[2] = get_u32(r),
    v[3] = get_u64(r);
    if (type == EV_MPI_ISEND || type == EV_MPI_IRECV) v[4] = get_u64(r);
    kind = type == EV_MPI_SEND    ? REV_SEND
           : type == EV_MPI_ISEND ? REV_ISEND
           : type == EV_MPI_RECV  ? REV_RECV
                                  : REV_IRECV;
    break;
  case EV_MPI_COLL_END:
    v[0] = get_byte(r), v[1] = mapped(s, AZ_MAP_COMM, get_u32(r)), v[2] = get_u32(r),
    v[3] = get_u64(r), v[4] = get_u64(r);
    kind = REV_COLL_END;
    break;
  case EV_THREAD_FORK:
    v[0] = get_byte(r), v[1] = get_u32(r);
    kind = REV_FORK;
    break;
  case EV_THREAD_JOIN:
    v[0] = get_byte(r);
    kind = REV_JOIN;
    break;
  case EV_THREAD_TEAM_BEGIN:
  case EV_THREAD_TEAM_END:
    v[0] = mapped(s, AZ_MAP_COMM, get_u32(r));
    kind = type == EV_THREAD_TEAM_BEGIN ? REV_TEAM_BEGIN : REV_TEAM_END;
    break;
  case EV_THREAD_ACQUIRE_LOCK:
  case EV_THREAD_RELEASE_LOCK:
    v[0] = get_byte(r), v[1] = get_u32(r), v[2] = get_u32(r);
    kind = type == EV_THREAD_ACQUIRE_LOCK ? REV_ACQUIRE : REV_RELEASE;
    break;
  /* the kinds a forward pass gets besides (az_buffered_kinds) */
  case EV_THREAD_TASK_CREATE:
  case EV_THREAD_TASK_SWITCH:
  case EV_THREAD_TASK_COMPLETE:
    v[0] = mapped(s, AZ_MAP_COMM, get_u32(r)), v[1] = get_u32(r), v[2] = get_u32(r);
    kind = REV_TASK_CREATE + (type - EV_THREAD_TASK_CREATE);
    break;
  case EV_CALLING_CONTEXT_SAMPLE:
    v[0] = mapped(s, AZ_MAP_CONTEXT, get_u32(r)), v[1] = get_u32(r),
    v[2] = mapped(s, AZ_MAP_GENERATOR, get_u32(r));
    kind = REV_SAMPLE;
    break;
  case EV_IO_OPERATION_BEGIN:
    v[0] = mapped(s, AZ_MAP_IO_HANDLE, get_u32(r)), v[1] = get_byte(r), v[2] = get_u32(r),
    v[3] = get_u64(r), v[4] = get_u64(r);
    kind = REV_IO_BEGIN;
    break;
  case EV_IO_OPERATION_COMPLETE:
    v[0] = mapped(s, AZ_MAP_IO_HANDLE, get_u32(r)), v[1] = get_u64(r), v[2] = get_u64(r);
    kind = REV_IO_COMPLETE;
    break;
  default: return OTF2_CALLBACK_SUCCESS; /* counted only */
  }
  if (r->bad || !(b->kinds >> kind & 1)) return OTF2_CALLBACK_SUCCESS;
  return rev_put(b, kind, corrected(s, t), pos, v[0], v[1], v[2], v[3], v[4]);
}

/* A singleton's value, buffered when its kind is one of b->kinds (Enter
   and Leave always are); rev_put's answer, as put_record. */
static OTF2_CallbackCode put_singleton(az_rev_buffer *b, block_state *s, uint8_t type,
                                       rec_cursor *r, az_time t, uint64_t pos) {
  if (type == EV_ENTER || type == EV_LEAVE) {
    uint64_t region = mapped(s, AZ_MAP_REGION, get_u32(r));
    if (r->bad) return OTF2_CALLBACK_SUCCESS;
    return rev_put(b, type == EV_ENTER ? REV_ENTER : REV_LEAVE, corrected(s, t), pos, region, 0, 0,
                   0, 0);
  }
  uint64_t req = get_u64(r);
  int kind = type == EV_MPI_ISEND_COMPLETE      ? REV_ISEND_COMPLETE
             : type == EV_MPI_IRECV_REQUEST     ? REV_IRECV_REQUEST
             : type == EV_MPI_REQUEST_CANCELLED ? REV_CANCELLED
                                                : -1;
  if (r->bad || kind < 0 || !(b->kinds >> kind & 1)) return OTF2_CALLBACK_SUCCESS;
  return rev_put(b, kind, corrected(s, t), pos, req, 0, 0, 0, 0);
}

/* Where chunk `chunk` of location loc's file is decoded from for a block
   after lo: the last point of res before lo when there is one (*count:
   its events before, the point's index returned), else from its start
   (*count as it is), the points made again while its events up to lo are
   passed over (the next one to make at the event returned; none when the
   block starts at the chunk's start). */
static uint64_t resume(az_resume *res, uint32_t loc, size_t chunk, uint64_t lo, uint64_t *count) {
  if (lo <= *count) return UINT64_MAX; /* nothing passed over */
  if (res->n && res->loc == loc && res->chunk == chunk && res->at[0].count <= lo) {
    uint32_t j = res->n - 1;
    while (res->at[j].count > lo) j--;
    if (res->at[j].count > *count) {
      *count = res->at[j].count;
      return j;
    }
    return UINT64_MAX;
  }
  res->loc = loc;
  res->chunk = chunk;
  res->n = 0;
  return *count;
}

typedef struct {          /* where decode_chunk is in a chunk's records */
  const unsigned char *p; /* the record at hand */
  uint64_t count;         /* events before it */
  az_time t;              /* the time in force (timed: a timestamp was read) */
  int timed;
} chunk_walk;

/* What decode_chunk does with a record of a type other than a timestamp
   (and an Enter or a Leave whose region it takes at once). */
enum { REC_HAS_LENGTH, REC_IS_SINGLETON, REC_ENDS_CHUNK, REC_REFUSED };
static inline int record_class(uint8_t type) {
  if (type == REC_END_OF_CHUNK) return REC_ENDS_CHUNK;
  if (type < REC_FIRST_EVENT && type != REC_ATTRIBUTES) return REC_REFUSED;
  if (type >= EV_OMP_FIRST && type <= EV_OMP_LAST) return REC_REFUSED;
  if (type == EV_CALLING_CONTEXT_ENTER || type == EV_CALLING_CONTEXT_ENTER + 1) return REC_REFUSED;
  if (type > EV_PROGRAM_END) return REC_REFUSED;
  return type != REC_ATTRIBUTES && singleton(type) ? REC_IS_SINGLETON : REC_HAS_LENGTH;
}

/* The length of a record that has one (a byte, or 0xff and 8 bytes), r
   moved past it: 0, or -1 when the record runs past the chunk. */
static inline int record_length(rec_cursor *r, uint64_t *len) {
  if (r->p >= r->end) return -1;
  *len = *r->p++;
  if (*len == 0xff) {
    if (r->end - r->p < 8) return -1;
    *len = get_le8(r->p), r->p += 8;
  }
  return (uint64_t)(r->end - r->p) < *len ? -1 : 0;
}

/* The low k bytes of a 64-bit value, k <= 4 (a short region's) */
static const uint64_t low_bytes[5] = {0, 0xff, 0xffff, 0xffffff, 0xffffffff};

/* An Enter or a Leave at p (before end) whose region decode_chunk takes
   at once (its size byte and 8 bytes after it, at most 4 of them its
   region): its size (2 to 6 bytes), else 0. */
static inline unsigned short_enter_leave(const unsigned char *p, const unsigned char *end) {
  return end - p >= 10 && (*p == EV_ENTER || *p == EV_LEAVE) && p[1] <= 4 ? 2u + p[1] : 0;
}

/* Passes over the records before event lo+1 (from w: a chunk's start or
   a resume point) by their sizes, no event's values taken: the time in
   force kept, a resume point made at each event from `mark` on every
   AZ_RESUME_EVERY events (none: UINT64_MAX).  It refuses what
   decode_chunk's loop refuses, and any record that runs past the chunk:
   0 with event lo+1 next, 1 at the chunk's end, -1 when OTF2 must read
   the block.  The first block read in a chunk of heat 4x1 passes over
   ~290 k events, most of them Enters and Leaves after a timestamp: those
   hopped over in a tight loop.  Not inlined: the decoding loop keeps its
   registers. */
__attribute__((noinline)) static int pass_over(chunk_walk *w, const unsigned char *data,
                                               const unsigned char *end, az_resume *res,
                                               uint64_t lo, uint64_t mark) {
  rec_cursor c = {w->p, end, 0, end};
  uint64_t n = w->count, stop = lo < mark ? lo : mark; /* n rises by 1 at most a turn */
  az_time t = w->t;
  int timed = w->timed, got = -1; /* no end-of-chunk record */
  while (c.p < c.end) {
    if (n >= stop) {
      if (n == lo) {
        got = 0;
        break;
      } /* a point here, at a record's start */
      res->at[res->n++] = (az_resume_point){n, t, (uint32_t)(c.p - data), (uint32_t)timed};
      mark = res->n < AZ_RESUME_POINTS ? n + AZ_RESUME_EVERY : UINT64_MAX;
      stop = lo < mark ? lo : mark;
    }
    /* timestamps and Enters and Leaves whose region fits in 4 bytes, 20
       bytes or more before the chunk's end (a timestamp's 9 and 10 where
       an Enter or a Leave is taken so: no tests of the end between) */
    const unsigned char *p = c.p;
    while (n < stop && c.end - p >= 20) {
      if (*p == REC_TIMESTAMP) t = get_le8(p + 1), timed = 1, p += 9;
      if ((*p != EV_ENTER && *p != EV_LEAVE) || p[1] > 4) break;
      p += 2 + p[1], n++;
    }
    c.p = p;
    if (n >= stop || c.p >= c.end) continue;
    unsigned size = short_enter_leave(c.p, c.end); /* the others, one by one */
    if (size) {
      c.p += size, n++;
      continue;
    }
    uint8_t type = *c.p++;
    if (type == REC_TIMESTAMP) {
      if (c.end - c.p < 8) return -1;
      t = get_le8(c.p), c.p += 8, timed = 1;
      continue;
    }
    int class = record_class(type);
    if (class == REC_ENDS_CHUNK) {
      got = 1;
      break;
    }
    if (class == REC_REFUSED) return -1;
    if (class == REC_IS_SINGLETON) { /* its size only */
      get_u64(&c);
      if (c.bad) return -1;
      n++;
      continue;
    }
    uint64_t len;
    if (record_length(&c, &len)) return -1;
    c.p += len;
    n += type != REC_ATTRIBUTES;
  }
  w->p = c.p, w->count = n, w->t = t, w->timed = timed;
  return got;
}

/* The events of one chunk (data: its n bytes) after *at, those after lo
   buffered, up to event `to`: 1 when `to` was reached, 0 at the chunk's
   end, -1 when OTF2 must read the block. */
static int decode_chunk(az_rev_buffer *b, az_resume *res, block_state *s, const unsigned char *data,
                        size_t n, size_t chunk, uint64_t *at, uint64_t lo, uint64_t to) {
  if (n < CHUNK_HEADER_BYTES || data[0] != CHUNK_HEADER || data[1] != CHUNK_LITTLE_ENDIAN ||
      get_le8(data + CHUNK_FIRST) != *at + 1)
    return -1;
  rec_cursor r = {data + CHUNK_HEADER_BYTES, data + n, 0, data + n};
  chunk_walk w = {.count = *at};
  uint64_t mark = resume(res, s->loc, chunk, lo, &w.count);
  if (w.count > *at) { /* from the point */
    const az_resume_point *p = &res->at[mark];
    r.p = data + p->offset, w.t = p->t, w.timed = (int)p->timed;
    mark = UINT64_MAX;
  }
  if (w.count < lo) { /* the events before the block */
    w.p = r.p;
    int ended = pass_over(&w, data, r.end, res, lo, mark);
    if (ended) {
      *at = w.count;
      return ended > 0 ? 0 : -1;
    }
    r.p = w.p;
  }
  uint64_t count = w.count; /* from here on: after lo */
  az_time t = w.t;
  int timed = w.timed, got = -1; /* no end-of-chunk record */
  while (r.p < r.end) {
    uint8_t type = *r.p++;
    if (type == REC_TIMESTAMP) { /* before most events */
      if (r.end - r.p < 8) return -1;
      t = get_le8(r.p), r.p += 8, timed = 1;
      continue;
    }
    /* most events: an Enter or a Leave, its region in a few bytes */
    if ((type == EV_ENTER || type == EV_LEAVE) && r.end - r.p >= 9 && *r.p <= 4) {
      if (!timed) return -1;
      unsigned k = *r.p;
      uint64_t region = get_le8(r.p + 1) & low_bytes[k];
      r.p += 1 + k;
      if (s->map) region = map_id(&s->map->id[AZ_MAP_REGION], region);
      uint8_t kind = type == EV_ENTER ? REV_ENTER : REV_LEAVE;
      if (s->direct) { /* as rev_put */
        b->ev[b->len] =
            (az_rev_event){corrected(s, t), (uint32_t)(++count - b->lo), (uint32_t)region};
        b->kind[b->len++] = kind;
      } else if (rev_put(b, kind, corrected(s, t), ++count, region, 0, 0, 0, 0) ==
                 OTF2_CALLBACK_INTERRUPT) {
        got = 1; /* a forward segment's end (pace) */
        break;
      }
      if (count == to) {
        got = 1;
        break;
      }
      continue;
    }
    int class = record_class(type);
    if (class == REC_ENDS_CHUNK) {
      got = 0;
      break;
    }
    if (class == REC_REFUSED) return -1;
    if (class == REC_IS_SINGLETON) {
      if (!timed) return -1;
      rec_cursor v = {r.p, r.end, 0, r.end};
      OTF2_CallbackCode paced = put_singleton(b, s, type, &v, t, ++count);
      if (v.bad) return -1;
      r.p = v.p;
      if (count == to || paced == OTF2_CALLBACK_INTERRUPT) {
        got = 1;
        break;
      }
      continue;
    }
    uint64_t len;
    if (record_length(&r, &len)) return -1;
    rec_cursor v = {r.p, r.p + len, 0, r.end};
    r.p += len;
    if (type == REC_ATTRIBUTES) continue;
    if (!timed) return -1;
    OTF2_CallbackCode paced = put_record(b, s, type, &v, t, ++count);
    if (v.bad) return -1;
    if (count == to || paced == OTF2_CALLBACK_INTERRUPT) {
      got = 1;
      break;
    }
  }
  *at = count;
  /* a forward segment: the next one goes on from here (its only point) */
  if (got == 1 && b->pace) {
    res->loc = s->loc, res->chunk = chunk, res->n = 1, res->interval = s->interval;
    res->at[0] = (az_resume_point){count, t, (uint32_t)(r.p - data), (uint32_t)timed};
  }
  return got;
}

int az_decode_block(const az_analysis *a, uint32_t loc, const uint64_t *chunk, size_t nchunks,
                    uint64_t chunk_size, const struct az_loc_map *map, az_rev_buffer *b,
                    az_resume *res, uint64_t lo, uint64_t to) {
  size_t k = 0, h = nchunks; /* the last chunk whose first event is <= lo + 1 */
  while (h - k > 1) {
    size_t mid = k + (h - k) / 2;
    if (chunk[mid] <= lo + 1) k = mid;
    else h = mid;
  }
  char path[4096];
  az_loc_file(a, a->defs.locs[loc].id, "evt", path, sizeof path);
  int fd = open(path, O_RDONLY);
  struct stat st;
  uint64_t size = fd >= 0 && !fstat(fd, &st) && st.st_size > 0 ? (uint64_t)st.st_size : 0;
  uint64_t pos = chunk[k] - 1;
  int got = -1;
  block_state s = {.map = map,
                   .nclock = map ? map->nclock : 0,
                   .interval = SIZE_MAX,
                   .direct = !b->pace && b->len <= b->cap && b->cap - b->len >= to - lo,
                   .loc = loc};
  /* the segment after a forward one: OTF2's reader goes on searching the
     clock intervals from its last event's */
  if (b->pace && res->n == 1 && res->loc == loc && res->at[0].count == lo)
    s.interval = res->interval;
  /* each chunk mapped, not copied: a buffer of the chunk size allocated
     and freed per block took the peak RSS of bench_analyze's 8-rank trace
     from 41 to 45 MB (its pages faulted in again and again) */
  for (; k < nchunks && k * chunk_size < size && (k * chunk_size) % AZ_PAGE == 0; k++) {
    size_t n = (size_t)(size - k * chunk_size < chunk_size ? size - k * chunk_size : chunk_size);
    void *data = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, (off_t)(k * chunk_size));
    if (data == MAP_FAILED) break;
    got = decode_chunk(b, res, &s, data, n, k, &pos, lo, to);
    munmap(data, n);
    if (got) break;
    got = -1; /* the last chunk ended before `to` */
  }
  if (fd >= 0) close(fd);
  if (got != 1) {
    b->len = 0;
    b->nmore = 0;
    if (b->pace) res->n = 0; /* OTF2 reads on from here */
    return -1;
  }
  b->upto = pos;
  return 0;
}

/* Reads events lo+1 .. to of a location into its buffer.  Each block
   with a reader of its own: OTF2 3.0's Seek back to an earlier chunk of a
   reader that read a later one frees a chunk buffer it still holds (a
   double free when the reader is closed; valgrind); the first block with
   the reader run_backward opened.  The reader is closed once the block is
   read: then the blocks hold one OTF2 chunk buffer at a time (its memory
   reused), not one per location (16 MB of the peak on bench_analyze's
   4 x 4 trace, and their page faults). */
int az_read_block(az_cursor *c, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb, az_rev_buffer *b,
                  uint64_t lo, uint64_t to) {
  az_block_room(b, to - lo);
  b->lo = lo;
  if (b->chunk_size && !az_decode_block(c->a, c->loc, b->chunk, b->nchunks, b->chunk_size, b->map,
                                        b, &b->resume, lo, to)) {
    if (c->er) OTF2_Reader_CloseEvtReader(reader, c->er); /* the reader run_backward opened */
    c->er = NULL;
    b->end = b->len;
    return 0;
  }
  uint64_t n = 0;
  az_otf2_message[0] = 0;
  if (!c->er) {
    c->er = az_event_reader(reader, c->a->defs.locs[c->loc].id);
    if (!c->er) {
      az_unreadable(c, "no event reader", NULL);
      return -1;
    }
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
  if (rc != OTF2_SUCCESS && az_cut_files_read(c->a)) rc = OTF2_SUCCESS;
  if (rc != OTF2_SUCCESS) {
    az_unreadable(c, az_otf2_why(rc), NULL);
    return -1;
  }
  OTF2_Reader_CloseEvtReader(reader, c->er);
  c->er = NULL;
  b->end = b->len;
  return 0;
}

/* The local ids below which a table is kept as an array: its largest
   below twice its pairs and 256 (a sparse table's far ids, such as
   libpomp's thread teams' 2^30 + i, searched). */
static uint32_t dense_part(const uint64_t *pairs, size_t n) {
  uint64_t most = 2 * (uint64_t)n + 256, top = 0;
  for (size_t i = 0; i < n; i++)
    if (pairs[2 * i] < most && pairs[2 * i] + 1 > top) top = pairs[2 * i] + 1;
  return (uint32_t)top;
}

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Offsets that are all 0: every interval's slope and offset 0, a time
   stays as it is (heat 4x1's four locations: about 35 instructions an
   event saved). */
static int identity_clock(const az_local_tables *t) {
  for (size_t k = 0; k < t->noffsets; k++)
    if (t->offset[k]) return 0;
  return 1;
}

/* The location's tables and clock intervals into the allocation of its
   chunk starts (n of them; replay.c frees that), after them; b->map.
   -1 when they cannot be read or OTF2 would refuse them (offsets not
   in time order): OTF2 then reads. */
static int attach_map(az_cursor *c, az_rev_buffer *b, size_t n) {
  az_local_tables t;
  if (az_read_local_tables(c->a, c->loc, &t)) return -1;
  for (size_t k = 1; k < t.noffsets; k++)
    if (t.offset_time[k] <= t.offset_time[k - 1]) return az_free_local_tables(&t), -1;
  uint32_t ndense[AZ_MAP_KINDS];
  size_t npairs[AZ_MAP_KINDS], nclock = t.noffsets > 1 ? t.noffsets - 1 : 0;
  if (identity_clock(&t)) nclock = 0; /* no call per event that changes nothing */
  size_t size =
      round8(n * sizeof *b->chunk) + sizeof(struct az_loc_map) + nclock * sizeof(clock_interval);
  for (int k = 0; k < AZ_MAP_KINDS; k++) {
    ndense[k] = dense_part(t.pairs[k], t.npairs[k]);
    npairs[k] = 0;
    for (size_t i = 0; i < t.npairs[k]; i++) npairs[k] += t.pairs[k][2 * i] >= ndense[k];
    size += round8(ndense[k] * sizeof(uint32_t)) + 2 * npairs[k] * sizeof(uint64_t);
  }
  b->chunk = pu_realloc(b->chunk, size);
  char *at = (char *)b->chunk + round8(n * sizeof *b->chunk);
  struct az_loc_map *m = (struct az_loc_map *)at;
  at += sizeof *m;
  clock_interval *clock = (clock_interval *)at;
  at += nclock * sizeof *clock;
  for (size_t k = 0; k < nclock; k++) /* as OTF2 makes them (above) */
    clock[k] = (clock_interval){t.offset_time[k], t.offset_time[k + 1],
                                (double)(t.offset[k + 1] - t.offset[k]) /
                                    (double)(t.offset_time[k + 1] - t.offset_time[k]),
                                t.offset[k]};
  m->nclock = nclock;
  m->clock = clock;
  for (int k = 0; k < AZ_MAP_KINDS; k++) {
    uint32_t *dense = (uint32_t *)at;
    at += round8(ndense[k] * sizeof *dense);
    uint64_t *pairs = (uint64_t *)at;
    at += 2 * npairs[k] * sizeof *pairs;
    for (uint32_t i = 0; i < ndense[k]; i++) dense[i] = i; /* ids not in the table */
    size_t np = 0;
    for (size_t i = 0; i < t.npairs[k]; i++) {
      const uint64_t *p = t.pairs[k] + 2 * i;
      if (p[0] < ndense[k]) dense[p[0]] = (uint32_t)p[1];
      else pairs[2 * np] = p[0], pairs[2 * np++ + 1] = p[1];
    }
    m->id[k] = (id_table){ndense[k], dense, np, pairs};
  }
  b->map = m;
  az_free_local_tables(&t);
  return 0;
}

/* The first event number of each chunk of the location's event file, from
   the chunk headers (as az_chunk_limit reads the last one); none when a
   header does not say (a cut or damaged file): blocks then start where
   their window does. */
void az_chunk_starts(az_cursor *c, OTF2_Reader *reader, az_rev_buffer *b) {
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
  /* decoded here (above), with the tables OTF2's reader would apply; the
     callbacks' MeasurementOnOff (Enter and Leave handled) assumed */
  if (HOST_LE && b->nchunks && !az_cut_files_read(c->a) && c->on && c->on->enter && c->on->leave &&
      (az_no_local_defs(c->a, c->loc) || !attach_map(c, b, n)))
    b->chunk_size = chunk;
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
uint64_t az_block_lo(const uint64_t *at, size_t stride, const uint64_t *chunk, size_t nchunks,
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
uint32_t az_handled_kinds(const az_event_handlers *on) {
  uint32_t mask = 0;
  for (uint8_t k = REV_ENTER; k <= REV_COLL_END; k++)
    if (handles(on, k)) mask |= 1u << k;
  return mask;
}

/* The handlers of all passes read together: any one's, for buffering. */
az_event_handlers az_union_handlers(const az_replay *rs, size_t np) {
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
