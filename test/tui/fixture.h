/*
 * fixture.h -- small reports with hand-checkable values for the screen
 * tests.  "small": 7 properties, 5 call paths, 2 ranks x 2 threads, time
 * totals exactly 100 s (so % of time equals seconds).  "wide": one process
 * with 12 threads worth 1..12 s (large-node rows).  "diff": negative
 * values (diverging scale).  "incomplete": "small" from a run that did not
 * finish (run_status).  "incomplete_long": the same with a recovered
 * trace's long run_status and a long trace path (wrapping).  "pop_*": the
 * planted POP reports of test/report/pop_fixture.h.  "snapshot": a
 * profile snapshot of the small run at 2.0 s, with fewer call paths.
 * "not_computed": pop_balanced whose attribute not_computed names the
 * critical path and the OpenMP delay costs (an OpenMP-task trace).
 */
#ifndef TUI_FIXTURE_H
#define TUI_FIXTURE_H

#include "pomp_report.h"

pomp_report *tui_fixture(const char *name);

#endif
