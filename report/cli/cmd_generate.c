/* cmd_generate.c -- pomp-report generate: a deterministic synthetic report
   (pomp_report_generate) for tests, benchmarks and demos. */
#include <stdint.h>

#include "cli.h"
#include "pomp_util.h"

static const char summary[] =
    "Writes a synthetic report to FILE: call paths, locations in processes\n"
    "of T threads, the first M metrics of the catalogue then synthetic ones,\n"
    "a fraction D of all (metric, call path, location) cells set.  The same\n"
    "parameters always give the same bytes.\n";

int cmd_generate(int argc, char **argv) {
  const char *out = NULL;
  long long cnodes = 200, locations = 16, threads = 4, metrics = 32, seed = 1;
  double density = 0.25;
  const pu_option options[] = {
      {"output", 'o', "FILE", "the report to write", PU_STRING(&out), .required = 1},
      {"cnodes", 0, "N", "call paths (default 200)", PU_INT(&cnodes, 1, INT32_MAX)},
      {"locations", 0, "L", "locations (default 16)", PU_INT(&locations, 1, INT32_MAX)},
      {"threads", 0, "T", "threads per process (default 4)", PU_INT(&threads, 1, INT32_MAX)},
      {"metrics", 0, "M", "metrics (default 32)", PU_INT(&metrics, 1, INT32_MAX)},
      {"density", 0, "D", "fraction of the cells set (default 0.25)", PU_NUMBER(&density, 0, 1)},
      {"seed", 0, "S", "random seed (default 1)", PU_INT(&seed, 0, LLONG_MAX)},
      PU_OPT_END};
  const pu_opt_command cmd = {
      "generate", NULL, 0, 0, .summary = summary, .options = options, .failure = CLI_FAILURE};
  pu_opt_parse(&cmd, argc, argv, NULL);
  pomp_report_synth p = {(int32_t)cnodes, (int32_t)locations, (int32_t)threads, (int32_t)metrics,
                         density,         (uint64_t)seed};
  pomp_report_error err;
  if (pomp_report_generate(&p, out, &err) != POMP_REPORT_OK)
    pu_die(POMP_EXIT_FAILURE, "%s", err.message);
  return POMP_EXIT_OK;
}
