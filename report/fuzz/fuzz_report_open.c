/* fuzz_report_open -- libFuzzer target for the report reader: any bytes
   must give a report or an error, never a crash, hang or leak.  Built
   (with -DPOMP_FUZZ=ON, CC=clang) from the library sources with
   REPORT_FUZZING, which accepts any checksum so that mutations reach the
   JSON definitions, the index checks and the row decoder.
   Run: build/report/fuzz_report_open -max_total_time=120 CORPUS_DIR */
#include <stdint.h>
#include <stdlib.h>

#include "pomp_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pomp_report_error err;
  pomp_report *r = pomp_report_open_memory(data, size, "fuzz", &err);
  if (!r) return 0;
  int32_t nloc = pomp_report_num_locations(r);
  int32_t *locs = malloc(((size_t)nloc + 1) * sizeof *locs);
  double *vals = malloc(((size_t)nloc + 1) * sizeof *vals);
  for (int64_t i = 0; i < pomp_report_num_rows(r); i++) {
    int32_t m, c;
    pomp_report_row_at(r, i, &m, &c, NULL, NULL);
    int32_t n = pomp_report_row_get(r, m, c, locs, vals, &err);
    /* single values read in place: stored, between and beyond */
    if (n > 0 && nloc > 0) {
      pomp_report_value(r, m, c, locs[0]);
      pomp_report_value(r, m, c, locs[n - 1]);
      pomp_report_value(r, m, c, (int32_t)((uint64_t)i * 7919 % (uint64_t)nloc));
    }
    pomp_report_value(r, m, c, nloc);
  }
  pomp_report_selection all = {-1, 1, -1, 1};
  pomp_report_location_values(r, &all, vals, &err);
  double *sys = malloc(((size_t)pomp_report_num_sysnodes(r) + 1) * sizeof *sys);
  pomp_report_sysnode_values(r, vals, sys);
  for (int32_t m = 0; m < pomp_report_num_metrics(r); m++) pomp_report_metric_total(r, m, 1);
  char path[256];
  if (pomp_report_num_cnodes(r) > 0)
    pomp_report_callpath(r, pomp_report_num_cnodes(r) - 1, ";", path, sizeof path);
  free(sys);
  free(locs);
  free(vals);
  pomp_report_free(r);
  return 0;
}
