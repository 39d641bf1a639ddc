/* test_measure_omp.c -- traces of hand-instrumented OpenMP programs read
   back: exact event sequences per location for parallel regions, loops
   with implicit barriers, single, master, critical, barriers, locks,
   nested regions and tasks (docs/TRACE.md). */
#include "measure_test.h"

/* Events of l as text, lock acquisition orders replaced by '#' and lines
   containing `drop` left out; the orders are appended to orders[]. */
static char *masked(const tr_location *l, const char *drop, unsigned *orders, size_t *norders) {
  size_t cap = 1;
  for (size_t i = 0; i < l->nevents; i++) cap += strlen(l->lines[i]) + 2;
  char *s = malloc(cap), *p = s;
  *p = '\0';
  for (size_t i = 0; i < l->nevents; i++) {
    const char *e = l->lines[i];
    if (drop && strstr(e, drop)) continue;
    unsigned lock, order;
    if (sscanf(e, "ThreadAcquireLock %u %u", &lock, &order) == 2) {
      if (orders) orders[(*norders)++] = order;
      p += sprintf(p, "ThreadAcquireLock %u #\n", lock);
    } else if (sscanf(e, "ThreadReleaseLock %u %u", &lock, &order) == 2) {
      p += sprintf(p, "ThreadReleaseLock %u #\n", lock);
    } else {
      p += sprintf(p, "%s\n", e);
    }
  }
  return s;
}

/* Every acquisition's release in the same location carries its order. */
static void assert_releases_match(const tr_location *l) {
  unsigned open_order = 0;
  for (size_t i = 0; i < l->nevents; i++) {
    unsigned lock, order;
    if (sscanf(l->lines[i], "ThreadAcquireLock %u %u", &lock, &order) == 2) open_order = order;
    if (sscanf(l->lines[i], "ThreadReleaseLock %u %u", &lock, &order) == 2)
      assert_int_equal(order, open_order);
  }
}

/* The expected events of a team member; the master adds fork/join and
   its master construct. */
#define TEAM_BEGIN_TO_SINGLE                                                                       \
  "ThreadTeamBegin OpenMP thread team\n"                                                           \
  "Enter !$omp parallel @sc_parallel.c:10\n"                                                       \
  "Enter !$omp for @sc_parallel.c:12\n"                                                            \
  "Enter !$omp implicit barrier @sc_parallel.c:14\n"                                               \
  "Leave !$omp implicit barrier @sc_parallel.c:14\n"                                               \
  "Leave !$omp for @sc_parallel.c:12\n"                                                            \
  "Enter !$omp single @sc_parallel.c:16\n"                                                         \
  "Enter !$omp implicit barrier @sc_parallel.c:18\n"                                               \
  "Leave !$omp implicit barrier @sc_parallel.c:18\n"                                               \
  "Leave !$omp single @sc_parallel.c:16\n"
#define CRITICAL_TO_TEAM_END                                                                       \
  "Enter !$omp critical (acc) @sc_parallel.c:23\n"                                                 \
  "ThreadAcquireLock 0 #\n"                                                                        \
  "Enter !$omp critical sblock (acc) @sc_parallel.c:23\n"                                          \
  "Leave !$omp critical sblock (acc) @sc_parallel.c:23\n"                                          \
  "ThreadReleaseLock 0 #\n"                                                                        \
  "Leave !$omp critical (acc) @sc_parallel.c:23\n"                                                 \
  "Enter !$omp barrier @sc_parallel.c:27\n"                                                        \
  "Leave !$omp barrier @sc_parallel.c:27\n"                                                        \
  "Enter !$omp implicit barrier @sc_parallel.c:40\n"                                               \
  "Leave !$omp implicit barrier @sc_parallel.c:40\n"                                               \
  "Leave !$omp parallel @sc_parallel.c:10\n"                                                       \
  "ThreadTeamEnd OpenMP thread team\n"

static const char parallel_master[] =
    "ThreadFork 2\n" TEAM_BEGIN_TO_SINGLE "Enter !$omp master @sc_parallel.c:20\n"
    "Leave !$omp master @sc_parallel.c:20\n" CRITICAL_TO_TEAM_END "ThreadJoin\n";
static const char parallel_worker[] = TEAM_BEGIN_TO_SINGLE CRITICAL_TO_TEAM_END;

static void test_parallel_region(void **state) {
  (void)state;
  sc_result r;
  tr_trace t;
  mt_run("sc_parallel", "parallel", NULL, NULL, "sum=2 once=1\n", &r, &t);
  assert_int_equal(t.nlocs, 2);
  assert_int_equal(t.locs[0].id, 0);
  assert_int_equal(t.locs[1].id, UINT64_C(1) << 32); /* Score-P's thread << 32 | rank */
  assert_int_equal(t.id_layout, TR_IDS_SCOREP);
  assert_string_equal(t.locs[0].name, "Master thread");
  assert_string_equal(t.locs[1].name, "OMP thread 1");

  /* the single body ran on exactly one of the two threads */
  const char *sblock = "single sblock @sc_parallel.c:16";
  char enter[128];
  snprintf(enter, sizeof enter, "Enter !$omp %s", sblock);
  assert_int_equal(tr_count(&t.locs[0], enter) + tr_count(&t.locs[1], enter), 1);

  unsigned orders[4];
  size_t n = 0;
  char *master = masked(&t.locs[0], sblock, orders, &n);
  char *worker = masked(&t.locs[1], sblock, orders, &n);
  assert_string_equal(master, parallel_master);
  assert_string_equal(worker, parallel_worker);
  /* the critical section was acquired once by each thread: orders 1, 2 */
  assert_int_equal(n, 2);
  assert_int_equal(orders[0] + orders[1], 3);
  assert_int_equal(orders[0] * orders[1], 2);
  assert_releases_match(&t.locs[0]);
  assert_releases_match(&t.locs[1]);
  free(master);
  free(worker);
  tr_free(&t);
}

static const char locks_master_before[] = "Enter omp_init_lock\n"
                                          "Leave omp_init_lock\n"
                                          "ThreadFork 2\n"
                                          "ThreadTeamBegin OpenMP thread team\n"
                                          "Enter !$omp parallel @sc_locks.c:10\n";
static const char locks_set_unset[] = "Enter omp_set_lock\n"
                                      "ThreadAcquireLock 0 #\n"
                                      "Leave omp_set_lock\n"
                                      "Enter omp_unset_lock\n"
                                      "ThreadReleaseLock 0 #\n"
                                      "Leave omp_unset_lock\n";
static const char locks_master_after[] = "Leave !$omp parallel @sc_locks.c:10\n"
                                         "ThreadTeamEnd OpenMP thread team\n"
                                         "ThreadJoin\n"
                                         "Enter omp_test_lock\n"
                                         "ThreadAcquireLock 0 #\n"
                                         "Leave omp_test_lock\n"
                                         "Enter omp_unset_lock\n"
                                         "ThreadReleaseLock 0 #\n"
                                         "Leave omp_unset_lock\n"
                                         "Enter omp_destroy_lock\n"
                                         "Leave omp_destroy_lock\n"
                                         "Enter omp_init_nest_lock\n"
                                         "Leave omp_init_nest_lock\n"
                                         "Enter omp_set_nest_lock\n"
                                         "ThreadAcquireLock 1 #\n"
                                         "Leave omp_set_nest_lock\n"
                                         "Enter omp_set_nest_lock\n"
                                         "Leave omp_set_nest_lock\n"
                                         "Enter omp_unset_nest_lock\n"
                                         "Leave omp_unset_nest_lock\n"
                                         "Enter omp_unset_nest_lock\n"
                                         "ThreadReleaseLock 1 #\n"
                                         "Leave omp_unset_nest_lock\n"
                                         "Enter omp_destroy_nest_lock\n"
                                         "Leave omp_destroy_nest_lock\n";

static void test_lock_api(void **state) {
  (void)state;
  sc_result r;
  tr_trace t;
  mt_run("sc_locks", "locks", NULL, NULL, "count=6\n", &r, &t);
  assert_int_equal(t.nlocs, 2);
  /* the test_lock after the region is the 7th acquisition of lock 0 */
  assert_int_equal(tr_count(&t.locs[0], "ThreadAcquireLock 0 7"), 1);
  assert_int_equal(tr_count(&t.locs[0], "ThreadReleaseLock 0 7"), 1);
  assert_int_equal(tr_count(&t.locs[0], "ThreadAcquireLock 1 1"), 1); /* the nest lock */
  assert_int_equal(tr_count(&t.locs[0], "ThreadReleaseLock 1 1"), 1);
  unsigned orders[16];
  size_t n = 0;
  char *worker = masked(&t.locs[1], NULL, orders, &n);
  char *master = masked(&t.locs[0], "0 7", orders, &n);
  char expected[4096];
  snprintf(expected, sizeof expected, "%s%s%s%s%s", locks_master_before, locks_set_unset,
           locks_set_unset, locks_set_unset, locks_master_after);
  char *master_all = masked(&t.locs[0], NULL, NULL, NULL);
  assert_string_equal(master_all, expected);
  snprintf(expected, sizeof expected,
           "ThreadTeamBegin OpenMP thread team\nEnter !$omp parallel @sc_locks.c:10\n"
           "%s%s%sLeave !$omp parallel @sc_locks.c:10\nThreadTeamEnd OpenMP thread team\n",
           locks_set_unset, locks_set_unset, locks_set_unset);
  assert_string_equal(worker, expected);
  /* inside the region: orders 1..6 (worker's first, then master's, the
     nest lock's order 1 last), each once, increasing per thread */
  assert_int_equal(n, 7);
  assert_int_equal(orders[6], 1);
  unsigned seen = 0;
  for (size_t i = 0; i < 6; i++) seen |= 1u << orders[i];
  assert_int_equal(seen, 0x7e);
  assert_true(orders[0] < orders[1] && orders[1] < orders[2]);
  assert_true(orders[3] < orders[4] && orders[4] < orders[5]);
  assert_releases_match(&t.locs[0]);
  assert_releases_match(&t.locs[1]);
  free(master);
  free(master_all);
  free(worker);
  tr_free(&t);
}

static void test_nested_parallel_flattened(void **state) {
  (void)state;
  sc_result r;
  tr_trace t;
  mt_run("sc_nested", "nested", NULL, NULL, "done\n", &r, &t);
  assert_int_equal(t.nlocs, 4);
  mt_expect_events(&t.locs[0], "ThreadFork 2\n"
                               "ThreadTeamBegin OpenMP thread team\n"
                               "Enter !$omp parallel @sc_nested.c:10\n"
                               "Enter !$omp parallel @sc_nested.c:12\n"
                               "Leave !$omp parallel @sc_nested.c:12\n"
                               "Leave !$omp parallel @sc_nested.c:10\n"
                               "ThreadTeamEnd OpenMP thread team\n"
                               "ThreadJoin\n");
  mt_expect_events(&t.locs[1], "ThreadTeamBegin OpenMP thread team\n"
                               "Enter !$omp parallel @sc_nested.c:10\n"
                               "Enter !$omp parallel @sc_nested.c:12\n"
                               "Leave !$omp parallel @sc_nested.c:12\n"
                               "Leave !$omp parallel @sc_nested.c:10\n"
                               "ThreadTeamEnd OpenMP thread team\n");
  /* the inner teams' other threads: locations of their own */
  for (size_t i = 2; i < 4; i++) {
    mt_expect_events(&t.locs[i], "Enter !$omp parallel @sc_nested.c:12\n"
                                 "Leave !$omp parallel @sc_nested.c:12\n");
  }
  assert_int_equal(t.locs[2].id, UINT64_C(4094) << 32);
  assert_int_equal(t.locs[3].id, UINT64_C(4095) << 32);
  assert_non_null(strstr(sc_file(r.dir, "measure.log"),
                         "nested parallel region at sc_nested.c:12: nested regions are "
                         "recorded flattened"));
  tr_free(&t);
}

/* ---- the join barrier (sc_join, instrumented by pomp-opari) ------------ */

#define JOIN_REGION1                                                                               \
  "ThreadTeamBegin OpenMP thread team\n"                                                           \
  "Enter !$omp parallel @sc_join.c:21\n"                                                           \
  "Enter !$omp for @sc_join.c:21\n"                                                                \
  "Enter !$omp implicit barrier @sc_join.c:25\n"                                                   \
  "Leave !$omp implicit barrier @sc_join.c:25\n"                                                   \
  "Leave !$omp for @sc_join.c:21\n"                                                                \
  "Leave !$omp parallel @sc_join.c:21\n"                                                           \
  "ThreadTeamEnd OpenMP thread team\n"
#define JOIN_REGION2                                                                               \
  "ThreadTeamBegin OpenMP thread team\n"                                                           \
  "Enter !$omp parallel @sc_join.c:26\n"                                                           \
  "Enter !$omp for @sc_join.c:28\n"                                                                \
  "Enter !$omp implicit barrier @sc_join.c:29\n"                                                   \
  "Leave !$omp implicit barrier @sc_join.c:29\n"                                                   \
  "Leave !$omp for @sc_join.c:28\n"                                                                \
  "Enter !$omp implicit barrier @sc_join.c:31\n"                                                   \
  "Leave !$omp implicit barrier @sc_join.c:31\n"                                                   \
  "Leave !$omp parallel @sc_join.c:26\n"                                                           \
  "ThreadTeamEnd OpenMP thread team\n"
/* nested: the inner region's barrier is an explicit one libpomp runs */
#define JOIN_NESTED                                                                                \
  "ThreadTeamBegin OpenMP thread team\n"                                                           \
  "Enter !$omp parallel @sc_join.c:33\n"                                                           \
  "Enter !$omp parallel @sc_join.c:35\n"                                                           \
  "Enter !$omp implicit barrier @sc_join.c:36\n"                                                   \
  "Leave !$omp implicit barrier @sc_join.c:36\n"                                                   \
  "Leave !$omp parallel @sc_join.c:35\n"                                                           \
  "Enter !$omp implicit barrier @sc_join.c:37\n"                                                   \
  "Leave !$omp implicit barrier @sc_join.c:37\n"                                                   \
  "Leave !$omp parallel @sc_join.c:33\n"                                                           \
  "ThreadTeamEnd OpenMP thread team\n"
/* a region ending in a loop: the loop's barrier is the join's */
#define JOIN_LAST                                                                                  \
  "ThreadTeamBegin OpenMP thread team\n"                                                           \
  "Enter !$omp parallel @sc_join.c:38\n"                                                           \
  "Enter !$omp for @sc_join.c:41\n"                                                                \
  "Enter !$omp implicit barrier @sc_join.c:42\n"                                                   \
  "Leave !$omp implicit barrier @sc_join.c:42\n"                                                   \
  "Leave !$omp for @sc_join.c:41\n"                                                                \
  "Leave !$omp parallel @sc_join.c:38\n"                                                           \
  "ThreadTeamEnd OpenMP thread team\n"
/* a region ending in a single: its barrier is the join's too, and the
   single is left after it at the join; SBLOCK: the body, on the one
   thread that ran it */
#define JOIN_SINGLE(SBLOCK)                                                                        \
  "ThreadTeamBegin OpenMP thread team\n"                                                           \
  "Enter !$omp parallel @sc_join.c:44\n"                                                           \
  "Enter !$omp single @sc_join.c:46\n" SBLOCK "Enter !$omp implicit barrier @sc_join.c:47\n"       \
  "Leave !$omp implicit barrier @sc_join.c:47\n"                                                   \
  "Leave !$omp single @sc_join.c:46\n"                                                             \
  "Leave !$omp parallel @sc_join.c:44\n"                                                           \
  "ThreadTeamEnd OpenMP thread team\n"
#define SINGLE_BODY                                                                                \
  "Enter !$omp single sblock @sc_join.c:46\n"                                                      \
  "Leave !$omp single sblock @sc_join.c:46\n"

/* The time of the k-th (0-based) event of l whose text is `what`. */
static uint64_t time_of(const tr_trace *t, const tr_location *l, const char *what, int k) {
  for (size_t i = 0; i < l->nevents; i++)
    if (!strcmp(l->lines[i], what) && k-- == 0) return t->events[l->at[i]].time;
  fail_msg("no %s on location %llu", what, (unsigned long long)l->id);
  return 0;
}

/* Every member of an n-thread team: the implicit barrier entered where it
   arrived, left with the exits after it at the master's join time; the
   planted imbalance (iteration 0 on the master sleeps 100 ms) is the
   workers' wait there (the analyzer's rule: the latest arrival minus its
   own). */
static void check_join_barrier(int n) {
  sc_result r;
  tr_trace t;
  char threads[8];
  snprintf(threads, sizeof threads, "%d", n);
  const char *const args[] = {threads, "100", NULL};
  char out[64];
  snprintf(out, sizeof out, "sum=%d inner=4\n", 3 * n * (n - 1) / 2 + 2 * n + 1);
  mt_run("sc_join", n == 2 ? "join2" : "join3", args, NULL, out, &r, &t);
  assert_int_equal(t.nlocs, (size_t)n + 2); /* + the nested team's two extras */
  char fork[32];
  snprintf(fork, sizeof fork, "ThreadFork %d\n", 2); /* omp_get_max_threads() */
  char *master = malloc(4096), *worker = malloc(4096);
  int ran_single = 0;
  for (int i = 0; i < n; i++) {
    int ran = tr_count(&t.locs[i], "Enter !$omp single sblock @sc_join.c:46") > 0;
    ran_single += ran;
    const char *single = ran ? JOIN_SINGLE(SINGLE_BODY) : JOIN_SINGLE("");
    if (i == 0)
      snprintf(master, 4096,
               "%s" JOIN_REGION1 "ThreadJoin\n%s" JOIN_REGION2 "ThreadJoin\n%s" JOIN_NESTED
               "ThreadJoin\n%s" JOIN_LAST "ThreadJoin\n%s%sThreadJoin\n",
               fork, fork, fork, fork, fork, single);
    else
      snprintf(worker, 4096, JOIN_REGION1 JOIN_REGION2 "%s" JOIN_LAST "%s",
               i == 1 ? JOIN_NESTED : "", single);
    mt_expect_events(&t.locs[i], i == 0 ? master : worker);
  }
  assert_int_equal(ran_single, 1);
  /* each single's Leave waited for the join (none written at its arrival
     and then again, unmatched, at the join) */
  assert_null(strstr(sc_file(r.dir, "measure.log"), "without their enter"));
  const tr_location *m = &t.locs[0];
  static const char *const at_join[] = {
      "Leave !$omp implicit barrier @sc_join.c:25", "Leave !$omp for @sc_join.c:21",
      "Leave !$omp parallel @sc_join.c:21", "ThreadTeamEnd OpenMP thread team"};
  uint64_t join1 = time_of(&t, m, "ThreadJoin", 0), join2 = time_of(&t, m, "ThreadJoin", 1);
  uint64_t join4 = time_of(&t, m, "ThreadJoin", 3), join5 = time_of(&t, m, "ThreadJoin", 4);
  uint64_t master_arrival = time_of(&t, m, "Enter !$omp implicit barrier @sc_join.c:25", 0);
  for (int i = 0; i < n; i++) {
    const tr_location *l = &t.locs[i];
    for (size_t e = 0; e < sizeof at_join / sizeof *at_join; e++)
      assert_int_equal(time_of(&t, l, at_join[e], 0), join1);
    assert_int_equal(time_of(&t, l, "Leave !$omp implicit barrier @sc_join.c:31", 0), join2);
    assert_int_equal(time_of(&t, l, "Leave !$omp parallel @sc_join.c:26", 0), join2);
    /* an explicit barrier inside the region is left where each thread left it */
    assert_true(time_of(&t, l, "Leave !$omp implicit barrier @sc_join.c:29", 0) < join2);
    /* the last loop's barrier is left at the join, with the loop and the region */
    assert_int_equal(time_of(&t, l, "Leave !$omp implicit barrier @sc_join.c:42", 0), join4);
    assert_int_equal(time_of(&t, l, "Leave !$omp for @sc_join.c:41", 0), join4);
    assert_int_equal(time_of(&t, l, "Leave !$omp parallel @sc_join.c:38", 0), join4);
    /* the single's barrier too, with the single and the region */
    assert_int_equal(time_of(&t, l, "Leave !$omp implicit barrier @sc_join.c:47", 0), join5);
    assert_int_equal(time_of(&t, l, "Leave !$omp single @sc_join.c:46", 0), join5);
    if (i == 0) continue;
    uint64_t arrival = time_of(&t, l, "Enter !$omp implicit barrier @sc_join.c:25", 0);
    assert_true(master_arrival > arrival + 50 * 1000000ull);
  }
  free(master);
  free(worker);
  tr_free(&t);
}

static void test_join_barrier_2(void **state) {
  (void)state;
  check_join_barrier(2);
}

static void test_join_barrier_3(void **state) {
  (void)state;
  check_join_barrier(3);
}

/* ---- a buffer flush among the records of one instant (sc_flush_join) --- */

/* One region of sc_flush_join on the master; a worker's lacks the first
   and the last. The join writes the last five (a worker's last four) at
   one instant: a record from the second of them on may follow a flush. */
static const char *const flush_join_cycle[] = {
    "ThreadFork 2",
    "ThreadTeamBegin OpenMP thread team",
    "Enter !$omp parallel @sc_flush_join.c:14",
    "Enter !$omp for @sc_flush_join.c:14",
    "Enter !$omp implicit barrier @sc_flush_join.c:15",
    "Leave !$omp implicit barrier @sc_flush_join.c:15",
    "Leave !$omp for @sc_flush_join.c:14",
    "Leave !$omp parallel @sc_flush_join.c:14",
    "ThreadTeamEnd OpenMP thread team",
    "ThreadJoin",
};
enum { FJ_RECORDS = 10, FJ_SECOND_AT_JOIN = 6 };

/* A small buffer flushed in the middle of a join's records: the records
   after the flush region move to its end, none is lost, and every Enter
   has its Leave in order on both locations. Before, OTF2 refused them
   ("Passed timestamp is smaller than last written one") and the trace
   lost a Leave, ThreadTeamEnd and ThreadJoin. */
static void test_flush_inside_a_join_moves_its_records(void **state) {
  (void)state;
  const long regions = 20000;
  const char *const args[] = {"20000", "2", NULL};
  const char *const envs[] = {"POMP_BUFFER=256k", "OMP_WAIT_POLICY=passive", NULL};
  sc_result r;
  tr_trace t;
  mt_run("sc_flush_join", "flush_join", args, envs, "sum=120000\n", &r, &t);
  assert_int_equal(t.nlocs, 2);
  size_t inside = mt_expect_cycle_past_flushes(&t, &t.locs[0], flush_join_cycle, FJ_RECORDS,
                                               regions, FJ_SECOND_AT_JOIN);
  /* the worker: no ThreadFork, no ThreadJoin */
  inside += mt_expect_cycle_past_flushes(&t, &t.locs[1], flush_join_cycle + 1, FJ_RECORDS - 2,
                                         regions, FJ_SECOND_AT_JOIN - 1);
  assert_true(inside > 0); /* the case this test is about did occur */
  const char *log = sc_file(r.dir, "measure.log");
  assert_non_null(strstr(log, "buffer of location 0 flushed"));
  assert_null(strstr(log, "error: OTF2"));
  tr_free(&t);
}

/* ---- OpenMP tasks (sc_tasks, instrumented by pomp-opari) --------------- */

/* Each task: ThreadTaskCreate (team, creating thread, its number) at its
   creation, ThreadTaskSwitch to it and the Enter of its region where it
   starts, Leave, ThreadTaskComplete and the switch back to the task it
   interrupted where it ends (docs/TRACE.md, "OpenMP tasks"). Tasks are
   numbered by their creating thread from 1; 0 is its implicit task. */
#define TASK_RECORDS(kind, thread, number)                                                         \
  "ThreadTask" kind " OpenMP thread team " thread " " number "\n"

static const char tasks_master[] =
    "Enter !$omp create task @sc_tasks.c:10\n" TASK_RECORDS("Create", "0", "1") TASK_RECORDS(
        "Switch", "0",
        "1") "Enter !$omp task @sc_tasks.c:10\n"
             "Enter !$omp create task @sc_tasks.c:12\n" TASK_RECORDS("Create", "0", "2")
                 TASK_RECORDS(
                     "Switch", "0",
                     "2") "Enter !$omp task @sc_tasks.c:12\n"
                          "Leave !$omp task @sc_tasks.c:12\n" TASK_RECORDS("Complete", "0", "2")
                              TASK_RECORDS(
                                  "Switch", "0",
                                  "1") "Leave !$omp create task @sc_tasks.c:12\n"
                                       "Enter !$omp taskwait @sc_tasks.c:14\n"
                                       "Leave !$omp taskwait @sc_tasks.c:14\n"
                                       "Leave !$omp task @sc_tasks.c:10\n" TASK_RECORDS("Complete",
                                                                                        "0", "1")
                                           TASK_RECORDS(
                                               "Switch", "0",
                                               "0") "Leave !$omp create task @sc_tasks.c:10\n"
                                                    "Enter !$omp taskwait @sc_tasks.c:17\n"
                                                    "Leave !$omp taskwait @sc_tasks.c:17\n"
                                                    "ThreadFork 2\n"
                                                    "ThreadTeamBegin OpenMP thread team\n"
                                                    "Enter !$omp parallel @sc_tasks.c:23\n"
                                                    "Enter !$omp implicit barrier @sc_tasks.c:29\n"
                                                    "Leave !$omp implicit barrier @sc_tasks.c:29\n"
                                                    "Leave !$omp parallel @sc_tasks.c:23\n"
                                                    "ThreadTeamEnd OpenMP thread team\n"
                                                    "ThreadJoin\n";

/* thread 1's undeferred task (if (0)) runs inside its creation */
static const char tasks_worker[] =
    "ThreadTeamBegin OpenMP thread team\n"
    "Enter !$omp parallel @sc_tasks.c:23\n"
    "Enter !$omp create task @sc_tasks.c:26\n" TASK_RECORDS("Create", "1", "1") TASK_RECORDS(
        "Switch", "1", "1") "Enter !$omp task @sc_tasks.c:26\n"
                            "Leave !$omp task @sc_tasks.c:26\n" TASK_RECORDS("Complete", "1", "1")
                                TASK_RECORDS("Switch", "1",
                                             "0") "Leave !$omp create task @sc_tasks.c:26\n"
                                                  "Enter !$omp implicit barrier @sc_tasks.c:29\n"
                                                  "Leave !$omp implicit barrier @sc_tasks.c:29\n"
                                                  "Leave !$omp parallel @sc_tasks.c:23\n"
                                                  "ThreadTeamEnd OpenMP thread team\n";

/* The team (comm) of l's first record of kind. */
static uint32_t first_comm(const tr_trace *t, const tr_location *l, int kind) {
  for (size_t i = 0; i < l->nevents; i++)
    if (t->events[l->at[i]].kind == kind) return t->events[l->at[i]].comm;
  fail_msg("no %s", tr_kind_name(kind));
  return 0;
}

static void test_tasks(void **state) {
  (void)state;
  sc_result r;
  tr_trace t;
  mt_run("sc_tasks", "tasks", NULL, NULL, "3 5\n", &r, &t);
  assert_int_equal(t.nlocs, 2);
  mt_expect_events(&t.locs[0], tasks_master);
  mt_expect_events(&t.locs[1], tasks_worker);
  /* outside the parallel region a team of one; inside, the region's */
  uint32_t team = first_comm(&t, &t.locs[0], TR_THREAD_TEAM_BEGIN);
  assert_int_not_equal(first_comm(&t, &t.locs[0], TR_THREAD_TASK_CREATE), team);
  assert_int_equal(first_comm(&t, &t.locs[1], TR_THREAD_TASK_CREATE), team);
  tr_free(&t);
}

/* An untied task that moved (sc_untied, by hand): the thread that ends it
   writes its completion, though its Enter is on the other thread, whose
   region of it stays open until the region around it ends: a reader sees
   the task on two locations (pomp-analyze refuses the trace). */
static void test_untied_task_that_moved(void **state) {
  (void)state;
  sc_result r;
  tr_trace t;
  mt_run("sc_untied", "untied", NULL, NULL, "done\n", &r, &t);
  assert_int_equal(t.nlocs, 2);
  mt_expect_events(
      &t.locs[0],
      "ThreadFork 2\n"
      "ThreadTeamBegin OpenMP thread team\n"
      "Enter !$omp parallel @sc_untied.c:10\n"
      "Enter !$omp create task @sc_untied.c:12\n" TASK_RECORDS(
          "Create", "0",
          "1") "Leave !$omp create task @sc_untied.c:12\n" TASK_RECORDS("Complete", "0",
                                                                        "1") "Leave !$omp parallel "
                                                                             "@sc_untied.c:10\n"
                                                                             "ThreadTeamEnd OpenMP "
                                                                             "thread team\n"
                                                                             "ThreadJoin\n");
  mt_expect_events(&t.locs[1], "ThreadTeamBegin OpenMP thread team\n"
                               "Enter !$omp parallel @sc_untied.c:10\n" TASK_RECORDS(
                                   "Switch", "0", "1") "Enter !$omp task @sc_untied.c:12\n"
                                                       "Leave !$omp task @sc_untied.c:12\n"
                                                       "Leave !$omp parallel @sc_untied.c:10\n"
                                                       "ThreadTeamEnd OpenMP thread team\n");
  tr_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parallel_region),
      cmocka_unit_test(test_flush_inside_a_join_moves_its_records),
      cmocka_unit_test(test_lock_api),
      cmocka_unit_test(test_nested_parallel_flattened),
      cmocka_unit_test(test_join_barrier_2),
      cmocka_unit_test(test_join_barrier_3),
      cmocka_unit_test(test_tasks),
      cmocka_unit_test(test_untied_task_that_moved),
  };
  return cmocka_run_group_tests(tests, NULL, mt_teardown);
}
