/* summary.c -- the few lines pomp-analyze prints after writing a report:
   how the run ended if it did not finish; the wait states and overheads
   with the largest own parts (exclusive totals), their share of total
   time, the call path where each costs most and the cause of the wait
   states; then, apart, computation and MPI start-up, which are not
   problems by themselves; a warning when buffer flushes took a
   noticeable share of the time (the measurement perturbed the run). */
#include <stdlib.h>
#include <string.h>

#include "az_common.h"
#include "az_output.h"
#include "pomp_util.h"

/* Characters of the worst call path shown: the line stays readable. */
enum { SUMMARY_PATH_WIDTH = 100, SUMMARY_TIME_WIDTH = 10 };

typedef struct {
  int32_t metric;
  double total;  /* own seconds; a problem's without start-up call paths */
  int32_t worst; /* the call path where it costs most, or -1 */
} ranked;

static int cmp_ranked(const void *pa, const void *pb) {
  const ranked *a = pa, *b = pb;
  if (a->total != b->total) return a->total > b->total ? -1 : 1;
  return (a->metric > b->metric) - (a->metric < b->metric);
}

/* Metric's own seconds over its call paths and the worst of them; for a
   problem, start-up call paths are left out (idle threads during MPI_Init
   are no problem of the program's; Wait at Finalize is: imbalance).  buf:
   num_cnodes values. */
static ranked rank_metric(const pomp_report *r, int32_t metric, int problem, double *buf) {
  ranked row = {metric, 0, -1};
  pomp_report_cnode_values(r, metric, 0, buf);
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++) {
    if (problem && pomp_report_startup_left_out(r, metric, c)) continue;
    row.total += buf[c];
    if (row.worst < 0 || buf[c] > buf[row.worst]) row.worst = c;
  }
  return row;
}

/* Time that is not a problem by itself (pomp_report_metric_is_problem):
   computation (the work), and MPI start-up and management (MPI_Init,
   MPI_Finalize, communicator calls), which every MPI program pays once. */
static int is_work_or_startup(const pomp_report *r, int32_t m) {
  const char *name = pomp_report_metric(r, m)->name;
  return !strcmp(name, "comp") || !strcmp(name, "mpi_management");
}

/* "  mpi_latesender    4.13 s  23.47%  main;solve;MPI_Recv": seconds as
   pomp-report stat shows them, function names without their parameter
   lists; a long path is cut at the root end so that the leaf, where the
   time is, stays. */
static void print_row(const pomp_report *r, const ranked *row, double total, FILE *out) {
  char seconds[32];
  pu_format_seconds(seconds, sizeof seconds, row->total);
  int pad = SUMMARY_TIME_WIDTH - pu_utf8_columns(seconds);
  fprintf(out, "  %-26s %*s%s %6.2f%%", pomp_report_metric(r, row->metric)->name, pad > 0 ? pad : 0,
          "", seconds, total > 0 ? 100 * row->total / total : 0.0);
  if (row->worst >= 0) {
    char path[SUMMARY_PATH_WIDTH + 1];
    pomp_report_callpath_label(r, row->worst, ";", SUMMARY_PATH_WIDTH, path, sizeof path);
    fprintf(out, "  %s", path);
  }
  fputc('\n', out);
}

/* The run's facts: how it ended if it did not finish, its total time,
   a perturbed or throttled measurement, what was not computed. */
static void print_run(const pomp_report *r, double total, FILE *out) {
  /* a run that did not finish: the values cover what it recorded */
  const char *status = pomp_report_attr(r, "run_status");
  if (status && *status && strcmp(status, "complete")) fprintf(out, "%s\n", status);
  char seconds[32];
  pu_format_seconds(seconds, sizeof seconds, total);
  fprintf(out, "total time %s over %d locations\n", seconds, pomp_report_num_locations(r));
  char perturbation[256];
  if (pomp_report_perturbation_warning(r, perturbation, sizeof perturbation))
    fprintf(out, "warning: %s\n", perturbation);
  const char *throttled = pomp_report_attr(r, "throttled");
  if (throttled) fprintf(out, "throttled (POMP_THROTTLE): %s\n", throttled);
  const char *instrumentation = pomp_report_attr(r, "instrumentation");
  if (instrumentation) fprintf(out, "instrumentation: %s\n", instrumentation);
  const char *not_computed = pomp_report_attr(r, POMP_REPORT_NOT_COMPUTED);
  if (not_computed) fprintf(out, "not computed: %s\n", not_computed);
}

/* Wait states and overheads first, ranked by their own part; computation
   and start-up after them, apart: they are where the time goes, not
   problems. */
void az_summary_print(const pomp_report *r, int top, FILE *out) {
  int32_t time = pomp_report_find_metric(r, "time");
  double total = time >= 0 ? pomp_report_metric_total(r, time, 1) : 0;
  int32_t nm = pomp_report_num_metrics(r);
  ranked *problems = pu_malloc((size_t)(nm > 0 ? nm : 1) * sizeof *problems);
  ranked *work = pu_malloc((size_t)(nm > 0 ? nm : 1) * sizeof *work);
  int n = 0, nwork = 0;
  double *buf = pu_malloc((size_t)(pomp_report_num_cnodes(r) + 1) * sizeof *buf);
  for (int32_t m = 0; m < nm; m++) {
    int problem = pomp_report_metric_is_problem(r, m);
    if (!problem && !is_work_or_startup(r, m)) continue; /* time, delay costs, visits */
    ranked row = rank_metric(r, m, problem, buf);
    if (row.total <= 0) continue;
    if (problem) problems[n++] = row;
    else work[nwork++] = row;
  }
  free(buf);
  az_sort(problems, (size_t)n, sizeof *problems, cmp_ranked);
  az_sort(work, (size_t)nwork, sizeof *work, cmp_ranked);
  print_run(r, total, out);
  if (n == 0) {
    fprintf(out, "wait states and overheads: none\n");
  } else {
    fprintf(out, "wait states and overheads (own part: a property's time without that of its "
                 "sub-properties; MPI start-up left out):\n");
    fprintf(out, "  %-26s %*s %7s  %s\n", "property", SUMMARY_TIME_WIDTH, "own time", "% time",
            "worst call path");
    for (int i = 0; i < n && i < top; i++) print_row(r, &problems[i], total, out);
  }
  /* why, for the wait states listed */
  char cause[POMP_REPORT_CAUSE_SIZE];
  for (int i = 0; i < n && i < top; i++)
    if (pomp_report_wait_cause(r, problems[i].metric, cause, sizeof cause))
      fprintf(out, "  cause: %s\n", cause);
  if (nwork > 0) {
    fprintf(out, "computation and start-up (not problems by themselves):\n");
    for (int i = 0; i < nwork; i++) print_row(r, &work[i], total, out);
  }
  free(problems);
  free(work);
}
