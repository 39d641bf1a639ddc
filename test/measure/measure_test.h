/* measure_test.h -- what the trace tests share: cmocka, running scenario
   programs, reading their traces back. */
#ifndef MEASURE_TEST_H
#define MEASURE_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "run_scenario.h"
#include "trace_reader.h"

/* Asserts that the scenario exited with 0 and its trace reads back with
   timestamps that never decrease and event counts as declared. */
void mt_read_ok(const sc_result *r, tr_trace *t);
/* Runs the scenario (sc_run), asserts its stdout unless out is NULL, and
   reads its trace back with mt_read_ok. */
void mt_run(const char *scenario, const char *tag, const char *const *args, const char *const *env,
            const char *out, sc_result *r, tr_trace *t);
/* Asserts the events of l, as tr_join text. */
void mt_expect_events(const tr_location *l, const char *events);
/* Asserts that l's events, buffer flushes left out (BufferFlush and the
   TRACE BUFFER FLUSH region), are the n lines of cycle repeated `times`
   times, and that a record just after a flush region whose position in
   the cycle is moved_from or later (one sharing its predecessor's time)
   is at the flush's end (docs/TRACE.md, "Buffer flush"). Returns how many
   such records there were. */
size_t mt_expect_cycle_past_flushes(const tr_trace *t, const tr_location *l,
                                    const char *const *cycle, size_t n, long times,
                                    size_t moved_from);
/* Runs the scenario without arguments or environment and asserts its
   output and the events of its only location. */
void mt_expect_single_location(const char *scenario, const char *tag, const char *out,
                               const char *events);
/* Writes a file into the temporary directory; returns its path. */
const char *mt_write_file(const char *name, const char *text);
/* "POMP_FILTER=path" of a filter file written with these rules (static). */
const char *mt_filter_env(const char *name, const char *rules);
/* Group teardown: removes the temporary directory. */
int mt_teardown(void **state);

#endif
