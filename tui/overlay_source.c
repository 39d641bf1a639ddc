/* overlay_source.c -- the source of the selected call path's region, with
   its lines highlighted, when the file can be read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"

#define MAX_SOURCE_LINES 1000000

/* Opens file as given, else relative to the report's directory (reports
   moved together with their sources). */
static FILE *open_source(const tui_app *a, const char *file, char *used, size_t size) {
  snprintf(used, size, "%s", file);
  FILE *f = fopen(file, "r");
  if (f || file[0] == '/') return f;
  int saved = errno;
  snprintf(used, size, "%s/%s", a->source_dir, file);
  f = fopen(used, "r");
  if (!f) {
    snprintf(used, size, "%s", file);
    errno = saved;
  }
  return f;
}

/* One source line with tabs expanded (tab stops of 8). */
static void add_line(tui_overlay *o, int number, const char *line) {
  char out[4096];
  size_t n = (size_t)snprintf(out, sizeof out, "%6d  ", number), col = 0;
  for (const char *s = line; *s && *s != '\n' && *s != '\r' && n < sizeof out - 9; s++) {
    if (*s == '\t') {
      do out[n++] = ' '; while (++col % 8);
    } else {
      out[n++] = *s;
      col++;
    }
  }
  out[n] = 0;
  tui_overlay_add(o, "%s", out);
}

void tui_open_source(tui_app *a) {
  int32_t c = tui_pane_selected_node(&a->pane[TUI_PANE_CALL]);
  if (c < 0) return;
  const pomp_report *r = a->model.report;
  const pomp_region *rg = pomp_report_region(r, pomp_report_cnode(r, c)->region);
  if (!rg->file || !*rg->file) {
    tui_app_message(a, 1, "%s: no source file recorded", rg->name);
    return;
  }
  char path[4096];
  FILE *f = open_source(a, rg->file, path, sizeof path);
  if (!f) {
    tui_app_message(a, 1, "%s: %s", path, strerror(errno));
    return;
  }
  tui_overlay *o = &a->overlay;
  tui_overlay_clear(o);
  o->kind = TUI_OVERLAY_SOURCE;
  snprintf(o->title, sizeof o->title, "%.80s  %.160s:%d-%d", rg->name, path, (int)rg->begin_line,
           (int)rg->end_line);
  char *line = NULL;
  size_t cap = 0;
  int number = 0;
  while (getline(&line, &cap, f) >= 0 && number < MAX_SOURCE_LINES) add_line(o, ++number, line);
  free(line);
  fclose(f);
  o->hot_begin = rg->begin_line > 0 ? rg->begin_line - 1 : 0;
  o->hot_end = rg->end_line >= rg->begin_line ? rg->end_line : rg->begin_line;
  o->top = o->hot_begin > 2 ? o->hot_begin - 2 : 0;
  a->message[0] = 0;
}
