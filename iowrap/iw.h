/*
 * iw.h -- internals of libpomp-io shared by its wrapper files (iw_posix.c,
 * iw_stdio.c) and iw_core.c.
 *
 * pomp-cc links the user's objects with -Wl,--wrap=SYMBOL for every
 * function of iowrap/wrapped.txt: the linker binds their calls of open,
 * fwrite, ... to __wrap_open, __wrap_fwrite, ... here, which record the
 * call and make the real one. Only the user's objects are redirected:
 * libpomp's own I/O (the trace, measure.log), OTF2's and the MPI
 * library's stay unrecorded without any guard, and a call before libpomp
 * started simply starts it (pm_io_recording).
 *
 * A recorded call is Enter [handle or operation records] Leave on the
 * calling thread's location (docs/TRACE.md, "I/O"); the errno of the real
 * call is what the program sees.
 */
#ifndef IW_H
#define IW_H

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "pomp_measure.h"

/* The recorded functions: one region each (name, role). */
enum iw_fn {
  IW_OPEN,
  IW_OPEN64,
  IW_OPENAT,
  IW_OPENAT64,
  IW_CREAT,
  IW_CREAT64,
  IW_CLOSE,
  IW_READ,
  IW_WRITE,
  IW_PREAD,
  IW_PREAD64,
  IW_PWRITE,
  IW_PWRITE64,
  IW_READV,
  IW_WRITEV,
  IW_PREADV,
  IW_PREADV64,
  IW_PWRITEV,
  IW_PWRITEV64,
  IW_LSEEK,
  IW_LSEEK64,
  IW_FSYNC,
  IW_FDATASYNC,
  IW_FOPEN,
  IW_FOPEN64,
  IW_FDOPEN,
  IW_FCLOSE,
  IW_FREAD,
  IW_FWRITE,
  IW_FFLUSH,
  IW_FSEEK,
  IW_FSEEKO,
  IW_FPRINTF,
  IW_VFPRINTF,
  IW_FPUTS,
  IW_FN_COUNT
};

/* One recorded call on the stack of its wrapper. */
typedef struct iw_call {
  pm_location *l; /* NULL: not recorded */
  uint32_t region, handle;
  uint64_t t;                /* timestamp of the records at the current end */
  uint64_t match;            /* matching id of the operation */
  OTF2_IoOperationMode mode; /* of the operation begun */
} iw_call;

/* Starts recording fn: Enter now. 0 when nothing is recorded (POMP_IO=0,
   measurement off, or a call made from inside MPI). */
int iw_enter(iw_call *c, enum iw_fn fn);
/* IoOperationBegin at the Enter's time on handle (bytes requested). */
void iw_op_begin(iw_call *c, uint32_t handle, OTF2_IoOperationMode mode, uint64_t bytes);
/* IoOperationComplete (bytes done; OTF2_UNDEFINED_UINT64 when the call
   failed) and Leave, now. */
void iw_op_end(iw_call *c, uint64_t bytes);
/* A write whose size is known only afterwards (fprintf, fputs): Begin
   at the Enter's time and Complete now, both with the bytes it produced
   (OTF2_UNDEFINED_UINT64: it failed), then Leave. */
void iw_produced(iw_call *c, FILE *f, uint64_t bytes);
/* Leave now (after the handle records of iw_create / iw_destroy / iw_seek). */
void iw_leave(iw_call *c);
/* Handle records: IoCreateHandle now (after the call), IoDestroyHandle at
   the Enter (before the call closes it), IoSeek now. */
void iw_create(iw_call *c, uint32_t handle, OTF2_IoAccessMode mode, OTF2_IoCreationFlag creation,
               OTF2_IoStatusFlag status);
void iw_destroy(iw_call *c, uint32_t handle);
void iw_seek(iw_call *c, uint32_t handle, int64_t request, int whence, uint64_t result);

/* Handles of file descriptors (POSIX) and of streams (ISO C, by the
   stream's descriptor): defined at the first use of a descriptor opened
   outside the program's recorded calls (stdin, inherited ones: named
   after /proc/self/fd), replaced at open, forgotten at close. */
uint32_t iw_fd_handle(int fd);
uint32_t iw_stream_handle(FILE *f);
void iw_fd_opened(int fd, const char *path);
void iw_fd_closed(int fd);
void iw_stream_opened(FILE *f, const char *path);
void iw_stream_closed(FILE *f);

/* OTF2's flags from open(2)'s flags. */
OTF2_IoAccessMode iw_access_mode(int flags);
OTF2_IoCreationFlag iw_creation_flags(int flags);
OTF2_IoStatusFlag iw_status_flags(int flags);

/* bytes of a result: the count, or OTF2_UNDEFINED_UINT64 when it failed. */
static inline uint64_t iw_bytes(long long n) {
  return n >= 0 ? (uint64_t)n : OTF2_UNDEFINED_UINT64;
}

/* A data transfer: Enter, IoOperationBegin(request), the call,
   IoOperationComplete(result), Leave. `result` may use the call's return
   value as r. */
#define IW_TRANSFER(fn, handle, mode, request, call, result)                                       \
  do {                                                                                             \
    iw_call c;                                                                                     \
    if (!iw_enter(&c, fn)) return call;                                                            \
    iw_op_begin(&c, handle, mode, request);                                                        \
    __typeof__(call) r = call;                                                                     \
    iw_op_end(&c, result);                                                                         \
    return r;                                                                                      \
  } while (0)

/* A close: Enter, IoDestroyHandle (while the handle still names the
   file), `forget` (the table entry), the call, Leave. */
#define IW_CLOSE_CALL(fn, handle, forget, call)                                                    \
  do {                                                                                             \
    iw_call c;                                                                                     \
    if (!iw_enter(&c, fn)) return forget, call;                                                    \
    iw_destroy(&c, handle);                                                                        \
    forget;                                                                                        \
    int r = call;                                                                                  \
    iw_leave(&c);                                                                                  \
    return r;                                                                                      \
  } while (0)

/* Enter, the open, IoCreateHandle with the descriptor's new handle, Leave. */
#define IW_OPEN_CALL(fn, path, flags, call)                                                        \
  do {                                                                                             \
    iw_call c;                                                                                     \
    if (!iw_enter(&c, fn)) return call;                                                            \
    int fd = call;                                                                                 \
    if (fd >= 0) {                                                                                 \
      iw_fd_opened(fd, path);                                                                      \
      iw_create(&c, iw_fd_handle(fd), iw_access_mode(flags), iw_creation_flags(flags),             \
                iw_status_flags(flags));                                                           \
    }                                                                                              \
    iw_leave(&c);                                                                                  \
    return fd;                                                                                     \
  } while (0)

#endif /* IW_H */
