/* read_back.h -- the tests run pomp-opari into a tmpfile(); this reads
   what it wrote back as one NUL-terminated string (the caller frees it)
   and closes the file. */
#ifndef OPARI_TEST_READ_BACK_H
#define OPARI_TEST_READ_BACK_H

#include <stdio.h>
#include <stdlib.h>

static inline char *read_back(FILE *f) {
  long n = ftell(f);
  rewind(f);
  char *all = calloc((size_t)n + 1, 1);
  size_t got = fread(all, 1, (size_t)n, f);
  all[got] = 0;
  fclose(f);
  return all;
}

#endif
