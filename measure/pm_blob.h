/*
 * pm_blob.h -- byte strings that carry definitions between ranks
 * (serialised with pm_blob_put_*, read back with bounds-checked cursors),
 * and a byte-string -> id hash map for unifying them. Internal.
 */
#ifndef PM_BLOB_H
#define PM_BLOB_H

#include <stddef.h>
#include <stdint.h>

typedef struct pm_blob {
  unsigned char *data;
  size_t len, cap;
} pm_blob;

void pm_blob_put(pm_blob *b, const void *bytes, size_t n);
void pm_blob_u32(pm_blob *b, uint32_t v);
void pm_blob_u64(pm_blob *b, uint64_t v);
void pm_blob_str(pm_blob *b, const char *s); /* u32 length, bytes, NUL */
void pm_blob_free(pm_blob *b);

/* Reading: a short or malformed blob sets bad and yields zeros / "". */
typedef struct pm_cursor {
  const unsigned char *p, *end;
  int bad;
} pm_cursor;
uint32_t pm_get_u32(pm_cursor *c);
uint64_t pm_get_u64(pm_cursor *c);
const char *pm_get_str(pm_cursor *c);

/* Hash map from byte strings to uint32 ids. */
typedef struct pm_map {
  struct pm_map_slot *slots;
  size_t nslots, count;
} pm_map;
/* The id of key, or, if absent, adds it with id `fresh` and returns that. */
uint32_t pm_map_intern(pm_map *m, const void *key, size_t len, uint32_t fresh);
void pm_map_free(pm_map *m);

#endif /* PM_BLOB_H */
