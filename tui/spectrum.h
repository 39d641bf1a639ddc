/*
 * spectrum.h -- how a weight becomes something visible.  One spectrum over
 * x in [0, 1] (share of 100 %, or of the maximum in absolute mode), cut into
 * TUI_LEVELS steps.  The step chooses both the icon's colour and its glyph
 * height, so the colour never carries the meaning alone (monochrome and
 * colour-blind users read the bar).  Exact zero is level 0: no icon, dim.
 * Diff reports put negative values on a diverging scale (-TUI_LEVELS..-1).
 */
#ifndef TUI_SPECTRUM_H
#define TUI_SPECTRUM_H

#include <stdint.h>

#define TUI_LEVELS 24
#define TUI_GLYPH_STEPS 8 /* bar heights */

typedef enum { TUI_COLOR_MONO = 0, TUI_COLOR_8, TUI_COLOR_256 } tui_color_depth;

/* x in [-1, 1] (clamped); any non-zero x gets at least level +-1. */
int tui_level(double x);
/* 0..TUI_GLYPH_STEPS: bar height for a level (sign ignored). */
int tui_level_height(int level);

/* Terminal colour for a level: an xterm-256 index, or one of the eight
   basic colours (0-7), per depth.  Sequential scale: dark blue-violet to
   yellow (viridis-like, readable for colour-blind users); diverging: blue
   for negative, red for positive. */
int tui_level_color(int level, int diverging, tui_color_depth depth);

/* Line-drawing and weight glyphs: UTF-8, or plain ASCII for terminals
   without it (--ascii, non-UTF-8 locale). */
typedef struct {
  const char *vline, *tee, *corner;
  const char *collapsed, *expanded, *leaf, *summary, *more;
  const char *ellipsis, *separator;
  const char *loop; /* marks a loop in the call tree */
  const char *bar[TUI_GLYPH_STEPS + 1];
} tui_glyphs;

const tui_glyphs *tui_glyphs_get(int ascii);

#endif
