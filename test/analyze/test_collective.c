/* Collective wait states: barrier and N x N (wait and completion), Late
   Broadcast at non-roots, Early Reduce at the root, Early Scan of each
   rank for the ranks below it, Wait at Finalize, sub-communicators,
   instance matching by sequence, incomplete instances.  Times in ns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "az_test.h"

#define PROCS3 "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n"
#define REGIONS                                                                                    \
  "region main compiler function main\n"                                                           \
  "region barrier mpi barrier MPI_Barrier\n"                                                       \
  "region allreduce mpi coll_all2all MPI_Allreduce\n"                                              \
  "region bcast mpi coll_one2all MPI_Bcast\n"                                                      \
  "region reduce mpi coll_all2one MPI_Reduce\n"                                                    \
  "region scan mpi coll_other MPI_Scan\n"                                                          \
  "region exscan mpi coll_other MPI_Exscan\n"                                                      \
  "region finalize mpi function MPI_Finalize\n"

/* One call of region R, collective operation OP (OTF2_CollectiveOp), on
   communicator C (root ROOT) from E to X. */
#define CALL_OP(R, OP, C, ROOT, E, X)                                                              \
#E " enter " R "\n" #E " collbegin\n" #X " collend " #OP " " #C " " ROOT " 8 8\n" #X " leave\n"
#define CALL(R, C, ROOT, E, X) CALL_OP(R, 0, C, ROOT, E, X)
/* OTF2_COLLECTIVE_OP_SCAN, _EXSCAN */
#define SCAN(E, X) CALL_OP("scan", 14, 0, "-", E, X)
#define EXSCAN(C, E, X) CALL_OP("exscan", 15, C, "-", E, X)
#define LOC(N, BODY) "loc " N "\n0 enter main\n" BODY "1000 leave\n"

/* enters 100, 150, 300; leaves 320, 330, 310 */
#define NXN(R)                                                                                     \
  PROCS3 REGIONS LOC("0.0", CALL(R, 0, "-", 100, 320)) LOC("1.0", CALL(R, 0, "-", 150, 330))       \
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
  az_run_text(&run, PROCS3 REGIONS LOC("0.0", CALL("bcast", 0, "1", 100, 260))
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
  az_run_text(&run, PROCS3 REGIONS LOC("0.0", CALL("reduce", 0, "0", 100, 400))
                        LOC("1.0", CALL("reduce", 0, "0", 200, 210))
                            LOC("2.0", CALL("reduce", 0, "0", 350, 360)));
  const char *p = "main;MPI_Reduce";
  /* the root waits until the latest sender entered */
  assert_true(az_run_value(&run, "mpi_earlyreduce", p, 0) == 250e-9);
  assert_true(az_run_total(&run, "mpi_earlyreduce") == 250e-9);
  assert_true(az_run_value(&run, "mpi_collective", p, 0) == 50e-9);
  az_run_free(&run);
}

/* Rank r of a scan needs ranks 0..r-1 only: it waits for the latest of
   their enters, never for a rank above it.  Enters 300, 100, 200, 500:
   rank 1 waits for rank 0 (200), rank 2 too but leaves at 250 (a clock
   condition violation clamps its wait to the call: 50), rank 3 came after
   them all (0), rank 0 has nobody to wait for although rank 3 is later
   (an N x N wait would charge ranks 0-2 for rank 3). */
static void early_scan_waits_for_lower_ranks_only(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run,
              PROCS3 "process 3 threads 1\n" REGIONS LOC("0.0", SCAN(300, 600))
                  LOC("1.0", SCAN(100, 600)) LOC("2.0", SCAN(200, 250)) LOC("3.0", SCAN(500, 600)));
  const char *p = "main;MPI_Scan";
  assert_true(az_run_value(&run, "mpi_earlyscan", p, 0) == 0);
  assert_true(az_run_value(&run, "mpi_earlyscan", p, 1) == 200e-9);
  assert_true(az_run_value(&run, "mpi_earlyscan", p, 2) == 50e-9);
  assert_true(az_run_value(&run, "mpi_earlyscan", p, 3) == 0);
  assert_true(az_run_total(&run, "mpi_earlyscan") == 250e-9);
  /* the rest of the call stays collective time */
  assert_true(az_run_value(&run, "mpi_collective", p, 0) == 300e-9);
  assert_true(az_run_value(&run, "mpi_collective", p, 1) == 300e-9);
  assert_true(az_run_value(&run, "mpi_collective", p, 2) == 0);
  assert_true(az_run_total(&run, "mpi_wait_nxn") == 0);
  assert_true(az_run_total(&run, "mpi_nxn_completion") == 0);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

/* MPI_Exscan on comm 2 = world ranks (2, 0, 1): the order is the
   communicator's.  World 2 (comm rank 0) waits for nobody; world 0 (comm
   rank 1) for world 2's enter at 250: 150; world 1 (comm rank 2) for the
   later of both, 250: 50.  In world order nobody would wait (the enters
   100, 200, 250 rise). */
static void early_exscan_in_communicator_order(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS3 "comm 2 ranks 2 0 1\n" REGIONS LOC("0.0", EXSCAN(2, 100, 300))
                        LOC("1.0", EXSCAN(2, 200, 300)) LOC("2.0", EXSCAN(2, 250, 300)));
  const char *p = "main;MPI_Exscan";
  assert_true(az_run_value(&run, "mpi_earlyscan", p, 0) == 150e-9);
  assert_true(az_run_value(&run, "mpi_earlyscan", p, 1) == 50e-9);
  assert_true(az_run_value(&run, "mpi_earlyscan", p, 2) == 0);
  assert_true(az_run_total(&run, "mpi_earlyscan") == 200e-9);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

/* A defective trace: comm 2 holds world ranks 0 and 1, but world ranks 0
   and 2 record an MPI_Exscan on it (rank 1 none).  Two records for a
   communicator of two, yet not one per rank: a warning, no Early Scan
   for anyone (and no reading of a missing rank 1). */
static void scan_records_of_a_rank_outside_the_communicator(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS3 "comm 2 ranks 0 1\n" REGIONS LOC("0.0", EXSCAN(2, 100, 300))
                        LOC("1.0", "") LOC("2.0", EXSCAN(2, 200, 300)));
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_UNMATCHED_COLL], 1);
  assert_int_equal(az_warn_total(&run.a.diag), 1);
  assert_true(az_run_total(&run, "mpi_earlyscan") == 0);
  assert_true(az_run_value(&run, "mpi_collective", "main;MPI_Exscan", 0) == 200e-9);
  az_run_free(&run);
}

/* MPI_Finalize (no collective record) is an instance of all processes:
   each waits for the last to enter (Scalasca's Wait at Finalize),
   min(latest enter, own leave) - own enter, and only at its first
   MPI_Finalize.  Enters 100, 150, 300; leaves 400, 250 (before the last
   enter: a clock-condition violation clamps the wait to the call), 310.
   Waits 200, min(300, 250) - 150 = 100, 0; no completion metric.  The
   rest of each call stays mpi_management: 300 - 200, 100 - 100, 10.
   Rank 0's second call (600..700, erroneous in MPI) waits for nobody. */
#define FINALIZE(E, X) #E " enter finalize\n" #X " leave\n"
static void finalize_waits_for_the_last_process(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS3 REGIONS LOC("0.0", FINALIZE(100, 400) FINALIZE(600, 700))
                        LOC("1.0", FINALIZE(150, 250)) LOC("2.0", FINALIZE(300, 310)));
  const char *p = "main;MPI_Finalize";
  assert_true(az_run_value(&run, "mpi_finalize_wait", p, 0) == 200e-9);
  assert_true(az_run_value(&run, "mpi_finalize_wait", p, 1) == 100e-9);
  assert_true(az_run_value(&run, "mpi_finalize_wait", p, 2) == 0);
  assert_true(az_run_total(&run, "mpi_finalize_wait") == 300e-9);
  assert_true(az_run_value(&run, "mpi_management", p, 0) == 200e-9); /* 100 + 100 */
  assert_true(az_run_value(&run, "mpi_management", p, 1) == 0);
  assert_true(az_run_value(&run, "mpi_management", p, 2) == 10e-9);
  assert_true(az_run_total(&run, "mpi_wait_nxn") == 0);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

/* A process without MPI_Finalize (its run died; recovered traces): no
   instance of all, no Wait at Finalize for anyone, and no warning of its
   own. */
static void finalize_without_all_processes_waits_for_nobody(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS3 REGIONS LOC("0.0", FINALIZE(100, 400)) LOC("1.0", FINALIZE(150, 250))
                        LOC("2.0", ""));
  assert_true(az_run_total(&run, "mpi_finalize_wait") == 0);
  assert_true(az_run_value(&run, "mpi_management", "main;MPI_Finalize", 0) == 300e-9);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

static void sub_communicator_root_and_members(void **state) {
  (void)state;
  az_run run;
  /* comm 2 = world ranks (0, 2); its rank 1 (world 2) is the root */
  az_run_text(&run, PROCS3 "comm 2 ranks 0 2\n" REGIONS LOC("0.0", CALL("bcast", 2, "1", 100, 200))
                        LOC("1.0", "") LOC("2.0", CALL("bcast", 2, "1", 180, 190)));
  assert_true(az_run_value(&run, "mpi_latebroadcast", "main;MPI_Bcast", 0) == 80e-9);
  assert_true(az_run_total(&run, "mpi_latebroadcast") == 80e-9);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

static void instances_match_by_sequence(void **state) {
  (void)state;
  az_run run;
  /* two barriers: rank 1 is late for the first, rank 0 for the second */
  az_run_text(&run,
              "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
                  "0.0", CALL("barrier", 0, "-", 100, 200) CALL("barrier", 0, "-", 500, 510))
                  LOC("1.0", CALL("barrier", 0, "-", 190, 200) CALL("barrier", 0, "-", 300, 510)));
  const char *p = "main;MPI_Barrier";
  assert_true(az_run_value(&run, "mpi_barrier_wait", p, 0) == 90e-9);
  assert_true(az_run_value(&run, "mpi_barrier_wait", p, 1) == 200e-9);
  assert_true(az_run_value(&run, "visits", p, 1) == 2);
  az_run_free(&run);
}

static void incomplete_instance_is_reported(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS3 REGIONS LOC("0.0", CALL("barrier", 0, "-", 100, 320))
                        LOC("1.0", CALL("barrier", 0, "-", 150, 330)) LOC("2.0", ""));
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
  az_run_text(
      &run, "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
                "0.0", CALL("barrier", 0, "-", 100, 500))
                LOC("1.0", CALL("allreduce", 0, "-", 100, 110) CALL("barrier", 0, "-", 450, 500)));
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
  az_run_text(
      &run, "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
                "0.0", "90 collend 0 0 1 0 0\n" CALL("barrier", 0, "-", 100, 500))
                LOC("1.0", CALL("allreduce", 0, "-", 100, 110) CALL("barrier", 0, "-", 450, 500)));
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
  az_run_text(&run, "process 0 threads 1\nprocess 1 threads 1\n" REGIONS LOC(
                        "0.0", CALL("allreduce", 1, "-", 100, 120))
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
      cmocka_unit_test(early_scan_waits_for_lower_ranks_only),
      cmocka_unit_test(early_exscan_in_communicator_order),
      cmocka_unit_test(scan_records_of_a_rank_outside_the_communicator),
      cmocka_unit_test(finalize_waits_for_the_last_process),
      cmocka_unit_test(finalize_without_all_processes_waits_for_nobody),
      cmocka_unit_test(sub_communicator_root_and_members),
      cmocka_unit_test(instances_match_by_sequence),
      cmocka_unit_test(incomplete_instance_is_reported),
      cmocka_unit_test(different_operations_never_pair),
      cmocka_unit_test(placeholder_keeps_instance_numbers),
      cmocka_unit_test(self_communicator_needs_no_partner),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
