/* Unit tests of opari_c() on in-memory units: what is rejected (and that
   rejection frees everything: these run under ASan), and small exact
   rewrites. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opari.h"
#include "read_back.h"

/* The instrumented text between the prelude's #line and the epilogue. */
static bool instrument(const char *src, unsigned disabled, char *out, size_t size) {
  FILE *f = tmpfile();
  opari_options opt = {.file_name = "t.c", .line_name = "t.c", .quiet = true, .disabled = disabled};
  bool ok = opari_c(src, strlen(src), f, &opt);
  char *all = read_back(f);
  const char *from = strstr(all, "#line 1 \"t.c\"\n"), *to = strstr(all, "\n#include <pomp.h>");
  out[0] = 0;
  if (ok && from && to) {
    from += 14;
    snprintf(out, size, "%.*s", (int)(to - from), from);
  }
  free(all);
  return ok;
}

static void rejects_bad_units(void **state) {
  (void)state;
  static const char *const bad[] = {
      "#pragma omp parallel\n",
      "#pragma omp parallel\n{ x(); )\n",
      "#pragma omp sections\nx();\n",
      "#pragma omp for schedule(static\nfor(;;);\n",
      "#pragma pomp inst end(a)\n",
      "#pragma pomp inst begin(a)\n",
      "#pragma pomp bogus\n",
      "#ifdef A\n#pragma omp parallel\n{\n#endif\n}\n",
      "#pragma omp parallel\n#pragma omp for\n#pragma omp critical\n",
      "_Pragma(\"omp parallel\")",
  };
  char out[64];
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    if (instrument(bad[i], 0, out, sizeof out)) fail_msg("accepted: %s", bad[i]);
}

static void barrier_rewrite_is_exact(void **state) {
  (void)state;
  char out[512];
  assert_true(instrument("  #pragma omp barrier\nx;\n", 0, out, sizeof out));
  assert_string_equal(out, "{ POMP_Barrier_enter(pomp_rd[0]);\n#line 1 \"t.c\"\n"
                           "  #pragma omp barrier\n POMP_Barrier_exit(pomp_rd[0]); }\n"
                           "#line 2 \"t.c\"\nx;\n");
}

static int count_of(const char *s, const char *what) {
  int n = 0;
  for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
  return n;
}

/* A parallel region runs one barrier, the runtime's join: no explicit
   barrier ends it, a combined construct's worksharing half gets nowait, and
   every thread reports its arrival. A worksharing construct inside the
   region keeps its explicit barrier (the original had one there too). */
static void parallel_region_runs_one_barrier(void **state) {
  (void)state;
  static const char *const one_region[] = {
      "#pragma omp parallel for\nfor (i = 0; i < n; i++) a[i] = i;\n",
      "#pragma omp parallel\n{ x(); }\n",
      "#pragma omp parallel sections\n{\n#pragma omp section\nx();\n}\n",
      "#pragma omp parallel master\nx();\n",
      "#pragma omp parallel for nowait\nfor (i = 0; i < n; i++) a[i] = i;\n",
  };
  char out[2048];
  for (size_t i = 0; i < sizeof one_region / sizeof *one_region; i++) {
    assert_true(instrument(one_region[i], 0, out, sizeof out));
    assert_int_equal(count_of(out, "omp barrier"), 0);
    assert_int_equal(count_of(out, "POMP_Join_barrier_enter(pomp_rd[0]);"), 1);
    assert_int_equal(count_of(out, "POMP_Barrier_"), 0);
  }
  assert_true(instrument("#pragma omp parallel for\nfor (i = 0; i < n; i++) a[i] = i;\n", 0, out,
                         sizeof out));
  assert_non_null(strstr(out, "#pragma omp          for nowait\n"));
  assert_non_null(strstr(out, "a[i] = i; POMP_Join_barrier_enter(pomp_rd[0]); "
                              "POMP_For_exit(pomp_rd[0]); } POMP_Parallel_end(pomp_rd[0]); } "
                              "POMP_Parallel_join(pomp_rd[0]); }"));
  assert_true(instrument("#pragma omp parallel\n{\n#pragma omp for\nfor (i = 0; i < n; i++) "
                         "a[i] = i;\nx();\n}\n",
                         0, out, sizeof out));
  assert_int_equal(count_of(out, "_Pragma(\"omp barrier\")"), 1);
  assert_int_equal(count_of(out, "POMP_Barrier_enter(pomp_rd[1]);"), 1);
  assert_int_equal(count_of(out, "POMP_Join_barrier_enter(pomp_rd[0]);"), 1);
}

static void comment_before_directive_is_kept(void **state) {
  (void)state;
  char out[512];
  assert_true(instrument("/* a\n b */ #pragma omp flush\n", 0, out, sizeof out));
  /* the directive keeps its column: padded as wide as the comment tail */
  assert_string_equal(out, "/* a\n b */ \n{ POMP_Flush_enter(pomp_rd[0]);\n#line 2 \"t.c\"\n"
                           "      #pragma omp flush\n POMP_Flush_exit(pomp_rd[0]); }\n"
                           "#line 3 \"t.c\"\n");
}

static void disabled_constructs_are_copied(void **state) {
  (void)state;
  char out[512];
  const char *src = "#pragma omp critical\nx++;\n#pragma omp barrier\n";
  assert_true(instrument(src, OPARI_DIS_CRITICAL | OPARI_DIS_BARRIER, out, sizeof out));
  assert_string_equal(out, src);
}

static void disable_omp_keeps_only_parallel_regions(void **state) {
  (void)state;
  char out[1024];
  unsigned bits = 0;
  const char *bad;
  size_t bad_len;
  assert_true(opari_parse_disable("omp", &bits, &bad, &bad_len));
  const char *src = "#pragma omp parallel\n{\n#pragma omp for\nfor (;;) ;\n"
                    "#pragma omp critical\nx++;\n#pragma pomp inst begin(r)\n"
                    "#pragma pomp inst end(r)\n}\n";
  assert_true(instrument(src, bits, out, sizeof out));
  assert_non_null(strstr(out, "POMP_Parallel_fork(pomp_rd[0]);"));
  assert_non_null(strstr(out, "POMP_Begin(pomp_rd[1]);"));
  assert_null(strstr(out, "For_enter"));
  assert_null(strstr(out, "Critical_enter"));
  assert_non_null(strstr(out, "\n#pragma omp for\nfor (;;) ;\n#pragma omp critical\nx++;\n"));
}

static void unknown_clause_keeps_combined_construct_whole(void **state) {
  (void)state;
  char out[512];
  const char *src = "#pragma omp parallel for frobnicate(1) schedule(static)\nfor (;;) x++;\n";
  assert_true(instrument(src, 0, out, sizeof out));
  assert_string_equal(out, src);
}

static void missing_final_newline_is_added(void **state) {
  (void)state;
  char out[512];
  assert_true(instrument("int x;", 0, out, sizeof out));
  assert_string_equal(out, "int x;\n");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rejects_bad_units),
      cmocka_unit_test(barrier_rewrite_is_exact),
      cmocka_unit_test(parallel_region_runs_one_barrier),
      cmocka_unit_test(comment_before_directive_is_kept),
      cmocka_unit_test(disabled_constructs_are_copied),
      cmocka_unit_test(disable_omp_keeps_only_parallel_regions),
      cmocka_unit_test(unknown_clause_keeps_combined_construct_whole),
      cmocka_unit_test(missing_final_newline_is_added),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
