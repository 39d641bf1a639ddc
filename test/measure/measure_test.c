/* measure_test.c -- see measure_test.h. */
#include "measure_test.h"

void mt_read_ok(const sc_result *r, tr_trace *t) {
  if (!WIFEXITED(r->status) || WEXITSTATUS(r->status) != 0) fprintf(stderr, "%s", r->err);
  assert_true(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0);
  assert_int_equal(tr_read(r->trace, t, TR_LINES), 0);
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

const char *mt_filter_env(const char *name, const char *rules) {
  static char env[700];
  snprintf(env, sizeof env, "POMP_FILTER=%s", mt_write_file(name, rules));
  return env;
}

int mt_teardown(void **state) {
  (void)state;
  sc_cleanup();
  return 0;
}

void mt_run(const char *scenario, const char *tag, const char *const *args, const char *const *env,
            const char *out, sc_result *r, tr_trace *t) {
  sc_run(scenario, tag, args, env, r);
  if (out) assert_string_equal(r->out, out);
  mt_read_ok(r, t);
}

void mt_expect_events(const tr_location *l, const char *events) {
  char *all = tr_join(l, 0, SIZE_MAX);
  assert_string_equal(all, events);
  free(all);
}

void mt_expect_single_location(const char *scenario, const char *tag, const char *out,
                               const char *events) {
  sc_result r;
  tr_trace t;
  mt_run(scenario, tag, NULL, NULL, out, &r, &t);
  assert_int_equal(t.nlocs, 1);
  mt_expect_events(&t.locs[0], events);
  tr_free(&t);
}
