/* rc_recover.c -- pomp_recover_needed / pomp_recover (pomp_recover.h):
   fragments in, archive out, and a record of what happened for the
   reader: fragments/RECOVERED (one line per rank) and a measure.log line. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pomp_recover.h"
#include "pomp_util.h"
#include "rc.h"

static int exists(const char *dir, const char *name) {
  char p[PU_PATH_MAX];
  rc_path(p, sizeof p, dir, name);
  return access(p, F_OK) == 0;
}

int pomp_recover_needed(const char *dir) {
  struct stat st;
  if (stat(dir, &st) != 0) {
    pu_error("%s: %s", dir, strerror(errno));
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    pu_error("%s: not an experiment directory", dir);
    return -1;
  }
  return exists(dir, "fragments") && !exists(dir, "traces.otf2");
}

/* What one rank left: its line in RECOVERED and on stdout. */
static void rank_line(char *buf, size_t size, uint32_t r, const rc_rank *k) {
  if (!k->present)
    snprintf(buf, size, "rank %u: missing (no fragment; its events are not in the trace)", r);
  else if (k->frag.complete) snprintf(buf, size, "rank %u: complete (%s)", r, k->frag.reason);
  else if (k->events && k->last_time > k->first_time)
    snprintf(buf, size, "rank %u: events up to %.3f s after its first: %llu events (%s)", r,
             (double)(k->last_time - k->first_time) / 1e9, (unsigned long long)k->events,
             k->frag.reason);
  else if (k->events)
    snprintf(buf, size, "rank %u: events up to its last buffer flush: %llu events (%s)", r,
             (unsigned long long)k->events, k->frag.reason);
  else
    snprintf(buf, size, "rank %u: events up to its last buffer flush: no events on disk (%s)", r,
             k->frag.reason);
}

/* The ranks that ended alone for a reason of their own (not a flush, not
   a peer's death) explain the run's end: the first of them. When none
   recorded its end, the fragments are periodic ones: the run was killed
   (SIGKILL, an own handler calling _exit, ...) and nothing says why. */
static void summarise(const rc_set *set, pomp_recover_summary *s) {
  memset(s, 0, sizeof *s);
  s->ranks = set->nranks;
  const rc_rank *why = NULL, *peer = NULL;
  for (uint32_t r = 0; r < set->nranks; r++) {
    const rc_rank *k = &set->ranks[r];
    if (!k->present) s->ranks_missing++;
    else if (k->frag.complete) s->ranks_complete++;
    else s->ranks_partial++;
    if (!k->present || !k->frag.complete) continue;
    if (!strstr(k->frag.reason, "on this node ends alone")) {
      if (!why) why = k;
    } else if (!peer) {
      peer = k;
    }
  }
  if (!why) why = peer; /* the rank that ended it left no fragment of its own */
  if (why) snprintf(s->reason, sizeof s->reason, "rank %u: %s", why->frag.rank, why->frag.reason);
  else snprintf(s->reason, sizeof s->reason, "no rank recorded its end (killed?)");
}

/* A partial rank whose flushes never reached the disk has nothing in the
   trace: say so where the user looks (pomp-analyze too). */
static void warn_empty(const rc_set *set) {
  for (uint32_t r = 0; r < set->nranks; r++) {
    const rc_rank *k = &set->ranks[r];
    if (k->present && !k->frag.complete && !k->events)
      pu_warn("%s: rank %u has no events on disk (killed before a buffer flush or a copy to "
              "disk reached it); see %s/measure.log",
              set->dir, r, set->dir);
  }
}

/* Ranks killed before they finished keep their events up to their last
   copy to disk: say how to keep more (pomp-analyze says it too). */
static void hint_keep_more(const rc_set *set, const pomp_recover_summary *s) {
  if (!s->ranks_partial) return;
  if (set->flush_interval)
    fprintf(stderr,
            "%s: note: %s: %u of %u ranks kept their events up to their last copy to disk "
            "(every %.3g s, POMP_FLUSH_INTERVAL); a shorter POMP_FLUSH_INTERVAL keeps more\n",
            pu_progname(), set->dir, s->ranks_partial, s->ranks, (double)set->flush_interval / 1e9);
  else
    fprintf(stderr,
            "%s: note: %s: %u of %u ranks kept their events up to their last buffer flush "
            "(no copy to disk was taken: the run was shorter than POMP_FLUSH_INTERVAL, "
            "default 10 s, or it was 0); a shorter POMP_FLUSH_INTERVAL keeps more\n",
            pu_progname(), set->dir, s->ranks_partial, s->ranks);
}

static void record(const rc_set *set, const pomp_recover_summary *s) {
  char path[PU_PATH_MAX], line[600];
  rc_path(path, sizeof path, set->dir, "fragments/RECOVERED");
  FILE *f = fopen(path, "w");
  if (f) {
    fprintf(f,
            "recovered by pomp-recover %s: %u ranks, %u complete, %u partial, %u missing\n"
            "reason: %s\n",
            POMP_VERSION_STRING, s->ranks, s->ranks_complete, s->ranks_partial, s->ranks_missing,
            s->reason);
    for (uint32_t r = 0; r < set->nranks; r++) {
      rank_line(line, sizeof line, r, &set->ranks[r]);
      fprintf(f, "%s\n", line);
    }
  }
  if (!f || fclose(f) != 0) pu_warn("%s: cannot write the recovery summary", path);
  rc_path(path, sizeof path, set->dir, "measure.log");
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) {
    int n = snprintf(line, sizeof line,
                     "pomp-recover: trace completed from fragments: %u ranks, %u complete, "
                     "%u partial, %u missing (%s)\n",
                     s->ranks, s->ranks_complete, s->ranks_partial, s->ranks_missing, s->reason);
    if (n > 0 && write(fd, line, (size_t)n) != n) pu_warn("%s: write error", path);
    close(fd);
  }
}

/* One recovery at a time: two at once would write the same work files
   (OTF2 then fails with a screen of errors). The second waits for the
   first (flock on fragments/.lock, released when the process ends),
   then finds the trace there. The fd, or -1 (reported). */
static int take_lock(const char *dir) {
  char path[PU_PATH_MAX];
  rc_path(path, sizeof path, dir, "fragments/.lock");
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    pu_error("%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
  fprintf(stderr, "%s: %s: being recovered by another process; waiting for it\n", pu_progname(),
          dir);
  if (flock(fd, LOCK_EX) == 0) return fd;
  pu_error("%s: cannot lock: %s", path, strerror(errno));
  close(fd);
  return -1;
}

int pomp_recover(const char *dir, pomp_recover_summary *summary) {
  return pomp_recover_with(dir, 0, summary);
}

int pomp_recover_with(const char *dir, int options, pomp_recover_summary *summary) {
  pomp_recover_summary none = {0};
  if (summary) *summary = none;
  int needed = pomp_recover_needed(dir);
  if (needed < 0) return -1;
  if (!needed && !exists(dir, "traces.otf2")) {
    /* no trace and no fragment: the run died before its first buffer
       flush (SIGKILL) or in a way libpomp never saw (an own handler that
       calls _exit): nothing on disk says more than its log */
    pu_error("%s: no trace (traces.otf2) and no fragments to recover it from: the run "
             "ended before writing any (killed early, or its own signal handler exited?); "
             "see %s/measure.log",
             dir, dir);
    return -1;
  }
  if (!needed) {
    snprintf(summary ? summary->reason : none.reason, sizeof none.reason, "nothing to recover");
    return 0;
  }
  rc_set set;
  if (rc_load(dir, (options & POMP_RECOVER_SKIP_DAMAGED) != 0, &set) != 0) return -1;
  int rc = rc_check_finished(&set), lock = -1;
  if (rc == 0 && (lock = take_lock(dir)) < 0) rc = -1;
  if (rc == 0 && exists(dir, "traces.otf2")) { /* another one recovered it meanwhile */
    snprintf(summary ? summary->reason : none.reason, sizeof none.reason, "nothing to recover");
    close(lock);
    rc_free(&set);
    return 0;
  }
  if (rc == 0) rc = rc_write_archive(&set);
  if (rc == 0) {
    pomp_recover_summary s;
    summarise(&set, &s);
    record(&set, &s);
    warn_empty(&set);
    hint_keep_more(&set, &s);
    if (summary) *summary = s;
  }
  if (lock >= 0) close(lock); /* and so unlocked */
  rc_free(&set);
  return rc;
}
