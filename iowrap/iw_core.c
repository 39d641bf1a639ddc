/* iw_core.c -- regions, handle tables and the records of a recorded I/O
   call (iw.h). Every function keeps the real call's errno: the records may
   flush the trace buffer, and the program reads errno after our return. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iw.h"

static const struct {
  const char *name;
  OTF2_RegionRole role;
  pm_io_paradigm paradigm;
} fn_table[IW_FN_COUNT] = {
#define META OTF2_REGION_ROLE_FILE_IO_METADATA
#define DATA OTF2_REGION_ROLE_FILE_IO
    [IW_OPEN] = {"open", META, PM_IO_POSIX},
    [IW_OPEN64] = {"open64", META, PM_IO_POSIX},
    [IW_OPENAT] = {"openat", META, PM_IO_POSIX},
    [IW_OPENAT64] = {"openat64", META, PM_IO_POSIX},
    [IW_CREAT] = {"creat", META, PM_IO_POSIX},
    [IW_CREAT64] = {"creat64", META, PM_IO_POSIX},
    [IW_CLOSE] = {"close", META, PM_IO_POSIX},
    [IW_READ] = {"read", DATA, PM_IO_POSIX},
    [IW_WRITE] = {"write", DATA, PM_IO_POSIX},
    [IW_PREAD] = {"pread", DATA, PM_IO_POSIX},
    [IW_PREAD64] = {"pread64", DATA, PM_IO_POSIX},
    [IW_PWRITE] = {"pwrite", DATA, PM_IO_POSIX},
    [IW_PWRITE64] = {"pwrite64", DATA, PM_IO_POSIX},
    [IW_READV] = {"readv", DATA, PM_IO_POSIX},
    [IW_WRITEV] = {"writev", DATA, PM_IO_POSIX},
    [IW_PREADV] = {"preadv", DATA, PM_IO_POSIX},
    [IW_PREADV64] = {"preadv64", DATA, PM_IO_POSIX},
    [IW_PWRITEV] = {"pwritev", DATA, PM_IO_POSIX},
    [IW_PWRITEV64] = {"pwritev64", DATA, PM_IO_POSIX},
    [IW_LSEEK] = {"lseek", META, PM_IO_POSIX},
    [IW_LSEEK64] = {"lseek64", META, PM_IO_POSIX},
    [IW_FSYNC] = {"fsync", DATA, PM_IO_POSIX},
    [IW_FDATASYNC] = {"fdatasync", DATA, PM_IO_POSIX},
    [IW_FOPEN] = {"fopen", META, PM_IO_ISOC},
    [IW_FOPEN64] = {"fopen64", META, PM_IO_ISOC},
    [IW_FDOPEN] = {"fdopen", META, PM_IO_ISOC},
    [IW_FCLOSE] = {"fclose", META, PM_IO_ISOC},
    [IW_FREAD] = {"fread", DATA, PM_IO_ISOC},
    [IW_FWRITE] = {"fwrite", DATA, PM_IO_ISOC},
    [IW_FFLUSH] = {"fflush", DATA, PM_IO_ISOC},
    [IW_FSEEK] = {"fseek", META, PM_IO_ISOC},
    [IW_FSEEKO] = {"fseeko", META, PM_IO_ISOC},
    [IW_FPRINTF] = {"fprintf", DATA, PM_IO_ISOC},
    [IW_VFPRINTF] = {"vfprintf", DATA, PM_IO_ISOC},
    [IW_FPUTS] = {"fputs", DATA, PM_IO_ISOC},
#undef META
#undef DATA
};

/* The regions are of no OTF2 paradigm (OTF2 3.0 has no I/O one): the role
   says I/O, the source file the interface ("POSIX I/O", "ISO C I/O"). */
static _Atomic uint32_t regions[IW_FN_COUNT]; /* region id + 1; 0: not defined yet */

static uint32_t region_of(enum iw_fn fn) {
  uint32_t r = atomic_load_explicit(&regions[fn], memory_order_relaxed);
  if (r) return r - 1;
  static const char *const interface[] = {"POSIX I/O", "ISO C I/O"};
  r = pm_region_define(fn_table[fn].name, interface[fn_table[fn].paradigm], 0, 0,
                       OTF2_PARADIGM_UNKNOWN, fn_table[fn].role);
  atomic_store_explicit(&regions[fn], r + 1, memory_order_relaxed);
  return r;
}

/* Matching ids: unique per thread, which is where the operations run. */
static _Thread_local uint64_t next_match;

int iw_enter(iw_call *c, enum iw_fn fn) {
  c->l = pm_io_recording();
  if (!c->l) return 0;
  int e = errno;
  c->region = region_of(fn);
  c->t = pm_enter(c->l, c->region);
  errno = e;
  return 1;
}

void iw_op_begin(iw_call *c, uint32_t handle, OTF2_IoOperationMode mode, uint64_t bytes) {
  int e = errno;
  c->handle = handle;
  c->match = next_match++;
  c->mode = mode;
  OTF2_EvtWriter *w = pm_evt_writer_at(c->l, &c->t);
  if (w)
    OTF2_EvtWriter_IoOperationBegin(w, NULL, c->t, handle, mode, OTF2_IO_OPERATION_FLAG_NONE, bytes,
                                    c->match);
  /* profile mode: the bytes the trace's analysis would count (write:
     requested, read: got; docs/PROPERTIES.md io_bytes_*) */
  else if (mode == OTF2_IO_OPERATION_MODE_WRITE && bytes != OTF2_UNDEFINED_UINT64)
    pm_io_bytes(c->l, bytes, 0);
  errno = e;
}

void iw_op_end(iw_call *c, uint64_t bytes) {
  int e = errno;
  c->t = pm_now();
  OTF2_EvtWriter *w = pm_evt_writer_at(c->l, &c->t);
  if (w) OTF2_EvtWriter_IoOperationComplete(w, NULL, c->t, c->handle, bytes, c->match);
  else if (c->mode == OTF2_IO_OPERATION_MODE_READ && bytes != OTF2_UNDEFINED_UINT64)
    pm_io_bytes(c->l, 0, bytes);
  pm_leave_at(c->l, c->region, c->t);
  errno = e;
}

void iw_produced(iw_call *c, FILE *f, uint64_t bytes) {
  iw_op_begin(c, iw_stream_handle(f), OTF2_IO_OPERATION_MODE_WRITE, bytes);
  iw_op_end(c, bytes);
}

void iw_leave(iw_call *c) {
  int e = errno;
  pm_leave(c->l, c->region);
  errno = e;
}

void iw_create(iw_call *c, uint32_t handle, OTF2_IoAccessMode mode, OTF2_IoCreationFlag creation,
               OTF2_IoStatusFlag status) {
  int e = errno;
  c->t = pm_now();
  OTF2_EvtWriter *w = pm_evt_writer_at(c->l, &c->t);
  if (w) OTF2_EvtWriter_IoCreateHandle(w, NULL, c->t, handle, mode, creation, status);
  errno = e;
}

void iw_destroy(iw_call *c, uint32_t handle) {
  int e = errno;
  OTF2_EvtWriter *w = pm_evt_writer_at(c->l, &c->t);
  if (w) OTF2_EvtWriter_IoDestroyHandle(w, NULL, c->t, handle);
  errno = e;
}

void iw_seek(iw_call *c, uint32_t handle, int64_t request, int whence, uint64_t result) {
  int e = errno;
  OTF2_IoSeekOption option = whence == SEEK_CUR   ? OTF2_IO_SEEK_FROM_CURRENT
                             : whence == SEEK_END ? OTF2_IO_SEEK_FROM_END
                                                  : OTF2_IO_SEEK_FROM_START;
  c->t = pm_now();
  OTF2_EvtWriter *w = pm_evt_writer_at(c->l, &c->t);
  if (w) OTF2_EvtWriter_IoSeek(w, NULL, c->t, handle, request, option, result);
  errno = e;
}

/* ------------------------------------------------------------ handle tables */

/* Handle + 1 per descriptor (0: not known yet). Descriptors beyond the
   table share one handle per paradigm ("(descriptor >= 65536)"), and so
   do invalid ones ("(invalid descriptor)": the call fails). */
#define IW_MAX_FD 65536
static _Atomic uint32_t fd_handles[IW_MAX_FD], stream_handles[IW_MAX_FD];

/* A descriptor opened outside our wrappers: named after what it is. */
static uint32_t define_unknown(pm_io_paradigm paradigm, int fd) {
  static const char *const std_names[] = {"stdin", "stdout", "stderr"};
  char path[64], target[4096];
  const char *name = target;
  if (fd >= 0 && fd <= 2) name = std_names[fd];
  else {
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n < 0) n = snprintf(target, sizeof target, "(descriptor %d)", fd);
    target[n] = '\0';
  }
  return pm_io_handle_define(paradigm, name);
}

static uint32_t handle_in(_Atomic uint32_t *table, pm_io_paradigm paradigm, int fd) {
  if (fd < 0) return pm_io_handle_define(paradigm, "(invalid descriptor)");
  if (fd >= IW_MAX_FD) return pm_io_handle_define(paradigm, "(descriptor >= 65536)");
  uint32_t h = atomic_load_explicit(&table[fd], memory_order_relaxed);
  if (h) return h - 1;
  int e = errno;
  h = define_unknown(paradigm, fd);
  atomic_store_explicit(&table[fd], h + 1, memory_order_relaxed);
  errno = e;
  return h;
}

static void set_in(_Atomic uint32_t *table, pm_io_paradigm paradigm, int fd, const char *path) {
  if (fd < 0 || fd >= IW_MAX_FD) return;
  int e = errno;
  uint32_t h = path ? pm_io_handle_define(paradigm, path) : define_unknown(paradigm, fd);
  atomic_store_explicit(&table[fd], h + 1, memory_order_relaxed);
  errno = e;
}

static void clear_in(_Atomic uint32_t *table, int fd) {
  if (fd >= 0 && fd < IW_MAX_FD) atomic_store_explicit(&table[fd], 0, memory_order_relaxed);
}

uint32_t iw_fd_handle(int fd) { return handle_in(fd_handles, PM_IO_POSIX, fd); }
uint32_t iw_stream_handle(FILE *f) { return handle_in(stream_handles, PM_IO_ISOC, fileno(f)); }

void iw_fd_opened(int fd, const char *path) { set_in(fd_handles, PM_IO_POSIX, fd, path); }
void iw_stream_opened(FILE *f, const char *path) {
  set_in(stream_handles, PM_IO_ISOC, fileno(f), path);
}
void iw_fd_closed(int fd) { clear_in(fd_handles, fd); }
void iw_stream_closed(FILE *f) { clear_in(stream_handles, fileno(f)); }

OTF2_IoAccessMode iw_access_mode(int flags) {
  switch (flags & O_ACCMODE) {
  case O_WRONLY: return OTF2_IO_ACCESS_MODE_WRITE_ONLY;
  case O_RDWR: return OTF2_IO_ACCESS_MODE_READ_WRITE;
  default: return OTF2_IO_ACCESS_MODE_READ_ONLY;
  }
}

OTF2_IoCreationFlag iw_creation_flags(int flags) {
  OTF2_IoCreationFlag f = OTF2_IO_CREATION_FLAG_NONE;
  if (flags & O_CREAT) f |= OTF2_IO_CREATION_FLAG_CREATE;
  if (flags & O_TRUNC) f |= OTF2_IO_CREATION_FLAG_TRUNCATE;
  if (flags & O_EXCL) f |= OTF2_IO_CREATION_FLAG_EXCLUSIVE;
  if (flags & O_DIRECTORY) f |= OTF2_IO_CREATION_FLAG_DIRECTORY;
  return f;
}

OTF2_IoStatusFlag iw_status_flags(int flags) {
  OTF2_IoStatusFlag f = OTF2_IO_STATUS_FLAG_NONE;
  if (flags & O_APPEND) f |= OTF2_IO_STATUS_FLAG_APPEND;
  if (flags & O_CLOEXEC) f |= OTF2_IO_STATUS_FLAG_CLOSE_ON_EXEC;
  if (flags & O_NONBLOCK) f |= OTF2_IO_STATUS_FLAG_NON_BLOCKING;
  if (flags & O_SYNC) f |= OTF2_IO_STATUS_FLAG_SYNC;
  return f;
}
