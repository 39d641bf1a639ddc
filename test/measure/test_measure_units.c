/* test_measure_units.c -- libpomp internals in-process: the filter rules,
   the ELF symbol reader, the definition blobs, the region and comm tables. */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pm_defs.h"
#include "pm_user.h"
#include "pomp_unify.h"

static void test_filter_rules(void **state) {
  (void)state;
  const char text[] = "# comment line\n"
                      "exclude *\n"
                      "\n"
                      "   INCLUDE solve_*   # trailing comment\n"
                      "exclude solve_tiny\n"
                      "include ns::f(int, double)\n";
  assert_int_equal(pm_filter_parse(text, sizeof text - 1, "t.filter"), 0);
  assert_int_equal(pm_filter_accepts("main"), 0);
  assert_int_equal(pm_filter_accepts("solve_big"), 1);
  assert_int_equal(pm_filter_accepts("solve_tiny"), 0);
  assert_int_equal(pm_filter_accepts("ns::f(int, double)"), 1);
  pm_filter_clear();
  assert_int_equal(pm_filter_accepts("main"), 1); /* no rules: everything */
}

static void test_filter_errors(void **state) {
  (void)state;
  const char *bad[] = {"include\n", "exclude a\nskip b\n", "x", "include a\0b\n"};
  const size_t len[] = {8, 17, 1, 12};
  for (size_t i = 0; i < 4; i++) {
    assert_int_equal(pm_filter_parse(bad[i], len[i], "bad.filter"), -1);
    assert_int_equal(pm_filter_accepts("anything"), 1); /* rules cleared */
  }
  assert_int_equal(pm_filter_parse("", 0, "empty.filter"), 0);
}

static const int a_static_function_line = __LINE__ + 1;
__attribute__((noinline)) static int a_static_function(int x) { return x * 3 + 1; }

static void test_elf_symbols_of_this_program(void **state) {
  (void)state;
  FILE *f = fopen("/proc/self/exe", "rb");
  assert_non_null(f);
  unsigned char *img = malloc(64u << 20);
  size_t n = fread(img, 1, 64u << 20, f);
  fclose(f);
  pm_elf_symbol *syms;
  size_t count = pm_elf_symbols(img, n, &syms);
  assert_true(count > 10);
  for (size_t i = 1; i < count; i++) assert_true(syms[i - 1].value <= syms[i].value);
  /* a static function is found by any address inside it */
  char name[256];
  const char *file;
  uint32_t line;
  pm_symbol_lookup((uintptr_t)a_static_function + 1, name, sizeof name, &file, &line);
  assert_string_equal(name, "a_static_function");
  if (file) { /* built with -g: the DWARF line table gives its source line */
    const char *base = strrchr(file, '/');
    assert_string_equal(base ? base + 1 : file, "test_measure_units.c");
    assert_int_equal(line, a_static_function_line);
  }
  pm_symbol_lookup((uintptr_t)pm_filter_accepts, name, sizeof name, &file, &line);
  assert_string_equal(name, "pm_filter_accepts");
  assert_int_equal(a_static_function(1), 4);
  /* truncated or damaged images give nothing, never a crash */
  for (size_t cut = 0; cut < 4096; cut += 61) {
    pm_elf_symbol *s;
    size_t k = pm_elf_symbols(img, cut, &s);
    free(s);
    assert_true(k <= count);
  }
  memset(img + 0x28, 0xff, 8); /* e_shoff far out of the file */
  pm_elf_symbol *s;
  assert_int_equal(pm_elf_symbols(img, n, &s), 0);
  free(syms);
  free(img);
}

/* A named section of this program: its bytes lie inside the image and are
   the section's (.comment holds the compiler's "GCC: (...)" string); a
   missing name, a truncated or damaged image give none. */
static void test_elf_section_by_name(void **state) {
  (void)state;
  FILE *f = fopen("/proc/self/exe", "rb");
  assert_non_null(f);
  unsigned char *img = malloc(64u << 20);
  size_t n = fread(img, 1, 64u << 20, f), off, len;
  fclose(f);
  assert_true(pm_elf_section(img, n, ".comment", &off, &len));
  assert_true(off < n && len <= n - off && len > 4);
  int compiler_named = 0;
  for (size_t i = off; i + 5 <= off + len; i++)
    if (!memcmp(img + i, "GCC: ", 5) || !memcmp(img + i, "clang", 5)) compiler_named = 1;
  assert_true(compiler_named);
  assert_false(pm_elf_section(img, n, ".no_such_section", &off, &len));
  assert_false(pm_elf_section(img, n, ".comment_longer", &off, &len));
  for (size_t cut = 0; cut < 4096; cut += 61)
    assert_false(pm_elf_section(img, cut, ".comment", &off, &len));
  memset(img + 0x28, 0xff, 8); /* e_shoff far out of the file */
  assert_false(pm_elf_section(img, n, ".comment", &off, &len));
  free(img);
}

static void test_elf_find(void **state) {
  (void)state;
  pm_elf_symbol syms[] = {{100, 10, "a", NULL, 0},
                          {100, 10, "a_alias", NULL, 0},
                          {200, 0, "b", NULL, 0},
                          {300, 50, "c", NULL, 0}};
  assert_null(pm_elf_find(syms, 4, 99));
  assert_string_equal(pm_elf_find(syms, 4, 100)->name, "a");
  assert_string_equal(pm_elf_find(syms, 4, 109)->name, "a");
  assert_null(pm_elf_find(syms, 4, 110));
  assert_string_equal(pm_elf_find(syms, 4, 200)->name, "b");
  assert_null(pm_elf_find(syms, 4, 201)); /* size 0: its address only */
  assert_string_equal(pm_elf_find(syms, 4, 349)->name, "c");
  assert_null(pm_elf_find(syms, 4, 350));
  assert_null(pm_elf_find(syms, 0, 100));
}

static void test_blob_round_trip_and_bounds(void **state) {
  (void)state;
  pm_blob b = {0};
  pm_blob_u32(&b, 7);
  pm_blob_str(&b, "hello");
  pm_blob_u64(&b, 1ull << 40);
  pm_cursor c = {b.data, b.data + b.len, 0};
  assert_int_equal(pm_get_u32(&c), 7);
  assert_string_equal(pm_get_str(&c), "hello");
  assert_true(pm_get_u64(&c) == 1ull << 40);
  assert_int_equal(c.bad, 0);
  assert_int_equal(pm_get_u32(&c), 0); /* past the end */
  assert_int_equal(c.bad, 1);
  pm_cursor cut = {b.data, b.data + 6, 0}; /* string cut short */
  pm_get_u32(&cut);
  assert_string_equal(pm_get_str(&cut), "");
  assert_int_equal(cut.bad, 1);
  pm_blob_free(&b);
}

static void test_map_intern(void **state) {
  (void)state;
  pm_map m = {0};
  for (uint32_t i = 0; i < 1000; i++) assert_int_equal(pm_map_intern(&m, &i, sizeof i, i), i);
  for (uint32_t i = 0; i < 1000; i++) assert_int_equal(pm_map_intern(&m, &i, sizeof i, 5000), i);
  pm_map_free(&m);
}

static void test_region_define_dedups(void **state) {
  (void)state;
  uint32_t a = pm_region_define("f", "a.c", 1, 2, OTF2_PARADIGM_USER, OTF2_REGION_ROLE_FUNCTION);
  uint32_t b = pm_region_define("f", "a.c", 1, 2, OTF2_PARADIGM_USER, OTF2_REGION_ROLE_FUNCTION);
  uint32_t c = pm_region_define("f", "a.c", 1, 3, OTF2_PARADIGM_USER, OTF2_REGION_ROLE_FUNCTION);
  uint32_t d = pm_region_define("f", NULL, 0, 0, OTF2_PARADIGM_COMPILER, OTF2_REGION_ROLE_FUNCTION);
  assert_int_equal(a, b);
  assert_int_equal(c, a + 1);
  assert_int_equal(d, a + 2);
  pm_region_def def;
  assert_int_equal(pm_region_get(d, &def), 0);
  assert_string_equal(def.file, "");
  assert_int_equal(pm_region_count(), a + 3);
  assert_int_equal(pm_region_get(a + 3, &def), -1);
}

/* pm_comm_get once returned a pointer into the table, which the next
   registration may move (realloc): reading it while another thread
   registers read freed memory (ASan: heap-use-after-free). A copy taken
   under the lock stays valid while the table grows. */
enum { COMMS_REGISTERED = 20000 };
static atomic_int reader_started;
static void *register_comms(void *arg) {
  (void)arg;
  while (!atomic_load(&reader_started)) sched_yield(); /* registers while it reads */
  uint32_t world[2] = {0, 1};
  for (int i = 0; i < COMMS_REGISTERED; i++) pm_comm_register("other", 0, 2, world, 0);
  return NULL;
}

static void test_comm_copy_stays_valid_while_the_table_grows(void **state) {
  (void)state;
  uint32_t world[2] = {0, 1};
  uint32_t first = pm_comm_register("MPI_COMM_WORLD", OTF2_UNDEFINED_COMM, 2, world, 0);
  pthread_t registrar;
  assert_int_equal(pthread_create(&registrar, NULL, register_comms, NULL), 0);
  pm_comm_def c;
  atomic_store(&reader_started, 1);
  do {
    assert_int_equal(pm_comm_get(first, &c), 0);
    assert_string_equal(c.name, "MPI_COMM_WORLD");
    assert_int_equal(c.size, 2);
    assert_int_equal(c.world_ranks[1], 1);
  } while (pm_comm_count() < first + 1 + COMMS_REGISTERED);
  pthread_join(registrar, NULL);
  assert_int_equal(pm_comm_get(first, &c), 0);
  assert_string_equal(c.name, "MPI_COMM_WORLD");
  assert_int_equal(c.parent, OTF2_UNDEFINED_COMM);
  assert_int_equal(pm_comm_get(first + 1 + COMMS_REGISTERED, &c), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_filter_rules),
      cmocka_unit_test(test_filter_errors),
      cmocka_unit_test(test_elf_symbols_of_this_program),
      cmocka_unit_test(test_elf_find),
      cmocka_unit_test(test_elf_section_by_name),
      cmocka_unit_test(test_blob_round_trip_and_bounds),
      cmocka_unit_test(test_map_intern),
      cmocka_unit_test(test_region_define_dedups),
      cmocka_unit_test(test_comm_copy_stays_valid_while_the_table_grows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
