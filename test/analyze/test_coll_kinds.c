/* One classification of MPI collectives for the three passes that read it
   (az_region.coll, analyze/roles.c): the wait states (collective.c), the
   delay costs (pass_delay.c) and the critical path (pass_critical.c) of
   the same call agree.  The call decides, by its name, as Scalasca's: not
   the MpiCollectiveEnd's operation, not the region's role.  Each case is
   one call over three ranks whose role or operation says otherwise (or
   that Scalasca does not count), in one of two traces with known answers
   (times in ns; az_run_text analyses each again in windows of two events
   and asserts the same report). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "az_test.h"

#define REGIONS                                                                                    \
  "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n"                                \
  "region main compiler function main\n"                                                           \
  "region work user function work\n"                                                               \
  "region tail user function tail\n"

/* Every rank works from 100 until it calls the case's region `call`,
   whose MpiCollectiveEnd (operation %1$s, root rank 0) all leave at 500. */
#define START "0 enter main\n"
#define LEFT "500 collend %1$s 0 0 8 8\n500 leave\n"

/* Trace A: rank 0 comes last (400), rank 1 at 200, rank 2 at 300; rank 2
   then works in `tail` until 1000, so the critical path ends there. A
   member that waits for rank 0 waits 200 (rank 1) and 100 (rank 2): 300
   in all, caused by rank 0's 300 more work. */
static const char *const trace_a =
    "loc 0.0\n" START "100 enter work\n400 leave\n400 enter call\n400 collbegin\n" LEFT
    "600 leave\n"
    "loc 1.0\n" START "100 enter work\n200 leave\n200 enter call\n200 collbegin\n" LEFT
    "600 leave\n"
    "loc 2.0\n" START "100 enter work\n300 leave\n300 enter call\n300 collbegin\n" LEFT
    "500 enter tail\n1000 leave\n1000 leave\n";

/* Trace B: the root, rank 0, comes first (150) and ends last (tail until
   1000); rank 1 comes last (400), rank 2 at 300.  A root that waits for
   the last non-root waits 250, caused by rank 1's 250 more work. */
static const char *const trace_b =
    "loc 0.0\n" START "100 enter work\n150 leave\n150 enter call\n150 collbegin\n" LEFT
    "500 enter tail\n1000 leave\n1000 leave\n"
    "loc 1.0\n" START "100 enter work\n400 leave\n400 enter call\n400 collbegin\n" LEFT
    "600 leave\n"
    "loc 2.0\n" START "100 enter work\n300 leave\n300 enter call\n300 collbegin\n" LEFT
    "600 leave\n";

typedef struct {
  const char *region; /* "ROLE NAME" of the call's region */
  const char *op;     /* OTF2_CollectiveOp of its MpiCollectiveEnd */
  int rooted_first;   /* 1: trace B, else A */
  const char *wait;   /* its wait state, NULL: none */
  const char *delay;  /* its delay cost (short-term), NULL: none */
  int moves;          /* the critical path moves to the late rank there */
} coll_case;

static const coll_case cases[] = {
    /* a barrier by its name, whatever its role (before: Wait at N x N) */
    {"coll_all2all MPI_Barrier", "0", 0, "mpi_barrier_wait", "delay_barrier", 1},
    /* N x N with the operation BARRIER (before: delay_barrier) */
    {"coll_all2all MPI_Allreduce", "0", 0, "mpi_wait_nxn", "delay_n2n", 1},
    /* MPI-4 large count, Fortran's upper case: their calls */
    {"coll_all2all MPI_Allreduce_c", "11", 0, "mpi_wait_nxn", "delay_n2n", 1},
    {"coll_all2all MPI_ALLREDUCE", "11", 0, "mpi_wait_nxn", "delay_n2n", 1},
    /* N x N with the role OTHER (before: no wait state) */
    {"coll_other MPI_Alltoallw", "10", 0, "mpi_wait_nxn", "delay_n2n", 1},
    /* 1-to-N with the role ALL2ALL (before: Wait at N x N, no delay) */
    {"coll_all2all MPI_Scatter", "4", 0, "mpi_latebroadcast", "delay_12n", 1},
    /* 1-to-N with the operation GATHER (before: the path stayed) */
    {"coll_one2all MPI_Bcast", "2", 0, "mpi_latebroadcast", "delay_12n", 1},
    /* N-to-1 with the operation ALLGATHERV (before: delay_n2n) */
    {"coll_all2one MPI_Reduce", "7", 1, "mpi_earlyreduce", "delay_n21", 1},
    /* N-to-1 with the role ALL2ALL (before: Wait at N x N, no delay) */
    {"coll_all2all MPI_Gather", "2", 1, "mpi_earlyreduce", "delay_n21", 1},
    /* no synchronisation point in Scalasca: handles made or freed
       (before: Wait at N x N, or Late Broadcast with delay_12n) */
    {"coll_all2all MPI_Comm_dup", "17", 0, NULL, NULL, 0},
    {"coll_all2all MPI_Comm_free", "18", 0, NULL, NULL, 0},
    {"coll_all2all MPI_Comm_create", "19", 0, NULL, NULL, 0},
    {"coll_all2all MPI_Comm_disconnect", "20", 0, NULL, NULL, 0},
    {"coll_one2all MPI_Win_allocate", "21", 0, NULL, NULL, 0},
    {"coll_all2one MPI_Win_free", "22", 1, NULL, NULL, 0},
    /* neighbourhood and non-blocking collectives (before: N x N) */
    {"coll_all2all MPI_Neighbor_alltoall", "8", 0, NULL, NULL, 0},
    {"coll_all2all MPI_Iallreduce", "11", 0, NULL, NULL, 0},
    /* Early Scan: a wait state, no synchronisation point for the others */
    {"coll_other MPI_Scan", "14", 0, "mpi_earlyscan", NULL, 0},
    {"coll_all2all MPI_Exscan", "15", 0, "mpi_earlyscan", NULL, 0},
    /* a collective MPI-IO transfer: pomp's own wait, as at a barrier */
    {"file_io MPI_File_write_all", "0", 0, "mpi_io_collective_wait", "delay_barrier", 1},
};

static const char *const waits[] = {
    "mpi_barrier_wait",  "mpi_barrier_completion", "mpi_wait_nxn",  "mpi_nxn_completion",
    "mpi_latebroadcast", "mpi_earlyreduce",        "mpi_earlyscan", "mpi_io_collective_wait"};
static const char *const delays[] = {
    "delay_barrier",          "delay_n2n",          "delay_12n",          "delay_n21",
    "delay_barrier_longterm", "delay_n2n_longterm", "delay_12n_longterm", "delay_n21_longterm"};

/* A metric's value in ns at (path, loc), or its total with path NULL. */
static long ns(const az_run *run, const char *metric, const char *path, int loc) {
  return lround((path ? az_run_value(run, metric, path, loc) : az_run_total(run, metric)) * 1e9);
}

/* Of the metrics m[0..n-1], `named` totals `want`, every other 0. */
static void only(const az_run *run, const char *label, const char *const *m, size_t n,
                 const char *named, long want) {
  for (size_t i = 0; i < n; i++) {
    long got = ns(run, m[i], NULL, 0), expected = named && !strcmp(m[i], named) ? want : 0;
    if (got != expected) fail_msg("%s: %s %ld, not %ld", label, m[i], got, expected);
  }
}

static void check(const coll_case *c) {
  char text[4096], body[2048], call[128];
  snprintf(body, sizeof body, c->rooted_first ? trace_b : trace_a, c->op);
  snprintf(text, sizeof text, REGIONS "region call mpi %s\n%s", c->region, body);
  snprintf(call, sizeof call, "main;%s", strchr(c->region, ' ') + 1);
  /* A: rank 0 is late, rank 2 waits and ends last; B: rank 1 is late,
     the root 0 waits and ends last */
  int late = c->rooted_first ? 1 : 0, waiter = c->rooted_first ? 0 : 2;
  long wait = c->rooted_first ? 250 : 300;
  az_run run;
  az_run_text(&run, text);
  assert_int_equal(run.status, 0);
  only(&run, c->region, waits, sizeof waits / sizeof *waits, c->wait, wait);
  only(&run, c->region, delays, sizeof delays / sizeof *delays, c->delay, wait);
  if (c->delay) assert_int_equal(ns(&run, c->delay, "main;work", late), wait);
  /* the path comes back through the waiter's call: at the late rank's
     enter (400) it moves to that rank's work, or stays on the waiter
     (time on the path: critical_path is stored exclusive along the metric
     tree) */
  long call_on_path = ns(&run, "critical_path", call, waiter) +
                      ns(&run, "critical_path_imbalance", call, waiter),
       late_work = ns(&run, "critical_path", "main;work", late) +
                   ns(&run, "critical_path_imbalance", "main;work", late);
  long want_call = c->moves ? 100 : c->rooted_first ? 350 : 200;
  long want_late = c->moves ? 300 : 0;
  if (call_on_path != want_call || late_work != want_late)
    fail_msg("%s: on the path %ld in the call on rank %d (not %ld), %ld in rank %d's work (not "
             "%ld)",
             c->region, call_on_path, waiter, want_call, late_work, late, want_late);
  az_run_free(&run);
}

static void each_call_is_one_kind_of_synchronisation_in_every_pass(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) check(&cases[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(each_call_is_one_kind_of_synchronisation_in_every_pass),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
