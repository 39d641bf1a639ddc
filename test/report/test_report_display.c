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

/* Region name, paradigm, the label summaries show. */
static const struct {
  const char *name, *paradigm, *label;
} labels[] = {
    {"Domain::x(int)", "compiler", "Domain::x"},
    {"Vec<double>::at(unsigned long) const &", "compiler", "Vec<double>::at"},
    {"Functor::operator()(int, double)", "compiler", "Functor::operator()"},
    {"(anonymous namespace)::f(void (*)(int))", "compiler", "(anonymous namespace)::f"},
    {"solver::step", "compiler", "solver::step"},
    {"loop(x)", "user", "loop"},
    /* not functions: names as they are */
    {"!$omp critical (lock) @a.c:3", "openmp", "!$omp critical (lock) @a.c:3"},
    {"(broken", "compiler", "(broken"},
    {"(int)", "compiler", "(int)"},
    /* GCC's static initialisers, keyed by a file or a mangled function */
    {"_GLOBAL__sub_I_lulesh.cc", "compiler", "static init (lulesh.cc)"},
    {"_GLOBAL__sub_I__Z14CalcElemVolumePKdS0_S0_", "compiler",
     "static init (file of CalcElemVolume)"},
    {"_GLOBAL__sub_I__ZN6Domain1xEi", "compiler", "static init (file of Domain::x)"},
    {"_GLOBAL__sub_I__Z99x", "compiler", "static init (_Z99x)"},
    {"_GLOBAL__sub_I__ZN6Domain", "compiler", "static init (_ZN6Domain)"},
    {"__static_initialization_and_destruction_0(int, int)", "compiler", "static init"},
};

static void regions_are_labelled_for_summaries(void **state) {
  (void)state;
  pomp_report *r = pomp_report_new();
  char buf[256];
  for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
    int32_t g = pomp_report_add_region(r, labels[i].name, "", 0, 0, labels[i].paradigm, "function");
    pomp_report_region_label(r, g, buf, sizeof buf);
    assert_string_equal(buf, labels[i].label);
    assert_int_equal(pomp_report_is_static_init(r, g),
                     strncmp(labels[i].label, "static init", 11) == 0);
  }
  assert_false(pomp_report_is_static_init(r, 99));
  /* a static initialiser whose source file is known is named after it */
  int32_t g = pomp_report_add_region(r, "_GLOBAL__sub_I_x", "/src/app/grid.cc", 1, 9, "compiler",
                                     "function");
  pomp_report_region_label(r, g, buf, sizeof buf);
  assert_string_equal(buf, "static init (grid.cc)");
  pomp_report_free(r);
}

static void user_loops_are_loops_and_openmp_loops_are_not(void **state) {
  (void)state;
  pomp_report *r = pomp_report_new();
  int32_t loop = pomp_report_add_region(r, "loop @heat.c:118", "heat.c", 118, 130, "user", "loop");
  int32_t omp_for =
      pomp_report_add_region(r, "!$omp for @heat.c:96", "heat.c", 96, 102, "openmp", "loop");
  int32_t fn = pomp_report_add_region(r, "solve", "heat.c", 1, 9, "compiler", "function");
  assert_true(pomp_report_is_loop(r, loop));
  assert_false(pomp_report_is_loop(r, omp_for));
  assert_false(pomp_report_is_loop(r, fn));
  assert_false(pomp_report_is_loop(r, 99));
  char buf[64];
  pomp_report_region_label(r, loop, buf, sizeof buf);
  assert_string_equal(buf, "loop @heat.c:118");
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
  int32_t flush =
      pomp_report_add_region(r, "TRACE BUFFER FLUSH", "", 0, 0, "measurement", "artificial");
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
      cmocka_unit_test(regions_are_labelled_for_summaries),
      cmocka_unit_test(user_loops_are_loops_and_openmp_loops_are_not),
      cmocka_unit_test(long_call_paths_keep_their_leaf),
      cmocka_unit_test(perturbation_warns_above_five_percent),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
