/* fuzz_filter.c -- libFuzzer target: any POMP_FILTER file is parsed or
   rejected with a message, never a crash, hang or leak; the rules it
   leaves behind match names safely. Built with -DPOMP_FUZZ=ON (clang);
   run with -close_fd_mask=2 to silence the parse errors. */
#include <stdint.h>

#include "pm_user.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (pm_filter_parse((const char *)data, size, "fuzz.filter") == 0) {
    pm_filter_accepts("main");
    pm_filter_accepts("ns::solver<double>::step(int, char const*)");
    pm_filter_accepts("");
  }
  pm_filter_clear();
  return 0;
}
