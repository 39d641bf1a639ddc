/* main.c -- pomp-analyze: replays an OTF2 trace archive and writes the
   severity of every performance property as report.pomp. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "az.h"
#include "az_output.h"
#include "az_parallel.h"
#include "az_recovery.h"
#include "pomp_opt.h"
#include "pomp_rerun.h"
#include "pomp_util.h"

static const char summary[] =
    "Replays the OTF2 trace of an experiment and computes the severity of\n"
    "every performance property for every call path and location.  The\n"
    "trace of a run that died (fragments, no traces.otf2) is recovered\n"
    "first, as pomp-recover would, and analysed as far as it goes.\n"
    "For a big trace, 'mpirun -n P pomp-analyze EXPERIMENT_DIR' divides the\n"
    "analysis among P processes and writes the same report.\n";

typedef struct {
  const char *input, *output;
  int verbosity, top;
  int no_recover;
  int skip_damaged;
  int no_rootcause, no_critical_path;
  int threads; /* 0: az_default_threads */
} cli;

/* The command line into c; a bad one ends the program (pomp_opt.h). */
static void parse(int argc, char **argv, cli *c) {
  long long top = 6, threads = 0;
  c->verbosity = 1;
  const pu_option options[] = {
      {"output", 'o', "FILE",
       "write the report to FILE (default: report.pomp "
       "next to the trace; an existing report is overwritten)",
       PU_STRING(&c->output)},
      {"quiet", 'q', NULL, "print nothing but errors", PU_FLAG(&c->verbosity, 0)},
      {"verbose", 'v', NULL, "print every warning about the trace", PU_FLAG(&c->verbosity, 2)},
      {"top", 0, "N", "wait states and overheads listed in the summary, largest first (default 6)",
       PU_INT(&top, 0, 1000)},
      {"no-recover", 0, NULL,
       "refuse the trace of a run that died instead "
       "of recovering it",
       PU_FLAG(&c->no_recover, 1)},
      {"skip-damaged", 0, NULL,
       "analyse a finished trace with a damaged event file: the other "
       "locations whole, that one up to the damage (the report says so)",
       PU_FLAG(&c->skip_damaged, 1)},
      {"no-rootcause", 0, NULL,
       "compute no delay costs and no classification of wait states (faster; "
       "the report marks them not computed)",
       PU_FLAG(&c->no_rootcause, 1)},
      {"no-critical-path", 0, NULL,
       "compute no critical path and no performance impact (faster; the "
       "report marks them not computed)",
       PU_FLAG(&c->no_critical_path, 1)},
      {"threads", 0, "N",
       "threads of each analysis process: the replay and N-1 that decode the "
       "event files ahead of it (default: the CPUs it may run on, shared among "
       "the analysis processes of its node, at most 3; 1: the replay alone; "
       "the critical path is walked on a thread more where the process may run "
       "on more than one CPU: from N = 2 on, and on process 1 of a parallel analysis)",
       PU_INT(&threads, 1, 1024)},
      PU_OPT_END};
  const pu_opt_command cmd = {NULL,
                              "EXPERIMENT_DIR|traces.otf2",
                              1,
                              1,
                              .summary = summary,
                              .options = options,
                              .failure = "failure (unreadable or corrupt trace, I/O error)",
                              .more = "'--' ends the options (for a directory named '-x').  See "
                                      "pomp-analyze(1),\ndocs/PROPERTIES.md.\n"};
  pu_opt_parse(&cmd, argc, argv, &c->input);
  c->top = (int)top;
  c->threads = (int)threads;
}

/* Anchor file and default report path of an experiment directory or of a
   .otf2 anchor file. */
static void resolve(const char *input, char **anchor, char **report) {
  struct stat st;
  size_t n = strlen(input);
  if (stat(input, &st) == 0 && S_ISDIR(st.st_mode)) {
    *anchor = pu_malloc(n + 16);
    snprintf(*anchor, n + 16, "%s/traces.otf2", input);
    *report = pu_malloc(n + 16);
    snprintf(*report, n + 16, "%s/report.pomp", input);
    return;
  }
  *anchor = pu_strdup(input);
  const char *slash = strrchr(input, '/');
  size_t dir = slash ? (size_t)(slash - input) + 1 : 0;
  *report = pu_malloc(dir + 16);
  memcpy(*report, input, dir);
  strcpy(*report + dir, "report.pomp");
}

/* What pomp-analyze is given must be a run's: an experiment directory
   (it holds traces.otf2, measure.log, fragments/ or report.pomp) or an
   OTF2 anchor file (OTF2 names it *.otf2).  Anything else (a source file,
   the wrong directory) is said plainly, rather than as a damaged trace.
   Returns 1 after saying so. */
static int not_a_run(const char *input) {
  static const char *const signs[] = {"traces.otf2", "measure.log", "fragments", "report.pomp"};
  struct stat st;
  if (stat(input, &st) != 0) return 0; /* the open names the errno */
  if (!S_ISDIR(st.st_mode)) {
    size_t n = strlen(input);
    if (n > 5 && !strcmp(input + n - 5, ".otf2")) return 0;
    pu_error("%s: not a trace: give the experiment directory a run wrote (pomp_APP_RxT) or its "
             "traces.otf2",
             input);
    return 1;
  }
  char file[PU_PATH_MAX];
  for (size_t i = 0; i < sizeof signs / sizeof signs[0]; i++) {
    snprintf(file, sizeof file, "%s/%s", input, signs[i]);
    if (stat(file, &st) == 0) return 0;
  }
  pu_error("%s: not an experiment directory (no traces.otf2, measure.log or fragments/): give the "
           "directory a run wrote (pomp_APP_RxT)",
           input);
  return 1;
}

/* An experiment measured with POMP_MODE=profile has no trace to replay:
   libpomp wrote its report.pomp itself. Says so (with the summary) and
   returns 1; 0 for anything else. */
static int already_a_profile(const char *anchor, const char *report_path, const cli *c) {
  if (access(anchor, F_OK) == 0 || access(report_path, F_OK) != 0) return 0;
  pomp_report_error err;
  pomp_report *r = pomp_report_open(report_path, &err);
  const char *note = r ? pomp_report_mode_note(r) : NULL;
  if (note && c->verbosity > 0) {
    printf("%s: %s holds a profile (POMP_MODE=profile), not a trace: its report is "
           "already there, %s\n%s\n",
           pu_progname(), c->input, report_path, note);
    az_summary_print(r, c->top, stdout);
  }
  pomp_report_free(r);
  return note != NULL;
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  cli c = {0};
  parse(argc, argv, &c);
  char *anchor, *report_path;
  resolve(c.input, &anchor, &report_path);
  if (already_a_profile(anchor, report_path, &c)) {
    if (c.verbosity > 0) pu_note_newer_rerun(c.input);
    free(anchor);
    free(report_path);
    return POMP_EXIT_OK;
  }
  if (c.output) {
    free(report_path);
    report_path = pu_strdup(c.output);
  }
  int rank = az_parallel_begin(); /* -1: serial */
  /* a re-run wrote "<dir>.N" beside this one: said once, by process 0 */
  if (rank <= 0 && c.verbosity > 0) pu_note_newer_rerun(c.input);
  /* how the run ended: process 0 recovers a run that died, alone */
  char *run_status = NULL, *elsewhere = NULL;
  az_recovery_options ro = {!c.no_recover, c.verbosity};
  int refused =
      rank <= 0 ? not_a_run(c.input) || az_run_ended(anchor, &ro, &run_status, &elsewhere) : 0;
  /* recovered in a temporary directory (read-only storage): its anchor is
     analysed, the report still names the experiment's */
  if (elsewhere && !c.output) {
    pu_error("%s: cannot be written (read-only storage): give -o FILE to write the report "
             "elsewhere",
             report_path);
    refused = 1;
  }
  char *analysed = elsewhere ? pu_malloc(strlen(elsewhere) + 16) : NULL;
  if (analysed) sprintf(analysed, "%s/traces.otf2", elsewhere);
  if (rank >= 0) az_parallel_share(&refused, &run_status);
  az_options opt = {.verbosity = c.verbosity,
                    .progress = c.verbosity > 0 && isatty(STDERR_FILENO),
                    .run_status = run_status,
                    .skip_damaged = c.skip_damaged,
                    .switched_off = (c.no_rootcause ? AZ_OFF_ROOTCAUSE : 0u) |
                                    (c.no_critical_path ? AZ_OFF_CRITICAL_PATH : 0u),
                    .threads = c.threads
                                   ? c.threads
                                   : az_default_threads(rank >= 0 ? az_parallel_node_procs() : 1)};
  az_analysis a;
  memset(&a, 0, sizeof a);
  int status = POMP_EXIT_OK;
  int failed = refused    ? -1
               : rank < 0 ? az_analyze(&a, analysed ? analysed : anchor, &opt)
                          : az_analyze_parallel(&a, anchor, &opt);
  if (refused) {
    status = POMP_EXIT_FAILURE; /* az_run_ended said why */
  } else if (failed) {
    status = POMP_EXIT_FAILURE;
    /* quiet: errors are still said (otherwise az_fail printed them);
       in a parallel analysis process 0 says the one error */
    if (c.verbosity == 0 && rank <= 0) pu_error("%s", a.diag.first_error);
  } else if (rank <= 0) { /* the serial analysis, or analysis process 0 */
    pomp_report *r = az_report_build(&a, anchor, NULL);
    pomp_report_error err;
    if (pomp_report_write(r, report_path, &err) != POMP_REPORT_OK) {
      pu_error("%s", err.message);
      status = POMP_EXIT_FAILURE;
    } else if (c.verbosity > 0) {
      printf("%s: wrote %s (%llu events)\n", pu_progname(), report_path,
             (unsigned long long)a.events_read);
      az_summary_print(r, c.top, stdout);
    }
    pomp_report_free(r);
  }
  if (rank >= 0) az_parallel_end();
  if (rank > 0) c.verbosity = 0; /* process 0 prints the summary */
  if (c.verbosity > 0) az_diag_summary(&a.diag, stderr);
  az_analysis_free(&a);
  free(run_status);
  free(analysed);
  az_recovery_discard(elsewhere);
  free(anchor);
  free(report_path);
  return status;
}
