/* Unit tests of how the Fortran front end reads directive names and
   clauses (opari/f_names.c, issue 22).  Fixed form is blank-insensitive:
   for every construct of the catalogue, the run-together spelling
   (`PARALLELDO`, `SECTIONSPRIVATE(X)`, `ENDSINGLECOPYPRIVATE(X)`) and the
   split one (`PAR ALLEL`) are instrumented exactly as the blanked one:
   the same output byte for byte, once the directive lines that are
   copied from the source are put back to the blanked spelling, and the
   same companion (descriptors, lines, events).  Free form accepts
   directive names run together (OpenMP 5.0 2.1.2: `enddo`, `paralleldo`)
   and rejects keywords run together across a name's end or between
   clauses. */
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

typedef struct {
  const char *what;
  const char *blanked; /* the unit with blanks between keywords */
  const char *variants[3];
} spelling_case;

/* The fixed-form catalogue: every construct, its END form and its clauses. */
static const spelling_case fixed_cases[] = {
    {"parallel",
     "!$OMP PARALLEL PRIVATE(I) SHARED(A) NUM_THREADS(2)\n      A = 1\n!$OMP END PARALLEL\n",
     {"!$OMP PARALLELPRIVATE(I)SHARED(A)NUM_THREADS(2)\n      A = 1\n!$OMP ENDPARALLEL\n",
      "!$OMP PAR ALLEL PRI VATE(I) SHA RED(A) NUM_THR EADS(2)\n      A = 1\n!$OMP E ND PARAL LEL\n"}},
    {"parallel do",
     "!$OMP PARALLEL DO PRIVATE(J) SCHEDULE(STATIC) REDUCTION(+:S)\n      DO I = 1, N\n"
     "         S = S + I\n      END DO\n!$OMP END PARALLEL DO\n",
     {"!$OMP PARALLELDOPRIVATE(J)SCHEDULE(STATIC)REDUCTION(+:S)\n      DO I = 1, N\n"
      "         S = S + I\n      END DO\n!$OMP ENDPARALLELDO\n",
      "!$OMP PA RALLEL D O PRIV ATE(J) SCHED ULE(STATIC) REDUC TION(+:S)\n      DO I = 1, N\n"
      "         S = S + I\n      END DO\n!$OMP E ND PARAL LEL D O\n",
      "!$OMP PARALLELDO PRIVATE(J)SCHEDULE(STATIC)REDUCTION(+:S)\n      DO I = 1, N\n"
      "         S = S + I\n      END DO\n!$OMP END PARALLELDO\n"}},
    {"parallel do without END, continued",
     "C$OMP PARALLEL DO\nC$OMP+PRIVATE(J) COLLAPSE(1)\n      DO 10 I = 1, N\n"
     "   10 CONTINUE\n",
     {"C$OMP PARAL\nC$OMP+LELDOPRIVATE(J)COLLAPSE(1)\n      DO 10 I = 1, N\n   10 CONTINUE\n",
      "C$OMP PARALLEL DO\nC$OMP+PRI VATE(J) COL LAPSE(1)\n      DO 10 I = 1, N\n"
      "   10 CONTINUE\n"}},
    {"parallel do simd",
     "!$OMP PARALLEL DO SIMD SIMDLEN(4)\n      DO I = 1, N\n      END DO\n"
     "!$OMP END PARALLEL DO SIMD\n",
     {"!$OMP PARALLELDOSIMDSIMDLEN(4)\n      DO I = 1, N\n      END DO\n!$OMP ENDPARALLELDOSIMD\n"}},
    {"parallel sections (the OpenMP Validation Suite's spelling)",
     "!$OMP PARALLEL SECTIONS PRIVATE(SUM0,I)\n!$OMP SECTION\n      S = 1\n!$OMP SECTION\n"
     "      S = 2\n!$OMP END PARALLEL SECTIONS\n",
     {"!$OMP PARALLEL SECTIONSPRIVATE(SUM0,I)\n!$OMP SECTION\n      S = 1\n!$OMP SECTION\n"
      "      S = 2\n!$OMP END PARALLEL SECTIONS\n",
      "!$OMP PARALLELSECTIONSPRIVATE(SUM0,I)\n!$OMP SEC TION\n      S = 1\n!$OMP SECTION\n"
      "      S = 2\n!$OMP ENDPARALLELSECTIONS\n"}},
    {"parallel workshare",
     "!$OMP PARALLEL WORKSHARE IF(N > 1)\n      A = 1\n!$OMP END PARALLEL WORKSHARE\n",
     {"!$OMP PARALLELWORKSHAREIF(N > 1)\n      A = 1\n!$OMP ENDPARALLELWORKSHARE\n",
      "!$OMP PARALLEL WORK SHARE I F(N > 1)\n      A = 1\n!$OMP END PARALLEL WORK SHARE\n"}},
    {"parallel master",
     "!$OMP PARALLEL MASTER DEFAULT(SHARED)\n      A = 1\n!$OMP END PARALLEL MASTER\n",
     {"!$OMP PARALLELMASTERDEFAULT(SHARED)\n      A = 1\n!$OMP ENDPARALLELMASTER\n"}},
    {"do, end do nowait",
     "!$OMP PARALLEL\n!$OMP DO FIRSTPRIVATE(X) LASTPRIVATE(Y) SCHEDULE(DYNAMIC,2)\n"
     "      DO I = 1, N\n      END DO\n!$OMP END DO NOWAIT\n!$OMP END PARALLEL\n",
     {"!$OMP PARALLEL\n!$OMP DOFIRSTPRIVATE(X)LASTPRIVATE(Y)SCHEDULE(DYNAMIC,2)\n"
      "      DO I = 1, N\n      END DO\n!$OMP ENDDONOWAIT\n!$OMP END PARALLEL\n",
      "!$OMP PARALLEL\n!$OMP D O FIRST PRIVATE(X) LAST PRIVATE(Y) SCHE DULE(DYNAMIC,2)\n"
      "      DO I = 1, N\n      END DO\n!$OMP END D O NO WAIT\n!$OMP END PARALLEL\n"}},
    {"do simd, end do simd",
     "!$OMP PARALLEL\n!$OMP DO SIMD\n      DO I = 1, N\n      END DO\n!$OMP END DO SIMD\n"
     "!$OMP END PARALLEL\n",
     {"!$OMP PARALLEL\n!$OMP DOSIMD\n      DO I = 1, N\n      END DO\n!$OMP ENDDOSIMD\n"
      "!$OMP END PARALLEL\n"}},
    {"sections, end sections nowait",
     "!$OMP PARALLEL\n!$OMP SECTIONS PRIVATE(X)\n!$OMP SECTION\n      X = 1\n"
     "!$OMP END SECTIONS NOWAIT\n!$OMP END PARALLEL\n",
     {"!$OMP PARALLEL\n!$OMP SECTIONSPRIVATE(X)\n!$OMP SECTION\n      X = 1\n"
      "!$OMP ENDSECTIONSNOWAIT\n!$OMP END PARALLEL\n",
      "!$OMP PARALLEL\n!$OMP SEC TIONS PRI VATE(X)\n!$OMP SECT ION\n      X = 1\n"
      "!$OMP END SEC TIONS NO WAIT\n!$OMP END PARALLEL\n"}},
    {"single, end single copyprivate",
     "!$OMP PARALLEL\n!$OMP SINGLE PRIVATE(X)\n      X = 1\n!$OMP END SINGLE COPYPRIVATE(X)\n"
     "!$OMP END PARALLEL\n",
     {"!$OMP PARALLEL\n!$OMP SINGLEPRIVATE(X)\n      X = 1\n!$OMP ENDSINGLECOPYPRIVATE(X)\n"
      "!$OMP END PARALLEL\n",
      "!$OMP PARALLEL\n!$OMP SIN GLE PRIVATE(X)\n      X = 1\n!$OMP END SINGLE COPY PRIVATE(X)\n"
      "!$OMP END PARALLEL\n"}},
    {"single, end single (barrier)",
     "!$OMP PARALLEL\n!$OMP SINGLE\n      X = 1\n!$OMP END SINGLE\n!$OMP END PARALLEL\n",
     {"!$OMP PARALLEL\n!$OMP SINGLE\n      X = 1\n!$OMP ENDSINGLE\n!$OMP END PARALLEL\n"}},
    {"workshare, end workshare nowait",
     "!$OMP PARALLEL\n!$OMP WORKSHARE\n      A = 1\n!$OMP END WORKSHARE NOWAIT\n"
     "!$OMP END PARALLEL\n",
     {"!$OMP PARALLEL\n!$OMP WORK SHARE\n      A = 1\n!$OMP ENDWORKSHARENOWAIT\n"
      "!$OMP END PARALLEL\n"}},
    {"master",
     "!$OMP PARALLEL\n!$OMP MASTER\n      A = 1\n!$OMP END MASTER\n!$OMP END PARALLEL\n",
     {"!$OMP PARALLEL\n!$OMP MAS TER\n      A = 1\n!$OMP ENDMASTER\n!$OMP END PARALLEL\n"}},
    {"critical with a name",
     "!$OMP CRITICAL (LCK)\n      A = 1\n!$OMP END CRITICAL (LCK)\n",
     {"!$OMP CRITICAL(LCK)\n      A = 1\n!$OMP ENDCRITICAL(LCK)\n",
      "!$OMP CRIT ICAL (L CK)\n      A = 1\n!$OMP END CRITI CAL (LC K)\n"}},
    {"atomic update, atomic capture",
     "!$OMP ATOMIC UPDATE\n      A = A + 1\n!$OMP END ATOMIC\n!$OMP ATOMIC CAPTURE\n"
     "      B = A\n      A = A + 1\n!$OMP END ATOMIC\n",
     {"!$OMP ATOMICUPDATE\n      A = A + 1\n!$OMP ENDATOMIC\n!$OMP ATOMICCAPTURE\n"
      "      B = A\n      A = A + 1\n!$OMP ENDATOMIC\n",
      "!$OMP ATO MIC UP DATE\n      A = A + 1\n!$OMP END ATOMIC\n!$OMP ATOMIC CAP TURE\n"
      "      B = A\n      A = A + 1\n!$OMP E NDATOMIC\n"}},
    {"barrier, flush, taskwait",
     "!$OMP BARRIER\n!$OMP FLUSH (A)\n!$OMP FLUSH ACQ_REL\n!$OMP TASKWAIT\n",
     {"!$OMP BAR RIER\n!$OMP FLUSH(A)\n!$OMP FLUSHACQ_REL\n!$OMP TASK WAIT\n",
      "!$OMP B ARRIER\n!$OMP FL USH (A)\n!$OMP FLUSH ACQ_ REL\n!$OMP TASKW AIT\n"}},
    {"do ordered, ordered",
     "!$OMP PARALLEL\n!$OMP DO ORDERED SCHEDULE(STATIC)\n      DO I = 1, N\n!$OMP ORDERED\n"
     "      A = I\n!$OMP END ORDERED\n      END DO\n!$OMP END DO\n!$OMP END PARALLEL\n",
     {"!$OMP PARALLEL\n!$OMP DOORDEREDSCHEDULE(STATIC)\n      DO I = 1, N\n!$OMP ORDERED\n"
      "      A = I\n!$OMP ENDORDERED\n      END DO\n!$OMP ENDDO\n!$OMP END PARALLEL\n"}},
    {"task",
     "!$OMP TASK UNTIED SHARED(A) FIRSTPRIVATE(I)\n      A = I\n!$OMP END TASK\n",
     {"!$OMP TASKUNTIEDSHARED(A)FIRSTPRIVATE(I)\n      A = I\n!$OMP ENDTASK\n",
      "!$OMP TA SK UN TIED SHARED(A) FIRST PRIVATE(I)\n      A = I\n!$OMP END TA SK\n"}},
    {"cancel do keeps the barrier",
     "!$OMP PARALLEL\n!$OMP DO\n      DO I = 1, N\n!$OMP CANCEL DO\n      END DO\n!$OMP END DO\n"
     "!$OMP END PARALLEL\n",
     {"!$OMP PARALLEL\n!$OMP DO\n      DO I = 1, N\n!$OMP CANCELDO\n      END DO\n!$OMP END DO\n"
      "!$OMP END PARALLEL\n"}},
    {"threadprivate and declare simd are passed",
     "!$OMP THREADPRIVATE(/C/)\n!$OMP DECLARE SIMD(F) UNIFORM(X)\n!$OMP BARRIER\n",
     {"!$OMP THREAD PRIVATE(/C/)\n!$OMP DECLARESIMD(F)UNIFORM(X)\n!$OMP BARRIER\n"}},
    {"device loop without END: nothing inside instrumented",
     "!$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO MAP(TO:A)\n      DO I = 1, N\n"
     "!$OMP ATOMIC\n      S = S + 1\n      END DO\n!$OMP BARRIER\n",
     {"!$OMP TARGETTEAMSDISTRIBUTEPARALLELDOMAP(TO:A)\n      DO I = 1, N\n"
      "!$OMP ATOMIC\n      S = S + 1\n      END DO\n!$OMP BARRIER\n",
      "!$OMP TAR GET TEAMS DIS TRIBUTE PARALLEL DO MAP (TO:A)\n      DO I = 1, N\n"
      "!$OMP ATOMIC\n      S = S + 1\n      END DO\n!$OMP BARRIER\n"}},
};

/* Free-form directive names run together (OpenMP 5.0 2.1.2). */
static const spelling_case free_cases[] = {
    {"end do, parallel do",
     "!$omp parallel do private(j)\ndo i = 1, n\nend do\n!$omp end parallel do\n"
     "!$omp parallel\n!$omp do\ndo i = 1, n\nend do\n!$omp end do\n!$omp end parallel\n",
     {"!$omp paralleldo private(j)\ndo i = 1, n\nend do\n!$omp endparalleldo\n"
      "!$omp parallel\n!$omp do\ndo i = 1, n\nend do\n!$omp enddo\n!$omp end parallel\n",
      "!$omp parallel do private(j)\ndo i = 1, n\nend do\n!$omp end paralleldo\n"
      "!$omp parallel\n!$omp do\ndo i = 1, n\nend do\n!$omp enddo\n!$omp end parallel\n"}},
    {"parallel sections, end single, do simd",
     "!$omp parallel sections\n!$omp section\nx = 1\n!$omp end parallel sections\n"
     "!$omp parallel\n!$omp single\nx = 1\n!$omp end single copyprivate(x)\n"
     "!$omp do simd\ndo i = 1, n\nend do\n!$omp end do simd\n!$omp end parallel\n",
     {"!$omp parallelsections\n!$omp section\nx = 1\n!$omp endparallelsections\n"
      "!$omp parallel\n!$omp single\nx = 1\n!$omp endsingle copyprivate(x)\n"
      "!$omp dosimd\ndo i = 1, n\nend do\n!$omp enddosimd\n!$omp end parallel\n"}},
    {"cancellation point, cancel",
     "!$omp parallel\n!$omp cancellation point parallel\n!$omp end parallel\n",
     {"!$omp parallel\n!$omp cancellationpoint parallel\n!$omp end parallel\n"}},
};

static char *instrument(const char *src, bool fixed, char **companion) {
  FILE *f = tmpfile(), *c = tmpfile();
  opari_options opt = {.file_name = "t.f", .line_name = "t.f", .quiet = true, .nosrc = true,
                       .fixed_form = fixed, .unit_id = 0xab};
  bool ok = opari_fortran(src, strlen(src), f, c, &opt);
  char *out = read_back(f);
  *companion = read_back(c);
  if (!ok) fail_msg("rejected:\n%s", src);
  return out;
}

/* The lines of s (a copy, NUL-separated) in line[], their number. */
static size_t split_lines(char *s, char **line, size_t max) {
  size_t n = 0;
  for (char *p = s; *p && n < max;) {
    line[n++] = p;
    char *nl = strchr(p, '\n');
    if (!nl) break;
    *nl = 0;
    p = nl + 1;
  }
  return n;
}

/* out with each line that is a directive line of `variant` written as
   the same line of `blanked` (the copied source lines), as a new string. */
static char *as_blanked(const char *out, const char *variant, const char *blanked) {
  enum { MAX = 64 };
  char *v = strdup(variant), *b = strdup(blanked), *o = strdup(out);
  char *vl[MAX], *bl[MAX], *ol[4 * MAX];
  size_t nv = split_lines(v, vl, MAX), nb = split_lines(b, bl, MAX);
  size_t no = split_lines(o, ol, 4 * MAX);
  assert_int_equal(nv, nb);
  char *r = calloc(strlen(out) + strlen(blanked) + 1, 1);
  for (size_t i = 0; i < no; i++) {
    const char *line = ol[i];
    for (size_t k = 0; k < nv; k++)
      if (strcmp(vl[k], bl[k]) != 0 && strcmp(ol[i], vl[k]) == 0) line = bl[k];
    strcat(r, line);
    strcat(r, "\n");
  }
  free(v);
  free(b);
  free(o);
  return r;
}

static void check_cases(const spelling_case *cases, size_t n, bool fixed) {
  for (size_t i = 0; i < n; i++) {
    char *want_comp, *want = instrument(cases[i].blanked, fixed, &want_comp);
    assert_non_null(strstr(want_comp, "pomp_000000ab_")); /* something instrumented */
    for (size_t k = 0; k < 3 && cases[i].variants[k]; k++) {
      char *comp, *out = instrument(cases[i].variants[k], fixed, &comp);
      char *got = as_blanked(out, cases[i].variants[k], cases[i].blanked);
      if (strcmp(got, want) != 0 || strcmp(comp, want_comp) != 0)
        fail_msg("%s, spelling %zu:\n%s\nwant:\n%s\ngot:\n%s\ncompanions %s", cases[i].what, k,
                 cases[i].variants[k], want, got, strcmp(comp, want_comp) ? "differ" : "agree");
      free(got);
      free(out);
      free(comp);
    }
    free(want);
    free(want_comp);
  }
}

static void fixed_form_spellings_are_instrumented_as_blanked(void **state) {
  (void)state;
  check_cases(fixed_cases, sizeof fixed_cases / sizeof *fixed_cases, true);
}

static void free_form_combined_names_may_run_together(void **state) {
  (void)state;
  check_cases(free_cases, sizeof free_cases / sizeof *free_cases, false);
}

/* `PARALLELDO` is a PARALLEL DO: split into PARALLEL and DO, its clauses
   on their halves, one descriptor "paralleldo" with fork/begin/enter ...
   exit/end/join, and one barrier: the join's (no explicit one) (the issue left how it was instrumented unchecked). */
static void fixed_paralleldo_is_split_and_instrumented(void **state) {
  (void)state;
  char *comp, *out = instrument("!$OMP PARALLELDOPRIVATE(J)SCHEDULE(STATIC)\n"
                                "      DO I = 1, N\n      END DO\n",
                                true, &comp);
  assert_string_equal(out, "      call pomp_000000ab_parallel_fork(0)\n"
                           "!$omp parallel\n"
                           "!$omp&PRIVATE(J)\n"
                           "      call pomp_000000ab_parallel_begin(0)\n"
                           "      call pomp_000000ab_do_enter(0)\n"
                           "!$omp do\n"
                           "!$omp&SCHEDULE(STATIC)\n"
                           "      DO I = 1, N\n"
                           "      END DO\n"
                           "!$omp end do nowait\n"
                           "      call pomp_000000ab_join_barrier_enter(0)\n"
                           "      call pomp_000000ab_do_exit(0)\n"
                           "      call pomp_000000ab_parallel_end(0)\n"
                           "!$omp end parallel\n"
                           "      call pomp_000000ab_parallel_join(0)\n");
  assert_non_null(strstr(comp, "\"paralleldo\""));
  free(out);
  free(comp);
}

/* Free form: keywords run together outside the spec's combined names. */
static void free_form_rejects_other_run_together_keywords(void **state) {
  (void)state;
  static const char *const bad[] = {
      "!$omp parallel sectionsprivate(i)\n!$omp end parallel sections\n",
      "!$omp parallel\n!$omp dofirstprivate(x)\ndo i = 1, 2\nend do\n!$omp end parallel\n",
      "!$omp parallel\n!$omp single\n!$omp end singlecopyprivate(x)\n!$omp end parallel\n",
      "!$omp parallel\n!$omp do\ndo i = 1, 2\n!$omp canceldo\nend do\n!$omp end parallel\n",
      "!$omp parallel\n!$omp cancellation pointparallel\n!$omp end parallel\n",
      "!$omp parallel\n!$omp do\ndo i = 1, 2\nend do\n!$omp end do nowaitprivate\n"
      "!$omp end parallel\n",
      "!$omp task untiedmergeable\n!$omp end task\n",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    FILE *f = tmpfile(), *c = tmpfile();
    opari_options opt = {.file_name = "t.f90", .line_name = "t.f90", .quiet = true};
    if (opari_fortran(bad[i], strlen(bad[i]), f, c, &opt)) fail_msg("accepted: %s", bad[i]);
    free(read_back(f));
    free(read_back(c));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fixed_form_spellings_are_instrumented_as_blanked),
      cmocka_unit_test(free_form_combined_names_may_run_together),
      cmocka_unit_test(fixed_paralleldo_is_split_and_instrumented),
      cmocka_unit_test(free_form_rejects_other_run_together_keywords),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
