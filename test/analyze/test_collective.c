/* Collective wait states: barrier and N x N (wait and completion), Late
   Broadcast at non-roots, Early Reduce at the root, sub-communicators,
   instance matching by sequence, incomplete instances.  Times in ns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "az_test.h"

#define PROCS3 \
  "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n"
#define REGIONS                                                           \
  "region main compiler function main\n"                                  \
  "region barrier mpi barrier MPI_Barrier\n"                              \
  "region allreduce mpi coll_all2all MPI_Allreduce\n"                     \
  "region bcast mpi coll_one2all MPI_Bcast\n"                             \
  "region reduce mpi coll_all2one MPI_Reduce\n"

/* One call of region R on communicator C (root ROOT) from E to X. */
#define CALL(R, C, ROOT, E, X) \
  #E " enter " R "\n" #E " collbegin\n" #X " collend 0 " #C " " ROOT " 8 8\n" #X " leave\n"
#define LOC(N, BODY) "loc " N "\n0 enter main\n" BODY "1000 leave\n"

/* enters 100, 150, 300; leaves 320, 330, 310 */
#define NXN(R)                                  \
  PROCS3 REGIONS                                \
  LOC("0.0", CALL(R, 0, "-", 100, 320))         \
  LOC("1.0", CALL(R, 0, "-", 150, 330))         \
  LOC("2.0", CALL(R, 0, "-", 300, 310))

static void barrier_wait_and_completion(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, NXN("barrier"));
  const char *p = "main;MPI_Barrier";
  assert_true(az_run_value(&run, "mpi_barrier_wait", p, 0) == 200e-9);
  assert_true(az_run_value(&run, "mpi_barrier_wait", p, 1) == 150e-9);
  assert_true(az_run_value(&run, "mpi_barrier_wait", p, 2) == 0);
  assert_true(az_run_value(&run, "mpi_barrier_completion", p, 0) == 10e-9);
  assert_true(az_run_value(&run, "mpi_barrier_completion", p, 1) == 20e-9);
  assert_true(az_run_value(&run, "mpi_barrier_completion", p, 2) == 0);
  /* what the wait states do not explain stays synchronization time */
  assert_true(az_run_value(&run, "mpi_synchronization", p, 0) == 10e-9);
  assert_true(az_run_value(&run, "mpi_synchronization", p, 2) == 10e-9);
  assert_true(az_run_value(&run, "bytes_sent", p, 0) == 8);
  az_run_free(&run);
}

static void nxn_wait_and_completion(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, NXN("allreduce"));
  const char *p = "main;MPI_Allreduce";
  assert_true(az_run_value(&run, "mpi_wait_nxn", p, 0) == 200e-9);
  assert_true(az_run_value(&run, "mpi_wait_nxn", p, 1) == 150e-9);
  assert_true(az_run_value(&run, "mpi_nxn_completion", p, 1) == 20e-9);
  assert_true(az_run_value(&run, "mpi_collective", p, 2) == 10e-9);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 0);
  az_run_free(&run);
}

static void late_broadcast_at_non_roots_only(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS3 REGIONS
              LOC("0.0", CALL("bcast", 0, "1", 100, 260))
              LOC("1.0", CALL("bcast", 0, "1", 250, 255))
              LOC("2.0", CALL("bcast", 0, "1", 300, 310)));
  const char *p = "main;MPI_Bcast";
  assert_true(az_run_value(&run, "mpi_latebroadcast", p, 0) == 150e-9);
  assert_true(az_run_value(&run, "mpi_latebroadcast", p, 1) == 0);
  assert_true(az_run_value(&run, "mpi_latebroadcast", p, 2) == 0);
  assert_true(az_run_total(&run, "mpi_latebroadcast") == 150e-9);
  az_run_free(&run);
}

static void early_reduce_at_the_root(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS3 REGIONS
              LOC("0.0", CALL("reduce", 0, "0", 100, 400))
              LOC("1.0", CALL("reduce", 0, "0", 200, 210))
              LOC("2.0", CALL("reduce", 0, "0", 350, 360)));
  const char *p = "main;MPI_Reduce";
  /* the root waits until the latest sender entered */
  assert_true(az_run_value(&run, "mpi_earlyreduce", p, 0) == 250e-9);
  assert_true(az_run_total(&run, "mpi_earlyreduce") == 250e-9);
  assert_true(az_run_value(&run, "mpi_collective", p, 0) == 50e-9);
  az_run_free(&run);
}

static void sub_communicator_root_and_members(void **state) {
  (void)state;
  az_run run;
  /* comm 2 = world ranks (0, 2); its rank 1 (world 2) is the root */
  az_run_text(&run, PROCS3 "comm 2 ranks 0 2\n" REGIONS
              LOC("0.0", CALL("bcast", 2, "1", 100, 200))
              LOC("1.0", "")
              LOC("2.0", CALL("bcast", 2, "1", 180, 190)));
  assert_true(az_run_value(&run, "mpi_latebroadcast", "main;MPI_Bcast", 0) == 80e-9);
  assert_true(az_run_total(&run, "mpi_latebroadcast") == 80e-9);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

static void instances_match_by_sequence(void **state) {
  (void)state;
  az_run run;
  /* two barriers: rank 1 is late for the first, rank 0 for the second */
  az_run_text(&run, "process 0 threads 1\nprocess 1 threads 1\n" REGIONS
              LOC("0.0", CALL("barrier", 0, "-", 100, 200)
                             CALL("barrier", 0, "-", 500, 510))
              LOC("1.0", CALL("barrier", 0, "-", 190, 200)
                             CALL("barrier", 0, "-", 300, 510)));
  const char *p = "main;MPI_Barrier";
  assert_true(az_run_value(&run, "mpi_barrier_wait", p, 0) == 90e-9);
  assert_true(az_run_value(&run, "mpi_barrier_wait", p, 1) == 200e-9);
  assert_true(az_run_value(&run, "visits", p, 1) == 2);
  az_run_free(&run);
}

static void incomplete_instance_is_reported(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS3 REGIONS
              LOC("0.0", CALL("barrier", 0, "-", 100, 320))
              LOC("1.0", CALL("barrier", 0, "-", 150, 330))
              LOC("2.0", ""));
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_UNMATCHED_COLL], 1);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 0);
  assert_true(az_run_value(&run, "mpi_synchronization", "main;MPI_Barrier", 0) == 220e-9);
  az_run_free(&run);
}

/* Rank 0 did not record its MPI_Allreduce (MPI_Pcontrol(0)): its barrier
   is the first collective of both ranks.  Pairing by position would take
   rank 1's Allreduce for a barrier (390 ns of barrier completion on rank
   0); the mismatch instead stops the analysis of communicator 0's
   collectives with one warning, and the later instance (rank 1's barrier,
   alone) gives no second one. */
static void different_operations_never_pair(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 1\nprocess 1 threads 1\n" REGIONS
              LOC("0.0", CALL("barrier", 0, "-", 100, 500))
              LOC("1.0", CALL("allreduce", 0, "-", 100, 110)
                             CALL("barrier", 0, "-", 450, 500)));
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_UNMATCHED_COLL], 1);
  assert_int_equal(az_warn_total(&run.a.diag), 1);
  assert_true(az_run_total(&run, "mpi_barrier_wait") == 0);
  assert_true(az_run_total(&run, "mpi_barrier_completion") == 0);
  assert_true(az_run_total(&run, "mpi_wait_nxn") == 0);
  assert_true(az_run_total(&run, "mpi_nxn_completion") == 0);
  assert_true(az_run_value(&run, "mpi_synchronization", "main;MPI_Barrier", 0) == 400e-9);
  assert_true(az_run_value(&run, "mpi_synchronization", "main;MPI_Barrier", 1) == 50e-9);
  assert_true(az_run_value(&run, "mpi_collective", "main;MPI_Allreduce", 1) == 10e-9);
  az_run_free(&run);
}

/* The same run where libpomp-mpi wrote a placeholder for rank 0's
   unrecorded MPI_Allreduce (docs/TRACE.md: MpiCollectiveEnd outside any
   MPI region, root = 1 instance): the barriers pair as instance 2, and
   only the Allreduce, alone, is not analysed. */
static void placeholder_keeps_instance_numbers(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 1\nprocess 1 threads 1\n" REGIONS
              LOC("0.0", "90 collend 0 0 1 0 0\n"
                             CALL("barrier", 0, "-", 100, 500))
              LOC("1.0", CALL("allreduce", 0, "-", 100, 110)
                             CALL("barrier", 0, "-", 450, 500)));
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_UNMATCHED_COLL], 1);
  assert_int_equal(az_warn_total(&run.a.diag), 1);
  const char *p = "main;MPI_Barrier";
  assert_true(az_run_value(&run, "mpi_barrier_wait", p, 0) == 350e-9);
  assert_true(az_run_value(&run, "mpi_barrier_wait", p, 1) == 0);
  assert_true(az_run_value(&run, "mpi_synchronization", p, 0) == 50e-9);
  assert_true(az_run_total(&run, "mpi_barrier_completion") == 0);
  assert_true(az_run_total(&run, "mpi_wait_nxn") == 0);
  /* a placeholder carries no time and no bytes */
  assert_true(az_run_value(&run, "comp", "main", 0) == 600e-9);
  assert_true(az_run_total(&run, "bytes_sent") == 24); /* 3 calls */
  az_run_free(&run);
}

static void self_communicator_needs_no_partner(void **state) {
  (void)state;
  az_run run;
  /* comm 1 is MPI_COMM_SELF: each rank alone, at different times */
  az_run_text(&run, "process 0 threads 1\nprocess 1 threads 1\n" REGIONS
              LOC("0.0", CALL("allreduce", 1, "-", 100, 120))
              LOC("1.0", CALL("allreduce", 1, "-", 300, 310)));
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  assert_true(az_run_total(&run, "mpi_wait_nxn") == 0);
  assert_true(az_run_value(&run, "mpi_collective", "main;MPI_Allreduce", 0) == 20e-9);
  assert_true(az_run_value(&run, "bytes_sent", "main;MPI_Allreduce", 1) == 8);
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(barrier_wait_and_completion),
      cmocka_unit_test(nxn_wait_and_completion),
      cmocka_unit_test(late_broadcast_at_non_roots_only),
      cmocka_unit_test(early_reduce_at_the_root),
      cmocka_unit_test(sub_communicator_root_and_members),
      cmocka_unit_test(instances_match_by_sequence),
      cmocka_unit_test(incomplete_instance_is_reported),
      cmocka_unit_test(different_operations_never_pair),
      cmocka_unit_test(placeholder_keeps_instance_numbers),
      cmocka_unit_test(self_communicator_needs_no_partner),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
