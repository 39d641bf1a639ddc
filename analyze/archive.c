/* archive.c -- the first steps of every analysis, serial or parallel:
   the anchor file checked (a clear message for a run that wrote no
   trace), the archive opened, its global definitions read; the names of
   the per-location files, and the open-file limit their readers need. */
#include <otf2/otf2.h>
#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <stdlib.h>
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
  if (err == ENOENT && access(log, F_OK) == 0)
    az_fail(&a->diag, "%.*s: no trace was written; see %s", slash ? (int)dir : 1,
            slash ? anchor : ".", log);
  else az_fail(&a->diag, "%s: %s", anchor, strerror(err));
  free(log);
  return -1;
}

OTF2_Reader *az_open(az_analysis *a, const char *anchor, const az_options *opt) {
  memset(a, 0, sizeof *a);
  a->diag.verbosity = opt->verbosity;
  a->progress = opt->progress;
  a->window_events = opt->window_events;
  a->incomplete = a->diag.incomplete = opt->run_status != NULL;
  a->run_status = pu_strdup(opt->run_status ? opt->run_status : "complete");
  az_calltree_init(&a->tree);
  size_t n = strlen(anchor);
  a->files = pu_strdup(anchor);
  if (n > 5 && !strcmp(anchor + n - 5, ".otf2")) a->files[n - 5] = 0;
  if (check_anchor(a, anchor)) return NULL;
  a->throttled = az_throttled_read(anchor, &a->diag);
  /* OTF2 would print its own errors; ours name the location and event */
  OTF2_Error_RegisterCallback(quiet_otf2, NULL);
  OTF2_Reader *reader = OTF2_Reader_Open(anchor);
  if (!reader) {
    az_fail(&a->diag, "%s: cannot open the trace archive (corrupt anchor file)", anchor);
    return NULL;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
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
