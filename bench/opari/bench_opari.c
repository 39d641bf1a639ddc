/*
 * bench_opari.c -- throughput of pomp-opari on a generated C unit.
 *
 *   bench-opari POMP_OPARI [LINES] [--opari PATH] [--opari2 PATH]
 *
 * Generates a C file of LINES lines (default 1,000,000) with one OpenMP
 * directive per 20 lines (five constructs per function, lock calls, decoy
 * `#pragma omp` in comments and strings), then times, best of 3 runs in
 * this same process: a plain copy of the file (the baseline: reading and
 * writing that many bytes), pomp-opari, and OPARI 1.1 / OPARI2 when their
 * paths are given.  Prints CPU seconds (user + system: on a shared machine
 * the wall clock mostly measures the other processes), wall seconds,
 * ratios and peak RSS.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

static void report(const char *what, Run r, double base, long lines) {
  printf("%-16s cpu %6.3f s (%5.1f x copy, %5.2f s per M lines)  wall %6.3f s  RSS %6.1f MB%s\n",
         what, r.seconds, r.seconds / base, r.seconds / (lines / 1e6), r.wall, r.rss_kb / 1024.0,
         r.status ? "  (FAILED)" : "");
}

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0) {
    fprintf(argc < 2 ? stderr : stdout,
            "usage: %s POMP_OPARI [LINES] [--opari PATH] [--opari2 PATH]\n", argv[0]);
    return argc < 2 ? 2 : 0;
  }
  const char *pomp_opari = argv[1], *opari = NULL, *opari2 = NULL;
  long want = 1000000;
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--opari") == 0 && i + 1 < argc) opari = argv[++i];
    else if (strcmp(argv[i], "--opari2") == 0 && i + 1 < argc) opari2 = argv[++i];
    else want = atol(argv[i]);
  }
  char dir[] = "/tmp/bench-opari-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  char in[64], out[64], cmd[256];
  snprintf(in, sizeof in, "%s/gen.c", dir);
  snprintf(out, sizeof out, "%s/gen.mod.c", dir);
  long lines, pragmas;
  bench_generate(in, want, &lines, &pragmas);
  struct stat st;
  stat(in, &st);
  printf("input: %ld lines, %ld OpenMP directives, %.1f MB\n", lines, pragmas,
         st.st_size / 1048576.0);
  char *copy[] = {"/bin/cp", in, out, NULL};
  Run base = bench_run(copy);
  report("copy (baseline)", base, base.seconds, lines);
  char *mine[] = {(char *)pomp_opari, in, out, NULL};
  Run r = bench_run(mine);
  report("pomp-opari", r, base.seconds, lines);
  if (opari) {
    /* OPARI 1.1 keeps a state file in the working directory */
    if (chdir(dir) != 0) return 1;
    char *argv1[] = {(char *)opari, in, out, NULL};
    Run o = bench_run(argv1);
    report("opari 1.1", o, base.seconds, lines);
    printf("  pomp-opari is %.2fx as fast as OPARI 1.1 (cpu), %.2fx (wall)\n",
           o.seconds / r.seconds, o.wall / r.wall);
  }
  if (opari2) {
    char *argv2[] = {(char *)opari2, in, out, NULL};
    Run o = bench_run(argv2);
    report("opari2", o, base.seconds, lines);
    printf("  pomp-opari is %.2fx as fast as OPARI2 (cpu), %.2fx (wall)\n", o.seconds / r.seconds,
           o.wall / r.wall);
  }
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) return 1;
  return 0;
}
