/* report_strmap.c -- see report_strmap.h.  Open addressing with linear
   probing, FNV-1a hashes, at most half full. */
#include "report_strmap.h"

#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"

static size_t hash(const char *s) {
  uint64_t h = 0xcbf29ce484222325u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3u;
  return (size_t)(h ^ (h >> 29));
}

void report_strmap_free(report_strmap *m) {
  for (size_t i = 0; i < m->nslots; i++) free(m->slots[i].key);
  free(m->slots);
  *m = (report_strmap){0};
}

static struct report_strmap_slot *find(const report_strmap *m, const char *key) {
  size_t mask = m->nslots - 1;
  for (size_t i = hash(key) & mask;; i = (i + 1) & mask)
    if (!m->slots[i].key || strcmp(m->slots[i].key, key) == 0) return &m->slots[i];
}

int32_t report_strmap_get(const report_strmap *m, const char *key) {
  if (!m->nslots) return -1;
  const struct report_strmap_slot *s = find(m, key);
  return s->key ? s->value : -1;
}

static void grow(report_strmap *m) {
  report_strmap old = *m;
  m->nslots = old.nslots ? 2 * old.nslots : 64;
  m->slots = pu_calloc(m->nslots, sizeof *m->slots);
  for (size_t i = 0; i < old.nslots; i++)
    if (old.slots[i].key) *find(m, old.slots[i].key) = old.slots[i];
  free(old.slots);
}

void report_strmap_put(report_strmap *m, const char *key, int32_t value) {
  if (2 * (m->count + 1) > m->nslots) grow(m);
  struct report_strmap_slot *s = find(m, key);
  if (!s->key) {
    s->key = pu_strdup(key);
    m->count++;
  }
  s->value = value;
}
