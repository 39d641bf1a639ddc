/* report_tree.c -- first-child / next-sibling links, so that the children of
   a node come out in definition order without scanning the whole tree. */
#include "report_internal.h"

#include <stdlib.h>

#include "pomp_util.h"

void report_tree_free(report_tree *t) {
  free(t->first);
  free(t->last);
  free(t->next);
}

/* Links node id (the newest node, id == previous count) under parent. */
void report_tree_link(report_tree *t, int32_t id, int32_t parent) {
  if ((size_t)id >= t->cap) {
    size_t cap = t->cap;
    pu_reserve((void **)&t->first, &cap, (size_t)id + 1, sizeof *t->first);
    cap = t->cap;
    pu_reserve((void **)&t->last, &cap, (size_t)id + 1, sizeof *t->last);
    cap = t->cap;
    pu_reserve((void **)&t->next, &cap, (size_t)id + 1, sizeof *t->next);
    t->cap = cap;
  }
  if (id == 0) t->root_first = t->root_last = -1;
  t->first[id] = t->last[id] = t->next[id] = -1;
  int32_t *first = parent < 0 ? &t->root_first : &t->first[parent];
  int32_t *last = parent < 0 ? &t->root_last : &t->last[parent];
  if (*last < 0) *first = id;
  else t->next[*last] = id;
  *last = id;
}

int32_t report_tree_children(const report_tree *t, int32_t node, int32_t *out, int32_t cap) {
  if (!t->cap) return 0;
  int32_t n = 0;
  for (int32_t c = node < 0 ? t->root_first : t->first[node]; c >= 0; c = t->next[c]) {
    if (n < cap) out[n] = c;
    n++;
  }
  return n;
}
