/* measure_test.c -- see measure_test.h. */
#include "measure_test.h"

void mt_read_ok(const sc_result *r, tr_trace *t) {
  if (!WIFEXITED(r->status) || WEXITSTATUS(r->status) != 0) fprintf(stderr, "%s", r->err);
  assert_true(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0);
  assert_int_equal(tr_read(r->trace, t), 0);
  for (size_t i = 0; i < t->nlocs; i++) {
    assert_int_equal(t->locs[i].decreasing, 0);
    assert_int_equal(t->locs[i].declared_events, t->locs[i].nevents);
  }
}

const char *mt_write_file(const char *name, const char *text) {
  static char path[600];
  snprintf(path, sizeof path, "%s/%s", sc_tmpdir(), name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  return path;
}

int mt_teardown(void **state) {
  (void)state;
  sc_cleanup();
  return 0;
}
