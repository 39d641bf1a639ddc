/* mw_p2p.c -- records of blocking point-to-point calls (docs/TRACE.md):
   MpiSend at the call, MpiRecv at completion with the source and tag the
   status reports (so wildcards resolve), sizes in bytes. */
#include "mw.h"

#include "mw_reqtable.h"

uint64_t mw_type_bytes(MPI_Count count, MPI_Datatype type) {
  MPI_Count size = 0;
  if (count <= 0 || type == MPI_DATATYPE_NULL) return 0;
  PMPI_Type_size_c(type, &size);
  return size > 0 ? (uint64_t)count * (uint64_t)size : 0;
}

/* A status the caller ignores is still needed for the record. */
MPI_Status *mw_status(mw_frame *f, MPI_Status *s) {
  return s == MPI_STATUS_IGNORE ? &f->status : s;
}

MPI_Status *mw_statuses(mw_frame *f, int n, MPI_Status *s) {
  if (s != MPI_STATUSES_IGNORE) return s;
  return mw_scratch(f, f->statuses_small, n, sizeof *s);
}

void mw_send(mw_frame *f, MPI_Comm comm, int dest, int tag, MPI_Count count,
             MPI_Datatype type) {
  if (dest == MPI_PROC_NULL) return;   /* no message: no record */
  const mw_comm *c = mw_comm_of(comm);
  OTF2_EvtWriter *w = mw_writer(f);
  if (w)
    OTF2_EvtWriter_MpiSend(w, NULL, pm_now(), mw_comm_peer(c, dest),
                           mw_comm_ref(c), (uint32_t)tag,
                           mw_type_bytes(count, type));
}

/* Bytes received according to the status (not the buffer's capacity). */
static uint64_t received_bytes(const MPI_Status *s) {
  MPI_Count n = 0;
  PMPI_Get_count_c(s, MPI_BYTE, &n);
  return n > 0 ? (uint64_t)n : 0;
}

void mw_recv(mw_frame *f, MPI_Comm comm, const MPI_Status *s) {
  if (comm == MPI_COMM_NULL || s->MPI_SOURCE == MPI_PROC_NULL) return;
  const mw_comm *c = mw_comm_of(comm);
  OTF2_EvtWriter *w = mw_writer(f);
  if (w)
    OTF2_EvtWriter_MpiRecv(w, NULL, pm_now(), mw_comm_peer(c, s->MPI_SOURCE),
                           mw_comm_ref(c), (uint32_t)s->MPI_TAG,
                           received_bytes(s));
}

/* ----------------------------------------------- matched probe (Mprobe) */

/* MPI_Mrecv names no communicator: remember the one Mprobe matched on. */
static mw_reqtable *messages;

void mw_message_put(MPI_Message msg, MPI_Comm comm) {
  if (msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC || !messages) return;
  mw_req r = {.handle = (intptr_t)comm};
  mw_reqtable_put(messages, (uint64_t)(uintptr_t)msg, &r);
}

MPI_Comm mw_message_take(MPI_Message msg) {
  mw_req r;
  if (!messages || !mw_reqtable_take(messages, (uint64_t)(uintptr_t)msg, &r))
    return MPI_COMM_NULL;
  return (MPI_Comm)r.handle;
}

void mw_messages_init(void) {
  if (!messages) messages = mw_reqtable_new();
}

void mw_messages_fini(void) {
  mw_reqtable_free(messages);
  messages = NULL;
}
