/* cmd_defs.c -- pomp-report defs: the definitions section as JSON, for jq. */
#include <stdlib.h>

#include "cli.h"
#include "pomp_util.h"

static const char usage[] =
    "Usage: pomp-report defs REPORT [--compact]\n"
    "Prints the definitions of REPORT (metrics, regions, call tree, system\n"
    "tree, attributes) as JSON, e.g. for jq.\n";

int cmd_defs(int argc, char **argv) {
  const char *path;
  int got, compact = 0;
  cli_option opts[] = {{"compact", 'c', NULL, &compact}, {NULL, 0, NULL, NULL}};
  cli_parse(argc, argv, opts, &path, 1, &got, usage);
  if (got != 1) cli_usage_error("defs", "needs one REPORT");
  pomp_report *r = cli_open(path);
  char *json = pomp_report_defs_json(r, !compact);
  puts(json);
  free(json);
  pomp_report_free(r);
  return POMP_EXIT_OK;
}
