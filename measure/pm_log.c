/* pm_log.c -- measure.log and the library's messages on stderr.
   Lines written before the experiment directory exists are kept in memory
   and written when it is opened, so the log tells the whole story. */
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void vlog(FILE *also, const char *kind, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  char line[1200];
  int n;
  if (pm_mpi_active || pm_rank > 0)
    n = snprintf(line, sizeof line, "[rank %d] %s%s\n", pm_rank, kind, msg);
  else
    n = snprintf(line, sizeof line, "%s%s\n", kind, msg);
  if (n < 0) return;
  if ((size_t)n >= sizeof line) n = sizeof line - 1;
  pthread_mutex_lock(&log_lock);
  append(line, (size_t)n);
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

/* The kept lines, each with the rank prefix in MPI runs (the rank was not
   known when they were logged). Under log_lock. */
static void write_kept(void) {
  char prefix[32] = "";
  if (pm_mpi_active) snprintf(prefix, sizeof prefix, "[rank %d] ", pm_rank);
  for (size_t pos = 0; pos < kept_len;) {
    const char *nl = memchr(kept + pos, '\n', kept_len - pos);
    size_t n = nl ? (size_t)(nl - (kept + pos)) + 1 : kept_len - pos;
    int has_prefix = !strncmp(kept + pos, "[rank ", 6);
    if (*prefix && !has_prefix) append(prefix, strlen(prefix));
    append(kept + pos, n);
    pos += n;
  }
}

void pm_log_open(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/measure.log", dir);
  pthread_mutex_lock(&log_lock);
  /* O_APPEND: the ranks of an MPI run share one log, line by line. */
  log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd >= 0 && kept_len) write_kept();
  free(kept);
  kept = NULL;
  kept_len = 0;
  pthread_mutex_unlock(&log_lock);
  if (log_fd < 0) pm_warn("cannot write %s; measure.log is missing", path);
}

void pm_log_raw(const char *s) {
  if (log_fd < 0) return;
  ssize_t w = write(log_fd, s, strlen(s));
  (void)w;
}

void pm_log_forget(void) {
  pthread_mutex_init(&log_lock, NULL); /* may have been held at fork() */
  log_fd = -1;                          /* the parent's log, not ours */
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
