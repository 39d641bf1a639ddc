/* analyze.c -- the whole analysis of one archive: definitions, the
   streaming replay process by process, MPI matching, finishing the cells. */
#include <otf2/otf2.h>
#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "az.h"
#include "pomp_util.h"

static OTF2_ErrorCode quiet_otf2(void *u, const char *file, uint64_t line,
                                 const char *fn, OTF2_ErrorCode code,
                                 const char *fmt, va_list va) {
  (void)u; (void)file; (void)line; (void)fn; (void)fmt; (void)va;
  return code;
}

void az_progress_draw(az_analysis *a) {
  uint64_t total = a->defs.total_events ? a->defs.total_events : 1;
  uint64_t done = a->events_read < total ? a->events_read : total;
  int width = 40, fill = (int)(done * (uint64_t)width / total);
  fprintf(stderr, "\r%s: [%.*s%*s] %3d%%", pu_progname(), fill,
          "########################################", width - fill, "",
          (int)(done * 100 / total));
  fflush(stderr);
}

void az_progress_done(az_analysis *a) {
  if (a->progress)
    fprintf(stderr, "\r%*s\r", 60 + (int)strlen(pu_progname()), "");
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

static int replay_all(az_analysis *a, OTF2_Reader *reader) {
  for (size_t i = 0; i < a->defs.num_locs; i++)
    OTF2_Reader_SelectLocation(reader, a->defs.locs[i].id);
  /* a missing local definition file is found location by location */
  int defs_open = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  if (OTF2_Reader_OpenEvtFiles(reader) != OTF2_SUCCESS) {
    az_fail(&a->diag, "cannot open the event files");
    return -1;
  }
  int rc = az_replay(a, reader, NULL);
  if (defs_open) OTF2_Reader_CloseDefFiles(reader);
  OTF2_Reader_CloseEvtFiles(reader);
  return rc;
}

const char *az_loc_file(const az_analysis *a, uint64_t id, const char *ext,
                        char *buf, size_t size) {
  snprintf(buf, size, "%s/%llu.%s", a->files ? a->files : "traces",
           (unsigned long long)id, ext);
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
              S_ISDIR(st.st_mode) ? strerror(EISDIR)
                                  : "not a trace archive (not a regular file)");
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
  snprintf(log, dir + 16, "%.*s%smeasure.log", (int)dir, anchor,
           slash ? "/" : "");
  if (err == ENOENT && access(log, F_OK) == 0)
    az_fail(&a->diag, "%.*s: no trace was written; see %s",
            slash ? (int)dir : 1, slash ? anchor : ".", log);
  else
    az_fail(&a->diag, "%s: %s", anchor, strerror(err));
  free(log);
  return -1;
}

OTF2_Reader *az_open(az_analysis *a, const char *anchor,
                     const az_options *opt) {
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
    az_fail(&a->diag, "%s: cannot open the trace archive (corrupt anchor file)",
            anchor);
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

/* The serial analysis evaluates what each window completed. */
static int serial_window(az_analysis *a, int active, int *failed) {
  if (active && !*failed) {
    az_p2p_step(a, 0);
    az_collective_step(a, 0);
  }
  return active;
}

int az_analyze(az_analysis *a, const char *anchor, const az_options *opt) {
  OTF2_Reader *reader = az_open(a, anchor, opt);
  if (!reader) return -1;
  a->window_hook = serial_window;
  int rc = az_check_open_files(a, a->defs.num_locs, anchor);
  if (!rc) rc = replay_all(a, reader);
  OTF2_Reader_Close(reader);
  if (!rc) {
    az_p2p_step(a, 1);
    az_collective_step(a, 1);
    for (size_t l = 0; l < a->defs.num_locs; l++)
      az_cells_finish(&a->cells[l], &a->tree, &a->defs);
    az_nested_graft(a);
  }
  az_progress_done(a);
  return rc;
}

void az_analysis_free(az_analysis *a) {
  if (a->cells)
    for (size_t l = 0; l < a->defs.num_locs; l++) az_cells_free(&a->cells[l]);
  free(a->cells);
  free(a->mpi.sends);
  free(a->mpi.recvs);
  free(a->mpi.colls);
  free(a->mpi.coll_broken);
  free(a->mpi.free_sends.idx);
  free(a->mpi.free_recvs.idx);
  free(a->mpi.free_colls.idx);
  az_p2p_free(a);
  az_calltree_free(&a->tree);
  az_defs_free(&a->defs);
  free(a->files);
  free(a->run_status);
  free(a->throttled);
  memset(a, 0, sizeof *a);
}

double az_value(const az_analysis *a, int metric, int32_t cnode,
                uint32_t loc) {
  if (loc >= a->defs.num_locs || cnode < 0) return 0;
  const az_cells *c = &a->cells[loc];
  if ((size_t)cnode >= c->nrow_of || !c->row_of[cnode]) return 0;
  double v = (double)c->rows[c->row_of[cnode] - 1][metric];
  return az_metric_is_time(metric) ? v / (double)a->defs.resolution : v;
}
