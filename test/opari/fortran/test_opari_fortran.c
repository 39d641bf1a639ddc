/* Unit tests of opari_fortran() on in-memory units: what is rejected (and
   that rejection frees everything: these run under ASan), and small exact
   rewrites of the lexical corner cases (CRLF, tab-format and column-72
   fixed form, strings continued over lines, no final newline). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opari.h"
#include "../read_back.h"

/* Instruments src (fixed or free form, no marks); *out and *companion get
   the outputs (to free). */
static bool instrument(const char *src, bool fixed, unsigned disabled, char **out,
                       char **companion) {
  FILE *f = tmpfile(), *c = tmpfile();
  opari_options opt = {.file_name = "t.f", .line_name = "t.f", .quiet = true, .nosrc = true,
                      .fixed_form = fixed, .unit_id = 0xab, .disabled = disabled};
  bool ok = opari_fortran(src, strlen(src), f, c, &opt);
  *out = read_back(f);
  *companion = read_back(c);
  return ok;
}

static void expect(const char *src, bool fixed, const char *want) {
  char *out, *comp;
  assert_true(instrument(src, fixed, 0, &out, &comp));
  assert_string_equal(out, want);
  free(out);
  free(comp);
}

static void rejects_bad_units(void **state) {
  (void)state;
  static const char *const bad[] = {
      "!$omp parallel\n",                           /* never closed */
      "!$omp end parallel\n",                       /* nothing open */
      "!$omp parallel\n!$omp end do\n",             /* mismatch */
      "!$omp do\nx = 1\n",                          /* no loop */
      "!$omp do\ndo i = 1, 2\n",                    /* no END DO */
      "!$omp parallel &\nx = 1\n",                  /* continuation lost */
      "!$omp parallel private(x\n!$omp end parallel\n", /* parenthesis */
      "!$omp section\n",                            /* outside sections */
      "!$omp atomic\n",                             /* no statement */
      "!$pomp inst begin(a)\n",                     /* region never ended */
      "!$pomp inst end(a)\n",                       /* region never begun */
      "!$pomp inst frobnicate\n",                   /* unknown */
      "!$omp critical (\n",                         /* parenthesis */
      "!$omp end barrier\n",                        /* no END for it */
      "!$omp parallel\n!$omp end taskwait\n!$omp end parallel\n",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *out, *comp;
    if (instrument(bad[i], false, 0, &out, &comp)) fail_msg("accepted: %s", bad[i]);
    free(out);
    free(comp);
  }
  char *out, *comp;
  assert_false(instrument("C$OMP PARALLEL DO\n      DO 10 I = 1, 2\n   20 CONTINUE\n", true, 0,
                          &out, &comp));
  free(out);
  free(comp);
}

static void empty_unit_registers_nothing(void **state) {
  (void)state;
  char *out, *comp;
  assert_true(instrument("", false, 0, &out, &comp));
  assert_string_equal(out, "");
  assert_non_null(strstr(comp, "POMP_Register(pomp_rd, 0); }\n"));
  assert_null(strstr(comp, "pomp_000000ab_"));
  free(out);
  free(comp);
}

/* The companion names the main program (POMP_Fortran_program) as gfortran
   lowers it, `program main` too (gfortran calls it MAIN__ as any other:
   only the source tells it is "main"); not a fixed-form assignment to a
   variable named program..., not END PROGRAM. */
static void main_program_named_in_the_companion(void **state) {
  (void)state;
  static const struct {
    const char *src;
    bool fixed;
    const char *name; /* NULL: none */
  } cases[] = {{"program Heat_F ! the solver\nend program heat_f\n", false, "heat_f"},
               {"  10 program x2\nend\n", false, "x2"},
               {"      PROGRAM  HEAT F\n      END\n", true, "heatf"},
               {"      PROGRAMX = 1\n      END\n", true, NULL},
               {"program main\nend program main\n", false, "main"},
               {"      PROGRAM MAIN\n      END\n", true, "main"},
               {"programx = 1\nend\n", false, NULL},
               {"subroutine s\nend subroutine s\n", false, NULL}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *out, *comp, want[128] = "";
    assert_true(instrument(cases[i].src, cases[i].fixed, 0, &out, &comp));
    if (cases[i].name)
      snprintf(want, sizeof want, "{ POMP_Fortran_program(\"%s\"); }\n", cases[i].name);
    if (cases[i].name && !strstr(comp, want)) fail_msg("%s: no %s", cases[i].src, want);
    if (!cases[i].name && strstr(comp, "POMP_Fortran_program"))
      fail_msg("%s: named a program", cases[i].src);
    free(out);
    free(comp);
  }
}

static void crlf_and_no_final_newline(void **state) {
  (void)state;
  expect("!$OMP BARRIER\r\nx = 1", false,
         "call pomp_000000ab_barrier_enter(0)\n!$OMP BARRIER\r\n"
         "call pomp_000000ab_barrier_exit(0)\nx = 1");
  expect("!$omp barrier", false,
         "call pomp_000000ab_barrier_enter(0)\n!$omp barrier\ncall pomp_000000ab_barrier_exit(0)\n");
}

static void strings_continued_over_lines(void **state) {
  (void)state;
  /* the second line is inside the string: no directive, no lock call */
  const char *src = "s = 'a&\n!$omp barrier &\n&b'\ncall omp_set_lock(l)\n";
  expect(src, false, "s = 'a&\n!$omp barrier &\n&b'\ncall pomp_setlock(l)\n");
}

static void fixed_form_columns(void **state) {
  (void)state;
  /* tab-format continuation; text after column 72 is a comment */
  expect("C$OMP PARALLEL\n\tX = 1 +\n\t12\n"
         "C$OMP END PARALLEL                                                      NOWAIT\n",
         true,
         "      call pomp_000000ab_parallel_fork(0)\nC$OMP PARALLEL\n"
         "      call pomp_000000ab_parallel_begin(0)\n\tX = 1 +\n\t12\n"
         "      call pomp_000000ab_join_barrier_enter(0)\n"
         "      call pomp_000000ab_parallel_end(0)\n"
         "C$OMP END PARALLEL                                                      NOWAIT\n"
         "      call pomp_000000ab_parallel_join(0)\n");
}

/* A parallel region runs one barrier, the join's: END PARALLEL DO and
   the like get no explicit barrier, the DO half gets NOWAIT. */
static void parallel_region_runs_one_barrier(void **state) {
  (void)state;
  expect("!$omp parallel do\ndo i = 1, n\nend do\n!$omp end parallel do\n", false,
         "call pomp_000000ab_parallel_fork(0)\n!$omp parallel\n"
         "call pomp_000000ab_parallel_begin(0)\ncall pomp_000000ab_do_enter(0)\n!$omp do\n"
         "do i = 1, n\nend do\n!$omp end do nowait\ncall pomp_000000ab_join_barrier_enter(0)\n"
         "call pomp_000000ab_do_exit(0)\ncall pomp_000000ab_parallel_end(0)\n"
         "!$omp end parallel\ncall pomp_000000ab_parallel_join(0)\n");
  static const char *const one_region[] = {
      "!$omp parallel\nx = 1\n!$omp end parallel\n",
      "!$omp parallel sections\nx = 1\n!$omp end parallel sections\n",
      "!$omp parallel workshare\na = 1\n!$omp end parallel workshare\n",
      "!$omp parallel do\ndo i = 1, n\nend do\n", /* no END directive */
  };
  for (size_t i = 0; i < sizeof one_region / sizeof *one_region; i++) {
    char *out, *comp;
    assert_true(instrument(one_region[i], false, 0, &out, &comp));
    assert_null(strstr(out, "!$omp barrier"));
    assert_null(strstr(out, "barrier_exit"));
    const char *j = strstr(out, "join_barrier_enter(0)");
    assert_non_null(j);
    assert_null(strstr(j + 1, "join_barrier_enter"));
    free(out);
    free(comp);
  }
}

static void conditional_compilation_lines_are_code(void **state) {
  (void)state;
  expect("C$    CALL OMP_SET_LOCK(L)\nC$Id: not code\n*$ 1  CALL OMP_UNSET_LOCK(L)\n", true,
         "C$    CALL pomp_setlock(L)\nC$Id: not code\n*$ 1  CALL pomp_unsetlock(L)\n");
  /* `!` as continuation mark in column 6 is no comment */
  expect("      CALL F(1,\n     !2); CALL OMP_SET_LOCK(L)\n", true,
         "      CALL F(1,\n     !2); CALL pomp_setlock(L)\n");
  expect("  !$ call omp_set_lock(l)\n!$call omp_set_lock(l)\n", false,
         "  !$ call pomp_setlock(l)\n!$call omp_set_lock(l)\n");
}

static void fixed_form_sequence_numbers(void **state) {
  (void)state;
  /* columns 73-80 hold card sequence numbers: not part of END DO */
  expect("C$OMP DO                                                                00000010\n"
         "      DO I = 1, 2                                                       00000020\n"
         "      END DO                                                            00000030\n"
         "C$OMP END DO                                                            00000040\n",
         true,
         "      call pomp_000000ab_do_enter(0)\n"
         "C$OMP DO                                                                00000010\n"
         "      DO I = 1, 2                                                       00000020\n"
         "      END DO                                                            00000030\n"
         "!$omp end do nowait\n      call pomp_000000ab_barrier_enter(0)\n!$omp barrier\n"
         "      call pomp_000000ab_barrier_exit(0)\n      call pomp_000000ab_do_exit(0)\n");
}

static void directives_in_comments_are_not_seen(void **state) {
  (void)state;
  expect("x = 1 ! !$omp barrier\n  ! !$omp barrier\n!$omx barrier\n", false,
         "x = 1 ! !$omp barrier\n  ! !$omp barrier\n!$omx barrier\n");
  expect("C !$OMP BARRIER\n      X = 1 ! !$OMP BARRIER\n", true,
         "C !$OMP BARRIER\n      X = 1 ! !$OMP BARRIER\n");
}

static void long_region_names_match(void **state) {
  (void)state;
  const char *src = "!$pomp inst begin(a_region_name_longer_than_forty_characters_x)\n"
                    "!$pomp inst end(A_REGION_NAME_LONGER_THAN_FORTY_CHARACTERS_X)\n";
  expect(src, false,
         "!$pomp inst begin(a_region_name_longer_than_forty_characters_x)\n"
         "call pomp_000000ab_begin(0)\ncall pomp_000000ab_end(0)\n"
         "!$pomp inst end(A_REGION_NAME_LONGER_THAN_FORTY_CHARACTERS_X)\n");
  char *out, *comp;
  assert_false(instrument("!$pomp inst begin(a_region_name_longer_than_forty_characters_x)\n"
                          "!$pomp inst end(a_region_name_longer_than_forty_characters_y)\n",
                          false, 0, &out, &comp));
  free(out);
  free(comp);
}

static void disabled_locks_and_regions(void **state) {
  (void)state;
  char *out, *comp;
  const char *src = "!$pomp inst begin(r)\ncall omp_set_lock(l)\n!$pomp inst end(r)\n";
  assert_true(instrument(src, false, 1u << 12 | 1u << 13, &out, &comp));
  assert_string_equal(out, src);
  free(out);
  free(comp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rejects_bad_units),
      cmocka_unit_test(empty_unit_registers_nothing),
      cmocka_unit_test(main_program_named_in_the_companion),
      cmocka_unit_test(crlf_and_no_final_newline),
      cmocka_unit_test(strings_continued_over_lines),
      cmocka_unit_test(fixed_form_columns),
      cmocka_unit_test(parallel_region_runs_one_barrier),
      cmocka_unit_test(conditional_compilation_lines_are_code),
      cmocka_unit_test(fixed_form_sequence_numbers),
      cmocka_unit_test(directives_in_comments_are_not_seen),
      cmocka_unit_test(long_region_names_match),
      cmocka_unit_test(disabled_locks_and_regions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
