/* overlay_source.c -- the source of the selected call path's region, with
   its lines highlighted, when the file can be read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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

/* When the run's files were written: the trace (the report's "trace"
   attribute), else the report itself, which is newer still; 0 when
   neither can be read. */
static time_t run_written(const tui_app *a) {
  struct stat st;
  const char *trace = pomp_report_attr(a->model.report, "trace");
  if (trace && *trace && stat(trace, &st) == 0) return st.st_mtime;
  char report[4096];
  snprintf(report, sizeof report, "%s", a->path);
  if (stat(report, &st) == 0 && S_ISDIR(st.st_mode)) {
    snprintf(report, sizeof report, "%s/report.pomp", a->path);
    if (stat(report, &st) != 0) return 0;
  } else if (stat(report, &st) != 0) {
    return 0;
  }
  return st.st_mtime;
}

/* A source edited after the run shows the region at its old line numbers:
   say so in the title. */
static const char *staleness(const tui_app *a, FILE *f) {
  struct stat st;
  time_t run = run_written(a);
  if (run == 0 || fstat(fileno(f), &st) != 0 || st.st_mtime <= run) return "";
  return "  (edited after the run: lines may have moved)";
}

void tui_open_source(tui_app *a) {
  int32_t c = tui_pane_selected_node(&a->pane[TUI_PANE_CALL]);
  if (c < 0) return;
  const pomp_report *r = a->model.report;
  const pomp_region *rg = pomp_report_region(r, pomp_report_cnode(r, c)->region);
  if (!rg->file || !*rg->file) {
    tui_app_message(a, 1, "%s: no source file recorded (build with -g to have one)", rg->name);
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
  snprintf(o->title, sizeof o->title, "%.80s  %.120s:%d-%d%s", rg->name, path, (int)rg->begin_line,
           (int)rg->end_line, staleness(a, f));
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
