/* One-sided wait states (pass_rma.c) on traces whose answers are known by
   construction: Wait at Fence / Create / Free per instance, Early Fence,
   Late Post in start, complete and the operations, Early Wait and its Late
   Complete part, lock competition by conflict (exclusive against any, shared
   against exclusive), bytes put and got.  Times in ns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "az_test.h"

#define PROCS3                                                                                     \
  "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\n"                                \
  "win 0 comm 0\n"
#define REGIONS                                                                                    \
  "region main compiler function main\n"                                                           \
  "region create mpi function MPI_Win_create\n"                                                    \
  "region free mpi function MPI_Win_free\n"                                                        \
  "region fence mpi function MPI_Win_fence\n"                                                      \
  "region post mpi function MPI_Win_post\n"                                                        \
  "region start mpi function MPI_Win_start\n"                                                      \
  "region complete mpi function MPI_Win_complete\n"                                                \
  "region wait mpi function MPI_Win_wait\n"                                                        \
  "region lock mpi function MPI_Win_lock\n"                                                        \
  "region unlock mpi function MPI_Win_unlock\n"                                                    \
  "region put mpi function MPI_Put\n"                                                              \
  "region get mpi function MPI_Get\n"
#define LOC(N, BODY) "loc " N "\n0 enter main\n" BODY "10000 leave\n"
/* One collective RMA call (fence, create, free) from E to X. */
#define COLL(R, E, X) #E " enter " #R "\n" #X " rmacoll " #R " 0\n" #X " leave\n"
/* A group synchronisation call (post, start, complete, wait). */
#define GSYNC(R, E, X) #E " enter " #R "\n" #X " rmagsync 0\n" #X " leave\n"
#define PUT(T, BYTES, E, X) #E " enter put\n" #E " rmaput 0 " #T " " #BYTES "\n" #X " leave\n"
#define GET(T, BYTES, E, X) #E " enter get\n" #E " rmaget 0 " #T " " #BYTES "\n" #X " leave\n"
#define LOCK(T, KIND, E, X) #E " enter lock\n" #E " rmalock 0 " #T " " #KIND "\n" #X " leave\n"
#define UNLOCK(T, E, X) #E " enter unlock\n" #X " rmaunlock 0 " #T "\n" #X " leave\n"

static void wait_at_fence_create_and_free_per_instance(void **state) {
  (void)state;
  az_run run;
  /* create: enters 100, 150, 300; fence 1: 500, 800, 520; fence 2: all
     at 1000 (no wait); free: 2000, 2000, 2100 */
  az_run_text(&run, PROCS3 REGIONS LOC("0.0", COLL(create, 100, 320) COLL(fence, 500, 810)
                                                  COLL(fence, 1000, 1010) COLL(free, 2000, 2110))
                        LOC("1.0", COLL(create, 150, 330) COLL(fence, 800, 820)
                                       COLL(fence, 1000, 1010) COLL(free, 2000, 2110))
                            LOC("2.0", COLL(create, 300, 310) COLL(fence, 520, 805)
                                           COLL(fence, 1000, 1010) COLL(free, 2100, 2110)));
  assert_true(az_run_value(&run, "mpi_rma_wait_at_create", "main;MPI_Win_create", 0) == 200e-9);
  assert_true(az_run_value(&run, "mpi_rma_wait_at_create", "main;MPI_Win_create", 1) == 150e-9);
  assert_true(az_run_value(&run, "mpi_rma_wait_at_create", "main;MPI_Win_create", 2) == 0);
  assert_true(az_run_value(&run, "mpi_rma_wait_at_fence", "main;MPI_Win_fence", 0) == 300e-9);
  assert_true(az_run_value(&run, "mpi_rma_wait_at_fence", "main;MPI_Win_fence", 1) == 0);
  assert_true(az_run_value(&run, "mpi_rma_wait_at_fence", "main;MPI_Win_fence", 2) == 280e-9);
  assert_true(az_run_value(&run, "mpi_rma_wait_at_free", "main;MPI_Win_free", 0) == 100e-9);
  assert_true(az_run_value(&run, "mpi_rma_wait_at_free", "main;MPI_Win_free", 2) == 0);
  /* the rest of the fences' time is active target synchronisation:
     rank 0: 310 + 10 in the calls, 300 of it waiting */
  assert_true(az_run_value(&run, "mpi_rma_sync_active", "main;MPI_Win_fence", 0) == 20e-9);
  assert_true(az_run_value(&run, "mpi_management", "main;MPI_Win_create", 2) == 10e-9);
  az_run_free(&run);
}

/* Early Fence: fences 1 at 100..110; rank 0 puts to rank 1 at 200..350,
   rank 2 at 260..270; closing fences: rank 0 400..500, rank 1 250..480,
   rank 2 300..490. Rank 1 waits 150 for the last enter (400), 100 of it
   until the last operation to it had ended (350): Early Fence, the rest
   Wait at Fence. Rank 2 waits 100, no operation targets it; rank 0 does
   not wait. (Rank 0's put to rank 2 before the first fence ended before
   rank 2 entered it.) */
static void early_fence_until_the_last_operation(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run,
              PROCS3 REGIONS LOC("0.0", PUT(2, 8, 50, 60) COLL(fence, 100, 110) PUT(1, 8, 200, 350)
                                            COLL(fence, 400, 500))
                  LOC("1.0", COLL(fence, 100, 110) COLL(fence, 250, 480))
                      LOC("2.0", COLL(fence, 100, 110) PUT(1, 8, 260, 270) COLL(fence, 300, 490)));
  assert_true(az_run_value(&run, "mpi_rma_early_fence", "main;MPI_Win_fence", 1) == 100e-9);
  assert_true(az_run_value(&run, "mpi_rma_wait_at_fence", "main;MPI_Win_fence", 1) == 50e-9);
  assert_true(az_run_value(&run, "mpi_rma_early_fence", "main;MPI_Win_fence", 2) == 0);
  assert_true(az_run_value(&run, "mpi_rma_wait_at_fence", "main;MPI_Win_fence", 2) == 100e-9);
  assert_true(az_run_value(&run, "mpi_rma_early_fence", "main;MPI_Win_fence", 0) == 0);
  assert_true(az_run_value(&run, "mpi_rma_wait_at_fence", "main;MPI_Win_fence", 0) == 0);
  /* rank 1's fences: 10 + 230 in the calls, 150 of it waiting */
  assert_true(az_run_value(&run, "mpi_rma_sync_active", "main;MPI_Win_fence", 1) == 90e-9);
  assert_true(az_run_total(&run, "mpi_rma_early_fence") == 100e-9);
  az_run_free(&run);
}

/* Rank 1 posts at 500; rank 0 starts at 100 (start returns at 150), puts
   at 200..600 (MPI blocks the put until the post), completes 700..720;
   rank 1 waits 520..720. */
static void late_post_in_start_and_operation(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS3 REGIONS LOC("0.0", GSYNC(start, 100, 150) PUT(1, 64, 200, 600)
                                                  GSYNC(complete, 700, 720))
                        LOC("1.0", GSYNC(post, 500, 510) GSYNC(wait, 520, 720)) LOC("2.0", ""));
  assert_true(az_run_value(&run, "mpi_rma_sync_late_post", "main;MPI_Win_start", 0) == 50e-9);
  assert_true(az_run_value(&run, "mpi_rma_comm_late_post", "main;MPI_Put", 0) == 300e-9);
  assert_true(az_run_value(&run, "mpi_rma_sync_late_post", "main;MPI_Win_complete", 0) == 0);
  /* the wait waited 180 for the complete (700), 100 of it after the put
     had ended (600): Late Complete */
  assert_true(az_run_value(&run, "mpi_rma_late_complete", "main;MPI_Win_wait", 1) == 100e-9);
  assert_true(az_run_value(&run, "mpi_rma_early_wait", "main;MPI_Win_wait", 1) == 80e-9);
  assert_true(az_run_value(&run, "bytes_put", "main;MPI_Put", 0) == 64);
  az_run_free(&run);
}

/* Two exposure epochs of rank 2, each matched with one access epoch of
   ranks 0 and 1 in order; the second post is late for both. */
static void early_wait_matches_epochs_in_order(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run,
              PROCS3 REGIONS LOC("0.0", GSYNC(start, 100, 110) GET(2, 8, 120, 130)
                                            GSYNC(complete, 400, 410) GSYNC(start, 1000, 1700)
                                                GET(2, 8, 1710, 1720) GSYNC(complete, 1730, 1740))
                  LOC("1.0", GSYNC(start, 100, 110) PUT(2, 16, 120, 130) GSYNC(complete, 300, 310)
                                 GSYNC(start, 1000, 1700) PUT(2, 16, 1710, 1720)
                                     GSYNC(complete, 1730, 1740))
                      LOC("2.0", GSYNC(post, 90, 95) GSYNC(wait, 100, 410) GSYNC(post, 1600, 1610)
                                     GSYNC(wait, 1620, 1740)));
  /* epoch 1: the wait (100..410) waits for the latest complete (400):
     300, of which 400 - 130 = 270 after the last operation */
  /* epoch 2: complete 1730, last operation ended 1720: 10 of 110 late */
  assert_true(az_run_value(&run, "mpi_rma_late_complete", "main;MPI_Win_wait", 2) == 280e-9);
  assert_true(az_run_value(&run, "mpi_rma_early_wait", "main;MPI_Win_wait", 2) == 130e-9);
  /* the second starts (1000..1700) wait for the post at 1600 */
  assert_true(az_run_value(&run, "mpi_rma_sync_late_post", "main;MPI_Win_start", 0) == 600e-9);
  assert_true(az_run_value(&run, "mpi_rma_sync_late_post", "main;MPI_Win_start", 1) == 600e-9);
  assert_true(az_run_value(&run, "bytes_get", "main;MPI_Get", 0) == 16);
  assert_true(az_run_value(&run, "bytes_put", "main;MPI_Put", 1) == 32);
  az_run_free(&run);
}

/* PSCW with recorded groups (groups 2 = {0}, 4 = {2}, 5 = {1, 3}, of the
   comms declared second, fourth and fifth). Rank 1 exposes to rank 0
   (post 100, wait 120..400), then to rank 2 (post 1000, wait 1020..1300);
   rank 3 exposes to rank 2 (post 600, wait 610..1300). Rank 0 starts to
   {1} at 50..105, puts 150..160, completes 300..310; rank 2 starts to
   {1, 3} at 200..1005, puts to 1 only (1100..1110), completes 1200..1210.
   Matched by the groups, rank 2's epoch meets rank 1's second post;
   counted per (origin, target) it would have met the first. */
#define PROCS4_GROUPS                                                                              \
  "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\nprocess 3 threads 1\n"           \
  "comm 0 ranks 0 1 2 3\ncomm 2 ranks 0\ncomm 3 ranks 1\ncomm 4 ranks 2\ncomm 6 ranks 1 3\n"       \
  "win 0 comm 0\n"
#define GSYNC_G(R, G, E, X) #E " enter " #R "\n" #X " rmagsync 0 " #G "\n" #X " leave\n"

static void pscw_matched_by_groups(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, PROCS4_GROUPS REGIONS LOC("0.0", GSYNC_G(start, 3, 50, 105) PUT(1, 8, 150, 160)
                                                         GSYNC(complete, 300, 310))
                        LOC("1.0", GSYNC_G(post, 2, 100, 110) GSYNC(wait, 120, 400)
                                       GSYNC_G(post, 4, 1000, 1010) GSYNC(wait, 1020, 1300))
                            LOC("2.0", GSYNC_G(start, 5, 200, 1005) PUT(1, 8, 1100, 1110)
                                           GSYNC(complete, 1200, 1210))
                                LOC("3.0", GSYNC_G(post, 4, 600, 610) GSYNC(wait, 610, 1300)));
  /* Late Post: rank 0 waits for post 100, rank 2 for the later of its
     targets' posts, 1000 */
  assert_true(az_run_value(&run, "mpi_rma_sync_late_post", "main;MPI_Win_start", 0) == 50e-9);
  assert_true(az_run_value(&run, "mpi_rma_sync_late_post", "main;MPI_Win_start", 2) == 800e-9);
  assert_true(az_run_value(&run, "mpi_rma_sync_late_post", "main;MPI_Win_complete", 0) == 0);
  assert_true(az_run_value(&run, "mpi_rma_sync_late_post", "main;MPI_Win_complete", 2) == 0);
  assert_true(az_run_total(&run, "mpi_rma_comm_late_post") == 0);
  /* rank 1's first wait waits for rank 0's complete (300), 140 of it
     after the put (160); its second for rank 2's (1200), 90 after the
     put (1110) */
  assert_true(az_run_value(&run, "mpi_rma_early_wait", "main;MPI_Win_wait", 1) == 130e-9);
  assert_true(az_run_value(&run, "mpi_rma_late_complete", "main;MPI_Win_wait", 1) == 230e-9);
  /* rank 3 waits for rank 2's complete (1200); rank 2 put nothing to it,
     so the part after its start returned (1005) is Late Complete */
  assert_true(az_run_value(&run, "mpi_rma_early_wait", "main;MPI_Win_wait", 3) == 395e-9);
  assert_true(az_run_value(&run, "mpi_rma_late_complete", "main;MPI_Win_wait", 3) == 195e-9);
  az_run_free(&run);
}

/* Locks on rank 2: rank 0 holds it exclusively 100..600 (unlock leaves at
   600); rank 1 asks at 200 exclusively: its lock (200..250) and unlock
   (300..700) wait until 600; its put at 260..650 waits until 600. Then
   shared locks of ranks 0 and 1 (1000..1100, 1050..1150) do not conflict. */
static void lock_competition_by_conflict(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run,
              PROCS3 REGIONS LOC("0.0", LOCK(2, excl, 100, 110) UNLOCK(2, 500, 600)
                                            LOCK(2, shared, 1000, 1010) UNLOCK(2, 1090, 1100))
                  LOC("1.0", LOCK(2, excl, 200, 250) PUT(2, 4, 260, 290) UNLOCK(2, 300, 700)
                                 LOCK(2, shared, 1050, 1060) UNLOCK(2, 1140, 1150)) LOC("2.0", ""));
  assert_true(az_run_value(&run, "mpi_rma_sync_lock_competition", "main;MPI_Win_lock", 1) == 50e-9);
  assert_true(az_run_value(&run, "mpi_rma_sync_lock_competition", "main;MPI_Win_unlock", 1) ==
              300e-9);
  assert_true(az_run_value(&run, "mpi_rma_comm_lock_competition", "main;MPI_Put", 1) == 30e-9);
  assert_true(az_run_total(&run, "mpi_rma_sync_lock_competition") == 350e-9);
  /* unlocks 400 + 10, 300 of it competition */
  assert_true(az_run_value(&run, "mpi_rma_sync_passive", "main;MPI_Win_unlock", 1) == 110e-9);
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(wait_at_fence_create_and_free_per_instance),
      cmocka_unit_test(early_fence_until_the_last_operation),
      cmocka_unit_test(late_post_in_start_and_operation),
      cmocka_unit_test(early_wait_matches_epochs_in_order),
      cmocka_unit_test(pscw_matched_by_groups),
      cmocka_unit_test(lock_competition_by_conflict),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
