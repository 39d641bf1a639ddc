/* Point-to-point wait states: Late Sender (blocking, multi-wait, test),
   wrong order, Late Receiver, sub-communicators, clock offsets and
   violations, unmatched messages.  Times in the traces are ns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "az_records.h"
#include "az_test.h"

#define PROCS2 "process 0 threads 1\nprocess 1 threads 1\n"
#define REGIONS                                                                                    \
  "region main compiler function main\n"                                                           \
  "region send mpi point2point MPI_Send\n"                                                         \
  "region recv mpi point2point MPI_Recv\n"                                                         \
  "region isend mpi point2point MPI_Isend\n"                                                       \
  "region irecv mpi point2point MPI_Irecv\n"                                                       \
  "region wait mpi point2point MPI_Wait\n"                                                         \
  "region waitall mpi point2point MPI_Waitall\n"                                                   \
  "region test mpi point2point MPI_Test\n"

static void late_sender_at_blocking_receive(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS2 REGIONS "loc 0.0\n0 enter main\n100 enter recv\n160 recv 1 0 0 8\n"
                                   "170 leave\n200 leave\n"
                                   "loc 1.0\n0 enter main\n150 enter send\n155 send 0 0 0 8\n"
                                   "158 leave\n200 leave\n");
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 0) == 50e-9);
  /* the rest of the receive is point-to-point time, the rest of main comp */
  assert_true(az_run_value(&run, "mpi_point2point", "main;MPI_Recv", 0) == 20e-9);
  assert_true(az_run_value(&run, "comp", "main", 0) == 130e-9);
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Send", 1) == 0);
  assert_true(az_run_value(&run, "bytes_sent", "main;MPI_Send", 1) == 8);
  assert_true(az_run_value(&run, "bytes_received", "main;MPI_Recv", 0) == 8);
  assert_true(az_run_value(&run, "visits", "main;MPI_Recv", 0) == 1);
  assert_true(az_run_total(&run, "mpi_latesender") == 50e-9);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

static void send_before_receive_is_late_receiver(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS2 REGIONS "loc 0.0\n0 enter main\n100 enter recv\n110 recv 1 0 0 8\n"
                                   "115 leave\n200 leave\n"
                                   "loc 1.0\n0 enter main\n50 enter send\n55 send 0 0 0 8\n"
                                   "120 leave\n200 leave\n");
  assert_true(az_run_total(&run, "mpi_latesender") == 0);
  /* the receive was posted at 100, the send waited from 50 */
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Send", 1) == 50e-9);
  assert_true(az_run_value(&run, "mpi_point2point", "main;MPI_Send", 1) == 20e-9);
  az_run_free(&run);
}

static void wrong_order_moves_late_sender(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS2 REGIONS
              /* rank 1 sends tag 1 at 100, then tag 2 at 300 */
              "loc 1.0\n0 enter main\n100 enter send\n101 send 0 0 1 4\n"
              "110 leave\n300 enter send\n301 send 0 0 2 4\n305 leave\n"
              "400 leave\n"
              /* rank 0 receives tag 2 first, waiting 250, then tag 1 */
              "loc 0.0\n0 enter main\n50 enter recv\n308 recv 1 0 2 4\n"
              "310 leave\n320 enter recv\n321 recv 1 0 1 4\n322 leave\n"
              "400 leave\n");
  assert_true(az_run_total(&run, "mpi_latesender") == 0);
  assert_true(az_run_value(&run, "mpi_latesender_wo", "main;MPI_Recv", 0) == 250e-9);
  assert_true(az_run_total(&run, "mpi_latesender_wo") == 250e-9);
  az_run_free(&run);
}

static void waitall_takes_the_latest_sender(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 1\nprocess 1 threads 1\n"
                    "process 2 threads 1\n" REGIONS
                    "loc 0.0\n0 enter main\n10 enter irecv\n11 irecvreq 1\n12 leave\n"
                    "14 enter irecv\n15 irecvreq 2\n16 leave\n"
                    "20 enter waitall\n190 irecv 1 0 0 8 1\n195 irecv 2 0 0 8 2\n"
                    "200 leave\n300 leave\n"
                    "loc 1.0\n0 enter main\n100 enter send\n101 send 0 0 0 8\n"
                    "102 leave\n300 leave\n"
                    "loc 2.0\n0 enter main\n150 enter send\n151 send 0 0 0 8\n"
                    "152 leave\n300 leave\n");
  /* 130 (waiting for rank 2), not 80 + 130 */
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Waitall", 0) == 130e-9);
  assert_true(az_run_value(&run, "mpi_point2point", "main;MPI_Waitall", 0) == 50e-9);
  assert_true(az_run_value(&run, "bytes_received", "main;MPI_Waitall", 0) == 16);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 0);
  az_run_free(&run);
}

static void isend_wait_late_receiver(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS2 REGIONS "loc 1.0\n0 enter main\n10 enter isend\n11 isend 0 0 0 8 5\n"
                                   "12 leave\n20 enter wait\n99 isendcomplete 5\n100 leave\n"
                                   "200 leave\n"
                                   "loc 0.0\n0 enter main\n80 enter recv\n85 recv 1 0 0 8\n"
                                   "90 leave\n200 leave\n");
  /* receive posted at 80, the wait completing the Isend entered at 20 */
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Wait", 1) == 60e-9);
  assert_true(az_run_value(&run, "mpi_point2point", "main;MPI_Wait", 1) == 20e-9);
  assert_true(az_run_value(&run, "bytes_sent", "main;MPI_Isend", 1) == 8);
  assert_true(az_run_total(&run, "mpi_latesender") == 0);
  az_run_free(&run);
}

static void test_completion_is_no_wait_state(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run,
              PROCS2 REGIONS "loc 0.0\n0 enter main\n10 enter irecv\n11 irecvreq 1\n12 leave\n"
                             "20 enter test\n21 test 1\n22 leave\n"
                             "30 enter test\n190 irecv 1 0 0 8 1\n200 leave\n300 leave\n"
                             "loc 1.0\n0 enter main\n100 enter send\n101 send 0 0 0 8\n"
                             "102 leave\n300 leave\n");
  assert_true(az_run_total(&run, "mpi_latesender") == 0);
  assert_true(az_run_value(&run, "visits", "main;MPI_Test", 0) == 2);
  assert_true(az_run_value(&run, "mpi_point2point", "main;MPI_Test", 0) == 172e-9);
  az_run_free(&run);
}

static void sub_communicator_ranks_are_translated(void **state) {
  (void)state;
  az_run run;
  /* comm 2 = world ranks (2, 0): comm rank 0 is world 2, rank 1 world 0 */
  az_run_text(&run, "process 0 threads 1\nprocess 1 threads 1\n"
                    "process 2 threads 1\ncomm 2 ranks 2 0\n" REGIONS
                    "loc 0.0\n0 enter main\n100 enter recv\n160 recv 0 2 7 8\n"
                    "170 leave\n200 leave\n"
                    "loc 2.0\n0 enter main\n140 enter send\n141 send 1 2 7 8\n"
                    "142 leave\n200 leave\n"
                    "loc 1.0\n0 enter main\n200 leave\n");
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 0) == 40e-9);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

static void clock_offsets_are_applied(void **state) {
  (void)state;
  az_run run;
  /* rank 1's clock is 1000 behind: its send at 150 happened at 1150 */
  az_run_text(&run, PROCS2 REGIONS "offset 1 0 1000\noffset 1 100000 1000\n"
                                   "loc 0.0\n1000 enter main\n1100 enter recv\n1160 recv 1 0 0 8\n"
                                   "1170 leave\n1200 leave\n"
                                   "loc 1.0\n0 enter main\n150 enter send\n151 send 0 0 0 8\n"
                                   "152 leave\n200 leave\n");
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 0) == 50e-9);
  assert_int_equal(run.a.diag.count[AZ_W_CLOCK], 0);
  az_run_free(&run);
}

static void clock_violation_is_reported_and_clamped(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS2 REGIONS "loc 0.0\n0 enter main\n100 enter recv\n110 recv 1 0 0 8\n"
                                   "120 leave\n200 leave\n"
                                   "loc 1.0\n0 enter main\n150 enter send\n151 send 0 0 0 8\n"
                                   "152 leave\n200 leave\n");
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_CLOCK], 1);
  /* waiting cannot exceed the receive itself */
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 0) == 20e-9);
  az_run_free(&run);
}

static void unmatched_messages_are_counted(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS2 REGIONS "loc 0.0\n0 enter main\n100 enter recv\n110 recv 1 0 3 8\n"
                                   "120 leave\n200 leave\n"
                                   "loc 1.0\n0 enter main\n150 enter send\n151 send 0 0 4 8\n"
                                   "152 leave\n200 leave\n");
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_UNMATCHED_MSG], 2);
  assert_true(az_run_total(&run, "mpi_latesender") == 0);
  assert_true(az_run_value(&run, "mpi_point2point", "main;MPI_Recv", 0) == 20e-9);
  az_run_free(&run);
}

/* The matching's sort (records.c): rows in order, reversed, in runs of
   both and shuffled all come out in order; equal rows keep their order. */
static void rows_sort_runs_reversed_runs_and_shuffles(void **state) {
  (void)state;
  enum { N = 1000 };
  static az_sort_row v[N];
  uint64_t rng = 88172645463325252ull;
  for (int layout = 0; layout < 4; layout++) {
    for (size_t i = 0; i < N; i++) {
      uint64_t key = i;
      if (layout == 1) key = N - i;                                              /* reversed */
      if (layout == 2) key = (i / 100) % 2 ? 100 * (i / 100) + 99 - i % 100 : i; /* runs */
      if (layout == 3) { /* shuffled, ties */
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        key = rng % 50;
      }
      v[i] = (az_sort_row){{key / 7, key % 7, 0, 0, 0}, i};
    }
    az_sort_rows(v, N);
    for (size_t i = 1; i < N; i++) {
      uint64_t a = v[i - 1].w[0] * 7 + v[i - 1].w[1], b = v[i].w[0] * 7 + v[i].w[1];
      assert_true(a < b || (a == b && v[i - 1].i < v[i].i));
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rows_sort_runs_reversed_runs_and_shuffles),
      cmocka_unit_test(late_sender_at_blocking_receive),
      cmocka_unit_test(send_before_receive_is_late_receiver),
      cmocka_unit_test(wrong_order_moves_late_sender),
      cmocka_unit_test(waitall_takes_the_latest_sender),
      cmocka_unit_test(isend_wait_late_receiver),
      cmocka_unit_test(test_completion_is_no_wait_state),
      cmocka_unit_test(sub_communicator_ranks_are_translated),
      cmocka_unit_test(clock_offsets_are_applied),
      cmocka_unit_test(clock_violation_is_reported_and_clamped),
      cmocka_unit_test(unmatched_messages_are_counted),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
