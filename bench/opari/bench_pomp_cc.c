/*
 * bench_pomp_cc.c -- what instrumenting costs at compile time.
 *
 *   bench-pomp-cc POMP_CC CC HEAT_C [LINES]
 *
 * Compiles (-c -O2 -fopenmp) examples/heat.c (HEAT_C, an MPI program: CC
 * should be mpicc) and a generated OpenMP unit of LINES lines (default
 * 10,000; see bench_util.h) three ways, best of 3 each, in this same run:
 * plain `CC` (the baseline), `pomp-cc CC` (preprocessed first, the
 * default) and `pomp-cc --no-preprocess CC`.  Prints CPU seconds (user +
 * system of the command and its children: the machine is shared, the
 * wall clock mostly measures the others) and the ratios to plain CC.
 * Function instrumentation is left out (--no-functions): it is a compiler
 * flag, the same cost either way.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

static void compile(const char *what, const char *pomp_cc, const char *cc, const char *src,
                    const char *obj) {
  char *plain[] = {(char *)cc, "-fopenmp", "-O2", "-c", (char *)src, "-o", (char *)obj, NULL};
  char *pp[] = {(char *)pomp_cc, "--no-functions",
                (char *)cc,      "-fopenmp",
                "-O2",           "-c",
                (char *)src,     "-o",
                (char *)obj,     NULL};
  char *nopp[] = {(char *)pomp_cc,
                  "--no-functions",
                  "--no-preprocess",
                  (char *)cc,
                  "-fopenmp",
                  "-O2",
                  "-c",
                  (char *)src,
                  "-o",
                  (char *)obj,
                  NULL};
  Run base = bench_run(plain), a = bench_run(pp), b = bench_run(nopp);
  printf("%s\n", what);
  printf("  %-34s cpu %6.3f s  wall %6.3f s%s\n", "cc -c (baseline)", base.seconds, base.wall,
         base.status ? "  (FAILED)" : "");
  printf("  %-34s cpu %6.3f s  wall %6.3f s  %5.2f x cc%s\n", "pomp-cc (preprocess first)",
         a.seconds, a.wall, a.seconds / base.seconds, a.status ? "  (FAILED)" : "");
  printf("  %-34s cpu %6.3f s  wall %6.3f s  %5.2f x cc%s\n", "pomp-cc --no-preprocess", b.seconds,
         b.wall, b.seconds / base.seconds, b.status ? "  (FAILED)" : "");
  printf("  preprocessing first costs %.2f x the source-mode pomp-cc (+%.3f s cpu)\n",
         a.seconds / b.seconds, a.seconds - b.seconds);
}

int main(int argc, char **argv) {
  if (argc < 4 || strcmp(argv[1], "--help") == 0) {
    fprintf(argc < 4 ? stderr : stdout, "usage: %s POMP_CC CC HEAT_C [LINES]\n", argv[0]);
    return argc < 4 ? 2 : 0;
  }
  long want = argc > 4 ? atol(argv[4]) : 10000, lines, pragmas;
  char dir[] = "/tmp/bench-pomp-cc-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  char gen[64], obj[64], cmd[96];
  snprintf(gen, sizeof gen, "%s/gen.c", dir);
  snprintf(obj, sizeof obj, "%s/x.o", dir);
  bench_generate(gen, want, &lines, &pragmas);
  compile(argv[3], argv[1], argv[2], argv[3], obj);
  char what[128];
  snprintf(what, sizeof what, "generated unit: %ld lines, %ld OpenMP directives", lines, pragmas);
  compile(what, argv[1], argv[2], gen, obj);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  return system(cmd) != 0;
}
