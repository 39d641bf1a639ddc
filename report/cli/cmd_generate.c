/* cmd_generate.c -- pomp-report generate: a deterministic synthetic report
   (pomp_report_generate) for tests, benchmarks and demos. */
#include <stdint.h>

#include "cli.h"
#include "pomp_util.h"

static const char usage[] =
    "Usage: pomp-report generate -o FILE [--cnodes N] [--locations L]\n"
    "       [--threads T] [--metrics M] [--density D] [--seed S]\n"
    "Writes a synthetic report: N call paths (default 200), L locations\n"
    "(16) in processes of T threads (4), the first M metrics of the\n"
    "catalogue then synthetic ones (32), a fraction D of all (metric, call\n"
    "path, location) cells set (0.25), random seed S (1).  The same\n"
    "parameters always give the same bytes.\n";

static int32_t int_option(const char *opt, const char *text) {
  long long v = cli_integer("generate", opt, text);
  if (v < 1 || v > INT32_MAX)
    cli_usage_error("generate", "%s must be between 1 and %d", opt, INT32_MAX);
  return (int32_t)v;
}

int cmd_generate(int argc, char **argv) {
  const char *out = NULL, *cnodes = "200", *locations = "16", *threads = "4",
             *metrics = "32", *density = "0.25", *seed = "1", *pos;
  int got;
  cli_option opts[] = {{"output", 'o', &out, NULL},
                       {"cnodes", 0, &cnodes, NULL},
                       {"locations", 0, &locations, NULL},
                       {"threads", 0, &threads, NULL},
                       {"metrics", 0, &metrics, NULL},
                       {"density", 0, &density, NULL},
                       {"seed", 0, &seed, NULL},
                       {NULL, 0, NULL, NULL}};
  cli_parse(argc, argv, opts, &pos, 0, &got, usage);
  if (!out) cli_usage_error("generate", "needs -o FILE");
  pomp_report_synth p = {int_option("--cnodes", cnodes),
                         int_option("--locations", locations),
                         int_option("--threads", threads),
                         int_option("--metrics", metrics),
                         cli_number("generate", "--density", density),
                         (uint64_t)cli_integer("generate", "--seed", seed)};
  if (p.density < 0 || p.density > 1)
    cli_usage_error("generate", "--density must be between 0 and 1");
  pomp_report_error err;
  if (pomp_report_generate(&p, out, &err) != POMP_REPORT_OK)
    pu_die(POMP_EXIT_FAILURE, "%s", err.message);
  return POMP_EXIT_OK;
}
