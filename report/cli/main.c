/* main.c -- pomp-report: the scripting face of report.pomp (man page
   docs/man/pomp-report.1).  Dispatches to one cmd_*.c per subcommand;
   each parses its own options (pomp_opt.h). */
#include <string.h>

#include "cli.h"
#include "pomp_opt.h"
#include "pomp_util.h"

static const char summary[] =
    "Read, summarise, compare and generate pomp reports (report.pomp).\n"
    "REPORT is a report file, an experiment directory holding report.pomp,\n"
    "or a CUBE4 .cubex written by Scalasca, Score-P or pomp-report cube.\n";

static const struct {
  const char *name;
  const char *synopsis; /* "dump REPORT ...": the left column of --help */
  const char *help;
  int (*run)(int argc, char **argv);
} commands[] = {
    {"dump", "dump REPORT [--metric M] [--format csv|json]",
     "every stored (exclusive) value, one per line", cmd_dump},
    {"stat", "stat REPORT [-n N]",
     "properties ranked by share of total time, with their N worst call "
     "paths and locations",
     cmd_stat},
    {"fold", "fold REPORT --metric M", "folded stacks for flamegraph.pl and speedscope", cmd_fold},
    {"diff", "diff A B [-o C]",
     "C = A minus B over the union of definitions (default C: diff.pomp)", cmd_diff},
    {"generate", "generate -o FILE [--cnodes N ...]", "a deterministic synthetic report",
     cmd_generate},
    {"defs", "defs REPORT [--compact]", "the definitions as JSON", cmd_defs},
    {"score", "score REPORT [-n N] [--suggest-filter]",
     "estimated trace size, the regions that make it, and a POMP_FILTER "
     "file that leaves the small ones out",
     cmd_score},
    {"pop", "pop REPORT [--callpath P] [--format text|json]",
     "POP efficiencies (parallel, load balance, communication, serialisation, "
     "transfer, MPI and OpenMP) of the run or of a call path's sub-tree",
     cmd_pop},
    {"cube", "cube REPORT [-o FILE.cubex]",
     "the report as CUBE4 for the CUBE GUI and cube tools (default FILE: "
     "EXP/trace.cubex)",
     cmd_cube},
    {"search", "search REPORT [--format text|json] [--threshold HYP=F]...",
     "the automated search for bottlenecks: hypotheses refined along "
     "properties, call tree and locations (Paradyn's Performance Consultant)",
     cmd_search}};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* The commands section of --help, from the table above. */
static void print_commands(FILE *out) {
  fputs("Commands ('pomp-report COMMAND --help' lists a command's options):\n", out);
  for (size_t i = 0; i < NCOMMANDS; i++) {
    char left[80];
    snprintf(left, sizeof left, "  %s", commands[i].synopsis);
    pu_opt_help_row(out, left, commands[i].help, 24);
  }
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  static char out_buffer[1 << 16]; /* dumps are large: fewer write calls */
  setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
  static const pu_option no_options[] = {PU_OPT_END};
  const pu_opt_command cmd = {.operands = "COMMAND [ARG]...",
                              .min_operands = 1,
                              .max_operands = -1,
                              .stop_at_operand = 1,
                              .summary = summary,
                              .options = no_options,
                              .more_fn = print_commands,
                              .failure = CLI_FAILURE};
  int n = pu_opt_parse(&cmd, argc, argv, NULL);
  char **args = argv + argc - n;
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(args[0], commands[i].name) == 0) {
      pu_set_command(commands[i].name);
      int rc = commands[i].run(n, args);
      if (fflush(stdout) != 0 || ferror(stdout))
        pu_die(POMP_EXIT_FAILURE, "error writing the output");
      return rc;
    }
  const char *near = NULL;
  int best = 0;
  for (size_t i = 0; i < NCOMMANDS; i++) {
    int nearness = pu_name_nearness(args[0], strlen(args[0]), commands[i].name);
    if (nearness > best) near = commands[i].name, best = nearness;
  }
  if (near) pu_usage_error(NULL, "unknown command '%s'; did you mean '%s'?", args[0], near);
  pu_usage_error(NULL, "unknown command '%s'", args[0]);
}
