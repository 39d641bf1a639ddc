/* Unit tests of the synthetic-report generator: deterministic bytes, the
   requested sizes, a plausible shape and consistent values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

static unsigned char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  rewind(f);
  unsigned char *b = malloc(*size + 1);
  assert_int_equal(fread(b, 1, *size, f), *size);
  fclose(f);
  return b;
}

static const pomp_report_synth params = {300, 30, 4, 34, 0.1, 42};

static pomp_report *generate(const pomp_report_synth *p, char **path) {
  *path = fixture_tmpname("gen");
  pomp_report_error err;
  assert_int_equal(pomp_report_generate(p, *path, &err), POMP_REPORT_OK);
  pomp_report *r = pomp_report_open(*path, &err);
  if (!r) fail_msg("%s", err.message);
  return r;
}

static void same_parameters_same_bytes(void **state) {
  (void)state;
  char *p1, *p2;
  pomp_report_free(generate(&params, &p1));
  pomp_report_free(generate(&params, &p2));
  size_t n1, n2;
  unsigned char *b1 = slurp(p1, &n1), *b2 = slurp(p2, &n2);
  assert_int_equal(n1, n2);
  assert_memory_equal(b1, b2, n1);
  free(b1);
  /* another seed gives another report */
  pomp_report_synth other = params;
  other.seed = 43;
  remove(p2);
  free(p2);
  pomp_report_free(generate(&other, &p2));
  b1 = slurp(p2, &n1);
  assert_true(n1 != n2 || memcmp(b1, b2, n1) != 0);
  free(b1);
  free(b2);
  remove(p1);
  remove(p2);
  free(p1);
  free(p2);
}

static void sizes_and_shape(void **state) {
  (void)state;
  char *path;
  pomp_report *r = generate(&params, &path);
  assert_int_equal(pomp_report_num_cnodes(r), 300);
  assert_int_equal(pomp_report_num_locations(r), 30);
  assert_int_equal(pomp_report_num_metrics(r), 34);
  assert_string_equal(pomp_report_metric(r, 0)->name, "time");
  assert_string_equal(pomp_report_metric(r, 31)->name, "bytes_received");
  assert_string_equal(pomp_report_metric(r, 33)->name, "omp_ordered");
  /* 30 threads in 8 ranks of 4 (the last has 2), 4 ranks per node */
  int kinds[4] = {0};
  for (int32_t i = 0; i < pomp_report_num_sysnodes(r); i++)
    kinds[pomp_report_sysnode(r, i)->kind]++;
  assert_int_equal(kinds[POMP_SYS_MACHINE], 1);
  assert_int_equal(kinds[POMP_SYS_NODE], 2);
  assert_int_equal(kinds[POMP_SYS_PROCESS], 8);
  assert_int_equal(kinds[POMP_SYS_THREAD], 30);
  const pomp_sysnode *last = pomp_report_sysnode(r, pomp_report_location_sysnode(r, 29));
  assert_int_equal(last->rank, 7);
  assert_int_equal(last->thread, 1);
  /* one root "main"; MPI calls are leaves; depth plausible */
  int32_t roots[2];
  assert_int_equal(pomp_report_cnode_children(r, -1, roots, 2), 1);
  assert_string_equal(pomp_report_region(r, pomp_report_cnode(r, 0)->region)->name, "main");
  int max_depth = 0;
  for (int32_t c = 0; c < 300; c++) {
    const pomp_region *g = pomp_report_region(r, pomp_report_cnode(r, c)->region);
    if (strcmp(g->paradigm, "mpi") == 0 || strstr(g->role, "barrier"))
      assert_int_equal(pomp_report_cnode_children(r, c, NULL, 0), 0);
    int depth = 0, parallels = 0;
    for (int32_t p = c; p >= 0; p = pomp_report_cnode(r, p)->parent) {
      depth++;
      parallels +=
          strcmp(pomp_report_region(r, pomp_report_cnode(r, p)->region)->role, "parallel") == 0;
    }
    assert_true(parallels <= 1); /* no parallel region inside another */
    if (depth > max_depth) max_depth = depth;
  }
  assert_true(max_depth >= 4 && max_depth <= 30);
  pomp_report_free(r);
  remove(path);
  free(path);
}

static void values_consistent_and_dense_as_asked(void **state) {
  (void)state;
  char *path;
  pomp_report *r = generate(&params, &path);
  int32_t locs[30];
  double vals[30];
  double cells = 0;
  int32_t late = pomp_report_find_metric(r, "mpi_latesender");
  int32_t visits = pomp_report_find_metric(r, "visits");
  for (int64_t i = 0; i < pomp_report_num_rows(r); i++) {
    int32_t m, c;
    pomp_report_row_at(r, i, &m, &c, NULL, NULL);
    int32_t n = pomp_report_row_get(r, m, c, locs, vals, NULL);
    assert_true(n > 0);
    cells += n;
    for (int32_t k = 0; k < n; k++) {
      assert_true(vals[k] > 0);
      if (m == visits) assert_true(vals[k] == floor(vals[k]));
    }
    if (m == late) {
      const pomp_region *g = pomp_report_region(r, pomp_report_cnode(r, c)->region);
      assert_string_equal(g->paradigm, "mpi");
    }
  }
  double want = 0.1 * 300 * 30 * 34;
  assert_true(cells > 0.8 * want && cells < 1.2 * want);
  /* time = execution + idle, execution = comp + mpi + omp: no own values */
  assert_true(pomp_report_metric_total(r, 0, 0) == 0);
  assert_true(pomp_report_metric_total(r, 1, 0) == 0);
  /* time (inclusive) is at least each of its parts */
  double time = pomp_report_metric_total(r, 0, 1);
  int32_t kids[8];
  int32_t n = pomp_report_metric_children(r, 0, kids, 8);
  assert_int_equal(n, 2);
  assert_true(time >= pomp_report_metric_total(r, kids[0], 1));
  assert_true(time >= pomp_report_metric_total(r, kids[1], 1));
  pomp_report_free(r);
  remove(path);
  free(path);
}

static void bad_parameters_refused(void **state) {
  (void)state;
  pomp_report_synth p = params;
  p.density = 1.5;
  pomp_report_error err;
  assert_int_equal(pomp_report_generate(&p, "/nonexistent/x.pomp", &err), POMP_REPORT_ERR_ARG);
  p = params;
  p.threads = 0;
  assert_int_equal(pomp_report_generate(&p, "/nonexistent/x.pomp", &err), POMP_REPORT_ERR_ARG);
  assert_int_equal(pomp_report_generate(&params, "/nonexistent/x.pomp", &err), POMP_REPORT_ERR_IO);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_parameters_same_bytes),
      cmocka_unit_test(sizes_and_shape),
      cmocka_unit_test(values_consistent_and_dense_as_asked),
      cmocka_unit_test(bad_parameters_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
