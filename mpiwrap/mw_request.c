/* mw_request.c -- non-blocking, persistent and collective requests: what
   was asked is kept in a table (mw_reqtable.h) from the call to the
   Wait/Test that completes it, which writes the completion record
   (docs/TRACE.md): MpiIsendComplete, MpiIrecv with the status's source and
   tag, NonBlockingCollectiveComplete, or MpiRequestCancelled. */
#include "mw.h"

#include "mw_reqtable.h"

static mw_reqtable *requests;
static _Atomic uint64_t next_block; /* ids handed out in blocks, from 1 */

void mw_requests_init(void) {
  if (!requests) requests = mw_reqtable_new();
}

void mw_requests_fini(void) {
  mw_reqtable_free(requests);
  requests = NULL;
}

static uint64_t key_of(MPI_Request req) { return (uint64_t)(uintptr_t)req; }

/* Every lookup prefers the calling thread's own entry (mw_reqtable.h). */
static uintptr_t me(void) { return mw_reqtable_thread(); }

/* Request ids are unique in the process. A thread takes them from a block
   of its own, so a request costs no atomic instruction on a counter every
   thread shares; with one thread they are 1, 2, 3... as before. */
#define ID_BLOCK 4096
typedef struct id_range {
  uint64_t next, end;
} id_range;
static _Thread_local id_range ids __attribute__((tls_model("initial-exec")));

static uint64_t new_id(void) {
  id_range *r = &ids;
  if (r->next == r->end) {
    r->next = atomic_fetch_add_explicit(&next_block, 1, memory_order_relaxed) * ID_BLOCK + 1;
    r->end = r->next + ID_BLOCK;
  }
  return r->next++;
}

/* Records that a request has started: at the call, or at MPI_Start,
   stamped with that call's Enter (mw_writer_at_enter). */
static void started(mw_frame *f, const mw_req *r) {
  OTF2_EvtWriter *w;
  uint64_t t;
  if (r->kind & MW_REQ_SEND && (w = mw_writer_at_enter(f, &t)))
    OTF2_EvtWriter_MpiIsend(w, NULL, t, r->peer, mw_comm_ref(r->comm), r->tag, r->bytes, r->id);
  else if (r->kind & MW_REQ_SEND) pm_bytes(f->l, r->bytes, 0);
  if (r->kind & MW_REQ_RECV && (w = mw_writer_at_enter(f, &t)))
    OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t, r->recv_id);
  if (r->kind & MW_REQ_COLL && (w = mw_writer_at_enter(f, &t)))
    OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, t, r->id);
}

static void track(mw_frame *f, MPI_Request req, mw_req *r) {
  if (!requests || req == MPI_REQUEST_NULL || !r->kind) return;
  r->id = new_id();
  r->recv_id = (r->kind & MW_REQ_SEND) && (r->kind & MW_REQ_RECV) ? new_id() : r->id;
  r->active = !r->persistent;
  r->owner = me();
  mw_reqtable_put(requests, key_of(req), r);
  if (r->active) started(f, r);
}

/* A send to MPI_PROC_NULL moves no data: it is not tracked at all. */
static void send_part(mw_req *r, int dest, int tag, MPI_Count count, MPI_Datatype type) {
  if (dest == MPI_PROC_NULL) return;
  r->kind |= MW_REQ_SEND;
  r->peer = mw_comm_peer(r->comm, dest);
  r->tag = (uint32_t)tag;
  r->bytes = mw_type_bytes(count, type);
}

void mw_isend(mw_frame *f, MPI_Comm comm, int dest, int tag, MPI_Count count, MPI_Datatype type,
              MPI_Request req) {
  mw_req r = {.comm = mw_comm_of(comm)};
  send_part(&r, dest, tag, count, type);
  track(f, req, &r);
}

void mw_irecv(mw_frame *f, MPI_Comm comm, int source, MPI_Request req) {
  if (comm == MPI_COMM_NULL || source == MPI_PROC_NULL) return;
  mw_req r = {.comm = mw_comm_of(comm), .kind = MW_REQ_RECV};
  track(f, req, &r);
}

/* MPICH 4.0.2 completes an Isendrecv with a status it never fills in
   (source 0, tag 0, any count), so the receive's envelope and size are
   kept from the call (the buffer's size: a shorter message is recorded
   as the full buffer) and the status is used only to resolve wildcards. */
void mw_isendrecv(mw_frame *f, MPI_Comm comm, int dest, int tag, MPI_Count count, MPI_Datatype type,
                  int source, int rtag, MPI_Count rcount, MPI_Datatype rtype, MPI_Request req) {
  mw_req r = {.comm = mw_comm_of(comm),
              .source = source,
              .recv_tag = rtag,
              .received = mw_type_bytes(rcount, rtype)};
  send_part(&r, dest, tag, count, type);
  if (source != MPI_PROC_NULL) r.kind |= MW_REQ_RECV | MW_REQ_ENVELOPE;
  track(f, req, &r);
}

void mw_psend_init(mw_frame *f, MPI_Comm comm, int dest, int tag, MPI_Count count,
                   MPI_Datatype type, MPI_Request req) {
  mw_req r = {.comm = mw_comm_of(comm), .persistent = 1};
  send_part(&r, dest, tag, count, type);
  track(f, req, &r);
}

void mw_precv_init(mw_frame *f, MPI_Comm comm, int source, MPI_Request req) {
  if (source == MPI_PROC_NULL) return;
  mw_req r = {.comm = mw_comm_of(comm), .kind = MW_REQ_RECV, .persistent = 1};
  track(f, req, &r);
}

void mw_icoll(mw_frame *f, OTF2_CollectiveOp op, MPI_Comm comm, int root, mw_xfer x,
              MPI_Request req, int persistent) {
  mw_req r = {.comm = mw_comm_of(comm),
              .kind = MW_REQ_COLL,
              .op = op,
              .root = mw_root(comm, root),
              .bytes = x.sent,
              .received = x.received,
              .persistent = (uint8_t)persistent};
  track(f, req, &r);
}

/* -------------------------------------------------------------- MPI_Start */

static void activate(mw_req *r, void *out) {
  r->active = 1;
  r->cancelled = 0;
  r->id = new_id();
  r->recv_id = (r->kind & MW_REQ_SEND) && (r->kind & MW_REQ_RECV) ? new_id() : r->id;
  *(mw_req *)out = *r;
}

void mw_start(mw_frame *f, int n, const MPI_Request *reqs) {
  for (int i = 0; i < n && requests; i++) {
    mw_req r;
    if (mw_reqtable_update(requests, key_of(reqs[i]), me(), activate, &r)) started(f, &r);
  }
}

/* ------------------------------------------------------------ completion */

void mw_snap(mw_frame *f, int n, const MPI_Request *reqs) {
  f->nsnap = n > 0 ? n : 0;
  f->snap = mw_scratch(f, f->snap_small, f->nsnap, sizeof *reqs);
  for (int i = 0; i < f->nsnap; i++) f->snap[i] = reqs[i];
}

/* The entry of a request that has just completed: removed, or for a
   persistent request kept but inactive. 0 if nothing is to be recorded:
   unknown, or an inactive persistent request (which completes empty). */
static int finished(MPI_Request req, mw_req *r) {
  if (!requests || req == MPI_REQUEST_NULL || !mw_reqtable_finish(requests, key_of(req), me(), r))
    return 0;
  return r->active;
}

/* MpiIrecv with the envelope the status reports (see mw_isendrecv). */
static void received(mw_frame *f, const mw_req *r, const MPI_Status *s) {
  int source = s->MPI_SOURCE, tag = s->MPI_TAG;
  uint64_t bytes;
  if (r->kind & MW_REQ_ENVELOPE) {
    if (r->source != MPI_ANY_SOURCE) source = r->source;
    if (r->recv_tag != MPI_ANY_TAG) tag = r->recv_tag;
    bytes = r->received; /* the status's count is garbage too */
  } else {
    bytes = mw_status_bytes(s);
  }
  OTF2_EvtWriter *w;
  if (source != MPI_PROC_NULL && (w = mw_writer(f)))
    OTF2_EvtWriter_MpiIrecv(w, NULL, f->t, mw_comm_peer(r->comm, source), mw_comm_ref(r->comm),
                            (uint32_t)tag, bytes, r->recv_id);
  else if (source != MPI_PROC_NULL) pm_bytes(f->l, 0, bytes);
}

void mw_complete(mw_frame *f, int i, const MPI_Status *s) {
  mw_req r;
  if (i >= 0 && i < f->nsnap) mw_io_completed(f, f->snap[i], s); /* MPI-IO's: mw_io.c */
  if (i < 0 || i >= f->nsnap || !finished(f->snap[i], &r)) return;
  OTF2_EvtWriter *w;
  int cancelled = 0;
  if (r.cancelled) PMPI_Test_cancelled(s, &cancelled);
  if (cancelled) {
    if ((w = mw_writer(f))) OTF2_EvtWriter_MpiRequestCancelled(w, NULL, f->t, r.id);
    return;
  }
  if (r.kind & MW_REQ_SEND && (w = mw_writer(f)))
    OTF2_EvtWriter_MpiIsendComplete(w, NULL, f->t, r.id);
  if (r.kind & MW_REQ_RECV) received(f, &r, s);
  if (r.kind & MW_REQ_COLL && (w = mw_writer(f)))
    OTF2_EvtWriter_NonBlockingCollectiveComplete(w, NULL, f->t, (OTF2_CollectiveOp)r.op,
                                                 mw_comm_ref(r.comm), r.root, r.bytes, r.received,
                                                 r.id);
  else if (r.kind & MW_REQ_COLL) pm_bytes(f->l, r.bytes, r.received);
}

void mw_complete_all(mw_frame *f, int n, const MPI_Status *s) {
  for (int i = 0; i < n; i++) mw_complete(f, i, &s[i]);
}

void mw_complete_some(mw_frame *f, int n, const int *indices, const MPI_Status *s) {
  if (n == MPI_UNDEFINED) return;
  for (int k = 0; k < n; k++) mw_complete(f, indices[k], &s[k]);
}

void mw_tested_one(mw_frame *f, MPI_Request req) {
  mw_req r;
  OTF2_EvtWriter *w;
  if (requests && req != MPI_REQUEST_NULL && mw_reqtable_find(requests, key_of(req), me(), &r) &&
      r.active && (w = mw_writer(f)))
    OTF2_EvtWriter_MpiRequestTest(w, NULL, f->t, r.id);
}

void mw_tested(mw_frame *f) {
  for (int i = 0; i < f->nsnap; i++) mw_tested_one(f, f->snap[i]);
}

static void mark_cancelled(mw_req *r, void *unused) {
  (void)unused;
  r->cancelled = 1;
}

void mw_cancel(MPI_Request req) {
  if (requests && req != MPI_REQUEST_NULL)
    mw_reqtable_update(requests, key_of(req), me(), mark_cancelled, NULL);
}

/* A freed request completes unseen (legal MPI for an active one): the
   send is handed to MPI and its message will be received, so an active
   send is recorded as completed here (MpiIsendComplete in
   MPI_Request_free), or as cancelled if the program cancelled it first
   (the outcome MPI_Test_cancelled would give cannot be asked any more;
   a send not yet matched is cancelled). A receive whose message has
   arrived (MPI_Request_get_status, which leaves the request to the
   free) is recorded as received here, with the status's envelope (MPICH's
   pt2pt/rqfreeb); one still waiting for its message completes at a time
   nothing can record: it stays incomplete in the trace. */
void mw_request_free(mw_frame *f, MPI_Request req) {
  mw_req r;
  if (!requests || req == MPI_REQUEST_NULL || !mw_reqtable_take(requests, key_of(req), me(), &r))
    return;
  OTF2_EvtWriter *w;
  if (!f->l || !r.active || !(w = mw_writer(f))) return;
  if (r.kind & MW_REQ_SEND && r.cancelled) OTF2_EvtWriter_MpiRequestCancelled(w, NULL, f->t, r.id);
  else if (r.kind & MW_REQ_SEND) OTF2_EvtWriter_MpiIsendComplete(w, NULL, f->t, r.id);
  int arrived = 0;
  MPI_Status st;
  if (r.kind & MW_REQ_RECV && !r.cancelled &&
      PMPI_Request_get_status(req, &arrived, &st) == MPI_SUCCESS && arrived)
    received(f, &r, &st);
}
