/*
 * cli.h -- what the pomp-report subcommands share: option parsing, opening
 * a report (or dying with the library's message), value formatting.
 */
#ifndef REPORT_CLI_H
#define REPORT_CLI_H

#include <stdio.h>

#include "pomp_report.h"

/* One option of a subcommand: "--name VALUE", "--name=VALUE" or "-s VALUE"
   (has_value), or a flag "--name" (sets *flag). */
typedef struct {
  const char *name;
  char short_name;
  const char **value;
  int *flag;
} cli_option;

/* Parses argv[1..] of a subcommand.  Positional arguments go to pos (at
   most npos; *got says how many).  "--help" prints usage and exits 0; an
   unknown option or too many positionals print a hint and exit 2. */
void cli_parse(int argc, char **argv, const cli_option *opts,
               const char **pos, int npos, int *got, const char *usage);
/* Exit 2 with "pomp-report: CMD: message" and the usage hint. */
_Noreturn void cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Opens a report or experiment directory; prints the error and exits 1. */
pomp_report *cli_open(const char *path);
/* Metric id by name; prints an error naming the report and exits 1. */
int32_t cli_metric(const pomp_report *r, const char *name, const char *path);
/* Parses a non-negative integer / a number option or exits 2. */
long long cli_integer(const char *cmd, const char *opt, const char *text);
double cli_number(const char *cmd, const char *opt, const char *text);

/* Shortest text that reads back as the same double. */
void cli_format_double(char *buf, size_t size, double v);
/* The call path joined with ';' into a growing buffer (freed by caller). */
const char *cli_callpath(const pomp_report *r, int32_t cnode, char **buf,
                         size_t *cap);

int cmd_dump(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_fold(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_generate(int argc, char **argv);
int cmd_defs(int argc, char **argv);
int cmd_score(int argc, char **argv);

#endif
