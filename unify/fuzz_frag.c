/* fuzz_frag.c -- libFuzzer target for the fragment reader (pm_frag.c) and
   the definition merge it feeds (pm_merge.c, checking mode): pomp-recover
   reads fragments left by dead processes, so any bytes must give an
   error, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_unify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pm_frag f;
  size_t at;
  const char *what;
  if (pm_frag_decode(data, size, &f, &at, &what) == 0) {
    pm_merge_error err;
    uint32_t sizes[1] = {f.defs_len};
    pm_unify_merge(NULL, f.defs, sizes, 1, (int)f.mpi, 0, 0, NULL, &err);
  }
  /* the same bytes with a correct checksum, so that the field checks
     behind it are reached too */
  if (size >= 16) {
    uint8_t *copy = malloc(size);
    memcpy(copy, data, size);
    uint64_t sum = pm_frag_checksum(copy, size - 8);
    memcpy(copy + size - 8, &sum, 8);
    if (pm_frag_decode(copy, size, &f, &at, &what) == 0) {
      pm_merge_error err;
      uint32_t sizes[1] = {f.defs_len};
      pm_unify_merge(NULL, f.defs, sizes, 1, (int)f.mpi, 0, 0, NULL, &err);
    }
    free(copy);
  }
  /* the definitions alone, as if a fragment had carried them */
  pm_merge_error err;
  uint32_t n = (uint32_t)size;
  pm_unify_merge(NULL, data, &n, 1, 1, 0, 0, NULL, &err);
  return 0;
}
