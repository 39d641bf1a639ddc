/* print_summary REPORT [TOP] -- prints pomp-analyze's summary of a report
   (az_summary_print), so that the summary of a report with known values
   can be compared with a golden file. */
#include <stdio.h>
#include <stdlib.h>

#include "az_output.h"

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: print_summary REPORT [TOP]\n");
    return 2;
  }
  pomp_report_error err;
  pomp_report *r = pomp_report_open(argv[1], &err);
  if (!r) {
    fprintf(stderr, "print_summary: %s\n", err.message);
    return 1;
  }
  az_summary_print(r, argc == 3 ? atoi(argv[2]) : 5, stdout);
  pomp_report_free(r);
  return 0;
}
