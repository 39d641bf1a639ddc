/*
 * app.h -- the state of one pomp-tui session and its two entry points:
 * tui_app_event (an input event changes the state) and tui_app_render (the
 * state is drawn into the virtual screen).  The ncurses front end (term.c),
 * batch mode (batch.c), the tests and the benchmark all drive these.
 */
#ifndef TUI_APP_H
#define TUI_APP_H

#include <stddef.h>
#include <stdint.h>

#include "keys.h"
#include "model.h"
#include "pane.h"
#include "spectrum.h"
#include "vscreen.h"

typedef enum {
  TUI_OVERLAY_NONE = 0,
  TUI_OVERLAY_HELP,
  TUI_OVERLAY_DETAILS,
  TUI_OVERLAY_SOURCE,
  TUI_OVERLAY_POP,
  TUI_OVERLAY_BOTTLENECKS, /* the search view (overlay_bottlenecks.c) */
  TUI_OVERLAY_PROBLEMS     /* the problem list (overlay_problems.c) */
} tui_overlay_kind;

/* A scrollable page of text over the panes (help, details, source, POP). */
typedef struct {
  tui_overlay_kind kind;
  char title[256];
  char **lines;
  size_t nlines, cap;
  int32_t top;
  int32_t hot_begin, hot_end; /* highlighted lines [begin, end), source view */
} tui_overlay;

typedef struct {
  int8_t pane;
  int32_t node;
} tui_hit;

typedef struct {
  char pattern[256];
  tui_hit *hits;
  size_t nhits, cap, cur;
  uint8_t *match[TUI_NPANES];
} tui_search;

/* Seconds a key's work may take in the terminal, location summing
   included (what is left of it goes to the sums); with the drawing, a
   redraw stays within 30 ms. */
#define TUI_FRAME_BUDGET 0.015

/* Children a property or call node shows before a "... N more" row. */
#define TUI_TREE_FANOUT 200

/* Problems (call paths) the problem list shows, properties of each. */
#define TUI_MAX_PROBLEMS 20
#define TUI_PROBLEM_PARTS 4

/* One problem of the list: a call path and the problem properties there,
   the leading one first. */
typedef struct {
  int32_t cnode;
  double seconds; /* of all its parts */
  pomp_report_problem part[TUI_PROBLEM_PARTS];
  int32_t nparts;
} tui_problem;

typedef struct {
  int32_t top_k;    /* location children shown before "... N more" (default 10) */
  int ascii;        /* ASCII glyphs */
  int mouse;        /* mouse enabled (front end) */
  int narrow_below; /* one pane with tabs below this width (default 110) */
  double budget;    /* seconds per key or frame (TUI_FRAME_BUDGET); 0 = no limit,
                       location values are summed at once */
  int at_top;       /* open at the top of the trees, not on the top bottleneck */
} tui_options;

typedef struct tui_app {
  tui_model model;
  tui_pane pane[TUI_NPANES];
  int focus;
  tui_options opt;
  const tui_glyphs *glyphs;
  char *path;       /* the report as given on the command line */
  char *source_dir; /* where relative source paths are tried second */
  tui_vscreen vs;
  int w, h;
  /* The run_status description of a run that did not finish, shown on a
     warning line under the title (NULL: the run completed). */
  const char *incomplete;
  /* A profile snapshot of a running program (libpomp, POMP_SNAPSHOT): its
     attribute snapshot_seconds, else NULL; shown on the warning line. */
  const char *snapshot;
  /* pomp-tui --follow (follow.h), else NULL; not owned. */
  struct tui_follow *follow;
  /* layout */
  int narrow, too_small;
  /* Measurement perturbation (buffer flushes above the limit of
     pomp_report_perturbation_warning), "" when none. */
  char perturbation[256];
  int warning_y, perturbation_y, tabs_y; /* -1 when not shown */
  int rows_y, rows_h;
  int pane_x[TUI_NPANES], pane_w[TUI_NPANES];
  /* modes */
  tui_overlay overlay;
  tui_search search;
  int prompt; /* reading a search pattern on the status line */
  char prompt_buf[256];
  char message[512];
  int message_is_error;
  int quit;
  double key_start;     /* when the current event began (tui_clock) */
  char clipboard[2400]; /* text for the terminal's clipboard (y), sent once */
  int clipboard_pending;
  /* The automated bottleneck search (pomp_report_search_run), made on
     first use; the search view's lines: graph_node[i] is the node on
     overlay line i, graph_cur the line under the cursor. */
  pomp_report_search *bottlenecks;
  int bottlenecks_failed;
  char bottlenecks_why[sizeof((pomp_report_error){0}.message)]; /* said again on each b */
  int32_t *graph_node;
  int32_t graph_lines, graph_cur;
  /* The problem list (w): the wait states and overheads shown, numbered. */
  tui_problem problem[TUI_MAX_PROBLEMS];
  int32_t nproblems;
} tui_app;

void tui_options_default(tui_options *o);
/* Takes ownership of the report. */
void tui_app_init(tui_app *a, pomp_report *r, const char *path, const tui_options *o);
void tui_app_free(tui_app *a);
void tui_app_resize(tui_app *a, int w, int h);
void tui_app_event(tui_app *a, const tui_event *ev);
void tui_app_render(tui_app *a);
/* Location values still being summed (budgeted mode)? */
int tui_app_busy(const tui_app *a);
/* Sums location rows for up to budget seconds (0: to the end); returns 1
   when the values are complete now (the screen should be redrawn). */
int tui_app_work(tui_app *a, double budget);

/* ---- shared between the app's files ------------------------------------ */

/* Brings pane p (and the panes left of it) up to date: weights, rows. */
void tui_app_ready(tui_app *a, int p);
/* What a value in pane p is a percentage of, for node (mode-dependent). */
double tui_app_reference(tui_app *a, int p, int32_t node);
/* The metric whose unit pane p shows for node. */
int32_t tui_app_unit_metric(const tui_app *a, int p, int32_t node);
/* Why the analysis did not compute the metric whose value the row of node
   in pane p shows (pomp_report_not_computed), or NULL: such values are
   drawn "n/c", the status line gives the reason. */
const char *tui_app_not_computed(const tui_app *a, int p, int32_t node);
/* The value of node in pane p formatted for the pane's mode. */
void tui_app_format(tui_app *a, int p, int32_t node, double v, char *buf, size_t size);
/* The colour scale in absolute mode for node: [lo, hi] = the smallest and
   largest value among its peers (same depth); properties: [0, their root];
   diff reports: [0, largest |value|], signed. */
void tui_app_absolute_scale(const tui_app *a, int p, int32_t node, double *lo, double *hi);
/* Position on the colour spectrum: x in [-1, 1]. */
double tui_app_spectrum_x(tui_app *a, int p, int32_t node, double v);
/* The full name of a node: call path, location path, metric name. */
void tui_app_full_name(const tui_app *a, int p, int32_t node, char *buf, size_t size);
/* The selected row of the focused pane in words: full name and value. */
void tui_app_describe(tui_app *a, char *text, size_t size);
void tui_app_message(tui_app *a, int is_error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *tui_mode_label(const tui_app *a, int p, char *buf, size_t size);
extern const char *const tui_pane_title[TUI_NPANES];

/* key table (keytable.c) */
typedef struct {
  int keys[4]; /* 0-terminated */
  const char *help;
  void (*action)(tui_app *a);
} tui_binding;
extern const tui_binding tui_bindings[];
extern const size_t tui_nbindings;
const tui_binding *tui_binding_for(int key);

/* overlays (overlay*.c) */
void tui_overlay_clear(tui_overlay *o);
void tui_overlay_add(tui_overlay *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Adds text broken into lines of at most width columns, each starting with
   indent (breaks at spaces, else after ';' or '/' in the line's second
   half, else anywhere but inside a character). */
void tui_overlay_add_wrapped(tui_overlay *o, const char *indent, const char *text, int width);
/* The same with a hanging first line: lead ("Call path  ") starts the first
   line, indent (as wide, usually blanks) the others. */
void tui_overlay_add_hanging(tui_overlay *o, const char *lead, const char *indent, const char *text,
                             int width);
void tui_overlay_key(tui_app *a, int key);
void tui_overlay_draw(tui_app *a);
void tui_open_help(tui_app *a);
void tui_open_details(tui_app *a);
void tui_open_source(tui_app *a);
/* The POP efficiencies of the selected call path (overlay_pop.c). */
void tui_open_pop(tui_app *a);

/* the search view (overlay_bottlenecks.c) */
/* The search history graph as an overlay, the cursor on the top
   bottleneck (or the root). */
void tui_open_bottlenecks(tui_app *a);
/* Keys of the search view: moving the cursor, Enter selects its node.
   Returns 0 for the keys every overlay shares (closing, scrolling). */
int tui_bottlenecks_key(tui_app *a, int key);
/* Selects search node id's property, call path and locations in the
   three panes (ancestors expanded) and says its sentence on the status
   line. */
void tui_select_search_node(tui_app *a, int32_t id);
/* Opens the session on the top bottleneck, if the search finds one. */
void tui_start_at_bottleneck(tui_app *a);
/* Runs the search if not done yet; the sentence of the bottleneck the
   first screen opens on into buf. Returns 0 when there is none. */
int tui_bottleneck_summary(tui_app *a, char *buf, size_t size);
void tui_bottlenecks_free(tui_app *a);

/* the problem list (overlay_problems.c) */
/* The wait states and overheads by own seconds, numbered. */
void tui_open_problems(tui_app *a);
/* Digit N selects problem N in the panes, w closes; 0 for other keys. */
int tui_problems_key(tui_app *a, int key);

/* copying (yank.c) */
void tui_yank(tui_app *a);
/* Base64 of n bytes into out (4 * ((n + 2) / 3) + 1 bytes); returns length. */
size_t tui_base64(const char *in, size_t n, char *out);

/* search (search.c) */
void tui_search_run(tui_app *a, const char *pattern);
void tui_search_step(tui_app *a, int forward);
void tui_search_free(tui_search *s);

/* drawing (draw_pane.c, draw_chrome.c) */
void tui_draw_pane(tui_app *a, int p, int x, int w);
void tui_draw_chrome(tui_app *a);

#endif
