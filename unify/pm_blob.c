/* pm_blob.c -- byte blobs, cursors and the byte-string map (pomp_unify.h). */
#include "pomp_unify.h"

#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

void pm_blob_put(pm_blob *b, const void *bytes, size_t n) {
  pu_reserve((void **)&b->data, &b->cap, b->len + n, 1);
  if (n) memcpy(b->data + b->len, bytes, n);
  b->len += n;
}

void pm_blob_u32(pm_blob *b, uint32_t v) { pm_blob_put(b, &v, sizeof v); }
void pm_blob_u64(pm_blob *b, uint64_t v) { pm_blob_put(b, &v, sizeof v); }

void pm_blob_str(pm_blob *b, const char *s) {
  uint32_t n = (uint32_t)strlen(s);
  pm_blob_u32(b, n);
  pm_blob_put(b, s, n + 1);
}

void pm_blob_free(pm_blob *b) {
  free(b->data);
  *b = (pm_blob){0};
}

static const void *take(pm_cursor *c, size_t n) {
  if (c->bad || (size_t)(c->end - c->p) < n) {
    c->bad = 1;
    return NULL;
  }
  const void *p = c->p;
  c->p += n;
  return p;
}

uint32_t pm_get_u32(pm_cursor *c) {
  uint32_t v = 0;
  const void *p = take(c, sizeof v);
  if (p) memcpy(&v, p, sizeof v);
  return v;
}

uint64_t pm_get_u64(pm_cursor *c) {
  uint64_t v = 0;
  const void *p = take(c, sizeof v);
  if (p) memcpy(&v, p, sizeof v);
  return v;
}

const char *pm_get_str(pm_cursor *c) {
  uint32_t n = pm_get_u32(c);
  const char *s = n < UINT32_MAX ? take(c, (size_t)n + 1) : NULL;
  if (!s || s[n] != '\0') {
    c->bad = 1;
    return "";
  }
  return s;
}

struct pm_map_slot {
  unsigned char *key; /* NULL = empty */
  size_t len;
  uint64_t hash;
  uint32_t id;
};

static uint64_t hash_bytes(const void *key, size_t len) {
  const unsigned char *p = key;
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h ^ (h >> 29);
}

static void grow(pm_map *m) {
  size_t n = m->nslots ? m->nslots * 2 : 64;
  struct pm_map_slot *s = pu_calloc(n, sizeof *s);
  for (size_t i = 0; i < m->nslots; i++) {
    if (!m->slots[i].key) continue;
    size_t k = m->slots[i].hash & (n - 1);
    while (s[k].key) k = (k + 1) & (n - 1);
    s[k] = m->slots[i];
  }
  free(m->slots);
  m->slots = s;
  m->nslots = n;
}

uint32_t pm_map_intern(pm_map *m, const void *key, size_t len, uint32_t fresh) {
  if ((m->count + 1) * 2 > m->nslots) grow(m);
  uint64_t h = hash_bytes(key, len);
  size_t k = h & (m->nslots - 1);
  for (; m->slots[k].key; k = (k + 1) & (m->nslots - 1)) {
    struct pm_map_slot *s = &m->slots[k];
    if (s->hash == h && s->len == len && !memcmp(s->key, key, len)) return s->id;
  }
  struct pm_map_slot *s = &m->slots[k];
  s->key = pu_malloc(len ? len : 1);
  if (len) memcpy(s->key, key, len);
  s->len = len;
  s->hash = h;
  s->id = fresh;
  m->count++;
  return fresh;
}

void pm_map_free(pm_map *m) {
  for (size_t i = 0; i < m->nslots; i++) free(m->slots[i].key);
  free(m->slots);
  *m = (pm_map){0};
}
