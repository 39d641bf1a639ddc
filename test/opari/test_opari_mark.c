/* Unit tests of line marks (opari/mark.c): parsing `#line` and the
   preprocessor's `# N "file" flags`, and the map from physical lines to
   files and lines; and of opari_c() on preprocessed units (descriptor
   files and lines from the marks, system headers left alone). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mark.h"
#include "opari.h"
#include "read_back.h"

static bool parse(const char *s, op_line_mark *m) { return op_line_mark_parse(s, strlen(s), m); }

static void parses_marks(void **state) {
  (void)state;
  const char *s = "# 12 \"dir/file.h\" 1 3";
  op_line_mark m;
  assert_true(parse(s, &m));
  assert_int_equal(m.line, 12);
  assert_int_equal(m.file.start, 6);
  assert_int_equal(m.file.end, 16);
  assert_int_equal(m.flags, MARK_ENTER | MARK_SYSTEM);
  assert_true(parse("#line 7", &m));
  assert_int_equal(m.line, 7);
  assert_int_equal(m.file.end, 0);
  assert_int_equal(m.flags, 0);
  s = "#  3 \"a\\\"b\" 2 3 4";
  assert_true(parse(s, &m));
  assert_int_equal(m.flags, MARK_RETURN | MARK_SYSTEM | MARK_EXTERN_C);
  assert_int_equal(m.file.end - m.file.start, 4); /* a\"b */
  /* not marks: no number; flags that are not single digits 1-4 stop */
  assert_false(parse("#define X 1", &m));
  assert_false(parse("#line x", &m));
  assert_true(parse("# 5 \"f\" 12 1", &m));
  assert_int_equal(m.flags, 0);
  assert_true(parse("# 5 \"unterminated", &m));
  assert_int_equal(m.file.end, 0);
  /* a huge number stops growing: no overflow */
  assert_true(parse("# 99999999999999999999 \"f\"", &m));
  assert_true(m.line >= 100000000 && m.line < 1000000000);
}

static void maps_lines_to_files(void **state) {
  (void)state;
  op_line_map lm = {0};
  assert_null(op_line_map_find(&lm, 5));
  assert_int_equal(op_line_map_line(&lm, 5), 5);
  const char *a = "# 1 \"app.c\"", *h = "# 1 \"sys/x\\\\y.h\" 1 3", *b = "# 4 \"app.c\" 2";
  op_line_mark m;
  assert_true(parse(a, &m));
  op_line_map_add(&lm, a, &m, 2);
  assert_true(parse(h, &m));
  const op_mark_entry *e = op_line_map_add(&lm, h, &m, 10);
  assert_true(e->system);
  assert_string_equal(lm.files[e->file].esc, "sys/x\\\\y.h");
  assert_string_equal(lm.files[e->file].raw, "sys/x\\y.h");
  assert_true(parse(b, &m));
  e = op_line_map_add(&lm, b, &m, 30);
  assert_int_equal(e->file, 0); /* the same name: the same file */
  assert_false(e->system);
  assert_int_equal(lm.nfiles, 2);
  assert_int_equal(op_line_map_line(&lm, 1), 1); /* before the first mark */
  assert_int_equal(op_line_map_line(&lm, 2), 1);
  assert_int_equal(op_line_map_line(&lm, 9), 8);
  assert_int_equal(op_line_map_line(&lm, 12), 3);
  assert_int_equal(op_line_map_find(&lm, 29)->file, 1);
  assert_int_equal(op_line_map_line(&lm, 31), 5);
  /* a mark without a name keeps the file */
  assert_true(parse("#line 100", &m));
  e = op_line_map_add(&lm, "#line 100", &m, 40);
  assert_int_equal(e->file, 0);
  assert_int_equal(op_line_map_line(&lm, 41), 101);
  op_line_map_free(&lm);
}

/* The epilogue's descriptor lines of a preprocessed unit. */
static void descriptors(const char *src, char *out, size_t size) {
  FILE *f = tmpfile();
  opari_options opt = {.file_name = "t.i", .line_name = "t.i", .quiet = true, .preprocessed = true};
  assert_true(opari_c(src, strlen(src), f, &opt));
  char *all = read_back(f);
  const char *from = strstr(all, "pomp_rd_data[] = {\n"), *to = strstr(all, "};\n");
  out[0] = 0;
  if (from && to) snprintf(out, size, "%.*s", (int)(to - from - 19), from + 19);
  assert_null(strstr(all, "#include")); /* compiled without the preprocessor */
  assert_null(strstr(all, "_Pragma"));
  free(all);
}

static void preprocessed_units(void **state) {
  (void)state;
  char out[1024];
  descriptors("# 1 \"m.c\"\n"
              "# 1 \"./u.h\" 1\n"
              "void f(void) {\n#pragma omp barrier\n}\n"
              "# 3 \"m.c\" 2\n"
              "# 1 \"/usr/include/s.h\" 1 3 4\n"
              "void g(void) {\n#pragma omp barrier\n}\n"
              "# 4 \"m.c\" 2\n"
              "void h(void) {\n"
              "#pragma omp parallel\n"
              "  h();\n"
              "}\n"
              "# 1 \"/x/pomp.h\" 1\n"
              "# 9 \"m.c\" 2\n",
              out, sizeof out);
  assert_string_equal(out, "  {\"barrier\", \"\", 0, \"u.h\", 2, 2, 0, 0, {0, 0, 0, 0}, 0},\n"
                           "  {\"parallel\", \"\", 0, \"m.c\", 5, 5, 6, 6, {0, 0, 0, 0}, 0},\n");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(parses_marks),
      cmocka_unit_test(maps_lines_to_files),
      cmocka_unit_test(preprocessed_units),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
