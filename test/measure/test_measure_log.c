/* test_measure_log.c -- measure.log is shared by the ranks of an MPI run
   (O_APPEND), so every line must leave in one write(2), its "[rank R] "
   prefix included: lines kept before the log opened, lines logged after,
   and the signal handler's lines. Linked with -Wl,--wrap=write, so each
   write of libpomp is seen here exactly as the kernel would get it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pm_runtime.h"

/* ---------------------------------------------------- the write(2) spy */

ssize_t __real_write(int fd, const void *buf, size_t n);

static char writes[64][1400]; /* the buffers of the writes, in order */
static int nwrites;

ssize_t __wrap_write(int fd, const void *buf, size_t n) {
  if (nwrites < 64 && n < sizeof writes[0]) {
    memcpy(writes[nwrites], buf, n);
    writes[nwrites][n] = '\0';
  }
  nwrites++;
  return __real_write(fd, buf, n);
}

/* The process's place: rank R of an MPI run (mpi 1), or no MPI (mpi 0). */
static void be_rank(int rank, int mpi) {
  pm_rank = rank;
  pm_mpi_active = mpi;
}

/* A fresh experiment directory, its log opened with the kept lines. */
static char dir[64];

static void open_log(void) {
  strcpy(dir, "/tmp/pomp-log-test.XXXXXX");
  assert_non_null(mkdtemp(dir));
  nwrites = 0;
  pm_log_open(dir);
}

/* Checks that exactly the lines given went out, one write(2) each. */
static void expect_writes(int n, const char *const lines[]) {
  assert_int_equal(nwrites, n);
  for (int i = 0; i < n; i++) assert_string_equal(writes[i], lines[i]);
}

static void close_log(void) {
  pm_log_close();
  char path[128];
  snprintf(path, sizeof path, "%s/measure.log", dir);
  unlink(path);
  rmdir(dir);
}

/* ------------------------------------------------------------- the tests */

static void test_kept_lines_one_write_each(void **state) {
  (void)state;
  be_rank(0, 0);
  pm_log("libpomp 0.1.0: measurement of './ab' (pid 42)");
  pm_log("configuration (environment variables):");
  be_rank(3, 1); /* MPI_Init came: the rank is known when the log opens */
  open_log();
  expect_writes(2, (const char *const[]){"[rank 3] libpomp 0.1.0: measurement of './ab' (pid 42)\n",
                                         "[rank 3] configuration (environment variables):\n"});
  close_log();
}

static void test_logged_lines_one_write_each(void **state) {
  (void)state;
  be_rank(12, 1);
  open_log();
  pm_log("measurement finished (%s)", "MPI_Finalize");
  pm_info(9, "%d descriptors registered by instrumented units", 17);
  expect_writes(
      2, (const char *const[]){"[rank 12] measurement finished (MPI_Finalize)\n",
                               "[rank 12] 17 descriptors registered by instrumented units\n"});
  close_log();
}

static void test_long_line_cut_but_whole(void **state) {
  (void)state;
  be_rank(1, 1);
  open_log();
  char big[3000];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  pm_log("%s", big);
  assert_int_equal(nwrites, 1);
  assert_int_equal(strncmp(writes[0], "[rank 1] xxx", 12), 0);
  size_t n = strlen(writes[0]);
  assert_ptr_equal(strchr(writes[0], '\n'), writes[0] + n - 1); /* one line */
  close_log();
}

static void test_signal_line_prefixed_one_write(void **state) {
  (void)state;
  be_rank(1, 1);
  open_log();
  const char *parts[] = {"signal ", "SIGINT", " received: ",
                         "MPI run, the trace cannot be unified without MPI_Finalize; not written"};
  pm_log_signal_line(parts, 4);
  be_rank(0, 0); /* a run without MPI: no prefix */
  const char *done[] = {"trace written; the program dies of ", "SIGTERM"};
  pm_log_signal_line(done, 2);
  expect_writes(
      2, (const char *const[]){"[rank 1] signal SIGINT received: MPI run, the trace cannot be "
                               "unified without MPI_Finalize; not written\n",
                               "trace written; the program dies of SIGTERM\n"});
  close_log();
}

/* The configuration list: each value starts in one column, after the
   longest name (POMP_FLUSH_INTERVAL), the long names included. */
static void config_values_start_after_the_longest_name(void **state) {
  (void)state;
  be_rank(0, 0);
  unsetenv("POMP_ENABLE");
  setenv("POMP_FLUSH_INTERVAL", "5", 1);
  setenv("POMP_MPI_CLOCKSYNC", "always", 1);
  open_log();
  pm_config_log();
  unsetenv("POMP_FLUSH_INTERVAL");
  unsetenv("POMP_MPI_CLOCKSYNC");
  enum { NVARS = 15, VALUE_COLUMN = 22 }; /* "  " + 19 + " " */
  assert_int_equal(nwrites, 1 + NVARS);
  assert_string_equal(writes[0], "configuration (environment variables):\n");
  assert_string_equal(writes[1], "  POMP_ENABLE         (unset)                        measure at "
                                 "all (0 = the program runs unobserved) (default 1)\n");
  assert_string_equal(writes[5], "  POMP_FLUSH_INTERVAL 5                              seconds "
                                 "after which a thread's events still in memory are copied to "
                                 "disk (its tail file), so a run killed with SIGKILL keeps all "
                                 "but the last ones (0 = only full buffers) (default 10)\n");
  assert_string_equal(writes[NVARS], "  POMP_MPI_CLOCKSYNC  always                         always: "
                                     "ping-pong clock offsets even on rank 0's host (auto: only "
                                     "on other hosts) (default auto)\n");
  for (int i = 1; i <= NVARS; i++) {
    assert_int_equal(writes[i][VALUE_COLUMN - 1], ' ');
    assert_true(writes[i][VALUE_COLUMN] != ' ');
  }
  close_log();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kept_lines_one_write_each),
      cmocka_unit_test(test_logged_lines_one_write_each),
      cmocka_unit_test(test_long_line_cut_but_whole),
      cmocka_unit_test(test_signal_line_prefixed_one_write),
      cmocka_unit_test(config_values_start_after_the_longest_name),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
