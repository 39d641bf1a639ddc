/* test_measure_loops.c -- loops as regions (pomp-opari --loops): every
   way out of a loop (return, break, goto out of two loops) leaves its
   region, so Enter and Leave counts are exact; loop regions have role
   LOOP and paradigm USER; a frequent short loop is throttled like a
   function (POMP_THROTTLE). */
#include <otf2/otf2.h>

#include "measure_test.h"

typedef struct {
  const char *name;
  size_t executions;
} loop_count;

static void expect_loops(const tr_location *l, const loop_count *want, size_t n) {
  char line[128];
  for (size_t i = 0; i < n; i++) {
    snprintf(line, sizeof line, "Enter %s", want[i].name);
    assert_int_equal(tr_count(l, line), want[i].executions);
    snprintf(line, sizeof line, "Leave %s", want[i].name);
    assert_int_equal(tr_count(l, line), want[i].executions);
  }
}

static void test_every_way_out_of_a_loop_leaves_its_region(void **state) {
  (void)state;
  sc_result r;
  tr_trace t;
  mt_run("sc_loops", "loops_exits", NULL, NULL, "find 103 nest 13\n50\n", &r, &t);
  const loop_count want[] = {{"loop @sc_loops.c:17", 1}, /* left by return */
                             {"loop @sc_loops.c:26", 1}, /* goto out of two loops */
                             {"loop @sc_loops.c:27", 3}, /* break twice, then the goto */
                             {"loop @sc_loops.c:40", 50},
                             {"loop @sc_loops.c:55", 1}};
  expect_loops(&t.locs[0], want, sizeof want / sizeof want[0]);
  size_t loops = 0;
  for (size_t i = 0; i < t.nregions; i++) {
    if (strncmp(t.regions[i].name, "loop @", 6) != 0) continue;
    loops++;
    assert_int_equal(t.regions[i].role, OTF2_REGION_ROLE_LOOP);
    assert_int_equal(t.regions[i].paradigm, OTF2_PARADIGM_USER);
  }
  assert_int_equal(loops, 5);
  tr_free(&t);
}

static void test_a_frequent_short_loop_is_throttled(void **state) {
  (void)state;
  const char *envs[] = {"POMP_THROTTLE=10,500", NULL};
  sc_result r;
  tr_trace t;
  mt_run("sc_loops", "loops_throttled", NULL, envs, "find 103 nest 13\n50\n", &r, &t);
  const loop_count want[] = {{"loop @sc_loops.c:27", 3}, {"loop @sc_loops.c:40", 10}};
  expect_loops(&t.locs[0], want, sizeof want / sizeof want[0]);
  assert_non_null(strstr(sc_file(r.dir, "throttled.txt"), "\n0\t10\t40\tloop @sc_loops.c:40\n"));
  assert_non_null(strstr(r.err, "libpomp: 0 functions and 1 loop switched off (POMP_THROTTLE: 10 "
                                "calls of under 500 us each), 40 calls not recorded: "
                                "loop @sc_loops.c:40 (40 calls not recorded)\n"));
  assert_non_null(strstr(sc_file(r.dir, "measure.log"),
                         "throttled: loop @sc_loops.c:40: 10 calls recorded, then 40 not "
                         "recorded\n"));
  tr_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_way_out_of_a_loop_leaves_its_region),
      cmocka_unit_test(test_a_frequent_short_loop_is_throttled),
  };
  return cmocka_run_group_tests(tests, NULL, mt_teardown);
}
