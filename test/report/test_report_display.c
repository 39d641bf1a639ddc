/* Unit tests of the display helpers the viewers share (report_display.c):
   region labels, call paths cut at the root end, the perturbation share
   and its warning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "fixture.h"

static const char *label_of(pomp_report *r, const char *name, const char *paradigm) {
  static char buf[256];
  int32_t g = pomp_report_add_region(r, name, "", 0, 0, paradigm, "function");
  pomp_report_region_label(r, g, buf, sizeof buf);
  return buf;
}

static void function_labels_drop_parameter_lists(void **state) {
  (void)state;
  pomp_report *r = pomp_report_new();
  assert_string_equal(label_of(r, "Domain::x(int)", "compiler"), "Domain::x");
  assert_string_equal(label_of(r, "Vec<double>::at(unsigned long) const &", "compiler"),
                      "Vec<double>::at");
  assert_string_equal(label_of(r, "Functor::operator()(int, double)", "compiler"),
                      "Functor::operator()");
  assert_string_equal(label_of(r, "(anonymous namespace)::f(void (*)(int))", "compiler"),
                      "(anonymous namespace)::f");
  assert_string_equal(label_of(r, "solver::step", "compiler"), "solver::step");
  assert_string_equal(label_of(r, "loop(x)", "user"), "loop");
  /* not functions: names as they are */
  assert_string_equal(label_of(r, "!$omp critical (lock) @a.c:3", "openmp"),
                      "!$omp critical (lock) @a.c:3");
  assert_string_equal(label_of(r, "(broken", "compiler"), "(broken");
  assert_string_equal(label_of(r, "(int)", "compiler"), "(int)");
  pomp_report_free(r);
}

static void static_initialisers_are_named(void **state) {
  (void)state;
  pomp_report *r = pomp_report_new();
  assert_string_equal(label_of(r, "_GLOBAL__sub_I_lulesh.cc", "compiler"),
                      "static init (lulesh.cc)");
  assert_string_equal(label_of(r, "_GLOBAL__sub_I__Z14CalcElemVolumePKdS0_S0_", "compiler"),
                      "static init (file of CalcElemVolume)");
  assert_string_equal(label_of(r, "_GLOBAL__sub_I__ZN6Domain1xEi", "compiler"),
                      "static init (file of Domain::x)");
  assert_string_equal(label_of(r, "_GLOBAL__sub_I__Z99x", "compiler"),
                      "static init (_Z99x)");
  assert_string_equal(label_of(r, "_GLOBAL__sub_I__ZN6Domain", "compiler"),
                      "static init (_ZN6Domain)");
  assert_string_equal(
      label_of(r, "__static_initialization_and_destruction_0(int, int)", "compiler"),
      "static init");
  int32_t g = pomp_report_add_region(r, "_GLOBAL__sub_I_x", "/src/app/grid.cc", 1, 9,
                                     "compiler", "function");
  char buf[64];
  pomp_report_region_label(r, g, buf, sizeof buf);
  assert_string_equal(buf, "static init (grid.cc)");
  assert_true(pomp_report_is_static_init(r, 0));
  assert_true(pomp_report_is_static_init(r, 5));
  assert_false(pomp_report_is_static_init(r, 99));
  assert_string_equal(label_of(r, "main", "compiler"), "main");
  assert_false(pomp_report_is_static_init(r, 7));
  pomp_report_free(r);
}

static void long_call_paths_keep_their_leaf(void **state) {
  (void)state;
  pomp_report *r = fixture_new(); /* main;solve;MPI_Recv = cnode 2 */
  char buf[64];
  size_t n = pomp_report_callpath_label(r, 2, ";", 100, buf, sizeof buf);
  assert_string_equal(buf, "main;solve;MPI_Recv");
  assert_int_equal(n, 19);
  pomp_report_callpath_label(r, 2, ";", 18, buf, sizeof buf);
  assert_string_equal(buf, "...;solve;MPI_Recv");
  pomp_report_callpath_label(r, 2, ";", 17, buf, sizeof buf);
  assert_string_equal(buf, "...;MPI_Recv");
  pomp_report_callpath_label(r, 2, ";", 6, buf, sizeof buf);
  assert_string_equal(buf, "...ecv");
  /* the needed length like snprintf, whatever the buffer */
  assert_int_equal(pomp_report_callpath_label(r, 2, " > ", 100, buf, 5), 23);
  assert_string_equal(buf, "main");
  pomp_report_free(r);
}

static void perturbation_warns_above_five_percent(void **state) {
  (void)state;
  pomp_report *r = fixture_new(); /* 15.625 s of time in all */
  char text[256];
  assert_true(pomp_report_measurement_share(r) == 0);
  assert_int_equal(pomp_report_perturbation_warning(r, text, sizeof text), 0);
  assert_string_equal(text, "");
  int32_t flush = pomp_report_add_region(r, "TRACE BUFFER FLUSH", "", 0, 0, "measurement",
                                         "artificial");
  int32_t c = pomp_report_add_cnode(r, flush, 1);
  /* 4.9 % is not above the limit */
  pomp_report_add_value(r, 0, c, 0, 0.8);
  assert_true(pomp_report_measurement_share(r) == 0.8 / 16.425);
  assert_int_equal(pomp_report_perturbation_warning(r, text, sizeof text), 0);
  pomp_report_add_value(r, 0, c, 1, 1.2); /* 2 of 17.625 s */
  assert_int_equal(pomp_report_perturbation_warning(r, text, sizeof text), 1);
  assert_string_equal(text, "measurement perturbation: 11.3 % of the time is trace buffer "
                            "flushes; see pomp-report score / POMP_FILTER");
  pomp_report_free(r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(function_labels_drop_parameter_lists),
      cmocka_unit_test(static_initialisers_are_named),
      cmocka_unit_test(long_call_paths_keep_their_leaf),
      cmocka_unit_test(perturbation_warns_above_five_percent),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
