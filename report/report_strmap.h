/*
 * report_strmap.h -- a small hash map from strings to int32 ids, so that
 * lookups by name (metric names while reading a file, regions and
 * locations while diffing) stay O(1) whatever a file holds.  Keys are
 * copied.  Used inside the library and, compiled in again, by the CLI.
 */
#ifndef REPORT_STRMAP_H
#define REPORT_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  struct report_strmap_slot {
    char *key; /* NULL: empty */
    int32_t value;
  } * slots;
  size_t nslots, count;
} report_strmap;

void report_strmap_free(report_strmap *m);
/* The id stored for key, or -1. */
int32_t report_strmap_get(const report_strmap *m, const char *key);
/* Stores (or replaces) key -> value. */
void report_strmap_put(report_strmap *m, const char *key, int32_t value);

#endif
