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

/* Valid sequences are kept, every byte outside one becomes U+FFFD:
   Latin-1, a lone continuation, overlong forms, surrogates, > U+10FFFF,
   a sequence cut by the end of the string. */
static void utf8_valid_replaces_each_bad_byte(void **state) {
  (void)state;
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"},
      {"caf\xe9.c", "caf\xef\xbf\xbd.c"},
      {"\x80x", "\xef\xbf\xbdx"},
      {"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"},
      {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
      {"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
      {"a\xe2\x82", "a\xef\xbf\xbd\xef\xbf\xbd"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *v = pu_utf8_valid(cases[i].in);
    assert_string_equal(v, cases[i].out);
    free(v);
  }
}

/* The text of v seconds, by pu_format_seconds. */
static const char *seconds_text(double v) {
  static char buf[32];
  pu_format_seconds(buf, sizeof buf, v);
  return buf;
}

/* Three significant digits in the largest unit the value reaches; what
   rounds to 1.00 of a unit is written in it; above five digits, %.1e. */
static void seconds_in_the_unit_they_reach(void **state) {
  (void)state;
  assert_string_equal(seconds_text(9.52467), "9.52 s");
  assert_string_equal(seconds_text(0.000394109), "394 µs");
  assert_string_equal(seconds_text(0.0125), "12.5 ms");
  assert_string_equal(seconds_text(-0.75), "-750 ms");
  assert_string_equal(seconds_text(2e-9), "2.00 ns");
  assert_string_equal(seconds_text(1e-12), "0.00 ns");
  assert_string_equal(seconds_text(0.9996), "1.00 s");
  assert_string_equal(seconds_text(0.9994), "999 ms");
  assert_string_equal(seconds_text(120), "120 s");
  assert_string_equal(seconds_text(99999.5), "1.0e+05");
  assert_string_equal(seconds_text(0), "0 s");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(utf8_valid_replaces_each_bad_byte),
      cmocka_unit_test(progname_strips_directories),
      cmocka_unit_test(push_grows_and_keeps_order),
      cmocka_unit_test(strdup_copies),
      cmocka_unit_test(seconds_in_the_unit_they_reach),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
