/* main.c -- pomp-recover EXPERIMENT_DIR: completes the trace of a run
   that died from the fragments its ranks left (pomp_recover.h). */
#include <stdio.h>
#include <string.h>

#include "pomp_recover.h"
#include "pomp_opt.h"
#include "pomp_util.h"

static const char summary[] =
    "Completes the OTF2 trace of a run that died (MPI_Abort, a signal, exit\n"
    "without MPI_Finalize, SIGKILL) from the fragments its ranks left in\n"
    "EXPERIMENT_DIR/fragments. Prints one line per rank: complete, events up\n"
    "to its last buffer flush, or missing.\n";

/* The per-rank lines recovery recorded. */
static void print_ranks(const char *dir) {
  char path[PU_PATH_MAX], line[1024];
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
  const pu_option table[] = {{"skip-damaged", 0, NULL,
                              "a damaged fragment is a warning; its rank is "
                              "recovered as missing (else recovery stops at it)",
                              PU_FLAG(&options, POMP_RECOVER_SKIP_DAMAGED)},
                             PU_OPT_END};
  const pu_opt_command cmd = {NULL,
                              "EXPERIMENT_DIR",
                              1,
                              1,
                              .summary = summary,
                              .options = table,
                              .failure = "failed",
                              .success = "recovered or nothing to recover"};
  pu_opt_parse(&cmd, argc, argv, &dir);
  pomp_recover_summary s;
  if (pomp_recover_with(dir, options, &s) != 0) return POMP_EXIT_FAILURE;
  if (s.ranks == 0) {
    printf("%s: nothing to recover\n", dir);
    return POMP_EXIT_OK;
  }
  print_ranks(dir);
  printf("%s: trace recovered: %u ranks, %u complete, %u partial, %u missing (%s)\n", dir, s.ranks,
         s.ranks_complete, s.ranks_partial, s.ranks_missing, s.reason);
  return POMP_EXIT_OK;
}
