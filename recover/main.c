/* main.c -- pomp-recover EXPERIMENT_DIR: completes the trace of a run
   that died from the fragments its ranks left (pomp_recover.h). */
#include <stdio.h>
#include <string.h>

#include "pomp_recover.h"
#include "pomp_util.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: %s [--skip-damaged] EXPERIMENT_DIR\n"
          "Completes the OTF2 trace of a run that died (MPI_Abort, a signal, exit\n"
          "without MPI_Finalize, SIGKILL) from the fragments its ranks left in\n"
          "EXPERIMENT_DIR/fragments. Prints one line per rank: complete, events up\n"
          "to its last buffer flush, or missing.\n"
          "  --skip-damaged  a damaged fragment is a warning; its rank is recovered\n"
          "                  as missing (else recovery stops at it)\n"
          "  --help     this text\n"
          "  --version  the version\n"
          "Exit status: 0 recovered or nothing to recover, 1 failed, 2 usage.\n",
          pu_progname());
}

/* The per-rank lines recovery recorded. */
static void print_ranks(const char *dir) {
  char path[4300], line[1024];
  snprintf(path, sizeof path, "%s/fragments/RECOVERED", dir);
  FILE *f = fopen(path, "r");
  if (!f) return;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "rank ", 5)) fputs(line, stdout);
  fclose(f);
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  const char *dir = NULL;
  int options = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--skip-damaged")) {
      options |= POMP_RECOVER_SKIP_DAMAGED;
      continue;
    }
    if (!strcmp(argv[i], "--help")) {
      usage(stdout);
      return POMP_EXIT_OK;
    }
    if (!strcmp(argv[i], "--version")) {
      pu_print_version();
      return POMP_EXIT_OK;
    }
    if ((argv[i][0] == '-' && argv[i][1]) || dir) {
      usage(stderr);
      return POMP_EXIT_USAGE;
    }
    dir = argv[i];
  }
  if (!dir) {
    usage(stderr);
    return POMP_EXIT_USAGE;
  }
  pomp_recover_summary s;
  if (pomp_recover_with(dir, options, &s) != 0) return POMP_EXIT_FAILURE;
  if (s.ranks == 0) {
    printf("%s: nothing to recover\n", dir);
    return POMP_EXIT_OK;
  }
  print_ranks(dir);
  printf("%s: trace recovered: %u ranks, %u complete, %u partial, %u missing (%s)\n", dir,
         s.ranks, s.ranks_complete, s.ranks_partial, s.ranks_missing, s.reason);
  return POMP_EXIT_OK;
}
