/* Traces written with Score-P's conventions (docs/TRACE.md, "Score-P
   conventions"): location ids thread << 32 | rank, MPI regions in file
   "MPI", OPARI2's OpenMP region names and fork/join/team events, paused
   recording (MeasurementOnOff), OpenMP task records of tied tasks; what
   pomp-analyze refuses (tasks whose regions do not nest on a location,
   samples without Enter/Leave).  The old pomp layout (rank << 32 |
   thread) gives the same report.  Times in the traces are ns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "az_test.h"

/* Two ranks, rank 0 with two OpenMP threads: an implicit barrier where
   thread 0 waits 90 ns, then a Late Sender of 50 ns on rank 0. */
#define HYBRID                                                                                     \
  "process 0 threads 2\nprocess 1 threads 1\n"                                                     \
  "region main compiler function main\n"                                                           \
  "region par openmp parallel !$omp parallel @a.c:10\n"                                            \
  "region ibar openmp implicit_barrier !$omp implicit barrier @a.c:20\n"                           \
  "region recv mpi point2point MPI_Recv\n"                                                         \
  "region send mpi point2point MPI_Send\n"                                                         \
  "team 5\n"                                                                                       \
  "loc 0.0\n0 enter main\n100 fork 2\n100 teambegin 5\n100 enter par\n300 enter ibar\n"            \
  "400 leave\n400 leave\n400 teamend 5\n410 join\n500 enter recv\n560 recv 1 0 0 8\n"              \
  "570 leave\n600 leave\n"                                                                         \
  "loc 0.1\n100 teambegin 5\n100 enter par\n390 enter ibar\n400 leave\n400 leave\n"                \
  "400 teamend 5\n"                                                                                \
  "loc 1.0\n0 enter main\n550 enter send\n555 send 0 0 0 8\n558 leave\n600 leave\n"

#define PAR "main;!$omp parallel @a.c:10"
#define IBAR PAR ";!$omp implicit barrier @a.c:20"

static void scorep_conventions_give_exact_waits(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, HYBRID);
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 0) == 50e-9);
  assert_true(az_run_total(&run, "mpi_latesender") == 50e-9);
  assert_true(az_run_value(&run, "omp_ibarrier_wait", IBAR, 0) == 90e-9);
  assert_true(az_run_value(&run, "omp_ibarrier_wait", IBAR, 1) == 0);
  assert_true(az_run_total(&run, "omp_ibarrier_wait") == 90e-9);
  /* locations by rank, then thread: rank 1's master is location 2 */
  assert_true(az_run_value(&run, "bytes_sent", "main;MPI_Send", 2) == 8);
  /* "MPI" names a module, not a source file the report could show */
  for (int32_t i = 0; i < pomp_report_num_regions(run.report); i++) {
    const pomp_region *g = pomp_report_region(run.report, i);
    if (!strcmp(g->paradigm, "mpi")) assert_string_equal(g->file, "");
  }
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

/* Every value, region, call path and location of two reports. */
static void assert_same_report(const pomp_report *a, const pomp_report *b) {
  assert_int_equal(pomp_report_num_regions(a), pomp_report_num_regions(b));
  assert_int_equal(pomp_report_num_cnodes(a), pomp_report_num_cnodes(b));
  assert_int_equal(pomp_report_num_locations(a), pomp_report_num_locations(b));
  assert_int_equal(pomp_report_num_sysnodes(a), pomp_report_num_sysnodes(b));
  for (int32_t i = 0; i < pomp_report_num_regions(a); i++) {
    assert_string_equal(pomp_report_region(a, i)->name, pomp_report_region(b, i)->name);
    assert_string_equal(pomp_report_region(a, i)->file, pomp_report_region(b, i)->file);
  }
  for (int32_t i = 0; i < pomp_report_num_sysnodes(a); i++) {
    const pomp_sysnode *x = pomp_report_sysnode(a, i), *y = pomp_report_sysnode(b, i);
    assert_string_equal(x->name, y->name);
    assert_int_equal(x->rank, y->rank);
    assert_int_equal(x->thread, y->thread);
    assert_int_equal(x->location, y->location);
  }
  for (int32_t m = 0; m < pomp_report_num_metrics(a); m++)
    for (int32_t c = 0; c < pomp_report_num_cnodes(a); c++)
      for (int32_t l = 0; l < pomp_report_num_locations(a); l++)
        assert_true(pomp_report_value(a, m, c, l) == pomp_report_value(b, m, c, l));
}

/* Score-P's OMPT adapter: regions named by address ("@0x..."), taskwait
   with the role BARRIER (thread 0 alone waits 50 ns for its tasks). */
static void ompt_taskwait_is_no_team_barrier(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 2\n"
                    "region main compiler function main\n"
                    "region par openmp parallel !$omp parallel @0x401000\n"
                    "region tw openmp barrier !$omp taskwait @0x401100\n"
                    "region ibar openmp implicit_barrier !$omp implicit barrier @0x401200\n"
                    "team 5\n"
                    "loc 0.0\n0 enter main\n100 fork 2\n100 teambegin 5\n100 enter par\n"
                    "150 enter tw\n200 leave\n300 enter ibar\n400 leave\n400 leave\n"
                    "400 teamend 5\n410 join\n500 leave\n"
                    "loc 0.1\n100 teambegin 5\n100 enter par\n380 enter ibar\n400 leave\n"
                    "400 leave\n400 teamend 5\n");
  assert_int_equal(run.status, 0);
  const char *tw = "main;!$omp parallel @0x401000;!$omp taskwait @0x401100";
  assert_true(az_run_value(&run, "omp_taskwait", tw, 0) == 50e-9);
  assert_true(az_run_total(&run, "omp_ebarrier_wait") == 0);
  const char *ibar = "main;!$omp parallel @0x401000;!$omp implicit barrier @0x401200";
  assert_true(az_run_value(&run, "omp_ibarrier_wait", ibar, 0) == 80e-9);
  assert_true(az_run_total(&run, "omp_ibarrier_wait") == 80e-9);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

static void old_location_ids_give_the_same_report(void **state) {
  (void)state;
  az_run scorep, old;
  az_run_text(&scorep, HYBRID);
  az_run_text(&old, "ids rank-major\n" HYBRID);
  assert_int_equal(old.status, 0);
  assert_non_null(old.report);
  assert_true(az_run_value(&old, "mpi_latesender", "main;MPI_Recv", 0) == 50e-9);
  assert_same_report(scorep.report, old.report);
  az_run_free(&scorep);
  az_run_free(&old);
}

/* Score-P's (and libpomp's since issue 17) request records, stamped at
   their call's Enter: the Isend starts at 100, before the receive
   completes at 120, though its call returns only at 130. */
static void request_records_at_enter_give_the_late_sender(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 1\nprocess 1 threads 1\n"
                    "region main compiler function main\n"
                    "region isend mpi point2point MPI_Isend\n"
                    "region irecv mpi point2point MPI_Irecv\n"
                    "region wait mpi point2point MPI_Wait\n"
                    "loc 0.0\n0 enter main\n50 enter irecv\n50 irecvreq 1\n55 leave\n"
                    "60 enter wait\n120 irecv 1 0 0 8 1\n120 leave\n200 leave\n"
                    "loc 1.0\n0 enter main\n100 enter isend\n100 isend 0 0 0 8 1\n130 leave\n"
                    "140 enter wait\n150 isendcomplete 1\n150 leave\n200 leave\n");
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Wait", 0) == 40e-9);
  assert_true(az_run_total(&run, "mpi_latesender") == 40e-9);
  assert_true(az_run_value(&run, "bytes_received", "main;MPI_Wait", 0) == 8);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

#define ONE_THREAD                                                                                 \
  "process 0 threads 1\n"                                                                          \
  "region main compiler function main\n"                                                           \
  "region work user function work\n"

static void paused_recording_is_a_region_of_its_own(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, ONE_THREAD "loc 0.0\n0 enter main\n100 off\n300 on\n400 enter work\n"
                               "450 leave\n500 leave\n");
  assert_int_equal(run.status, 0);
  /* 200 ns paused: measurement time under main, like a buffer flush */
  assert_true(az_run_value(&run, "execution", "main;MEASUREMENT OFF", 0) == 200e-9);
  assert_true(az_run_value(&run, "visits", "main;MEASUREMENT OFF", 0) == 1);
  assert_true(az_run_value(&run, "comp", "main", 0) == 250e-9);
  assert_true(az_run_value(&run, "comp", "main;work", 0) == 50e-9);
  assert_int_equal(pomp_report_num_regions(run.report), 3);
  /* a pause is not measurement perturbation (buffer flushes are) */
  assert_true(pomp_report_measurement_share(run.report) == 0);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

static void a_trace_never_paused_has_no_measurement_off_region(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, ONE_THREAD "loc 0.0\n0 enter main\n400 enter work\n450 leave\n500 leave\n");
  assert_int_equal(run.status, 0);
  assert_int_equal(pomp_report_num_regions(run.report), 2);
  for (int32_t i = 0; i < pomp_report_num_regions(run.report); i++)
    assert_string_not_equal(pomp_report_region(run.report, i)->name, "MEASUREMENT OFF");
  az_run_free(&run);
}

/* A receive whose sender's rank paused across the send: the message has
   no partner, which is said, not silently taken as no wait. */
static void a_message_sent_while_paused_is_warned_about(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 1\nprocess 1 threads 1\n"
                    "region main compiler function main\n"
                    "region recv mpi point2point MPI_Recv\n"
                    "loc 0.0\n0 enter main\n100 enter recv\n160 recv 1 0 0 8\n170 leave\n"
                    "200 leave\n"
                    "loc 1.0\n0 enter main\n50 off\n180 on\n200 leave\n");
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_UNMATCHED_MSG], 1);
  assert_true(az_run_value(&run, "execution", "main;MEASUREMENT OFF", 1) == 130e-9);
  az_run_free(&run);
}

/* OpenMP tasks as Score-P's OPARI2 adapter records them (tied tasks):
   thread 0 creates task 1 (Enter(create task), ThreadTaskCreate) and
   runs task 2 it created in its barrier; thread 1 runs task 1 in the
   barrier, and inside it, at a taskwait, task 1 of thread 1; after each
   task a switch back to the task it interrupted (Score-P writes it at
   the scheduling point's exit).  Implicit tasks are number 0 of thread 0
   on every thread (the adapter's id 0).  The tasks' time is computation
   at their call paths, and the barrier waits leave it out. */
#define TASKS                                                                                      \
  "process 0 threads 2\n"                                                                          \
  "region main compiler function main\n"                                                           \
  "region par openmp parallel !$omp parallel @a.c:10\n"                                            \
  "region ibar openmp implicit_barrier !$omp implicit barrier @a.c:20\n"                           \
  "region create openmp task_create !$omp create task @a.c:12\n"                                   \
  "region task openmp task !$omp task @a.c:12\n"                                                   \
  "region twait openmp task_wait !$omp taskwait @a.c:14\n"                                         \
  "team 5\n"                                                                                       \
  "loc 0.0\n0 enter main\n100 fork 2\n100 teambegin 5\n100 enter par\n"                            \
  "110 enter create\n110 taskcreate 5 0 1\n120 leave\n130 enter create\n130 taskcreate 5 0 2\n"    \
  "140 leave\n300 enter ibar\n310 taskswitch 5 0 2\n310 enter task\n360 leave\n"                   \
  "360 taskcomplete 5 0 2\n400 taskswitch 5 0 0\n400 leave\n400 leave\n400 teamend 5\n"            \
  "410 join\n500 leave\n"                                                                          \
  "loc 0.1\n100 teambegin 5\n100 enter par\n200 enter ibar\n"

#define TASK_IN_BARRIER                                                                            \
  "210 taskswitch 5 0 1\n210 enter task\n220 enter create\n220 taskcreate 5 1 1\n"                 \
  "230 leave\n240 enter twait\n250 taskswitch 5 1 1\n250 enter task\n270 leave\n"                  \
  "270 taskcomplete 5 1 1\n280 taskswitch 5 0 1\n280 leave\n290 leave\n290 taskcomplete 5 0 1\n"   \
  "390 taskswitch 5 0 0\n390 leave\n400 leave\n400 teamend 5\n"

static void tied_openmp_tasks_are_analysed(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, TASKS TASK_IN_BARRIER);
  assert_int_equal(run.status, 0);
#define TASK IBAR ";!$omp task @a.c:12"
  const char *task = TASK, *twait = TASK ";!$omp taskwait @a.c:14";
  /* thread 1 arrived at 200, thread 0 at 300 (the last): thread 1 waited
     100 ns, 80 of them running task 1 of thread 0 (30 ns its own code, 10
     creating a task, 40 in a taskwait that ran that task for 20) */
  assert_true(az_run_value(&run, "omp_ibarrier_wait", IBAR, 0) == 0);
  assert_true(az_run_value(&run, "comp", task, 0) == 50e-9);
  assert_true(az_run_value(&run, "omp_ibarrier_wait", IBAR, 1) == 20e-9);
  assert_true(az_run_value(&run, "comp", task, 1) == 30e-9);
  assert_true(az_run_value(&run, "omp", TASK ";!$omp create task @a.c:12", 1) == 10e-9);
  assert_true(az_run_value(&run, "omp_taskwait", twait, 1) == 20e-9);
  assert_true(az_run_value(&run, "comp", TASK ";!$omp taskwait @a.c:14;!$omp task @a.c:12", 1) ==
              20e-9);
  assert_true(az_run_value(&run, "omp", PAR ";!$omp create task @a.c:12", 0) == 20e-9);
  /* the one warning: the root-cause model's limit (tasks) */
  assert_int_equal(az_warn_total(&run.a.diag), run.a.diag.count[AZ_W_MODEL]);
  assert_int_equal(run.a.diag.count[AZ_W_MODEL], 1);
  az_run_free(&run);
}

/* An untied task suspends: thread 1 goes back to its implicit task while
   task 1 of thread 0 has not completed (another thread would resume it):
   refused. */
static void a_task_left_suspended_is_refused(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, TASKS "210 taskswitch 5 0 1\n210 enter task\n250 taskswitch 5 0 0\n"
                          "390 leave\n400 leave\n400 leave\n400 teamend 5\n");
  assert_int_not_equal(run.status, 0);
  assert_null(run.report);
  assert_non_null(strstr(run.a.diag.first_error,
                         "rank 0 thread 1 (location 4294967296): event 6: ThreadTaskSwitch of task "
                         "1 of thread 0 (team 5): "
                         "the thread went back to its implicit task before it completed"));
  assert_non_null(strstr(run.a.diag.first_error, "not analysed"));
  az_run_free(&run);
}

/* The same task on two locations (its switch on thread 1, then thread 0
   switches to it too): refused, naming where it began. */
static void a_task_on_two_locations_is_refused(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 2\n"
                    "region main compiler function main\n"
                    "region task openmp task !$omp task @a.c:12\n"
                    "team 5\n"
                    "loc 0.0\n0 enter main\n300 taskswitch 5 0 1\n300 enter task\n350 leave\n"
                    "350 taskcomplete 5 0 1\n400 leave\n"
                    "loc 0.1\n0 enter main\n100 taskswitch 5 0 1\n100 enter task\n"
                    "200 leave\n400 leave\n");
  assert_int_not_equal(run.status, 0);
  assert_non_null(strstr(run.a.diag.first_error, "event 2: ThreadTaskSwitch of task 1 of thread 0 "
                                                 "(team 5): it also ran on rank 0 thread 0 "
                                                 "(location 0), so it changed threads"));
  az_run_free(&run);
}

/* libpomp's records of an untied task that moved (test/measure's
   sc_untied): thread 1 started it, thread 0 completed it.  Refused
   whichever location the replay reads first. */
static void libpomp_untied_task_that_moved_is_refused(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 2\n"
                    "region main compiler function main\n"
                    "region create openmp task_create !$omp create task @a.c:12\n"
                    "region task openmp task !$omp task @a.c:12\n"
                    "team 5\n"
                    "loc 0.0\n0 enter main\n10 enter create\n10 taskcreate 5 0 1\n20 leave\n"
                    "300 taskcomplete 5 0 1\n400 leave\n"
                    "loc 0.1\n0 enter main\n100 taskswitch 5 0 1\n100 enter task\n"
                    "390 leave\n400 leave\n");
  assert_int_not_equal(run.status, 0);
  assert_null(run.report);
  assert_non_null(strstr(run.a.diag.first_error, "of task 1 of thread 0 (team 5): it also ran on "
                                                 "rank 0 thread "));
  assert_non_null(strstr(run.a.diag.first_error, "so it changed threads (an untied task)"));
  az_run_free(&run);
}

/* A task id that comes again on its location after its completion (a
   tracer that reuses ids): its regions nest, so it is analysed. */
static void a_task_id_used_again_on_its_location_is_accepted(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 1\n"
                    "region main compiler function main\n"
                    "region task openmp task !$omp task @a.c:12\n"
                    "team 5\n"
                    "loc 0.0\n0 enter main\n10 taskswitch 5 0 1\n10 enter task\n30 leave\n"
                    "30 taskcomplete 5 0 1\n30 taskswitch 5 0 0\n50 taskswitch 5 0 1\n"
                    "50 enter task\n80 leave\n80 taskcomplete 5 0 1\n100 leave\n");
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "comp", "main;!$omp task @a.c:12", 0) == 50e-9);
  az_run_free(&run);
}

static void samples_without_regions_are_refused(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, ONE_THREAD "loc 0.0\n10 sample\n20 sample\n30 sample\n");
  assert_int_not_equal(run.status, 0);
  assert_null(run.report);
  assert_string_equal(run.a.diag.first_error,
                      "the trace holds only sampling records (3 CallingContextSample, no "
                      "Enter/Leave): pomp-analyze needs instrumented regions; not analysed");
  az_run_free(&run);
}

static void samples_beside_regions_are_ignored_with_a_warning(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, ONE_THREAD "loc 0.0\n0 enter main\n10 sample\n20 enter work\n25 sample\n"
                               "30 leave\n40 leave\n");
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "comp", "main", 0) == 30e-9);
  assert_true(az_run_value(&run, "comp", "main;work", 0) == 10e-9);
  assert_int_equal(run.a.diag.count[AZ_W_UNKNOWN_RECORD], 1);
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(scorep_conventions_give_exact_waits),
      cmocka_unit_test(ompt_taskwait_is_no_team_barrier),
      cmocka_unit_test(old_location_ids_give_the_same_report),
      cmocka_unit_test(request_records_at_enter_give_the_late_sender),
      cmocka_unit_test(paused_recording_is_a_region_of_its_own),
      cmocka_unit_test(a_trace_never_paused_has_no_measurement_off_region),
      cmocka_unit_test(a_message_sent_while_paused_is_warned_about),
      cmocka_unit_test(tied_openmp_tasks_are_analysed),
      cmocka_unit_test(a_task_left_suspended_is_refused),
      cmocka_unit_test(a_task_on_two_locations_is_refused),
      cmocka_unit_test(libpomp_untied_task_that_moved_is_refused),
      cmocka_unit_test(a_task_id_used_again_on_its_location_is_accepted),
      cmocka_unit_test(samples_without_regions_are_refused),
      cmocka_unit_test(samples_beside_regions_are_ignored_with_a_warning),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
