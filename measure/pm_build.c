/* pm_build.c -- how the program's user functions were instrumented.
   pomp-cc adds to every object it compiles a non-allocated ELF section
   `.pomp_instr` holding one line, "MECHANISM<TAB>FILTER\n" (the filter
   file of --filter, or empty; tools/pomp-cc.in); the linker concatenates
   the sections of all objects. Read from /proc/self/exe at the start:
   measure.log says it, instrumentation.txt in the experiment directory
   carries it to pomp-analyze (the report's `instrumentation` attribute,
   docs/TRACE.md), and profile mode's report has the same attribute. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pm_runtime.h"
#include "pm_user.h"

enum { KINDS = 8 };

/* Distinct values of one field and how many objects have each. */
typedef struct {
  char text[KINDS][200];
  unsigned count[KINDS];
  int n;
} tally;

static char summary[1024];

static void count(tally *t, const char *s, size_t len) {
  if (len >= sizeof t->text[0]) len = sizeof t->text[0] - 1;
  for (int i = 0; i < t->n; i++)
    if (strlen(t->text[i]) == len && !memcmp(t->text[i], s, len)) {
      t->count[i]++;
      return;
    }
  if (t->n == KINDS) return; /* more kinds than anyone builds with: the first ones */
  memcpy(t->text[t->n], s, len);
  t->text[t->n][len] = 0;
  t->count[t->n++] = 1;
}

/* "A in 3 objects, B in 1 object" after `used` bytes of summary. */
static size_t describe(const tally *t, const char *prefix, size_t used) {
  for (int i = 0; i < t->n && used < sizeof summary; i++)
    used += (size_t)snprintf(summary + used, sizeof summary - used, "%s%s%s in %u object%s",
                             i ? ", " : "", prefix, t->text[i], t->count[i],
                             t->count[i] == 1 ? "" : "s");
  return used;
}

/* The summary of the section's lines, e.g. "GCC plugin (after inlining) in
   4 objects; compile-time filter /src/app.filter in 4 objects". */
static void summarise(const char *sec, size_t len) {
  tally mechanisms = {0}, filters = {0};
  for (size_t pos = 0; pos < len;) {
    const char *line = sec + pos, *nl = memchr(line, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - line) : len - pos;
    pos += n + 1;
    const char *tab = memchr(line, '\t', n);
    if (!tab || tab == line) continue; /* not a line of pomp-cc's */
    count(&mechanisms, line, (size_t)(tab - line));
    size_t flen = n - (size_t)(tab + 1 - line);
    if (flen) count(&filters, tab + 1, flen);
  }
  if (!mechanisms.n) return;
  size_t used = describe(&mechanisms, "", 0);
  if (used < sizeof summary) used += (size_t)snprintf(summary + used, sizeof summary - used, "; ");
  if (!filters.n && used < sizeof summary)
    snprintf(summary + used, sizeof summary - used, "no compile-time filter");
  else describe(&filters, "compile-time filter ", used);
}

void pm_build_read(void) {
  summary[0] = 0;
  int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
    void *img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    size_t off, len;
    if (img != MAP_FAILED) {
      if (pm_elf_section(img, (size_t)st.st_size, ".pomp_instr", &off, &len))
        summarise((const char *)img + off, len);
      munmap(img, (size_t)st.st_size);
    }
  }
  if (fd >= 0) close(fd);
  if (summary[0]) pm_log("instrumentation: %s", summary);
  else
    pm_log("instrumentation: not recorded (no object of the program was compiled by pomp-cc; "
           "functions are recorded only where compiled with -finstrument-functions or a plugin)");
}

const char *pm_build_instrumentation(void) { return summary[0] ? summary : NULL; }

void pm_build_write(const char *dir) {
  if (!summary[0] || pm_rank > 0) return; /* the ranks run one program: rank 0 says it */
  char path[4096];
  snprintf(path, sizeof path, "%s/instrumentation.txt", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    pm_warn("%s: cannot write how the program was instrumented", path);
    return;
  }
  fprintf(f, "%s\n", summary);
  if (fclose(f) != 0) pm_warn("%s: write failed", path);
}
