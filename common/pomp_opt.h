/*
 * pomp_opt.h -- the one command-line parser of every pomp command: a table
 * of options (long name, short letter, value name, one-line help, where the
 * value goes) from which it parses argv and GENERATES --help, so that the
 * help cannot drift from what is accepted.  Part of pomp-common (internal).
 *
 * Accepted forms: "--name", "--name VALUE", "--name=VALUE", "-s", "-s VALUE",
 * "-sVALUE"; "--" ends the options; "-" alone is an operand; options and
 * operands may be mixed.  Every command knows -h/--help and -V/--version.
 *
 * Every fault of the command line is said the same way, on stderr, then
 * the program exits with POMP_EXIT_USAGE (2):
 *
 *   PROG: [SUBCOMMAND: ]unknown option '--x'
 *   PROG: [SUBCOMMAND: ]unknown option '--tpo'; did you mean '--top'?
 *   PROG: [SUBCOMMAND: ]option '--x' needs a value
 *   PROG: [SUBCOMMAND: ]option '--x' takes no value
 *   PROG: [SUBCOMMAND: ]option '--top': 'abc' is not a whole number between 0 and 1000
 *   PROG: [SUBCOMMAND: ]option '--format': 'xml' is not one of csv, json
 *   PROG: [SUBCOMMAND: ]unexpected argument 'c'
 *   PROG: [SUBCOMMAND: ]missing OUTPUT
 *   PROG: [SUBCOMMAND: ]missing option '--output'
 *   Try 'PROG [SUBCOMMAND ]--help'.
 */
#ifndef POMP_OPT_H
#define POMP_OPT_H

#include <limits.h> /* LLONG_MAX, for max */
#include <stddef.h>
#include <stdio.h>

/* What an option does with its value; target points at the variable. */
typedef enum {
  PU_OPT_FLAG,   /* no value: *(int *)target = flag_value */
  PU_OPT_STRING, /* *(const char **)target = VALUE (a pointer into argv) */
  PU_OPT_INT,    /* *(long long *)target = VALUE, a whole number in [min, max] */
  PU_OPT_NUMBER, /* *(double *)target = VALUE, a finite number in [min, max] */
  PU_OPT_CHOICE, /* *(int *)target = index of VALUE in choices */
  PU_OPT_CALL    /* parse(VALUE, target, why, why_size) == 0, else why says */
} pu_opt_kind;

/* A value parser of PU_OPT_CALL: 0 on success; otherwise -1 with the
   reason (without the option's name) in why. */
typedef int (*pu_opt_parse_fn)(const char *value, void *target, char *why, size_t why_size);

typedef struct {
  const char *name;       /* long name without "--"; NULL ends the table */
  char short_name;        /* 0: none */
  const char *value_name; /* "FILE": takes a value; NULL: a flag */
  const char *help;       /* for --help: one line, wrapped when long */
  pu_opt_kind kind;
  void *target;
  int flag_value;             /* PU_OPT_FLAG */
  long long min, max;         /* PU_OPT_INT and PU_OPT_NUMBER */
  const char *const *choices; /* PU_OPT_CHOICE, NULL-terminated */
  pu_opt_parse_fn parse;      /* PU_OPT_CALL */
  int required;               /* missing: a fault (at most 64 per table) */
} pu_option;

/* The tail of a table entry after {name, short, value name, help, ...}:
     {"output", 'o', "FILE", "write the report to FILE", PU_STRING(&out)},
   and PU_OPT_END ends the table. */
#define PU_FLAG(var, value) .kind = PU_OPT_FLAG, .target = (var), .flag_value = (value)
#define PU_STRING(var) .kind = PU_OPT_STRING, .target = (var)
#define PU_INT(var, lo, hi) .kind = PU_OPT_INT, .target = (var), .min = (lo), .max = (hi)
#define PU_NUMBER(var, lo, hi) .kind = PU_OPT_NUMBER, .target = (var), .min = (lo), .max = (hi)
#define PU_CHOICE(var, list) .kind = PU_OPT_CHOICE, .target = (var), .choices = (list)
#define PU_CALL(fn, var) .kind = PU_OPT_CALL, .target = (var), .parse = (fn)
#define PU_OPT_END                                                                                 \
  { 0 }

/* A command (or a subcommand such as "pomp-report dump"). */
typedef struct {
  const char *subcommand; /* "dump", or NULL for the program itself */
  /* The operands as the usage line names them, words separated by blanks
     ("INPUT OUTPUT", "COMMAND [ARG]..."); the k-th word names the operand
     a "missing" message asks for. */
  const char *operands;
  int min_operands;
  int max_operands; /* -1: any number */
  /* Parsing stops at the first operand: the rest of argv is the operands
     (a program with subcommands). */
  int stop_at_operand;
  const char *summary; /* after the usage line; lines end in '\n' */
  const pu_option *options;
  const char *more;           /* printed after the options (may be NULL) */
  void (*more_fn)(FILE *out); /* prints more after that (may be NULL) */
  const char *success;        /* what exit status 0 means (NULL: "success") */
  const char *failure;        /* what exit status 1 means (NULL: "failure") */
} pu_opt_command;

/* Parses argv[1..argc).  The operands are stored in order in operands[]
   (room for max_operands; may be NULL when max_operands is 0 or with
   stop_at_operand, where the operands are the last n entries of argv);
   returns their number n.  --help prints the generated help on stdout,
   --version the version, and exit 0; every fault exits 2 (see above). */
int pu_opt_parse(const pu_opt_command *cmd, int argc, char **argv, const char **operands);

/* The generated help: usage line, summary, options ("(required)" added to
   the help of a required one), more, exit status. */
void pu_opt_help(const pu_opt_command *cmd, FILE *out);

/* One "  LEFT  help" row of a help screen, the help wrapped at 79 columns
   and aligned at column `at` (for tables that are not options, such as a
   list of subcommands). */
void pu_opt_help_row(FILE *out, const char *left, const char *help, int at);

/* A fault of the command line found after parsing ("--keys needs
   --batch"): "PROG: [SUBCOMMAND: ]message", the "Try" line, exit 2.
   subcommand may be NULL. */
_Noreturn void pu_usage_error(const char *subcommand, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* POMP_OPT_H */
