/* OpenMP properties: fork/join management, implicit and explicit barrier
   waits per team instance, critical and lock-API contention from the
   acquisition order, idle threads outside parallel regions, limited
   parallelism of smaller teams, the ordered and taskwait buckets.  Times
   in ns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "az_test.h"

#define REGIONS                                                                                    \
  "region main compiler function main\n"                                                           \
  "region par openmp parallel !$omp parallel @a.c:10\n"                                            \
  "region par2 openmp parallel !$omp parallel @a.c:30\n"                                           \
  "region ibar openmp implicit_barrier !$omp implicit barrier @a.c:20\n"                           \
  "region bar openmp barrier !$omp barrier @a.c:15\n"                                              \
  "region crit openmp critical !$omp critical (x) @a.c:16\n"                                       \
  "region critsb openmp critical_sblock !$omp critical sblock (x) @a.c:16\n"                       \
  "region setlock openmp function omp_set_lock\n"                                                  \
  "region unsetlock openmp function omp_unset_lock\n"                                              \
  "team 5\nteam 6\n"

#define PAR "main;!$omp parallel @a.c:10"
#define IBAR PAR ";!$omp implicit barrier @a.c:20"

static const char *const fork_join_trace =
    "process 0 threads 3\n" REGIONS
    "loc 0.0\n0 enter main\n100 fork 3\n105 teambegin 5\n110 enter par\n"
    "300 enter ibar\n400 leave\n410 leave\n415 teamend 5\n420 join\n"
    "1000 leave\n"
    "loc 0.1\n112 teambegin 5\n115 enter par\n390 enter ibar\n400 leave\n"
    "405 leave\n406 teamend 5\n"
    "loc 0.2\n118 teambegin 5\n120 enter par\n350 enter ibar\n401 leave\n"
    "402 leave\n403 teamend 5\n";

static void fork_join_management(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, fork_join_trace);
  assert_int_equal(run.status, 0);
  /* master: (110 - 100) + (420 - 410); workers from the master's fork to
     their enter and from their leave to the master's join */
  assert_true(az_run_value(&run, "omp_management", PAR, 0) == 20e-9);
  assert_true(az_run_value(&run, "omp_management", PAR, 1) == 30e-9);
  assert_true(az_run_value(&run, "omp_management", PAR, 2) == 38e-9);
  assert_true(az_run_value(&run, "comp", PAR, 0) == 200e-9);
  assert_true(az_run_value(&run, "comp", PAR, 1) == 280e-9);
  assert_true(az_run_value(&run, "comp", PAR, 2) == 231e-9);
  /* the fork/join span leaves main's own time */
  assert_true(az_run_value(&run, "comp", "main", 0) == 680e-9);
  assert_int_equal(az_warn_total(&run.a.diag), 0);
  az_run_free(&run);
}

static void implicit_barrier_waits(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, fork_join_trace);
  /* latest arrival 390 */
  assert_true(az_run_value(&run, "omp_ibarrier_wait", IBAR, 0) == 90e-9);
  assert_true(az_run_value(&run, "omp_ibarrier_wait", IBAR, 1) == 0);
  assert_true(az_run_value(&run, "omp_ibarrier_wait", IBAR, 2) == 40e-9);
  assert_true(az_run_value(&run, "omp_barrier", IBAR, 2) == 11e-9);
  assert_true(az_run_total(&run, "omp_ebarrier_wait") == 0);
  az_run_free(&run);
}

static void idle_threads_on_the_masters_path(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, fork_join_trace);
  assert_true(az_run_value(&run, "omp_idle_threads", "main", 0) == 0);
  assert_true(az_run_value(&run, "omp_idle_threads", "main", 1) == 680e-9);
  assert_true(az_run_value(&run, "omp_idle_threads", "main", 2) == 680e-9);
  /* time = wall x locations: 3 x 1000 ns */
  int32_t time = pomp_report_find_metric(run.report, "time");
  assert_float_equal(pomp_report_metric_total(run.report, time, 1), 3000e-9, 1e-18);
  double per_loc[3];
  pomp_report_selection all = {time, 1, -1, 1};
  assert_int_equal(pomp_report_location_values(run.report, &all, per_loc, NULL), POMP_REPORT_OK);
  for (int l = 0; l < 3; l++) assert_float_equal(per_loc[l], 1000e-9, 1e-18);
  az_run_free(&run);
}

static void explicit_barrier_and_critical(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 2\n" REGIONS
                    "loc 0.0\n0 enter main\n10 fork 2\n10 teambegin 5\n10 enter par\n"
                    "20 enter crit\n21 acquire 1 1\n21 enter critsb\n60 leave\n"
                    "60 release 1 1\n61 leave\n100 enter bar\n200 leave\n"
                    "300 leave\n300 teamend 5\n300 join\n1000 leave\n"
                    "loc 0.1\n10 teambegin 5\n10 enter par\n30 enter crit\n"
                    "61 acquire 1 2\n62 enter critsb\n70 leave\n70 release 1 2\n"
                    "71 leave\n190 enter bar\n200 leave\n300 leave\n300 teamend 5\n");
  const char *crit = PAR ";!$omp critical (x) @a.c:16";
  const char *bar = PAR ";!$omp barrier @a.c:15";
  /* acquisition 2 waited from its enter (30) for release 1 (60) */
  assert_true(az_run_value(&run, "omp_critical_contention", crit, 1) == 30e-9);
  assert_true(az_run_value(&run, "omp_critical_contention", crit, 0) == 0);
  assert_true(az_run_value(&run, "omp_synchronization", crit, 1) == 3e-9);
  assert_true(az_run_value(&run, "omp_ebarrier_wait", bar, 0) == 90e-9);
  assert_true(az_run_value(&run, "omp_ebarrier_wait", bar, 1) == 0);
  assert_true(az_run_total(&run, "omp_ibarrier_wait") == 0);
  az_run_free(&run);
}

static void lock_api_contention(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 2\n" REGIONS
                    "loc 0.0\n0 enter main\n10 fork 2\n10 teambegin 5\n10 enter par\n"
                    "20 enter setlock\n21 acquire 7 1\n22 leave\n"
                    "50 enter unsetlock\n51 release 7 1\n52 leave\n"
                    "300 leave\n300 teamend 5\n300 join\n1000 leave\n"
                    "loc 0.1\n10 teambegin 5\n10 enter par\n"
                    "30 enter setlock\n52 acquire 7 2\n53 leave\n"
                    "60 enter unsetlock\n61 release 7 2\n62 leave\n"
                    "300 leave\n300 teamend 5\n");
  assert_true(az_run_value(&run, "omp_lock_contention", PAR ";omp_set_lock", 1) == 21e-9);
  assert_true(az_run_total(&run, "omp_lock_contention") == 21e-9);
  assert_true(az_run_total(&run, "omp_critical_contention") == 0);
  az_run_free(&run);
}

static void limited_parallelism_of_a_smaller_team(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 3\n" REGIONS
                    "loc 0.0\n0 enter main\n100 fork 3\n100 teambegin 5\n100 enter par\n"
                    "200 leave\n200 teamend 5\n200 join\n"
                    "300 fork 2\n300 teambegin 6\n300 enter par2\n500 leave\n"
                    "500 teamend 6\n500 join\n1000 leave\n"
                    "loc 0.1\n100 teambegin 5\n100 enter par\n200 leave\n200 teamend 5\n"
                    "300 teambegin 6\n300 enter par2\n500 leave\n500 teamend 6\n"
                    "loc 0.2\n100 teambegin 5\n100 enter par\n200 leave\n200 teamend 5\n");
  const char *par2 = "main;!$omp parallel @a.c:30";
  assert_true(az_run_value(&run, "omp_limited_parallelism", par2, 2) == 200e-9);
  assert_true(az_run_value(&run, "omp_limited_parallelism", par2, 1) == 0);
  assert_true(az_run_value(&run, "omp_idle_threads", "main", 2) == 700e-9);
  assert_true(az_run_value(&run, "omp_idle_threads", "main", 1) == 700e-9);
  assert_true(az_run_total(&run, "omp_limited_parallelism") == 200e-9);
  az_run_free(&run);
}

static void team_without_fork_is_reported(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 2\n" REGIONS "loc 0.0\n0 enter main\n1000 leave\n"
                    "loc 0.1\n100 teambegin 5\n100 enter par\n200 leave\n200 teamend 5\n");
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_TEAM], 1);
  /* the orphaned region still counts, at its own root */
  assert_true(az_run_value(&run, "comp", "!$omp parallel @a.c:10", 1) == 100e-9);
  az_run_free(&run);
}

static void nested_parallel_region_is_flat(void **state) {
  (void)state;
  az_run run;
  /* the inner region has no fork, join or team events (docs/TRACE.md):
     its barrier has no team instance, so no wait is computed there */
  az_run_text(&run, "process 0 threads 2\n" REGIONS
                    "loc 0.0\n0 enter main\n10 fork 2\n10 teambegin 5\n10 enter par\n"
                    "20 enter par2\n30 enter bar\n50 leave\n60 leave\n100 leave\n"
                    "100 teamend 5\n100 join\n200 leave\n"
                    "loc 0.1\n11 teambegin 5\n11 enter par\n20 enter par2\n"
                    "40 enter bar\n50 leave\n60 leave\n100 leave\n100 teamend 5\n");
  const char *bar = PAR ";!$omp parallel @a.c:30;!$omp barrier @a.c:15";
  /* only that nested parallelism leaves delay costs and critical path out */
  assert_int_equal(az_warn_total(&run.a.diag), 1);
  assert_int_equal(run.a.diag.count[AZ_W_MODEL], 1);
  assert_true(az_run_total(&run, "omp_ebarrier_wait") == 0);
  assert_true(az_run_value(&run, "omp_barrier", bar, 0) == 20e-9);
  assert_true(az_run_value(&run, "omp_barrier", bar, 1) == 10e-9);
  assert_true(az_run_value(&run, "omp_management", PAR, 1) == 1e-9);
  az_run_free(&run);
}

/* Thread 2 is an extra thread of the inner team (libpomp numbers them from
   4095): it never joins a team, and nothing in the trace says who
   encountered the region.  Its inner region, met by the outer team at one
   call path, is grafted there after the replay; no root remains. */
static void nested_region_of_an_extra_thread(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 3\n" REGIONS
                    "loc 0.0\n0 enter main\n10 fork 2\n10 teambegin 5\n10 enter par\n"
                    "20 enter par2\n30 enter bar\n50 leave\n60 leave\n100 leave\n"
                    "100 teamend 5\n100 join\n200 leave\n"
                    "loc 0.1\n11 teambegin 5\n11 enter par\n20 enter par2\n"
                    "40 enter bar\n50 leave\n60 leave\n100 leave\n100 teamend 5\n"
                    "loc 0.2\n21 enter par2\n35 enter bar\n50 leave\n58 leave\n");
#define INNER PAR ";!$omp parallel @a.c:30"
  assert_int_equal(az_warn_total(&run.a.diag), 1); /* nested: no critical path */
  assert_int_equal(run.a.diag.count[AZ_W_MODEL], 1);
  assert_true(az_run_value(&run, "visits", INNER, 2) == 1);
  assert_true(az_run_value(&run, "comp", INNER, 2) == 22e-9);
  assert_true(az_run_value(&run, "omp_barrier", INNER ";!$omp barrier @a.c:15", 2) == 15e-9);
  /* main, par, par2, bar: no root par2 left */
  assert_int_equal(pomp_report_num_cnodes(run.report), 4);
  /* not an OpenMP thread of the outer team: no idle time */
  assert_true(az_run_total(&run, "omp_idle_threads") == 110e-9);
  assert_float_equal(az_run_location_time(&run, 2), 37e-9, 1e-18);
  az_run_free(&run);
}

/* Tasks: a thread waiting in a barrier runs tasks meanwhile (their time
   is computation at the task's call path, not waiting), and the time in
   a taskwait that is not spent running tasks is its own value in
   omp_synchronization. */
static void tasks_run_in_a_barrier_are_not_waiting(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 2\n" REGIONS "region task openmp task !$omp task @a.c:40\n"
                    "region twait openmp task_wait !$omp taskwait @a.c:45\n"
                    "loc 0.0\n0 enter main\n10 fork 2\n10 teambegin 5\n10 enter par\n"
                    "300 enter ibar\n310 enter task\n360 leave\n400 leave\n"
                    "410 leave\n410 teamend 5\n410 join\n500 leave\n"
                    "loc 0.1\n10 teambegin 5\n10 enter par\n100 enter twait\n"
                    "120 enter task\n170 leave\n200 leave\n390 enter ibar\n"
                    "400 leave\n410 leave\n410 teamend 5\n");
  const char *task = IBAR ";!$omp task @a.c:40";
  const char *twait = PAR ";!$omp taskwait @a.c:45";
  /* the latest arrived at 390: 90 ns, 50 of them running a task */
  assert_true(az_run_value(&run, "omp_ibarrier_wait", IBAR, 0) == 40e-9);
  assert_true(az_run_value(&run, "omp_barrier", IBAR, 0) == 10e-9);
  assert_true(az_run_value(&run, "comp", task, 0) == 50e-9);
  assert_true(az_run_value(&run, "omp_ibarrier_wait", IBAR, 1) == 0);
  assert_true(az_run_value(&run, "omp_taskwait", twait, 1) == 50e-9);
  assert_true(az_run_value(&run, "omp_synchronization", twait, 1) == 0);
  assert_true(az_run_value(&run, "comp", PAR ";!$omp taskwait @a.c:45;!$omp task @a.c:40", 1) ==
              50e-9);
  /* nothing counted twice: every location's time is the wall time */
  assert_float_equal(az_run_location_time(&run, 0), 500e-9, 1e-18);
  assert_float_equal(az_run_location_time(&run, 1), 500e-9, 1e-18);
  az_run_free(&run);
}

/* The same run with libpomp's task records (docs/TRACE.md, "OpenMP
   tasks"): thread 1 creates task 1 before its taskwait, where it runs it;
   thread 0 runs task 2 of thread 1 in the barrier; each completion
   switches back to the implicit task at once.  The records change no
   value. */
static void task_records_change_no_value(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 2\n" REGIONS "region task openmp task !$omp task @a.c:40\n"
                    "region twait openmp task_wait !$omp taskwait @a.c:45\n"
                    "region create openmp task_create !$omp create task @a.c:40\n"
                    "loc 0.0\n0 enter main\n10 fork 2\n10 teambegin 5\n10 enter par\n"
                    "300 enter ibar\n310 taskswitch 5 1 2\n310 enter task\n360 leave\n"
                    "360 taskcomplete 5 1 2\n360 taskswitch 5 0 0\n400 leave\n"
                    "410 leave\n410 teamend 5\n410 join\n500 leave\n"
                    "loc 0.1\n10 teambegin 5\n10 enter par\n20 enter create\n20 taskcreate 5 1 1\n"
                    "30 leave\n40 enter create\n40 taskcreate 5 1 2\n50 leave\n100 enter twait\n"
                    "120 taskswitch 5 1 1\n120 enter task\n170 leave\n170 taskcomplete 5 1 1\n"
                    "170 taskswitch 5 1 0\n200 leave\n390 enter ibar\n"
                    "400 leave\n410 leave\n410 teamend 5\n");
  assert_int_equal(run.status, 0);
  const char *task = IBAR ";!$omp task @a.c:40";
  const char *twait = PAR ";!$omp taskwait @a.c:45";
  assert_true(az_run_value(&run, "omp_ibarrier_wait", IBAR, 0) == 40e-9);
  assert_true(az_run_value(&run, "comp", task, 0) == 50e-9);
  assert_true(az_run_value(&run, "omp_ibarrier_wait", IBAR, 1) == 0);
  assert_true(az_run_value(&run, "omp_taskwait", twait, 1) == 50e-9);
  assert_true(az_run_value(&run, "comp", PAR ";!$omp taskwait @a.c:45;!$omp task @a.c:40", 1) ==
              50e-9);
  assert_true(az_run_value(&run, "omp", PAR ";!$omp create task @a.c:40", 1) == 20e-9);
  assert_float_equal(az_run_location_time(&run, 0), 500e-9, 1e-18);
  assert_float_equal(az_run_location_time(&run, 1), 500e-9, 1e-18);
  az_run_free(&run);
}

/* Scalasca's buckets of OpenMP synchronization: an ordered region's own
   time (waiting for the previous iterations; its body is user code) is
   omp_ordered, a taskwait's own time (the tasks it ran are their own
   regions) omp_taskwait; atomic stays in omp_synchronization.  Thread 1
   waits in ordered from 25 until thread 0's body ended (80) and its own
   body begins at 85; thread 0 waits in taskwait for 60 of its 80 ns. */
static void ordered_and_taskwait_buckets(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 2\n" REGIONS "region loop openmp loop !$omp for @a.c:50\n"
                    "region ord openmp ordered !$omp ordered @a.c:52\n"
                    "region ordsb openmp ordered_sblock !$omp ordered sblock @a.c:52\n"
                    "region task openmp task !$omp task @a.c:40\n"
                    "region twait openmp task_wait !$omp taskwait @a.c:45\n"
                    "region atom openmp atomic !$omp atomic @a.c:60\n"
                    "loc 0.0\n0 enter main\n10 fork 2\n10 teambegin 5\n10 enter par\n"
                    "15 enter loop\n20 enter ord\n21 enter ordsb\n80 leave\n"
                    "82 leave\n97 leave\n100 enter twait\n110 enter task\n"
                    "130 leave\n180 leave\n300 leave\n300 teamend 5\n300 join\n"
                    "1000 leave\n"
                    "loc 0.1\n10 teambegin 5\n10 enter par\n15 enter loop\n"
                    "25 enter ord\n85 enter ordsb\n95 leave\n96 leave\n97 leave\n"
                    "200 enter atom\n204 leave\n300 leave\n300 teamend 5\n");
  const char *loop = PAR ";!$omp for @a.c:50";
  const char *ord = PAR ";!$omp for @a.c:50;!$omp ordered @a.c:52";
  const char *body = PAR ";!$omp for @a.c:50;!$omp ordered @a.c:52;"
                         "!$omp ordered sblock @a.c:52";
  const char *twait = PAR ";!$omp taskwait @a.c:45";
  assert_true(az_run_value(&run, "omp_ordered", ord, 1) == 61e-9);
  assert_true(az_run_value(&run, "omp_ordered", ord, 0) == 3e-9);
  assert_true(az_run_value(&run, "comp", body, 0) == 59e-9);
  assert_true(az_run_value(&run, "comp", body, 1) == 10e-9);
  assert_true(az_run_value(&run, "comp", loop, 1) == 11e-9);
  assert_true(az_run_value(&run, "omp_taskwait", twait, 0) == 60e-9);
  assert_true(az_run_value(&run, "comp", PAR ";!$omp taskwait @a.c:45;!$omp task @a.c:40", 0) ==
              20e-9);
  assert_true(az_run_total(&run, "omp_ordered") == 64e-9);
  assert_true(az_run_total(&run, "omp_taskwait") == 60e-9);
  /* neither lands in the parent any more; atomic still does */
  assert_true(az_run_total(&run, "omp_synchronization") == 4e-9);
  assert_true(az_run_value(&run, "omp_synchronization", PAR ";!$omp atomic @a.c:60", 1) == 4e-9);
  assert_float_equal(az_run_location_time(&run, 0), 1000e-9, 1e-18);
  assert_float_equal(az_run_location_time(&run, 1), 1000e-9, 1e-18);
  az_run_free(&run);
}

/* Thread 2 is one the program created (pthread_create): it never joins a
   team and is busy in body from 50 to 250.  It is neither idle outside
   the parallel region nor left out of the team: it gets only what it
   recorded, and no location exceeds the wall time of 1000 ns. */
static void program_thread_is_no_idle_openmp_thread(void **state) {
  (void)state;
  az_run run;
  az_run_text(&run, "process 0 threads 3\n" REGIONS "region body user function body\n"
                    "loc 0.0\n0 enter main\n100 fork 2\n100 teambegin 5\n"
                    "100 enter par\n300 leave\n300 teamend 5\n300 join\n1000 leave\n"
                    "loc 0.1\n100 teambegin 5\n100 enter par\n300 leave\n"
                    "300 teamend 5\n"
                    "loc 0.2\n50 enter body\n250 leave\n");
  assert_int_equal(run.status, 0);
  assert_true(az_run_value(&run, "omp_idle_threads", "main", 1) == 800e-9);
  assert_true(az_run_value(&run, "omp_idle_threads", "main", 2) == 0);
  assert_true(az_run_value(&run, "omp_limited_parallelism", PAR, 2) == 0);
  assert_true(az_run_total(&run, "omp_limited_parallelism") == 0);
  assert_true(az_run_total(&run, "omp_idle_threads") == 800e-9);
  assert_true(az_run_value(&run, "comp", "body", 2) == 200e-9);
  assert_true(az_run_location_time(&run, 0) == 1000e-9);
  assert_true(az_run_location_time(&run, 1) == 1000e-9);
  assert_true(az_run_location_time(&run, 2) == 200e-9);
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fork_join_management),
      cmocka_unit_test(implicit_barrier_waits),
      cmocka_unit_test(idle_threads_on_the_masters_path),
      cmocka_unit_test(explicit_barrier_and_critical),
      cmocka_unit_test(lock_api_contention),
      cmocka_unit_test(limited_parallelism_of_a_smaller_team),
      cmocka_unit_test(program_thread_is_no_idle_openmp_thread),
      cmocka_unit_test(team_without_fork_is_reported),
      cmocka_unit_test(nested_parallel_region_is_flat),
      cmocka_unit_test(nested_region_of_an_extra_thread),
      cmocka_unit_test(tasks_run_in_a_barrier_are_not_waiting),
      cmocka_unit_test(task_records_change_no_value),
      cmocka_unit_test(ordered_and_taskwait_buckets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
