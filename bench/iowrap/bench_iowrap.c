/*
 * bench_iowrap.c -- what libpomp-io adds to an I/O call.
 *
 *   bench-iowrap [CALLS_PER_BLOCK]      (POMP_EXPERIMENT=/tmp/... recommended)
 *
 * Linked as pomp-cc links a program (-Wl,--wrap= for every function of
 * iowrap/wrapped.txt), so write() goes through __wrap_write and records,
 * while __real_write() is the plain libc call: both are timed in the same
 * run, in alternating blocks, and the fastest block of each counts (the
 * machine is shared and noisy).  Calls:
 *   write   8 bytes to /dev/null (a system call that does nothing)
 *   pread   8 bytes of a 4 KiB file in the page cache
 *   fwrite  8 bytes into a stdio buffer of /dev/null (no system call in
 *           most calls: the cheapest call there is to record)
 *   lseek   to offset 0 of the same file
 * Each also with recording off (POMP_Off: the wrapper's tests only).  A
 * recorded data transfer writes four records (Enter, IoOperationBegin,
 * IoOperationComplete, Leave) and reads the clock twice.  Target: under
 * 100 ns per call above the plain call.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "pomp.h"
#include "bench_clock.h"

ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __real_pread(int fd, void *buf, size_t n, off_t at);
size_t __real_fwrite(const void *buf, size_t size, size_t n, FILE *f);
off_t __real_lseek(int fd, off_t at, int whence);

#define BLOCKS 25

enum variant { PLAIN, RECORDED, OFF, VARIANTS };
static const char *const variant_names[VARIANTS] = {"plain ns", "record ns", "Off ns"};

static int null_fd, file_fd;
static FILE *null_stream;
static char buf[4096];

/* ns per call of n calls of one kind, plain or through the wrapper. */
typedef double (*bench_fn)(long n, int plain);

static double bench_write(long n, int plain) {
  double t0 = bench_now_ns();
  for (long i = 0; i < n; i++)
    if ((plain ? __real_write(null_fd, buf, 8) : write(null_fd, buf, 8)) != 8) abort();
  return (bench_now_ns() - t0) / (double)n;
}

static double bench_pread(long n, int plain) {
  double t0 = bench_now_ns();
  for (long i = 0; i < n; i++)
    if ((plain ? __real_pread(file_fd, buf, 8, 64) : pread(file_fd, buf, 8, 64)) != 8) abort();
  return (bench_now_ns() - t0) / (double)n;
}

static double bench_fwrite(long n, int plain) {
  double t0 = bench_now_ns();
  for (long i = 0; i < n; i++)
    if ((plain ? __real_fwrite(buf, 1, 8, null_stream) : fwrite(buf, 1, 8, null_stream)) != 8)
      abort();
  return (bench_now_ns() - t0) / (double)n;
}

static double bench_lseek(long n, int plain) {
  double t0 = bench_now_ns();
  for (long i = 0; i < n; i++)
    if ((plain ? __real_lseek(file_fd, 0, SEEK_SET) : lseek(file_fd, 0, SEEK_SET)) != 0) abort();
  return (bench_now_ns() - t0) / (double)n;
}

static const struct {
  const char *name;
  bench_fn fn;
} cases[] = {{"write", bench_write},
             {"pread", bench_pread},
             {"fwrite", bench_fwrite},
             {"lseek", bench_lseek}};

/* The fastest block of each variant, blocks alternating. */
static void run_case(int c, long calls, double best[VARIANTS]) {
  for (int v = 0; v < VARIANTS; v++) best[v] = 1e300;
  for (int b = 0; b < BLOCKS; b++)
    for (int v = 0; v < VARIANTS; v++) {
      if (v == OFF) POMP_Off();
      double ns = cases[c].fn(calls, v == PLAIN);
      if (v == OFF) POMP_On();
      if (ns < best[v]) best[v] = ns;
    }
}

int main(int argc, char **argv) {
  long calls = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
  if (calls < 1) {
    fprintf(stderr, "bench-iowrap: CALLS_PER_BLOCK must be a positive number\n");
    return 2;
  }
  null_fd = open("/dev/null", O_WRONLY);
  null_stream = fopen("/dev/null", "w");
  char path[] = "/tmp/bench-iowrap-XXXXXX";
  file_fd = mkstemp(path);
  if (null_fd < 0 || !null_stream || file_fd < 0 || __real_write(file_fd, buf, sizeof buf) < 0) {
    perror("bench-iowrap");
    return 1;
  }
  unlink(path);
  printf("bench-iowrap: %ld calls per block, best of %d blocks each\n", calls, BLOCKS);
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    double best[VARIANTS];
    run_case((int)c, calls, best);
    printf("%s overhead: %.1f ns per call above the plain call (%s %.1f, %s %.1f, %s %.1f; "
           "ratio %.2f)\n",
           cases[c].name, best[RECORDED] - best[PLAIN], variant_names[PLAIN], best[PLAIN],
           variant_names[RECORDED], best[RECORDED], variant_names[OFF], best[OFF],
           best[RECORDED] / best[PLAIN]);
  }
  printf("target: overhead under 100 ns per recorded call\n");
  fclose(null_stream);
  close(null_fd);
  close(file_fd);
  return 0;
}
