/* recovery.c -- how the measured run ended, before pomp-analyze reads its
   trace.  A run that died (MPI_Abort, a signal, SIGKILL, exit without
   MPI_Finalize) leaves fragments/ and no traces.otf2: the trace is first
   completed with pomp-recover's library (recover/pomp_recover.h), which
   records what it found in fragments/RECOVERED; an experiment recovered
   before says so there too.  Either way the analysis is told the run did
   not finish (docs/PROPERTIES.md, "Runs that did not finish") and the
   report says how (run_status, docs/FORMAT.md).  Only in the executable,
   like parallel.c: the library is optional at build time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "az_recovery.h"
#include "pomp_util.h"
#ifdef POMP_HAVE_RECOVER
#include "pomp_recover.h"
#endif

enum { AZ_RANKS_LISTED = 8 }; /* ranks named per kind in the status */

typedef struct {
  char *p;
  size_t len, cap;
} text;

static void add(text *t, const char *s) {
  size_t n = strlen(s);
  pu_reserve((void **)&t->p, &t->cap, t->len + n + 1, 1);
  memcpy(t->p + t->len, s, n + 1);
  t->len += n;
}

/* "; up to their last flush: ranks 0, 2" for the ranks of one kind. */
static void add_ranks(text *t, const char *what, const unsigned *ranks, unsigned n) {
  if (!n) return;
  char buf[32];
  add(t, "; ");
  add(t, what);
  add(t, n == 1 ? ": rank " : ": ranks ");
  for (unsigned i = 0; i < n && i < AZ_RANKS_LISTED; i++) {
    snprintf(buf, sizeof buf, "%s%u", i ? ", " : "", ranks[i]);
    add(t, buf);
  }
  if (n > AZ_RANKS_LISTED) add(t, ", ...");
}

/* The status line from fragments/RECOVERED (recover/rc_recover.c writes
   it: a count line, "reason: ...", then "rank R: complete (...)",
   "rank R: events up to its last buffer flush (...)" or "rank R: missing
   (...)"); NULL when there is none. */
static char *status_from_record(const char *dir) {
  char path[PU_PATH_MAX], line[1024], reason[1024] = "";
  snprintf(path, sizeof path, "%s/fragments/RECOVERED", dir);
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  unsigned n = 0, complete = 0, partial = 0, missing = 0, r;
  unsigned *part = NULL, *miss = NULL;
  size_t cap_part = 0, cap_miss = 0, npart = 0, nmiss = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    char word[16];
    const char *counts = strstr(line, ": ");
    if (!strncmp(line, "recovered by ", 13) && counts)
      sscanf(counts, ": %u ranks, %u complete, %u partial, %u missing", &n, &complete, &partial,
             &missing);
    else if (!strncmp(line, "reason: ", 8)) snprintf(reason, sizeof reason, "%s", line + 8);
    else if (sscanf(line, "rank %u: %15s", &r, word) == 2 && !strcmp(word, "events"))
      PU_PUSH(part, npart, cap_part, r);
    else if (sscanf(line, "rank %u: %15s", &r, word) == 2 && !strcmp(word, "missing"))
      PU_PUSH(miss, nmiss, cap_miss, r);
  }
  fclose(f);
  text t = {NULL, 0, 0};
  add(&t, "incomplete: ");
  add(&t, reason[0] ? reason : "the run did not finish");
  char buf[160];
  snprintf(buf, sizeof buf,
           "; trace recovered from %u ranks (%u complete, %u up to their "
           "last flush, %u missing)",
           n, complete, partial, missing);
  add(&t, buf);
  add_ranks(&t, "up to their last flush", part, (unsigned)npart);
  add_ranks(&t, "missing", miss, (unsigned)nmiss);
  free(part);
  free(miss);
  return t.p;
}

/* The experiment directory of an anchor file: its directory. */
static char *directory_of(const char *anchor) {
  const char *slash = strrchr(anchor, '/');
  if (!slash) return pu_strdup(".");
  size_t n = slash == anchor ? 1 : (size_t)(slash - anchor);
  char *dir = pu_malloc(n + 1);
  memcpy(dir, anchor, n);
  dir[n] = 0;
  return dir;
}

static int has(const char *dir, const char *name) {
  char path[PU_PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return access(path, F_OK) == 0;
}

#ifdef POMP_HAVE_RECOVER
/* The trace of a run that died is completed first; *status says how it
   ended, should the record not be readable. */
static int recover(const char *dir, const az_recovery_options *o, char **status, char **elsewhere) {
  if (!o->recover) {
    pu_error("%s: the run did not finish and its trace was not recovered: "
             "run 'pomp-recover %s' (or pomp-analyze without --no-recover)",
             dir, dir);
    return -1;
  }
  pomp_recover_summary s;
  /* read-only storage: in a temporary mirror of the experiment (the
     report must then go elsewhere too: -o) */
  if (access(dir, W_OK) != 0) {
    char work[PU_PATH_MAX];
    if (pomp_recover_elsewhere(dir, 0, work, sizeof work, &s) != 0) return -1;
    if (o->verbosity > 0)
      fprintf(stderr,
              "%s: %s: cannot be written (%s): recovered in %s, removed after the analysis\n",
              pu_progname(), dir, strerror(errno), work);
    *elsewhere = pu_strdup(work);
  } else if (pomp_recover(dir, &s) != 0) {
    return -1;
  }
  char line[512];
  snprintf(line, sizeof line,
           "the run did not finish (%s); trace recovered from %u ranks (%u "
           "complete, %u up to their last flush, %u missing)",
           s.reason, s.ranks, s.ranks_complete, s.ranks_partial, s.ranks_missing);
  if (o->verbosity > 0) fprintf(stderr, "%s: %s: %s\n", pu_progname(), dir, line);
  *status = pu_malloc(strlen(line) + 16);
  sprintf(*status, "incomplete: %s", line);
  return 0;
}
#endif

/* The anchor of an experiment's trace names the experiment; its fragments
   need recovery when it is missing. */
static int needs_recovery(const char *anchor, const char *dir) {
  const char *base = strrchr(anchor, '/');
  struct stat st;
  if (strcmp(base ? base + 1 : anchor, "traces.otf2") || stat(anchor, &st) == 0 ||
      !has(dir, "fragments"))
    return 0;
#ifdef POMP_HAVE_RECOVER
  return pomp_recover_needed(dir); /* -1: said why */
#else
  return 1;
#endif
}

int az_run_ended(const char *anchor, const az_recovery_options *o, char **status,
                 char **elsewhere) {
  *status = NULL;
  *elsewhere = NULL;
  char *dir = directory_of(anchor);
  int rc = needs_recovery(anchor, dir);
  if (rc == 1) {
#ifdef POMP_HAVE_RECOVER
    rc = recover(dir, o, status, elsewhere);
#else
    (void)o;
    pu_error("%s: the run did not finish and this pomp-analyze was built "
             "without pomp-recover: recover its trace first",
             dir);
    rc = -1;
#endif
  }
  /* a run that finished removed its fragments: a record says recovered */
  char *recorded = rc ? NULL : status_from_record(*elsewhere ? *elsewhere : dir);
  if (recorded) {
    free(*status);
    *status = recorded;
  }
  free(dir);
  return rc;
}

void az_recovery_discard(char *elsewhere) {
  if (!elsewhere) return;
#ifdef POMP_HAVE_RECOVER
  pomp_recover_discard(elsewhere);
#endif
  free(elsewhere);
}
