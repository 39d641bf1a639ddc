/* az_common.h -- the two things every part of pomp-analyze shares: time
   in clock ticks and a qsort that takes empty arrays.  Internal to
   pomp-analyze (not installed).

   Every quantity is kept as an integer number of clock ticks (or counts)
   per (call path, location, metric) cell, so sums are exact; conversion to
   seconds happens once, when the report is written (output.c). */
#ifndef POMP_AZ_COMMON_H
#define POMP_AZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef uint64_t az_time; /* clock ticks after clock-offset correction */

/* qsort that accepts an empty (NULL) array, which qsort itself must not
   be given. */
static inline void az_sort(void *base, size_t n, size_t size,
                           int (*cmp)(const void *, const void *)) {
  if (n > 1) qsort(base, n, size, cmp);
}

#endif
