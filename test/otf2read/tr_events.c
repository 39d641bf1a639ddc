/* tr_events.c -- the global event reader's callbacks: each event becomes a
   tr_event appended to the trace, in the order the reader delivers them. */
#include <stdlib.h>

#include "pomp_util.h"
#include "tr_internal.h"

/* Appends e, on loc at time; e.placeholder for a MpiCollectiveEnd
   outside MpiCollectiveBegin (docs/TRACE.md). Events of locations not
   defined are left out (the global reader reads only defined ones). */
static OTF2_CallbackCode add(void *u, OTF2_LocationRef loc, OTF2_TimeStamp time, tr_event e) {
  tr_reading *rd = u;
  tr_trace *t = rd->t;
  tr_location *l = tr_location_by_id(t, loc);
  if (!l) return OTF2_CALLBACK_SUCCESS;
  e.time = time, e.loc = (uint32_t)(l - t->locs);
  uint32_t *open = &rd->in_collective[e.loc];
  if (e.kind == TR_MPI_COLLECTIVE_BEGIN) ++*open;
  if (e.kind == TR_MPI_COLLECTIVE_END) {
    e.placeholder = !*open;
    *open -= !!*open;
  }
  PU_PUSH(t->events, t->nevents, rd->cap_events, e);
  return OTF2_CALLBACK_SUCCESS;
}

/* ev_NAME(the callback's own parameters): one event, fields as given. */
#define PARAMS(...) __VA_ARGS__
#define EV(name, params, ...)                                                                      \
  static OTF2_CallbackCode ev_##name(OTF2_LocationRef loc, OTF2_TimeStamp time, void *u,           \
                                     OTF2_AttributeList *attrs, PARAMS params) {                   \
    (void)attrs;                                                                                   \
    return add(u, loc, time, (tr_event){__VA_ARGS__});                                             \
  }
#define UNUSED __attribute__((unused))

EV(enter, (OTF2_RegionRef r), .kind = TR_ENTER, .region = r)
EV(leave, (OTF2_RegionRef r), .kind = TR_LEAVE, .region = r)
EV(flush, (OTF2_TimeStamp stop UNUSED), .kind = TR_BUFFER_FLUSH)
EV(fork, (OTF2_Paradigm p UNUSED, uint32_t n), .kind = TR_THREAD_FORK, .threads = n)
EV(join, (OTF2_Paradigm p UNUSED), .kind = TR_THREAD_JOIN)
EV(team_begin, (OTF2_CommRef c), .kind = TR_THREAD_TEAM_BEGIN, .comm = c)
EV(team_end, (OTF2_CommRef c), .kind = TR_THREAD_TEAM_END, .comm = c)
#define TASK_PARAMS (OTF2_CommRef c, uint32_t creator, uint32_t generation)
EV(task_create, TASK_PARAMS, .kind = TR_THREAD_TASK_CREATE, .comm = c, .creator = creator,
   .generation = generation)
EV(task_switch, TASK_PARAMS, .kind = TR_THREAD_TASK_SWITCH, .comm = c, .creator = creator,
   .generation = generation)
EV(task_complete, TASK_PARAMS, .kind = TR_THREAD_TASK_COMPLETE, .comm = c, .creator = creator,
   .generation = generation)
EV(acquire, (OTF2_Paradigm p UNUSED, uint32_t lock, uint32_t order), .kind = TR_THREAD_ACQUIRE_LOCK,
   .lock = lock, .order = order)
EV(release, (OTF2_Paradigm p UNUSED, uint32_t lock, uint32_t order), .kind = TR_THREAD_RELEASE_LOCK,
   .lock = lock, .order = order)
EV(send, (uint32_t peer, OTF2_CommRef c, uint32_t tag, uint64_t len), .kind = TR_MPI_SEND,
   .peer = peer, .comm = c, .tag = tag, .bytes = len)
EV(recv, (uint32_t peer, OTF2_CommRef c, uint32_t tag, uint64_t len), .kind = TR_MPI_RECV,
   .peer = peer, .comm = c, .tag = tag, .bytes = len)
EV(isend, (uint32_t peer, OTF2_CommRef c, uint32_t tag, uint64_t len, uint64_t id),
   .kind = TR_MPI_ISEND, .peer = peer, .comm = c, .tag = tag, .bytes = len, .request = id)
EV(isend_complete, (uint64_t id), .kind = TR_MPI_ISEND_COMPLETE, .request = id)
EV(irecv_request, (uint64_t id), .kind = TR_MPI_IRECV_REQUEST, .request = id)
EV(irecv, (uint32_t peer, OTF2_CommRef c, uint32_t tag, uint64_t len, uint64_t id),
   .kind = TR_MPI_IRECV, .peer = peer, .comm = c, .tag = tag, .bytes = len, .request = id)
EV(request_test, (uint64_t id), .kind = TR_MPI_REQUEST_TEST, .request = id)
EV(cancelled, (uint64_t id), .kind = TR_MPI_REQUEST_CANCELLED, .request = id)
EV(coll_end,
   (OTF2_CollectiveOp op, OTF2_CommRef c, uint32_t root, uint64_t sent, uint64_t received),
   .kind = TR_MPI_COLLECTIVE_END, .op = op, .comm = c, .root = root, .bytes = sent,
   .received = received)
EV(nbc_request, (uint64_t id), .kind = TR_NBC_REQUEST, .request = id)
EV(nbc_complete,
   (OTF2_CollectiveOp op, OTF2_CommRef c, uint32_t root, uint64_t sent, uint64_t received,
    uint64_t id),
   .kind = TR_NBC_COMPLETE, .op = op, .comm = c, .root = root, .bytes = sent, .received = received,
   .request = id)

EV(win_create, (OTF2_RmaWinRef w), .kind = TR_RMA_WIN_CREATE, .comm = w)
EV(win_destroy, (OTF2_RmaWinRef w), .kind = TR_RMA_WIN_DESTROY, .comm = w)
EV(rma_coll_end,
   (OTF2_CollectiveOp op, OTF2_RmaSyncLevel level UNUSED, OTF2_RmaWinRef w, uint32_t root,
    uint64_t sent, uint64_t received),
   .kind = TR_RMA_COLLECTIVE_END, .op = op, .comm = w, .root = root, .bytes = sent,
   .received = received)
EV(group_sync, (OTF2_RmaSyncLevel level UNUSED, OTF2_RmaWinRef w, OTF2_GroupRef g UNUSED),
   .kind = TR_RMA_GROUP_SYNC, .comm = w)
EV(request_lock, (OTF2_RmaWinRef w, uint32_t target, uint64_t id UNUSED, OTF2_LockType type),
   .kind = TR_RMA_REQUEST_LOCK, .comm = w, .peer = target, .tag = type == OTF2_LOCK_EXCLUSIVE)
EV(acquire_lock, (OTF2_RmaWinRef w, uint32_t target, uint64_t id UNUSED, OTF2_LockType type),
   .kind = TR_RMA_ACQUIRE_LOCK, .comm = w, .peer = target, .tag = type == OTF2_LOCK_EXCLUSIVE)
EV(release_lock, (OTF2_RmaWinRef w, uint32_t target, uint64_t id UNUSED),
   .kind = TR_RMA_RELEASE_LOCK, .comm = w, .peer = target)
EV(rma_put, (OTF2_RmaWinRef w, uint32_t target, uint64_t bytes, uint64_t id), .kind = TR_RMA_PUT,
   .comm = w, .peer = target, .bytes = bytes, .request = id)
EV(rma_get, (OTF2_RmaWinRef w, uint32_t target, uint64_t bytes, uint64_t id), .kind = TR_RMA_GET,
   .comm = w, .peer = target, .bytes = bytes, .request = id)
EV(rma_atomic,
   (OTF2_RmaWinRef w, uint32_t target, OTF2_RmaAtomicType type UNUSED, uint64_t sent,
    uint64_t received, uint64_t id),
   .kind = TR_RMA_ATOMIC, .comm = w, .peer = target, .bytes = sent, .received = received,
   .request = id)
EV(op_complete, (OTF2_RmaWinRef w, uint64_t id), .kind = TR_RMA_OP_COMPLETE_BLOCKING, .comm = w,
   .request = id)

static OTF2_CallbackCode ev_rma_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, void *u,
                                           OTF2_AttributeList *attrs) {
  (void)attrs;
  return add(u, loc, time, (tr_event){.kind = TR_RMA_COLLECTIVE_BEGIN});
}

/* MpiCollectiveBegin has no parameters of its own. */
static OTF2_CallbackCode ev_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, void *u,
                                       OTF2_AttributeList *attrs) {
  (void)attrs;
  return add(u, loc, time, (tr_event){.kind = TR_MPI_COLLECTIVE_BEGIN});
}

void tr_set_event_callbacks(OTF2_GlobalEvtReaderCallbacks *cb) {
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
  OTF2_GlobalEvtReaderCallbacks_SetBufferFlushCallback(cb, ev_flush);
  OTF2_GlobalEvtReaderCallbacks_SetThreadForkCallback(cb, ev_fork);
  OTF2_GlobalEvtReaderCallbacks_SetThreadJoinCallback(cb, ev_join);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTeamBeginCallback(cb, ev_team_begin);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTeamEndCallback(cb, ev_team_end);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCreateCallback(cb, ev_task_create);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTaskSwitchCallback(cb, ev_task_switch);
  OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCompleteCallback(cb, ev_task_complete);
  OTF2_GlobalEvtReaderCallbacks_SetThreadAcquireLockCallback(cb, ev_acquire);
  OTF2_GlobalEvtReaderCallbacks_SetThreadReleaseLockCallback(cb, ev_release);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, ev_isend_complete);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, ev_irecv_request);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRequestTestCallback(cb, ev_request_test);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, ev_cancelled);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, ev_coll_begin);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
  OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, ev_nbc_request);
  OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, ev_nbc_complete);
  OTF2_GlobalEvtReaderCallbacks_SetRmaWinCreateCallback(cb, ev_win_create);
  OTF2_GlobalEvtReaderCallbacks_SetRmaWinDestroyCallback(cb, ev_win_destroy);
  OTF2_GlobalEvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, ev_rma_coll_begin);
  OTF2_GlobalEvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, ev_rma_coll_end);
  OTF2_GlobalEvtReaderCallbacks_SetRmaGroupSyncCallback(cb, ev_group_sync);
  OTF2_GlobalEvtReaderCallbacks_SetRmaRequestLockCallback(cb, ev_request_lock);
  OTF2_GlobalEvtReaderCallbacks_SetRmaAcquireLockCallback(cb, ev_acquire_lock);
  OTF2_GlobalEvtReaderCallbacks_SetRmaReleaseLockCallback(cb, ev_release_lock);
  OTF2_GlobalEvtReaderCallbacks_SetRmaPutCallback(cb, ev_rma_put);
  OTF2_GlobalEvtReaderCallbacks_SetRmaGetCallback(cb, ev_rma_get);
  OTF2_GlobalEvtReaderCallbacks_SetRmaAtomicCallback(cb, ev_rma_atomic);
  OTF2_GlobalEvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, ev_op_complete);
}
