/* Unit tests of the end-to-end checker: matchers, both parsers, the check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_check.h"

static void selectors_pick_the_right_indices(void **state) {
  (void)state;
  static const struct {
    const char *text;
    const char *picks; /* of 4: '1' picked, '0' not */
  } cases[] = {{"*", "1111"},   {"2", "0010"},    {"!0", "0111"},    {"even", "1010"},
               {"odd", "0101"}, {"last", "0001"}, {"!last", "1110"}, {"inner", "0110"}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    e2e_selector s;
    assert_int_equal(e2e_selector_parse(cases[c].text, &s), 0);
    for (int i = 0; i < 4; i++)
      assert_int_equal(e2e_selector_matches(s, i, 4), cases[c].picks[i] == '1');
  }
  e2e_selector s;
  assert_int_equal(e2e_selector_parse("", &s), -1);
  assert_int_equal(e2e_selector_parse("-1", &s), -1);
  assert_int_equal(e2e_selector_parse("!", &s), -1);
  assert_int_equal(e2e_selector_parse("2x", &s), -1);
  assert_int_equal(e2e_selector_parse("evens", &s), -1);
}

static void callpath_suffixes_match_whole_components(void **state) {
  (void)state;
  const char *path = "main;late_sender;MPI_Recv";
  assert_true(e2e_callpath_ends_with(path, "MPI_Recv"));
  assert_true(e2e_callpath_ends_with(path, "late_sender;MPI_Recv"));
  assert_true(e2e_callpath_ends_with(path, "main;late_sender;MPI_Recv"));
  assert_true(e2e_callpath_ends_with(path, "*;MPI_Recv"));
  assert_false(e2e_callpath_ends_with(path, "sender;MPI_Recv"));
  assert_false(e2e_callpath_ends_with(path, "late_sender"));
  assert_false(e2e_callpath_ends_with(path, "x;main;late_sender;MPI_Recv"));
  assert_false(e2e_callpath_ends_with(path, "MPI_Send"));
  const char *omp = "main;loop;!$omp parallel @a.c:12;!$omp for @a.c:14;"
                    "!$omp implicit barrier @a.c:18";
  assert_true(
      e2e_callpath_ends_with(omp, "loop;!$omp parallel @*;!$omp for @*;!$omp implicit barrier @*"));
  assert_false(e2e_callpath_ends_with(omp, "loop;!$omp for @*;!$omp implicit "
                                           "barrier @*"));
  assert_true(e2e_callpath_ends_with(omp, "loop;**"));
  assert_true(e2e_callpath_ends_with(omp, "main;**;!$omp for @*;**"));
  assert_true(e2e_callpath_ends_with("main;loop", "loop;**"));
  assert_true(e2e_callpath_ends_with(path, "**"));
  assert_false(e2e_callpath_ends_with(omp, "ls;**"));
  assert_false(e2e_callpath_ends_with(omp, "**;main;loop"));
}

static void conditions_select_configurations(void **state) {
  (void)state;
  e2e_expectation e = {.nconds = 2, .cond = {{'r', '>', 2}, {'t', '=', 1}}};
  assert_true(e2e_conditions_hold(&e, 2, 1));
  assert_true(e2e_conditions_hold(&e, 8, 1));
  assert_false(e2e_conditions_hold(&e, 1, 1));
  assert_false(e2e_conditions_hold(&e, 4, 2));
  e2e_expectation none = {.nconds = 0};
  assert_true(e2e_conditions_hold(&none, 1, 1));
}

static void spec_reads_every_kind_of_line(void **state) {
  (void)state;
  const char *text = "# planted\n"
                     "large 0.02\n"
                     "mpi_latesender late_sender;MPI_Recv even:0 0.120 10% ranks>=2\n"
                     "omp_ibarrier_wait \"f;!$omp for @*\" *:!0 0.1 0.005  # comment\n"
                     "ignore * \"*;MPI_Init_thread\"\n"
                     "\n";
  e2e_spec spec;
  char err[256];
  assert_int_equal(e2e_spec_parse(&spec, text, "x.txt", err, sizeof err), 0);
  assert_true(spec.large == 0.02);
  assert_int_equal(spec.nexpect, 2);
  assert_int_equal(spec.nignore, 1);
  const e2e_expectation *ls = &spec.expect[0];
  assert_int_equal(ls->line, 3);
  assert_string_equal(ls->property, "mpi_latesender");
  assert_string_equal(ls->callpath, "late_sender;MPI_Recv");
  assert_int_equal(ls->ranks.kind, E2E_SEL_EVEN);
  assert_int_equal(ls->threads.kind, E2E_SEL_ONE);
  assert_int_equal(ls->threads.n, 0);
  assert_true(ls->value == 0.120);
  assert_true(ls->relative && ls->tolerance == 0.10);
  assert_int_equal(ls->nconds, 1);
  const e2e_expectation *ib = &spec.expect[1];
  assert_string_equal(ib->callpath, "f;!$omp for @*");
  assert_int_equal(ib->threads.kind, E2E_SEL_ALL_BUT);
  assert_false(ib->relative);
  assert_true(ib->tolerance == 0.005);
  assert_string_equal(spec.ignore[0].property, "*");
  assert_string_equal(spec.ignore[0].callpath, "*;MPI_Init_thread");
  e2e_spec_free(&spec);
}

typedef struct {
  const char *text, *message;
} error_case;

/* Each case must fail to parse with exactly its message. */
static void assert_errors(int (*parse)(const char *, char *, size_t), const error_case *cases,
                          size_t n) {
  for (size_t c = 0; c < n; c++) {
    char err[256];
    assert_int_equal(parse(cases[c].text, err, sizeof err), -1);
    assert_string_equal(err, cases[c].message);
  }
}

static int parse_spec(const char *text, char *err, size_t errlen) {
  e2e_spec spec;
  return e2e_spec_parse(&spec, text, "x.txt", err, errlen);
}

static int parse_rows(const char *text, char *err, size_t errlen) {
  e2e_rows rows;
  return e2e_rows_parse(&rows, text, "r.csv", err, errlen);
}

static void spec_errors_name_file_and_line(void **state) {
  (void)state;
  static const error_case cases[] = {
      {"a b c\n", "x.txt:1: error: want PROPERTY CALLPATH LOCATIONS VALUE "
                  "TOLERANCE [REQUIRES], got 3 fields"},
      {"\nm p 0 0.1 10%\n", "x.txt:2: error: locations '0': want RANKS:THREADS"},
      {"m p q:0 0.1 10%\n", "x.txt:1: error: bad rank selector 'q'"},
      {"m p 0:0 x 10%\n", "x.txt:1: error: 'x' is not a number of seconds"},
      {"m p 0:0 1 %\n", "x.txt:1: error: bad tolerance '%' (want 10% or 0.005)"},
      {"m p 0:0 1 1% cores>=2\n", "x.txt:1: error: condition 'cores>=2': want ranks or threads"},
      {"m \"p 0:0 1 1%\n", "x.txt:1: error: unterminated quote"},
      {"large\n", "x.txt:1: error: want large SECONDS"},
      {"plus m p 0:0\n", "x.txt:1: error: plus without an expectation before it"},
      {"m p 0:0 1 1%\nplus m p\n", "x.txt:2: error: want plus PROPERTY CALLPATH LOCATIONS"},
      {"m p 0:0 1 1%\nplus m p 0\n", "x.txt:2: error: locations '0': want RANKS:THREADS"},
  };
  assert_errors(parse_spec, cases, sizeof cases / sizeof cases[0]);
}

static void rows_read_quoted_csv(void **state) {
  (void)state;
  const char *csv = "metric,callpath,rank,thread,value\r\n"
                    "time,main,0,0,1.5\r\n"
                    "visits,\"main;say \"\"hi\"\", twice\",3,1,2\n";
  e2e_rows rows;
  char err[256];
  assert_int_equal(e2e_rows_parse(&rows, csv, "r.csv", err, sizeof err), 0);
  assert_int_equal(rows.n, 2);
  assert_string_equal(rows.rows[0].metric, "time");
  assert_true(rows.rows[0].value == 1.5);
  assert_string_equal(rows.rows[1].callpath, "main;say \"hi\", twice");
  assert_int_equal(rows.rows[1].rank, 3);
  assert_int_equal(rows.rows[1].thread, 1);
  e2e_rows_free(&rows);
}

static void rows_errors_name_file_and_line(void **state) {
  (void)state;
  static const error_case cases[] = {
      {"metric,callpath\n", "r.csv:1: error: header must be "
                            "'metric,callpath,rank,thread,value'"},
      {"metric,callpath,rank,thread,value\ntime,main,0,0\n",
       "r.csv:2: error: want 5 fields (metric,callpath,rank,thread,value)"},
      {"metric,callpath,rank,thread,value\ntime,main,0,0,1\ntime,\"m,0,0,1\n",
       "r.csv:3: error: bad quoting in field 2"},
      {"metric,callpath,rank,thread,value\ntime,main,-1,0,1\n",
       "r.csv:2: error: rank and thread must be counts"},
      {"metric,callpath,rank,thread,value\ntime,main,0,0,1s\n",
       "r.csv:2: error: value '1s' is not a number"},
  };
  assert_errors(parse_rows, cases, sizeof cases / sizeof cases[0]);
}

/* Runs the check of spec text against CSV text for a 2x2 run; returns the
   failures and leaves the printed lines in out. */
static int run_check(const char *spec_text, const char *csv, char *out, size_t outlen) {
  e2e_spec spec;
  e2e_rows rows;
  char err[256];
  assert_int_equal(e2e_spec_parse(&spec, spec_text, "s", err, sizeof err), 0);
  assert_int_equal(e2e_rows_parse(&rows, csv, "c", err, sizeof err), 0);
  FILE *f = fmemopen(out, outlen, "w");
  assert_non_null(f);
  int failures = e2e_check(&spec, &rows, 2, 2, f);
  fclose(f);
  e2e_rows_free(&rows);
  e2e_spec_free(&spec);
  return failures;
}

static const char CSV[] = "metric,callpath,rank,thread,value\n"
                          "time,main,0,0,9\n"
                          "mpi_latesender,main;ls;MPI_Recv,0,0,0.100\n"
                          "mpi_latesender,main;ls;MPI_Recv,0,0,0.011\n" /* summed: 0.111 */
                          "mpi_latesender,main;x;ls;MPI_Recv,1,0,0.095\n"
                          "omp_idle_threads,main;MPI_Init,0,1,0.500\n"
                          "mpi_barrier_wait,main;MPI_Barrier,1,1,0.004\n"
                          "visits,main,1,0,3\n"
                          "bytes_sent,main,1,0,8\n";

static void check_passes_within_tolerance(void **state) {
  (void)state;
  char out[2048];
  const char *spec = "mpi_latesender ls;MPI_Recv *:0 0.100 12%\n"
                     "ignore omp_idle_threads MPI_Init\n"
                     "visits main 1:0 3 0\n"
                     "bytes_sent main 1:0 8 0\n";
  assert_int_equal(run_check(spec, CSV, out, sizeof out), 0);
  assert_string_equal(out,
                      "ok   line 1: mpi_latesender at ls;MPI_Recv, rank 0 thread 0: 0.1110 s "
                      "(want 0.1000 s +- 0.0120)\n"
                      "ok   line 1: mpi_latesender at ls;MPI_Recv, rank 1 thread 0: 0.0950 s "
                      "(want 0.1000 s +- 0.0120)\n"
                      "ok   line 3: visits at main, rank 1 thread 0: 3 visits (want 3 visits "
                      "+- 0.0020)\n"
                      "ok   line 4: bytes_sent at main, rank 1 thread 0: 8 bytes (want 8 bytes "
                      "+- 0.0020)\n");
}

static void check_fails_outside_tolerance_and_on_unplanted(void **state) {
  (void)state;
  char out[2048];
  const char *spec = "large 0.003\n"
                     "mpi_latesender ls;MPI_Recv *:0 0.100 10%\n"
                     "mpi_latesender ls;MPI_Recv 0:1 0.050 10%\n"
                     "omp_lock_contention f;omp_set_lock *:* 0.05 10% "
                     "threads>=4\n";
  assert_int_equal(run_check(spec, CSV, out, sizeof out), 4);
  assert_string_equal(out, "FAIL line 2: mpi_latesender at ls;MPI_Recv, rank 0 thread 0: 0.1110 s "
                           "(want 0.1000 s +- 0.0100)\n"
                           "ok   line 2: mpi_latesender at ls;MPI_Recv, rank 1 thread 0: 0.0950 s "
                           "(want 0.1000 s +- 0.0100)\n"
                           "FAIL line 3: mpi_latesender at ls;MPI_Recv, rank 0 thread 1: 0.0000 s "
                           "(want 0.0500 s +- 0.0050)\n"
                           "skip line 4: omp_lock_contention at f;omp_set_lock (not for 2x2)\n"
                           "FAIL unplanted omp_idle_threads at main;MPI_Init, rank 0 thread 1: "
                           "0.5000 s (large is over 0.0030)\n"
                           "FAIL unplanted mpi_barrier_wait at main;MPI_Barrier, rank 1 thread 1: "
                           "0.0040 s (large is over 0.0030)\n");
}

/* The properties added for Scalasca parity are problems when nobody
   planted them; computation is not. */
static void new_wait_states_are_checked_too(void **state) {
  (void)state;
  char out[1024];
  const char *csv = "metric,callpath,rank,thread,value\n"
                    "mpi_earlyscan,main;MPI_Scan,1,0,0.020\n"
                    "omp_ordered,main;!$omp ordered @a.c:5,0,1,0.030\n"
                    "omp_taskwait,main;!$omp taskwait @a.c:9,0,0,0.040\n"
                    "comp,main,0,0,0.500\n";
  assert_int_equal(run_check("large 0.010\n", csv, out, sizeof out), 3);
  assert_string_equal(out, "FAIL unplanted mpi_earlyscan at main;MPI_Scan, rank 1 thread 0: "
                           "0.0200 s (large is over 0.0100)\n"
                           "FAIL unplanted omp_ordered at main;!$omp ordered @a.c:5, rank 0 thread "
                           "1: 0.0300 s (large is over 0.0100)\n"
                           "FAIL unplanted omp_taskwait at main;!$omp taskwait @a.c:9, rank 0 "
                           "thread 0: 0.0400 s (large is over 0.0100)\n");
}

/* Values computed from the trace (completions.awk) must be the report's,
   cell by cell, zeros and missing rows alike; the cells checked so are not
   held to `large` (a completion the load made long but the trace
   confirms), the other metrics still are. */
static void trace_values_replace_large_for_their_metrics(void **state) {
  (void)state;
  const char *report = "metric,callpath,rank,thread,value\n"
                       "mpi_nxn_completion,main;a;MPI_Allreduce,0,0,0.104\n"
                       "mpi_nxn_completion,main;b;MPI_Allreduce,1,0,0.020\n"
                       "mpi_nxn_completion,main;c;MPI_Allreduce,1,1,0.030\n"
                       "mpi_barrier_wait,main;MPI_Barrier,1,1,0.004\n";
  const char *trace = "metric,callpath,rank,thread,value\n"
                      "mpi_nxn_completion,main;a;MPI_Allreduce,0,0,0.1040000004\n"
                      "mpi_nxn_completion,main;b;MPI_Allreduce,1,0,0.021\n"
                      "mpi_nxn_completion,main;a;MPI_Allreduce,1,0,0\n"
                      "mpi_nxn_completion,main;d;MPI_Allreduce,0,0,0.005\n";
  e2e_spec spec;
  e2e_rows rows, from_trace;
  char err[256], out[1024];
  assert_int_equal(e2e_spec_parse(&spec, "large 0.003\n", "s", err, sizeof err), 0);
  assert_int_equal(e2e_rows_parse(&rows, report, "c", err, sizeof err), 0);
  assert_int_equal(e2e_rows_parse(&from_trace, trace, "t", err, sizeof err), 0);
  FILE *f = fmemopen(out, sizeof out, "w");
  assert_non_null(f);
  int failures = e2e_check_trace(&from_trace, &rows, f);
  failures += e2e_check(&spec, &rows, 2, 2, f);
  fclose(f);
  assert_int_equal(failures, 4);
  assert_string_equal(out, "FAIL mpi_nxn_completion at main;b;MPI_Allreduce, rank 1 thread 0: the "
                           "report says 0.02 s, the trace 0.021 s\n"
                           "FAIL mpi_nxn_completion at main;d;MPI_Allreduce, rank 0 thread 0: the "
                           "report says 0 s, the trace 0.005 s\n"
                           "FAIL mpi_nxn_completion at main;c;MPI_Allreduce, rank 1 thread 1: the "
                           "report says 0.03 s, the trace 0 s\n"
                           "FAIL unplanted mpi_barrier_wait at main;MPI_Barrier, rank 1 thread 1: "
                           "0.0040 s (large is over 0.0030)\n");
  e2e_rows_free(&from_trace);
  e2e_rows_free(&rows);
  e2e_spec_free(&spec);
}

/* A plus term is summed over every location it selects and added to the
   expectation's value at each of its own: a cause's short-term delay cost
   on rank 0 and the long-term costs its waits passed on, on other ranks. */
static void plus_terms_add_over_their_locations(void **state) {
  (void)state;
  char out[1024];
  const char *csv = "metric,callpath,rank,thread,value\n"
                    "delay_n2n,main;ckpt,0,0,0.800\n"
                    "delay_n2n,main;ckpt,1,0,0.500\n" /* not rank 0's */
                    "delay_n2n_longterm,main;work,1,0,0.060\n"
                    "delay_n2n_longterm,main;io,1,1,0.040\n"
                    "delay_n2n_longterm,main;ckpt,0,0,0.050\n";
  assert_int_equal(run_check("delay_n2n ckpt 0:0 0.950 1%\nplus delay_n2n_longterm ** *:*\n", csv,
                             out, sizeof out),
                   0);
  assert_string_equal(out, "ok   line 1: delay_n2n at ckpt + delay_n2n_longterm at **, rank 0 "
                           "thread 0: 0.9500 s (want 0.9500 s +- 0.0095)\n");
  /* several terms, each summed on its own: rank 1's short-term cost too */
  const char *spec = "delay_n2n ckpt 0:0 0.950 1%\n"
                     "plus delay_n2n_longterm ** *:*\n"
                     "# a comment between\n"
                     "plus delay_n2n ckpt 1:0\n";
  assert_int_equal(run_check(spec, csv, out, sizeof out), 1);
  assert_string_equal(out, "FAIL line 1: delay_n2n at ckpt + delay_n2n_longterm at ** + "
                           "delay_n2n at ckpt, rank 0 thread 0: 1.4500 s (want 0.9500 s +- "
                           "0.0095)\n");
}

static void check_rejects_locations_outside_the_run(void **state) {
  (void)state;
  char out[512];
  const char *csv = "metric,callpath,rank,thread,value\n"
                    "time,main,2,0,1\n";
  assert_int_equal(run_check("", csv, out, sizeof out), 1);
  assert_string_equal(out, "FAIL location rank 2 thread 0 is outside a 2x2 run\n");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(selectors_pick_the_right_indices),
      cmocka_unit_test(callpath_suffixes_match_whole_components),
      cmocka_unit_test(conditions_select_configurations),
      cmocka_unit_test(spec_reads_every_kind_of_line),
      cmocka_unit_test(spec_errors_name_file_and_line),
      cmocka_unit_test(rows_read_quoted_csv),
      cmocka_unit_test(rows_errors_name_file_and_line),
      cmocka_unit_test(check_passes_within_tolerance),
      cmocka_unit_test(check_fails_outside_tolerance_and_on_unplanted),
      cmocka_unit_test(check_rejects_locations_outside_the_run),
      cmocka_unit_test(new_wait_states_are_checked_too),
      cmocka_unit_test(plus_terms_add_over_their_locations),
      cmocka_unit_test(trace_values_replace_large_for_their_metrics),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
