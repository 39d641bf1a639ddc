/* write_fixture.c -- writes a fixture report to a file, for the tests that
   run the pomp-tui program.  Usage: tui-write-fixture NAME FILE */
#include <stdio.h>

#include "fixture.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s small|wide|diff|incomplete|snapshot|... FILE\n", argv[0]);
    return 2;
  }
  pomp_report *r = tui_fixture(argv[1]);
  if (!r) {
    fprintf(stderr, "%s: unknown fixture '%s'\n", argv[0], argv[1]);
    return 2;
  }
  pomp_report_error err = {0};
  int rc = pomp_report_write(r, argv[2], &err) == POMP_REPORT_OK ? 0 : 1;
  if (rc) fprintf(stderr, "%s: %s\n", argv[0], err.message);
  pomp_report_free(r);
  return rc;
}
