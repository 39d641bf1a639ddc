/* overlay_source.c -- the source of the selected call path's region, with
   its lines highlighted, when the file can be read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"

#define MAX_SOURCE_LINES 1000000
#define MAX_SOURCE_BYTES (64L << 20)

/* Opens path if it is a regular file of a sane size; stat first, because
   opening a named pipe would block and a device would never end.  Sets
   *why on failure. */
static FILE *open_regular(const char *path, const char **why) {
  struct stat st;
  if (stat(path, &st) != 0) {
    *why = strerror(errno);
    return NULL;
  }
  if (!S_ISREG(st.st_mode) || st.st_size > MAX_SOURCE_BYTES) {
    *why = "not a regular source file of at most 64 MiB";
    return NULL;
  }
  FILE *f = fopen(path, "r");
  if (!f) *why = strerror(errno);
  return f;
}

/* Opens file as given, else relative to the report's directory (reports
   moved together with their sources). */
static FILE *open_source(const tui_app *a, const char *file, char *used, size_t size,
                         const char **why) {
  snprintf(used, size, "%s", file);
  FILE *f = open_regular(file, why);
  if (f || file[0] == '/') return f;
  const char *first_why = *why;
  snprintf(used, size, "%s/%s", a->source_dir, file);
  f = open_regular(used, why);
  if (!f) {
    snprintf(used, size, "%s", file);
    *why = first_why;
  }
  return f;
}

/* One source line with tabs expanded (tab stops of 8). */
static void add_line(tui_overlay *o, int number, const char *line) {
  char out[4096];
  size_t n = (size_t)snprintf(out, sizeof out, "%6d  ", number), col = 0;
  for (const char *s = line; *s && *s != '\n' && *s != '\r' && n < sizeof out - 9; s++) {
    if (*s == '\t') {
      do out[n++] = ' ';
      while (++col % 8);
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
  const char *why = "";
  FILE *f = open_source(a, rg->file, path, sizeof path, &why);
  if (!f) {
    tui_app_message(a, 1, "%s: %s", path, why);
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
