/* Runs that did not finish (docs/PROPERTIES.md, "Runs that did not
   finish"): the trace of a run that died is analysed as far as it goes.
   Records end early, inside open regions; partners never came; a team
   lost a member; the last chunk of an event file is cut off.  Every
   expected value follows from the trace text.  Times in ns. */
#define _XOPEN_SOURCE 700 /* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "az_test.h"
#include "tracegen.h"

static const char *const status =
    "incomplete: rank 1: MPI_Abort(MPI_COMM_WORLD, 3); trace recovered "
    "from 2 ranks (1 complete, 1 up to its last flush, 0 missing)";

/* Analyse as a run that did not finish, then reset. */
static void run_unfinished(az_run *run, const char *text) {
  az_run_status = status;
  az_run_text(run, text);
  az_run_status = NULL;
}

#define REGIONS                                                                                    \
  "region main compiler function main\n"                                                           \
  "region send mpi point2point MPI_Send\n"                                                         \
  "region recv mpi point2point MPI_Recv\n"                                                         \
  "region barrier mpi barrier MPI_Barrier\n"                                                       \
  "region work user function work\n"

/* Rank 1's record ends inside MPI_Send at 250 (its events after its last
   flush are lost); rank 0 waits in a receive for a message that never
   came, closed by libpomp at the abort (300). */
static const char *const ended_in_send =
    "process 0 threads 1\nprocess 1 threads 1\n" REGIONS
    "loc 0.0\n0 enter main\n100 enter recv\n160 recv 1 0 0 8\n170 leave\n"
    "200 enter recv\n300 leave\n300 leave\n"
    "loc 1.0\n0 enter main\n150 enter send\n155 send 0 0 0 8\n158 leave\n"
    "250 enter send\n";

static void record_ends_inside_regions(void **state) {
  (void)state;
  az_run run;
  run_unfinished(&run, ended_in_send);
  assert_int_equal(run.status, 0);
  /* one warning saying the run ended there, not a nesting defect */
  assert_int_equal(run.a.diag.count[AZ_W_ENDED], 1);
  assert_int_equal(run.a.diag.count[AZ_W_NESTING], 0);
  assert_int_equal(az_warn_total(&run.a.diag), 1);
  /* the open regions end at the last timestamp: main 250 - 8 - 0 */
  assert_true(az_run_value(&run, "comp", "main", 1) == 242e-9);
  assert_true(az_run_value(&run, "mpi_point2point", "main;MPI_Send", 1) == 8e-9);
  assert_true(az_run_value(&run, "visits", "main;MPI_Send", 1) == 2);
  /* the matched message has its Late Sender; the receive whose send never
     came has none: its time stays point-to-point */
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 0) == 50e-9);
  assert_true(az_run_value(&run, "mpi_point2point", "main;MPI_Recv", 0) == 120e-9);
  /* a location's time is its own span */
  assert_float_equal(az_run_location_time(&run, 0), 300e-9, 1e-18);
  assert_float_equal(az_run_location_time(&run, 1), 250e-9, 1e-18);
  assert_string_equal(pomp_report_attr(run.report, "run_status"), status);
  az_run_free(&run);
}

/* The same trace as a finished run: badly nested, and complete. */
static void finished_run_keeps_nesting_warning(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, ended_in_send);
  assert_int_equal(run.a.diag.count[AZ_W_NESTING], 1);
  assert_int_equal(run.a.diag.count[AZ_W_ENDED], 0);
  assert_true(az_run_value(&run, "comp", "main", 1) == 242e-9);
  assert_string_equal(pomp_report_attr(run.report, "run_status"), "complete");
  az_run_free(&run);
}

/* Rank 2's record ends at 90, before the send rank 0 received at 180;
   rank 0's ends at 250, before it posted the receive for rank 1's send
   (200..300).  No wait state is invented for either: the time stays in
   mpi_point2point; two unmatched messages are counted. */
static void partner_never_came(void **state) {
  (void)state;
  az_run run;
  run_unfinished(&run, "process 0 threads 1\nprocess 1 threads 1\n"
                       "process 2 threads 1\n" REGIONS
                       "loc 0.0\n0 enter main\n100 enter recv\n180 recv 2 0 7 8\n"
                       "190 leave\n250 enter work\n"
                       "loc 1.0\n0 enter main\n200 enter send\n205 send 0 0 3 4\n"
                       "300 leave\n400 leave\n"
                       "loc 2.0\n0 enter main\n90 enter work\n");
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_UNMATCHED_MSG], 2);
  assert_int_equal(run.a.diag.count[AZ_W_ENDED], 2);
  assert_true(az_run_total(&run, "mpi_latesender") == 0);
  assert_true(az_run_total(&run, "mpi_latereceiver") == 0);
  assert_true(az_run_value(&run, "mpi_point2point", "main;MPI_Recv", 0) == 90e-9);
  assert_true(az_run_value(&run, "mpi_point2point", "main;MPI_Send", 1) == 100e-9);
  assert_true(az_run_value(&run, "bytes_received", "main;MPI_Recv", 0) == 8);
  az_run_free(&run);
}

#define BARRIER(e, x) #e " enter barrier\n" #x " collend 0 0 - 0 0\n" #x " leave\n"

/* Barrier 1: everybody, waits 30 and 20.  Barrier 2: ranks 0 and 1 left
   it, rank 2's record ended before (it died, or its last events were
   lost): nobody knows whom they waited for, so, as Scalasca's replay
   would not pair it, the instance is not analysed at all. */
static void collective_some_never_entered(void **state) {
  (void)state;
  az_run run;
  run_unfinished(&run,
                 "process 0 threads 1\nprocess 1 threads 1\n"
                 "process 2 threads 1\n" REGIONS "loc 0.0\n0 enter main\n" BARRIER(100, 140)
                     BARRIER(200, 260) "300 leave\n"
                                       "loc 1.0\n0 enter main\n" BARRIER(110, 140)
                                           BARRIER(210, 260) "300 leave\n"
                                                             "loc 2.0\n0 enter main\n" BARRIER(
                                                                 130, 140) "190 enter work\n");
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_UNMATCHED_COLL], 1);
  const char *b = "main;MPI_Barrier";
  assert_true(az_run_value(&run, "mpi_barrier_wait", b, 0) == 30e-9);
  assert_true(az_run_value(&run, "mpi_barrier_wait", b, 1) == 20e-9);
  assert_true(az_run_value(&run, "mpi_barrier_wait", b, 2) == 0);
  /* 10 of barrier 1, all 60 of barrier 2 */
  assert_true(az_run_value(&run, "mpi_synchronization", b, 0) == 70e-9);
  assert_true(az_run_value(&run, "mpi_synchronization", b, 1) == 60e-9);
  az_run_free(&run);
}

/* The same with MPI_Scan (OTF2_COLLECTIVE_OP_SCAN = 14): scan 1 is
   complete (rank 1 waits 20 for rank 0, rank 2 none: it came last);
   scan 2 rank 2 never entered.  Ranks 0 and 1 do not need rank 2 in a
   scan, yet the instance is not analysed: with a rank missing, the
   communicator order of the records that are there is not known to be
   whole, and the other collectives treat a missing member alike. */
#define SCAN(e, x) #e " enter scan\n" #x " collend 14 0 - 8 8\n" #x " leave\n"

static void scan_some_never_entered(void **state) {
  (void)state;
  az_run run;
  run_unfinished(&run, "process 0 threads 1\nprocess 1 threads 1\n"
                       "process 2 threads 1\n" REGIONS "region scan mpi coll_other MPI_Scan\n"
                       "loc 0.0\n0 enter main\n" SCAN(130, 140)
                           SCAN(250, 260) "300 leave\n"
                                          "loc 1.0\n0 enter main\n" SCAN(110, 140)
                                              SCAN(200, 260) "300 leave\n"
                                                             "loc 2.0\n0 enter main\n" SCAN(
                                                                 135, 140) "190 enter work\n");
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_UNMATCHED_COLL], 1);
  const char *p = "main;MPI_Scan";
  assert_true(az_run_value(&run, "mpi_earlyscan", p, 0) == 0);
  assert_true(az_run_value(&run, "mpi_earlyscan", p, 1) == 20e-9);
  assert_true(az_run_value(&run, "mpi_earlyscan", p, 2) == 0);
  /* 10 of scan 1, all 60 of scan 2 (rank 1 waited 50 for rank 0) */
  assert_true(az_run_value(&run, "mpi_collective", p, 1) == 70e-9);
  az_run_free(&run);
}

#define OMP_REGIONS                                                                                \
  "region main compiler function main\n"                                                           \
  "region par openmp parallel !$omp parallel @a.c:10\n"                                            \
  "region par2 openmp parallel !$omp parallel @a.c:30\n"                                           \
  "region bar openmp barrier !$omp barrier @a.c:15\n"                                              \
  "region setlock openmp function omp_set_lock\n"                                                  \
  "region unsetlock openmp function omp_unset_lock\n"                                              \
  "region work user function work\n"                                                               \
  "team 5\nteam 6\n"

#define PAR "main;!$omp parallel @a.c:10"
#define PAR2 "main;!$omp parallel @a.c:30"
#define BAR PAR ";!$omp barrier @a.c:15"

/* Thread 2's record ends at 280 inside the parallel region, holding lock
   7 (its release is lost).  Barrier 1 is complete; barrier 2 thread 2
   never reached.  A second team (master and thread 1) runs 500..600,
   after thread 2's end.  The master is outside parallel regions in
   [0, 100), [410, 500) and [600, 1000). */
static const char *const team_lost_a_member =
    "process 0 threads 3\n" OMP_REGIONS
    "loc 0.0\n0 enter main\n100 fork 3\n100 teambegin 5\n100 enter par\n"
    "200 enter bar\n260 leave\n300 enter bar\n350 leave\n"
    "360 enter setlock\n370 acquire 7 2\n371 leave\n"
    "375 enter unsetlock\n376 release 7 2\n377 leave\n"
    "400 leave\n400 teamend 5\n410 join\n"
    "500 fork 2\n500 teambegin 6\n500 enter par2\n600 leave\n600 teamend 6\n"
    "600 join\n1000 leave\n"
    "loc 0.1\n100 teambegin 5\n100 enter par\n220 enter bar\n260 leave\n"
    "340 enter bar\n350 leave\n400 leave\n400 teamend 5\n"
    "500 teambegin 6\n500 enter par2\n600 leave\n600 teamend 6\n"
    "loc 0.2\n100 teambegin 5\n100 enter par\n250 enter bar\n260 leave\n"
    "270 enter setlock\n271 acquire 7 1\n272 leave\n280 enter work\n";

static void team_member_ended_early(void **state) {
  (void)state;
  az_run run;
  run_unfinished(&run, team_lost_a_member);
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_ENDED], 1);
  assert_int_equal(run.a.diag.count[AZ_W_BARRIER], 1);
  assert_int_equal(run.a.diag.count[AZ_W_LOCK], 1);
  /* barrier 1: the latest arrived at 250 */
  assert_true(az_run_value(&run, "omp_ebarrier_wait", BAR, 0) == 50e-9);
  assert_true(az_run_value(&run, "omp_ebarrier_wait", BAR, 1) == 30e-9);
  assert_true(az_run_value(&run, "omp_ebarrier_wait", BAR, 2) == 0);
  /* barrier 2 is not analysed: its time stays omp_barrier (10 + 50 and
     10 + 10) */
  assert_true(az_run_value(&run, "omp_barrier", BAR, 0) == 60e-9);
  assert_true(az_run_value(&run, "omp_barrier", BAR, 1) == 20e-9);
  /* the lock's release 1 is lost: no contention for acquisition 2 */
  assert_true(az_run_total(&run, "omp_lock_contention") == 0);
  assert_true(az_run_value(&run, "omp_synchronization", PAR ";omp_set_lock", 0) == 11e-9);
  /* idle threads: the master's 590 ns outside parallel regions; thread 2
     only for the 100 before its end */
  assert_true(az_run_value(&run, "omp_idle_threads", "main", 1) == 590e-9);
  assert_true(az_run_value(&run, "omp_idle_threads", "main", 2) == 100e-9);
  /* nor is it left out of the second team: what it did then is unknown */
  assert_true(az_run_total(&run, "omp_limited_parallelism") == 0);
  /* its time is its own span; nobody exceeds the wall time */
  assert_float_equal(az_run_location_time(&run, 0), 1000e-9, 1e-18);
  assert_float_equal(az_run_location_time(&run, 1), 1000e-9, 1e-18);
  assert_float_equal(az_run_location_time(&run, 2), 280e-9, 1e-18);
  az_run_free(&run);
}

/* As a finished run, thread 2 would have been idle all the time the
   master was serial and left out of the second team. */
static void team_member_of_a_finished_run(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, team_lost_a_member);
  assert_true(az_run_value(&run, "omp_idle_threads", "main", 2) == 590e-9);
  assert_true(az_run_value(&run, "omp_limited_parallelism", PAR2, 2) == 100e-9);
  assert_int_equal(run.a.diag.count[AZ_W_BARRIER], 1);
  az_run_free(&run);
}

/* ---- a cut-off last chunk ------------------------------------------- */

enum { CHUNK = 256 * 1024, PAIRS = 40000 };

/* One location entering and leaving f PAIRS times inside main: several
   chunks of 256 KiB.  Returns the event file's path in evt. */
static void write_chunked(az_run *run, char *evt, size_t size) {
  az_run_write_pairs(run, CHUNK, PAIRS);
  snprintf(evt, size, "%s/traces/0.evt", run->dir);
}

/* The last event number in the header of the chunk at offset (OTF2's
   chunk header: type, endianness, first and last event, 64 bits each). */
static uint64_t chunk_last_event(const char *evt, long offset) {
  FILE *f = fopen(evt, "rb");
  assert_non_null(f);
  unsigned char h[18];
  assert_int_equal(fseek(f, offset, SEEK_SET), 0);
  assert_int_equal(fread(h, 1, sizeof h, f), sizeof h);
  fclose(f);
  uint64_t last = 0;
  for (int i = 7; i >= 0; i--) last = last << 8 | h[10 + i];
  return last;
}

/* The chunked file cut to `bytes` and analysed as a run that did not
   finish: that is no failure, and one location ended early.  Returns the
   last event of the chunk at `chunk_at` (the file stays until the run is
   freed). */
static uint64_t analyse_cut(az_run *run, off_t bytes, long chunk_at) {
  char evt[400];
  write_chunked(run, evt, sizeof evt);
  assert_int_equal(truncate(evt, bytes), 0);
  uint64_t events = chunk_at >= 0 ? chunk_last_event(evt, chunk_at) : 0;
  az_run_status = status;
  az_run_dir(run);
  az_run_status = NULL;
  assert_int_equal(run->status, 0);
  assert_int_equal(run->a.diag.count[AZ_W_ENDED], 1);
  return events;
}

/* Killed while writing its fourth chunk, which is lost: the events of the
   first three are analysed, with one warning naming the file and the
   position.  (OTF2 alone would read such a file for ever.) */
static void cut_off_chunk_is_a_warning(void **state) {
  (void)state;
  az_run run;
  uint64_t events = analyse_cut(&run, 3 * CHUNK, 2 * CHUNK);
  assert_true(events > 2 && events < 2 * PAIRS);
  assert_int_equal(az_warn_total(&run.a.diag), 1);
  assert_true(run.a.events_read == events);
  /* main entered first, then pairs: an odd count ends inside f */
  uint64_t visits = events / 2;
  assert_true(az_run_value(&run, "visits", "main;f", 0) == (double)visits);
  /* main from 0 to the last event: the enter (even) or leave of f */
  uint64_t last = 10 * visits + (events % 2 ? 5 : 0);
  assert_float_equal(az_run_location_time(&run, 0), (double)last * 1e-9, 1e-15);
  az_run_free(&run);
}

/* The same file in a finished run is an error naming file and position;
   cut inside a chunk, it must end too (no endless reading). */
static void cut_off_chunk_of_a_finished_run(void **state) {
  (void)state;
  az_run run;
  char evt[400], want[600];
  write_chunked(&run, evt, sizeof evt);
  assert_int_equal(truncate(evt, 3 * CHUNK), 0);
  uint64_t events = chunk_last_event(evt, 2 * CHUNK);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  snprintf(want, sizeof want,
           "%s: rank 0 thread 0 (location 0): event %llu: cannot read the "
           "event file: truncated or corrupt (it lacks OTF2's closing "
           "records); --skip-damaged analyses the other locations, and this "
           "one up to the damage",
           evt, (unsigned long long)events + 1);
  assert_string_equal(run.a.diag.first_error, want);
  az_run_free(&run);
  write_chunked(&run, evt, sizeof evt);
  assert_int_equal(truncate(evt, 3 * CHUNK + 1000), 0);
  az_run_dir(&run);
  assert_int_not_equal(run.status, 0);
  assert_non_null(strstr(run.a.diag.first_error, "truncated or corrupt"));
  az_run_free(&run);
}

/* A full disk cut a location's file before its first chunk was whole
   (measure/pm_archive.c stops recording when its estimate says the rest
   would not fit, but ranks that flush at once can still overrun it): an
   empty file, or one cut inside its first chunk, is a location that
   ended early, not a failure. */
static void empty_event_file_is_a_warning(void **state) {
  (void)state;
  az_run run;
  analyse_cut(&run, 0, -1);
  assert_true(run.a.events_read == 0);
  az_run_free(&run);
}

static void first_chunk_cut_is_a_warning(void **state) {
  (void)state;
  az_run run;
  analyse_cut(&run, 42, -1);
  assert_true(run.a.events_read > 0 && run.a.events_read < 42);
  az_run_free(&run);
}

/* Cut inside its fourth chunk, in a run that did not finish: the whole
   chunks are analysed, with one warning.  (What OTF2 decodes after the
   cut depends on what its chunk buffer held: on full-disk runs the
   backward passes' reader met an undecodable record before the event
   where the first pass saw the timestamps go back; replay.c takes the
   events read as the block.  Not reproduced here: this file's garbage
   decodes alike for both readers.) */
static void chunk_cut_inside_is_a_warning(void **state) {
  (void)state;
  az_run run;
  uint64_t events = analyse_cut(&run, 3 * CHUNK + 1000, 2 * CHUNK);
  assert_true(run.a.events_read >= events);
  az_run_free(&run);
}

/* A run that did not finish: the summary starts with how it ended. */
static void summary_starts_with_the_status(void **state) {
  (void)state;
  az_run run;
  run_unfinished(&run, ended_in_send);
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  az_summary_print(run.report, 1, out);
  fclose(out);
  char want[400];
  snprintf(want, sizeof want, "%s\ntotal time 550 ns over 2 locations\n", status);
  assert_memory_equal(text, want, strlen(want));
  free(text);
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(record_ends_inside_regions),
      cmocka_unit_test(finished_run_keeps_nesting_warning),
      cmocka_unit_test(partner_never_came),
      cmocka_unit_test(collective_some_never_entered),
      cmocka_unit_test(scan_some_never_entered),
      cmocka_unit_test(team_member_ended_early),
      cmocka_unit_test(team_member_of_a_finished_run),
      /* OTF2 caches a damaged file's reads within a process */
      cmocka_unit_test_setup_teardown(cut_off_chunk_is_a_warning, az_run_once,
                                      az_run_cross_check_again),
      cmocka_unit_test_setup_teardown(cut_off_chunk_of_a_finished_run, az_run_once,
                                      az_run_cross_check_again),
      cmocka_unit_test_setup_teardown(empty_event_file_is_a_warning, az_run_once,
                                      az_run_cross_check_again),
      cmocka_unit_test_setup_teardown(chunk_cut_inside_is_a_warning, az_run_once,
                                      az_run_cross_check_again),
      cmocka_unit_test_setup_teardown(first_chunk_cut_is_a_warning, az_run_once,
                                      az_run_cross_check_again),
      cmocka_unit_test(summary_starts_with_the_status),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
