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

#include "tracegen.h"
#include <unistd.h>

#include "tracegen.h"

/* OTF2 3.0.2 itself leaks what it allocated when OTF2_Reader_Open fails
   (a missing or corrupt anchor) and when it gives up on some corrupt
   global definitions (found by fuzz_trace.c): the leak checker of the
   sanitizer build looks past allocations made inside OTF2 only. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libopen-trace-format2\n"; }

void az_run_mkdir(az_run *run) {
  memset(run, 0, sizeof *run);
  const char *tmp = getenv("TMPDIR");
  snprintf(run->dir, sizeof run->dir, "%s/pomp-az-XXXXXX", tmp ? tmp : "/tmp");
  assert_non_null(mkdtemp(run->dir));
}

void az_run_assert_same(const pomp_report *x, const pomp_report *y) {
  int32_t nc = pomp_report_num_cnodes(x), nm = pomp_report_num_metrics(x),
          nl = pomp_report_num_locations(x);
  assert_int_equal(nc, pomp_report_num_cnodes(y));
  assert_int_equal(nl, pomp_report_num_locations(y));
  char px[1024], py[1024];
  for (int32_t c = 0; c < nc; c++) {
    pomp_report_callpath(x, c, ";", px, sizeof px);
    pomp_report_callpath(y, c, ";", py, sizeof py);
    assert_string_equal(px, py);
    for (int32_t m = 0; m < nm; m++)
      for (int32_t l = 0; l < nl; l++)
        if (pomp_report_value(x, m, c, l) != pomp_report_value(y, m, c, l))
          fail_msg("%s at %s, location %d: %g in one report, %g in the other",
                   pomp_report_metric(x, m)->name, px, l, pomp_report_value(x, m, c, l),
                   pomp_report_value(y, m, c, l));
  }
}

int az_run_cross_check = 1;

int az_run_once(void **state) {
  (void)state;
  az_run_cross_check = 0;
  return 0;
}

int az_run_cross_check_again(void **state) {
  (void)state;
  az_run_cross_check = 1;
  return 0;
}
const char *az_run_status;
unsigned az_run_switched_off;
const az_delay_hooks *az_run_delay_hooks;

/* Analyses the trace in run->dir as pomp-analyze does, then again in
   replay windows of two events each: both must give the very same report
   (or both fail). */
void az_run_dir(az_run *run) {
  char anchor[300];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", run->dir);
  az_options opt = {.run_status = az_run_status,
                    .switched_off = az_run_switched_off,
                    .delay_hooks = az_run_delay_hooks};
  run->status = az_analyze(&run->a, anchor, &opt);
  if (!run->status) run->report = az_report_build(&run->a, anchor, NULL);
  if (!az_run_cross_check) return;
  az_analysis small, threaded;
  az_options windows = {.window_events = 2,
                        .run_status = az_run_status,
                        .switched_off = az_run_switched_off,
                        .delay_hooks = az_run_delay_hooks};
  int status = az_analyze(&small, anchor, &windows);
  assert_int_equal(status != 0, run->status != 0);
  if (!status) {
    pomp_report *r = az_report_build(&small, anchor, NULL);
    az_run_assert_same(run->report, r);
    pomp_report_free(r);
  }
  /* the same with decoding threads (replay.c): the same report, or the
     same first error; three threads, so that each decodes some locations
     and a trace of one location leaves one idle */
  windows.threads = 3;
  int threaded_status = az_analyze(&threaded, anchor, &windows);
  assert_int_equal(threaded_status, status);
  assert_string_equal(threaded.diag.first_error, small.diag.first_error);
  assert_int_equal(threaded.events_read, small.events_read);
  if (!status) {
    pomp_report *r = az_report_build(&threaded, anchor, NULL);
    az_run_assert_same(run->report, r);
    pomp_report_free(r);
  }
  az_analysis_free(&threaded);
  az_analysis_free(&small);
}

void az_run_write(az_run *run, const char *text) {
  az_run_mkdir(run);
  char err[512];
  if (tg_write(run->dir, text, err, sizeof err)) fail_msg("tracegen: %s", err);
}

void az_run_text(az_run *run, const char *text) {
  az_run_write(run, text);
  az_run_dir(run);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
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

double az_run_value(const az_run *run, const char *metric, const char *path, int loc) {
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

double az_run_location_time(const az_run *run, int loc) {
  if (!run->report) fail_msg("analysis failed: %s", run->a.diag.first_error);
  double sum = 0;
  for (int m = 0; m < AZ_NUM_METRICS; m++) {
    if (!az_metric_in_time_tree(m)) continue;
    for (size_t c = 0; c < run->a.tree.len; c++)
      sum += az_value(&run->a, m, (int32_t)c, (uint32_t)loc);
  }
  return sum;
}

void az_run_write_pairs(az_run *run, uint64_t chunk, uint64_t pairs) {
  az_run_mkdir(run);
  char err[256];
  tg_writer *w = tg_open_chunks(run->dir, chunk, err, sizeof err);
  assert_non_null(w);
  assert_int_equal(tg_text(w,
                           "process 0 threads 1\n"
                           "region main compiler function main\n"
                           "region f user function f\n"
                           "loc 0.0\n0 enter main\n",
                           err, sizeof err),
                   0);
  OTF2_EvtWriter *ew = tg_evt_writer(w, 0, 0);
  for (uint64_t i = 0; i < pairs; i++) {
    OTF2_EvtWriter_Enter(ew, NULL, 10 + 10 * i, 1);
    OTF2_EvtWriter_Leave(ew, NULL, 15 + 10 * i, 1);
  }
  OTF2_EvtWriter_Leave(ew, NULL, 10 + 10 * pairs, 0);
  tg_time_span(w, 10 + 10 * pairs);
  assert_int_equal(tg_close(w, err, sizeof err), 0);
}
