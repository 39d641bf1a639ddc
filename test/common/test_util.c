/* Unit tests of the internal helper library. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

static void progname_strips_directories(void **state) {
  (void)state;
  pu_set_progname("/usr/local/bin/pomp-report");
  assert_string_equal(pu_progname(), "pomp-report");
  pu_set_progname("");
  assert_string_equal(pu_progname(), "pomp-report");
}

static void push_grows_and_keeps_order(void **state) {
  (void)state;
  int *a = NULL;
  size_t len = 0, cap = 0;
  for (int i = 0; i < 1000; i++) PU_PUSH(a, len, cap, i * 3);
  assert_int_equal(len, 1000);
  assert_true(cap >= 1000);
  for (int i = 0; i < 1000; i++) assert_int_equal(a[i], i * 3);
  free(a);
}

static void strdup_copies(void **state) {
  (void)state;
  const char *s = "late sender";
  char *d = pu_strdup(s);
  assert_ptr_not_equal(d, s);
  assert_string_equal(d, s);
  free(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(progname_strips_directories),
      cmocka_unit_test(push_grows_and_keeps_order),
      cmocka_unit_test(strdup_copies),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
