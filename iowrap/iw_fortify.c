/* iw_fortify.c -- the _FORTIFY_SOURCE twins (iw.h). With
   -D_FORTIFY_SOURCE (the default of some distributions' compilers) and
   optimisation, glibc's headers turn read into __read_chk, fprintf into
   __fprintf_chk, open with a constant flag into __open_2, ...: the program
   then calls those, so they are wrapped too, as regions of the plain
   function's name (a report reads the same with or without fortification).
   glibc declares them only for fortified units: the prototypes are here. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>

#include "iw.h"

ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t at, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t at, size_t buflen);
size_t __fread_chk(void *buf, size_t buflen, size_t size, size_t n, FILE *f);
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dir, const char *path, int flags);
int __openat64_2(int dir, const char *path, int flags);

ssize_t __wrap___read_chk(int fd, void *buf, size_t n, size_t buflen) {
  IW_TRANSFER(IW_READ, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_READ, n,
              __read_chk(fd, buf, n, buflen), iw_bytes(r));
}

ssize_t __wrap___pread_chk(int fd, void *buf, size_t n, off_t at, size_t buflen) {
  IW_TRANSFER(IW_PREAD, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_READ, n,
              __pread_chk(fd, buf, n, at, buflen), iw_bytes(r));
}

ssize_t __wrap___pread64_chk(int fd, void *buf, size_t n, off64_t at, size_t buflen) {
  IW_TRANSFER(IW_PREAD64, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_READ, n,
              __pread64_chk(fd, buf, n, at, buflen), iw_bytes(r));
}

size_t __wrap___fread_chk(void *buf, size_t buflen, size_t size, size_t n, FILE *f) {
  IW_TRANSFER(IW_FREAD, iw_stream_handle(f), OTF2_IO_OPERATION_MODE_READ, (uint64_t)size * n,
              __fread_chk(buf, buflen, size, n, f), (uint64_t)r * size);
}

int __wrap___vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap) {
  iw_call c;
  if (!iw_enter(&c, IW_VFPRINTF)) return __vfprintf_chk(f, flag, fmt, ap);
  int r = __vfprintf_chk(f, flag, fmt, ap);
  iw_produced(&c, f, iw_bytes(r));
  return r;
}

int __wrap___fprintf_chk(FILE *f, int flag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  iw_call c;
  int r;
  if (!iw_enter(&c, IW_FPRINTF)) r = __vfprintf_chk(f, flag, fmt, ap);
  else {
    r = __vfprintf_chk(f, flag, fmt, ap);
    iw_produced(&c, f, iw_bytes(r));
  }
  va_end(ap);
  return r;
}

/* The fortified opens take no mode: they are the calls without O_CREAT. */
int __wrap___open_2(const char *path, int flags) {
  IW_OPEN_CALL(IW_OPEN, path, flags, __open_2(path, flags));
}

int __wrap___open64_2(const char *path, int flags) {
  IW_OPEN_CALL(IW_OPEN64, path, flags, __open64_2(path, flags));
}

int __wrap___openat_2(int dir, const char *path, int flags) {
  IW_OPEN_CALL(IW_OPENAT, path, flags, __openat_2(dir, path, flags));
}

int __wrap___openat64_2(int dir, const char *path, int flags) {
  IW_OPEN_CALL(IW_OPENAT64, path, flags, __openat64_2(dir, path, flags));
}
