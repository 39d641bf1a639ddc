/* Delay costs (analyze/pass_delay.c): waits at MPI barriers, N x N,
   1-to-N and N-to-1 collectives and at messages (Late Sender, Late
   Receiver) charged to the call paths that made the late party late,
   short-term, and long-term along chains of waits over four ranks; the
   classification of point-to-point waits.  Every
   value is known by construction (times in ns); az_run_text analyses each
   trace again in windows of two events and asserts the same report. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "az_delay.h"
#include "az_test.h"

#define REGIONS                                                                                    \
  "region main compiler function main\n"                                                           \
  "region work user function work\n"                                                               \
  "region io user function io\n"                                                                   \
  "region barrier mpi barrier MPI_Barrier\n"                                                       \
  "region allreduce mpi coll_all2all MPI_Allreduce\n"                                              \
  "region bcast mpi coll_one2all MPI_Bcast\n"                                                      \
  "region reduce mpi coll_all2one MPI_Reduce\n"                                                    \
  "region send mpi point2point MPI_Send\n"                                                         \
  "region recv mpi point2point MPI_Recv\n"                                                         \
  "region ssend mpi point2point MPI_Ssend\n"                                                       \
  "region isend mpi point2point MPI_Isend\n"                                                       \
  "region irecv mpi point2point MPI_Irecv\n"                                                       \
  "region wait mpi point2point MPI_Wait\n"                                                         \
  "region sendrecv mpi point2point MPI_Sendrecv\n"                                                 \
  "region waitall mpi point2point MPI_Waitall\n"                                                   \
  "region finalize mpi function MPI_Finalize\n"

/* One call of region R, collective OP (OTF2_CollectiveOp: 0 barrier, 11
   allreduce) on communicator C from E to X; a user region from E to X. */
#define COLL(R, OP, C, E, X)                                                                       \
#E " enter " R "\n" #E " collbegin\n" #X " collend " #OP " " #C " - 8 8\n" #X " leave\n"
#define BARRIER(C, E, X) COLL("barrier", 0, C, E, X)
#define ALLREDUCE(E, X) COLL("allreduce", 11, 0, E, X)
/* A rooted collective (1 broadcast, 12 reduce) on comm 0, root rank ROOT. */
#define ROOTED(R, OP, ROOT, E, X)                                                                  \
#E " enter " R "\n" #E " collbegin\n" #X " collend " #OP " 0 " #ROOT " 8 8\n" #X " leave\n"
/* A blocking send to / receive from rank P on comm 0, tag 0: called at E,
   the message event at M, left at X. */
#define SEND(P, E, M, X) #E " enter send\n" #M " send " #P " 0 0 8\n" #X " leave\n"
#define RECV(P, E, M, X) #E " enter recv\n" #M " recv " #P " 0 0 8\n" #X " leave\n"
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

/* Scalasca's interval bounds: an interval starts at its synchronisation's
   call with the time spent there after the first of the two left it.
   Rank 0 leaves the first barrier at 130, rank 1 at 100; rank 0 works
   until 500, rank 1 until 300, and rank 1 waits 200 at the second
   barrier.  Rank 0's delay: its work (370 against 200: 170) and its 30
   more in the first barrier (130 - 100), charged there: s = 200 / 200. */
static const char *const completion =
    "process 0 threads 1\nprocess 1 threads 1\n" REGIONS
    "loc 0.0\n0 enter main\n" BARRIER(0, 0, 130) RUN("work", 130, 500)
        BARRIER(0, 500, 600) "1000 leave\n"
                             "loc 1.0\n0 enter main\n" BARRIER(0, 0, 100) RUN("work", 100, 300)
                                 BARRIER(0, 300, 600) "1000 leave\n";

static void the_late_completion_of_the_previous_barrier_is_a_delay(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, completion);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 200e-9);
  assert_true(az_run_value(&run, "delay_barrier", "main;work", 0) == 170e-9);
  assert_true(az_run_value(&run, "delay_barrier", "main;MPI_Barrier", 0) == 30e-9);
  assert_true(az_run_total(&run, "delay_barrier") == 200e-9);
  az_run_free(&run);
}

/* MPI_Init is a synchronisation of all processes (Scalasca's): rank 0 in
   it from 0 to 220, rank 1 works 100 first and is in it from 100 to 200.
   Rank 0 then works until 500, rank 1 until 300: rank 1 waits 200 at the
   barrier.  The intervals start at MPI_Init: rank 0's work 280 against
   100 (180) and its 20 more in MPI_Init after rank 1 left it; the work
   before MPI_Init and MPI_Init's own time do not count (from the start of
   the run: work 80 and MPI_Init 120). */
static const char *const init =
    "process 0 threads 1\nprocess 1 threads 1\n" REGIONS "region init mpi function MPI_Init\n"
    "loc 0.0\n0 enter main\n" RUN("init", 0, 220) RUN("work", 220, 500)
        BARRIER(0, 500, 600) "1000 leave\n"
                             "loc 1.0\n0 enter main\n" RUN("work", 0, 100) RUN("init", 100, 200)
                                 RUN("work", 200, 300) BARRIER(0, 300, 600) "1000 leave\n";

static void mpi_init_starts_the_intervals(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, init);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 200e-9);
  assert_true(az_run_value(&run, "delay_barrier", "main;work", 0) == 180e-9);
  assert_true(az_run_value(&run, "delay_barrier", "main;MPI_Init", 0) == 20e-9);
  assert_true(az_run_total(&run, "delay_barrier") == 200e-9);
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

/* A chain of Late Senders over four ranks: rank 0 works 400 ns longer than
   rank 1 before sending to it (rank 1 waits 400); rank 1, late by that
   wait, sends to rank 2 late (rank 2 waits 400), and rank 2 to rank 3
   (rank 3 waits 400).  Every rank meets at a barrier at 800 (no wait). */
static const char *const ls_chain =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\nprocess 3 threads 1\n" REGIONS
        LOC("0.0",
            RUN("work", 100, 600) SEND(1, 600, 600, 600) RUN("work", 600, 800) BARRIER(0, 800, 900))
            LOC("1.0", RUN("work", 100, 200) RECV(0, 200, 600, 600) RUN("work", 600, 700)
                           SEND(2, 700, 700, 700) RUN("work", 700, 800) BARRIER(0, 800, 900))
                LOC("2.0", RUN("work", 100, 300) RECV(1, 300, 700, 700) RUN("work", 700, 800)
                               SEND(3, 800, 800, 800) BARRIER(0, 800, 900))
                    LOC("3.0", RUN("work", 100, 400) RECV(2, 400, 800, 800) BARRIER(0, 800, 900));

static void a_chain_of_late_senders_goes_back_to_its_cause(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, ls_chain);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latesender") == 1200e-9);
  /* rank 1's wait: rank 0's extra work, short-term; the waits of ranks 2
     and 3 go back through the chain to the same work, long-term */
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) == 400e-9);
  assert_true(az_run_value(&run, "delay_latesender_longterm", "main;work", 0) == 800e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 400e-9);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 800e-9);
  assert_true(az_run_total(&run, "delay_latereceiver") == 0);
  assert_true(az_run_total(&run, "delay_barrier") == 0);
  az_run_free(&run);
}

/* The same chain classified: rank 1's wait is direct (rank 0 did not
   wait) and propagating (it explains rank 2's); rank 2's is indirect and
   propagating; rank 3's indirect and terminal. */
static void late_senders_of_a_chain_are_direct_indirect_propagating_terminal(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, ls_chain);
  assert_int_equal(run.status, 0);
  const char *recv = "main;MPI_Recv";
  assert_true(az_run_value(&run, "mpi_wait_direct_latesender", recv, 1) == 400e-9);
  assert_true(az_run_value(&run, "mpi_wait_indirect_latesender", recv, 1) == 0);
  assert_true(az_run_value(&run, "mpi_wait_indirect_latesender", recv, 2) == 400e-9);
  assert_true(az_run_value(&run, "mpi_wait_indirect_latesender", recv, 3) == 400e-9);
  assert_true(az_run_total(&run, "mpi_wait_direct_latesender") == 400e-9);
  assert_true(az_run_total(&run, "mpi_wait_indirect_latesender") == 800e-9);
  assert_true(az_run_value(&run, "mpi_wait_propagating_latesender", recv, 1) == 400e-9);
  assert_true(az_run_value(&run, "mpi_wait_propagating_latesender", recv, 2) == 400e-9);
  assert_true(az_run_value(&run, "mpi_wait_terminal_latesender", recv, 3) == 400e-9);
  assert_true(az_run_total(&run, "mpi_wait_propagating_latesender") == 800e-9);
  assert_true(az_run_total(&run, "mpi_wait_terminal_latesender") == 400e-9);
  assert_true(az_run_total(&run, "mpi_wait_direct_latereceiver") == 0);
  az_run_free(&run);
}

/* Only a later point-to-point wait makes a wait propagating (Scalasca's
   MPI_WAIT_PROPAGATING listens to its Late Sender and Late Receiver delay
   analyses only).  Rank 0 works 400 ns longer than rank 1 before sending
   to it: rank 1 waits 400 (Late Sender, direct).  Rank 1, late by that
   wait, enters its barrier with rank 2 (comm 3) at 700, rank 2 at 300:
   rank 2 waits 400.  Rank 2's interval since the first barrier holds work
   200, rank 1's work 100 + 100 and its wait 400: the delay is the wait
   alone, s = 400 / 400, so rank 2's wait goes back through rank 1's to
   rank 0's work (400 delay_barrier_longterm, besides the 400 of
   delay_latesender).  Rank 1's wait explains a collective wait, no later
   point-to-point one: all of it is terminal (was propagating, 400, before
   2026-11-27). */
static const char *const ls_then_barrier =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS
    "comm 3 ranks 1 2\n" LOC("0.0", RUN("work", 100, 600) SEND(1, 600, 600, 600)
                                        RUN("work", 600, 800) BARRIER(0, 800, 900))
        LOC("1.0", RUN("work", 100, 200) RECV(0, 200, 600, 600) RUN("work", 600, 700)
                       BARRIER(3, 700, 700) RUN("work", 700, 800) BARRIER(0, 800, 900))
            LOC("2.0", RUN("work", 100, 300) BARRIER(3, 300, 700) RUN("work", 700, 800)
                           BARRIER(0, 800, 900));

static void a_wait_explaining_only_a_collective_wait_is_terminal(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, ls_then_barrier);
  assert_int_equal(run.status, 0);
  const char *recv = "main;MPI_Recv";
  assert_true(az_run_total(&run, "mpi_latesender") == 400e-9);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 400e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) == 400e-9);
  assert_true(az_run_value(&run, "delay_barrier_longterm", "main;work", 0) == 400e-9);
  assert_true(az_run_total(&run, "delay_barrier") == 0);
  assert_true(az_run_value(&run, "mpi_wait_direct_latesender", recv, 1) == 400e-9);
  assert_true(az_run_value(&run, "mpi_wait_terminal_latesender", recv, 1) == 400e-9);
  assert_true(az_run_total(&run, "mpi_wait_propagating_latesender") == 0);
  az_run_free(&run);
}

/* Rank 1 sends at 150 and its blocking send waits until rank 0, working
   until 500, posts the receive: Late Receiver of 350, caused by rank 0's
   350 more work (rank 1 worked 50). */
static const char *const late_receiver = "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
    "0.0", RUN("work", 100, 500) RECV(1, 500, 510, 520) BARRIER(0, 600, 700))
    LOC("1.0", RUN("work", 100, 150) SEND(0, 150, 155, 520) BARRIER(0, 600, 700));

static void a_late_receiver_is_charged_to_the_receivers_work(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, late_receiver);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Send", 1) == 350e-9);
  assert_true(az_run_value(&run, "delay_latereceiver", "main;work", 0) == 350e-9);
  assert_true(az_run_total(&run, "delay_latereceiver") == 350e-9);
  assert_true(az_run_total(&run, "delay_latereceiver_longterm") == 0);
  assert_true(az_run_total(&run, "delay_latesender") == 0);
  assert_true(az_run_value(&run, "mpi_wait_direct_latereceiver", "main;MPI_Send", 1) == 350e-9);
  assert_true(az_run_value(&run, "mpi_wait_terminal_latereceiver", "main;MPI_Send", 1) == 350e-9);
  assert_true(az_run_total(&run, "mpi_wait_direct_latesender") == 0);
  az_run_free(&run);
}

/* Rank 1 posts an Isend to rank 0 at 200, does io until 300 and waits for
   its completion there; rank 0 posts the receive at 500: Late Receiver of
   200 in rank 1's MPI_Wait.  Rank 1's interval runs to its MPI_Wait (not
   its MPI_Isend): it worked 100 and did io 100; rank 0 worked 300 and did
   io 100, so all 200 are rank 0's extra work (ending the interval at the
   Isend would put a third of it on io). */
static const char *const isend_late_receiver =
    "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
        "0.0",
        RUN("work", 100, 400) RUN("io", 400, 500) RECV(1, 500, 505, 510) BARRIER(0, 900, 950))
        LOC("1.0",
            RUN("work", 100, 200) "200 enter isend\n200 isend 0 0 0 8 5\n200 leave\n" RUN(
                "io", 200, 300) "300 enter wait\n510 isendcomplete 5\n510 leave\n" BARRIER(0, 900,
                                                                                           950));

static void a_late_receiver_of_an_isend_is_charged_to_the_receivers_work(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, isend_late_receiver);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Wait", 1) == 200e-9);
  assert_true(az_run_value(&run, "delay_latereceiver", "main;work", 0) == 200e-9);
  assert_true(az_run_value(&run, "delay_latereceiver", "main;io", 0) == 0);
  assert_true(az_run_total(&run, "delay_latereceiver") == 200e-9);
  assert_true(az_run_total(&run, "delay_latereceiver_longterm") == 0);
  assert_true(az_run_total(&run, "delay_latesender") == 0);
  assert_true(az_run_value(&run, "mpi_wait_direct_latereceiver", "main;MPI_Wait", 1) == 200e-9);
  assert_true(az_run_value(&run, "mpi_wait_terminal_latereceiver", "main;MPI_Wait", 1) == 200e-9);
  assert_true(az_run_total(&run, "mpi_wait_indirect_latereceiver") == 0);
  az_run_free(&run);
}

/* Rank 1's blocking send (entered at 300) waits until rank 0 posts its
   MPI_Irecv at 500, which rank 0 completes by an MPI_Wait at 600 after
   more work.  The late party's interval ends at the MPI_Irecv: rank 0's
   200 more work before it (300 against 100, io equal) is the cause; the
   work after it delays nobody. */
static const char *const irecv_late_receiver =
    "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
        "0.0",
        RUN("work", 100, 400) RUN(
            "io", 400,
            500) "500 enter irecv\n500 irecvreq 7\n"
                 "500 leave\n" RUN(
                     "work", 500,
                     600) "600 enter wait\n605 irecv 1 0 0 8 7\n610 leave\n" BARRIER(0, 900, 950))
        LOC("1.0",
            RUN("work", 100, 200) RUN("io", 200, 300) SEND(0, 300, 300, 510) BARRIER(0, 900, 950));

static void a_late_receiver_of_an_irecv_ends_at_its_posting(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, irecv_late_receiver);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Send", 1) == 200e-9);
  assert_true(az_run_value(&run, "delay_latereceiver", "main;work", 0) == 200e-9);
  assert_true(az_run_total(&run, "delay_latereceiver") == 200e-9);
  assert_true(az_run_total(&run, "mpi_latesender") == 0);
  assert_true(az_run_total(&run, "delay_latesender") == 0);
  az_run_free(&run);
}

/* Three ranks, through a Late Receiver: rank 0, working until 500, is late
   to receive the Isend of rank 1, whose MPI_Wait (entered at 200) waits
   300; rank 1, late by that wait, sends to rank 2 at 510, which has waited
   in its receive since 200 (310).  Rank 2's wait is rank 1's 300 of
   waiting plus 10 of MPI_Wait after it: 10 short-term on rank 1's
   MPI_Wait, 300 passed back through the Late Receiver to rank 0's work,
   long-term, in the kind of the wait it explains at the end of the chain
   (Scalasca's rule): rank 2's Late Sender, delay_latesender_longterm. */
static const char *const lr_chain =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 500) RECV(1, 500, 505, 510) BARRIER(0, 900, 950))
        LOC("1.0", RUN("work", 100, 200) "200 enter isend\n200 isend 0 0 0 8 5\n200 leave\n"
                                         "200 enter wait\n510 isendcomplete 5\n510 leave\n" SEND(
                                             2, 510, 510, 510) BARRIER(0, 900, 950))
            LOC("2.0", RUN("work", 100, 200) RECV(1, 200, 510, 510) BARRIER(0, 900, 950));

static void a_wait_goes_back_through_a_late_receiver_over_three_ranks(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, lr_chain);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Wait", 1) == 300e-9);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 2) == 310e-9);
  assert_true(az_run_value(&run, "delay_latereceiver", "main;work", 0) == 300e-9);
  assert_true(az_run_value(&run, "delay_latesender_longterm", "main;work", 0) == 300e-9);
  assert_true(az_run_total(&run, "delay_latereceiver") == 300e-9);
  assert_true(az_run_total(&run, "delay_latereceiver_longterm") == 0);
  assert_true(az_run_value(&run, "delay_latesender", "main;MPI_Wait", 1) == 10e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 10e-9);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 300e-9);
  /* rank 1's wait: direct, and propagating (it explains rank 2's); rank
     2's: 300 indirect, 10 direct, terminal */
  const char *wait = "main;MPI_Wait", *recv = "main;MPI_Recv";
  assert_true(az_run_value(&run, "mpi_wait_direct_latereceiver", wait, 1) == 300e-9);
  assert_true(az_run_value(&run, "mpi_wait_propagating_latereceiver", wait, 1) == 300e-9);
  assert_true(az_run_value(&run, "mpi_wait_indirect_latesender", recv, 2) == 300e-9);
  assert_true(az_run_value(&run, "mpi_wait_direct_latesender", recv, 2) == 10e-9);
  assert_true(az_run_value(&run, "mpi_wait_terminal_latesender", recv, 2) == 310e-9);
  az_run_free(&run);
}

/* An Isend completion that does not wait inside a later wait's interval
   (delay_central.c holds that interval until the completion's message is
   whole, then leaves it out): rank 1's MPI_Wait (200-220) completes an
   Isend rank 0 received since 150 (rank 0's Late Sender of 50, rank 1's
   50 more work); rank 2 waits 300 for rank 1's send at 500.  Rank 1's
   interval holds 380 of work and the 20 of MPI_Wait, not a wait: both are
   delays against rank 2's 100 of work, and nothing goes back further. */
static const char *const isend_no_wait =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 150) RECV(1, 150, 215, 220) BARRIER(0, 900, 950))
        LOC("1.0", RUN("work", 100,
                       200) "200 enter isend\n200 isend 0 0 0 8 5\n200 leave\n"
                            "200 enter wait\n220 isendcomplete 5\n220 leave\n" RUN("work", 220, 500)
                                SEND(2, 500, 500, 510) BARRIER(0, 900, 950))
            LOC("2.0", RUN("work", 100, 200) RECV(1, 200, 510, 510) BARRIER(0, 900, 950));

static void an_isend_completion_without_a_wait_is_a_delay_not_a_wait(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, isend_no_wait);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 0) == 50e-9);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 2) == 300e-9);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 0);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 1) == 330e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;MPI_Wait", 1) == 20e-9);
  /* nothing else: the sum of the two cells, to a rounding of doubles */
  assert_true(fabs(az_run_total(&run, "delay_latesender") - 350e-9) < 1e-18);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 0);
  assert_true(az_run_total(&run, "delay_latereceiver") == 0);
  az_run_free(&run);
}

/* MPI_Ssend records MpiSend, as MPI_Send does: its Late Receiver (the
   receive posted while it blocks) is found and charged the same way. */
static const char *const ssend_late_receiver =
    "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 500) RECV(1, 500, 510, 520) BARRIER(0, 600, 700))
        LOC("1.0", RUN("work", 100,
                       150) "150 enter ssend\n155 send 0 0 0 8\n520 leave\n" BARRIER(0, 600, 700));

static void a_late_receiver_of_an_ssend_is_charged_as_a_sends(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, ssend_late_receiver);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Ssend", 1) == 350e-9);
  assert_true(az_run_value(&run, "delay_latereceiver", "main;work", 0) == 350e-9);
  assert_true(az_run_total(&run, "delay_latereceiver") == 350e-9);
  assert_true(az_run_value(&run, "mpi_wait_direct_latereceiver", "main;MPI_Ssend", 1) == 350e-9);
  az_run_free(&run);
}

/* Rank 1's MPI_Sendrecv (from 200) sends to rank 0, which receives at
   400, and receives from rank 2, which sends at 450: as p2p.c counts it,
   the call holds a Late Sender (250, rank 2's 250 more work) and so no Late
   Receiver, and no Late Receiver delay is charged. */
static const char *const sendrecv_both =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 400) RECV(1, 400, 405, 410) BARRIER(0, 900, 950))
        LOC("1.0", RUN("work", 100, 200) "200 enter sendrecv\n200 send 0 0 0 8\n450 recv 2 0 0 8\n"
                                         "460 leave\n" BARRIER(0, 900, 950))
            LOC("2.0", RUN("work", 100, 450) SEND(1, 450, 450, 450) BARRIER(0, 900, 950));

static void a_call_with_a_late_sender_has_no_late_receiver_delay(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, sendrecv_both);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Sendrecv", 1) == 250e-9);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 0);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 2) == 250e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 250e-9);
  assert_true(az_run_total(&run, "delay_latereceiver") == 0);
  assert_true(az_run_total(&run, "mpi_wait_direct_latereceiver") == 0);
  az_run_free(&run);
}

/* Rank 1 posts an Irecv from rank 2 and an Isend to rank 0 at 200 and
   completes both in one MPI_Waitall from 200; rank 0 posts its receive at
   500 (300 of Late Receiver for the Waitall); rank 2 sends at SEND_AT, the
   Waitall completes the receive at DONE_AT. */
#define WAITALL_BOTH(SEND_AT, DONE_AT)                                                             \
  "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(                   \
      "0.0", RUN("work", 100, 500) RECV(1, 500, 505, 510) BARRIER(0, 900, 950))                    \
      LOC("1.0", RUN("work", 100, 200) "200 enter irecv\n200 irecvreq 3\n200 leave\n"              \
                                       "200 enter isend\n200 isend 0 0 0 8 4\n200 leave\n"         \
                                       "200 enter waitall\n" #DONE_AT " irecv 2 0 0 8 3\n"         \
                                       "510 isendcomplete 4\n515 leave\n" BARRIER(0, 900, 950))    \
          LOC("2.0",                                                                               \
              RUN("work", 100, SEND_AT) SEND(1, SEND_AT, SEND_AT, SEND_AT) BARRIER(0, 900, 950))

/* Rank 2 sends at 460: the Waitall holds a Late Sender of 260 (rank 2's
   260 more work) and so, as p2p.c counts it, no Late Receiver. */
static void a_waitall_with_a_late_sender_has_no_late_receiver_delay(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, WAITALL_BOTH(460, 470));
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Waitall", 1) == 260e-9);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 0);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 2) == 260e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 260e-9);
  assert_true(az_run_total(&run, "delay_latereceiver") == 0);
  assert_true(az_run_total(&run, "mpi_wait_direct_latereceiver") == 0);
  az_run_free(&run);
}

/* Rank 2 sends at 150, before the Waitall: no Late Sender, and the
   Waitall's 300 of Late Receiver go to rank 0's 300 more work. */
static void a_waitall_without_a_late_sender_charges_its_late_receiver(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, WAITALL_BOTH(150, 210));
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latesender") == 0);
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Waitall", 1) == 300e-9);
  assert_true(az_run_value(&run, "delay_latereceiver", "main;work", 0) == 300e-9);
  assert_true(az_run_total(&run, "delay_latereceiver") == 300e-9);
  assert_true(az_run_value(&run, "mpi_wait_direct_latereceiver", "main;MPI_Waitall", 1) == 300e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 0);
  az_run_free(&run);
}

/* Rank 0 sends to itself (an Isend completed by MPI_Wait: no
   synchronisation point) after the Late Receiver of isend_late_receiver's
   shape: the completion read without a message gives up at once, and the
   Late Receiver before it is charged as without it. */
static const char *const self_isend = "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
    "0.0", RUN("work", 100, 400) RUN("io", 400, 500)
               RECV(1, 500, 505,
                    510) "600 enter isend\n600 isend 0 0 1 8 9\n600 leave\n"
                         "610 enter recv\n615 recv 0 0 1 8\n620 leave\n"
                         "630 enter wait\n640 isendcomplete 9\n650 leave\n" BARRIER(0, 900, 950))
    LOC("1.0", RUN("work", 100, 200) "200 enter isend\n200 isend 0 0 0 8 5\n200 leave\n" RUN(
                   "io", 200,
                   300) "300 enter wait\n510 isendcomplete 5\n510 leave\n" BARRIER(0, 900, 950));

static void an_isend_to_itself_leaves_the_late_receiver_before_it_alone(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, self_isend);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Wait", 1) == 200e-9);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 200e-9);
  assert_true(az_run_value(&run, "delay_latereceiver", "main;work", 0) == 200e-9);
  assert_true(az_run_total(&run, "delay_latereceiver") == 200e-9);
  assert_true(az_run_total(&run, "mpi_wait_direct_latereceiver") == 200e-9);
  az_run_free(&run);
}

/* A ring: each rank sends to the next, then receives from the one before.
   Each send lies in the interval of the receive before it on its rank, so
   the instances form a ring too; only rank 1 waits (300, for rank 0's 300
   more work), and the ring must not hold its cost back. */
static const char *const ring =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 500) SEND(1, 500, 500, 500) RECV(2, 500, 500, 500)
                   BARRIER(0, 600, 700)) LOC("1.0", RUN("work", 100, 200) SEND(2, 200, 200, 200)
                                                        RECV(0, 200, 500, 500) BARRIER(0, 600, 700))
        LOC("2.0", RUN("work", 100, 200) SEND(0, 200, 200, 200) RECV(1, 200, 200, 200)
                       BARRIER(0, 600, 700));

static void a_ring_of_messages_still_charges_its_late_sender(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, ring);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latesender") == 300e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) == 300e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 300e-9);
  assert_true(az_run_total(&run, "mpi_wait_direct_latesender") == 300e-9);
  az_run_free(&run);
}

/* A message that did not wait is no synchronisation point (Scalasca's
   rule): the intervals of the next message between the same two ranks go
   on through it, back to their barrier.  Rank 0 does io 300, sends M1 (a
   call of 20, received after it was sent: no wait), works 280 and sends
   M2; rank 1 does io 100, works 250, receives M1, works 50 and waits 200
   for M2.  From the barrier (left together: no completion) rank 0 has io
   300, MPI_Send 20 (M1's call, time on its path) and work 280, rank 1 io
   100 and work 300: delays io 200 and MPI_Send 20 (work none), scale
   200 / 220; io 200 * 200 / 220 = 181.8 -> 182, MPI_Send 18.2 -> 18.
   (Were M1 a synchronisation: work 280 against 50 and rank 1's 30 of
   completion, all 200 on rank 0's work.) */
static const char *const no_wait_between = "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
    "0.0", RUN("io", 100, 400) SEND(1, 400, 400, 420) RUN("work", 420, 700) SEND(1, 700, 700, 700)
               BARRIER(0, 800, 900))
    LOC("1.0", RUN("io", 100, 200) RUN("work", 200, 450) RECV(0, 450, 450, 450)
                   RUN("work", 450, 500) RECV(0, 500, 700, 700) BARRIER(0, 800, 900));

static void a_message_that_did_not_wait_is_no_synchronisation_point(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, no_wait_between);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latesender") == 200e-9);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 0);
  assert_true(az_run_value(&run, "delay_latesender", "main;io", 0) == 182e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;MPI_Send", 0) == 18e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) == 0);
  assert_true(az_run_total(&run, "delay_latesender") == 200e-9);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 0);
  az_run_free(&run);
}

/* The chain's bound (az_delay_hooks.through_bound, DL_THROUGH_BOUND in a
   real analysis): the trace above with a bound of 1 takes M1 as a
   synchronisation, as pomp did before Scalasca's rule: all 200 on rank
   0's work (its 280 against rank 1's 50 and 30 of completion); with 2,
   the interval goes through M1 as without a bound. */
static void a_chain_through_messages_is_bounded(void **state) {
  (void)state;
  for (uint32_t bound = 1; bound <= 2; bound++) {
    const az_delay_hooks hooks = {.through_bound = bound};
    az_run_delay_hooks = &hooks;
    az_run run;
    az_run_text(&run, no_wait_between);
    az_run_delay_hooks = NULL;
    assert_int_equal(run.status, 0);
    assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) ==
                (bound == 1 ? 200e-9 : 0));
    assert_true(az_run_value(&run, "delay_latesender", "main;io", 0) == (bound == 1 ? 0 : 182e-9));
    assert_true(az_run_total(&run, "delay_latesender") == 200e-9);
    az_run_free(&run);
  }
}

/* A chain through a message that did not wait, to the previous one that
   did, and a wait inside it.  Rank 0 sends M0 at 200 (rank 1 waited 50
   for it: a synchronisation), waits 200 in a receive of X from rank 2
   (sent at 400), works 100, sends M1 at 500 (received at 600: no wait),
   works 300 and sends M2 at 800, for which rank 1 waited 150 (from 650).
   M0: rank 0 worked 100, rank 1 50: 50 on rank 0's work.  X: rank 2
   worked 300 since the barrier, rank 0 100 (its M0 send took no time):
   200 on rank 2's work.  M2's intervals go back through M1 to M0 (both
   left it at 200: no completion): rank 0 has work 400 and X's wait 200
   (its MPI_Recv: no time once its wait is out), rank 1 work 450.  No
   delay but rank 0's waiting, 200: scale 150 / 200, so nothing
   short-term and 200 * 0.75 = 150 passed to X's wait, which charges it
   to rank 2's work long-term (X's delay explains all of X: scale 1).
   M2's wait is indirect (150), X's propagating (150).  (Were M1 a
   synchronisation, M2 would charge 150 to rank 0's work, short-term.) */
static const char *const chain_through =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 200) SEND(1, 200, 200, 200) RECV(2, 200, 400, 400)
                   RUN("work", 400, 500) SEND(1, 500, 500, 500) RUN("work", 500, 800)
                       SEND(1, 800, 800, 800) BARRIER(0, 900, 900))
        LOC("1.0", RUN("work", 100, 150) RECV(0, 150, 200, 200) RUN("work", 200, 600)
                       RECV(0, 600, 600, 600) RUN("work", 600, 650) RECV(0, 650, 800, 800)
                           BARRIER(0, 900, 900))
            LOC("2.0", RUN("work", 100, 400) SEND(0, 400, 400, 400) BARRIER(0, 900, 900));

static void a_chain_goes_through_a_message_that_did_not_wait(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, chain_through);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latesender") == 400e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) == 50e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 2) == 200e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 250e-9);
  assert_true(az_run_value(&run, "delay_latesender_longterm", "main;work", 2) == 150e-9);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 150e-9);
  assert_true(az_run_value(&run, "mpi_wait_indirect_latesender", "main;MPI_Recv", 1) == 150e-9);
  assert_true(az_run_value(&run, "mpi_wait_propagating_latesender", "main;MPI_Recv", 0) == 150e-9);
  assert_true(az_run_total(&run, "mpi_wait_propagating_latesender") == 150e-9);
  az_run_free(&run);
}

/* Through a message sent by an MPI_Sendrecv whose receive waited: that
   wait lies in the later interval too.  Rank 0's Sendrecv (200 to 400)
   sends M1 to rank 1 (received at 450: no wait) and receives X from rank
   2, which sent at 400 (Late Sender, 200).  Rank 0 then works 300 and
   sends M2 at 700, for which rank 1 waited 200 (from 500).  X: rank 2
   worked 300 since the barrier, rank 0 100: 200 on rank 2's work.  M2's
   intervals go through M1 to the barrier: rank 0 has work 400 and the
   Sendrecv, all of it X's wait; rank 1 work 400.  Only rank 0's waiting
   explains M2's wait: scale 1, nothing short-term, 200 passed to X,
   whose delay (200) then charges 200 long-term to rank 2's work.  (Were
   M1 a synchronisation: 200 short-term on rank 0's work.) */
static const char *const through_sendrecv =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 200) "200 enter sendrecv\n200 send 1 0 0 8\n400 recv 2 0 0 8\n"
                                     "400 leave\n" RUN("work", 400, 700) SEND(1, 700, 700, 700)
                                         BARRIER(0, 900, 900))
        LOC("1.0", RUN("work", 100, 450) RECV(0, 450, 450, 450) RUN("work", 450, 500)
                       RECV(0, 500, 700, 700) BARRIER(0, 900, 900))
            LOC("2.0", RUN("work", 100, 400) SEND(0, 400, 400, 400) BARRIER(0, 900, 900));

static void a_wait_of_the_same_call_lies_in_the_interval_through_it(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, through_sendrecv);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latesender") == 400e-9);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 0);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 2) == 200e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 200e-9);
  assert_true(az_run_value(&run, "delay_latesender_longterm", "main;work", 2) == 200e-9);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 200e-9);
  assert_true(az_run_value(&run, "mpi_wait_indirect_latesender", "main;MPI_Recv", 1) == 200e-9);
  assert_true(az_run_value(&run, "mpi_wait_propagating_latesender", "main;MPI_Sendrecv", 0) ==
              200e-9);
  az_run_free(&run);
}

/* Two messages that start each other's intervals (one each way, crossing:
   rank 0 sends Ma, then receives Mb; rank 1 sends Mb, then receives Ma),
   neither waited: each interval that reaches one goes on through the
   other, without holding each other up.  Then rank 1 waits 200 for Mc
   (from 400 to 600).  Both of Mc's intervals go back to the barrier:
   rank 0 io 100, work 90 + 290, MPI_Send 10, MPI_Recv 10; rank 1 work
   150 + 60 + 70, MPI_Send 10, MPI_Recv 10.  Delays io 100 and work 100:
   scale 1.  (Were Ma and Mb synchronisations: work 290 against 70, all
   200 on rank 0's work.) */
static const char *const crossing = "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
    "0.0", RUN("io", 100, 200) SEND(1, 200, 200, 210) RUN("work", 210, 300) RECV(1, 300, 300, 310)
               RUN("work", 310, 600) SEND(1, 600, 600, 600) BARRIER(0, 800, 900))
    LOC("1.0",
        RUN("work", 100, 250) SEND(0, 250, 250, 260) RUN("work", 260, 320) RECV(0, 320, 320, 330)
            RUN("work", 330, 400) RECV(0, 400, 600, 600) BARRIER(0, 800, 900));

static void crossing_messages_without_waits_go_through_each_other(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, crossing);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latesender") == 200e-9);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 0);
  assert_true(az_run_value(&run, "delay_latesender", "main;io", 0) == 100e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) == 100e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 200e-9);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 0);
  az_run_free(&run);
}

/* A message whose wait a longer one of the same call took is no
   synchronisation point either (Scalasca's: only the longest Late Sender
   of an MPI_Waitall is a Late Sender event, and its sender's send the
   pair's synchronisation).  Rank 1 posts two Irecvs at 100 and waits in
   one MPI_Waitall from 100 to 400: M0 from rank 0, sent at 200 (a Late
   Sender of 100, not the longest), X from rank 2, sent at 400 (300, the
   wait).  Rank 1 then works 200 and sends M1 at 600, for which rank 0,
   which worked 100 after M0, waited 300 (from 300).  M1's intervals go
   through M0 back to the barrier (left together at 100: no completion):
   rank 1 has the Waitall, all of it X's wait (300), and work 200; rank 0
   work 100 + 100.  No delay, rank 1's waiting 300 explains M1's wait:
   scale 1, all 300 passed to X, whose delay, rank 2's work 300 against
   nothing of rank 1 (its interval holds only the Irecvs, no time),
   charges 300 short-term and 300 long-term there.  (Were M0 a
   synchronisation: both intervals from M0, rank 1's Waitall 200 of
   completion after rank 0 left its send and work 200, rank 0 work 100:
   300 short-term on rank 1, 200 on the Waitall, 100 on its work.) */
static const char *const shorter_wait_of_a_call =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 200) SEND(1, 200, 200, 200) RUN("work", 200, 300)
                   RECV(1, 300, 600, 600) BARRIER(0, 900, 900))
        LOC("1.0", "100 enter irecv\n100 irecvreq 3\n100 leave\n"
                   "100 enter irecv\n100 irecvreq 4\n100 leave\n"
                   "100 enter waitall\n400 irecv 0 0 0 8 3\n400 irecv 2 0 0 8 4\n400 leave\n" RUN(
                       "work", 400, 600) SEND(0, 600, 600, 600) BARRIER(0, 900, 900))
            LOC("2.0", RUN("work", 100, 400) SEND(1, 400, 400, 400) BARRIER(0, 900, 900));

static void a_message_whose_wait_a_longer_one_took_is_no_synchronisation(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, shorter_wait_of_a_call);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Waitall", 1) == 300e-9);
  assert_true(az_run_total(&run, "mpi_latesender") == 600e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 2) == 300e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 300e-9);
  assert_true(az_run_value(&run, "delay_latesender_longterm", "main;work", 2) == 300e-9);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 300e-9);
  assert_true(az_run_value(&run, "mpi_wait_indirect_latesender", "main;MPI_Recv", 0) == 300e-9);
  assert_true(az_run_value(&run, "mpi_wait_propagating_latesender", "main;MPI_Waitall", 1) ==
              300e-9);
  az_run_free(&run);
}

/* The same for an Isend's Late Receiver that a Late Sender of its
   MPI_Waitall took: the message is known to have no wait only once that
   call is resolved, after the message's own members (its completion is
   a part; before 2026-11-27 the interval below took it for a
   synchronisation when its receive's side was read last).  Rank 1 does
   io 50, posts an Irecv from rank 0 and an Isend of M1 to rank 2 at 150
   and waits in one MPI_Waitall from 150 to 300: M0 from rank 0, sent at
   300 (a Late Sender of 150, the wait), and M1's completion, whose
   receive rank 2 posted at 200 (a Late Receiver of 50, not a wait).
   Rank 1 then works 200 and sends M2 at 500, for which rank 2, which
   completed M1 in an MPI_Wait at 250, waited 100 (from 400).  M2's
   intervals go through M1 back to the barrier (left at 100 together):
   rank 1 has io 50, the Waitall, all of it M0's wait, and work 200; rank
   2 work 100 + 50 + 150.  Delay io 50, rank 1's waiting 150: scale
   100 / 200, 25 short-term on rank 1's io, 75 passed to M0's wait.  M0:
   rank 0's work 200 against rank 1's io 50: scale 150 / 200, 150
   short-term and 75 * 200 / 200 long-term on rank 0's work.  (Were M1 a
   synchronisation: rank 1's interval from its Isend, no delay, 100 of
   its waiting: all 100 passed to M0, nothing on rank 1's io.) */
static const char *const shorter_late_receiver_of_a_call =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 300) SEND(1, 300, 300, 300) BARRIER(0, 900, 900))
        LOC("1.0",
            RUN("io", 100,
                150) "150 enter irecv\n150 irecvreq 3\n150 leave\n"
                     "150 enter isend\n150 isend 2 0 0 8 4\n150 leave\n"
                     "150 enter waitall\n300 irecv 0 0 0 8 3\n300 isendcomplete 4\n300 leave\n" RUN(
                         "work", 300, 500) SEND(2, 500, 500, 500) BARRIER(0, 900, 900))
            LOC("2.0",
                RUN("work", 100, 200) "200 enter irecv\n200 irecvreq 5\n200 leave\n" RUN(
                    "work", 200,
                    250) "250 enter wait\n250 irecv 1 0 0 8 5\n250 leave\n" RUN("work", 250, 400)
                    RECV(1, 400, 500, 500) BARRIER(0, 900, 900));

static void a_late_receiver_a_late_sender_of_its_call_took_is_no_synchronisation(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, shorter_late_receiver_of_a_call);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Waitall", 1) == 150e-9);
  assert_true(az_run_total(&run, "mpi_latesender") == 250e-9);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 0);
  assert_true(az_run_value(&run, "delay_latesender", "main;io", 1) == 25e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) == 150e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 175e-9);
  assert_true(az_run_value(&run, "delay_latesender_longterm", "main;work", 0) == 75e-9);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 75e-9);
  assert_true(az_run_total(&run, "delay_latereceiver") == 0);
  az_run_free(&run);
}

/* A Late Receiver's waiter is a part, its Isend's completion, whose
   interval goes on through an earlier message that did not wait (its
   map is read where its message waited and it passed a cost:
   map_needed).  Rank 1 works 200, sends M1 (a call of 20, received at
   330: no wait), works 80, posts an Isend of M2 at 400 and waits for it
   from 400 to 700; rank 0 does io 150, works 80, receives M1, works 270
   and posts M2's receive at 600: Late Receiver of 200.  Both intervals go
   through M1 back to the barrier (left together: no completion): rank 0
   has io 150 and work 350, rank 1 work 280 and MPI_Send 20.  Delays io
   150 and work 70, scale 200 / 220: io 136.4 -> 136, work 63.6 -> 64.
   (Were the waiter's interval cut at M1: work 80 alone, delays io 150 and
   work 270, io 71 and work 129.) */
static const char *const isend_through = "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
    "0.0", RUN("io", 100, 250) RUN("work", 250, 330) RECV(1, 330, 330, 330) RUN("work", 330, 600)
               RECV(1, 600, 700, 700) BARRIER(0, 900, 950))
    LOC("1.0", RUN("work", 100, 300) SEND(0, 300, 300, 320)
                   RUN("work", 320, 400) "400 enter isend\n400 isend 0 0 0 8 5\n400 leave\n"
                                         "400 enter wait\n700 isendcomplete 5\n700 leave\n" BARRIER(
                                             0, 900, 950));

static void a_late_receivers_isend_completion_goes_through_a_message_without_wait(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, isend_through);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Wait", 1) == 200e-9);
  assert_true(az_run_total(&run, "mpi_latesender") == 0);
  assert_true(az_run_value(&run, "delay_latereceiver", "main;io", 0) == 136e-9);
  assert_true(az_run_value(&run, "delay_latereceiver", "main;work", 0) == 64e-9);
  assert_true(az_run_total(&run, "delay_latereceiver") == 200e-9);
  assert_true(az_run_total(&run, "delay_latereceiver_longterm") == 0);
  az_run_free(&run);
}

/* A rooted collective synchronises only some pairs of its members
   (Scalasca's rule): an N-to-1 its root, when it waited, with its last
   sender; a 1-to-N its root with the receivers that waited.  Rank 0, the
   root, enters an MPI_Reduce at 100 and waits 400 for rank 1, which works
   until 500 (rank 2 until 300).  Then rank 0 does io until 900 before its
   MPI_Bcast; ranks 1 and 2 do io 90 and wait in it, 300 and 500.  Rank
   1's intervals start at the Reduce (it synchronised them): io 400
   against 90, 300 of 310 short-term on rank 0's io (the Reduce's
   completion is rank 1's alone, 10, on a path rank 0 has none of).  Rank
   2's go back over the Reduce to the barrier: rank 0 io 400 and the
   Reduce, all of it its wait (400), rank 2 io 90, the Reduce's 10 and
   work 200: delay io 310, waiting 400, scale 500 / 710: 218.3 -> 218
   short-term on rank 0's io, 400 * 500 / 710 = 281.7 passed to rank 0's
   Reduce wait, which rank 1's work (400, scale 1: 400 of delay_n21)
   takes long-term, 282.  (Were the Reduce a synchronisation of ranks 0
   and 2: 310 short-term, nothing long-term.) */
static const char *const reduce_then_bcast =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0",
        ROOTED("reduce", 12, 0, 100, 500) RUN("io", 500, 900) ROOTED("bcast", 1, 0, 900, 910))
        LOC("1.0", RUN("work", 100, 500) ROOTED("reduce", 12, 0, 500, 510) RUN("io", 510, 600)
                       ROOTED("bcast", 1, 0, 600, 910))
            LOC("2.0", RUN("work", 100, 300) ROOTED("reduce", 12, 0, 300, 310) RUN("io", 310, 400)
                           ROOTED("bcast", 1, 0, 400, 910));

static void a_rooted_collective_synchronises_only_the_pairs_that_waited(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, reduce_then_bcast);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_earlyreduce") == 400e-9);
  assert_true(az_run_total(&run, "mpi_latebroadcast") == 800e-9);
  assert_true(az_run_value(&run, "delay_n21", "main;work", 1) == 400e-9);
  assert_true(az_run_total(&run, "delay_n21") == 400e-9);
  assert_true(az_run_value(&run, "delay_12n", "main;io", 0) == 518e-9);
  assert_true(az_run_total(&run, "delay_12n") == 518e-9);
  assert_true(az_run_value(&run, "delay_12n_longterm", "main;work", 1) == 282e-9);
  assert_true(az_run_total(&run, "delay_12n_longterm") == 282e-9);
  assert_true(az_run_total(&run, "delay_n21_longterm") == 0);
  az_run_free(&run);
}

/* The 1-to-N side: an MPI_Bcast synchronises its root with the receivers
   that waited for it only.  Rank 0 works 200 and enters the Bcast at
   300; rank 1 waits there from 100 (200), rank 2, which did io until 400,
   does not wait.  Then rank 0 does io until 700 before a barrier, rank 1
   io 90 (waits 300 there), rank 2 io 90 (waits 200).  Rank 1's barrier
   intervals start at the Bcast: io 390 against 90, 300 on rank 0's io.
   Rank 2's go back over it to the first barrier: rank 0 work 200, the
   Bcast 10, io 390; rank 2 io 300 + 90, the Bcast 10: delay work 200,
   scale 1, all 200 on rank 0's work.  The Bcast's own wait (rank 1's
   200) goes to rank 0's work as well.  (Were the Bcast a synchronisation
   of ranks 0 and 2: io 390 against 90, 200 on rank 0's io.) */
static const char *const bcast_then_barrier =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 300) ROOTED("bcast", 1, 0, 300, 310) RUN("io", 310, 700)
                   BARRIER(0, 700, 710))
        LOC("1.0", ROOTED("bcast", 1, 0, 100, 310) RUN("io", 310, 400) BARRIER(0, 400, 710))
            LOC("2.0", RUN("io", 100, 400) ROOTED("bcast", 1, 0, 400, 410) RUN("io", 410, 500)
                           BARRIER(0, 500, 710));

static void a_bcast_synchronises_its_root_with_the_receivers_that_waited(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, bcast_then_barrier);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latebroadcast") == 200e-9);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 500e-9);
  assert_true(az_run_value(&run, "delay_12n", "main;work", 0) == 200e-9);
  assert_true(az_run_total(&run, "delay_12n") == 200e-9);
  assert_true(az_run_value(&run, "delay_barrier", "main;io", 0) == 300e-9);
  assert_true(az_run_value(&run, "delay_barrier", "main;work", 0) == 200e-9);
  assert_true(az_run_total(&run, "delay_barrier") == 500e-9);
  assert_true(az_run_total(&run, "delay_barrier_longterm") == 0);
  az_run_free(&run);
}

/* The completion of a 1-to-N counts from the first of all the receivers
   that waited to leave it (Scalasca's earliest end), not from the pair's
   receiver.  Rank 0 works 200, is the root of a Bcast from 300 to 310,
   works 270 and enters a barrier at 580; ranks 1 and 2 wait 200 in the
   Bcast from 100, rank 2 leaves it at 320, rank 1 at 350; then rank 1
   works until 700, rank 2 does io until 700: rank 0 waits 120 at the
   barrier for rank 1 (rank 2 enters with it, no wait).  The pair 0, 1
   synchronised at the Bcast: rank 1's completion 350 - 320 = 30, rank
   0's none (it left at 310, before 320); work 350 against 270: delays 30
   on rank 1's MPI_Bcast and 80 on its work, 110 < 120, scale 1.  (Until
   2026-11-27 the completion counted from rank 1's own leave: none, 80 on
   its work alone.)  The Bcast's waits: rank 0's work 200, 400. */
static const char *const bcast_completion =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 300) ROOTED("bcast", 1, 0, 300, 310) RUN("work", 310, 580)
                   BARRIER(0, 580, 710))
        LOC("1.0", ROOTED("bcast", 1, 0, 100, 350) RUN("work", 350, 700) BARRIER(0, 700, 710))
            LOC("2.0", ROOTED("bcast", 1, 0, 100, 320) RUN("io", 320, 700) BARRIER(0, 700, 710));

static void a_bcast_s_completion_counts_from_the_first_receiver_to_leave(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, bcast_completion);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latebroadcast") == 400e-9);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 120e-9);
  assert_true(az_run_value(&run, "delay_12n", "main;work", 0) == 400e-9);
  assert_true(az_run_total(&run, "delay_12n") == 400e-9);
  assert_true(az_run_value(&run, "delay_barrier", "main;MPI_Bcast", 1) == 30e-9);
  assert_true(az_run_value(&run, "delay_barrier", "main;work", 1) == 80e-9);
  assert_true(az_run_total(&run, "delay_barrier") == 110e-9);
  assert_true(az_run_total(&run, "delay_barrier_longterm") == 0);
  az_run_free(&run);
}

/* A collective's interval also ends, for a pair, at a message of the two
   that waited (Scalasca's previous synchronisation of the pair).  Rank 0
   works 200 and sends M to rank 1, which waited 100 for it (from 200);
   then rank 0 does io until 700 before a barrier, rank 1 io 100 (waits
   300 there), rank 2 works 200 and does io 200 (waits 200).  M: rank 0's
   work 200 against 100, 100 on it.  Rank 1's barrier intervals start at
   M: io 400 against 100, 300 on rank 0's io.  Rank 2's start at the
   first barrier: work 200 and io 400 against work 200 and io 200: 200 on
   rank 0's io.  (Were M no synchronisation of the barrier's pair: rank 1
   from the first barrier, work 200 against 100 and io 400 against 100,
   scale 300 / 400: 75 on rank 0's work, 225 on its io.) */
static const char *const message_then_barrier =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 300) SEND(1, 300, 300, 300) RUN("io", 300, 700)
                   BARRIER(0, 700, 710)) LOC("1.0", RUN("work", 100, 200) RECV(0, 200, 300, 300)
                                                        RUN("io", 300, 400) BARRIER(0, 400, 710))
        LOC("2.0", RUN("work", 100, 300) RUN("io", 300, 500) BARRIER(0, 500, 710));

/* The costs of message_then_barrier: M's on rank 0's work, the barrier's
   all on its io (rank 1's intervals starting at M). */
static void expect_barrier_intervals_from_m(const char *trace) {
  az_run run;
  az_run_text(&run, trace);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latesender") == 100e-9);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 500e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) == 100e-9);
  assert_true(az_run_value(&run, "delay_barrier", "main;io", 0) == 500e-9);
  assert_true(az_run_value(&run, "delay_barrier", "main;work", 0) == 0);
  assert_true(az_run_total(&run, "delay_barrier") == 500e-9);
  assert_true(az_run_total(&run, "delay_barrier_longterm") == 0);
  az_run_free(&run);
}

static void a_collective_interval_ends_at_a_message_of_the_pair_that_waited(void **state) {
  (void)state;
  expect_barrier_intervals_from_m(message_then_barrier);
}

/* ... however many messages of the pair that did not wait follow it
   (Scalasca has no bound; until 2026-11-27 pomp marked a collective's
   interval at its latest 8 messages only, and heat_2x2's pair waited 18
   messages back).  As message_then_barrier, with ten messages from rank 1
   to rank 0 after the io (sent at 400, received at 700: no wait) before
   the barrier: rank 1's barrier intervals still start at M, 300 on rank
   0's io (from the first barrier: 75 on its work, 225 on its io). */
#define TEN(X) X X X X X X X X X X
static const char *const message_then_quiet_messages =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 300) SEND(1, 300, 300, 300) RUN("io", 300, 700)
                   TEN(RECV(1, 700, 700, 700)) BARRIER(0, 700, 710))
        LOC("1.0", RUN("work", 100, 200) RECV(0, 200, 300, 300) RUN("io", 300, 400)
                       TEN(SEND(0, 400, 400, 400)) BARRIER(0, 400, 710))
            LOC("2.0", RUN("work", 100, 300) RUN("io", 300, 500) BARRIER(0, 500, 710));

static void
a_collective_interval_ends_at_the_pairs_last_wait_however_many_messages_back(void **state) {
  (void)state;
  expect_barrier_intervals_from_m(message_then_quiet_messages);
}

/* All of the late party's waiting in its interval explains a wait, also
   where the waiter waited as long on the same call path (Scalasca's
   scale).  Rank 2 works 200 and sends X to rank 0 and Y to rank 1, both
   of which waited 200 for it in an MPI_Recv; rank 0 works 200 and sends M
   to rank 1, which worked 100 and waited 100 for it.  M: rank 0's work
   200 against 100, its waiting 200: scale 100 / 300, 33.3 -> 33
   short-term on rank 0's work, 66.7 passed to X.  X and Y: rank 2's work
   200 against nothing, 200 short-term each; X's 66.7 long-term, 67.
   (Until 2026-11-27 rank 1's as long wait on the same call path
   cancelled rank 0's: 100 short-term on rank 0's work, none long-term.) */
static const char *const both_waited =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RECV(2, 100, 300, 300) RUN("work", 300, 500) SEND(1, 500, 500, 500))
        LOC("1.0", RECV(2, 100, 300, 300) RUN("work", 300, 400) RECV(0, 400, 500, 500))
            LOC("2.0", RUN("work", 100, 300) SEND(0, 300, 300, 300) SEND(1, 300, 300, 300));

static void the_late_party_s_waiting_explains_also_where_the_waiter_waited(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, both_waited);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 0) == 200e-9);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 1) == 300e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) == 33e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 2) == 400e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 1) == 0);
  assert_true(az_run_value(&run, "delay_latesender_longterm", "main;work", 2) == 67e-9);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 67e-9);
  assert_true(az_run_value(&run, "mpi_wait_indirect_latesender", "main;MPI_Recv", 1) == 67e-9);
  az_run_free(&run);
}

/* A message's interval goes on through a rooted collective that did not
   synchronise its pair.  Rank 0 works 200, is the root of an MPI_Bcast
   at 300 that rank 2 waited 200 for and rank 1 entered at 400 (no wait),
   does io until 600 and sends M to rank 1, which did io 300 before the
   Bcast and works 90 after it, and waited 100 for M.  M's intervals go
   back over the Bcast to the first barrier: rank 0 work 200, the Bcast
   10, io 290; rank 1 io 300, the Bcast 10, work 90: delay work 110,
   scale 100 / 110, all 100 on rank 0's work.  (Were the Bcast a
   synchronisation of ranks 0 and 1: io 290 against nothing, 100 on rank
   0's io.)  The Bcast's wait, rank 2's 200, goes to rank 0's work too. */
static const char *const bcast_then_message =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 300) ROOTED("bcast", 1, 0, 300, 310) RUN("io", 310, 600)
                   SEND(1, 600, 600, 600))
        LOC("1.0", RUN("io", 100, 400) ROOTED("bcast", 1, 0, 400, 410) RUN("work", 410, 500)
                       RECV(0, 500, 600, 600)) LOC("2.0", ROOTED("bcast", 1, 0, 100, 310));

static void a_message_interval_goes_through_a_collective_of_no_synchronisation(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, bcast_then_message);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 1) == 100e-9);
  assert_true(az_run_value(&run, "mpi_latebroadcast", "main;MPI_Bcast", 2) == 200e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) == 100e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;io", 0) == 0);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 0);
  assert_true(az_run_value(&run, "delay_12n", "main;work", 0) == 200e-9);
  az_run_free(&run);
}

/* The one-sentence cause names the waiting rank of a point-to-point wait
   and the call path and rank that caused it. */
static void the_cause_of_a_late_receiver_names_both_ranks(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, late_receiver);
  assert_int_equal(run.status, 0);
  char cause[POMP_REPORT_CAUSE_SIZE];
  int32_t lr = pomp_report_find_metric(run.report, "mpi_latereceiver");
  assert_int_equal(pomp_report_wait_cause(run.report, lr, cause, sizeof cause), 1);
  assert_string_equal(cause, "350 ns Late Receiver at main;MPI_Send on rank 1, caused by main;work "
                             "on rank 0 (100% of its delay costs)");
  az_run_free(&run);
}

/* A chain of Late Senders whose middle rank stays in its receive: rank 0
   works 200 and does io 100, then sends to rank 1 at 400; rank 1, in its
   MPI_Recv from 100 (a wait of 300), leaves it at 850 and sends to rank 2,
   which waited in its MPI_Recv from 100 (750).  Rank 2's wait: rank 1's
   interval holds 450 in MPI_Recv that are no wait (D) and the 300 it
   waited (V), scale 1: 450 short-term on rank 1's MPI_Recv, 300 passed on
   to rank 1's wait, whose cause is rank 0's 200 work and 100 io: short-term
   200 and 100 (rank 1's own wait), long-term 200 and 100 (rank 2's).  Of
   1050 ns of costs the largest cell is rank 1's MPI_Recv, where rank 1
   waited itself (43 %); the computation at the root holds 200 long-term
   (19 %). */
static const char *const wait_in_the_middle =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0",
        RUN("work", 100, 300) RUN("io", 300, 400) SEND(1, 400, 400, 400) BARRIER(0, 900, 950))
        LOC("1.0", RECV(0, 100, 400, 850) SEND(2, 850, 850, 850) BARRIER(0, 900, 950))
            LOC("2.0", RECV(1, 100, 850, 860) BARRIER(0, 900, 950));

static void a_cause_that_waited_itself_says_so_and_names_the_root(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, wait_in_the_middle);
  assert_int_equal(run.status, 0);
  const char *recv = "main;MPI_Recv";
  assert_true(az_run_value(&run, "mpi_latesender", recv, 1) == 300e-9);
  assert_true(az_run_value(&run, "mpi_latesender", recv, 2) == 750e-9);
  assert_true(az_run_value(&run, "delay_latesender", recv, 1) == 450e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;work", 0) == 200e-9);
  assert_true(az_run_value(&run, "delay_latesender", "main;io", 0) == 100e-9);
  assert_true(az_run_value(&run, "delay_latesender_longterm", "main;work", 0) == 200e-9);
  assert_true(az_run_value(&run, "delay_latesender_longterm", "main;io", 0) == 100e-9);
  assert_true(az_run_total(&run, "delay_latesender") == 750e-9);
  assert_true(az_run_total(&run, "delay_latesender_longterm") == 300e-9);
  char cause[POMP_REPORT_CAUSE_SIZE];
  int32_t ls = pomp_report_find_metric(run.report, "mpi_latesender");
  assert_int_equal(pomp_report_wait_cause(run.report, ls, cause, sizeof cause), 1);
  assert_string_equal(cause, "1.05 µs Late Sender at main;MPI_Recv on rank 2, caused by rank 1 "
                             "waiting in main;MPI_Recv for another rank (43% of its delay costs); "
                             "root cause: main;work on rank 0, long-term (19%)");
  az_run_free(&run);
}

/* The same chain with rank 0's extra time in an MPI call that does not
   wait (work 100 to 220, MPI_Comm_split 220 to 400): the call holds the
   larger long-term cost (180 of 1050, 17 %), but no user removes time
   in MPI, so the root named is the work (120 ns, 11 %). */
static void the_root_cause_is_computation_not_an_mpi_call(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run,
              "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS
              "region split mpi function MPI_Comm_split\n" LOC(
                  "0.0", RUN("work", 100, 220) RUN("split", 220, 400) SEND(1, 400, 400, 400)
                             BARRIER(0, 900, 950))
                  LOC("1.0", RECV(0, 100, 400, 850) SEND(2, 850, 850, 850) BARRIER(0, 900, 950))
                      LOC("2.0", RECV(1, 100, 850, 860) BARRIER(0, 900, 950)));
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "delay_latesender_longterm", "main;MPI_Comm_split", 0) == 180e-9);
  assert_true(az_run_value(&run, "delay_latesender_longterm", "main;work", 0) == 120e-9);
  char cause[POMP_REPORT_CAUSE_SIZE];
  int32_t ls = pomp_report_find_metric(run.report, "mpi_latesender");
  assert_int_equal(pomp_report_wait_cause(run.report, ls, cause, sizeof cause), 1);
  assert_string_equal(cause, "1.05 µs Late Sender at main;MPI_Recv on rank 2, caused by rank 1 "
                             "waiting in main;MPI_Recv for another rank (43% of its delay costs); "
                             "root cause: main;work on rank 0, long-term (11%)");
  az_run_free(&run);
}

/* A broadcast from rank 0, which worked 400 (ranks 1 and 2: 100 and 200):
   they wait 300 and 200, all of it rank 0's extra work.  Then a reduce to
   rank 0, which enters at 600; rank 1 enters last at 800 (it worked 200
   more than the root): the root waits 200, charged to rank 1's work. */
static const char *const rooted =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", RUN("work", 100, 500) ROOTED("bcast", 1, 0, 500, 510) RUN("work", 510, 600)
                   ROOTED("reduce", 12, 0, 600, 900))
        LOC("1.0", RUN("work", 100, 200) ROOTED("bcast", 1, 0, 200, 510) RUN("work", 510, 800)
                       ROOTED("reduce", 12, 0, 800, 810))
            LOC("2.0", RUN("work", 100, 300) ROOTED("bcast", 1, 0, 300, 510) RUN("work", 510, 700)
                           ROOTED("reduce", 12, 0, 700, 710));

static void late_broadcast_and_early_reduce_are_charged_to_the_late_rank(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, rooted);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latebroadcast") == 500e-9);
  assert_true(az_run_total(&run, "mpi_earlyreduce") == 200e-9);
  assert_true(az_run_value(&run, "delay_12n", "main;work", 0) == 500e-9);
  assert_true(az_run_total(&run, "delay_12n") == 500e-9);
  assert_true(az_run_value(&run, "delay_n21", "main;work", 1) == 200e-9);
  assert_true(az_run_total(&run, "delay_n21") == 200e-9);
  assert_true(az_run_total(&run, "delay_12n_longterm") == 0);
  assert_true(az_run_total(&run, "delay_n21_longterm") == 0);
  assert_true(az_run_total(&run, "delay_n2n") == 0);
  az_run_free(&run);
}

/* A Late Sender in the wrong order (rank 0 receives tag 2 first, which
   rank 1 sends after tag 1 and its work) has the Late Sender's delay
   costs: the sentence names rank 1's work for it too. */
static void a_wrong_order_late_sender_has_its_cause(void **state) {
  (void)state;
  az_run run;
  az_run_text(
      &run,
      "process 0 threads 1\nprocess 1 threads 1\n" REGIONS "loc 1.0\n0 enter main\n" RUN(
          "work", 0,
          100) "100 enter send\n101 send 0 0 1 4\n"
               "110 leave\n" RUN(
                   "work", 110,
                   300) "300 enter send\n301 send 0 0 2 4\n"
                        "305 leave\n400 leave\n"
                        "loc 0.0\n0 enter main\n50 enter recv\n308 recv 1 0 2 4\n"
                        "310 leave\n320 enter recv\n321 recv 1 0 1 4\n322 leave\n400 leave\n");
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latesender_wo", "main;MPI_Recv", 0) == 250e-9);
  char cause[POMP_REPORT_CAUSE_SIZE];
  int32_t wo = pomp_report_find_metric(run.report, "mpi_latesender_wo");
  assert_int_equal(pomp_report_wait_cause(run.report, wo, cause, sizeof cause), 1);
  assert_string_equal(cause,
                      "250 ns Late Sender, Wrong Order at main;MPI_Recv on rank 0, caused by "
                      "main;work on rank 1 (97% of its delay costs)");
  az_run_free(&run);
}

/* ---- OpenMP ------------------------------------------------------------ */

#define OMP_REGIONS                                                                                \
  "region par openmp parallel !$omp parallel @a.c:10\n"                                            \
  "region bar openmp barrier !$omp barrier @a.c:15\n"                                              \
  "region ibar openmp implicit_barrier !$omp implicit barrier @a.c:20\n"                           \
  "region serial user function serial\n"                                                           \
  "team 5\n"
#define PAR "main;!$omp parallel @a.c:10"
/* One thread's part of a parallel region from F to J: work from F to W,
   an explicit barrier from W to B, the implicit one from B to J. */
#define MEMBER(F, W, B, J)                                                                         \
#F " teambegin 5\n" #F " enter par\n" RUN("work", F, W) #W                                       \
      " enter bar\n" #B " leave\n" #B " enter ibar\n" #J " leave\n" #J " leave\n" #J               \
      " teamend 5\n"
#define MASTER(F, W, B, J, N) #F " fork " #N "\n" MEMBER(F, W, B, J) #J " join\n"

/* A team of 3: thread 2 works 300 ns longer before the barrier, the
   others wait 300 each.  The master runs alone 100 before the region and
   400 after it (two idle workers). */
static const char *const omp_team =
    "process 0 threads 3\n" REGIONS OMP_REGIONS "loc 0.0\n0 enter main\n" MASTER(
        100, 200, 500, 600, 3) "1000 leave\n"
                               "loc 0.1\n" MEMBER(100, 200, 500, 600) "loc 0.2\n" MEMBER(100, 500,
                                                                                         500, 600);

static void an_openmp_barrier_wait_is_charged_to_the_late_threads_work(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, omp_team);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "omp_ebarrier_wait") == 600e-9);
  assert_true(az_run_value(&run, "delay_ompbarrier", PAR ";work", 2) == 600e-9);
  assert_true(az_run_total(&run, "delay_ompbarrier") == 600e-9);
  assert_true(az_run_total(&run, "delay_ompbarrier_longterm") == 0);
  /* the serial phases: 500 ns of main, two idle workers */
  assert_true(az_run_total(&run, "omp_idle_threads") == 1000e-9);
  assert_true(az_run_value(&run, "delay_ompidle", "main", 0) == 1000e-9);
  assert_true(az_run_total(&run, "delay_ompidle") == 1000e-9);
  /* the sentence of the summary names the late thread's work */
  char cause[POMP_REPORT_CAUSE_SIZE];
  int32_t wait = pomp_report_find_metric(run.report, "omp_ebarrier_wait");
  assert_int_equal(pomp_report_wait_cause(run.report, wait, cause, sizeof cause), 1);
  assert_string_equal(
      cause,
      "600 ns Wait at Explicit OpenMP Barrier at " PAR
      ";!$omp barrier @a.c:15, caused by main;!$omp parallel @a.c:10;work on rank 0 thread 2 (100% "
      "of its delay costs)");
  int32_t idle = pomp_report_find_metric(run.report, "omp_idle_threads");
  assert_int_equal(pomp_report_wait_cause(run.report, idle, cause, sizeof cause), 1);
  assert_string_equal(cause,
                      "1.00 µs Idle Threads at main, caused by main on rank 0 (100% of its delay "
                      "costs)");
  az_run_free(&run);
}

/* Idle threads while the master starts MPI are start-up, which the
   summaries leave out of the problems: the sentence names the wait and
   the cause after it (the master's 300 ns of work), not MPI_Init_thread's
   longer serial phase (500 ns before the region). */
static void the_cause_sentence_leaves_mpi_start_up_out(void **state) {
  (void)state;
  az_run run;
  az_run_text(
      &run, "process 0 threads 3\n" REGIONS OMP_REGIONS "region init mpi function MPI_Init_thread\n"
            "loc 0.0\n0 enter main\n" RUN("init", 0, 500) MASTER(500, 600, 600, 700, 3)
                RUN("work", 700, 1000) "1000 leave\n"
                                       "loc 0.1\n" MEMBER(500, 600, 600, 700) "loc 0.2\n" MEMBER(
                                           500, 600, 600, 700));
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "omp_idle_threads", "main;MPI_Init_thread", 1) == 500e-9);
  assert_true(az_run_value(&run, "omp_idle_threads", "main;work", 1) == 300e-9);
  char cause[POMP_REPORT_CAUSE_SIZE];
  int32_t idle = pomp_report_find_metric(run.report, "omp_idle_threads");
  assert_int_equal(pomp_report_wait_cause(run.report, idle, cause, sizeof cause), 1);
  assert_string_equal(cause,
                      "600 ns Idle Threads at main;work, caused by main;work on rank 0 (100% of "
                      "its delay costs)");
  az_run_free(&run);
}

/* Rank 0's master works 100 in a parallel region, waits 100 at its
   explicit barrier for thread 1 (working until WORKER_DONE, 300: 200 of
   work) and stays in it 300 after that; it enters an Allreduce at 700,
   where rank 1 (work 100) waited from 200.  Rank 1's wait of 500: rank 0's interval holds 500 of delay
   (the barrier 300, the region's work 100, the implicit barrier 10, main
   90; rank 1's work is another call path) and 100 of waiting, scale 5/6:
   250 on the barrier, where the master also waited for a thread, and the
   share of its wait, 83 ns, passed on to that wait's cause, thread 1's
   work, long-term (17 % of 500). */
#define OMP_LATE_LEAVER(WORKER_DONE)                                                               \
  "process 0 threads 2\nprocess 1 threads 1\n" REGIONS OMP_REGIONS                                 \
  "loc 0.0\n0 enter main\n" BARRIER(0, 0, 100) MASTER(100, 200, 600, 610, 2)                       \
      ALLREDUCE(700, 750) "1000 leave\n"                                                           \
                          "loc 0.1\n" MEMBER(100, WORKER_DONE, WORKER_DONE, 610)                   \
                              LOC("1.0", RUN("work", 100, 200) ALLREDUCE(200, 750))

static void a_cause_that_waited_for_a_thread_says_so(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, OMP_LATE_LEAVER(300));
  assert_int_equal(run.status, 0);
  const char *bar = PAR ";!$omp barrier @a.c:15";
  assert_true(az_run_value(&run, "omp_ebarrier_wait", bar, 0) == 100e-9);
  assert_true(az_run_total(&run, "mpi_wait_nxn") == 500e-9);
  assert_true(az_run_value(&run, "delay_n2n", bar, 0) == 250e-9);
  assert_true(az_run_value(&run, "delay_ompbarrier", PAR ";work", 1) == 100e-9);
  /* 83.3, charged in whole ticks (ns here) */
  assert_true(az_run_value(&run, "delay_n2n_longterm", PAR ";work", 1) == 83e-9);
  char cause[POMP_REPORT_CAUSE_SIZE];
  int32_t nxn = pomp_report_find_metric(run.report, "mpi_wait_nxn");
  assert_int_equal(pomp_report_wait_cause(run.report, nxn, cause, sizeof cause), 1);
  assert_string_equal(cause, "500 ns Wait at N x N at main;MPI_Allreduce on rank 1, caused by rank "
                             "0 waiting in " PAR ";!$omp barrier @a.c:15 for another thread (50% "
                             "of its delay costs); root cause: " PAR
                             ";work on rank 0 thread 1, long-term (17%)");
  az_run_free(&run);
  /* thread 1 works 1 ns more: the master's wait of 1 passes on 1 tick, no
     root worth naming (0.2 %), and the sentence says so; the barrier's
     399 ns hold 333 (67 %) */
  az_run_text(&run, OMP_LATE_LEAVER(201));
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "delay_n2n_longterm", PAR ";work", 1) == 1e-9);
  nxn = pomp_report_find_metric(run.report, "mpi_wait_nxn");
  assert_int_equal(pomp_report_wait_cause(run.report, nxn, cause, sizeof cause), 1);
  assert_string_equal(cause, "500 ns Wait at N x N at main;MPI_Allreduce on rank 1, caused by rank "
                             "0 waiting in " PAR ";!$omp barrier @a.c:15 for another thread (67% "
                             "of its delay costs); no computation at the root holds 10%");
  az_run_free(&run);
}

/* A worksharing loop's implicit barrier sits below the loop, but the
   delay that makes its team wait may lie before the loop, in the parallel
   region's own time: the master enters the loop 290 ns after thread 1
   (waking the team, as LULESH's passive-waiting runs show), both work
   100, thread 1 waits 290 at the loop's barrier.  The sentence names the
   master's time in the region, not thread 1's own loop body. */
static void a_loop_barrier_wait_is_charged_to_its_parallel_region(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run,
              "process 0 threads 2\n" REGIONS OMP_REGIONS
              "region loop openmp loop !$omp for @a.c:12\n"
              "loc 0.0\n0 enter main\n100 fork 2\n100 teambegin 5\n100 enter par\n"
              "400 enter loop\n" RUN(
                  "work", 400, 500) "500 enter ibar\n510 leave\n"
                                    "510 leave\n510 leave\n510 teamend 5\n510 join\n1000 leave\n"
                                    "loc 0.1\n100 teambegin 5\n100 enter par\n110 enter loop\n" RUN(
                                        "work", 110,
                                        210) "210 enter ibar\n510 leave\n510 leave\n510 leave\n"
                                             "510 teamend 5\n");
  assert_int_equal(run.status, 0);
  const char *bar = PAR ";!$omp for @a.c:12;!$omp implicit barrier @a.c:20";
  assert_true(az_run_value(&run, "omp_ibarrier_wait", bar, 1) == 290e-9);
  assert_true(az_run_value(&run, "delay_ompbarrier", PAR, 0) == 290e-9);
  char cause[POMP_REPORT_CAUSE_SIZE];
  int32_t wait = pomp_report_find_metric(run.report, "omp_ibarrier_wait");
  assert_int_equal(pomp_report_wait_cause(run.report, wait, cause, sizeof cause), 1);
  assert_string_equal(cause, "290 ns Wait at Implicit OpenMP Barrier at " PAR
                             ";!$omp for @a.c:12;!$omp implicit barrier @a.c:20 on rank 0 thread "
                             "1, caused by " PAR " on rank 0 (100% of its delay costs)");
  az_run_free(&run);
}

/* Threads idle on two processes: rank 1's worker 300 ns while its master
   works (main;work), rank 0's 100 there and 350 while its master does
   I/O (main;io).  The worst call path is main;work, mostly rank 1 thread
   1's; its cause is rank 1's master, not rank 0's larger delay in main;io
   (a thread idles for its own master, never another rank's). */
static void idle_threads_are_caused_on_their_own_process(void **state) {
  (void)state;
  az_run run;
  az_run_text(
      &run, "process 0 threads 2\nprocess 1 threads 2\n" REGIONS OMP_REGIONS
            "loc 0.0\n0 enter main\n" RUN("work", 0, 100) RUN("io", 100, 450)
                MASTER(450, 500, 500, 510,
                       2) "520 leave\n"
                          "loc 0.1\n" MEMBER(450, 500, 500,
                                             510) "loc 1.0\n0 enter main\n" RUN("work", 0, 300)
                              MASTER(300, 500, 500, 510, 2) "520 leave\n"
                                                            "loc 1.1\n" MEMBER(300, 500, 500, 510));
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "omp_idle_threads", "main;work", 3) == 300e-9);
  assert_true(az_run_value(&run, "delay_ompidle", "main;io", 0) == 350e-9);
  char cause[POMP_REPORT_CAUSE_SIZE];
  int32_t idle = pomp_report_find_metric(run.report, "omp_idle_threads");
  assert_int_equal(pomp_report_wait_cause(run.report, idle, cause, sizeof cause), 1);
  assert_string_equal(cause, "400 ns Idle Threads at main;work on rank 1 thread 1, caused by "
                             "main;work on rank 1 (97% of its delay costs)");
  az_run_free(&run);
}

/* The fork asks for 4 threads, 3 come: the team is who took part. */
static void a_team_smaller_than_its_fork_asked_for_is_still_analysed(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run,
              "process 0 threads 4\n" REGIONS OMP_REGIONS "loc 0.0\n0 enter main\n" MASTER(
                  100, 200, 500, 600,
                  4) "1000 leave\n"
                     "loc 0.1\n" MEMBER(100, 200, 500, 600) "loc 0.2\n" MEMBER(100, 500, 500, 600));
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "delay_ompbarrier", PAR ";work", 2) == 600e-9);
  assert_true(az_run_total(&run, "delay_ompbarrier") == 600e-9);
  az_run_free(&run);
}

/* Two parallel regions with a master-only phase of 200 ns between them
   (in `serial`): each of the two workers idles 200 there. */
static const char *const omp_serial =
    "process 0 threads 3\n" REGIONS OMP_REGIONS
    "loc 0.0\n0 enter main\n" MASTER(0, 100, 100, 100, 3) "100 enter serial\n300 leave\n" MASTER(
        300, 400, 400, 400, 3) "400 leave\n"
                               "loc 0.1\n" MEMBER(0, 100, 100, 100)
                                   MEMBER(300, 400, 400, 400) "loc 0.2\n" MEMBER(0, 100, 100, 100)
                                       MEMBER(300, 400, 400, 400);

static void idle_workers_are_charged_to_the_masters_serial_work(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, omp_serial);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "delay_ompidle", "main;serial", 0) == 400e-9);
  assert_true(az_run_total(&run, "delay_ompidle") == 400e-9);
  assert_true(az_run_total(&run, "delay_ompidle_longterm") == 0);
  assert_true(az_run_total(&run, "delay_ompbarrier") == 0);
  az_run_free(&run);
}

/* The fork is time of the team's first barrier interval, on the parallel
   region (Scalasca's fork time, omp_management): the master forks at 100
   and enters the region at 400 (300 of fork), its worker begins at 150
   (50 of fork, from the master's fork).  The worker works 150 to the
   barrier at 300, the master 100 to its arrival at 500: the worker waits
   200.  Delay per call path: region 300 - 50 = 250, work 100 - 150 < 0;
   scale 200 / 250: 200 ns on the master's region.  (From the team begin,
   as before, the master's 100 of work against 150 explained nothing.) */
static const char *const omp_fork_delay =
    "process 0 threads 2\n" REGIONS OMP_REGIONS "loc 0.0\n0 enter main\n100 fork 2\n" MEMBER(
        400, 500, 500, 600) "600 join\n1000 leave\n"
                            "loc 0.1\n" MEMBER(150, 300, 500, 600);

static void the_fork_before_the_first_barrier_is_a_delay(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, omp_fork_delay);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "omp_ebarrier_wait") == 200e-9);
  assert_true(az_run_value(&run, "omp_management", PAR, 0) == 300e-9);
  assert_true(az_run_value(&run, "omp_management", PAR, 1) == 50e-9);
  assert_true(az_run_value(&run, "delay_ompbarrier", PAR, 0) == 200e-9);
  assert_true(az_run_total(&run, "delay_ompbarrier") == 200e-9);
  az_run_free(&run);
}

/* The OpenMP barrier's scale is not capped (Scalasca's): thread 1 waits
   200 at the explicit barrier for the master's 300 of work against its
   100 (scale 1: 200 on the master's work); the master leaves it at 400,
   100 after thread 1, and reaches the implicit barrier at 450, thread 1
   at 310: thread 1 waits 140 for a delay of 50 - 10 = 40 on the region,
   scale 140 / 40 = 3.5: all 140 on the master's region (capped at 1: 40). */
static const char *const omp_scale =
    "process 0 threads 2\n" REGIONS OMP_REGIONS
    "loc 0.0\n0 enter main\n0 fork 2\n0 teambegin 5\n0 enter par\n" RUN(
        "work", 0, 300) "300 enter bar\n400 leave\n450 enter ibar\n500 leave\n500 leave\n500 "
                        "teamend 5\n500 join\n"
                        "1000 leave\n"
                        "loc 0.1\n0 teambegin 5\n0 enter par\n" RUN(
                            "work", 0, 100) "100 enter bar\n300 leave\n310 enter ibar\n500 "
                                            "leave\n500 leave\n500 teamend 5\n";

static void an_openmp_barrier_charges_its_whole_wait(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, omp_scale);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "omp_ebarrier_wait") == 200e-9);
  assert_true(az_run_total(&run, "omp_ibarrier_wait") == 140e-9);
  assert_true(az_run_value(&run, "delay_ompbarrier", PAR ";work", 0) == 200e-9);
  assert_true(az_run_value(&run, "delay_ompbarrier", PAR, 0) == 140e-9);
  assert_true(fabs(az_run_total(&run, "delay_ompbarrier") - 340e-9) < 1e-18); /* 200 + 140 */
  az_run_free(&run);
}

/* A worker's delay is on its own team instance's call path: the region
   runs first inside `serial` (no wait), then in main, where the worker
   works 300 (400-700) against the master's 100 and the master waits 200:
   200 ns on main;region;work of thread 1.  The backward pass reads the
   master's whole window first, so "the master's region met last" was the
   earlier instance's path, main;serial;region. */
static const char *const omp_two_paths =
    "process 0 threads 2\n" REGIONS OMP_REGIONS
    "loc 0.0\n0 enter main\n100 enter serial\n" MASTER(100, 200, 200, 300, 2) "300 leave\n" MASTER(
        400, 500, 700, 800, 2) "1000 leave\n"
                               "loc 0.1\n" MEMBER(100, 200, 200, 300) MEMBER(400, 700, 700, 800);

static void a_workers_delay_is_on_its_instances_call_path(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, omp_two_paths);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "omp_ebarrier_wait") == 200e-9);
  assert_true(az_run_value(&run, "delay_ompbarrier", PAR ";work", 1) == 200e-9);
  assert_true(az_run_total(&run, "delay_ompbarrier") == 200e-9);
  az_run_free(&run);
}

/* Two ranks of two threads.  On rank 0 thread 1 works 300 ns longer before
   an OpenMP barrier: rank 0's master waits 300 there, reaches the MPI
   barrier 300 late, and rank 1 waits 300 at it; rank 1's worker idles
   meanwhile.  Both go back through the two barriers to thread 1's work.
   The ranks' intervals start at START0 and START1 (left at 100): in
   omp_chain at an MPI barrier. */
#define OMP_CHAIN(START0, START1)                                                                  \
  "process 0 threads 2\nprocess 1 threads 2\n" REGIONS OMP_REGIONS                                 \
  "loc 0.0\n0 enter main\n" START0 MASTER(100, 200, 500, 500, 2)                                   \
      BARRIER(0, 500, 600) "1000 leave\nloc 0.1\n" MEMBER(                                         \
          100, 500, 500, 500) "loc 1.0\n0 enter main\n" START1 MASTER(100, 200, 200, 200, 2)       \
          BARRIER(0, 200, 600) "1000 leave\nloc 1.1\n" MEMBER(100, 200, 200, 200)
static const char *const omp_chain = OMP_CHAIN(BARRIER(0, 0, 100), BARRIER(0, 0, 100));

static void a_wait_goes_back_through_an_mpi_and_an_openmp_barrier(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, omp_chain);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "omp_ebarrier_wait") == 300e-9);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 300e-9);
  /* rank 0 thread 1 (location 1) */
  assert_true(az_run_value(&run, "delay_ompbarrier", PAR ";work", 1) == 300e-9);
  /* long-term cost is charged in the kind of the wait it explains at the
     end of the chain (Scalasca's rule): rank 1's MPI barrier wait, not the
     OpenMP barrier it reaches the delay through; idleness keeps its own
     kind */
  assert_true(az_run_value(&run, "delay_barrier_longterm", PAR ";work", 1) == 300e-9);
  assert_true(az_run_value(&run, "delay_ompidle_longterm", PAR ";work", 1) == 300e-9);
  assert_true(az_run_total(&run, "delay_barrier") == 0);
  assert_true(az_run_total(&run, "delay_barrier_longterm") == 300e-9);
  assert_true(az_run_total(&run, "delay_ompbarrier_longterm") == 0);
  assert_true(az_run_total(&run, "delay_ompidle_longterm") == 300e-9);
  /* serial time less the masters' waits, one idle worker each: 600 + 600 */
  assert_true(az_run_total(&run, "delay_ompidle") == 1200e-9);
  assert_true(az_run_total(&run, "omp_idle_threads") == 1500e-9);
  az_run_free(&run);
}

/* omp_chain with its intervals starting at a message instead of a barrier:
   rank 0 receives 0-100, rank 1 sends at 50 (rank 0 waits 50).  Rank 0's
   interval for the MPI barrier runs from that receive: its master's 300
   of OpenMP barrier wait is all of it but the 100 of work rank 1 has
   too, so rank 1's 300 at the MPI barrier go through that wait to rank
   0's thread 1 as in omp_chain.  Scalasca 2.6 passes nothing to the
   worker here (it does from a barrier: data/scout_omp,
   omp_through_msg_2x2 against omp_through_coll_2x2); pomp keeps its rule
   (docs/PROPERTIES.md, "Delay costs against Scalasca 2.6"). */
static const char *const omp_chain_from_message =
    OMP_CHAIN(RECV(1, 0, 100, 100), SEND(0, 50, 50, 100));

static void a_wait_goes_through_an_openmp_barrier_from_a_message(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, omp_chain_from_message);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_latesender") == 50e-9);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 300e-9);
  assert_true(az_run_value(&run, "delay_ompbarrier", PAR ";work", 1) == 300e-9);
  assert_true(az_run_value(&run, "delay_barrier_longterm", PAR ";work", 1) == 300e-9);
  assert_true(az_run_total(&run, "delay_barrier_longterm") == 300e-9);
  assert_true(az_run_value(&run, "delay_ompidle_longterm", PAR ";work", 1) == 300e-9);
  az_run_free(&run);
}

/* Wait at Finalize in the serial phase that ends the run (Scalasca's
   rule): two ranks of two threads, a parallel region 100-200 without
   waits, then MPI_Finalize, rank 0 600-900, rank 1 300-900.  Rank 1
   waits 600 - 300 = 300 there.  Its master idles in that wait as in any
   MPI wait: its idle worker's time there is no delay_ompidle of the
   master's call, and, as Finalize has no delay costs, it is charged to
   nobody (no delay_ompidle_longterm).  delay_ompidle per rank, one idle
   worker: MPI_Barrier 100, main 200-start of Finalize and 900-1000,
   Finalize less its wait:
     rank 0: 100 + (400 + 100) + 300 = 900
     rank 1: 100 + (100 + 100) + (600 - 300) = 600
   against omp_idle_threads 900 + 900: 300 less, rank 1's wait. */
static const char *const omp_finalize =
    "process 0 threads 2\nprocess 1 threads 2\n" REGIONS OMP_REGIONS LOC(
        "0.0", MASTER(100, 150, 150, 200, 2) RUN("finalize", 600, 900)) "loc 0.1\n" MEMBER(100, 150,
                                                                                           150, 200)
        LOC("1.0", MASTER(100, 150, 150, 200, 2)
                       RUN("finalize", 300, 900)) "loc 1.1\n" MEMBER(100, 150, 150, 200);

static void a_wait_at_finalize_idles_the_workers_at_no_ones_cost(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, omp_finalize);
  assert_int_equal(run.status, 0);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  const char *fin = "main;MPI_Finalize";
  assert_true(az_run_value(&run, "mpi_finalize_wait", fin, 2) == 300e-9);
  assert_true(az_run_total(&run, "mpi_finalize_wait") == 300e-9);
  assert_true(az_run_value(&run, "delay_ompidle", fin, 0) == 300e-9);
  assert_true(az_run_value(&run, "delay_ompidle", fin, 2) == 300e-9);
  assert_true(az_run_value(&run, "delay_ompidle", "main", 0) == 500e-9);
  assert_true(az_run_value(&run, "delay_ompidle", "main", 2) == 200e-9);
  assert_true(az_run_total(&run, "delay_ompidle") == 1500e-9);
  assert_true(az_run_total(&run, "omp_idle_threads") == 1800e-9);
  assert_true(az_run_total(&run, "delay_ompidle_longterm") == 0);
  /* no other waits: no other delay costs */
  assert_true(az_run_total(&run, "delay_barrier") == 0);
  assert_true(az_run_total(&run, "delay_ompbarrier") == 0);
  az_run_free(&run);
}

/* The master's team management is its parallel region's time (Scalasca's
   fork and join time): rank 0 forks at 150 and enters the region at 180,
   leaves it at 400 and joins at 420; rank 1 forks, enters, leaves and
   joins at once (150, 250).  Rank 1 waits 170 at the barrier: rank 0's
   work in the region, 220 against 100 (120), and its 30 + 20 of fork and
   join on the region, not on main. */
static const char *const fork_join =
    "process 0 threads 1\nprocess 1 threads 1\n" REGIONS OMP_REGIONS LOC(
        "0.0", RUN("work", 100, 150) "150 fork 1\n180 teambegin 5\n180 enter par\n" RUN(
                   "work", 180, 400) "400 leave\n405 teamend 5\n420 join\n" BARRIER(0, 420, 600))
        LOC("1.0",
            RUN("work", 100, 150) "150 fork 1\n150 teambegin 5\n150 enter par\n" RUN(
                "work", 150, 250) "250 leave\n250 teamend 5\n250 join\n" BARRIER(0, 250, 600));

static void fork_and_join_are_the_parallel_regions_time(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, fork_join);
  assert_int_equal(run.status, 0);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 170e-9);
  assert_true(az_run_value(&run, "delay_barrier", PAR ";work", 0) == 120e-9);
  assert_true(az_run_value(&run, "delay_barrier", PAR, 0) == 50e-9);
  assert_true(az_run_value(&run, "delay_barrier", "main", 0) == 0);
  assert_true(az_run_total(&run, "delay_barrier") == 170e-9);
  az_run_free(&run);
}

/* Memory (analyze/delay_central.c, drop_no_waits): two ranks of two
   threads meet at an MPI barrier at the start and at the end, and in
   between run `regions` parallel regions in which the master works 60 ns,
   its worker 20 and waits 40 at the explicit barrier; with `messages`,
   after every fourth region rank 0 sends rank 1 a message it waits 3 ns
   for (its intervals hold eight barriers: a list on the heap).
   The last MPI barrier's interval on each master goes back to the first
   one, over all of its barriers, none of which it waited at: they may not
   stay held until the run's start is read, nor by the intervals of the
   messages, whose waits are (their incoming cost comes from that barrier).
   The instances the central part holds after each window of about ten
   regions (az_delay_hooks.window_held), at the peak with 100 regions:
   353 and 456 (with the messages) when main kept them, 21 and 118 now;
   456 with the messages when only the open intervals let them go. */
static size_t held_peak, held_windows;

static void note_held(size_t instances) {
  if (instances > held_peak) held_peak = instances;
  held_windows++;
}

static size_t region_text(char *at, int rank, int thread, unsigned f, int messages) {
  unsigned w = f + (thread ? 20 : 60);
  size_t n = 0;
  if (!thread) n += (size_t)sprintf(at + n, "%u fork 2\n", f);
  n += (size_t)sprintf(at + n,
                       "%u teambegin 5\n%u enter par\n%u enter work\n%u leave\n"
                       "%u enter bar\n%u leave\n%u enter ibar\n%u leave\n%u leave\n"
                       "%u teamend 5\n",
                       f, f, f, w, w, f + 60, f + 60, f + 70, f + 70, f + 70);
  if (thread) return n;
  n += (size_t)sprintf(at + n, "%u join\n", f + 70);
  if (messages && f % 400 == 0 && rank == 0)
    n += (size_t)sprintf(at + n, "%u enter send\n%u send 1 0 0 8\n%u leave\n", f + 75, f + 75,
                         f + 76);
  if (messages && f % 400 == 0 && rank == 1)
    n += (size_t)sprintf(at + n, "%u enter recv\n%u recv 0 0 0 8\n%u leave\n", f + 72, f + 78,
                         f + 80);
  return n;
}

static const char *many_barriers(unsigned regions, int messages) {
  static char text[400000];
  size_t n =
      (size_t)sprintf(text, "process 0 threads 2\nprocess 1 threads 2\n" REGIONS OMP_REGIONS);
  unsigned end = 100 + 100 * regions;
  for (int rank = 0; rank < 2; rank++)
    for (int thread = 0; thread < 2; thread++) {
      n += (size_t)sprintf(text + n, "loc %d.%d\n", rank, thread);
      if (!thread) n += (size_t)sprintf(text + n, "0 enter main\n" BARRIER(0, 0, 100));
      for (unsigned k = 0; k < regions; k++)
        n += region_text(text + n, rank, thread, 100 + 100 * k, messages);
      if (!thread)
        n += (size_t)sprintf(text + n,
                             "%u enter barrier\n%u collbegin\n%u collend 0 0 - 8 8\n%u leave\n"
                             "%u leave\n",
                             end, end, end + 10, end + 10, end + 20);
    }
  return text;
}

/* Analyses text in windows of `events` (its report in run), noting what
   the central part holds after each (note_held). */
static void analyse_holding(az_run *run, const char *text, uint64_t events) {
  const az_delay_hooks hooks = {.window_held = note_held};
  held_peak = held_windows = 0;
  az_run_write(run, text);
  char anchor[300];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", run->dir);
  az_options opt = {.window_events = events, .delay_hooks = &hooks};
  run->status = az_analyze(&run->a, anchor, &opt);
  assert_int_equal(run->status, 0);
  run->report = az_report_build(&run->a, anchor, NULL);
}

static void barriers_without_waits_are_not_held_by_an_interval_as_long_as_the_run(void **state) {
  (void)state;
  for (int messages = 0; messages <= 1; messages++) {
    const char *text = many_barriers(100, messages);
    az_run run, windows;
    az_run_text(&run, text); /* the same report in any windows */
    assert_int_equal(run.status, 0);
    assert_true(az_run_total(&run, "omp_ebarrier_wait") == 8000e-9);
    assert_true(az_run_value(&run, "delay_ompbarrier", PAR ";work", 0) == 4000e-9);
    assert_true(az_run_total(&run, "mpi_latesender") == (messages ? 75e-9 : 0));
    /* windows of 500 events, about ten regions */
    analyse_holding(&windows, text, 500);
    az_run_assert_same(run.report, windows.report);
    assert_true(held_windows >= 8);
    /* the messages stay until the last barrier is evaluated (the model's) */
    assert_true(held_peak <= 32 + (size_t)messages * 25);
    az_run_free(&run);
    az_run_free(&windows);
  }
}

/* The order of evaluation (analyze/delay_central.c): a wait's incoming
   cost and idleness are sums over the later instances that pass cost back
   to it, and the reports must not depend on the order those are evaluated
   in (the serial pass's ready stack, the window size, a divided central
   part).  A ring of 4 ranks, each iteration an MPI_Isend to the next rank,
   io, an MPI_Recv from the one before and the MPI_Wait of the Isend, with
   work of pseudo-random lengths (a fixed seed: this one's waits gather
   contributions that, summed as doubles in the two orders, differed in
   their last bits), an MPI_Allreduce now and then. */
static unsigned ring_seed;
static unsigned ring_random(unsigned n) {
  ring_seed = ring_seed * 1103515245u + 12345u;
  return (ring_seed >> 16) % n;
}

static void ring_allreduce(char loc[4][40000], size_t *len, unsigned *t) {
  unsigned enter[4], leave = 0;
  for (int r = 0; r < 4; r++) {
    enter[r] = t[r] + 1 + ring_random(97);
    if (enter[r] > leave) leave = enter[r];
  }
  for (int r = 0; r < 4; r++) {
    len[r] += (size_t)sprintf(loc[r] + len[r],
                              "%u enter work\n%u leave\n%u enter allreduce\n%u collbegin\n"
                              "%u collend 11 0 - 8 8\n%u leave\n",
                              t[r], enter[r], enter[r], enter[r], leave, leave);
    t[r] = leave;
  }
}

static void ring_iteration(char loc[4][40000], size_t *len, unsigned *t, int k) {
  unsigned sent[4], recv[4], received[4], wait[4];
  for (int r = 0; r < 4; r++) {
    sent[r] = t[r] + 1 + ring_random(97);
    recv[r] = sent[r] + ring_random(50);
  }
  for (int r = 0; r < 4; r++) {
    unsigned from = sent[(r + 3) % 4];
    received[r] = (recv[r] > from ? recv[r] : from) + 1;
    wait[r] = received[r] + ring_random(40);
  }
  for (int r = 0; r < 4; r++) {
    unsigned done = received[(r + 1) % 4], left = wait[r] > done ? wait[r] : done;
    len[r] += (size_t)sprintf(
        loc[r] + len[r],
        "%u enter work\n%u leave\n%u enter isend\n%u isend %d 0 0 8 %d\n%u leave\n"
        "%u enter io\n%u leave\n%u enter recv\n%u recv %d 0 0 8\n%u leave\n"
        "%u enter work\n%u leave\n"
        "%u enter wait\n%u isendcomplete %d\n%u leave\n",
        t[r], sent[r], sent[r], sent[r], (r + 1) % 4, k, sent[r], sent[r], recv[r], recv[r],
        received[r], (r + 3) % 4, received[r], received[r], wait[r], wait[r], left, k, left);
    t[r] = left;
  }
}

static const char *random_ring(unsigned seed) {
  static char loc[4][40000], text[200000];
  size_t len[4] = {0}, n;
  unsigned t[4] = {100, 100, 100, 100};
  ring_seed = seed;
  int iterations = 4 + (int)ring_random(12);
  for (int k = 0; k < iterations; k++)
    if (ring_random(5) == 0) ring_allreduce(loc, len, t);
    else ring_iteration(loc, len, t, k);
  n = (size_t)sprintf(text, "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n"
                            "process 3 threads 1\n" REGIONS);
  for (int r = 0; r < 4; r++)
    n += (size_t)sprintf(text + n, "loc %d.0\n0 enter main\n" BARRIER(0, 0, 100) "%s%u leave\n", r,
                         loc[r], t[r] + 10);
  return text;
}

/* What each waiter passed on as it charged (az_delay_hooks.charged), sorted: the
   same multiset in any order of evaluation. */
static double passed[2][256];
static size_t npassed[2];
static int passed_run;

static void note_passed(double incoming, double idle) {
  assert_true(npassed[passed_run] < 128);
  passed[passed_run][2 * npassed[passed_run]] = incoming;
  passed[passed_run][2 * npassed[passed_run]++ + 1] = idle;
}

static int by_incoming(const void *x, const void *y) {
  const double *a = x, *b = y;
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1];
}

static void analyse_in_order(az_run *run, const char *text, int fifo) {
  passed_run = fifo;
  npassed[fifo] = 0;
  const az_delay_hooks hooks = {.ready_fifo = fifo, .charged = note_passed};
  az_run_delay_hooks = &hooks;
  az_run_cross_check = 0; /* once in each order */
  az_run_text(run, text);
  az_run_cross_check = 1;
  az_run_delay_hooks = NULL;
  assert_int_equal(run->status, 0);
  qsort(passed[fifo], npassed[fifo], 2 * sizeof(double), by_incoming);
}

static void long_term_costs_do_not_depend_on_the_order_of_evaluation(void **state) {
  (void)state;
  const char *text = random_ring(45);
  az_run lifo, fifo;
  analyse_in_order(&lifo, text, 0);
  analyse_in_order(&fifo, text, 1);
  az_run_assert_same(lifo.report, fifo.report);
  assert_int_equal(npassed[0], 42);
  assert_int_equal(npassed[1], npassed[0]);
  for (size_t i = 0; i < 2 * npassed[0]; i++)
    if (passed[0][i] != passed[1][i])
      fail_msg("passed on: %.17g in one order, %.17g in the other", passed[0][i], passed[1][i]);
  assert_true(az_run_total(&lifo, "delay_latesender_longterm") > 0);
  az_run_free(&lifo);
  az_run_free(&fifo);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_chain_of_barrier_waits_goes_back_to_its_cause),
      cmocka_unit_test(n_x_n_waits_are_charged_in_proportion_to_the_delays),
      cmocka_unit_test(clock_offsets_apply_to_the_backward_pass),
      cmocka_unit_test(the_late_completion_of_the_previous_barrier_is_a_delay),
      cmocka_unit_test(mpi_init_starts_the_intervals),
      cmocka_unit_test(fork_and_join_are_the_parallel_regions_time),
      cmocka_unit_test(a_chain_of_late_senders_goes_back_to_its_cause),
      cmocka_unit_test(late_senders_of_a_chain_are_direct_indirect_propagating_terminal),
      cmocka_unit_test(a_wait_explaining_only_a_collective_wait_is_terminal),
      cmocka_unit_test(a_late_receiver_is_charged_to_the_receivers_work),
      cmocka_unit_test(a_late_receiver_of_an_isend_is_charged_to_the_receivers_work),
      cmocka_unit_test(a_late_receiver_of_an_irecv_ends_at_its_posting),
      cmocka_unit_test(a_wait_goes_back_through_a_late_receiver_over_three_ranks),
      cmocka_unit_test(an_isend_completion_without_a_wait_is_a_delay_not_a_wait),
      cmocka_unit_test(a_late_receiver_of_an_ssend_is_charged_as_a_sends),
      cmocka_unit_test(a_call_with_a_late_sender_has_no_late_receiver_delay),
      cmocka_unit_test(an_isend_to_itself_leaves_the_late_receiver_before_it_alone),
      cmocka_unit_test(a_waitall_with_a_late_sender_has_no_late_receiver_delay),
      cmocka_unit_test(a_waitall_without_a_late_sender_charges_its_late_receiver),
      cmocka_unit_test(late_broadcast_and_early_reduce_are_charged_to_the_late_rank),
      cmocka_unit_test(the_cause_of_a_late_receiver_names_both_ranks),
      cmocka_unit_test(a_ring_of_messages_still_charges_its_late_sender),
      cmocka_unit_test(a_message_that_did_not_wait_is_no_synchronisation_point),
      cmocka_unit_test(a_chain_through_messages_is_bounded),
      cmocka_unit_test(a_chain_goes_through_a_message_that_did_not_wait),
      cmocka_unit_test(a_wait_of_the_same_call_lies_in_the_interval_through_it),
      cmocka_unit_test(crossing_messages_without_waits_go_through_each_other),
      cmocka_unit_test(a_message_whose_wait_a_longer_one_took_is_no_synchronisation),
      cmocka_unit_test(a_late_receiver_a_late_sender_of_its_call_took_is_no_synchronisation),
      cmocka_unit_test(a_late_receivers_isend_completion_goes_through_a_message_without_wait),
      cmocka_unit_test(a_rooted_collective_synchronises_only_the_pairs_that_waited),
      cmocka_unit_test(a_bcast_synchronises_its_root_with_the_receivers_that_waited),
      cmocka_unit_test(a_bcast_s_completion_counts_from_the_first_receiver_to_leave),
      cmocka_unit_test(a_collective_interval_ends_at_a_message_of_the_pair_that_waited),
      cmocka_unit_test(
          a_collective_interval_ends_at_the_pairs_last_wait_however_many_messages_back),
      cmocka_unit_test(the_late_party_s_waiting_explains_also_where_the_waiter_waited),
      cmocka_unit_test(a_message_interval_goes_through_a_collective_of_no_synchronisation),
      cmocka_unit_test(an_openmp_barrier_wait_is_charged_to_the_late_threads_work),
      cmocka_unit_test(idle_workers_are_charged_to_the_masters_serial_work),
      cmocka_unit_test(a_team_smaller_than_its_fork_asked_for_is_still_analysed),
      cmocka_unit_test(the_fork_before_the_first_barrier_is_a_delay),
      cmocka_unit_test(a_workers_delay_is_on_its_instances_call_path),
      cmocka_unit_test(an_openmp_barrier_charges_its_whole_wait),
      cmocka_unit_test(the_cause_sentence_leaves_mpi_start_up_out),
      cmocka_unit_test(a_cause_that_waited_itself_says_so_and_names_the_root),
      cmocka_unit_test(the_root_cause_is_computation_not_an_mpi_call),
      cmocka_unit_test(a_cause_that_waited_for_a_thread_says_so),
      cmocka_unit_test(a_loop_barrier_wait_is_charged_to_its_parallel_region),
      cmocka_unit_test(a_wrong_order_late_sender_has_its_cause),
      cmocka_unit_test(idle_threads_are_caused_on_their_own_process),
      cmocka_unit_test(a_wait_goes_back_through_an_mpi_and_an_openmp_barrier),
      cmocka_unit_test(barriers_without_waits_are_not_held_by_an_interval_as_long_as_the_run),
      cmocka_unit_test(a_wait_goes_through_an_openmp_barrier_from_a_message),
      cmocka_unit_test(a_wait_at_finalize_idles_the_workers_at_no_ones_cost),
      cmocka_unit_test(long_term_costs_do_not_depend_on_the_order_of_evaluation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
