/* tracegen_main.c -- pomp-tracegen DESCRIPTION DIR: writes the OTF2 archive
   of a trace description (tracegen.h) for tests and experiments by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "tracegen.h"

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  if (argc == 2 && !strcmp(argv[1], "--help")) {
    printf("Usage: %s DESCRIPTION DIR\nWrites DIR/traces.otf2 from a trace "
           "description (see test/analyze/tracegen.h).\n",
           pu_progname());
    return POMP_EXIT_OK;
  }
  if (argc == 2 && !strcmp(argv[1], "--version")) {
    pu_print_version();
    return POMP_EXIT_OK;
  }
  if (argc != 3) {
    pu_error("usage: %s DESCRIPTION DIR", pu_progname());
    return POMP_EXIT_USAGE;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) pu_die(POMP_EXIT_FAILURE, "%s: cannot open", argv[1]);
  char err[512];
  tg_writer *w = tg_open(argv[2], err, sizeof err);
  if (!w) pu_die(POMP_EXIT_FAILURE, "%s", err);
  char line[1024];
  int ln = 0, rc = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    rc = tg_line(w, line, ++ln, err, sizeof err);
  }
  fclose(f);
  if (rc) pu_error("%s:%s", argv[1], err + 4); /* "line N: ..." -> "N: ..." */
  char cerr[512];
  if (tg_close(w, cerr, sizeof cerr)) pu_die(POMP_EXIT_FAILURE, "%s", cerr);
  return rc ? POMP_EXIT_FAILURE : POMP_EXIT_OK;
}
