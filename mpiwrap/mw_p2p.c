/* mw_p2p.c -- records of blocking point-to-point calls (docs/TRACE.md):
   MpiSend at the call, MpiRecv at completion with the source and tag the
   status reports (so wildcards resolve), sizes in bytes. */
#include "mw.h"

#include "mw_reqtable.h"

/* MPICH encodes the size of a predefined datatype in its handle and keeps
   a status's byte count in two fields: reading them directly saves a
   library call (~15 ns each) per record. Used only once mw_fast_check()
   has compared both with PMPI at MPI_Init. */
static int fast;

#ifdef MPICH
static int builtin(MPI_Datatype t) { return ((unsigned)t >> 30) == 1; }
static uint64_t builtin_size(MPI_Datatype t) { return ((unsigned)t >> 8) & 0xff; }
static uint64_t status_bytes(const MPI_Status *s) {
  return (uint64_t)(unsigned)s->count_lo | (uint64_t)((unsigned)s->count_hi_and_cancelled >> 1)
                                               << 32;
}
#endif

void mw_fast_check(void) {
#ifdef MPICH
  const MPI_Datatype types[] = {MPI_BYTE,   MPI_CHAR,        MPI_INT,  MPI_LONG_LONG,
                                MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_2INT, MPI_C_DOUBLE_COMPLEX,
                                MPI_LB};
  int ok = 1;
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    MPI_Count size = -1;
    PMPI_Type_size_c(types[i], &size);
    ok &= builtin(types[i]) && builtin_size(types[i]) == (uint64_t)size;
  }
  MPI_Status st;
  const MPI_Count counts[] = {0, 12345, (MPI_Count)1 << 33 | 7};
  for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
    PMPI_Status_set_elements_x(&st, MPI_BYTE, counts[i]);
    ok &= status_bytes(&st) == (uint64_t)counts[i];
  }
  fast = ok;
#endif
}

uint64_t mw_type_bytes(MPI_Count count, MPI_Datatype type) {
  MPI_Count size = 0;
  if (count <= 0 || type == MPI_DATATYPE_NULL) return 0;
#ifdef MPICH
  if (fast && builtin(type)) return (uint64_t)count * builtin_size(type);
#endif
  PMPI_Type_size_c(type, &size);
  return size > 0 ? (uint64_t)count * (uint64_t)size : 0;
}

uint64_t mw_status_bytes(const MPI_Status *s) {
#ifdef MPICH
  if (fast) return status_bytes(s);
#endif
  MPI_Count n = 0;
  PMPI_Get_count_c(s, MPI_BYTE, &n);
  return n > 0 ? (uint64_t)n : 0;
}

/* A status the caller ignores is still needed for the record. */
MPI_Status *mw_status(mw_frame *f, MPI_Status *s) {
  return s == MPI_STATUS_IGNORE ? &f->status : s;
}

MPI_Status *mw_statuses(mw_frame *f, int n, MPI_Status *s) {
  if (s != MPI_STATUSES_IGNORE) return s;
  return mw_scratch(f, f->statuses_small, n, sizeof *s);
}

void mw_send(mw_frame *f, MPI_Comm comm, int dest, int tag, MPI_Count count, MPI_Datatype type) {
  if (dest == MPI_PROC_NULL) return; /* no message: no record */
  const mw_comm *c = mw_comm_of(comm);
  OTF2_EvtWriter *w = mw_writer(f);
  if (w)
    OTF2_EvtWriter_MpiSend(w, NULL, f->t, mw_comm_peer(c, dest), mw_comm_ref(c), (uint32_t)tag,
                           mw_type_bytes(count, type));
  else pm_bytes(f->l, mw_type_bytes(count, type), 0);
}

void mw_recv(mw_frame *f, MPI_Comm comm, const MPI_Status *s) {
  if (comm == MPI_COMM_NULL || s->MPI_SOURCE == MPI_PROC_NULL) return;
  const mw_comm *c = mw_comm_of(comm);
  OTF2_EvtWriter *w = mw_writer(f);
  if (w)
    OTF2_EvtWriter_MpiRecv(w, NULL, f->t, mw_comm_peer(c, s->MPI_SOURCE), mw_comm_ref(c),
                           (uint32_t)s->MPI_TAG, mw_status_bytes(s));
  else pm_bytes(f->l, 0, mw_status_bytes(s));
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
  if (!messages || !mw_reqtable_take(messages, (uint64_t)(uintptr_t)msg, 0, &r))
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
