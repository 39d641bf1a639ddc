/*
 * cli.h -- what the pomp-report subcommands share: opening a report (or
 * dying with the library's message), value formatting.  Options are
 * parsed by common/pomp_opt.h, one table per subcommand.
 */
#ifndef REPORT_CLI_H
#define REPORT_CLI_H

#include <stdio.h>

#include "pomp_opt.h"
#include "pomp_report.h"

/* What exit status 1 means, in every subcommand's --help. */
#define CLI_FAILURE "failure (bad or unreadable report, I/O error)"

/* Opens a report or experiment directory; prints the error and exits 1. */
pomp_report *cli_open(const char *path);
/* cli_open for an input of diff compared with other: no note that a
   re-run is newer when other is that re-run (the user named both). */
pomp_report *cli_open_compared(const char *path, const char *other);
/* Exits 1 if r is a difference of two reports (pomp-report diff), whose
   values are no run's: "PATH: a difference of two runs (A - B): WHAT are
   a run's, not a difference's", as the library refuses POP efficiencies
   and the search. */
void cli_refuse_difference(const pomp_report *r, const char *path, const char *what);
/* Whether writing out would replace the report arg names (a file, or the
   report.pomp of an experiment directory): outputs written while inputs
   are read must not be an input. */
int cli_same_file(const char *arg, const char *out);
/* The file a command writes: the one -o names, else the command's
   default (diff's diff.pomp, cube's EXP/trace.cubex), as Scalasca's tools
   write cube_diff's diff.cubex or square's trace.cubex unasked. */
typedef struct {
  const char *path;
  int is_default; /* not named with -o: said on stderr once written */
} cli_output;
/* What a default output may replace: an earlier output of the same
   command, which is_earlier tells from the file opened as a report
   (what: "a difference of two reports").  Anything else there stays. */
typedef struct {
  const char *what;
  int (*is_earlier)(const pomp_report *old);
} cli_earlier_output;
/* named (-o) when not NULL, else default_path (the caller keeps both
   alive).  Exits 2, nothing written, when the output would replace one
   of the n inputs (cli_same_file) and, for the default, when a file that
   is not earlier->what is there: "PATH exists and is not WHAT; name the
   output with -o". */
cli_output cli_choose_output(const char *named, const char *default_path,
                             const char *const inputs[], int n, const cli_earlier_output *earlier);
/* After writing out: "wrote PATH (WHY)" on stderr for a default output,
   nothing for one the user named. */
void cli_say_written(cli_output out, const char *why_fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Metric id by name; prints an error naming the report and exits 1. */
int32_t cli_metric(const pomp_report *r, const char *name, const char *path);
/* Shortest text that reads back as the same double. */
void cli_format_double(char *buf, size_t size, double v);
/* The call path joined with ';' into a growing buffer (freed by caller). */
const char *cli_callpath(const pomp_report *r, int32_t cnode, char **buf, size_t *cap);
/* s as a JSON string literal on stdout. */

/* s as a JSON string, quoted and escaped, on stdout. */
void cli_put_json_string(const char *s);
/* The lines every summary starts with: "WARNING: incomplete run: ..." for
   a run that did not finish, "WARNING: measurement perturbation ..." and
   the note of a profile-mode report; nothing for a complete trace. */
void cli_print_warnings(const pomp_report *r);

int cmd_dump(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_fold(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_generate(int argc, char **argv);
int cmd_defs(int argc, char **argv);
int cmd_score(int argc, char **argv);
int cmd_pop(int argc, char **argv);
int cmd_cube(int argc, char **argv);
int cmd_search(int argc, char **argv);

#endif
