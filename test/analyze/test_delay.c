/* Delay costs (analyze/pass_delay.c): waits at MPI barriers and N x N
   collectives charged to the call paths that made the last member late,
   short-term, and long-term along a chain of waits over four ranks.  Every
   value is known by construction (times in ns); az_run_text analyses each
   trace again in windows of two events and asserts the same report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "az_test.h"

#define REGIONS                                                                                    \
  "region main compiler function main\n"                                                           \
  "region work user function work\n"                                                               \
  "region io user function io\n"                                                                   \
  "region barrier mpi barrier MPI_Barrier\n"                                                       \
  "region allreduce mpi coll_all2all MPI_Allreduce\n"

/* One call of region R, collective OP (OTF2_CollectiveOp: 0 barrier, 11
   allreduce) on communicator C from E to X; a user region from E to X. */
#define COLL(R, OP, C, E, X)                                                                       \
#E " enter " R "\n" #E " collbegin\n" #X " collend " #OP " " #C " - 8 8\n" #X " leave\n"
#define BARRIER(C, E, X) COLL("barrier", 0, C, E, X)
#define ALLREDUCE(E, X) COLL("allreduce", 11, 0, E, X)
#define RUN(R, E, X) #E " enter " R "\n" #X " leave\n"
/* every rank starts with a barrier on all ranks, left together at 100 */
#define LOC(N, BODY) "loc " N "\n0 enter main\n" BARRIER(0, 0, 100) BODY "1000 leave\n"

/* Rank 0 works 400 ns longer than rank 1 before their barrier (comm 2):
   rank 1 waits 400.  Rank 1, late by that wait, makes rank 2 wait 400 at
   theirs (comm 3), and rank 2 so makes rank 3 wait 400 (comm 4).  Every
   rank then meets at a barrier of all at 800 (no wait). */
static const char *const chain =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\nprocess 3 threads 1\n" REGIONS
    "comm 2 ranks 0 1\ncomm 3 ranks 1 2\ncomm 4 ranks 2 3\n" LOC(
        "0.0",
        RUN("work", 100, 600) BARRIER(2, 600, 600) RUN("work", 600, 800) BARRIER(0, 800, 900))
        LOC("1.0", RUN("work", 100, 200) BARRIER(2, 200, 600) RUN("work", 600, 700)
                       BARRIER(3, 700, 700) RUN("work", 700, 800) BARRIER(0, 800, 900))
            LOC("2.0", RUN("work", 100, 300) BARRIER(3, 300, 700) RUN("work", 700, 800)
                           BARRIER(4, 800, 800) BARRIER(0, 800, 900))
                LOC("3.0", RUN("work", 100, 400) BARRIER(4, 400, 800) BARRIER(0, 800, 900));

static void a_chain_of_barrier_waits_goes_back_to_its_cause(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, chain);
  assert_int_equal(run.status, 0);
  /* the three waits of 400 */
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 1200e-9);
  /* rank 1's wait: rank 0's extra work, short-term */
  assert_true(az_run_value(&run, "delay_barrier", "main;work", 0) == 400e-9);
  /* ranks 2 and 3 waited because rank 1 (then rank 2) waited: their
     waits go back through the chain to the same work, long-term */
  assert_true(az_run_value(&run, "delay_barrier_longterm", "main;work", 0) == 800e-9);
  assert_true(az_run_total(&run, "delay_barrier") == 400e-9);
  assert_true(az_run_total(&run, "delay_barrier_longterm") == 800e-9);
  /* ranks 1 and 2 did no more work than the ranks waiting for them */
  for (int loc = 1; loc < 4; loc++)
    assert_true(az_run_value(&run, "delay_barrier", "main;work", loc) == 0);
  assert_true(az_run_total(&run, "delay_n2n") == 0);
  az_run_free(&run);
}

/* Three ranks at an Allreduce entered at 600 (rank 0), 400 and 200.
   Rank 0 worked 400 and did io 100 since the first barrier; rank 1 worked
   150 and did io 150: its wait (200) is 0.8 of rank 0's delay (work 250;
   its io was not shorter), so rank 0's work is charged 200.  Rank 2 worked
   100: its wait (400) is all of rank 0's delay, work 300 and io 100. */
static const char *const nxn =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 500) RUN("io", 500, 600) ALLREDUCE(600, 700))
        LOC("1.0", RUN("work", 100, 250) RUN("io", 250, 400) ALLREDUCE(400, 700))
            LOC("2.0", RUN("work", 100, 200) ALLREDUCE(200, 700));

static void n_x_n_waits_are_charged_in_proportion_to_the_delays(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, nxn);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_wait_nxn") == 600e-9);
  assert_true(az_run_value(&run, "delay_n2n", "main;work", 0) == 500e-9);
  assert_true(az_run_value(&run, "delay_n2n", "main;io", 0) == 100e-9);
  assert_true(az_run_total(&run, "delay_n2n") == 600e-9);
  assert_true(az_run_total(&run, "delay_n2n_longterm") == 0);
  assert_true(az_run_total(&run, "delay_barrier") == 0);
  az_run_free(&run);
}

/* The same chain with rank 1's clock 1000 ns ahead and its offset in the
   trace: the backward pass reads with the offsets applied (also when it
   opens a location's file again for each block, as in the check with
   windows of two events). */
static void clock_offsets_apply_to_the_backward_pass(void **state) {
  (void)state;
  char text[8192], *out = text;
  const char *loc = NULL;
  for (const char *line = chain; *line;) {
    const char *end = strchr(line, '\n');
    size_t n = end ? (size_t)(end - line) : strlen(line);
    if (!strncmp(line, "loc ", 4)) loc = line + 4;
    if (loc && !strncmp(loc, "1.0", 3) && line[0] >= '0' && line[0] <= '9') {
      char *rest;
      long t = strtol(line, &rest, 10);
      out += sprintf(out, "%ld%.*s\n", t + 1000, (int)(n - (size_t)(rest - line)), rest);
    } else {
      out += sprintf(out, "%.*s\n", (int)n, line);
    }
    if (!strncmp(line, "comm 4", 6))
      out += sprintf(out, "offset 1 0 -1000\noffset 1 100000 -1000\n");
    line += n + (end != NULL);
  }
  az_run run;
  az_run_text(&run, text);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "delay_barrier", "main;work", 0) == 400e-9);
  assert_true(az_run_value(&run, "delay_barrier_longterm", "main;work", 0) == 800e-9);
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_chain_of_barrier_waits_goes_back_to_its_cause),
      cmocka_unit_test(n_x_n_waits_are_charged_in_proportion_to_the_delays),
      cmocka_unit_test(clock_offsets_apply_to_the_backward_pass),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
