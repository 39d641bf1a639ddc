/* Unit tests of the string -> id map used for metric names, attributes and
   the diff's matching. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>

#include "report_strmap.h"

static void put_get_replace_grow(void **state) {
  (void)state;
  report_strmap m = {0};
  assert_int_equal(report_strmap_get(&m, "time"), -1);
  char key[32];
  for (int i = 0; i < 5000; i++) {
    snprintf(key, sizeof key, "metric_%d", i);
    report_strmap_put(&m, key, i);
  }
  assert_int_equal(m.count, 5000);
  assert_true(m.nslots >= 10000);
  for (int i = 0; i < 5000; i++) {
    snprintf(key, sizeof key, "metric_%d", i);
    assert_int_equal(report_strmap_get(&m, key), i);
  }
  assert_int_equal(report_strmap_get(&m, "metric_5000"), -1);
  assert_int_equal(report_strmap_get(&m, ""), -1);
  report_strmap_put(&m, "metric_7", 70);
  assert_int_equal(report_strmap_get(&m, "metric_7"), 70);
  assert_int_equal(m.count, 5000);
  report_strmap_put(&m, "", 3);
  assert_int_equal(report_strmap_get(&m, ""), 3);
  report_strmap_free(&m);
  assert_int_equal(report_strmap_get(&m, "metric_7"), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(put_get_replace_grow)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
