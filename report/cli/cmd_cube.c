/* cmd_cube.c -- pomp-report cube: a report (or a .cubex) written as a
   CUBE4 .cubex for the CUBE GUI, cube_dump and the tools around them. */
#include "cli.h"
#include "pomp_util.h"

static const char summary[] =
    "Writes REPORT (a report, an experiment directory or a .cubex) as a CUBE4\n"
    ".cubex: Scalasca's metric names and help URLs, values inclusive along\n"
    "the metric tree, time inclusive along the call tree (docs/FORMAT.md).\n";

int cmd_cube(int argc, char **argv) {
  const char *path, *out = NULL;
  const pu_option options[] = {
      {"output", 'o', "FILE", "the .cubex to write", PU_STRING(&out), .required = 1}, PU_OPT_END};
  const pu_opt_command cmd = {
      "cube", "REPORT", 1, 1, .summary = summary, .options = options, .failure = CLI_FAILURE};
  pu_opt_parse(&cmd, argc, argv, &path);
  if (cli_same_file(path, out))
    pu_die(POMP_EXIT_USAGE, "output %s would overwrite input %s", out, path);
  pomp_report *r = cli_open(path);
  pomp_report_error err;
  pomp_report_status st = pomp_report_write_cube(r, out, &err);
  pomp_report_free(r);
  if (st != POMP_REPORT_OK) pu_die(POMP_EXIT_FAILURE, "%s", err.message);
  return POMP_EXIT_OK;
}
