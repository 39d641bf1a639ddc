/* tr_text.c -- the two text forms of an event (trace_reader.h), and the
   helpers over a location's lines. The forms are what golden strings and
   files of the tests hold: any change here changes those. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pomp_util.h"
#include "trace_reader.h"

/* The OTF2 record names, by tr_kind. */
static const char *const kind_names[] = {"Enter",
                                         "Leave",
                                         "BufferFlush",
                                         "ThreadFork",
                                         "ThreadJoin",
                                         "ThreadTeamBegin",
                                         "ThreadTeamEnd",
                                         "ThreadAcquireLock",
                                         "ThreadReleaseLock",
                                         "ThreadTaskCreate",
                                         "ThreadTaskSwitch",
                                         "ThreadTaskComplete",
                                         "MpiSend",
                                         "MpiRecv",
                                         "MpiIsend",
                                         "MpiIsendComplete",
                                         "MpiIrecvRequest",
                                         "MpiIrecv",
                                         "MpiRequestTest",
                                         "MpiRequestCancelled",
                                         "MpiCollectiveBegin",
                                         "MpiCollectiveEnd",
                                         "NonBlockingCollectiveRequest",
                                         "NonBlockingCollectiveComplete",
                                         "RmaWinCreate",
                                         "RmaWinDestroy",
                                         "RmaCollectiveBegin",
                                         "RmaCollectiveEnd",
                                         "RmaGroupSync",
                                         "RmaRequestLock",
                                         "RmaAcquireLock",
                                         "RmaReleaseLock",
                                         "RmaPut",
                                         "RmaGet",
                                         "RmaAtomic",
                                         "RmaOpCompleteBlocking"};

const char *tr_kind_name(int kind) { return kind_names[kind]; }

static const char *op_name(uint32_t op) {
  static const char *const names[] = {"BARRIER",
                                      "BCAST",
                                      "GATHER",
                                      "GATHERV",
                                      "SCATTER",
                                      "SCATTERV",
                                      "ALLGATHER",
                                      "ALLGATHERV",
                                      "ALLTOALL",
                                      "ALLTOALLV",
                                      "ALLTOALLW",
                                      "ALLREDUCE",
                                      "REDUCE",
                                      "REDUCE_SCATTER",
                                      "SCAN",
                                      "EXSCAN",
                                      "REDUCE_SCATTER_BLOCK"};
  return op < sizeof names / sizeof *names ? names[op] : "OTHER";
}

/* A root as text: -1 for the operations without one. */
static long long root_text(uint32_t root) {
  return root == OTF2_UNDEFINED_UINT32 ? -1 : (long long)root;
}

/* A line being written: the form, and where it stands in buf. */
typedef struct text {
  int dump; /* MPI dump form: " key=value" fields, comms by id */
  char *buf;
  size_t size, len;
} text;

/* One field: " value" in the plain form, " key=value" in the dump form
   (or " value" there too when key is NULL). */
static void field(text *x, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void field(text *x, const char *key, const char *fmt, ...) {
  char value[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(value, sizeof value, fmt, ap);
  va_end(ap);
  if (x->len >= x->size) return;
  int n = snprintf(x->buf + x->len, x->size - x->len, " %s%s%s", x->dump && key ? key : "",
                   x->dump && key ? "=" : "", value);
  if (n > 0) x->len += (size_t)n;
}

/* A communicator: its name in the plain form, its id in the dump form. */
static void comm_field(text *x, const tr_trace *t, uint32_t comm) {
  if (x->dump) field(x, "comm", "%u", comm);
  else field(x, NULL, "%s", tr_comm_name(t, comm));
}

/* The records that carry a request id: it ends their line. */
static int has_request(const tr_event *e) {
  switch (e->kind) {
  case TR_MPI_ISEND:
  case TR_MPI_ISEND_COMPLETE:
  case TR_MPI_IRECV_REQUEST:
  case TR_MPI_IRECV:
  case TR_MPI_REQUEST_TEST:
  case TR_MPI_REQUEST_CANCELLED:
  case TR_NBC_REQUEST:
  case TR_NBC_COMPLETE: return 1;
  default: return 0;
  }
}

/* e's record name and fields in x's form. */
static void format(text *x, const tr_trace *t, const tr_event *e) {
  x->len = (size_t)snprintf(x->buf, x->size, "%s", tr_kind_name(e->kind));
  switch (e->kind) {
  case TR_ENTER:
  case TR_LEAVE: field(x, NULL, "%s", tr_region_name(t, e->region)); break;
  case TR_THREAD_FORK: field(x, NULL, "%u", e->threads); break;
  case TR_THREAD_TEAM_BEGIN:
  case TR_THREAD_TEAM_END: comm_field(x, t, e->comm); break;
  case TR_THREAD_TASK_CREATE:
  case TR_THREAD_TASK_SWITCH:
  case TR_THREAD_TASK_COMPLETE:
    comm_field(x, t, e->comm);
    field(x, "creator", "%u", e->creator);
    field(x, "number", "%u", e->generation);
    break;
  case TR_THREAD_ACQUIRE_LOCK:
  case TR_THREAD_RELEASE_LOCK:
    field(x, "lock", "%u", e->lock);
    field(x, "order", "%u", e->order);
    break;
  case TR_MPI_SEND:
  case TR_MPI_RECV:
  case TR_MPI_ISEND:
  case TR_MPI_IRECV:
    field(x, e->kind == TR_MPI_SEND || e->kind == TR_MPI_ISEND ? "to" : "from", "%u", e->peer);
    comm_field(x, t, e->comm);
    field(x, "tag", "%u", e->tag);
    field(x, "bytes", "%llu", (unsigned long long)e->bytes);
    break;
  case TR_MPI_COLLECTIVE_END:
  case TR_NBC_COMPLETE:
    field(x, "op", "%s", op_name(e->op));
    comm_field(x, t, e->comm);
    field(x, "root", "%lld", root_text(e->root));
    field(x, "sent", "%llu", (unsigned long long)e->bytes);
    field(x, "received", "%llu", (unsigned long long)e->received);
    break;
  case TR_RMA_WIN_CREATE:
  case TR_RMA_WIN_DESTROY:
  case TR_RMA_GROUP_SYNC: field(x, "win", "%u", e->comm); break;
  case TR_RMA_COLLECTIVE_END:
    field(x, "op", "%s",
          e->op == OTF2_COLLECTIVE_OP_CREATE_HANDLE    ? "CREATE_HANDLE"
          : e->op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE ? "DESTROY_HANDLE"
                                                       : op_name(e->op));
    field(x, "win", "%u", e->comm);
    break;
  case TR_RMA_REQUEST_LOCK:
  case TR_RMA_ACQUIRE_LOCK:
  case TR_RMA_RELEASE_LOCK:
    field(x, "win", "%u", e->comm);
    field(x, "target", "%u", e->peer);
    if (e->kind != TR_RMA_RELEASE_LOCK) field(x, "type", "%s", e->tag ? "exclusive" : "shared");
    break;
  case TR_RMA_PUT:
  case TR_RMA_GET:
  case TR_RMA_ATOMIC:
    field(x, "win", "%u", e->comm);
    field(x, "target", "%u", e->peer);
    field(x, "bytes", "%llu", (unsigned long long)e->bytes);
    if (e->kind == TR_RMA_ATOMIC) field(x, "received", "%llu", (unsigned long long)e->received);
    field(x, "id", "%llu", (unsigned long long)e->request);
    break;
  case TR_RMA_OP_COMPLETE_BLOCKING:
    field(x, "win", "%u", e->comm);
    field(x, "id", "%llu", (unsigned long long)e->request);
    break;
  default: /* the name (and the request) alone */ break;
  }
  if (has_request(e)) field(x, "req", "%llu", (unsigned long long)e->request);
}

void tr_plain(const tr_trace *t, const tr_event *e, char *buf, size_t size) {
  text x = {0, buf, size, 0};
  format(&x, t, e);
}

int tr_dump(const tr_trace *t, const tr_event *e, char *buf, size_t size) {
  if (e->kind < TR_MPI_SEND && e->kind != TR_ENTER && e->kind != TR_LEAVE)
    return 0; /* OpenMP and measurement records are not in the MPI dump */
  if (e->kind == TR_MPI_COLLECTIVE_END && e->placeholder) /* root = instances */
    snprintf(buf, size, "unrecorded collectives comm=%u count=%u", e->comm, e->root);
  else format(&(text){1, buf, size, 0}, t, e);
  return 1;
}

char *tr_join(const tr_location *l, size_t from, size_t to) {
  if (to > l->nevents) to = l->nevents;
  size_t len = 1;
  for (size_t i = from; i < to; i++) len += strlen(l->lines[i]) + 1;
  char *s = pu_malloc(len), *p = s;
  for (size_t i = from; i < to; i++) p += sprintf(p, "%s\n", l->lines[i]);
  *p = '\0';
  return s;
}

size_t tr_count(const tr_location *l, const char *line) {
  size_t n = 0;
  for (size_t i = 0; i < l->nevents; i++) n += !strcmp(l->lines[i], line);
  return n;
}
