/*
 * tree.h -- one of the three trees pomp-tui shows (properties, call paths,
 * locations), reduced to what the panes need: parents, children in
 * definition order, depths, display names, and the values of the current
 * weighting.  The three report trees differ only in where names and values
 * come from, so the panes handle one shape.
 */
#ifndef TUI_TREE_H
#define TUI_TREE_H

#include <stdint.h>

#include "pomp_report.h"

typedef enum { TUI_TREE_METRIC = 0, TUI_TREE_CALL, TUI_TREE_SYSTEM } tui_tree_kind;

typedef struct {
  tui_tree_kind kind;
  int32_t n;
  int32_t *parent;      /* -1 for roots */
  int32_t *child_start; /* children of i: child_ids[child_start[i]..[i+1]) */
  int32_t *child_ids;   /* definition order */
  int32_t *roots;       /* nodes with parent -1, definition order */
  int32_t nroots;
  int32_t *depth;
  const char **name; /* points into the report, which outlives the tree,
                        or into labels */
  /* Names made for display: GCC's static initialisers as "static init
     (FILE)" (pomp_report_region_label), loops with their mark ("↻ loop
     @heat.c:118"), owned by the tree. */
  char **labels;
  size_t nlabels, labels_cap;
  /* Values of the current weighting.  excl is NAN where a node has no value
     of its own (inner nodes of the system tree: only threads are locations). */
  double *excl;
  double *incl;
  double max_abs;   /* largest |incl| */
  int has_negative; /* a diff report: diverging colour scale */
  /* Smallest and largest inclusive value among the nodes of each depth
     (peers): the colour range in absolute mode, where a thread is compared
     with threads, not with the whole machine. */
  double *peer_min, *peer_max;
  int32_t depths;
} tui_tree;

void tui_tree_build(tui_tree *t, tui_tree_kind kind, const pomp_report *r);
void tui_tree_free(tui_tree *t);
/* Call tree: loop nodes (pomp_report_is_loop) are shown as "MARK NAME",
   so that a loop is told from a function. */
void tui_tree_mark_loops(tui_tree *t, const pomp_report *r, const char *mark);

static inline int32_t tui_tree_nchildren(const tui_tree *t, int32_t i) {
  return t->child_start[i + 1] - t->child_start[i];
}
static inline const int32_t *tui_tree_children(const tui_tree *t, int32_t i) {
  return t->child_ids + t->child_start[i];
}
/* Sets incl from excl (NAN counts as 0) and refreshes max_abs,
   has_negative and the peer ranges. */
void tui_tree_accumulate(tui_tree *t);
/* The root of i's tree. */
int32_t tui_tree_root_of(const tui_tree *t, int32_t i);

#endif
