/* archive.c -- the first steps of every analysis, serial or parallel:
   the anchor file checked (a clear message for a run that wrote no
   trace), the archive opened, its global definitions read; the names of
   the per-location files, and the open-file limit their readers need. */
#include <otf2/otf2.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#include "az.h"
#include "az_archive.h"
#include "az_calltree.h"
#include "az_defs.h"
#include "az_diag.h"
#include "pomp_util.h"

static OTF2_ErrorCode quiet_otf2(void *u, const char *file, uint64_t line, const char *fn,
                                 OTF2_ErrorCode code, const char *fmt, va_list va) {
  (void)u;
  (void)file;
  (void)line;
  (void)fn;
  (void)fmt;
  (void)va;
  return code;
}

/* Every replayed location keeps its event file open (they advance
   together): raise the limit of open files as far as allowed, and say
   clearly when a trace has more locations than that. */
int az_check_open_files(az_analysis *a, size_t locations, const char *anchor) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl)) return 0;
  if (rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    getrlimit(RLIMIT_NOFILE, &rl);
  }
  enum { SPARE = 32 }; /* stdio, the archive's own files, MPI */
  if (rl.rlim_cur == RLIM_INFINITY || locations + SPARE <= rl.rlim_cur) return 0;
  az_fail(&a->diag,
          "%s: %zu locations need as many open files, but only %llu may be "
          "open (ulimit -n): raise the limit, or divide the analysis with "
          "mpirun -n P pomp-analyze",
          anchor, locations, (unsigned long long)rl.rlim_cur);
  return -1;
}

const char *az_loc_file(const az_analysis *a, uint64_t id, const char *ext, char *buf,
                        size_t size) {
  snprintf(buf, size, "%s/%llu.%s", a->files ? a->files : "traces", (unsigned long long)id, ext);
  return buf;
}

/* OTF2's anchor loader trusts the counts in the file: one changed byte
   keeps it busy for a minute or more (a loop over a count it read).  The
   anchor is therefore read first by a child process allowed ANCHOR_CPU_MS
   of CPU time (a valid anchor takes about 1 ms; CPU, not wall time, so a
   loaded machine does not fail a valid trace) and ANCHOR_WALL_S seconds
   in all (storage that hangs).  Costs one fork, about 1 ms. */
enum { ANCHOR_CPU_MS = 300, ANCHOR_WALL_S = 30, ANCHOR_POLL_NS = 2000000 };

/* CPU time used so far by process pid (utime + stime of /proc/PID/stat),
   in ms; 0 when unknown. */
static long cpu_ms_of(pid_t pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  const char *fields = strrchr(buf, ')'); /* after the command name */
  unsigned long utime, stime;
  if (!fields || sscanf(fields + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime,
                        &stime) != 2)
    return 0;
  return (long)((utime + stime) * 1000 / (unsigned long)sysconf(_SC_CLK_TCK));
}

/* 1 under valgrind (its preload library is in LD_PRELOAD), where code runs
   20-50 times slower: the anchor's CPU limit grows, or a valid trace would
   read as corrupt ("valgrind-clean on demand"). */
static int under_valgrind(void) {
  const char *preload = getenv("LD_PRELOAD");
  return preload && strstr(preload, "vgpreload");
}

/* The probe's verdict: 1 when the child opened the anchor (the byte it
   wrote to fd), 0 when it exited or closed fd without writing it, -1 while
   neither happened. */
static int probe_verdict(int fd) {
  char c;
  ssize_t n = read(fd, &c, 1);
  if (n == 1) return 1;
  if (n == 0) return 0;
  return errno == EAGAIN || errno == EINTR ? -1 : 0;
}

/* 0 when OTF2 opens the anchor within the limits above, -1 when it cannot
   or takes longer (the child is then killed).  The child says it opened
   the anchor through a pipe before it exits: the time its exit takes is
   not the anchor's (valgrind's leak check of a child forked after
   MPI_Init took more than the limit, and a valid trace read as corrupt). */
static int anchor_loads_quickly(const char *anchor) {
  int fds[2];
  if (pipe(fds) != 0) return 0; /* no probe possible: let OTF2 try */
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return 0;
  }
  if (pid == 0) {
    close(fds[0]);
    OTF2_Error_RegisterCallback(quiet_otf2, NULL);
    OTF2_Reader *reader = OTF2_Reader_Open(anchor);
    if (reader) {
      OTF2_Reader_Close(reader);
      ssize_t written = write(fds[1], "1", 1);
      (void)written; /* the parent reads no byte: its verdict is "corrupt" */
    }
    _exit(reader ? 0 : 1);
  }
  close(fds[1]);
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  long cpu_limit_ms = ANCHOR_CPU_MS * (under_valgrind() ? 100 : 1);
  const struct timespec poll = {0, ANCHOR_POLL_NS};
  int verdict;
  for (long waited_ns = 0;; waited_ns += ANCHOR_POLL_NS) {
    verdict = probe_verdict(fds[0]);
    if (verdict >= 0) break;
    if (cpu_ms_of(pid) > cpu_limit_ms || waited_ns / 1000000000 >= ANCHOR_WALL_S) break;
    nanosleep(&poll, NULL);
  }
  close(fds[0]);
  kill(pid, SIGKILL); /* done or over its limits: its exit is not waited for */
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return verdict == 1 ? 0 : -1;
}

/* A running libpomp holds a shared lock on its measure.log (measure/
   pm_log.c) until it ends, however it ends. The pid from the log's first
   line ("... (pid N)") when the lock is held, or -1 if that line has none;
   0 when no process holds it (or there is no log). */
static long pid_holding(const char *log) {
  int fd = open(log, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  long pid = 0;
  if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    char line[1024];
    ssize_t n = read(fd, line, sizeof line - 1);
    line[n > 0 ? n : 0] = 0;
    line[strcspn(line, "\n")] = 0;
    const char *at = strstr(line, "(pid ");
    pid = at ? strtol(at + 5, NULL, 10) : -1;
  }
  close(fd);
  return pid;
}

/* The anchor must be a readable regular file before OTF2 sees it: the
   message then says why (errno), and OTF2 3.0 leaks on that failure path.
   A directory with the measurement log but no anchor is a run whose trace
   was never written (MPI_Abort, a signal): the log says why. */
static int check_anchor(az_analysis *a, const char *anchor) {
  struct stat st;
  if (stat(anchor, &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      az_fail(&a->diag, "%s: %s", anchor,
              S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a trace archive (not a regular file)");
      return -1;
    }
    if (access(anchor, R_OK) == 0) return 0;
    az_fail(&a->diag, "%s: %s", anchor, strerror(errno));
    return -1;
  }
  int err = errno;
  const char *slash = strrchr(anchor, '/');
  size_t dir = slash ? (size_t)(slash - anchor) : 0;
  char *log = pu_malloc(dir + 16);
  snprintf(log, dir + 16, "%.*s%smeasure.log", (int)dir, anchor, slash ? "/" : "");
  long pid = err == ENOENT ? pid_holding(log) : 0;
  char who[48] = "its process";
  if (pid > 0) snprintf(who, sizeof who, "pid %ld", pid);
  if (pid)
    az_fail(&a->diag,
            "%.*s: the run is still going (%s holds its measure.log); analyse it once "
            "it has ended",
            slash ? (int)dir : 1, slash ? anchor : ".", who);
  else if (err == ENOENT && access(log, F_OK) == 0)
    az_fail(&a->diag, "%.*s: no trace was written; see %s", slash ? (int)dir : 1,
            slash ? anchor : ".", log);
  else az_fail(&a->diag, "%s: %s", anchor, strerror(err));
  free(log);
  return -1;
}

/* A process that died of a signal wrote its trace with the anchor
   property POMP::RUN_STATUS (docs/TRACE.md): the run did not finish. */
static void read_run_status(az_analysis *a, OTF2_Reader *reader) {
  char *status = NULL;
  if (OTF2_Reader_GetProperty(reader, "POMP::RUN_STATUS", &status) != OTF2_SUCCESS || !status)
    return;
  if (!strncmp(status, "incomplete", 10)) {
    free(a->run_status);
    a->run_status = pu_strdup(status);
    a->incomplete = a->diag.incomplete = 1;
  }
  free(status);
}

OTF2_Reader *az_open(az_analysis *a, const char *anchor, const az_options *opt) {
  memset(a, 0, sizeof *a);
  a->diag.verbosity = opt->verbosity;
  a->progress = opt->progress;
  a->window_events = opt->window_events;
  a->delay_hooks = opt->delay_hooks;
  a->incomplete = a->diag.incomplete = opt->run_status != NULL;
  a->skip_damaged = opt->skip_damaged;
  a->switched_off = opt->switched_off;
  a->threads = opt->threads;
  a->run_status = pu_strdup(opt->run_status ? opt->run_status : "complete");
  az_calltree_init(&a->tree);
  size_t n = strlen(anchor);
  a->files = pu_strdup(anchor);
  if (n > 5 && !strcmp(anchor + n - 5, ".otf2")) a->files[n - 5] = 0;
  if (check_anchor(a, anchor)) return NULL;
  a->throttled = az_throttled_read(anchor, &a->diag);
  a->instrumentation = az_instrumentation_read(anchor);
  /* OTF2 would print its own errors; ours name the location and event */
  OTF2_Error_RegisterCallback(quiet_otf2, NULL);
  OTF2_Reader *reader = anchor_loads_quickly(anchor) ? NULL : OTF2_Reader_Open(anchor);
  if (!reader) {
    az_fail(&a->diag, "%s: cannot open the trace archive (corrupt anchor file)", anchor);
    return NULL;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  if (!opt->run_status) read_run_status(a, reader);
  char *defs = pu_malloc(strlen(a->files) + 5);
  sprintf(defs, "%s.def", a->files);
  int failed = az_defs_read(&a->defs, reader, defs, &a->diag);
  free(defs);
  if (failed) {
    OTF2_Reader_Close(reader);
    return NULL;
  }
  a->cells = pu_calloc(a->defs.num_locs, sizeof *a->cells);
  return reader;
}
