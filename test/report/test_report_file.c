/* Unit tests of report.pomp: exact round trips (every encoding, special
   doubles), the streaming writer, and a reader that turns every truncation
   and every corrupted byte into an error naming the file and offset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <float.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"

static void fixture_round_trips(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  pomp_report *back = fixture_round_trip(r);
  fixture_assert_same(r, back);
  assert_true(pomp_report_metric_total(back, 0, 1) == 15.625);
  assert_true(pomp_report_value(back, 3, 2, 2) == 2.5);
  /* an opened report takes no additions */
  assert_int_equal(pomp_report_add_value(back, 0, 0, 0, 1.0), POMP_REPORT_ERR_ARG);
  assert_int_equal(pomp_report_add_metric(back, "new", "", POMP_UNIT_SEC, "", -1), -1);
  /* and can be written again, byte for byte the same content */
  pomp_report *again = fixture_round_trip(back);
  fixture_assert_same(r, again);
  pomp_report_free(again);
  pomp_report_free(back);
  pomp_report_free(r);
}

/* One process of nloc threads and two metrics, one cnode. */
static pomp_report *flat_report(int32_t nloc) {
  pomp_report *r = pomp_report_new();
  pomp_report_add_metric(r, "a", "A", POMP_UNIT_SEC, "", -1);
  pomp_report_add_metric(r, "b", "B", POMP_UNIT_SEC, "", -1);
  int32_t g = pomp_report_add_region(r, "main", "", 0, 0, "user", "function");
  pomp_report_add_cnode(r, g, -1);
  pomp_report_add_cnode(r, g, 0);
  int32_t m = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "m", -1, -1, -1);
  int32_t n = pomp_report_add_sysnode(r, POMP_SYS_NODE, "n", m, -1, -1);
  int32_t p = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, "p", n, 0, -1);
  for (int32_t t = 0; t < nloc; t++) pomp_report_add_sysnode(r, POMP_SYS_THREAD, "t", p, 0, t);
  return r;
}

static uint64_t rng_state = 0x1234567;
static uint64_t rng(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* A non-NaN, finite double from random bits, or one of the hard cases. */
static double odd_double(void) {
  static const double special[] = {-0.0,     5e-324, DBL_MIN / 3, DBL_MIN, DBL_MAX,
                                   -DBL_MAX, 1e-300, 1e300,       0.1,     -7.25};
  uint64_t k = rng();
  if (k % 3 == 0) return special[(k >> 8) % 10];
  uint64_t bits = rng();
  if (((bits >> 52) & 0x7ff) == 0x7ff) bits &= ~(1ull << 62);
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

/* The values-section length (header bytes 40..47) of a report holding one
   row of metric 0 on the locations where pattern keeps them: 0 all, 1 a
   run, 2 every 97th, 3 every third. */
static uint64_t one_row_bytes(int32_t nloc, int pattern) {
  pomp_report *r = flat_report(nloc);
  for (int32_t l = 0; l < nloc; l++) {
    int keep = pattern == 0   ? 1
               : pattern == 1 ? l >= 5 && l < 5 + nloc / 2
               : pattern == 2 ? l % 97 == 3
                              : l % 3 == 0;
    if (keep) pomp_report_add_value(r, 0, 0, l, 1.0 + l);
  }
  char *path = fixture_tmpname("enc");
  assert_int_equal(pomp_report_write(r, path, NULL), POMP_REPORT_OK);
  unsigned char header[48];
  FILE *f = fopen(path, "rb");
  assert_int_equal(fread(header, 1, sizeof header, f), sizeof header);
  fclose(f);
  remove(path);
  free(path);
  pomp_report_free(r);
  uint64_t len = 0;
  for (int i = 7; i >= 0; i--) len = len << 8 | header[40 + i];
  return len;
}

/* Each row takes the smallest encoding of FORMAT.md: dense 8L, range
   4 + 8n, idx16 10n (L <= 65536), idx32 12n, bitmap L/8 + 8n. */
static void smallest_encoding_is_chosen(void **state) {
  (void)state;
  assert_int_equal(one_row_bytes(1000, 0), 8 * 1000);          /* dense */
  assert_int_equal(one_row_bytes(1000, 1), 4 + 8 * 500);       /* range */
  assert_int_equal(one_row_bytes(1000, 2), 10 * 11);           /* idx16 */
  assert_int_equal(one_row_bytes(1000, 3), 125 + 8 * 334);     /* bitmap */
  assert_int_equal(one_row_bytes(70000, 2), 12 * 722);         /* idx32 */
  assert_int_equal(one_row_bytes(70000, 3), 8750 + 8 * 23334); /* bitmap */
}

/* Random rows of every shape, values with every kind of double. */
static void random_values_round_trip_bit_exact(void **state) {
  (void)state;
  const int32_t sizes[] = {1, 100, 70000};
  for (int s = 0; s < 3; s++) {
    int32_t nloc = sizes[s];
    pomp_report *r = flat_report(nloc);
    for (int32_t m = 0; m < 2; m++)
      for (int32_t c = 0; c < 2; c++) {
        int pattern = (int)(m * 2 + c);
        for (int32_t l = 0; l < nloc; l++) {
          int keep = pattern == 0   ? 1
                     : pattern == 1 ? l >= nloc / 3 && l <= nloc / 2
                     : pattern == 2 ? rng() % 97 == 0 || l == 0
                                    : rng() % 3 == 0 || l == 0;
          if (keep) pomp_report_add_value(r, m, c, l, odd_double());
        }
      }
    pomp_report *back = fixture_round_trip(r);
    fixture_assert_same(r, back);
    pomp_report_free(back);
    pomp_report_free(r);
  }
}

/* pomp_report_value reads a cell in place once its row is checked: every
   location of rows in every encoding (dense, range, idx16, bitmap at 100
   locations; idx32, bitmap at 70,000) gives the decoded value's bits, or
   +0.0 where nothing is stored, on the first (checking) and later calls.
   (A bitmap row's lookups count bits, so the widest rows cost most.) */
static void single_values_read_in_place(void **state) {
  (void)state;
  const int32_t sizes[] = {100, 70000};
  for (int s = 0; s < 2; s++) {
    int32_t nloc = sizes[s];
    pomp_report *r = flat_report(nloc);
    for (int32_t m = 0; m < 2; m++)
      for (int32_t c = 0; c < 2; c++)
        for (int32_t l = 0; l < nloc; l++) {
          int pattern = (int)(m * 2 + c);
          int keep = pattern == 0   ? 1
                     : pattern == 1 ? l >= nloc / 3 && l <= nloc / 2
                     : pattern == 2 ? l % 97 == 5
                                    : l % 3 != 1;
          if (keep) pomp_report_add_value(r, m, c, l, odd_double());
        }
    pomp_report *back = fixture_round_trip(r);
    double *dense = calloc((size_t)nloc, sizeof *dense);
    int32_t *locs = malloc((size_t)nloc * sizeof *locs);
    double *vals = malloc((size_t)nloc * sizeof *vals);
    for (int32_t m = 0; m < 2; m++)
      for (int32_t c = 0; c < 2; c++) {
        int32_t n = pomp_report_row_get(back, m, c, locs, vals, NULL);
        assert_true(n > 0);
        memset(dense, 0, (size_t)nloc * sizeof *dense);
        for (int32_t k = 0; k < n; k++) dense[locs[k]] = vals[k];
        for (int32_t l = 0; l < nloc; l++) { /* the first checks the row */
          double got = pomp_report_value(back, m, c, l);
          assert_memory_equal(&got, &dense[l], sizeof got);
        }
      }
    assert_true(pomp_report_value(back, 0, 0, nloc) == 0.0);
    assert_true(pomp_report_value(back, 0, 0, -1) == 0.0);
    free(dense);
    free(locs);
    free(vals);
    pomp_report_free(back);
    pomp_report_free(r);
  }
}

static void negative_zero_kept_positive_zero_dropped(void **state) {
  (void)state;
  pomp_report *r = flat_report(4);
  pomp_report_add_value(r, 0, 0, 1, -0.0);
  pomp_report_add_value(r, 0, 0, 2, 0.0);
  pomp_report_add_value(r, 1, 0, 3, 0.0);
  pomp_report *back = fixture_round_trip(r);
  assert_int_equal(pomp_report_num_rows(back), 1);
  int32_t locs[4];
  double vals[4];
  assert_int_equal(pomp_report_row_get(back, 0, 0, locs, vals, NULL), 1);
  assert_int_equal(locs[0], 1);
  assert_true(vals[0] == 0.0 && signbit(vals[0]));
  pomp_report_free(back);
  pomp_report_free(r);
}

static void streaming_writer_sorts_and_checks(void **state) {
  (void)state;
  pomp_report *r = flat_report(5);
  char *path = fixture_tmpname("stream");
  pomp_report_error err;
  pomp_report_writer *w = pomp_report_write_begin(r, path, &err);
  assert_non_null(w);
  const int32_t l1[] = {0, 2, 4}, l2[] = {1, 3};
  const double v1[] = {1.5, 0.0, 2.5}, v2[] = {7.0, 8.0};
  assert_int_equal(pomp_report_write_row(w, 1, 1, l1, v1, 3, &err), POMP_REPORT_OK);
  assert_int_equal(pomp_report_write_row(w, 0, 1, l2, v2, 2, &err), POMP_REPORT_OK);
  assert_int_equal(pomp_report_write_row(w, 0, 0, l2, v1, 2, &err), POMP_REPORT_OK);
  /* bad rows are refused and leave the writer usable */
  const int32_t bad[] = {2, 2};
  assert_int_equal(pomp_report_write_row(w, 0, 0, bad, v2, 2, &err), POMP_REPORT_ERR_ARG);
  assert_int_equal(pomp_report_write_row(w, 2, 0, l2, v2, 2, &err), POMP_REPORT_ERR_ARG);
  assert_int_equal(pomp_report_write_end(w, &err), POMP_REPORT_OK);
  pomp_report *back = pomp_report_open(path, &err);
  assert_non_null(back);
  assert_int_equal(pomp_report_num_rows(back), 3);
  int32_t m, c, n;
  double sum;
  pomp_report_row_at(back, 0, &m, &c, &n, &sum);
  assert_true(m == 0 && c == 0 && n == 1 && sum == 1.5); /* 0.0 dropped */
  pomp_report_row_at(back, 1, &m, &c, &n, &sum);
  assert_true(m == 0 && c == 1 && n == 2 && sum == 15.0);
  pomp_report_row_at(back, 2, &m, &c, &n, &sum);
  assert_true(m == 1 && c == 1 && n == 2 && sum == 4.0);
  assert_true(pomp_report_value(back, 1, 1, 4) == 2.5);
  assert_true(pomp_report_value(back, 1, 1, 2) == 0.0);
  pomp_report_free(back);

  /* the same row twice is an error, and the old file stays */
  w = pomp_report_write_begin(r, path, &err);
  pomp_report_write_row(w, 0, 1, l2, v2, 2, &err);
  pomp_report_write_row(w, 0, 0, l2, v2, 2, &err);
  pomp_report_write_row(w, 0, 1, l2, v2, 2, &err);
  assert_int_equal(pomp_report_write_end(w, &err), POMP_REPORT_ERR_ARG);
  assert_string_equal(strstr(err.message, "row (metric 0, cnode 1) written twice"),
                      "row (metric 0, cnode 1) written twice");
  back = pomp_report_open(path, &err);
  assert_non_null(back);
  assert_int_equal(pomp_report_num_rows(back), 3);
  pomp_report_free(back);
  remove(path);
  free(path);
  pomp_report_free(r);
}

static void open_errors_name_file_and_offset(void **state) {
  (void)state;
  pomp_report_error err;
  assert_null(pomp_report_open("/nonexistent/report.pomp", &err));
  assert_int_equal(err.status, POMP_REPORT_ERR_IO);
  assert_string_equal(err.message, "/nonexistent/report.pomp: No such file or directory");
  /* an experiment directory is opened through its report.pomp */
  char *dir = fixture_tmpname("dir");
  assert_int_equal(mkdir(dir, 0700), 0);
  char file[600];
  snprintf(file, sizeof file, "%s/report.pomp", dir);
  pomp_report *r = fixture_new();
  assert_int_equal(pomp_report_write(r, file, &err), POMP_REPORT_OK);
  pomp_report *back = pomp_report_open(dir, &err);
  assert_non_null(back);
  fixture_assert_same(r, back);
  pomp_report_free(back);
  /* newer major version */
  FILE *f = fopen(file, "r+b");
  fseek(f, 8, SEEK_SET);
  fputc(2, f);
  fclose(f);
  assert_null(pomp_report_open(file, &err));
  assert_int_equal(err.status, POMP_REPORT_ERR_VERSION);
  char expect[700];
  snprintf(expect, sizeof expect,
           "%s: offset 8: format version 2.0 is newer than this reader (1.0)", file);
  assert_string_equal(err.message, expect);
  remove(file);
  rmdir(dir);
  free(dir);
  pomp_report_free(r);
}

/* A FIFO or a device is refused by its type, before it is opened: open(2)
   on a FIFO without a writer would block for ever (the alarm turns such a
   hang into a failure instead of a stuck test run). */
static void special_files_refused_without_blocking(void **state) {
  (void)state;
  pomp_report_error err;
  char *fifo = fixture_tmpname("fifo");
  assert_int_equal(mkfifo(fifo, 0600), 0);
  alarm(10);
  assert_null(pomp_report_open(fifo, &err));
  alarm(0);
  assert_int_equal(err.status, POMP_REPORT_ERR_FORMAT);
  char expect[600];
  snprintf(expect, sizeof expect, "%s: not a regular file", fifo);
  assert_string_equal(err.message, expect);
  remove(fifo);
  free(fifo);
  assert_null(pomp_report_open("/dev/null", &err));
  assert_int_equal(err.status, POMP_REPORT_ERR_FORMAT);
  assert_string_equal(err.message, "/dev/null: not a regular file");
}

/* A report is renamed over its path: over a FIFO (or /dev/null, not
   tried here) that would replace the special file, so it is refused and
   the FIFO stays one, with no temporary file left beside it. */
static void special_files_not_written_over(void **state) {
  (void)state;
  pomp_report *r = fixture_new();
  char *fifo = fixture_tmpname("wfifo");
  assert_int_equal(mkfifo(fifo, 0600), 0);
  pomp_report_error err;
  assert_int_equal(pomp_report_write(r, fifo, &err), POMP_REPORT_ERR_IO);
  char expect[700];
  snprintf(expect, sizeof expect,
           "%s: not a regular file (a report is written whole and renamed over its path)", fifo);
  assert_string_equal(err.message, expect);
  struct stat st;
  assert_int_equal(stat(fifo, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
  char part[600];
  snprintf(part, sizeof part, "%s.part.*", fifo);
  glob_t left;
  assert_int_equal(glob(part, 0, NULL, &left), GLOB_NOMATCH);
  remove(fifo);
  free(fifo);
  pomp_report_free(r);
}

/* Reads the whole file of a written fixture. */
static unsigned char *fixture_bytes(size_t *size) {
  pomp_report *r = fixture_new();
  char *path = fixture_tmpname("bytes");
  assert_int_equal(pomp_report_write(r, path, NULL), POMP_REPORT_OK);
  FILE *f = fopen(path, "rb");
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  rewind(f);
  unsigned char *b = malloc(*size);
  assert_int_equal(fread(b, 1, *size, f), *size);
  fclose(f);
  remove(path);
  free(path);
  pomp_report_free(r);
  return b;
}

/* Opens bytes as report "mem.pomp"; returns 0 if the open or any row
   decode failed with a FORMAT or VERSION error naming it and an offset. */
static int load_fails_cleanly(const unsigned char *b, size_t n) {
  /* a copy of exactly n bytes, so that ASan sees any read past them */
  unsigned char *copy = malloc(n + 1);
  memcpy(copy, b, n);
  pomp_report_error err = {0};
  pomp_report *r = pomp_report_open_memory(copy, n, "mem.pomp", &err);
  int bad = !r;
  if (r) {
    int32_t locs[4];
    double vals[4];
    for (int64_t i = 0; i < pomp_report_num_rows(r) && !bad; i++) {
      int32_t m, c;
      pomp_report_row_at(r, i, &m, &c, NULL, NULL);
      bad = pomp_report_row_get(r, m, c, locs, vals, &err) < 0;
    }
    pomp_report_free(r);
  }
  free(copy);
  if (!bad) return 1;
  if (err.status != POMP_REPORT_ERR_FORMAT && err.status != POMP_REPORT_ERR_VERSION) return 1;
  return strncmp(err.message, "mem.pomp: offset ", 17) != 0;
}

/* Values are checked when decoded: a damaged row still opens, its sum
   (from the index) is still there, and every decoding call reports it. */
static void damaged_row_reported_on_decode(void **state) {
  (void)state;
  size_t size;
  unsigned char *b = fixture_bytes(&size);
  uint64_t values = 0;
  for (int i = 7; i >= 0; i--) values = values << 8 | b[32 + i];
  b[values + 3] ^= 0x10; /* inside the first row: time / main */
  pomp_report_error err = {0};
  pomp_report *r = pomp_report_open_memory(b, size, "mem.pomp", &err);
  assert_non_null(r);
  assert_true(pomp_report_row_sum(r, 0, 0) == 0.5);
  double acc[4] = {0};
  assert_int_equal(pomp_report_row_add(r, 0, 0, acc, &err), 0);
  assert_int_equal(err.status, POMP_REPORT_ERR_FORMAT);
  char expect[128];
  snprintf(expect, sizeof expect,
           "mem.pomp: offset %llu: row (metric 0, cnode 0): row checksum "
           "mismatch",
           (unsigned long long)values);
  assert_string_equal(err.message, expect);
  pomp_report_selection all = {-1, 1, -1, 1};
  assert_int_equal(pomp_report_location_values(r, &all, acc, &err), POMP_REPORT_ERR_FORMAT);
  assert_true(pomp_report_value(r, 0, 0, 0) == 0.0);
  assert_true(pomp_report_value(r, 0, 0, 0) == 0.0); /* never marked checked */
  assert_true(pomp_report_value(r, 1, 1, 0) == 4.0);
  /* the other rows decode */
  assert_int_equal(pomp_report_row_add(r, 1, 1, acc, &err), 1);
  pomp_report_free(r);
  free(b);
}

static void every_truncation_is_an_error(void **state) {
  (void)state;
  size_t size;
  unsigned char *b = fixture_bytes(&size);
  for (size_t n = 0; n < size; n++)
    if (load_fails_cleanly(b, n)) fail_msg("truncated at %zu: accepted", n);
  /* and the intact file loads */
  assert_int_equal(load_fails_cleanly(b, size), 1);
  free(b);
}

static void every_corrupted_byte_is_an_error(void **state) {
  (void)state;
  size_t size;
  unsigned char *b = fixture_bytes(&size);
  for (size_t i = 0; i < size; i++) {
    for (int flip = 0x01; flip <= 0x80; flip <<= 7) { /* 0x01 and 0x80 */
      b[i] ^= (unsigned char)flip;
      if (load_fails_cleanly(b, size)) fail_msg("byte %zu ^ 0x%02x: accepted", i, flip);
      b[i] ^= (unsigned char)flip;
    }
  }
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fixture_round_trips),
      cmocka_unit_test(smallest_encoding_is_chosen),
      cmocka_unit_test(random_values_round_trip_bit_exact),
      cmocka_unit_test(single_values_read_in_place),
      cmocka_unit_test(negative_zero_kept_positive_zero_dropped),
      cmocka_unit_test(streaming_writer_sorts_and_checks),
      cmocka_unit_test(open_errors_name_file_and_offset),
      cmocka_unit_test(special_files_refused_without_blocking),
      cmocka_unit_test(special_files_not_written_over),
      cmocka_unit_test(damaged_row_reported_on_decode),
      cmocka_unit_test(every_truncation_is_an_error),
      cmocka_unit_test(every_corrupted_byte_is_an_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
