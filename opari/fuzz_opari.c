/* fuzz_opari.c -- libFuzzer target: any input must be instrumented or
   rejected, never crash, hang or leak.  Built with -DPOMP_FUZZ=ON (clang).
   The input's size picks the mode: C or C++, source or preprocessed
   (line marks with flags, omp.h/pomp.h detection, system headers). */
#include <stdint.h>
#include <stdio.h>

#include "opari.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *sink;
  if (!sink) sink = fopen("/dev/null", "w");
  opari_options opt = {.file_name = "fuzz.cpp",
                       .line_name = "fuzz.cpp",
                       .cxx = size & 1,
                       .preprocessed = (size >> 1) & 1,
                       .quiet = true};
  opari_c((const char *)data, size, sink, &opt);
  return 0;
}
