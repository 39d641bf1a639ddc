/* main.c -- pomp-report: the scripting face of report.pomp (man page
   docs/man/pomp-report.1).  Dispatches to one cmd_*.c per subcommand. */
#include <string.h>

#include "cli.h"
#include "pomp_util.h"

static const char usage[] =
    "Usage: pomp-report COMMAND [OPTIONS] REPORT...\n"
    "Read, summarise, compare and generate pomp reports (report.pomp).\n"
    "REPORT is a report file or an experiment directory holding report.pomp.\n"
    "\n"
    "Commands:\n"
    "  dump REPORT [--metric M] [--format csv|json]\n"
    "                    every stored (exclusive) value, one per line\n"
    "  stat REPORT [-n N]  properties ranked by share of total time, with\n"
    "                    their N worst call paths and locations\n"
    "  fold REPORT --metric M\n"
    "                    folded stacks for flamegraph.pl and speedscope\n"
    "  diff A B -o C     C = A minus B over the union of definitions\n"
    "  generate -o FILE [--cnodes N --locations L --threads T --metrics M\n"
    "           --density D --seed S]   a deterministic synthetic report\n"
    "  defs REPORT       the definitions as JSON\n"
    "  score REPORT [-n N] [--suggest-filter]\n"
    "                    estimated trace size, the regions that make it,\n"
    "                    and a POMP_FILTER file that leaves the small ones out\n"
    "\n"
    "Options: --help (also after a command), --version.\n"
    "Exit status: 0 success, 1 failure (bad or unreadable report), 2 usage.\n";

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
} commands[] = {{"dump", cmd_dump}, {"stat", cmd_stat},
                {"fold", cmd_fold}, {"diff", cmd_diff},
                {"generate", cmd_generate}, {"defs", cmd_defs},
                {"score", cmd_score}};

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  static char out_buffer[1 << 16]; /* dumps are large: fewer write calls */
  setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
  if (argc < 2) {
    fputs(usage, stderr);
    return POMP_EXIT_USAGE;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(usage, stdout);
    return POMP_EXIT_OK;
  }
  if (strcmp(argv[1], "--version") == 0) {
    pu_print_version();
    return POMP_EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(argv[1], commands[i].name) == 0) {
      int rc = commands[i].run(argc - 1, argv + 1);
      if (fflush(stdout) != 0 || ferror(stdout))
        pu_die(POMP_EXIT_FAILURE, "error writing the output");
      return rc;
    }
  pu_error("unknown command '%s'", argv[1]);
  fprintf(stderr, "Try '%s --help'.\n", pu_progname());
  return POMP_EXIT_USAGE;
}
