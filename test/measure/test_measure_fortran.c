/* test_measure_fortran.c -- Fortran programs read back from the trace:
   gfortran's mangled user-function names (module procedures, the main
   program: "program" under -finstrument-functions, its own name through
   the GCC plugin) in the Fortran programmer's spelling, and lock calls
   instrumented by pomp-opari, omp_test_lock's acquisition included. */
#include "measure_test.h"

static void test_fortran_names(void **state) {
  (void)state;
  mt_expect_single_location("sc_fortran", "fortran", "8\n",
                            "Enter main\n"
                            "Enter program\n"
                            "Enter sc_geometry::volume\n"
                            "Leave sc_geometry::volume\n"
                            "Leave program\n"
                            "Leave main\n");
}

#ifdef POMP_TEST_GCC_PLUGIN
/* Built by pomp's GCC plugin, the main program is named as Score-P's
   plugin names it, "sc_fortran" (POMP_Fortran_program); volume, a
   straight-line leaf, is not instrumented there (gccplugin/README.md). */
static void test_fortran_names_plugin(void **state) {
  (void)state;
  mt_expect_single_location("sc_fortran_plugin", "fortran_plugin", "8\n",
                            "Enter main\n"
                            "Enter sc_fortran\n"
                            "Leave sc_fortran\n"
                            "Leave main\n");
}
#endif

/* omp_test_lock keeps its name in the source: the companion's
   omp_test_lock_ records it.  Lock id, then acquisition order (each lock
   is acquired once); the nested test only counts. Prints depth 1 + 2. */
static void test_fortran_locks(void **state) {
  (void)state;
  mt_expect_single_location("sc_flock", "flock", "3\n",
                            "Enter omp_init_lock\n"
                            "Leave omp_init_lock\n"
                            "Enter omp_test_lock\n"
                            "ThreadAcquireLock 0 1\n"
                            "Leave omp_test_lock\n"
                            "Enter omp_unset_lock\n"
                            "ThreadReleaseLock 0 1\n"
                            "Leave omp_unset_lock\n"
                            "Enter omp_destroy_lock\n"
                            "Leave omp_destroy_lock\n"
                            "Enter omp_init_nest_lock\n"
                            "Leave omp_init_nest_lock\n"
                            "Enter omp_test_nest_lock\n"
                            "ThreadAcquireLock 1 1\n"
                            "Leave omp_test_nest_lock\n"
                            "Enter omp_test_nest_lock\n"
                            "Leave omp_test_nest_lock\n"
                            "Enter omp_unset_nest_lock\n"
                            "Leave omp_unset_nest_lock\n"
                            "Enter omp_unset_nest_lock\n"
                            "ThreadReleaseLock 1 1\n"
                            "Leave omp_unset_nest_lock\n"
                            "Enter omp_destroy_nest_lock\n"
                            "Leave omp_destroy_nest_lock\n");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fortran_names),
#ifdef POMP_TEST_GCC_PLUGIN
      cmocka_unit_test(test_fortran_names_plugin),
#endif
      cmocka_unit_test(test_fortran_locks),
  };
  return cmocka_run_group_tests(tests, NULL, mt_teardown);
}
