/* MPI_THREAD_MULTIPLE and freed requests (issue 21): a request completed
   by another thread of its process than the one that posted it, several
   threads sending and receiving on one communicator, peer and tag in an
   order the trace does not decide, MPI_Request_free of an active Isend.
   Zero warnings and exact wait states; az_run_text also replays every
   trace in windows of two events, where a completion is often read
   before its post.  Times are ns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "az_test.h"

#define PROCS "process 0 threads 2\nprocess 1 threads 2\n"
#define REGIONS                                                                                    \
  "region main compiler function main\n"                                                           \
  "region send mpi point2point MPI_Send\n"                                                         \
  "region recv mpi point2point MPI_Recv\n"                                                         \
  "region isend mpi point2point MPI_Isend\n"                                                       \
  "region irecv mpi point2point MPI_Irecv\n"                                                       \
  "region wait mpi point2point MPI_Wait\n"                                                         \
  "region free mpi point2point MPI_Request_free\n"
/* locations: 0 = rank 0 thread 0, 1 = rank 0 thread 1, 2 = rank 1 thread 0 */

/* MPI on several threads: the one warning is the root-cause model's limit
   (no delay costs, no critical path: docs/PROPERTIES.md), none of matching. */
static void assert_no_matching_warning(const az_run *run) {
  assert_int_equal(run->a.diag.count[AZ_W_MODEL], 1);
  assert_int_equal(az_warn_total(&run->a.diag), 1);
}

static void requests_completed_by_another_thread(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS REGIONS
              /* rank 0: thread 0 posts receive 1, thread 1 waits for it */
              "loc 0.0\n0 enter main\n10 enter irecv\n11 irecvreq 1\n12 leave\n"
              "350 enter recv\n355 recv 1 0 1 8\n360 leave\n500 leave\n"
              "loc 0.1\n0 enter main\n20 enter wait\n190 irecv 1 0 0 8 1\n200 leave\n500 leave\n"
              /* rank 1: thread 0 sends at 150; thread 1 posts Isend 7, which
                 thread 0 completes in a Wait that waits for rank 0's receive */
              "loc 1.0\n0 enter main\n150 enter send\n151 send 0 0 0 8\n152 leave\n"
              "310 enter wait\n399 isendcomplete 7\n400 leave\n500 leave\n"
              "loc 1.1\n0 enter main\n300 enter isend\n301 isend 0 0 1 8 7\n302 leave\n"
              "500 leave\n");
  assert_int_equal(run.status, 0);
  assert_no_matching_warning(&run);
  /* the Wait on thread 1 from 20 to the send at 150 */
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Wait", 1) == 130e-9);
  assert_true(az_run_total(&run, "mpi_latesender") == 130e-9);
  /* the Wait on rank 1 thread 0 from 310 to the receive posted at 350 */
  assert_true(az_run_value(&run, "mpi_latereceiver", "main;MPI_Wait", 2) == 40e-9);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 40e-9);
  assert_true(az_run_value(&run, "bytes_received", "main;MPI_Wait", 1) == 8);
  az_run_free(&run);
}

/* Rank 1's two threads send on one tag, thread 0 first (its Send takes
   long), thread 1 a little later; rank 0's two threads receive, thread 1's
   receive ending before thread 1's send began: MPI matched it with thread
   0's send. Posting order would pair it with thread 1's send (a clock
   condition violation and wrong waits); the order in which the receives
   ended gives the pairing MPI took. */
static void several_threads_on_one_tag(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS REGIONS "loc 0.0\n0 enter main\n10 enter recv\n499 recv 1 0 5 8\n"
                                  "500 leave\n600 leave\n"
                                  "loc 0.1\n0 enter main\n20 enter recv\n104 recv 1 0 5 8\n"
                                  "105 leave\n600 leave\n"
                                  "loc 1.0\n0 enter main\n100 enter send\n101 send 0 0 5 8\n"
                                  "400 leave\n600 leave\n"
                                  "loc 1.1\n0 enter main\n110 enter send\n111 send 0 0 5 8\n"
                                  "115 leave\n600 leave\n");
  assert_int_equal(run.status, 0);
  assert_no_matching_warning(&run);
  /* thread 1 waited from 20 for the send entered at 100, thread 0 from 10
     for the one entered at 110 */
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 1) == 80e-9);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 0) == 100e-9);
  assert_true(az_run_total(&run, "mpi_latesender") == 180e-9);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 0);
  az_run_free(&run);
}

/* Posting order is kept where one thread sends and one receives, even
   when that violates the clock condition (a real one: no other pairing). */
static void one_thread_keeps_posting_order(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS REGIONS "loc 0.0\n0 enter main\n10 enter recv\n40 recv 1 0 5 8\n"
                                  "50 leave\n600 leave\n"
                                  "loc 1.0\n0 enter main\n100 enter send\n101 send 0 0 5 8\n"
                                  "110 leave\n600 leave\n");
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_CLOCK], 1);
  az_run_free(&run);
}

/* MPI_Request_free of an active Isend completes it (libpomp-mpi records
   MpiIsendComplete there): matched with its receive, no wait state in
   MPI_Request_free, no request left open. */
static void request_free_of_an_active_isend(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS REGIONS "loc 1.0\n0 enter main\n10 enter isend\n11 isend 0 0 3 8 5\n"
                                  "12 leave\n20 enter free\n21 isendcomplete 5\n22 leave\n"
                                  "300 leave\n"
                                  "loc 0.0\n0 enter main\n100 enter recv\n105 recv 1 0 3 8\n"
                                  "110 leave\n300 leave\n");
  assert_int_equal(run.status, 0);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  assert_true(az_run_total(&run, "mpi_latesender") == 0);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 0);
  assert_true(az_run_value(&run, "bytes_received", "main;MPI_Recv", 0) == 8);
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(requests_completed_by_another_thread),
      cmocka_unit_test(several_threads_on_one_tag),
      cmocka_unit_test(one_thread_keeps_posting_order),
      cmocka_unit_test(request_free_of_an_active_isend),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
