/* pm_log.c -- measure.log and the library's messages on stderr.
   Lines written before the experiment directory exists are kept in memory
   and written when it is opened, so the log tells the whole story.
   The ranks of an MPI run share one O_APPEND log: every line, rank prefix
   included, goes out in a single write(2), so lines never mix. */
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "pm_runtime.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int log_fd = -1;
static char *kept;      /* lines before pm_log_open */
static size_t kept_len; /* bytes in kept */
static int log_closed;  /* after pm_log_close: lines go nowhere */

static void append(const char *line, size_t n) {
  if (log_fd >= 0) {
    ssize_t w = write(log_fd, line, n);
    (void)w; /* a full disk must not stop the program */
  } else if (!log_closed) {
    char *p = realloc(kept, kept_len + n);
    if (!p) return;
    memcpy(p + kept_len, line, n);
    kept = p;
    kept_len += n;
  }
}

static size_t rank_prefix(char *out, size_t size);

static void vlog(FILE *also, const char *kind, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  char line[1200];
  size_t p = rank_prefix(line, sizeof line);
  int n = snprintf(line + p, sizeof line - p, "%s%s\n", kind, msg);
  if (n < 0) return;
  size_t len = p + (size_t)n;
  if (len >= sizeof line) { /* cut, but still one whole line */
    len = sizeof line - 1;
    line[len - 1] = '\n';
  }
  pthread_mutex_lock(&log_lock);
  append(line, len);
  pthread_mutex_unlock(&log_lock);
  if (also) fprintf(also, "libpomp: %s%s\n", kind, msg);
}

void pm_log(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(NULL, "", fmt, ap);
  va_end(ap);
}

void pm_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(stderr, "warning: ", fmt, ap);
  va_end(ap);
}

void pm_err(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(stderr, "error: ", fmt, ap);
  va_end(ap);
}

void pm_info(int level, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(pm_cfg.verbose >= level ? stderr : NULL, "", fmt, ap);
  va_end(ap);
}

/* The rank prefix of a line in an MPI run ("[rank R] "), "" otherwise.
   Async-signal-safe (no stdio): the signal handlers use it too. */
static size_t rank_prefix(char *out, size_t size) {
  if (!pm_mpi_active && pm_rank <= 0) return 0;
  char digits[12];
  size_t nd = 0;
  unsigned r = pm_rank < 0 ? 0u : (unsigned)pm_rank;
  do digits[nd++] = (char)('0' + r % 10);
  while ((r /= 10) && nd < sizeof digits);
  static const char head[] = "[rank ";
  size_t n = 0;
  for (size_t i = 0; head[i] && n < size; i++) out[n++] = head[i];
  while (nd && n < size) out[n++] = digits[--nd];
  for (const char *t = "] "; *t && n < size; t++) out[n++] = *t;
  return n;
}

/* The kept lines, each with the rank prefix in MPI runs (the rank was not
   known when they were logged): prefix and line in one buffer, one write.
   Under log_lock. */
static void write_kept(void) {
  char line[1300];
  size_t plen = rank_prefix(line, sizeof line);
  for (size_t pos = 0; pos < kept_len;) {
    const char *nl = memchr(kept + pos, '\n', kept_len - pos);
    size_t n = nl ? (size_t)(nl - (kept + pos)) + 1 : kept_len - pos;
    size_t p = strncmp(kept + pos, "[rank ", 6) ? plen : 0;
    if (p + n <= sizeof line) {
      memcpy(line + p, kept + pos, n);
      append(line, p + n);
    } else { /* longer than any line vlog makes: never prefixed */
      append(kept + pos, n);
    }
    pos += n;
  }
}

void pm_log_open(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/measure.log", dir);
  pthread_mutex_lock(&log_lock);
  /* O_APPEND: the ranks of an MPI run share one log, line by line. */
  log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  /* held while the process runs (every rank shares it): pomp-analyze
     and pomp-recover tell a run still going from one that died by it
     (the kernel drops it however the process ends, SIGKILL included) */
  if (log_fd >= 0) flock(log_fd, LOCK_SH | LOCK_NB);
  if (log_fd >= 0 && kept_len) write_kept();
  free(kept);
  kept = NULL;
  kept_len = 0;
  pthread_mutex_unlock(&log_lock);
  if (log_fd < 0) pm_warn("cannot write %s; measure.log is missing", path);
  pm_build_write(dir); /* the experiment directory exists now */
}

void pm_log_signal_line(const char *const parts[], int nparts) {
  if (log_fd < 0) return;
  char line[512];
  size_t n = rank_prefix(line, sizeof line - 1);
  for (int i = 0; i < nparts; i++)
    for (const char *c = parts[i]; *c && n < sizeof line - 1; c++) line[n++] = *c;
  line[n++] = '\n';
  ssize_t w = write(log_fd, line, n);
  (void)w;
}

void pm_log_forget(void) {
  pthread_mutex_init(&log_lock, NULL); /* may have been held at fork() */
  if (log_fd >= 0) close(log_fd);      /* the parent's log, and its lock, not ours */
  log_fd = -1;
  log_closed = 1;
}

void pm_log_close(void) {
  pthread_mutex_lock(&log_lock);
  if (log_fd >= 0) close(log_fd);
  log_fd = -1;
  free(kept);
  kept = NULL;
  kept_len = 0;
  log_closed = 1;
  pthread_mutex_unlock(&log_lock);
}
