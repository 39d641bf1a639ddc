/*
 * check.c -- the comparison itself: each applicable expectation at each
 * location it selects, then "nothing large where nothing was planted".
 */
#include "e2e_check.h"

#include <math.h>
#include <string.h>

/* Properties the `large` check looks at: the wait states and idle time of
   the catalogue (docs/ARCHITECTURE.md §4).  Time, computation, management
   (MPI_Init alone takes a while), visits and bytes are not problems. */
static const char *const WAIT_STATES[] = {
    "mpi_latesender", "mpi_latesender_wo", "mpi_latereceiver", "mpi_earlyreduce",
    "mpi_latebroadcast", "mpi_wait_nxn", "mpi_nxn_completion", "mpi_barrier_wait",
    "mpi_barrier_completion", "omp_ebarrier_wait", "omp_ibarrier_wait", "omp_critical_contention",
    "omp_lock_contention", "omp_idle_threads", "omp_limited_parallelism",
    /* Scalasca parity: Early Scan, and the ordered and taskwait buckets,
       whose time is waiting (their bodies and tasks are regions of their
       own) */
    "mpi_earlyscan", "omp_ordered", "omp_taskwait"};

/* Never stricter than this: the clock and the scheduler are not exact. */
static const double TOLERANCE_FLOOR_S = 0.002;

int e2e_is_wait_state(const char *property) {
  for (size_t i = 0; i < sizeof WAIT_STATES / sizeof WAIT_STATES[0]; i++)
    if (strcmp(property, WAIT_STATES[i]) == 0) return 1;
  return 0;
}

/* A value in its property's unit: "0.3000 s", "2 visits", "4 bytes". */
static const char *show(char *buf, size_t len, const char *property, double v) {
  if (strcmp(property, "visits") == 0) snprintf(buf, len, "%.0f visits", v);
  else if (strncmp(property, "bytes_", 6) == 0) snprintf(buf, len, "%.0f bytes", v);
  else snprintf(buf, len, "%.4f s", v);
  return buf;
}

static int row_selected(const e2e_expectation *e, const e2e_row *r, int ranks, int threads) {
  return strcmp(r->metric, e->property) == 0 && e2e_selector_matches(e->ranks, r->rank, ranks) &&
         e2e_selector_matches(e->threads, r->thread, threads) &&
         e2e_callpath_ends_with(r->callpath, e->callpath);
}

/* The plus terms of an expectation, each over every location it selects;
   marks the rows it used. */
static double plus_terms(const e2e_expectation *e, e2e_rows *rows, int ranks, int threads) {
  double sum = 0.0;
  for (size_t p = 0; p < e->nplus; p++)
    for (size_t i = 0; i < rows->n; i++) {
      e2e_row *r = &rows->rows[i];
      if (row_selected(&e->plus[p], r, ranks, threads)) {
        sum += r->value;
        r->covered = 1;
      }
    }
  return sum;
}

/* "delay_n2n at f" or "delay_n2n at f + delay_n2n_longterm at **" */
static const char *term_names(const e2e_expectation *e, char *buf, size_t len) {
  size_t used = (size_t)snprintf(buf, len, "%s at %s", e->property, e->callpath);
  for (size_t p = 0; p < e->nplus && used < len; p++)
    used += (size_t)snprintf(buf + used, len - used, " + %s at %s", e->plus[p].property,
                             e->plus[p].callpath);
  return buf;
}

/* Checks one expectation at one location; marks the rows it used. */
static int check_location(const e2e_expectation *e, e2e_rows *rows, int rank, int thread, int ranks,
                          int threads, FILE *out) {
  double got = plus_terms(e, rows, ranks, threads);
  for (size_t i = 0; i < rows->n; i++) {
    e2e_row *r = &rows->rows[i];
    if (r->rank == rank && r->thread == thread && row_selected(e, r, ranks, threads)) {
      got += r->value;
      r->covered = 1;
    }
  }
  double tol = e->relative ? e->tolerance * e->value : e->tolerance;
  if (tol < TOLERANCE_FLOOR_S) tol = TOLERANCE_FLOOR_S;
  int ok = fabs(got - e->value) <= tol;
  char shown[64], want[64], names[512];
  fprintf(out, "%-4s line %d: %s, rank %d thread %d: %s (want %s +- %.4f)\n", ok ? "ok" : "FAIL",
          e->line, term_names(e, names, sizeof names), rank, thread,
          show(shown, sizeof shown, e->property, got),
          show(want, sizeof want, e->property, e->value), tol);
  return !ok;
}

static int check_expectation(const e2e_expectation *e, e2e_rows *rows, int ranks, int threads,
                             FILE *out) {
  if (!e2e_conditions_hold(e, ranks, threads)) {
    fprintf(out, "skip line %d: %s at %s (not for %dx%d)\n", e->line, e->property, e->callpath,
            ranks, threads);
    return 0;
  }
  int failures = 0;
  for (int r = 0; r < ranks; r++)
    for (int t = 0; t < threads; t++)
      if (e2e_selector_matches(e->ranks, r, ranks) && e2e_selector_matches(e->threads, t, threads))
        failures += check_location(e, rows, r, t, ranks, threads, out);
  return failures;
}

static int ignored(const e2e_spec *spec, const e2e_row *r, int ranks, int threads) {
  for (size_t i = 0; i < spec->nignore; i++) {
    const e2e_expectation *g = &spec->ignore[i];
    if ((strcmp(g->property, "*") == 0 || strcmp(g->property, r->metric) == 0) &&
        e2e_conditions_hold(g, ranks, threads) && e2e_callpath_ends_with(r->callpath, g->callpath))
      return 1;
  }
  return 0;
}

static const e2e_row *same_cell(const e2e_rows *rows, const e2e_row *like) {
  for (size_t i = 0; i < rows->n; i++) {
    const e2e_row *r = &rows->rows[i];
    if (r->rank == like->rank && r->thread == like->thread && !strcmp(r->metric, like->metric) &&
        !strcmp(r->callpath, like->callpath))
      return r;
  }
  return NULL;
}

static int names_metric(const e2e_rows *rows, const char *metric) {
  for (size_t i = 0; i < rows->n; i++)
    if (!strcmp(rows->rows[i].metric, metric)) return 1;
  return 0;
}

static int disagrees(const char *metric, const char *callpath, int rank, int thread, double report,
                     double trace, FILE *out) {
  if (fabs(report - trace) <= E2E_TRACE_TOLERANCE_S) return 0;
  fprintf(out, "FAIL %s at %s, rank %d thread %d: the report says %.9g s, the trace %.9g s\n",
          metric, callpath, rank, thread, report, trace);
  return 1;
}

int e2e_check_trace(const e2e_rows *trace, e2e_rows *rows, FILE *out) {
  int failures = 0;
  for (size_t i = 0; i < trace->n; i++) {
    const e2e_row *t = &trace->rows[i];
    const e2e_row *r = same_cell(rows, t);
    failures +=
        disagrees(t->metric, t->callpath, t->rank, t->thread, r ? r->value : 0, t->value, out);
  }
  for (size_t i = 0; i < rows->n; i++) {
    e2e_row *r = &rows->rows[i];
    if (!names_metric(trace, r->metric)) continue;
    r->trace_checked = 1;
    if (!same_cell(trace, r))
      failures += disagrees(r->metric, r->callpath, r->rank, r->thread, r->value, 0, out);
  }
  return failures;
}

/* A wait-state value outside the run's locations is a failure too: the
   report would be describing another run. */
static int check_unplanted(const e2e_spec *spec, const e2e_rows *rows, int ranks, int threads,
                           FILE *out) {
  int failures = 0;
  for (size_t i = 0; i < rows->n; i++) {
    const e2e_row *r = &rows->rows[i];
    if (r->rank >= ranks || r->thread >= threads) {
      fprintf(out, "FAIL location rank %d thread %d is outside a %dx%d run\n", r->rank, r->thread,
              ranks, threads);
      failures++;
      continue;
    }
    if (r->covered || r->trace_checked || !e2e_is_wait_state(r->metric) ||
        fabs(r->value) <= spec->large || ignored(spec, r, ranks, threads))
      continue;
    char shown[64];
    fprintf(out,
            "FAIL unplanted %s at %s, rank %d thread %d: %s "
            "(large is over %.4f)\n",
            r->metric, r->callpath, r->rank, r->thread,
            show(shown, sizeof shown, r->metric, r->value), spec->large);
    failures++;
  }
  return failures;
}

int e2e_check(const e2e_spec *spec, e2e_rows *rows, int ranks, int threads, FILE *out) {
  int failures = 0;
  for (size_t i = 0; i < rows->n; i++) rows->rows[i].covered = 0;
  for (size_t i = 0; i < spec->nexpect; i++)
    failures += check_expectation(&spec->expect[i], rows, ranks, threads, out);
  failures += check_unplanted(spec, rows, ranks, threads, out);
  return failures;
}
