/* iw_posix.c -- the POSIX I/O wrappers (__wrap_open, ...; iw.h). The real
   call is the plain name: libpomp-io itself is linked without --wrap. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "iw.h"

static uint64_t iov_bytes(const struct iovec *iov, int n) {
  uint64_t sum = 0;
  for (int i = 0; i < n; i++) sum += iov[i].iov_len;
  return sum;
}

/* The mode argument exists only with O_CREAT or O_TMPFILE. */
#define IW_MODE(flags, mode)                                                                       \
  do {                                                                                             \
    if ((flags) & (O_CREAT | O_TMPFILE)) {                                                         \
      va_list ap;                                                                                  \
      va_start(ap, flags);                                                                         \
      mode = va_arg(ap, mode_t);                                                                   \
      va_end(ap);                                                                                  \
    }                                                                                              \
  } while (0)

int __wrap_open(const char *path, int flags, ...) {
  mode_t mode = 0;
  IW_MODE(flags, mode);
  IW_OPEN_CALL(IW_OPEN, path, flags, open(path, flags, mode));
}

int __wrap_open64(const char *path, int flags, ...) {
  mode_t mode = 0;
  IW_MODE(flags, mode);
  IW_OPEN_CALL(IW_OPEN64, path, flags, open64(path, flags, mode));
}

int __wrap_openat(int dir, const char *path, int flags, ...) {
  mode_t mode = 0;
  IW_MODE(flags, mode);
  IW_OPEN_CALL(IW_OPENAT, path, flags, openat(dir, path, flags, mode));
}

int __wrap_openat64(int dir, const char *path, int flags, ...) {
  mode_t mode = 0;
  IW_MODE(flags, mode);
  IW_OPEN_CALL(IW_OPENAT64, path, flags, openat64(dir, path, flags, mode));
}

int __wrap_creat(const char *path, mode_t mode) {
  IW_OPEN_CALL(IW_CREAT, path, O_CREAT | O_WRONLY | O_TRUNC, creat(path, mode));
}

int __wrap_creat64(const char *path, mode_t mode) {
  IW_OPEN_CALL(IW_CREAT64, path, O_CREAT | O_WRONLY | O_TRUNC, creat64(path, mode));
}

int __wrap_close(int fd) { IW_CLOSE_CALL(IW_CLOSE, iw_fd_handle(fd), iw_fd_closed(fd), close(fd)); }

ssize_t __wrap_read(int fd, void *buf, size_t n) {
  IW_TRANSFER(IW_READ, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_READ, n, read(fd, buf, n),
              iw_bytes(r));
}

ssize_t __wrap_write(int fd, const void *buf, size_t n) {
  IW_TRANSFER(IW_WRITE, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_WRITE, n, write(fd, buf, n),
              iw_bytes(r));
}

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t at) {
  IW_TRANSFER(IW_PREAD, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_READ, n, pread(fd, buf, n, at),
              iw_bytes(r));
}

ssize_t __wrap_pread64(int fd, void *buf, size_t n, off64_t at) {
  IW_TRANSFER(IW_PREAD64, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_READ, n, pread64(fd, buf, n, at),
              iw_bytes(r));
}

ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t at) {
  IW_TRANSFER(IW_PWRITE, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_WRITE, n, pwrite(fd, buf, n, at),
              iw_bytes(r));
}

ssize_t __wrap_pwrite64(int fd, const void *buf, size_t n, off64_t at) {
  IW_TRANSFER(IW_PWRITE64, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_WRITE, n,
              pwrite64(fd, buf, n, at), iw_bytes(r));
}

ssize_t __wrap_readv(int fd, const struct iovec *iov, int n) {
  IW_TRANSFER(IW_READV, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_READ, iov_bytes(iov, n),
              readv(fd, iov, n), iw_bytes(r));
}

ssize_t __wrap_writev(int fd, const struct iovec *iov, int n) {
  IW_TRANSFER(IW_WRITEV, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_WRITE, iov_bytes(iov, n),
              writev(fd, iov, n), iw_bytes(r));
}

ssize_t __wrap_preadv(int fd, const struct iovec *iov, int n, off_t at) {
  IW_TRANSFER(IW_PREADV, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_READ, iov_bytes(iov, n),
              preadv(fd, iov, n, at), iw_bytes(r));
}

ssize_t __wrap_preadv64(int fd, const struct iovec *iov, int n, off64_t at) {
  IW_TRANSFER(IW_PREADV64, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_READ, iov_bytes(iov, n),
              preadv64(fd, iov, n, at), iw_bytes(r));
}

ssize_t __wrap_pwritev(int fd, const struct iovec *iov, int n, off_t at) {
  IW_TRANSFER(IW_PWRITEV, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_WRITE, iov_bytes(iov, n),
              pwritev(fd, iov, n, at), iw_bytes(r));
}

ssize_t __wrap_pwritev64(int fd, const struct iovec *iov, int n, off64_t at) {
  IW_TRANSFER(IW_PWRITEV64, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_WRITE, iov_bytes(iov, n),
              pwritev64(fd, iov, n, at), iw_bytes(r));
}

/* A seek moves no data: Enter, the call, IoSeek, Leave. */
#define IW_SEEK_CALL(fn, fd, at, whence, call)                                                     \
  do {                                                                                             \
    iw_call c;                                                                                     \
    if (!iw_enter(&c, fn)) return call;                                                            \
    __typeof__(call) r = call;                                                                     \
    iw_seek(&c, iw_fd_handle(fd), (int64_t)(at), whence, iw_bytes(r));                             \
    iw_leave(&c);                                                                                  \
    return r;                                                                                      \
  } while (0)

off_t __wrap_lseek(int fd, off_t at, int whence) {
  IW_SEEK_CALL(IW_LSEEK, fd, at, whence, lseek(fd, at, whence));
}

off64_t __wrap_lseek64(int fd, off64_t at, int whence) {
  IW_SEEK_CALL(IW_LSEEK64, fd, at, whence, lseek64(fd, at, whence));
}

/* A sync is an operation of mode FLUSH: 0 bytes requested, 0 done. */
int __wrap_fsync(int fd) {
  IW_TRANSFER(IW_FSYNC, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_FLUSH, 0, fsync(fd), iw_bytes(r));
}

int __wrap_fdatasync(int fd) {
  IW_TRANSFER(IW_FDATASYNC, iw_fd_handle(fd), OTF2_IO_OPERATION_MODE_FLUSH, 0, fdatasync(fd),
              iw_bytes(r));
}
