/* cmd_defs.c -- pomp-report defs: the definitions section as JSON, for jq. */
#include <stdlib.h>

#include "cli.h"
#include "pomp_util.h"

static const char summary[] =
    "Prints the definitions of REPORT (metrics, regions, call tree, system\n"
    "tree, attributes) as JSON, e.g. for jq.\n";

int cmd_defs(int argc, char **argv) {
  const char *path;
  int compact = 0;
  const pu_option options[] = {
      {"compact", 'c', NULL, "one line, no indentation", PU_FLAG(&compact, 1)}, PU_OPT_END};
  const pu_opt_command cmd = {
      "defs", "REPORT", 1, 1, .summary = summary, .options = options, .failure = CLI_FAILURE};
  pu_opt_parse(&cmd, argc, argv, &path);
  pomp_report *r = cli_open(path);
  char *json = pomp_report_defs_json(r, !compact);
  puts(json);
  free(json);
  pomp_report_free(r);
  return POMP_EXIT_OK;
}
