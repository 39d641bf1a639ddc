/* Unit tests of a running program's profile snapshots as one report
   (report_snapshots.c): per-rank files shaped as libpomp writes them
   (one process, its threads, run_status running, snapshot_seconds,
   snapshot_ranks "rank K of N") merged with exact definitions, locations,
   values and attributes; the file of a process without MPI opened as it
   is; the stamp a follower compares. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"

/* The snapshot of one rank: main and main;solve (rank 1 also main;io),
   visits and time per thread. */
static void write_rank(const char *dir, int rank, int threads, const char *seconds) {
  pomp_report *r = pomp_report_new();
  int32_t time = pomp_report_add_metric(r, "time", "Time", POMP_UNIT_SEC, "", -1);
  int32_t visits = pomp_report_add_metric(r, "visits", "Visits", POMP_UNIT_OCC, "", -1);
  int32_t main_r = pomp_report_add_region(r, "main", "a.c", 1, 9, "user", "function");
  int32_t solve_r = pomp_report_add_region(r, "solve", "a.c", 10, 19, "user", "function");
  int32_t main_c = pomp_report_add_cnode(r, main_r, -1);
  int32_t solve_c = pomp_report_add_cnode(r, solve_r, main_c);
  int32_t io_c = -1;
  if (rank == 1)
    io_c = pomp_report_add_cnode(
        r, pomp_report_add_region(r, "io", "b.c", 5, 6, "user", "function"), main_c);
  int32_t machine = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "machine", -1, -1, -1);
  int32_t node = pomp_report_add_sysnode(r, POMP_SYS_NODE, "host", machine, -1, -1);
  char name[64];
  snprintf(name, sizeof name, "MPI Rank %d", rank);
  int32_t proc = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, name, node, rank, -1);
  for (int t = 0; t < threads; t++) {
    snprintf(name, sizeof name, "Thread %d", t);
    pomp_report_add_sysnode(r, POMP_SYS_THREAD, name, proc, rank, t);
    pomp_report_add_value(r, visits, main_c, t, 1);
    pomp_report_add_value(r, visits, solve_c, t, 10 * (rank + 1) + t);
    pomp_report_add_value(r, time, solve_c, t, 0.5 * (rank + 1));
  }
  if (io_c >= 0) pomp_report_add_value(r, visits, io_c, 0, 7);
  pomp_report_set_attr(r, "mode", "profile");
  pomp_report_set_attr(r, "ranks", "1");
  snprintf(name, sizeof name, "%d", threads);
  pomp_report_set_attr(r, "threads", name);
  pomp_report_set_attr(r, "profile_paths_dropped", rank == 1 ? "3" : "0");
  pomp_report_set_attr(r, POMP_REPORT_RUN_STATUS, "running");
  pomp_report_set_attr(r, "snapshot_seconds", seconds);
  snprintf(name, sizeof name, "rank %d of 3", rank);
  pomp_report_set_attr(r, "snapshot_ranks", name);
  char path[700];
  snprintf(path, sizeof path, "%s/snapshot.%d.pomp", dir, rank);
  pomp_report_error err;
  assert_int_equal(pomp_report_write(r, path, &err), POMP_REPORT_OK);
  pomp_report_free(r);
}

static char *new_dir(const char *tag) {
  char *dir = fixture_tmpname(tag);
  assert_int_equal(mkdir(dir, 0700), 0);
  return dir;
}

static void remove_dir(char *dir) {
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
  free(dir);
}

static int32_t cnode_of(const pomp_report *r, const char *path) {
  char buf[256];
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++) {
    pomp_report_callpath(r, c, ";", buf, sizeof buf);
    if (!strcmp(buf, path)) return c;
  }
  return -1;
}

static void ranks_merge_with_every_location_and_value(void **state) {
  (void)state;
  char *dir = new_dir("snap");
  write_rank(dir, 0, 2, "3.1");
  write_rank(dir, 1, 1, "2.9");
  pomp_report_error err;
  pomp_report *r = pomp_report_open_snapshots(dir, &err);
  if (!r) fail_msg("%s", err.message);
  /* regions and call paths by what they name: main, solve, io once */
  assert_int_equal(pomp_report_num_regions(r), 3);
  assert_int_equal(pomp_report_num_cnodes(r), 3);
  int32_t solve = cnode_of(r, "main;solve"), io = cnode_of(r, "main;io");
  assert_true(solve >= 0 && io >= 0);
  /* one machine and node, rank 0's two threads, then rank 1's */
  assert_int_equal(pomp_report_num_sysnodes(r), 2 + 2 + 3);
  assert_int_equal(pomp_report_num_locations(r), 3);
  const int32_t rank_of[3] = {0, 0, 1}, thread_of[3] = {0, 1, 0};
  for (int32_t l = 0; l < 3; l++) {
    const pomp_sysnode *s = pomp_report_sysnode(r, pomp_report_location_sysnode(r, l));
    assert_int_equal(s->rank, rank_of[l]);
    assert_int_equal(s->thread, thread_of[l]);
  }
  int32_t visits = pomp_report_find_metric(r, "visits"), time = pomp_report_find_metric(r, "time");
  assert_true(pomp_report_value(r, visits, solve, 0) == 10);
  assert_true(pomp_report_value(r, visits, solve, 1) == 11);
  assert_true(pomp_report_value(r, visits, solve, 2) == 20);
  assert_true(pomp_report_value(r, visits, io, 2) == 7);
  assert_true(pomp_report_value(r, visits, io, 0) == 0);
  assert_true(pomp_report_value(r, time, solve, 2) == 1.0);
  /* the counts of all files; the oldest snapshot's time */
  assert_string_equal(pomp_report_attr(r, "snapshot_ranks"), "2 of 3 ranks");
  assert_string_equal(pomp_report_attr(r, "ranks"), "2");
  assert_string_equal(pomp_report_attr(r, "threads"), "2");
  assert_string_equal(pomp_report_attr(r, "profile_paths_dropped"), "3");
  assert_string_equal(pomp_report_attr(r, "snapshot_seconds"), "2.9");
  assert_string_equal(pomp_report_attr(r, POMP_REPORT_RUN_STATUS), "running");
  assert_string_equal(pomp_report_attr(r, "mode"), "profile");
  pomp_report_free(r);
  /* pomp_report_open on the directory (no report.pomp) reads the same */
  r = pomp_report_open(dir, &err);
  assert_non_null(r);
  assert_int_equal(pomp_report_num_locations(r), 3);
  pomp_report_free(r);
  remove_dir(dir);
}

static void a_missing_rank_is_left_out(void **state) {
  (void)state;
  char *dir = new_dir("snap1");
  write_rank(dir, 1, 1, "2.9");
  pomp_report_error err;
  pomp_report *r = pomp_report_open_snapshots(dir, &err);
  if (!r) fail_msg("%s", err.message);
  assert_int_equal(pomp_report_num_locations(r), 1);
  assert_int_equal(pomp_report_sysnode(r, pomp_report_location_sysnode(r, 0))->rank, 1);
  assert_string_equal(pomp_report_attr(r, "snapshot_ranks"), "1 of 3 ranks");
  pomp_report_free(r);
  remove_dir(dir);
}

static void the_file_of_a_process_without_mpi_is_opened_as_it_is(void **state) {
  (void)state;
  char *dir = new_dir("snap2");
  write_rank(dir, 0, 2, "1.0");
  char from[700], to[700];
  snprintf(from, sizeof from, "%s/snapshot.0.pomp", dir);
  snprintf(to, sizeof to, "%s/snapshot.pomp", dir);
  assert_int_equal(rename(from, to), 0);
  pomp_report_error err;
  pomp_report *r = pomp_report_open_snapshots(dir, &err);
  if (!r) fail_msg("%s", err.message);
  assert_string_equal(pomp_report_attr(r, "snapshot_ranks"), "rank 0 of 3"); /* untouched */
  assert_int_equal(pomp_report_num_locations(r), 2);
  pomp_report_free(r);
  remove_dir(dir);
}

static void no_snapshot_is_an_error_naming_the_directory(void **state) {
  (void)state;
  char *dir = new_dir("snap3");
  pomp_report_error err;
  assert_null(pomp_report_open_snapshots(dir, &err));
  char expect[700];
  snprintf(expect, sizeof expect, "%s: no snapshot.pomp or snapshot.RANK.pomp", dir);
  assert_string_equal(err.message, expect);
  assert_int_equal(pomp_report_snapshots_look(dir).files, 0);
  assert_true(pomp_report_snapshots_look(dir).stamp == 0);
  remove_dir(dir);
}

static void the_stamp_changes_when_a_rank_writes_or_appears(void **state) {
  (void)state;
  char *dir = new_dir("snap4");
  write_rank(dir, 0, 1, "1.0");
  pomp_report_snapshots a = pomp_report_snapshots_look(dir);
  assert_int_equal(a.files, 1);
  assert_true(a.stamp != 0);
  assert_true(pomp_report_snapshots_look(dir).stamp == a.stamp); /* nothing changed */
  write_rank(dir, 1, 1, "1.0");
  pomp_report_snapshots b = pomp_report_snapshots_look(dir);
  assert_int_equal(b.files, 2);
  assert_true(b.stamp != a.stamp);
  write_rank(dir, 1, 2, "2.0"); /* replaced: another inode and size */
  assert_true(pomp_report_snapshots_look(dir).stamp != b.stamp);
  remove_dir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ranks_merge_with_every_location_and_value),
      cmocka_unit_test(a_missing_rank_is_left_out),
      cmocka_unit_test(the_file_of_a_process_without_mpi_is_opened_as_it_is),
      cmocka_unit_test(no_snapshot_is_an_error_naming_the_directory),
      cmocka_unit_test(the_stamp_changes_when_a_rank_writes_or_appears),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
