/* spectrum.c -- see spectrum.h. */
#include "spectrum.h"

#include <math.h>

int tui_level(double x) {
  if (x == 0 || isnan(x)) return 0;
  double a = fabs(x);
  if (a > 1) a = 1;
  int l = (int)ceil(a * TUI_LEVELS);
  if (l < 1) l = 1;
  return x < 0 ? -l : l;
}

int tui_level_height(int level) {
  int a = level < 0 ? -level : level;
  return (a * TUI_GLYPH_STEPS + TUI_LEVELS - 1) / TUI_LEVELS;
}

/* xterm-256 cube index of an RGB colour (each 0..255). */
static int cube(double r, double g, double b) {
  int ri = (int)lround(r / 255 * 5), gi = (int)lround(g / 255 * 5), bi = (int)lround(b / 255 * 5);
  return 16 + 36 * ri + 6 * gi + bi;
}

/* Piecewise-linear interpolation between colour stops at equal spacing. */
static int ramp(const double stops[][3], int nstops, double t) {
  double pos = t * (nstops - 1);
  int i = (int)pos;
  if (i >= nstops - 1) i = nstops - 2;
  double f = pos - i;
  return cube(stops[i][0] + f * (stops[i + 1][0] - stops[i][0]),
              stops[i][1] + f * (stops[i + 1][1] - stops[i][1]),
              stops[i][2] + f * (stops[i + 1][2] - stops[i][2]));
}

int tui_level_color(int level, int diverging, tui_color_depth depth) {
  int a = level < 0 ? -level : level;
  double t = (double)a / TUI_LEVELS;
  if (depth == TUI_COLOR_256) {
    /* Viridis samples; diverging ramps from grey-blue/grey-red to full. */
    static const double viridis[][3] = {
        {72, 40, 120}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    static const double reds[][3] = {{180, 140, 140}, {230, 80, 60}, {255, 0, 0}};
    static const double blues[][3] = {{140, 150, 180}, {60, 110, 230}, {0, 60, 255}};
    if (!diverging) return ramp(viridis, 5, t);
    return level < 0 ? ramp(blues, 3, t) : ramp(reds, 3, t);
  }
  /* Eight colours: COLOR_BLUE 4, CYAN 6, GREEN 2, YELLOW 3, RED 1. */
  if (diverging) return level < 0 ? (t < 0.5 ? 6 : 4) : (t < 0.5 ? 3 : 1);
  return t <= 0.1 ? 4 : t <= 0.3 ? 6 : t <= 0.5 ? 2 : t <= 0.75 ? 3 : 1;
}

static const tui_glyphs utf8 = {"│", "├", "└", "▸",
                                "▾", "─", "≡", "…",
                                "…", "│", "↻", {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}};
static const tui_glyphs ascii = {"|", "|", "`", ">",
                                 "v", "-", "=", "...",
                                 "~", "|", "@", {" ", ".", ":", "-", "=", "+", "*", "#", "@"}};

const tui_glyphs *tui_glyphs_get(int want_ascii) { return want_ascii ? &ascii : &utf8; }
