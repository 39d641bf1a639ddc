/*
 * pane.h -- the browsing state of one tree, separate from drawing: which
 * nodes are expanded, the rows that expansion makes visible (in the pane's
 * sort order), the selection, the scroll position, the value mode.
 *
 * Selection is kept by identity (node and row kind), not by row number, so
 * it survives re-weighting, re-sorting and expansion elsewhere (the user's
 * place is kept).  Rows are rebuilt only when marked stale.
 */
#ifndef TUI_PANE_H
#define TUI_PANE_H

#include <stddef.h>
#include <stdint.h>

#include "tree.h"

typedef enum {
  TUI_MODE_TOTAL = 0, /* % of the total of the property's root ("time") */
  TUI_MODE_SELECTION, /* % of the selection in the pane to the left */
  TUI_MODE_ABSOLUTE,  /* seconds, occurrences, bytes */
  TUI_NMODES
} tui_mode;

typedef enum { TUI_SORT_VALUE = 0, TUI_SORT_NAME, TUI_SORT_DEFINITION, TUI_NSORTS } tui_sort;

typedef enum {
  TUI_ROW_NODE = 0,
  TUI_ROW_SUMMARY, /* min/mean/max/imbalance of a large node's children */
  TUI_ROW_MORE     /* "... N more": children left out after the top ones */
} tui_row_kind;

typedef struct {
  int32_t node;        /* the node; for SUMMARY and MORE rows, their parent */
  uint8_t kind;        /* tui_row_kind */
  uint8_t last;        /* last row among its siblings (tree glyphs) */
  int32_t hidden;      /* MORE: children left out */
  double hidden_value; /* MORE: their inclusive sum */
} tui_row;

typedef struct {
  tui_tree *tree;
  uint8_t *expanded;
  uint8_t *show_all; /* the node's "... N more" row was opened */
  uint8_t *last;     /* node is the last shown sibling (tree glyphs) */
  int32_t *row_of;   /* node -> row index, -1 when not shown */
  uint8_t *match;    /* search hits (owned by the search), or NULL */
  tui_row *rows;
  size_t nrows, cap;
  tui_row sel;      /* the selected row, by identity */
  int32_t cur;      /* its index in rows */
  int32_t want_row; /* select this row after the next rebuild, -1 = keep sel */
  int center;       /* after the next rebuild, put the selection mid-screen */
  int32_t top;      /* first row on screen */
  int32_t height;   /* rows on screen, set by the layout */
  tui_mode mode;
  tui_sort sort;
  int32_t top_k; /* children shown before a "... N more" row */
  int summaries; /* add SUMMARY rows (location tree) */
  int stale;     /* rows must be rebuilt before use */
  /* scratch for building rows */
  int32_t *scratch;
  size_t scratch_cap;
  tui_row *stack;
  size_t stack_cap;
} tui_pane;

void tui_pane_init(tui_pane *p, tui_tree *t, tui_sort sort, int32_t top_k, int summaries);
void tui_pane_free(tui_pane *p);

/* Rebuilds rows if stale, keeping the selection and its screen line. */
void tui_pane_refresh(tui_pane *p);

int tui_pane_has_children(const tui_pane *p, int32_t node);
/* Collapsed (or leaf) = inclusive value; expanded = exclusive value. */
int tui_pane_is_inclusive(const tui_pane *p, int32_t node);
double tui_pane_value(const tui_pane *p, int32_t node);
/* The value a row shows: tui_pane_value, but NAN ("-", no own value) for
   an expanded node whose own part is zero, as for the location tree's
   inner nodes, which own nothing: one notation for both. */
double tui_pane_shown_value(const tui_pane *p, int32_t node);
/* The node whose value the panes to the right are weighted by. */
int32_t tui_pane_selected_node(const tui_pane *p);

/* Scrolls so that the selected row is on screen. */
void tui_pane_scroll_to_cur(tui_pane *p);

/* Navigation (rows must be fresh). */
void tui_pane_select_row(tui_pane *p, int32_t row);
void tui_pane_move(tui_pane *p, int32_t delta);
void tui_pane_scroll(tui_pane *p, int32_t delta);

/* Tree operations on the selection; they mark the pane stale. */
void tui_pane_left(tui_pane *p);  /* collapse, else go to the parent */
void tui_pane_right(tui_pane *p); /* expand, else go to the first child */
void tui_pane_toggle(tui_pane *p);
void tui_pane_expand(tui_pane *p);
void tui_pane_collapse(tui_pane *p);
void tui_pane_expand_subtree(tui_pane *p);
void tui_pane_expand_all(tui_pane *p, int expand);
void tui_pane_hottest_path(tui_pane *p);
/* Expands the ancestors of node and selects it. */
void tui_pane_reveal(tui_pane *p, int32_t node);

#endif
