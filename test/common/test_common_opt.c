/* Unit tests of the shared option parser (common/pomp_opt.h): every form
   it accepts, every fault it reports (exact message and exit status 2,
   checked in a child process because a fault ends the program) and the
   help it generates from the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pomp_opt.h"
#include "pomp_util.h"

/* The variables the test table writes. */
typedef struct {
  const char *output;
  int verbosity, format;
  long long top;
  double density;
  int size;
} values;

static int parse_even(const char *v, void *target, char *why, size_t size) {
  int n = atoi(v);
  if (n % 2) {
    snprintf(why, size, "'%s' is odd", v);
    return -1;
  }
  *(int *)target = n;
  return 0;
}

static const char *const formats[] = {"csv", "json", NULL};

/* The test command: two operands IN OUT, one of each kind of option. */
static int parse(values *v, const char *sub, int argc, char **argv, const char **operands) {
  const pu_option options[] = {
      {"output", 'o', "FILE", "where to write", PU_STRING(&v->output)},
      {"quiet", 'q', NULL, "say nothing", PU_FLAG(&v->verbosity, 0)},
      {"verbose", 0, NULL, "say more", PU_FLAG(&v->verbosity, 2)},
      {"top", 'n', "N", "how many", PU_INT(&v->top, 0, 10)},
      {"density", 0, "D", "a fraction", PU_NUMBER(&v->density, 0, 1)},
      {"format", 0, "csv|json", "the format", PU_CHOICE(&v->format, formats)},
      {"size", 0, "EVEN", "an even number", PU_CALL(parse_even, &v->size)},
      PU_OPT_END};
  const pu_opt_command cmd = {sub, "IN OUT", 1, 2, .options = options};
  return pu_opt_parse(&cmd, argc, argv, operands);
}

/* What a parse in a child printed and how it ended. */
typedef struct {
  int status;
  char out[2048], err[2048];
} outcome;

static void read_all(FILE *f, char *buf, size_t size) {
  rewind(f);
  size_t n = fread(buf, 1, size - 1, f);
  buf[n] = '\0';
}

/* Runs body(arg) in a child process; exit status 99: it returned. */
static outcome in_child(void (*body)(void *), void *arg) {
  FILE *out = tmpfile(), *err = tmpfile();
  assert_non_null(out);
  assert_non_null(err);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fileno(out), STDOUT_FILENO);
    dup2(fileno(err), STDERR_FILENO);
    body(arg);
    fflush(NULL);
    _exit(99);
  }
  outcome o;
  int st = 0;
  waitpid(pid, &st, 0);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  read_all(out, o.out, sizeof o.out);
  read_all(err, o.err, sizeof o.err);
  fclose(out);
  fclose(err);
  return o;
}

typedef struct {
  const char *sub;
  int argc;
  char *argv[16];
} arguments;

static void parse_arguments(void *arg) {
  arguments *a = arg;
  values v = {0};
  const char *ops[2];
  parse(&v, a->sub, a->argc, a->argv, ops);
}

/* Runs parse() on the NULL-terminated arguments in a child process. */
static outcome run(const char *sub, ...) {
  arguments a = {sub, 1, {"prog"}};
  va_list ap;
  va_start(ap, sub);
  for (const char *s; (s = va_arg(ap, const char *)) != NULL;) a.argv[a.argc++] = (char *)s;
  va_end(ap);
  return in_child(parse_arguments, &a);
}

static void expect_fault(outcome o, const char *message) {
  assert_int_equal(o.status, POMP_EXIT_USAGE);
  assert_string_equal(o.err, message);
  assert_string_equal(o.out, "");
}

static int setup(void **state) {
  (void)state;
  pu_set_progname("/bin/prog");
  return 0;
}

static void every_value_form_is_accepted(void **state) {
  (void)state;
  char *argv[] = {"prog", "--output=a",    "in",       "-n", "3",   "--density",
                  "0.5",  "--format=json", "--size=4", "-q", "out", NULL};
  values v = {.verbosity = 1};
  const char *ops[2];
  assert_int_equal(parse(&v, NULL, 11, argv, ops), 2);
  assert_string_equal(v.output, "a");
  assert_int_equal(v.top, 3);
  assert_true(v.density == 0.5);
  assert_int_equal(v.format, 1);
  assert_int_equal(v.size, 4);
  assert_int_equal(v.verbosity, 0);
  assert_string_equal(ops[0], "in");
  assert_string_equal(ops[1], "out");
}

static void short_options_take_attached_or_next_values(void **state) {
  (void)state;
  char *argv[] = {"prog", "-ob", "-n7", "-o", "c", "in", NULL};
  values v = {0};
  const char *ops[2];
  assert_int_equal(parse(&v, NULL, 6, argv, ops), 1);
  assert_string_equal(v.output, "c"); /* the last one wins */
  assert_int_equal(v.top, 7);
}

static void double_dash_ends_the_options(void **state) {
  (void)state;
  char *argv[] = {"prog", "--verbose", "--", "-x", "-", NULL};
  values v = {0};
  const char *ops[2];
  assert_int_equal(parse(&v, NULL, 5, argv, ops), 2);
  assert_int_equal(v.verbosity, 2);
  assert_string_equal(ops[0], "-x");
  assert_string_equal(ops[1], "-");
}

static void a_value_may_start_with_a_dash(void **state) {
  (void)state;
  char *argv[] = {"prog", "-o", "-weird", "in", NULL};
  values v = {0};
  const char *ops[2];
  assert_int_equal(parse(&v, NULL, 4, argv, ops), 1);
  assert_string_equal(v.output, "-weird");
}

static void unknown_options_are_named_with_a_hint(void **state) {
  (void)state;
  expect_fault(run(NULL, "in", "--bogus", NULL),
               "prog: unknown option '--bogus'\nTry 'prog --help'.\n");
  expect_fault(run(NULL, "-x", NULL), "prog: unknown option '-x'\nTry 'prog --help'.\n");
  /* no abbreviations (but a hint), no bundled short flags */
  expect_fault(run(NULL, "--out=a", "in", NULL),
               "prog: unknown option '--out=a'; did you mean '--output'?\nTry 'prog --help'.\n");
  expect_fault(run(NULL, "-qV", "in", NULL), "prog: unknown option '-qV'\nTry 'prog --help'.\n");
}

/* A typo of a long option: the nearest one is named (one letter wrong,
   missing, extra or two swapped; two for longer names), else none. */
static void a_typo_names_the_option_meant(void **state) {
  (void)state;
  expect_fault(run(NULL, "--tpo", "3", "in", NULL),
               "prog: unknown option '--tpo'; did you mean '--top'?\nTry 'prog --help'.\n");
  expect_fault(run(NULL, "--verbos", "in", NULL),
               "prog: unknown option '--verbos'; did you mean '--verbose'?\nTry 'prog --help'.\n");
  expect_fault(run(NULL, "--hlep", NULL),
               "prog: unknown option '--hlep'; did you mean '--help'?\nTry 'prog --help'.\n");
  expect_fault(run(NULL, "--colour", "in", NULL),
               "prog: unknown option '--colour'\nTry 'prog --help'.\n");
}

static void a_missing_value_is_a_fault(void **state) {
  (void)state;
  expect_fault(run(NULL, "in", "-o", NULL),
               "prog: option '-o' needs a value\nTry 'prog --help'.\n");
  expect_fault(run(NULL, "in", "--output", NULL),
               "prog: option '--output' needs a value\nTry 'prog --help'.\n");
}

static void a_flag_takes_no_value(void **state) {
  (void)state;
  expect_fault(run(NULL, "--quiet=1", "in", NULL),
               "prog: option '--quiet' takes no value\nTry 'prog --help'.\n");
}

static void bad_numbers_say_the_range(void **state) {
  (void)state;
  expect_fault(run(NULL, "--top=11", "in", NULL),
               "prog: option '--top': '11' is not a whole number between 0 "
               "and 10\nTry 'prog --help'.\n");
  expect_fault(run(NULL, "-n", "3x", "in", NULL),
               "prog: option '-n': '3x' is not a whole number between 0 and "
               "10\nTry 'prog --help'.\n");
  expect_fault(run(NULL, "--top=", "in", NULL),
               "prog: option '--top': '' is not a whole number between 0 and "
               "10\nTry 'prog --help'.\n");
  expect_fault(run(NULL, "--density", "nan", "in", NULL),
               "prog: option '--density': 'nan' is not a number between 0 "
               "and 1\nTry 'prog --help'.\n");
}

static void bad_choices_list_the_good_ones(void **state) {
  (void)state;
  expect_fault(run(NULL, "--format", "xml", "in", NULL),
               "prog: option '--format': 'xml' is not one of csv, json\n"
               "Try 'prog --help'.\n");
}

static void a_value_parser_says_why(void **state) {
  (void)state;
  expect_fault(run(NULL, "--size=3", "in", NULL),
               "prog: option '--size': '3' is odd\nTry 'prog --help'.\n");
}

static void operands_are_counted(void **state) {
  (void)state;
  expect_fault(run(NULL, NULL), "prog: missing IN\nTry 'prog --help'.\n");
  expect_fault(run(NULL, "a", "b", "c", NULL),
               "prog: unexpected argument 'c'\nTry 'prog --help'.\n");
}

static void a_subcommand_is_named_in_faults(void **state) {
  (void)state;
  expect_fault(run("dump", "--bogus", NULL), "prog: dump: unknown option '--bogus'\n"
                                             "Try 'prog dump --help'.\n");
}

/* "prog diff [-o FILE]" with -o required. */
static int parse_required(int argc, char **argv, const char **out) {
  const pu_option options[] = {{"output", 'o', "FILE", "where", PU_STRING(out), .required = 1},
                               PU_OPT_END};
  const pu_opt_command cmd = {"diff", NULL, 0, 0, .options = options};
  return pu_opt_parse(&cmd, argc, argv, NULL);
}

static void parse_required_without(void *arg) {
  (void)arg;
  const char *out = NULL;
  char *none[] = {"diff", NULL};
  parse_required(1, none, &out);
}

static void a_required_option_must_be_given(void **state) {
  (void)state;
  const char *out = NULL;
  char *given[] = {"diff", "-o", "x", NULL};
  assert_int_equal(parse_required(3, given, &out), 0);
  assert_string_equal(out, "x");
  expect_fault(in_child(parse_required_without, NULL), "prog: diff: missing option '--output'\n"
                                                       "Try 'prog diff --help'.\n");
}

static void parsing_stops_at_a_subcommand(void **state) {
  (void)state;
  static const pu_option none[] = {PU_OPT_END};
  const pu_opt_command cmd = {NULL, "COMMAND [ARG]...", 1, -1, 1, .options = none};
  char *argv[] = {"prog", "dump", "--metric", "x", NULL};
  int n = pu_opt_parse(&cmd, 4, argv, NULL);
  assert_int_equal(n, 3);
  assert_string_equal(argv[4 - n], "dump");
}

static void help_is_generated_from_the_table(void **state) {
  (void)state;
  outcome o = run(NULL, "in", "--help", "--bogus", NULL);
  assert_int_equal(o.status, POMP_EXIT_OK);
  assert_string_equal(o.err, "");
  assert_string_equal(o.out, "Usage: prog [OPTION]... IN OUT\n"
                             "\n"
                             "Options:\n"
                             "  -o, --output=FILE      where to write\n"
                             "  -q, --quiet            say nothing\n"
                             "      --verbose          say more\n"
                             "  -n, --top=N            how many\n"
                             "      --density=D        a fraction\n"
                             "      --format=csv|json  the format\n"
                             "      --size=EVEN        an even number\n"
                             "  -h, --help             show this help and exit\n"
                             "  -V, --version          show the version and exit\n"
                             "\n"
                             "Exit status: 0 success, 1 failure, 2 bad command line.\n");
  static const char usage[] = "Usage: prog dump [OPTION]... IN OUT\n";
  outcome h = run("dump", "-h", NULL);
  assert_int_equal(h.status, POMP_EXIT_OK);
  assert_memory_equal(h.out, usage, sizeof usage - 1);
}

static void long_help_wraps_under_its_column(void **state) {
  (void)state;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  pu_opt_help_row(f, "  -x",
                  "one two three four five six seven eight nine "
                  "ten eleven twelve thirteen fourteen fifteen sixteen",
                  8);
  pu_opt_help_row(f, "  --a-very-long-option", "short", 8);
  fclose(f);
  assert_string_equal(buf, "  -x    one two three four five six seven eight nine "
                           "ten eleven twelve thirteen\n"
                           "        fourteen fifteen sixteen\n"
                           "  --a-very-long-option\n"
                           "        short\n");
  free(buf);
}

static void version_is_printed_by_every_command(void **state) {
  (void)state;
  outcome o = run(NULL, "--version", NULL);
  assert_int_equal(o.status, POMP_EXIT_OK);
  assert_string_equal(o.out, "prog (pomp) " POMP_VERSION_STRING "\n");
  outcome v = run("dump", "-V", NULL);
  assert_string_equal(v.out, "prog (pomp) " POMP_VERSION_STRING "\n");
}

static void say_keys_need_batch(void *arg) {
  (void)arg;
  pu_usage_error("fold", "option '--keys' needs %s", "--batch");
}

static void usage_errors_after_parsing_look_the_same(void **state) {
  (void)state;
  expect_fault(in_child(say_keys_need_batch, NULL), "prog: fold: option '--keys' needs --batch\n"
                                                    "Try 'prog fold --help'.\n");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_value_form_is_accepted),
      cmocka_unit_test(short_options_take_attached_or_next_values),
      cmocka_unit_test(double_dash_ends_the_options),
      cmocka_unit_test(a_value_may_start_with_a_dash),
      cmocka_unit_test(unknown_options_are_named_with_a_hint),
      cmocka_unit_test(a_typo_names_the_option_meant),
      cmocka_unit_test(a_missing_value_is_a_fault),
      cmocka_unit_test(a_flag_takes_no_value),
      cmocka_unit_test(bad_numbers_say_the_range),
      cmocka_unit_test(bad_choices_list_the_good_ones),
      cmocka_unit_test(a_value_parser_says_why),
      cmocka_unit_test(operands_are_counted),
      cmocka_unit_test(a_subcommand_is_named_in_faults),
      cmocka_unit_test(a_required_option_must_be_given),
      cmocka_unit_test(parsing_stops_at_a_subcommand),
      cmocka_unit_test(help_is_generated_from_the_table),
      cmocka_unit_test(long_help_wraps_under_its_column),
      cmocka_unit_test(version_is_printed_by_every_command),
      cmocka_unit_test(usage_errors_after_parsing_look_the_same),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
