/* The critical path (analyze/pass_critical.c) and what is derived from it
   (pass_critical_impact.c, report/report_pop.c): traces whose critical
   path is known by construction (times in ns).  az_run_text analyses each
   trace again in windows of two events and asserts the same report, so
   the walk across windows is checked too.  critical_path is stored
   exclusive along the metric tree: its own value is the time on the path
   less critical_path_imbalance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "az_calltree.h"
#include "az_cells.h"
#include "az_critical.h"
#include "az_metrics.h"
#include "az_pass.h"
#include "az_test.h"
#include "pomp_report.h"

#define REGIONS                                                                                    \
  "region main compiler function main\n"                                                           \
  "region work user function work\n"                                                               \
  "region io user function io\n"                                                                   \
  "region send mpi point2point MPI_Send\n"                                                         \
  "region recv mpi point2point MPI_Recv\n"                                                         \
  "region allreduce mpi coll_all2all MPI_Allreduce\n"                                              \
  "region ssend mpi point2point MPI_Ssend\n"                                                       \
  "region irecv mpi point2point MPI_Irecv\n"                                                       \
  "region wait mpi point2point MPI_Wait\n"                                                         \
  "region isend mpi point2point MPI_Isend\n"

#define RUN(R, E, X) #E " enter " R "\n" #X " leave\n"
#define SEND(TO, E, X) #E " enter send\n" #E " send " #TO " 0 0 8\n" #X " leave\n"
#define RECV(FROM, E, X) #E " enter recv\n" #X " recv " #FROM " 0 0 8\n" #X " leave\n"
#define ALLREDUCE(E, X)                                                                            \
#E " enter allreduce\n" #E " collbegin\n" #X " collend 11 0 - 8 8\n" #X " leave\n"
#define LOC(N, END, BODY) "loc " N "\n0 enter main\n" BODY #END " leave\n"

/* value in ns, rounded: the metrics are whole ticks */
static long ns(const az_run *run, const char *metric, const char *path, int loc) {
  return lround(az_run_value(run, metric, path, loc) * 1e9);
}

static long total_ns(const az_run *run, const char *metric) {
  return lround(az_run_total(run, metric) * 1e9);
}

/* Time on the path: the stored value plus its imbalance child. */
static long on_path(const az_run *run, const char *path, int loc) {
  return ns(run, "critical_path", path, loc) + ns(run, "critical_path_imbalance", path, loc);
}

/* Every location's time, waiting or not, goes to one of the impacts. */
static long impact_total(const az_run *run) {
  return total_ns(run, "critical_path_activities") + total_ns(run, "critical_imbalance_impact") +
         total_ns(run, "non_critical_path_activities");
}

/* A chain of Late Senders: rank 2 finishes last (1050); it waited in its
   receive (400..650) for rank 1's send at 620; rank 1 waited in its
   receive (100..420) for rank 0's send at 400.  The path: rank 2 work
   650..1050 and receive 620..650, rank 1 send, work 420..620 and receive
   400..420, rank 0 work 0..400. */
static const char *const late_senders =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", 410, RUN("work", 0, 400) SEND(1, 400, 410))
        LOC("1.0", 630,
            RUN("work", 0, 100) RECV(0, 100, 420) RUN("work", 420, 620) SEND(2, 620, 630))
            LOC("2.0", 1050, RUN("work", 0, 400) RECV(1, 400, 650) RUN("work", 650, 1050));

/* A Late Receiver: rank 0's MPI_Ssend to rank 1 (100..500, tag 0) waits
   until rank 1 posts its receive at 400 (mpi_latereceiver 300).  Going
   back from rank 0's end (1000), the path takes rank 0's work 1000..610
   and 600..500 (490), its send to rank 2 610..600 (10) and its Ssend
   500..400 (100), and moves to rank 1 where the wait ended, at the
   receive's Enter: rank 1's work 400..0 (400).  Rank 2's receive, posted
   at 450 during the Ssend, is of another message (rank 0's later send to
   rank 2: a Late Sender of 150) and moves nothing; neither does rank 1's
   receive call itself (the path is on rank 0 then).  Before (pomp kept
   the path on the sender): the Ssend 400 and rank 0's work 0..100 too. */
static const char *const late_receiver =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", 1000,
        RUN("work", 0, 100) "100 enter ssend\n100 send 1 0 0 8\n500 leave\n" RUN("work", 500, 600)
            SEND(2, 600, 610) RUN("work", 610, 1000))
        LOC("1.0", 600, RUN("work", 0, 400) RECV(0, 400, 450) RUN("work", 450, 600))
            LOC("2.0", 700, RUN("work", 0, 450) RECV(0, 450, 620) RUN("work", 620, 700));

static void the_path_moves_to_a_late_receiver(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, late_receiver);
  assert_int_equal(run.status, 0);
  assert_int_equal(ns(&run, "mpi_latereceiver", "main;MPI_Ssend", 0), 300);
  assert_int_equal(ns(&run, "mpi_latesender", "main;MPI_Recv", 2), 150);
  assert_int_equal(on_path(&run, "main;work", 0), 490);
  assert_int_equal(on_path(&run, "main;MPI_Send", 0), 10);
  assert_int_equal(on_path(&run, "main;MPI_Ssend", 0), 100);
  assert_int_equal(on_path(&run, "main;work", 1), 400);
  assert_int_equal(on_path(&run, "main;MPI_Recv", 1), 0);
  assert_int_equal(on_path(&run, "main;work", 2), 0);
  assert_int_equal(on_path(&run, "main;MPI_Recv", 2), 0);
  assert_int_equal(total_ns(&run, "critical_path") + total_ns(&run, "critical_path_imbalance"),
                   1000);
  az_run_free(&run);
}

/* The same with a region inside the Ssend (460..470, as a buffer flush
   would be) and the receive posted at 480, between it and the Ssend's
   leave: backwards, the receive's Enter comes before the MpiSend that
   names the message, and a window may end at the inner region (az_run_text
   reads in windows of two events too): the leave is held back until the
   MpiSend and the walk waits for it.  Path: rank 0's work 1000..500, the
   Ssend 500..480 (20), rank 1's work 480..0; the Late Receiver 380. */
static const char *const late_receiver_inner =
    "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
        "0.0", 1000,
        RUN("work", 0, 100) "100 enter ssend\n100 send 1 0 0 8\n" RUN(
            "io", 460, 470) "500 leave\n" RUN("work", 500, 1000))
        LOC("1.0", 600, RUN("work", 0, 480) RECV(0, 480, 490) RUN("work", 490, 600));

static void a_late_receiver_is_found_past_a_region_inside_the_send(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, late_receiver_inner);
  assert_int_equal(run.status, 0);
  assert_int_equal(ns(&run, "mpi_latereceiver", "main;MPI_Ssend", 0), 380);
  assert_int_equal(on_path(&run, "main;work", 0), 500);
  assert_int_equal(on_path(&run, "main;MPI_Ssend", 0), 20);
  assert_int_equal(on_path(&run, "main;MPI_Ssend;io", 0), 0);
  assert_int_equal(on_path(&run, "main;work", 1), 480);
  az_run_free(&run);
}

/* The receive posted by MPI_Irecv (400..410, request 7), completed in
   MPI_Wait (440..450): the Late Receiver ends at the Irecv's Enter (300
   of waiting), and the path moves there, read back through the Wait and
   the Irecv's request.  Path: rank 0's work 1000..500 and Ssend 500..400,
   rank 1's work 400..0; none of rank 1's Irecv, Wait or work after. */
static const char *const late_irecv = "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
    "0.0", 1000,
    RUN("work", 0, 100) "100 enter ssend\n100 send 1 0 0 8\n500 leave\n" RUN("work", 500, 1000))
    LOC("1.0", 600,
        RUN("work", 0, 400) "400 enter irecv\n405 irecvreq 7\n410 leave\n" RUN(
            "work", 410, 440) "440 enter wait\n450 irecv 0 0 0 8 7\n450 leave\n" RUN("work", 450,
                                                                                     600));

static void the_path_moves_to_a_late_receiver_at_its_irecv(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, late_irecv);
  assert_int_equal(run.status, 0);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  assert_int_equal(ns(&run, "mpi_latereceiver", "main;MPI_Ssend", 0), 300);
  assert_int_equal(on_path(&run, "main;work", 0), 500);
  assert_int_equal(on_path(&run, "main;MPI_Ssend", 0), 100);
  assert_int_equal(on_path(&run, "main;work", 1), 400);
  assert_int_equal(on_path(&run, "main;MPI_Irecv", 1), 0);
  assert_int_equal(on_path(&run, "main;MPI_Wait", 1), 0);
  az_run_free(&run);
}

/* A Late Receiver of a send completed by MPI_Wait after MPI_Isend: rank 0
   sends two messages to rank 1 (Isend A 100..110, request 5; Isend B
   110..120, request 6), works until 200, then waits for A (200..500) and B
   (500..510).  Rank 1 posts A's receive at 400 (mpi_latereceiver 200 in
   the first Wait) and B's at 450.  Backwards the Waits come before the
   Isends that name their messages, and B's send is read between A's Wait
   and A's Isend: A's receive is the second one the channel holds then.
   Path: rank 0's work 1000..510 (490), Wait(B) 510..500 (10) and Wait(A)
   500..400 (100), then rank 1, at A's receive's Enter: its work 400..0.
   Neither B's receive's Enter (450: its message is B's, no Wait for it
   open) nor rank 1's receive calls move anything.  Before (the path stayed
   on the sender): Wait(A) 300, rank 0's work 180 and Isends 20. */
static const char *const late_isend_receiver =
    "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
        "0.0", 1000,
        RUN("work", 0,
            100) "100 enter isend\n100 isend 1 0 0 8 5\n110 leave\n"
                 "110 enter isend\n110 isend 1 0 0 8 6\n120 leave\n" RUN(
                     "work", 120,
                     200) "200 enter wait\n500 isendcomplete 5\n500 leave\n"
                          "500 enter wait\n510 isendcomplete 6\n510 leave\n" RUN("work", 510, 1000))
        LOC("1.0", 600,
            RUN("work", 0, 400) RECV(0, 400, 450) RECV(0, 450, 460) RUN("work", 460, 600));

static void the_path_moves_to_a_late_receiver_of_an_isend(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, late_isend_receiver);
  assert_int_equal(run.status, 0);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  assert_int_equal(ns(&run, "mpi_latereceiver", "main;MPI_Wait", 0), 200);
  assert_int_equal(on_path(&run, "main;work", 0), 490);
  assert_int_equal(on_path(&run, "main;MPI_Wait", 0), 110);
  assert_int_equal(on_path(&run, "main;MPI_Isend", 0), 0);
  assert_int_equal(on_path(&run, "main;work", 1), 400);
  assert_int_equal(on_path(&run, "main;MPI_Recv", 1), 0);
  assert_int_equal(total_ns(&run, "critical_path") + total_ns(&run, "critical_path_imbalance"),
                   1000);
  az_run_free(&run);
}

/* The path of late_senders, its times in `unit` ns. */
static void late_senders_path(const az_run *run, long unit) {
  assert_int_equal(on_path(run, "main;work", 2), 400 * unit);
  assert_int_equal(on_path(run, "main;MPI_Recv", 2), 30 * unit);
  assert_int_equal(on_path(run, "main;work", 1), 200 * unit);
  assert_int_equal(on_path(run, "main;MPI_Recv", 1), 20 * unit);
  assert_int_equal(on_path(run, "main;MPI_Send", 1), 0);
  assert_int_equal(on_path(run, "main;work", 0), 400 * unit);
  assert_int_equal(on_path(run, "main;MPI_Send", 0), 0);
  /* the whole run, no waiting */
  assert_int_equal(total_ns(run, "critical_path") + total_ns(run, "critical_path_imbalance"),
                   1050 * unit);
}

static void the_path_follows_late_senders_back_over_three_ranks(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, late_senders);
  assert_int_equal(run.status, 0);
  late_senders_path(&run, 1);
  /* imbalance: the share of a call path's time on the path (with its
     callees) above its average busy time (without waits), of each
     location's part.  work: 1000 on the path, 500 on average (400, 300,
     800): half of 400 : 200 : 400.  MPI_Recv: 50 on the path, busy
     (320 - 300) + (250 - 220) = 50 over 3 ranks, 16.67 on average: 2/3
     of 20 and 30 (13.33 rounded, 20).  main has no time of its own. */
  assert_int_equal(ns(&run, "critical_path_imbalance", "main;work", 0), 200);
  assert_int_equal(ns(&run, "critical_path_imbalance", "main;work", 1), 100);
  assert_int_equal(ns(&run, "critical_path_imbalance", "main;work", 2), 200);
  assert_int_equal(ns(&run, "critical_path_imbalance", "main;MPI_Recv", 1), 13);
  assert_int_equal(ns(&run, "critical_path_imbalance", "main;MPI_Recv", 2), 20);
  assert_int_equal(total_ns(&run, "critical_path_imbalance"), 533);
  /* activities: min(path time, own non-waiting time) */
  assert_int_equal(ns(&run, "critical_path_activities", "main;work", 2), 800);
  assert_int_equal(ns(&run, "critical_path_activities", "main;MPI_Recv", 1), 20);
  assert_int_equal(ns(&run, "critical_path_activities", "main;MPI_Recv", 2), 30);
  /* the sends are not on the path (0 there): all their time is off it */
  assert_int_equal(ns(&run, "non_critical_path_activities", "main;MPI_Send", 0), 10);
  assert_int_equal(ns(&run, "non_critical_path_activities", "main;MPI_Send", 1), 10);
  assert_int_equal(total_ns(&run, "non_critical_path_activities"), 20);
  /* waiting 640 + 720 + 220 spread over the excess of work and receive
     per rank (650, 730, 220): work 1481.2, receive 98.8; charged 2:1:2
     and 20:30 */
  assert_int_equal(ns(&run, "critical_imbalance_impact", "main;work", 0), 592);
  assert_int_equal(ns(&run, "critical_imbalance_impact", "main;work", 1), 296);
  assert_int_equal(ns(&run, "critical_imbalance_impact", "main;work", 2), 592);
  assert_int_equal(ns(&run, "critical_imbalance_impact", "main;MPI_Recv", 1), 40);
  assert_int_equal(ns(&run, "critical_imbalance_impact", "main;MPI_Recv", 2), 59);
  assert_int_equal(impact_total(&run), 3 * 1050 - 1);
  az_run_free(&run);
}

/* The same chain at 2 * 10^18 ticks a second, and two ranks that only
   run main a while: its 2.1 * 10^18 ticks do not fit a merge key of 64
   bits above five locations' tie (2^60 ticks; pass_critical.c's key_span,
   2^59), so the records are merged in slices, the latest first: the path
   as at 10^9 ticks a second, in ms instead of ns. */
static const char *const late_senders_long =
    "clock 2000000000000000000\n"
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\nprocess 3 threads 1\n"
    "process 4 threads 1\n" REGIONS LOC("0.0", 820000000000000000,
                                        RUN("work", 0, 800000000000000000)
                                            SEND(1, 800000000000000000, 820000000000000000))
        LOC("1.0", 1260000000000000000,
            RUN("work", 0, 200000000000000000) RECV(0, 200000000000000000, 840000000000000000)
                RUN("work", 840000000000000000, 1240000000000000000)
                    SEND(2, 1240000000000000000, 1260000000000000000))
            LOC("2.0", 2100000000000000000,
                RUN("work", 0, 800000000000000000) RECV(1, 800000000000000000, 1300000000000000000)
                    RUN("work", 1300000000000000000, 2100000000000000000))
                LOC("3.0", 100000000000000000, "") LOC("4.0", 100000000000000000, "");

static void a_run_longer_than_a_merge_key_reaches_is_merged_in_slices(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, late_senders_long);
  assert_int_equal(run.status, 0);
  late_senders_path(&run, 1000000);
  az_run_free(&run);
}

/* An Allreduce that rank 1 enters last (600, after io 0..600): rank 0,
   last to finish, waited 300..600 in it.  The path: rank 0 work
   700..1000 and Allreduce 600..700, then rank 1's io 0..600. */
static const char *const late_collective =
    "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n" REGIONS LOC(
        "0.0", 1000, RUN("work", 0, 300) ALLREDUCE(300, 700) RUN("work", 700, 1000))
        LOC("1.0", 700, RUN("io", 0, 600) ALLREDUCE(600, 700))
            LOC("2.0", 900, RUN("work", 0, 200) ALLREDUCE(200, 700) RUN("work", 700, 900));

static void the_path_moves_to_the_last_member_of_a_collective(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, late_collective);
  assert_int_equal(run.status, 0);
  assert_int_equal(on_path(&run, "main;work", 0), 300);
  assert_int_equal(on_path(&run, "main;MPI_Allreduce", 0), 100);
  assert_int_equal(on_path(&run, "main;io", 1), 600);
  assert_int_equal(on_path(&run, "main;MPI_Allreduce", 1), 0);
  assert_int_equal(on_path(&run, "main;work", 2), 0);
  /* io: 600 on the path, 200 on average: 400 above, all on rank 1; work
     (300 on the path, 333 on average) and the Allreduce are balanced */
  assert_int_equal(ns(&run, "critical_path_imbalance", "main;io", 1), 400);
  assert_int_equal(ns(&run, "critical_path", "main;io", 1), 200);
  assert_int_equal(total_ns(&run, "critical_path_imbalance"), 400);
  /* activities: rank 0 work min(300, 600), its Allreduce 400 - 300 waited */
  assert_int_equal(ns(&run, "critical_path_activities", "main;work", 0), 300);
  assert_int_equal(ns(&run, "critical_path_activities", "main;MPI_Allreduce", 0), 100);
  assert_int_equal(ns(&run, "critical_path_activities", "main;io", 1), 600);
  assert_int_equal(ns(&run, "critical_path_activities", "main;work", 2), 300);
  assert_int_equal(ns(&run, "non_critical_path_activities", "main;work", 0), 300);
  assert_int_equal(ns(&run, "non_critical_path_activities", "main;work", 2), 100);
  /* ranks 0 and 2 waited 300 and 500 for the io they did not do, rank 1
     300 for the work it did not do */
  assert_int_equal(ns(&run, "critical_imbalance_impact", "main;io", 1), 800);
  assert_int_equal(ns(&run, "critical_imbalance_impact", "main;work", 0), 300);
  assert_int_equal(total_ns(&run, "critical_imbalance_impact"), 1100);
  assert_int_equal(impact_total(&run), 3 * 1000);
  az_run_free(&run);
}

/* POP of the same run: useful computation 600, 600, 400 (average 533.3,
   maximum 600), runtime 1000; the computation on the critical path
   (rank 0's work 300, rank 1's io 600) is the ideal runtime, 900. */
static void pop_serialisation_and_transfer_come_from_the_critical_path(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, late_collective);
  assert_int_equal(run.status, 0);
  pomp_report_pop p;
  pomp_report_error err;
  assert_int_equal(pomp_report_pop_compute(run.report, NULL, 0, &p, &err), POMP_REPORT_OK);
  assert_true(p.has_critical_path);
  assert_true(fabs(p.ideal_runtime - 900e-9) < 1e-15);
  assert_null(p.why[POMP_REPORT_POP_SERIALISATION]);
  assert_null(p.why[POMP_REPORT_POP_TRANSFER]);
  assert_true(fabs(p.value[POMP_REPORT_POP_SERIALISATION] - 600.0 / 900) < 1e-9);
  assert_true(fabs(p.value[POMP_REPORT_POP_TRANSFER] - 0.9) < 1e-9);
  assert_true(fabs(p.value[POMP_REPORT_POP_COMMUNICATION] - 0.6) < 1e-9);
  /* communication = serialisation x transfer */
  assert_true(fabs(p.value[POMP_REPORT_POP_SERIALISATION] * p.value[POMP_REPORT_POP_TRANSFER] -
                   p.value[POMP_REPORT_POP_COMMUNICATION]) < 1e-9);
  az_run_free(&run);
}

#define OMP_REGIONS_MORE                                                                           \
  "region loop user function loop\n"                                                               \
  "region par openmp parallel !$omp parallel @c.c:10\n"                                            \
  "region ibar openmp implicit_barrier !$omp implicit barrier @c.c:20\n"

#define OMP_REGIONS                                                                                \
  "region main compiler function main\n"                                                           \
  "region work user function work\n" OMP_REGIONS_MORE

#define MEMBER(LOOP_END)                                                                           \
  "100 teambegin 5\n100 enter par\n" RUN("loop", 100, LOOP_END) #LOOP_END                          \
      " enter ibar\n"                                                                              \
      "400 leave\n400 leave\n400 teamend 5\n"

/* One process, three threads: serial work 0..100, a parallel region
   100..400 whose loop takes thread 1 300 (the others 100 and 200), serial
   work 400..600.  The path: the master's work 400..600, at the join and
   the barrier thread 1, its loop 100..400, at its start the master again,
   work 0..100. */
static const char *const omp_imbalance =
    "process 0 threads 3\nteam 5\n" OMP_REGIONS
    "loc 0.0\n0 enter main\n" RUN("work", 0, 100) "100 fork 3\n" MEMBER(200) "400 join\n" RUN(
        "work", 400, 600) "600 leave\n"
                          "loc 0.1\n" MEMBER(400) "loc 0.2\n" MEMBER(300);

static void the_path_follows_the_slowest_thread_of_a_parallel_region(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, omp_imbalance);
  assert_int_equal(run.status, 0);
  assert_int_equal(on_path(&run, "main;work", 0), 300);
  assert_int_equal(on_path(&run, "main;!$omp parallel @c.c:10;loop", 1), 300);
  assert_int_equal(on_path(&run, "main;!$omp parallel @c.c:10;loop", 0), 0);
  assert_int_equal(on_path(&run, "main;!$omp parallel @c.c:10;loop", 2), 0);
  assert_int_equal(total_ns(&run, "critical_path") + total_ns(&run, "critical_path_imbalance"),
                   600);
  /* loop: 300 on the path, (100 + 300 + 200) / 3 on average; work: 300,
     100 on average (the workers have none) */
  assert_int_equal(ns(&run, "critical_path_imbalance", "main;!$omp parallel @c.c:10;loop", 1), 100);
  assert_int_equal(ns(&run, "critical_path_imbalance", "main;work", 0), 200);
  assert_int_equal(run.a.diag.count[AZ_W_MODEL], 0);
  az_run_free(&run);
}

/* MPI point-to-point, a collective and OpenMP in one run.  Rank 0's
   master: a parallel region 0..300 (its loop 0..100, the worker's
   0..300), a send to rank 1 at 300, a receive 310..600 of rank 1's send
   at 500, an Allreduce 600..700 (rank 1 came earlier), work 700..1000.
   The path: rank 0 work, Allreduce and receive back to 500, rank 1's
   work 320..500 and receive back to 300, rank 0's send, at the barrier
   the worker thread (it entered last) and its loop, at its start the
   master at 0. */
static const char *const hybrid =
    "process 0 threads 2\nprocess 1 threads 1\nteam 5\n" REGIONS OMP_REGIONS_MORE
    "loc 0.0\n0 enter main\n0 fork 2\n0 teambegin 5\n0 enter par\n" RUN(
        "loop", 0,
        100) "100 enter ibar\n300 leave\n300 leave\n300 teamend 5\n300 join\n" SEND(1, 300, 310)
        RECV(1, 310, 600) ALLREDUCE(600, 700)
            RUN("work", 700, 1000) "1000 leave\n"
                                   "loc 0.1\n0 teambegin 5\n0 enter par\n" RUN(
                                       "loop", 0, 300) "300 enter ibar\n300 leave\n"
                                                       "300 leave\n300 teamend 5\n" LOC(
                                                           "1.0", 700,
                                                           RECV(0, 0, 320) RUN("work", 320, 500)
                                                               SEND(0, 500, 510)
                                                                   RUN("work", 510, 560)
                                                                       ALLREDUCE(560, 700));

static void the_path_crosses_messages_collectives_and_threads_in_one_run(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, hybrid);
  assert_int_equal(run.status, 0);
  assert_int_equal(on_path(&run, "main;work", 0), 300);
  assert_int_equal(on_path(&run, "main;MPI_Allreduce", 0), 100);
  assert_int_equal(on_path(&run, "main;MPI_Recv", 0), 100);
  assert_int_equal(on_path(&run, "main;MPI_Send", 0), 0);
  assert_int_equal(on_path(&run, "main;work", 2), 180);
  assert_int_equal(on_path(&run, "main;MPI_Recv", 2), 20);
  assert_int_equal(on_path(&run, "main;!$omp parallel @c.c:10;loop", 1), 300);
  assert_int_equal(on_path(&run, "main;!$omp parallel @c.c:10;loop", 0), 0);
  assert_int_equal(total_ns(&run, "critical_path") + total_ns(&run, "critical_path_imbalance"),
                   1000);
  assert_int_equal(run.a.diag.count[AZ_W_MODEL], 0);
  az_run_free(&run);
}

/* A worker that starts late keeps the path back to the master's fork:
   its time since the fork is its parallel region's (its omp_management),
   as in Scalasca 2.6, whose worker timelines start at the fork.  One
   process, two threads: the master forks at 0, its loop 10..120 before the
   barrier (entered at 120); the worker starts at 80 and loops 80..300;
   after the join the master works 300..350, does io 350..380 and returns
   at 400.  The path: the master's main 380..400, io, work, at the barrier
   the worker's loop 80..300 and its start-up 0..80, at the fork the
   master (nothing before it).  Before issue 15 the path went to the
   master at the worker's start, 80, through the master's loop 80..10 and
   its parallel region 10..0, in the middle of the master's steps (the
   walk's replay of plain Enters and Leaves, which the other tests cover
   at every record). */
static const char *const late_worker =
    "process 0 threads 2\nteam 5\n" OMP_REGIONS "region io user function io\n"
    "loc 0.0\n0 enter main\n0 fork 2\n0 teambegin 5\n0 enter par\n" RUN(
        "loop", 10,
        120) "120 enter ibar\n300 leave\n300 leave\n300 teamend 5\n300 join\n" RUN("work", 300, 350)
        RUN("io", 350, 380) "400 leave\n"
                            "loc 0.1\n80 teambegin 5\n80 enter par\n" RUN(
                                "loop", 80,
                                300) "300 enter ibar\n300 leave\n300 leave\n300 teamend 5\n";

static void a_late_worker_keeps_the_path_back_to_the_fork(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, late_worker);
  assert_int_equal(run.status, 0);
  assert_int_equal(on_path(&run, "main", 0), 20);
  assert_int_equal(on_path(&run, "main;io", 0), 30);
  assert_int_equal(on_path(&run, "main;work", 0), 50);
  assert_int_equal(on_path(&run, "main;!$omp parallel @c.c:10;loop", 1), 220);
  assert_int_equal(on_path(&run, "main;!$omp parallel @c.c:10", 1), 80);
  assert_int_equal(ns(&run, "omp_management", "main;!$omp parallel @c.c:10", 1), 80);
  assert_int_equal(on_path(&run, "main;!$omp parallel @c.c:10;loop", 0), 0);
  assert_int_equal(on_path(&run, "main;!$omp parallel @c.c:10", 0), 0);
  assert_int_equal(total_ns(&run, "critical_path") + total_ns(&run, "critical_path_imbalance"),
                   400);
  assert_int_equal(run.a.diag.count[AZ_W_MODEL], 0);
  az_run_free(&run);
}

/* The master's fork and join time is the parallel region's on the path,
   as in its time (omp_management) and in Scalasca's critical path.  One
   thread: work 0..100, fork at 100, the region 110..390 (its loop
   110..300, the barrier 300..300), join at 400, work 400..600.  The path:
   work 300, loop 190, the region 90 of its own plus 10 of fork and 10 of
   join; nothing on main (before, the 20 of fork and join went there). */
static const char *const fork_join = "process 0 threads 1\nteam 5\n" OMP_REGIONS "loc 0.0\n"
                                     "0 enter main\n"
                                     "0 enter work\n100 leave\n"
                                     "100 fork 1\n"
                                     "110 teambegin 5\n110 enter par\n"
                                     "110 enter loop\n300 leave\n"
                                     "300 enter ibar\n300 leave\n"
                                     "390 leave\n390 teamend 5\n"
                                     "400 join\n"
                                     "400 enter work\n600 leave\n"
                                     "600 leave\n";

static void fork_and_join_time_is_the_parallel_regions(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, fork_join);
  assert_int_equal(run.status, 0);
  assert_int_equal(on_path(&run, "main;work", 0), 300);
  assert_int_equal(on_path(&run, "main;!$omp parallel @c.c:10;loop", 0), 190);
  assert_int_equal(on_path(&run, "main;!$omp parallel @c.c:10", 0), 110);
  assert_int_equal(on_path(&run, "main", 0), 0);
  assert_int_equal(ns(&run, "omp_management", "main;!$omp parallel @c.c:10", 0), 20);
  assert_int_equal(total_ns(&run, "critical_path") + total_ns(&run, "critical_path_imbalance"),
                   600);
  az_run_free(&run);
}

/* Waiting for a critical section hands no path over: it is path time, and
   activity (Scalasca's wait map has no lock either).  One process, two
   threads in a parallel region 0..200: the master holds the critical
   section 0..100, thread 1 waits for it 0..100 and holds it 100..200;
   the master waits in the implicit barrier 100..200 and works in main
   200..300.  The path: main 200..300 on the master, at the barrier thread
   1: its critical section's body 100..200 and its waiting 0..100. */
static const char *const critical_wait =
    "process 0 threads 2\nteam 5\n" OMP_REGIONS
    "region crit openmp critical !$omp critical (x) @c.c:16\n"
    "region critsb openmp critical_sblock !$omp critical sblock (x) @c.c:16\n"
    "loc 0.0\n"
    "0 enter main\n0 fork 2\n0 teambegin 5\n0 enter par\n"
    "0 enter crit\n0 acquire 1 1\n0 enter critsb\n100 leave\n100 release 1 1\n100 leave\n"
    "100 enter ibar\n200 leave\n200 leave\n200 teamend 5\n200 join\n300 leave\n"
    "loc 0.1\n"
    "0 teambegin 5\n0 enter par\n"
    "0 enter crit\n100 acquire 1 2\n100 enter critsb\n200 leave\n200 release 1 2\n200 leave\n"
    "200 enter ibar\n200 leave\n200 leave\n200 teamend 5\n";

static void waiting_for_a_critical_section_is_activity(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, critical_wait);
  assert_int_equal(run.status, 0);
  const char *crit = "main;!$omp parallel @c.c:10;!$omp critical (x) @c.c:16";
  assert_int_equal(ns(&run, "omp_critical_contention", crit, 1), 100);
  assert_int_equal(on_path(&run, crit, 1), 100);
  assert_int_equal(on_path(&run, "main", 0), 100);
  /* thread 1's 100 in the critical section are activity (before: 0, its
     contention taken out); its waiting, 300 less main and the critical
     section with its body (100 + 100), is 100, all for main, which it
     never ran (before: 200, half for the critical section); the
     master's 100 in the barrier are for the critical section, which it
     did not wait in */
  assert_int_equal(ns(&run, "critical_path_activities", crit, 1), 100);
  assert_int_equal(ns(&run, "critical_imbalance_impact", crit, 1), 100);
  assert_int_equal(ns(&run, "critical_imbalance_impact", "main", 0), 100);
  assert_int_equal(impact_total(&run), 2 * 300);
  az_run_free(&run);
}

/* Where the model does not hold, one warning and no numbers rather than
   wrong ones: with OpenMP tasks no OpenMP delay costs and no critical
   path, but the MPI delay costs (rank 1's work made rank 0 wait 300 ns in
   the Allreduce); with MPI calls on a second thread none at all. */
static void tasks_and_mpi_on_threads_warn_instead_of_wrong_numbers(void **state) {
  (void)state;
  const char *const tasks = "process 0 threads 1\nprocess 1 threads 1\n" REGIONS
                            "region task openmp task !$omp task @t.c:5\n" LOC(
                                "0.0", 1000, RUN("task", 0, 300) ALLREDUCE(300, 700))
                                LOC("1.0", 1000, RUN("work", 0, 600) ALLREDUCE(600, 700));
  az_run run;
  az_run_text(&run, tasks);
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_MODEL], 1);
  assert_int_equal(total_ns(&run, "critical_path"), 0);
  assert_int_equal(total_ns(&run, "delay_n2n"), 300);
  assert_int_equal(total_ns(&run, "delay_ompbarrier"), 0);
  assert_true(az_run_total(&run, "mpi_wait_nxn") > 0); /* the waits stay */
  az_run_free(&run);

  const char *const threads =
      "process 0 threads 2\nprocess 1 threads 1\n" REGIONS LOC("0.0", 1000, RUN("work", 0, 300))
          LOC("0.1", 900, SEND(1, 400, 410)) LOC("1.0", 1000, RECV(0, 100, 420));
  az_run_text(&run, threads);
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_MODEL], 1);
  assert_int_equal(total_ns(&run, "critical_path"), 0);
  assert_int_equal(total_ns(&run, "delay_latesender"), 0);
  assert_int_equal(total_ns(&run, "mpi_wait_direct"), 0);
  az_run_free(&run);
}

/* The two stages apart, as a parallel analysis runs them (az_critical.h):
   the first stage ships each window's arrays through a link and a walker
   walks them, here in the same process and in windows of two events;
   the report is the serial pass's. */
static struct {
  az_cp_link link;
  az_cp_walker *walker;
  int windows, records, ends; /* records: parts with records */
} split;

static void split_ship(az_analysis *a, az_cp_part *parts, az_time bound, enum az_cp_ship what) {
  for (uint32_t l = 0; l < a->defs.num_locs; l++) {
    split.records += parts[l].rec_bytes != 0;
    az_cp_walker_add(split.walker, l, parts[l].recs, parts[l].rec_bytes, parts[l].steps,
                     parts[l].step_bytes);
  }
  if (what == AZ_CP_WINDOW) {
    split.windows++;
    az_cp_walker_window(split.walker, bound);
    return;
  }
  split.ends++;
  unsigned limits = az_cp_walker_end(split.walker, what == AZ_CP_LAST);
  az_cp_walker_free(split.walker, a);
  if (what == AZ_CP_LAST) az_critical_derive(a, limits);
}

static void split_begin(az_replay *r) {
  split.link = (az_cp_link){.ship = split_ship};
  r->a->critical_link = &split.link;
  split.walker = az_cp_walker_new(r->a);
  az_pass_critical.begin(r);
}

enum { ANCHOR_SIZE = 300 };

/* text written and analysed into run (successfully), and its anchor, for
   analysing it again. */
static void analysed_at(az_run *run, const char *text, char anchor[ANCHOR_SIZE]) {
  az_run_text(run, text);
  assert_int_equal(run->status, 0);
  snprintf(anchor, ANCHOR_SIZE, "%s/traces.otf2", run->dir);
}

static void the_two_stages_apart_write_the_serial_report(void **state) {
  (void)state;
  const char *const traces[] = {
      late_senders, late_collective, omp_imbalance,       hybrid,     late_worker,
      fork_join,    late_receiver,   late_receiver_inner, late_irecv, late_isend_receiver};
  az_pass stage_1 = az_pass_critical;
  stage_1.begin = split_begin;
  stage_1.exchange = az_critical_exchange;
  const az_pass *passes[] = {&az_pass_waits, &az_pass_rma, &az_pass_delay, &stage_1};
  for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
    az_run run;
    char anchor[ANCHOR_SIZE];
    analysed_at(&run, traces[i], anchor);
    az_options opt = {.window_events = 2};
    az_analysis a;
    memset(&split, 0, sizeof split);
    assert_int_equal(az_analyze_passes(&a, anchor, &opt, passes, 4), 0);
    assert_true(split.windows > 2);
    assert_true(split.records > 0);
    assert_int_equal(split.ends, 1);
    pomp_report *r = az_report_build(&a, anchor, NULL);
    az_run_assert_same(run.report, r);
    assert_true(total_ns(&run, "critical_path") > 0); /* the comparison says something */
    pomp_report_free(r);
    az_analysis_free(&a);
    az_run_free(&run);
  }
}

/* Every (call path, location)'s time on the critical path in x, exactly
   as the cells hold it, is y's (call paths matched by their regions; the
   trees were made in different orders); returns the cells compared. */
static size_t same_critical_path(const az_analysis *x, const az_analysis *y) {
  int32_t *in_y = calloc(x->tree.len ? x->tree.len : 1, sizeof *in_y);
  for (size_t i = 0; i < x->tree.len; i++) { /* parents come first */
    const az_cnode *c = &x->tree.nodes[i];
    in_y[i] = az_calltree_find(&y->tree, c->parent < 0 ? -1 : in_y[c->parent], c->region);
  }
  size_t compared = 0;
  assert_int_equal(x->defs.num_locs, y->defs.num_locs);
  for (uint32_t l = 0; l < x->defs.num_locs; l++) {
    const az_cells *cx = &x->cells[l], *cy = &y->cells[l];
    for (size_t r = 0; r < cx->nrows; r++) {
      int64_t v = cx->rows[r][AZ_CRITICAL_PATH];
      if (!v) continue;
      int32_t node = in_y[cx->row_cnode[r]];
      assert_true(node >= 0 && (size_t)node < cy->nrow_of && cy->row_of[node]);
      assert_int_equal(cy->rows[cy->row_of[node] - 1][AZ_CRITICAL_PATH], v);
      compared++;
    }
  }
  free(in_y);
  return compared;
}

static size_t nonzero_critical_path(const az_analysis *a) {
  size_t n = 0;
  for (uint32_t l = 0; l < a->defs.num_locs; l++)
    for (size_t r = 0; r < a->cells[l].nrows; r++) n += a->cells[l].rows[r][AZ_CRITICAL_PATH] != 0;
  return n;
}

/* The serial analysis's walk on a thread of its own (analyze.c,
   walk_queue.c), in windows of two events, a ring of one window (the
   replay waits for each walk) and of four, with and without decoding
   threads: the same exact times on the path as the walk on the replay
   thread (POMP_ANALYZE_WALK_QUEUE=0), and the same report. */
static void the_walk_beside_the_replay_charges_what_the_replay_walk_charges(void **state) {
  (void)state;
  const char *const traces[] = {late_senders,  late_collective,    omp_imbalance, hybrid,
                                late_worker,   fork_join,          late_receiver, late_irecv,
                                critical_wait, late_isend_receiver};
  const char *const queues[] = {"1", "4"};
  const int threads[] = {1, 3};
  for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
    az_run run;
    char anchor[ANCHOR_SIZE];
    analysed_at(&run, traces[i], anchor);
    az_options opt = {.window_events = 2, .threads = 1};
    az_analysis on_replay;
    setenv("POMP_ANALYZE_WALK_QUEUE", "0", 1);
    assert_int_equal(az_analyze(&on_replay, anchor, &opt), 0);
    for (size_t q = 0; q < sizeof queues / sizeof *queues; q++)
      for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        setenv("POMP_ANALYZE_WALK_QUEUE", queues[q], 1);
        opt.threads = threads[t];
        az_analysis beside;
        assert_int_equal(az_analyze(&beside, anchor, &opt), 0);
        assert_true(beside.walked_beside > 0); /* a fused pass walks beside too */
        assert_int_equal(same_critical_path(&on_replay, &beside), nonzero_critical_path(&beside));
        pomp_report *r = az_report_build(&beside, anchor, NULL);
        az_run_assert_same(run.report, r);
        pomp_report_free(r);
        az_analysis_free(&beside);
      }
    unsetenv("POMP_ANALYZE_WALK_QUEUE");
    assert_true(nonzero_critical_path(&on_replay) > 0); /* the comparison says something */
    assert_int_equal(on_replay.walked_beside, 0);
    az_analysis_free(&on_replay);
    az_run_free(&run);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_path_follows_late_senders_back_over_three_ranks),
      cmocka_unit_test(a_run_longer_than_a_merge_key_reaches_is_merged_in_slices),
      cmocka_unit_test(the_path_moves_to_a_late_receiver),
      cmocka_unit_test(a_late_receiver_is_found_past_a_region_inside_the_send),
      cmocka_unit_test(the_path_moves_to_a_late_receiver_at_its_irecv),
      cmocka_unit_test(the_path_moves_to_a_late_receiver_of_an_isend),
      cmocka_unit_test(the_path_moves_to_the_last_member_of_a_collective),
      cmocka_unit_test(pop_serialisation_and_transfer_come_from_the_critical_path),
      cmocka_unit_test(the_path_follows_the_slowest_thread_of_a_parallel_region),
      cmocka_unit_test(the_path_crosses_messages_collectives_and_threads_in_one_run),
      cmocka_unit_test(a_late_worker_keeps_the_path_back_to_the_fork),
      cmocka_unit_test(fork_and_join_time_is_the_parallel_regions),
      cmocka_unit_test(waiting_for_a_critical_section_is_activity),
      cmocka_unit_test(tasks_and_mpi_on_threads_warn_instead_of_wrong_numbers),
      cmocka_unit_test(the_two_stages_apart_write_the_serial_report),
      cmocka_unit_test(the_walk_beside_the_replay_charges_what_the_replay_walk_charges),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
