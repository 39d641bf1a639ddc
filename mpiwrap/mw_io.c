/* mw_io.c -- MPI-IO (issue 19): the MPI_File_* wrappers, written by hand
 * (MPICH declares their PMPI prototypes without parameter names, so
 * gen_wrappers.py cannot; mpi_wrappers.tbl's "manual" rows give them
 * their regions, roles file_io / file_io_metadata).
 *
 * A recorded call is Enter [I/O records] Leave like libpomp-io's
 * (docs/TRACE.md, "I/O"): open and close create and destroy the file's
 * handle (paradigm MPI-IO, one per file name), a blocking read or write is
 * IoOperationBegin (bytes requested: count x type size; flag COLLECTIVE for
 * _all, _at_all, _ordered) ... IoOperationComplete (bytes the status
 * reports), a non-blocking one writes its Begin (flag NON_BLOCKING) and
 * IoOperationIssued in its call and the Complete in the Wait/Test that
 * completes its request (mw_io_completed, from mw_request.c), set_view,
 * seek and sync are metadata (sync: an operation of mode FLUSH). A
 * blocking collective transfer is also a collective instance on the file's
 * communicator (MpiCollectiveBegin/End: pomp-analyze's
 * mpi_io_collective_wait). Under
 * POMP_IO=0 the calls are plain MPI regions, without I/O records.
 * Split collectives (_begin/_end) are not wrapped.
 */
#include <pthread.h>
#include <stdlib.h>

#include "mw.h"
#include "pomp_util.h"

/* ------------------------------------------------------ handles, requests */

/* The open files and the outstanding non-blocking operations: few, and
   each MPI-IO call costs microseconds, so a locked array is enough. */
typedef struct io_file {
  MPI_File fh;
  uint32_t handle;
  const mw_comm *comm; /* the communicator it was opened on (NULL: unknown) */
} io_file;
typedef struct io_op {
  MPI_Request req;
  uint32_t handle;
  uint64_t match;
  OTF2_IoOperationMode mode; /* for profile mode's bytes at completion */
} io_op;

static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;
static io_file *files;
static size_t nfiles, cap_files;
static io_op *ops;
static size_t nops, cap_ops;
static _Atomic size_t pending_ops; /* nops, read without the lock */
static _Atomic uint64_t next_match;

static uint32_t handle_of(MPI_File fh) {
  uint32_t h = PM_NO_REGION;
  pthread_mutex_lock(&io_lock);
  for (size_t i = 0; i < nfiles && h == PM_NO_REGION; i++)
    if (files[i].fh == fh) h = files[i].handle;
  pthread_mutex_unlock(&io_lock);
  /* a file opened while nothing was recorded: known by its kind only */
  return h != PM_NO_REGION ? h : pm_io_handle_define(PM_IO_MPI, "(MPI_File)");
}

/* The communicator fh was opened on, NULL if unknown. */
static const mw_comm *comm_of(MPI_File fh) {
  const mw_comm *c = NULL;
  pthread_mutex_lock(&io_lock);
  for (size_t i = 0; i < nfiles && !c; i++)
    if (files[i].fh == fh) c = files[i].comm;
  pthread_mutex_unlock(&io_lock);
  return c;
}

static void file_opened(MPI_File fh, uint32_t handle, MPI_Comm comm) {
  pthread_mutex_lock(&io_lock);
  io_file f = {fh, handle, mw_comm_of(comm)};
  PU_PUSH(files, nfiles, cap_files, f);
  pthread_mutex_unlock(&io_lock);
}

static void file_closed(MPI_File fh) {
  pthread_mutex_lock(&io_lock);
  for (size_t i = 0; i < nfiles; i++)
    if (files[i].fh == fh) {
      files[i] = files[--nfiles];
      break;
    }
  pthread_mutex_unlock(&io_lock);
}

/* ------------------------------------------------------------- records */

static int io_on(mw_frame *f) { return f->l && pm_io_recording(); }

static void create_record(mw_frame *f, uint32_t handle, int amode) {
  OTF2_IoAccessMode mode = amode & MPI_MODE_RDWR     ? OTF2_IO_ACCESS_MODE_READ_WRITE
                           : amode & MPI_MODE_WRONLY ? OTF2_IO_ACCESS_MODE_WRITE_ONLY
                                                     : OTF2_IO_ACCESS_MODE_READ_ONLY;
  OTF2_IoCreationFlag creation = OTF2_IO_CREATION_FLAG_NONE;
  if (amode & MPI_MODE_CREATE) creation |= OTF2_IO_CREATION_FLAG_CREATE;
  if (amode & MPI_MODE_EXCL) creation |= OTF2_IO_CREATION_FLAG_EXCLUSIVE;
  OTF2_IoStatusFlag status = OTF2_IO_STATUS_FLAG_NONE;
  if (amode & MPI_MODE_APPEND) status |= OTF2_IO_STATUS_FLAG_APPEND;
  if (amode & MPI_MODE_DELETE_ON_CLOSE) status |= OTF2_IO_STATUS_FLAG_DELETE_ON_CLOSE;
  OTF2_EvtWriter *w = mw_writer(f);
  if (w) OTF2_EvtWriter_IoCreateHandle(w, NULL, f->t, handle, mode, creation, status);
}

static uint64_t begin_record(mw_frame *f, uint32_t handle, OTF2_IoOperationMode mode,
                             OTF2_IoOperationFlag flags, uint64_t bytes) {
  uint64_t match = atomic_fetch_add_explicit(&next_match, 1, memory_order_relaxed);
  OTF2_EvtWriter *w = mw_writer(f);
  if (w) OTF2_EvtWriter_IoOperationBegin(w, NULL, f->t, handle, mode, flags, bytes, match);
  /* profile mode: what a write was handed (docs/PROPERTIES.md io_bytes_*) */
  else if (mode == OTF2_IO_OPERATION_MODE_WRITE) pm_io_bytes(f->l, bytes, 0);
  return match;
}

static void complete_record(mw_frame *f, uint32_t handle, OTF2_IoOperationMode mode, uint64_t bytes,
                            uint64_t match) {
  OTF2_EvtWriter *w = mw_writer(f);
  if (w) OTF2_EvtWriter_IoOperationComplete(w, NULL, f->t, handle, bytes, match);
  /* profile mode: what a read got, at the call that completed it */
  else if (mode == OTF2_IO_OPERATION_MODE_READ && bytes != OTF2_UNDEFINED_UINT64)
    pm_io_bytes(f->l, 0, bytes);
}

/* The bytes a finished operation moved: its status's count; undefined
   when it failed. */
static uint64_t done_bytes(int rc, const MPI_Status *s) {
  return rc == MPI_SUCCESS ? mw_status_bytes(s) : OTF2_UNDEFINED_UINT64;
}

void mw_io_completed(mw_frame *f, MPI_Request req, const MPI_Status *s) {
  if (!atomic_load_explicit(&pending_ops, memory_order_relaxed) || req == MPI_REQUEST_NULL) return;
  io_op op = {MPI_REQUEST_NULL, 0, 0, OTF2_IO_OPERATION_MODE_READ};
  pthread_mutex_lock(&io_lock);
  for (size_t i = 0; i < nops; i++)
    if (ops[i].req == req) {
      op = ops[i];
      ops[i] = ops[--nops];
      atomic_store_explicit(&pending_ops, nops, memory_order_relaxed);
      break;
    }
  pthread_mutex_unlock(&io_lock);
  if (op.req != MPI_REQUEST_NULL && f->l)
    complete_record(f, op.handle, op.mode, mw_status_bytes(s), op.match);
}

/* --------------------------------------------------------------- wrappers */

/* Starts recording a blocking transfer; a collective one (_all, _at_all,
   _ordered) is also an instance of a collective on the file's
   communicator, *coll (MpiCollectiveBegin/End around its I/O records, so
   that pomp-analyze finds who waited in it: mpi_io_collective_wait). */
static int begin_transfer(mw_frame *f, enum mw_fn fn, MPI_File fh, int collective,
                          const mw_comm **coll) {
  *coll = collective ? comm_of(fh) : NULL;
  return *coll ? mw_begin_coll_on(f, fn, *coll) : mw_begin(f, fn);
}

/* A blocking read or write of count x type: Begin, the call, Complete. */
#define MW_IO_BLOCKING(name, mode, flags, count, type, call)                                       \
  do {                                                                                             \
    mw_frame f;                                                                                    \
    const mw_comm *coll;                                                                           \
    if (!begin_transfer(&f, MW_FN_##name, fh, (flags) == COL, &coll)) return P##call;              \
    int io = io_on(&f);                                                                            \
    uint32_t h = io ? handle_of(fh) : 0;                                                           \
    uint64_t match = io ? begin_record(&f, h, mode, flags, mw_type_bytes(count, type)) : 0;        \
    status = mw_status(&f, status);                                                                \
    mw_calling(&f);                                                                                \
    int rc = P##call;                                                                              \
    mw_returned(&f);                                                                               \
    if (io) complete_record(&f, h, mode, done_bytes(rc, status), match);                           \
    if (coll) mw_coll_end_on(&f, coll);                                                            \
    mw_leave(&f);                                                                                  \
    return rc;                                                                                     \
  } while (0)

/* A non-blocking one: Begin and Issued in the call, Complete at its
   request's completion (mw_io_completed). */
#define MW_IO_START(name, mode, flags, count, type, call)                                          \
  do {                                                                                             \
    mw_frame f;                                                                                    \
    if (!mw_begin(&f, MW_FN_##name)) return P##call;                                               \
    int io = io_on(&f);                                                                            \
    uint32_t h = io ? handle_of(fh) : 0;                                                           \
    OTF2_IoOperationFlag fl = (flags) | OTF2_IO_OPERATION_FLAG_NON_BLOCKING;                       \
    uint64_t match = io ? begin_record(&f, h, mode, fl, mw_type_bytes(count, type)) : 0;           \
    mw_calling(&f);                                                                                \
    int rc = P##call;                                                                              \
    mw_returned(&f);                                                                               \
    if (io) issued(&f, h, mode, match, rc, *request);                                              \
    mw_leave(&f);                                                                                  \
    return rc;                                                                                     \
  } while (0)

static void issued(mw_frame *f, uint32_t h, OTF2_IoOperationMode mode, uint64_t match, int rc,
                   MPI_Request req) {
  OTF2_EvtWriter *w;
  if (rc != MPI_SUCCESS) { /* nothing in flight: the operation ends here */
    complete_record(f, h, mode, OTF2_UNDEFINED_UINT64, match);
    return;
  }
  if ((w = mw_writer(f))) OTF2_EvtWriter_IoOperationIssued(w, NULL, f->t, h, match);
  pthread_mutex_lock(&io_lock);
  io_op op = {req, h, match, mode};
  PU_PUSH(ops, nops, cap_ops, op);
  atomic_store_explicit(&pending_ops, nops, memory_order_relaxed);
  pthread_mutex_unlock(&io_lock);
}

#define RD OTF2_IO_OPERATION_MODE_READ
#define WR OTF2_IO_OPERATION_MODE_WRITE
#define IND OTF2_IO_OPERATION_FLAG_NONE
#define COL OTF2_IO_OPERATION_FLAG_COLLECTIVE

/* One blocking wrapper per (function, count type): explicit offset or not. */
#define MW_IO_RW(name, cnt_t, mode, flags, buf_t)                                                  \
  int MPI_##name(MPI_File fh, buf_t buf, cnt_t count, MPI_Datatype datatype, MPI_Status *status) { \
    MW_IO_BLOCKING(name, mode, flags, count, datatype,                                             \
                   MPI_##name(fh, buf, count, datatype, status));                                  \
  }
#define MW_IO_RW_AT(name, cnt_t, mode, flags, buf_t)                                               \
  int MPI_##name(MPI_File fh, MPI_Offset offset, buf_t buf, cnt_t count, MPI_Datatype datatype,    \
                 MPI_Status *status) {                                                             \
    MW_IO_BLOCKING(name, mode, flags, count, datatype,                                             \
                   MPI_##name(fh, offset, buf, count, datatype, status));                          \
  }
#define MW_IO_I(name, cnt_t, mode, flags, buf_t)                                                   \
  int MPI_##name(MPI_File fh, buf_t buf, cnt_t count, MPI_Datatype datatype,                       \
                 MPI_Request *request) {                                                           \
    MW_IO_START(name, mode, flags, count, datatype,                                                \
                MPI_##name(fh, buf, count, datatype, request));                                    \
  }
#define MW_IO_I_AT(name, cnt_t, mode, flags, buf_t)                                                \
  int MPI_##name(MPI_File fh, MPI_Offset offset, buf_t buf, cnt_t count, MPI_Datatype datatype,    \
                 MPI_Request *request) {                                                           \
    MW_IO_START(name, mode, flags, count, datatype,                                                \
                MPI_##name(fh, offset, buf, count, datatype, request));                            \
  }

/* Every read/write twin: int count, and MPI-4's MPI_Count (_c). */
#define MW_IO_BOTH(kind, name, mode, flags, buf_t)                                                 \
  kind(name, int, mode, flags, buf_t) MW_IO_LARGE(kind, name, mode, flags, buf_t)
#if MPI_VERSION >= 4
#define MW_IO_LARGE(kind, name, mode, flags, buf_t) kind(name##_c, MPI_Count, mode, flags, buf_t)
#else
#define MW_IO_LARGE(kind, name, mode, flags, buf_t)
#endif

MW_IO_BOTH(MW_IO_RW, File_read, RD, IND, void *)
MW_IO_BOTH(MW_IO_RW, File_read_all, RD, COL, void *)
MW_IO_BOTH(MW_IO_RW, File_read_shared, RD, IND, void *)
MW_IO_BOTH(MW_IO_RW, File_read_ordered, RD, COL, void *)
MW_IO_BOTH(MW_IO_RW_AT, File_read_at, RD, IND, void *)
MW_IO_BOTH(MW_IO_RW_AT, File_read_at_all, RD, COL, void *)
MW_IO_BOTH(MW_IO_RW, File_write, WR, IND, const void *)
MW_IO_BOTH(MW_IO_RW, File_write_all, WR, COL, const void *)
MW_IO_BOTH(MW_IO_RW, File_write_shared, WR, IND, const void *)
MW_IO_BOTH(MW_IO_RW, File_write_ordered, WR, COL, const void *)
MW_IO_BOTH(MW_IO_RW_AT, File_write_at, WR, IND, const void *)
MW_IO_BOTH(MW_IO_RW_AT, File_write_at_all, WR, COL, const void *)
MW_IO_BOTH(MW_IO_I, File_iread, RD, IND, void *)
MW_IO_BOTH(MW_IO_I, File_iread_all, RD, COL, void *)
MW_IO_BOTH(MW_IO_I, File_iread_shared, RD, IND, void *)
MW_IO_BOTH(MW_IO_I_AT, File_iread_at, RD, IND, void *)
MW_IO_BOTH(MW_IO_I_AT, File_iread_at_all, RD, COL, void *)
MW_IO_BOTH(MW_IO_I, File_iwrite, WR, IND, const void *)
MW_IO_BOTH(MW_IO_I, File_iwrite_all, WR, COL, const void *)
MW_IO_BOTH(MW_IO_I, File_iwrite_shared, WR, IND, const void *)
MW_IO_BOTH(MW_IO_I_AT, File_iwrite_at, WR, IND, const void *)
MW_IO_BOTH(MW_IO_I_AT, File_iwrite_at_all, WR, COL, const void *)

/* The handle is known from here on even when the open is not recorded
   (POMP_IO=0 or POMP_Off now, on later): its operations then name it. */
int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh) {
  mw_frame f;
  int recorded = mw_begin(&f, MW_FN_File_open);
  if (recorded) mw_calling(&f);
  int rc = PMPI_File_open(comm, filename, amode, info, fh);
  if (!recorded) {
    if (rc == MPI_SUCCESS) file_opened(*fh, pm_io_handle_define(PM_IO_MPI, filename), comm);
    return rc;
  }
  mw_returned(&f);
  if (rc == MPI_SUCCESS) {
    uint32_t h = pm_io_handle_define(PM_IO_MPI, filename);
    file_opened(*fh, h, comm);
    if (io_on(&f)) create_record(&f, h, amode);
  }
  mw_leave(&f);
  return rc;
}

int MPI_File_close(MPI_File *fh) {
  mw_frame f;
  MPI_File file = *fh;
  if (!mw_begin(&f, MW_FN_File_close)) {
    file_closed(file);
    return PMPI_File_close(fh);
  }
  OTF2_EvtWriter *w;
  if (io_on(&f) && (w = mw_writer(&f)))
    OTF2_EvtWriter_IoDestroyHandle(w, NULL, f.t, handle_of(file));
  file_closed(file);
  mw_calling(&f);
  int rc = PMPI_File_close(fh);
  mw_returned(&f);
  mw_leave(&f);
  return rc;
}

int MPI_File_sync(MPI_File fh) {
  mw_frame f;
  if (!mw_begin(&f, MW_FN_File_sync)) return PMPI_File_sync(fh);
  int io = io_on(&f);
  uint32_t h = io ? handle_of(fh) : 0;
  uint64_t match = io ? begin_record(&f, h, OTF2_IO_OPERATION_MODE_FLUSH, COL, 0) : 0;
  mw_calling(&f);
  int rc = PMPI_File_sync(fh);
  mw_returned(&f);
  if (io)
    complete_record(&f, h, OTF2_IO_OPERATION_MODE_FLUSH,
                    rc == MPI_SUCCESS ? 0 : OTF2_UNDEFINED_UINT64, match);
  mw_leave(&f);
  return rc;
}

/* Metadata without a record of its own: the region says it. */
#define MW_IO_PLAIN(name, decl, args)                                                              \
  int MPI_##name decl {                                                                            \
    mw_frame f;                                                                                    \
    if (!mw_begin(&f, MW_FN_##name)) return PMPI_##name args;                                      \
    mw_calling(&f);                                                                                \
    int rc = PMPI_##name args;                                                                     \
    mw_returned(&f);                                                                               \
    mw_leave(&f);                                                                                  \
    return rc;                                                                                     \
  }

MW_IO_PLAIN(File_set_view,
            (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
             const char *datarep, MPI_Info info),
            (fh, disp, etype, filetype, datarep, info))
MW_IO_PLAIN(File_set_size, (MPI_File fh, MPI_Offset size), (fh, size))
MW_IO_PLAIN(File_preallocate, (MPI_File fh, MPI_Offset size), (fh, size))
MW_IO_PLAIN(File_delete, (const char *filename, MPI_Info info), (filename, info))

/* A seek moves the file pointer: IoSeek (result unknown to MPI: the
   request again). */
static int seek(enum mw_fn fn, MPI_File fh, MPI_Offset offset, int whence,
                int (*call)(MPI_File, MPI_Offset, int)) {
  mw_frame f;
  if (!mw_begin(&f, fn)) return call(fh, offset, whence);
  mw_calling(&f);
  int rc = call(fh, offset, whence);
  mw_returned(&f);
  OTF2_EvtWriter *w;
  if (rc == MPI_SUCCESS && io_on(&f) && (w = mw_writer(&f))) {
    OTF2_IoSeekOption opt = whence == MPI_SEEK_CUR   ? OTF2_IO_SEEK_FROM_CURRENT
                            : whence == MPI_SEEK_END ? OTF2_IO_SEEK_FROM_END
                                                     : OTF2_IO_SEEK_FROM_START;
    OTF2_EvtWriter_IoSeek(w, NULL, f.t, handle_of(fh), (int64_t)offset, opt, OTF2_UNDEFINED_UINT64);
  }
  mw_leave(&f);
  return rc;
}

int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
  return seek(MW_FN_File_seek, fh, offset, whence, PMPI_File_seek);
}

int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
  return seek(MW_FN_File_seek_shared, fh, offset, whence, PMPI_File_seek_shared);
}
