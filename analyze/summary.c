/* summary.c -- the few lines pomp-analyze prints after writing a report:
   how the run ended if it did not finish, the time-like properties with
   the largest exclusive totals, their share of total time and the call
   path where each costs most; a warning when buffer flushes took a
   noticeable share of the time (the measurement perturbed the run). */
#include <stdlib.h>
#include <string.h>

#include "az_common.h"
#include "az_output.h"
#include "pomp_util.h"

/* Characters of the worst call path shown: the line stays readable. */
enum { SUMMARY_PATH_WIDTH = 100 };

typedef struct {
  int32_t metric;
  double total;
} ranked;

static int cmp_ranked(const void *pa, const void *pb) {
  const ranked *a = pa, *b = pb;
  if (a->total != b->total) return a->total > b->total ? -1 : 1;
  return (a->metric > b->metric) - (a->metric < b->metric);
}

static void print_worst(const pomp_report *r, int32_t metric, double *buf, FILE *out) {
  pomp_report_cnode_values(r, metric, 0, buf);
  int32_t n = pomp_report_num_cnodes(r), worst = -1;
  for (int32_t c = 0; c < n; c++)
    if (worst < 0 || buf[c] > buf[worst]) worst = c;
  if (worst < 0) return;
  /* Function names without their parameter lists; a long path is cut at
     the root end so that the leaf, where the time is, stays. */
  char path[SUMMARY_PATH_WIDTH + 1];
  pomp_report_callpath_label(r, worst, ";", SUMMARY_PATH_WIDTH, path, sizeof path);
  fprintf(out, "  %s", path);
}

/* The delay costs explain wait states listed already, the critical path
   and the performance impact count time of the time tree again: not
   ranked. */
static int in_delay_tree(const pomp_report *r, int32_t m) {
  while (pomp_report_metric(r, m)->parent >= 0) m = pomp_report_metric(r, m)->parent;
  const char *root = pomp_report_metric(r, m)->name;
  return !strcmp(root, "delay") || !strcmp(root, "critical_path") ||
         !strcmp(root, "performance_impact");
}

void az_summary_print(const pomp_report *r, int top, FILE *out) {
  int32_t time = pomp_report_find_metric(r, "time");
  double total = time >= 0 ? pomp_report_metric_total(r, time, 1) : 0;
  int32_t nm = pomp_report_num_metrics(r);
  ranked *list = pu_malloc((size_t)(nm > 0 ? nm : 1) * sizeof *list);
  int n = 0;
  for (int32_t m = 0; m < nm; m++) {
    if (m == time || pomp_report_metric(r, m)->unit != POMP_UNIT_SEC || in_delay_tree(r, m))
      continue;
    double v = pomp_report_metric_total(r, m, 0);
    if (v > 0) list[n++] = (ranked){m, v};
  }
  az_sort(list, (size_t)n, sizeof *list, cmp_ranked);
  /* a run that did not finish: the values cover what it recorded */
  const char *status = pomp_report_attr(r, "run_status");
  if (status && *status && strcmp(status, "complete")) fprintf(out, "%s\n", status);
  fprintf(out, "total time %.6g s over %d locations\n", total, pomp_report_num_locations(r));
  char perturbation[256];
  if (pomp_report_perturbation_warning(r, perturbation, sizeof perturbation))
    fprintf(out, "warning: %s\n", perturbation);
  const char *throttled = pomp_report_attr(r, "throttled");
  if (throttled) fprintf(out, "throttled (POMP_THROTTLE): %s\n", throttled);
  fprintf(out, "  %-26s %12s %7s  %s\n", "property", "seconds", "% time", "worst call path");
  double *buf = pu_malloc((size_t)(pomp_report_num_cnodes(r) + 1) * sizeof *buf);
  for (int i = 0; i < n && i < top; i++) {
    fprintf(out, "  %-26s %12.6g %6.2f%%", pomp_report_metric(r, list[i].metric)->name,
            list[i].total, total > 0 ? 100 * list[i].total / total : 0.0);
    print_worst(r, list[i].metric, buf, out);
    fputc('\n', out);
  }
  /* why, for the wait states listed */
  char cause[400];
  for (int i = 0; i < n && i < top; i++)
    if (pomp_report_wait_cause(r, list[i].metric, cause, sizeof cause))
      fprintf(out, "  cause: %s\n", cause);
  free(buf);
  free(list);
}
