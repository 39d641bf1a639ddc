/* az_test.c -- see az_test.h. */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include "az_test.h"

#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracegen.h"

void az_run_mkdir(az_run *run) {
  memset(run, 0, sizeof *run);
  const char *tmp = getenv("TMPDIR");
  snprintf(run->dir, sizeof run->dir, "%s/pomp-az-XXXXXX", tmp ? tmp : "/tmp");
  assert_non_null(mkdtemp(run->dir));
}

void az_run_dir(az_run *run) {
  char anchor[300];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", run->dir);
  az_options opt = {0, 0};
  run->status = az_analyze(&run->a, anchor, &opt);
  if (!run->status) run->report = az_report_build(&run->a, anchor, NULL);
}

void az_run_text(az_run *run, const char *text) {
  az_run_mkdir(run);
  char err[512];
  if (tg_write(run->dir, text, err, sizeof err)) fail_msg("tracegen: %s", err);
  az_run_dir(run);
}

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw) {
  (void)st; (void)flag; (void)ftw;
  return remove(path);
}

void az_run_free(az_run *run) {
  if (run->report) pomp_report_free(run->report);
  az_analysis_free(&run->a);
  if (run->dir[0]) nftw(run->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  memset(run, 0, sizeof *run);
}

static int32_t find_cnode(const pomp_report *r, const char *path) {
  char buf[1024];
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++) {
    pomp_report_callpath(r, c, ";", buf, sizeof buf);
    if (!strcmp(buf, path)) return c;
  }
  return -1;
}

double az_run_value(const az_run *run, const char *metric, const char *path,
                    int loc) {
  if (!run->report) fail_msg("analysis failed: %s", run->a.diag.first_error);
  int32_t m = pomp_report_find_metric(run->report, metric);
  int32_t c = find_cnode(run->report, path);
  if (m < 0) fail_msg("no metric %s", metric);
  if (c < 0) fail_msg("no call path %s", path);
  return pomp_report_value(run->report, m, c, loc);
}

double az_run_total(const az_run *run, const char *metric) {
  if (!run->report) fail_msg("analysis failed: %s", run->a.diag.first_error);
  int32_t m = pomp_report_find_metric(run->report, metric);
  if (m < 0) fail_msg("no metric %s", metric);
  return pomp_report_metric_total(run->report, m, 0);
}
