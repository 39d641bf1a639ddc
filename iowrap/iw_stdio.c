/* iw_stdio.c -- the ISO C stream wrappers (__wrap_fopen, ...; iw.h). The
   bytes of a formatted write are those it produced (its return value): the
   operation's records follow the call, both stamped as usual (Begin at the
   Enter's time: nothing else is written on the location in between).
   printf, puts and putc/fputc are not recorded (terminal output, and a
   per-character call would cost more to record than to make). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iw.h"

static void stream_created(iw_call *c, FILE *f, const char *path, const char *mode) {
  iw_stream_opened(f, path);
  int plus = mode[0] && mode[1] == '+' ? 1 : mode[0] && mode[1] && mode[2] == '+';
  OTF2_IoAccessMode access = plus             ? OTF2_IO_ACCESS_MODE_READ_WRITE
                             : mode[0] == 'r' ? OTF2_IO_ACCESS_MODE_READ_ONLY
                                              : OTF2_IO_ACCESS_MODE_WRITE_ONLY;
  OTF2_IoCreationFlag creation = mode[0] == 'w'
                                     ? OTF2_IO_CREATION_FLAG_CREATE | OTF2_IO_CREATION_FLAG_TRUNCATE
                                 : mode[0] == 'a' ? OTF2_IO_CREATION_FLAG_CREATE
                                                  : OTF2_IO_CREATION_FLAG_NONE;
  OTF2_IoStatusFlag status = mode[0] == 'a' ? OTF2_IO_STATUS_FLAG_APPEND : OTF2_IO_STATUS_FLAG_NONE;
  iw_create(c, iw_stream_handle(f), access, creation, status);
}

#define IW_FOPEN_CALL(fn, path, mode, call)                                                        \
  do {                                                                                             \
    iw_call c;                                                                                     \
    if (!iw_enter(&c, fn)) return call;                                                            \
    FILE *f = call;                                                                                \
    if (f) stream_created(&c, f, path, mode);                                                      \
    iw_leave(&c);                                                                                  \
    return f;                                                                                      \
  } while (0)

FILE *__wrap_fopen(const char *path, const char *mode) {
  IW_FOPEN_CALL(IW_FOPEN, path, mode, fopen(path, mode));
}

FILE *__wrap_fopen64(const char *path, const char *mode) {
  IW_FOPEN_CALL(IW_FOPEN64, path, mode, fopen64(path, mode));
}

/* The stream is named after the descriptor's file (NULL: /proc/self/fd). */
FILE *__wrap_fdopen(int fd, const char *mode) {
  IW_FOPEN_CALL(IW_FDOPEN, NULL, mode, fdopen(fd, mode));
}

int __wrap_fclose(FILE *f) {
  IW_CLOSE_CALL(IW_FCLOSE, iw_stream_handle(f), iw_stream_closed(f), fclose(f));
}

size_t __wrap_fread(void *buf, size_t size, size_t n, FILE *f) {
  IW_TRANSFER(IW_FREAD, iw_stream_handle(f), OTF2_IO_OPERATION_MODE_READ, (uint64_t)size * n,
              fread(buf, size, n, f), (uint64_t)r * size);
}

size_t __wrap_fwrite(const void *buf, size_t size, size_t n, FILE *f) {
  IW_TRANSFER(IW_FWRITE, iw_stream_handle(f), OTF2_IO_OPERATION_MODE_WRITE, (uint64_t)size * n,
              fwrite(buf, size, n, f), (uint64_t)r * size);
}

/* fflush(NULL) flushes every output stream: a handle of its own. */
int __wrap_fflush(FILE *f) {
  iw_call c;
  if (!iw_enter(&c, IW_FFLUSH)) return fflush(f);
  uint32_t h = f ? iw_stream_handle(f) : pm_io_handle_define(PM_IO_ISOC, "(all streams)");
  iw_op_begin(&c, h, OTF2_IO_OPERATION_MODE_FLUSH, 0);
  int r = fflush(f);
  iw_op_end(&c, r == 0 ? 0 : OTF2_UNDEFINED_UINT64);
  return r;
}

#define IW_FSEEK_CALL(fn, f, at, whence, call)                                                     \
  do {                                                                                             \
    iw_call c;                                                                                     \
    if (!iw_enter(&c, fn)) return call;                                                            \
    int r = call;                                                                                  \
    iw_seek(&c, iw_stream_handle(f), (int64_t)(at), whence,                                        \
            r == 0 ? iw_bytes(ftello(f)) : OTF2_UNDEFINED_UINT64);                                 \
    iw_leave(&c);                                                                                  \
    return r;                                                                                      \
  } while (0)

int __wrap_fseek(FILE *f, long at, int whence) {
  IW_FSEEK_CALL(IW_FSEEK, f, at, whence, fseek(f, at, whence));
}

int __wrap_fseeko(FILE *f, off_t at, int whence) {
  IW_FSEEK_CALL(IW_FSEEKO, f, at, whence, fseeko(f, at, whence));
}

/* A formatted write: the call first, then Begin (at the Enter's time) and
   Complete with the bytes it produced. */
static int formatted(enum iw_fn fn, FILE *f, const char *fmt, va_list ap) {
  iw_call c;
  if (!iw_enter(&c, fn)) return vfprintf(f, fmt, ap);
  int r = vfprintf(f, fmt, ap);
  iw_produced(&c, f, iw_bytes(r));
  return r;
}

int __wrap_fprintf(FILE *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = formatted(IW_FPRINTF, f, fmt, ap);
  va_end(ap);
  return r;
}

int __wrap_vfprintf(FILE *f, const char *fmt, va_list ap) {
  return formatted(IW_VFPRINTF, f, fmt, ap);
}

int __wrap_fputs(const char *s, FILE *f) {
  iw_call c;
  if (!iw_enter(&c, IW_FPUTS)) return fputs(s, f);
  int r = fputs(s, f);
  iw_produced(&c, f, r >= 0 ? strlen(s) : OTF2_UNDEFINED_UINT64);
  return r;
}
