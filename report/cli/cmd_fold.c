/* cmd_fold.c -- pomp-report fold: folded stacks ("main;solve;MPI_Recv 42"),
   the input of flamegraph.pl and speedscope.  Each line is one call path
   with its call-path-exclusive value of the metric and its sub-metrics,
   summed over locations; seconds become integer microseconds because the
   tools expect integer sample counts. */
#include <math.h>
#include <stdlib.h>

#include "cli.h"
#include "pomp_util.h"

static const char summary[] =
    "Prints one line 'callpath value' per call path with a non-zero value\n"
    "of metric M (M and its sub-metrics, exclusive in the call tree, summed\n"
    "over all locations).  Time metrics are printed in integer\n"
    "microseconds, counts and bytes as integers.  Pipe into flamegraph.pl.\n";

int cmd_fold(int argc, char **argv) {
  const char *path, *metric = NULL;
  const pu_option options[] = {
      {"metric", 'm', "M", "the metric whose values are folded", PU_STRING(&metric), .required = 1},
      PU_OPT_END};
  const pu_opt_command cmd = {
      "fold", "REPORT", 1, 1, .summary = summary, .options = options, .failure = CLI_FAILURE};
  pu_opt_parse(&cmd, argc, argv, &path);
  pomp_report *r = cli_open(path);
  int32_t m = cli_metric(r, metric, path);
  int32_t nc = pomp_report_num_cnodes(r);
  double *v = pu_malloc(((size_t)nc + 1) * sizeof *v);
  pomp_report_cnode_values(r, m, 1, v);
  double scale = pomp_report_metric(r, m)->unit == POMP_UNIT_SEC ? 1e6 : 1;
  char *cp = NULL;
  size_t cap = 0;
  for (int32_t c = 0; c < nc; c++) {
    double x = round(v[c] * scale);
    if (x != 0) printf("%s %.0f\n", cli_callpath(r, c, &cp, &cap), x);
  }
  free(cp);
  free(v);
  pomp_report_free(r);
  return POMP_EXIT_OK;
}
