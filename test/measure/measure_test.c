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

size_t mt_expect_cycle_past_flushes(const tr_trace *t, const tr_location *l,
                                    const char *const *cycle, size_t n, long times,
                                    size_t moved_from) {
  size_t at = 0, moved = 0;
  long done = 0;
  uint64_t flush_end = 0;
  int after_flush = 0;
  for (size_t i = 0; i < l->nevents; i++) {
    const char *e = l->lines[i];
    uint64_t time = t->events[l->at[i]].time;
    if (!strcmp(e, "BufferFlush") || !strcmp(e, "Enter TRACE BUFFER FLUSH")) continue;
    if (!strcmp(e, "Leave TRACE BUFFER FLUSH")) {
      assert_string_equal(l->lines[i - 1], "Enter TRACE BUFFER FLUSH");
      flush_end = time;
      after_flush = 1;
      continue;
    }
    assert_string_equal(e, cycle[at]);
    if (after_flush && at >= moved_from) {
      moved++;
      assert_int_equal(time, flush_end);
    }
    after_flush = 0;
    if (++at == n) at = 0, done++;
  }
  assert_int_equal(done, times);
  assert_int_equal(at, 0);
  return moved;
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
