/* throttled.c -- the user functions libpomp switched off during the run
   (automatic throttling): throttled.txt next to the trace (docs/TRACE.md),
   summed over the ranks into the report's "throttled" attribute
   (docs/FORMAT.md), one line that pomp-analyze's summary, pomp-report and
   pomp-tui can show as it is; and instrumentation.txt beside it, how the
   program was instrumented (the "instrumentation" attribute). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "az_archive.h"
#include "pomp_util.h"

typedef struct {
  char *name;
  unsigned long long recorded, dropped;
} throttled_fn;

typedef struct {
  throttled_fn *v;
  size_t n, cap;
} throttled_list;

static void add(throttled_list *l, const char *name, unsigned long long recorded,
                unsigned long long dropped) {
  for (size_t i = 0; i < l->n; i++)
    if (!strcmp(l->v[i].name, name)) {
      l->v[i].recorded += recorded;
      l->v[i].dropped += dropped;
      return;
    }
  throttled_fn f = {pu_strdup(name), recorded, dropped};
  PU_PUSH(l->v, l->n, l->cap, f);
}

/* Functions named in the line (the most calls not recorded first). */
#define NAMED 10

static int by_dropped_descending(const void *pa, const void *pb) {
  const throttled_fn *a = pa, *b = pb;
  if (a->dropped != b->dropped) return a->dropped < b->dropped ? 1 : -1;
  return strcmp(a->name, b->name);
}

/* "2 functions, 400000 calls not recorded: tiny (200000), solve (200000)" */
static char *one_line(throttled_list *l) {
  qsort(l->v, l->n, sizeof *l->v, by_dropped_descending);
  unsigned long long dropped = 0;
  size_t size = 96;
  for (size_t i = 0; i < l->n; i++) {
    dropped += l->v[i].dropped;
    size += strlen(l->v[i].name) + 32;
  }
  char *line = pu_malloc(size);
  size_t used = (size_t)snprintf(line, size, "%zu function%s, %llu calls not recorded: ", l->n,
                                 l->n > 1 ? "s" : "", dropped);
  for (size_t i = 0; i < l->n && i < NAMED; i++)
    used += (size_t)snprintf(line + used, size - used, "%s%s (%llu)", i ? ", " : "", l->v[i].name,
                             l->v[i].dropped);
  if (l->n > NAMED) snprintf(line + used, size - used, ", ...");
  return line;
}

/* The directory part of the anchor's path, then /name. */
static char *path_beside(const char *anchor, const char *name) {
  const char *slash = strrchr(anchor, '/');
  size_t dir = slash ? (size_t)(slash - anchor) + 1 : 0, len = strlen(name) + 1;
  char *path = pu_malloc(dir + len);
  memcpy(path, anchor, dir);
  memcpy(path + dir, name, len);
  return path;
}

char *az_instrumentation_read(const char *anchor) {
  char *path = path_beside(anchor, "instrumentation.txt");
  FILE *f = fopen(path, "r");
  free(path);
  if (!f) return NULL;
  char line[1100];
  int read = fgets(line, sizeof line, f) != NULL;
  fclose(f);
  if (!read) return NULL;
  line[strcspn(line, "\n")] = 0;
  return line[0] ? pu_strdup(line) : NULL;
}

char *az_throttled_read(const char *anchor, az_diag *diag) {
  char *path = path_beside(anchor, "throttled.txt");
  FILE *f = fopen(path, "r");
  if (!f) {
    free(path);
    return NULL;
  }
  throttled_list l = {0};
  char line[1300], name[1200];
  unsigned lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] == '#' || line[0] == '\n') continue;
    int rank;
    unsigned long long recorded, dropped;
    if (sscanf(line, "%d\t%llu\t%llu\t%1199[^\n]", &rank, &recorded, &dropped, name) != 4)
      az_warn(diag, AZ_W_DEFS,
              "%s:%u: not a line of rank, calls recorded, calls not "
              "recorded and function; ignored",
              path, lineno);
    else add(&l, name, recorded, dropped);
  }
  fclose(f);
  free(path);
  char *result = l.n ? one_line(&l) : NULL;
  for (size_t i = 0; i < l.n; i++) free(l.v[i].name);
  free(l.v);
  return result;
}
