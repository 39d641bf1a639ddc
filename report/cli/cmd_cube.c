/* cmd_cube.c -- pomp-report cube: a report (or a .cubex) written as a
   CUBE4 .cubex for the CUBE GUI, cube_dump and the tools around them. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "pomp_util.h"

static const char summary[] =
    "Writes REPORT (a report, an experiment directory or a .cubex) as a CUBE4\n"
    ".cubex: Scalasca's metric names and help URLs, values inclusive along\n"
    "the metric tree, time inclusive along the call tree (docs/FORMAT.md).\n"
    "Without -o, it goes where Scalasca's square leaves a .cubex:\n"
    "EXP/trace.cubex for the analysis of a trace in experiment EXP (REPORT\n"
    "EXP or EXP/report.pomp), EXP/summary.cubex for a profile\n"
    "(POMP_MODE=profile), x.cubex for any other report x.pomp; said on\n"
    "stderr.  It replaces a .cubex pomp-report wrote there, never an input\n"
    "or another file.\n";

/* An experiment's .cubex, named as square names Scalasca's. */
static const char *experiment_cube_name(const pomp_report *r) {
  return pomp_report_mode_note(r) ? "summary.cubex" : "trace.cubex";
}

/* dir (which may end in '/') joined with name; freed by the caller. */
static char *join(const char *dir, size_t dir_len, const char *name) {
  while (dir_len > 1 && dir[dir_len - 1] == '/') dir_len--;
  size_t len = dir_len + 1 + strlen(name) + 1;
  char *path = pu_malloc(len);
  snprintf(path, len, "%.*s%s%s", (int)dir_len, dir, dir_len && dir[dir_len - 1] != '/' ? "/" : "",
           name);
  return path;
}

/* The output without -o (freed by the caller): in the experiment that
   path is or whose report.pomp it names, square's name; else path with
   .cubex for .pomp (a .cubex input names itself: refused as an input). */
static char *default_output(const char *path, const pomp_report *r) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return join(path, strlen(path), experiment_cube_name(r));
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
  if (strcmp(base, "report.pomp") == 0)
    return join(path, (size_t)(base - path), experiment_cube_name(r));
  size_t stem = strlen(path), ext = sizeof ".pomp" - 1;
  if (stem > ext && strcmp(path + stem - ext, ".pomp") == 0) stem -= ext;
  else if (stem > ext + 1 && strcmp(path + stem - ext - 1, ".cubex") == 0) return pu_strdup(path);
  char *out = pu_malloc(stem + sizeof ".cubex");
  snprintf(out, stem + sizeof ".cubex", "%.*s.cubex", (int)stem, path);
  return out;
}

/* What a default .cubex may replace: one pomp-report wrote (its Creator
   attribute, cube_write.c), not Scalasca's or Score-P's. */
static int is_pomp_cube(const pomp_report *old) {
  static const char creator[] = "pomp-report ";
  const char *by = pomp_report_attr(old, "Creator");
  return by && strncmp(by, creator, sizeof creator - 1) == 0;
}

int cmd_cube(int argc, char **argv) {
  const char *path, *out = NULL;
  const pu_option options[] = {
      {"output", 'o', "FILE", "the .cubex to write, not REPORT (default: above)", PU_STRING(&out)},
      PU_OPT_END};
  const pu_opt_command cmd = {
      "cube", "REPORT", 1, 1, .summary = summary, .options = options, .failure = CLI_FAILURE};
  pu_opt_parse(&cmd, argc, argv, &path);
  pomp_report *r = cli_open(path);
  char *fallback = out ? NULL : default_output(path, r);
  const cli_earlier_output pomp_cube = {"a .cubex written by pomp-report", is_pomp_cube};
  cli_output c = cli_choose_output(out, fallback, &path, 1, &pomp_cube);
  pomp_report_error err;
  pomp_report_status st = pomp_report_write_cube(r, c.path, &err);
  pomp_report_free(r);
  if (st != POMP_REPORT_OK) pu_die(POMP_EXIT_FAILURE, "%s", err.message);
  cli_say_written(c, "%s as CUBE4", path);
  free(fallback);
  return POMP_EXIT_OK;
}
