/* fuzz_cube_open -- libFuzzer target for the CUBE4 reader (cube_*.c): any
   bytes must give a report or an error, never a crash, hang or leak.  The
   input is tried as it is (a .cubex when it starts like a tar archive)
   and a report read from it is written back as a .cubex and read again.
   Seed it with .cubex files: build/report/fuzz_cube_open CORPUS_DIR */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pomp_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pomp_report_error err;
  pomp_report *r = pomp_report_open_memory(data, size, "fuzz.cubex", &err);
  if (!r) return 0;
  for (int32_t m = 0; m < pomp_report_num_metrics(r); m++) pomp_report_metric_total(r, m, 1);
  char path[] = "/tmp/fuzz_cube_XXXXXX";
  int fd = mkstemp(path);
  if (fd >= 0) {
    close(fd);
    if (pomp_report_write_cube(r, path, &err) == POMP_REPORT_OK) {
      pomp_report *back = pomp_report_open(path, &err);
      if (!back) abort(); /* what we write must read back */
      pomp_report_free(back);
    }
    unlink(path);
  }
  pomp_report_free(r);
  return 0;
}
