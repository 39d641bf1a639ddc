/* cube_common.c -- what the CUBE reader and writer agree on: metric type
   names and the order in which a metric's rows lie in its data file
   (CubeW numbers the call paths differently per metric type). */
#include <stdlib.h>
#include <string.h>

#include "cube_internal.h"
#include "pomp_util.h"

static const char *const type_names[] = {
    "EXCLUSIVE",           "INCLUSIVE", "SIMPLE", "POSTDERIVED", "PREDERIVED_INCLUSIVE",
    "PREDERIVED_EXCLUSIVE"};

cube_metric_type cube_type_from_name(const char *s) {
  for (int t = 0; t < CUBE_TYPE_UNKNOWN; t++)
    if (strcmp(type_names[t], s) == 0) return (cube_metric_type)t;
  return CUBE_TYPE_UNKNOWN;
}

static const int64_t *sort_ids; /* for by_id: qsort has no context */
static int by_id(const void *a, const void *b) {
  int64_t x = sort_ids[*(const int32_t *)a], y = sort_ids[*(const int32_t *)b];
  return (x > y) - (x < y);
}

void cube_row_order(cube_metric_type type, const int32_t *parent, const int64_t *ids, int32_t n,
                    int32_t *seq) {
  /* children lists in index order: first child, next sibling */
  int32_t *first = pu_malloc(((size_t)n + 1) * sizeof *first);
  int32_t *next = pu_malloc(((size_t)n + 1) * sizeof *next);
  int32_t *last = pu_malloc(((size_t)n + 1) * sizeof *last);
  int32_t *stack = pu_malloc(((size_t)n + 1) * sizeof *stack);
  for (int32_t i = 0; i < n; i++) first[i] = last[i] = next[i] = -1;
  int32_t root_first = -1, root_last = -1;
  for (int32_t i = 0; i < n; i++) {
    int32_t *head = parent[i] >= 0 ? &first[parent[i]] : &root_first;
    int32_t *tail = parent[i] >= 0 ? &last[parent[i]] : &root_last;
    if (*tail >= 0) next[*tail] = i;
    else *head = i;
    *tail = i;
  }
  int32_t k = 0, top = 0;
  if (type == CUBE_SIMPLE) {
    for (int32_t i = 0; i < n; i++) seq[i] = i;
    if (ids) {
      sort_ids = ids;
      qsort(seq, (size_t)n, sizeof *seq, by_id);
    }
  } else if (type == CUBE_INCLUSIVE) {
    /* per root: the root, then for each node (depth first) all of its
       children listed before descending into the first of them */
    for (int32_t r = root_first; r >= 0; r = next[r]) {
      seq[k++] = r;
      stack[top++] = r;
      while (top) {
        int32_t x = stack[--top];
        int32_t from = k;
        for (int32_t c = first[x]; c >= 0; c = next[c]) seq[k++] = c;
        for (int32_t j = k - 1; j >= from; j--) stack[top++] = seq[j]; /* first child on top */
      }
    }
  } else { /* exclusive: preorder */
    for (int32_t r = root_first; r >= 0; r = next[r]) {
      stack[top++] = r;
      while (top) {
        int32_t x = stack[--top];
        seq[k++] = x;
        int32_t from = top;
        for (int32_t c = first[x]; c >= 0; c = next[c]) stack[top++] = c;
        for (int32_t a = from, b = top - 1; a < b; a++, b--) { /* first child on top */
          int32_t t = stack[a];
          stack[a] = stack[b];
          stack[b] = t;
        }
      }
    }
  }
  free(first);
  free(next);
  free(last);
  free(stack);
}
