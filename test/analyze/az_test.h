/* az_test.h -- test harness of pomp-analyze: writes a trace description
   (tracegen.h) to a fresh directory, analyses it in-process and answers
   questions about the resulting report by metric name and call path. */
#ifndef POMP_AZ_TEST_H
#define POMP_AZ_TEST_H

#include "az.h"
#include "az_output.h"
#include "pomp_report.h"

typedef struct {
  char dir[256];
  az_analysis a;
  pomp_report *report; /* NULL when the analysis failed */
  int status;          /* az_analyze's result */
} az_run;

/* Writes and analyses text; aborts the test if the trace cannot be
   written. */
void az_run_text(az_run *run, const char *text);
/* Only writes the trace (for a test that damages it before analysing:
   OTF2 caches what it read of a file within a process). */
void az_run_write(az_run *run, const char *text);
/* Analyses an already written directory (after the test damaged it), and
   unless az_run_cross_check is 0, again in replay windows of two events,
   asserting the same report. */
void az_run_dir(az_run *run);
extern int az_run_cross_check;
/* cmocka setup and teardown around a test of damaged files: after OTF2
   3.0.2 failed on a damaged event file, the next reader in the process
   can behave differently on another damaged file (it may take a
   truncated file for complete), so such tests analyse once. */
int az_run_once(void **state);
int az_run_cross_check_again(void **state);
/* Analyse as the trace of a run that did not finish, with this status
   ("incomplete: ..."); NULL (the default): a finished run. */
extern const char *az_run_status;
/* The analyses switched off (az_options.switched_off, AZ_OFF_*); 0: all. */
extern unsigned az_run_switched_off;
/* The delay pass's test hooks of the analyses (az_options.delay_hooks);
   NULL: none. */
extern const az_delay_hooks *az_run_delay_hooks;
/* Writes (only) a trace of one location entering and leaving region f
   `pairs` times inside main, 10 ticks apart, in event chunks of `chunk`
   bytes (OTF2 allows 256 KiB to 16 MiB): files of several chunks. */
void az_run_write_pairs(az_run *run, uint64_t chunk, uint64_t pairs);
/* A fresh temporary directory for a trace, in run->dir. */
void az_run_mkdir(az_run *run);
void az_run_free(az_run *run);
/* Fails the test unless every cell of the two reports is the same
   (exactly), with the same call paths and locations. */
void az_run_assert_same(const pomp_report *x, const pomp_report *y);
/* Exclusive value of metric at the call path "a;b;c" and location;
   fails the test if the metric or call path does not exist. */
double az_run_value(const az_run *run, const char *metric, const char *path, int loc);
/* Sum of an exclusive metric over every call path and location. */
double az_run_total(const az_run *run, const char *metric);
/* All time of one location (every time metric, every call path): at most
   the wall time in a consistent analysis. */
double az_run_location_time(const az_run *run, int loc);

#endif
