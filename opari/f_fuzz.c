/* f_fuzz.c -- libFuzzer target of the Fortran front end: any input must
   be instrumented or rejected, never crash, hang or leak.  The first byte
   picks fixed or free form.  Built with -DPOMP_FUZZ=ON (clang). */
#include <stdint.h>
#include <stdio.h>

#include "opari.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *sink;
  if (!sink) sink = fopen("/dev/null", "w");
  opari_options opt = {.file_name = "fuzz.f",
                       .line_name = "fuzz.f",
                       .quiet = true,
                       .fixed_form = size && (data[0] & 1),
                       .unit_id = 0x1234abcd};
  opari_fortran((const char *)data, size, sink, sink, &opt);
  return 0;
}
