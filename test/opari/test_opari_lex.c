/* Unit tests of the C/C++ lexer, directive parser, statement look-ahead
   and --pomp-disable list of pomp-opari. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "c_lex.h"
#include "c_pp.h"
#include "c_stmt.h"
#include "directive.h"
#include "opari.h"

/* The kinds and texts of all tokens of src, as "K:text " items. */
static char *tokens(const char *src, bool cxx) {
  static char out[4096];
  opc_lexer lx;
  opc_lex_init(&lx, src, strlen(src), cxx);
  out[0] = 0;
  for (opc_tok t; (t = opc_lex_next(&lx)).kind != CT_EOF;) {
    static const char kinds[] = "EINSCPD";
    size_t k = strlen(out);
    snprintf(out + k, sizeof out - k, "%c:%.*s@%d ", kinds[t.kind], (int)(t.end - t.start),
             src + t.start, t.line);
  }
  return out;
}

static void lexer_skips_comments_and_literals(void **state) {
  (void)state;
  assert_string_equal(tokens("a /* #pragma omp x\n */ b // c \\\n d\ne", false),
                      "I:a@1 I:b@2 I:e@4 ");
  assert_string_equal(tokens("s = \"x\\\"#pragma\" 'a' u8\"y\" L'b';", false),
                      "I:s@1 P:=@1 S:\"x\\\"#pragma\"@1 C:'a'@1 S:u8\"y\"@1 C:L'b'@1 P:;@1 ");
}

static void lexer_directives_span_continuations(void **state) {
  (void)state;
  assert_string_equal(tokens("  #pragma omp parallel \\\n  private(x)\nx;", false),
                      "D:#pragma omp parallel \\\n  private(x)@1 I:x@3 P:;@3 ");
  /* a # that is not first on its line is no directive */
  assert_string_equal(tokens("a # b\n/* c */ #define X\n", false),
                      "I:a@1 P:#@1 I:b@1 D:#define X@2 ");
  /* a string continued with \ does not start a directive on its next line */
  assert_string_equal(tokens("\"a\\\n#pragma omp\" b", false), "S:\"a\\\n#pragma omp\"@1 I:b@2 ");
}

static void lexer_raw_strings_only_in_cxx(void **state) {
  (void)state;
  assert_string_equal(tokens("R\"x(\n#pragma omp )\" )x\" y", true),
                      "S:R\"x(\n#pragma omp )\" )x\"@1 I:y@2 ");
  assert_string_equal(tokens("R\"(a)\"", false), "I:R@1 S:\"(a)\"@1 ");
  assert_string_equal(tokens("1'000'000 0x1p-3 .5e+2", true),
                      "N:1'000'000@1 N:0x1p-3@1 N:.5e+2@1 ");
}

static void lexer_unterminated_literals_end_at_newline(void **state) {
  (void)state;
  assert_string_equal(tokens("'abc\nx /* open", false), "C:'abc@1 I:x@2 ");
}

static op_dir parse(const char *text) {
  op_dir d = {0};
  size_t after;
  opc_pp_cond cond;
  assert_int_equal(opc_pp_classify(text, strlen(text), &cond, &after), PP_OMP);
  op_dir_parse(&d, text, strlen(text), after);
  return d;
}

static void directive_names_and_clauses(void **state) {
  (void)state;
  const char *t = "#pragma omp parallel for simd if(simd: a) reduction(+:s), nowait // x";
  op_dir d = parse(t);
  assert_int_equal(d.kind, OP_DIR_PARALLEL_FOR);
  assert_true(d.inner_simd);
  assert_int_equal(d.nwords, 3);
  assert_int_equal(d.nclauses, 3);
  assert_true(op_span_is(t, d.clauses[0].args, "simd: a"));
  assert_true(op_span_is(t, d.clauses[1].whole, "reduction(+:s)"));
  assert_true(op_span_is(t, d.clauses[2].name, "nowait"));
  assert_int_equal(d.content_end, strlen(t) - 5);
  op_dir_free(&d);
}

static void directive_kinds(void **state) {
  (void)state;
  static const struct {
    const char *text;
    op_dir_kind kind;
  } cases[] = {
      {"#pragma omp critical (name) hint(1)", OP_DIR_CRITICAL},
      {"# pragma omp cancel for", OP_DIR_CANCEL},
      {"#pragma omp cancellation point for", OP_DIR_PASS},
      {"#pragma omp target teams distribute parallel for", OP_DIR_PASS_SUPPRESS},
      {"#pragma omp target update to(a)", OP_DIR_PASS},
      {"#pragma omp taskloop simd", OP_DIR_PASS_SUPPRESS},
      {"#pragma omp parallel masked", OP_DIR_PARALLEL_MASKED},
      {"#pragma omp parallel master taskloop", OP_DIR_PASS_WARN},
      {"#pragma omp declare target", OP_DIR_DECLARE_TARGET_BEGIN},
      {"#pragma omp declare target to(f)", OP_DIR_PASS},
      {"#pragma omp end declare target", OP_DIR_DECLARE_TARGET_END},
      {"#pragma omp declare reduction(m : int : omp_out += omp_in)", OP_DIR_PASS},
      {"#pragma omp frobnicate", OP_DIR_UNKNOWN},
      {"#pragma omp ordered depend(sink: i-1)", OP_DIR_ORDERED},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    op_dir d = parse(cases[i].text);
    if (d.kind != cases[i].kind) fail_msg("%s: kind %d", cases[i].text, d.kind);
    op_dir_free(&d);
  }
}

static void directive_errors(void **state) {
  (void)state;
  op_dir d = parse("#pragma omp parallel num_threads(4");
  assert_string_equal(d.error, "unbalanced parentheses in clause");
  op_dir_free(&d);
  d = parse("#pragma omp for ; x");
  assert_string_equal(d.error, "unexpected character in directive");
  op_dir_free(&d);
}

static void pomp_directives(void **state) {
  (void)state;
  op_span name;
  const char *t = "inst begin ( solver )";
  assert_int_equal(op_inst_parse(t, strlen(t), 0, &name), OP_INST_BEGIN);
  assert_true(op_span_is(t, name, "solver"));
  assert_int_equal(op_inst_parse("inst end(a b)", 13, 0, &name), OP_INST_BAD);
  assert_int_equal(op_inst_parse(" noinstrument", 13, 0, &name), OP_INST_NOINSTRUMENT);
  assert_int_equal(op_inst_parse("inst finalize", 13, 0, &name), OP_INST_FINALIZE);
}

static void conditionals(void **state) {
  (void)state;
  opc_pp_cond c;
  size_t a;
  assert_int_equal(opc_pp_classify("#if 0 /* off */", 15, &c, &a), PP_IF);
  assert_int_equal(c, COND_FALSE);
  assert_int_equal(opc_pp_classify("#  elif 1", 9, &c, &a), PP_ELIF);
  assert_int_equal(c, COND_TRUE);
  assert_int_equal(opc_pp_classify("#if 0x0", 7, &c, &a), PP_IF);
  assert_int_equal(c, COND_UNKNOWN);
  assert_int_equal(opc_pp_classify("#include <omp.h>", 16, &c, &a), PP_INCLUDE_OMP);
  assert_int_equal(opc_pp_classify("#pragma pomp inst on", 20, &c, &a), PP_POMP);
}

/* Offset just after the statement that starts src. */
static long stmt_end(const char *src, bool sequence, unsigned *cancel) {
  opc_lexer lx;
  opc_lex_init(&lx, src, strlen(src), true);
  op_dir dir = {0};
  opc_pragma_op op = {0};
  char *stack = NULL;
  size_t cap = 0;
  opc_stmt st;
  opc_stmt_init(&st, &lx, &dir, &op, &stack, &cap);
  bool ok = sequence ? opc_stmt_skip_sequence(&st) : opc_stmt_skip(&st);
  if (cancel) *cancel = st.cancel;
  op_dir_free(&dir);
  free(op.buf);
  free(stack);
  return ok ? (long)st.end : -1;
}

static void statements(void **state) {
  (void)state;
  static const struct {
    const char *src;
    const char *rest;
  } cases[] = {
      {"x = f(a, {1, 2});y", "y"},
      {"if (a) b(); else if (c) d(); else { e(); } f", " f"},
      {"for (auto &x : v) for (;;) { g(); } h", " h"},
      {"do x++; while (x < 3); z", " z"},
      {"while (1)\n#pragma omp atomic\n n++; m", " m"},
      {"auto l = [&](int a) { return a; }; k", " k"},
      {"try { a(); } catch (int) { } catch (...) { } q", " q"},
      {"{\n#if A\n {\n#else\n {\n#endif\n }\n} r", " r"},
      {"#if 0\n}\n#endif\nx; s", " s"},
      {"_Pragma(\"omp parallel\") n++; t", " t"},
      {"if constexpr (A) a(); u", " u"},
      {"FOR_EACH(i, n) { a(); } b(); v", " b(); v"},
      {"x = (struct p){1, 2}.x; w", " w"},
      {"auto f = [](int a) { return a; }(3); z", " z"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    long e = stmt_end(cases[i].src, false, NULL);
    if (e < 0 || strcmp(cases[i].src + e, cases[i].rest) != 0)
      fail_msg("%s: ends at %ld", cases[i].src, e);
  }
  assert_int_equal(stmt_end("a(); b();\n#pragma omp section\n c();", true, NULL), 9);
  assert_int_equal(stmt_end("a(); }", true, NULL), 4);
  assert_int_equal(stmt_end("{ (a }", false, NULL), -1);
  assert_int_equal(stmt_end("if (x", false, NULL), -1);
  unsigned cancel;
  stmt_end("for (;;) {\n#pragma omp cancel for\n}", false, &cancel);
  assert_int_equal(cancel, CANCEL_FOR);
}

static void deep_nesting_is_an_error_not_a_crash(void **state) {
  (void)state;
  size_t n = 100000;
  char *src = malloc(n * 3 + 8);
  for (size_t i = 0; i < n; i++) memcpy(src + 3 * i, "do ", 3);
  strcpy(src + 3 * n, ";");
  assert_int_equal(stmt_end(src, false, NULL), -1);
  free(src);
}

static void disable_list(void **state) {
  (void)state;
  unsigned bits = 0;
  const char *bad = NULL;
  size_t len = 0;
  assert_true(opari_parse_disable("critical,locks", &bits, &bad, &len));
  assert_int_equal(bits, OPARI_DIS_CRITICAL | OPARI_DIS_LOCKS);
  bits = 0;
  assert_true(opari_parse_disable("sync", &bits, &bad, &len));
  assert_true(bits & OPARI_DIS_BARRIER);
  assert_false(bits & OPARI_DIS_PARALLEL);
  assert_false(opari_parse_disable("for,frob,x", &bits, &bad, &len));
  assert_int_equal(len, 4);
  assert_memory_equal(bad, "frob", 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(lexer_skips_comments_and_literals),
      cmocka_unit_test(lexer_directives_span_continuations),
      cmocka_unit_test(lexer_raw_strings_only_in_cxx),
      cmocka_unit_test(lexer_unterminated_literals_end_at_newline),
      cmocka_unit_test(directive_names_and_clauses),
      cmocka_unit_test(directive_kinds),
      cmocka_unit_test(directive_errors),
      cmocka_unit_test(pomp_directives),
      cmocka_unit_test(conditionals),
      cmocka_unit_test(statements),
      cmocka_unit_test(deep_nesting_is_an_error_not_a_crash),
      cmocka_unit_test(disable_list),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
