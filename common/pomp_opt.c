/* pomp_opt.c -- see pomp_opt.h. */
#include "pomp_opt.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

enum {
  HELP_WIDTH = 79,   /* help lines wrap before this column */
  HELP_MAX_LEFT = 32 /* a wider option column puts its help on the next line */
};

/* Options every command has; told apart from the command's by address. */
static const pu_option builtins[] = {
    {"help", 'h', NULL, "show this help and exit", PU_FLAG(NULL, 0)},
    {"version", 'V', NULL, "show the version and exit", PU_FLAG(NULL, 0)},
    PU_OPT_END};

static _Noreturn void vusage_error(const char *subcommand, const char *fmt, va_list ap) {
  fprintf(stderr, "%s: ", pu_progname());
  if (subcommand) fprintf(stderr, "%s: ", subcommand);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nTry '%s %s%s--help'.\n", pu_progname(), subcommand ? subcommand : "",
          subcommand ? " " : "");
  exit(POMP_EXIT_USAGE);
}

void pu_usage_error(const char *subcommand, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vusage_error(subcommand, fmt, ap);
  va_end(ap);
}

/* The same, for the faults the parser finds. */
static _Noreturn void fault(const pu_opt_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void fault(const pu_opt_command *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vusage_error(cmd->subcommand, fmt, ap);
  va_end(ap);
}

/* ---- finding the option an argument names ---- */

static const pu_option *find_long(const pu_option *table, const char *name, size_t len) {
  for (const pu_option *o = table; o && o->name; o++)
    if (strlen(o->name) == len && memcmp(o->name, name, len) == 0) return o;
  return NULL;
}

static const pu_option *find_short(const pu_option *table, char letter) {
  for (const pu_option *o = table; o && o->name; o++)
    if (o->short_name && o->short_name == letter) return o;
  return NULL;
}

/* The option argv[i] names, its spelling for messages ("--top", "-n") and
   the value written in the same argument ("--top=3", "-n3"), or NULL. */
typedef struct {
  const pu_option *opt;
  char spelling[64];
  const char *inline_value;
} named_option;

static named_option name_option(const pu_opt_command *cmd, const char *arg) {
  named_option n = {NULL, "", NULL};
  if (arg[1] == '-') {
    const char *name = arg + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    n.opt = find_long(cmd->options, name, len);
    if (!n.opt) n.opt = find_long(builtins, name, len);
    if (eq) n.inline_value = eq + 1;
    snprintf(n.spelling, sizeof n.spelling, "--%.*s", (int)len, name);
  } else {
    n.opt = find_short(cmd->options, arg[1]);
    if (!n.opt) n.opt = find_short(builtins, arg[1]);
    if (arg[2]) n.inline_value = arg + 2;
    snprintf(n.spelling, sizeof n.spelling, "-%c", arg[1]);
  }
  /* "-qv" is not "-q" given a value: short flags are not bundled */
  if (n.opt && !n.opt->value_name && arg[1] != '-' && n.inline_value) n.opt = NULL;
  return n;
}

/* ---- storing a value ---- */

static void store_int(const pu_opt_command *cmd, const named_option *n, const char *v) {
  const pu_option *o = n->opt;
  char *end;
  errno = 0;
  long long x = strtoll(v, &end, 10);
  if (errno || end == v || *end || x < o->min || x > o->max) {
    if (o->max == LLONG_MAX)
      fault(cmd, "option '%s': '%s' is not a whole number of at least %lld", n->spelling, v,
            o->min);
    fault(cmd, "option '%s': '%s' is not a whole number between %lld and %lld", n->spelling, v,
          o->min, o->max);
  }
  *(long long *)o->target = x;
}

static void store_number(const pu_opt_command *cmd, const named_option *n, const char *v) {
  const pu_option *o = n->opt;
  char *end;
  errno = 0;
  double x = strtod(v, &end);
  if (errno || end == v || *end || !isfinite(x) || x < (double)o->min || x > (double)o->max)
    fault(cmd, "option '%s': '%s' is not a number between %lld and %lld", n->spelling, v, o->min,
          o->max);
  *(double *)o->target = x;
}

static void store_choice(const pu_opt_command *cmd, const named_option *n, const char *v) {
  const char *const *c = n->opt->choices;
  for (int k = 0; c[k]; k++)
    if (strcmp(c[k], v) == 0) {
      *(int *)n->opt->target = k;
      return;
    }
  char list[256] = "";
  for (int k = 0; c[k]; k++) {
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", c[k]);
  }
  fault(cmd, "option '%s': '%s' is not one of %s", n->spelling, v, list);
}

static void store(const pu_opt_command *cmd, const named_option *n, const char *v) {
  const pu_option *o = n->opt;
  char why[256];
  switch (o->kind) {
  case PU_OPT_FLAG: *(int *)o->target = o->flag_value; break;
  case PU_OPT_STRING: *(const char **)o->target = v; break;
  case PU_OPT_INT: store_int(cmd, n, v); break;
  case PU_OPT_NUMBER: store_number(cmd, n, v); break;
  case PU_OPT_CHOICE: store_choice(cmd, n, v); break;
  case PU_OPT_CALL:
    why[0] = '\0';
    if (o->parse(v, o->target, why, sizeof why) != 0)
      fault(cmd, "option '%s': %s", n->spelling, why);
    break;
  }
}

/* ---- the parse ---- */

static void run_builtin(const pu_opt_command *cmd, const pu_option *o) {
  if (o == &builtins[0]) pu_opt_help(cmd, stdout);
  else pu_print_version();
  exit(fflush(stdout) == 0 ? POMP_EXIT_OK : POMP_EXIT_FAILURE);
}

/* The long option of cmd (or a built-in) nearest to a mistyped "--name",
   or NULL when none is near. */
static const char *nearest_long(const pu_opt_command *cmd, const char *arg) {
  if (arg[1] != '-') return NULL;
  const char *name = arg + 2, *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  const pu_option *tables[] = {cmd->options, builtins};
  const char *best = NULL;
  int best_nearness = 0;
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
    for (const pu_option *o = tables[t]; o && o->name; o++) {
      int nearness = pu_name_nearness(name, len, o->name);
      if (nearness > best_nearness) best = o->name, best_nearness = nearness;
    }
  return best;
}

/* Takes the option argv[*i] (and its value); advances *i past the value.
   Returns the option. */
static const pu_option *take_option(const pu_opt_command *cmd, int argc, char **argv, int *i) {
  const char *arg = argv[*i];
  named_option n = name_option(cmd, arg);
  if (!n.opt) {
    const char *near = nearest_long(cmd, arg);
    if (near) fault(cmd, "unknown option '%s'; did you mean '--%s'?", arg, near);
    fault(cmd, "unknown option '%s'", arg);
  }
  if (!n.opt->value_name) {
    if (n.inline_value) fault(cmd, "option '%s' takes no value", n.spelling);
    if (!n.opt->target) run_builtin(cmd, n.opt);
    store(cmd, &n, NULL);
    return n.opt;
  }
  const char *v = n.inline_value;
  if (!v) {
    if (*i + 1 >= argc) fault(cmd, "option '%s' needs a value", n.spelling);
    v = argv[++*i];
  }
  store(cmd, &n, v);
  return n.opt;
}

/* Bit k set: o is option k of the table. */
static unsigned long long option_bit(const pu_option *table, const pu_option *o) {
  for (int k = 0; table && table[k].name && k < 64; k++)
    if (o == &table[k]) return 1ull << k;
  return 0;
}

/* Bit k of the result: option k of the table is required. */
static unsigned long long required_options(const pu_option *table) {
  unsigned long long bits = 0;
  for (int k = 0; table && table[k].name && k < 64; k++)
    if (table[k].required) bits |= 1ull << k;
  return bits;
}

static void check_required(const pu_opt_command *cmd, unsigned long long missing) {
  for (int k = 0; missing; k++, missing >>= 1)
    if (missing & 1) fault(cmd, "missing option '--%s'", cmd->options[k].name);
}

/* Word k of the operands synopsis, without brackets and "...". */
static void operand_name(const char *synopsis, int k, char *buf, size_t size) {
  const char *p = synopsis ? synopsis : "";
  for (;; k--) {
    p += strspn(p, " ");
    size_t len = strcspn(p, " ");
    if (k == 0 || !p[len]) {
      while (len && (*p == '[')) p++, len--;
      while (len && (p[len - 1] == ']' || p[len - 1] == '.')) len--;
      snprintf(buf, size, "%.*s", (int)len, p);
      return;
    }
    p += len;
  }
}

int pu_opt_parse(const pu_opt_command *cmd, int argc, char **argv, const char **operands) {
  int n = 0, options = 1; /* options: until "--" */
  unsigned long long missing = required_options(cmd->options);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (options && strcmp(arg, "--") == 0) {
      options = 0;
    } else if (options && arg[0] == '-' && arg[1] != '\0') {
      missing &= ~option_bit(cmd->options, take_option(cmd, argc, argv, &i));
    } else if (cmd->stop_at_operand) {
      n = argc - i;
      break;
    } else {
      if (cmd->max_operands >= 0 && n >= cmd->max_operands)
        fault(cmd, "unexpected argument '%s'", arg);
      operands[n++] = arg;
    }
  }
  check_required(cmd, missing);
  if (n < cmd->min_operands) {
    char name[128];
    operand_name(cmd->operands, n, name, sizeof name);
    fault(cmd, "missing %s", name);
  }
  return n;
}

/* ---- the generated help ---- */

/* Writes the words of text from column `col` on, wrapping at HELP_WIDTH
   to column `at`. */
static void put_wrapped(FILE *out, const char *text, int col, int at) {
  const char *p = text;
  int first = 1;
  while (*p) {
    size_t len = strcspn(p, " ");
    if (!first && col + 1 + (int)len > HELP_WIDTH) {
      fprintf(out, "\n%*s", at, "");
      col = at;
    } else if (!first) {
      fputc(' ', out);
      col++;
    }
    fwrite(p, 1, len, out);
    col += (int)len;
    first = 0;
    p += len;
    p += strspn(p, " ");
  }
  fputc('\n', out);
}

void pu_opt_help_row(FILE *out, const char *left, const char *help, int at) {
  int col = fprintf(out, "%s", left);
  if (col + 2 > at) {
    fprintf(out, "\n%*s", at, "");
  } else {
    fprintf(out, "%*s", at - col, "");
  }
  put_wrapped(out, help, at, at);
}

/* "  -o, --output=FILE" or "      --top=N". */
static void option_left(const pu_option *o, char *buf, size_t size) {
  char flag[4] = "   ";
  if (o->short_name) snprintf(flag, sizeof flag, "-%c,", o->short_name);
  snprintf(buf, size, "  %s --%s%s%s", flag, o->name, o->value_name ? "=" : "",
           o->value_name ? o->value_name : "");
}

static int left_width(const pu_option *table, int widest) {
  char left[128];
  for (const pu_option *o = table; o && o->name; o++) {
    option_left(o, left, sizeof left);
    int w = (int)strlen(left);
    if (w > widest && w + 2 <= HELP_MAX_LEFT) widest = w;
  }
  return widest;
}

static void put_options(FILE *out, const pu_option *table, int at) {
  char left[128];
  for (const pu_option *o = table; o && o->name; o++) {
    option_left(o, left, sizeof left);
    char help[512];
    snprintf(help, sizeof help, "%s%s", o->help ? o->help : "", o->required ? " (required)" : "");
    pu_opt_help_row(out, left, help, at);
  }
}

void pu_opt_help(const pu_opt_command *cmd, FILE *out) {
  fprintf(out, "Usage: %s%s%s [OPTION]...%s%s\n", pu_progname(), cmd->subcommand ? " " : "",
          cmd->subcommand ? cmd->subcommand : "", cmd->operands ? " " : "",
          cmd->operands ? cmd->operands : "");
  if (cmd->summary) fputs(cmd->summary, out);
  fputs("\nOptions:\n", out);
  int at = left_width(builtins, left_width(cmd->options, 0)) + 2;
  put_options(out, cmd->options, at);
  put_options(out, builtins, at);
  if (cmd->more) fprintf(out, "\n%s", cmd->more);
  if (cmd->more_fn) {
    fputc('\n', out);
    cmd->more_fn(out);
  }
  char status[256];
  snprintf(status, sizeof status, "Exit status: 0 %s, 1 %s, 2 bad command line.",
           cmd->success ? cmd->success : "success", cmd->failure ? cmd->failure : "failure");
  fputc('\n', out);
  put_wrapped(out, status, 0, 0);
}
