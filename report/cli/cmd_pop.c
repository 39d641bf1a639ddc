/* cmd_pop.c -- pomp-report pop: the POP efficiencies (parallel efficiency,
   load balance, communication, serialisation and transfer efficiency, and
   the hybrid split into MPI and OpenMP parallel efficiency) of the whole
   run or of the sub-tree of one call path, as text or JSON.  The numbers
   come from pomp_report_pop_compute (report/report_pop.c), the same that
   pomp-tui shows; docs/PROPERTIES.md defines them.  A value that cannot
   be computed is "n/a (why)" in the text and null in the JSON, never a
   guess. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pomp_util.h"

static const char summary[] =
    "Prints the POP efficiencies of the run, or of the sub-tree of call path P\n"
    "(a phase, a loop): parallel efficiency = load balance x communication\n"
    "efficiency = MPI x OpenMP parallel efficiency (hybrid model).  Useful work\n"
    "is the metric comp of each location, the runtime the largest location's\n"
    "time.  Serialisation and transfer efficiency need the critical path\n"
    "(metric critical_path, computed by pomp-analyze from a trace); without it\n"
    "they are n/a (JSON: null), with the reason pomp-analyze gave when it did\n"
    "not compute it (\"not computed: ...\").  P names the regions from the root,\n"
    "joined by ';', as pomp-report dump writes them (or as pomp-tui shows them:\n"
    "functions without their parameter lists).  Definitions:\n"
    "docs/PROPERTIES.md, \"POP efficiencies\".\n";

/* The cnodes whose call path, as region names or as labels, is path;
   returns how many (roots[] has room for every cnode). */
static int32_t find_callpath(const pomp_report *r, const char *path, int32_t *roots) {
  int32_t n = 0;
  char *buf = NULL;
  size_t cap = 0;
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++) {
    int same = strcmp(cli_callpath(r, c, &buf, &cap), path) == 0;
    if (!same) {
      size_t need = pomp_report_callpath_label(r, c, ";", (size_t)-1, NULL, 0) + 1;
      if (need > cap) buf = pu_realloc(buf, cap = need);
      pomp_report_callpath_label(r, c, ";", (size_t)-1, buf, cap);
      same = strcmp(buf, path) == 0;
    }
    if (same) roots[n++] = c;
  }
  free(buf);
  return n;
}

/* The label of cnode's own region (pomp-tui's name of it), into buf. */
static const char *region_label(const pomp_report *r, int32_t cnode, char *buf, size_t size) {
  pomp_report_region_label(r, pomp_report_cnode(r, cnode)->region, buf, size);
  return buf;
}

/* The deepest cnode whose call path (labels) is a ';'-prefix of path, -1
   when even path's first region is no root. */
static int32_t deepest_prefix(const pomp_report *r, const char *path) {
  int32_t best = -1;
  size_t best_len = 0, cap = 0;
  char *buf = NULL;
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++) {
    size_t need = pomp_report_callpath_label(r, c, ";", (size_t)-1, NULL, 0) + 1;
    if (need > cap) buf = pu_realloc(buf, cap = need);
    size_t len = pomp_report_callpath_label(r, c, ";", (size_t)-1, buf, cap);
    if (len > best_len && strncmp(path, buf, len) == 0 && path[len] == ';')
      best = c, best_len = len;
  }
  free(buf);
  return best;
}

/* Whether label ends with path after a ';' (a call path's tail: "solve"
   of "main;solve") or after a "::" (a qualified name's: "solve" of
   "main;heat_f;heat_f_solver::solve"). */
static int ends_with_tail(const char *label, const char *path) {
  size_t n = strlen(label), k = strlen(path);
  if (k >= n || strcmp(label + n - k, path) != 0) return 0;
  return label[n - k - 1] == ';' || (n - k >= 2 && strncmp(label + n - k - 2, "::", 2) == 0);
}

/* The call paths path is the tail of, as a ", "-separated list into list
   (at most max, then ", ..."); returns how many there are. */
static int32_t paths_ending_with(const pomp_report *r, const char *path, char *list, size_t size,
                                 int32_t max) {
  int32_t n = 0;
  size_t cap = 0;
  char *buf = NULL;
  list[0] = '\0';
  for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++) {
    size_t need = pomp_report_callpath_label(r, c, ";", (size_t)-1, NULL, 0) + 1;
    if (need > cap) buf = pu_realloc(buf, cap = need);
    pomp_report_callpath_label(r, c, ";", (size_t)-1, buf, cap);
    if (!ends_with_tail(buf, path)) continue;
    size_t used = strlen(list);
    if (n < max) snprintf(list + used, size - used, "%s%s", n ? ", " : "", buf);
    else if (n == max) snprintf(list + used, size - used, ", ...");
    n++;
  }
  free(buf);
  return n;
}

/* No call path is path: names those it is the tail of, as a user typing
   a function's name means ("solve": "main;solve"), else which names can
   follow its longest known prefix (the roots when there is none), a few
   of them. */
_Noreturn static void die_no_callpath(const pomp_report *r, const char *file, const char *path) {
  enum { MAX_NAMED = 8 };
  char meant[2048];
  if (paths_ending_with(r, path, meant, sizeof meant, MAX_NAMED / 2) > 0)
    pu_die(POMP_EXIT_FAILURE,
           "%s: no call path '%s' (a call path starts at a root); did you mean: %s", file, path,
           meant);
  int32_t parent = deepest_prefix(r, path), n = 0;
  int32_t *next = pu_malloc(((size_t)pomp_report_num_cnodes(r) + 1) * sizeof *next);
  if (parent >= 0) n = pomp_report_cnode_children(r, parent, next, pomp_report_num_cnodes(r));
  else
    for (int32_t c = 0; c < pomp_report_num_cnodes(r); c++)
      if (pomp_report_cnode(r, c)->parent < 0) next[n++] = c;
  char list[1024] = "", label[256], prefix[1024] = "";
  for (int32_t i = 0; i < n && i < MAX_NAMED; i++)
    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
             region_label(r, next[i], label, sizeof label));
  if (n > MAX_NAMED) snprintf(list + strlen(list), sizeof list - strlen(list), ", ...");
  if (parent >= 0) pomp_report_callpath_label(r, parent, ";", (size_t)-1, prefix, sizeof prefix);
  free(next);
  if (parent >= 0)
    pu_die(POMP_EXIT_FAILURE, "%s: no call path '%s'; below '%s' come: %s", file, path, prefix,
           list);
  pu_die(POMP_EXIT_FAILURE, "%s: no call path '%s'; the call paths start with: %s", file, path,
         list);
}

/* A number for JSON: shortest exact text, null where undefined. */
static void put_json_number(double v) {
  char num[40];
  if (isfinite(v)) cli_format_double(num, sizeof num, v);
  else strcpy(num, "null");
  fputs(num, stdout);
}

/* s as a JSON string, or null. */
static void put_json_string_or_null(const char *s) {
  if (s) cli_put_json_string(s);
  else fputs("null", stdout);
}

static void print_json(const pomp_report *r, const char *path, const char *callpath,
                       const pomp_report_pop *p) {
  fputs("{\n  \"report\": ", stdout);
  cli_put_json_string(path);
  fputs(",\n  \"callpath\": ", stdout);
  put_json_string_or_null(callpath);
  fputs(",\n  \"run_incomplete\": ", stdout);
  put_json_string_or_null(pomp_report_run_incomplete(r));
  fputs(",\n  \"not_computed\": ", stdout);
  put_json_string_or_null(pomp_report_attr(r, POMP_REPORT_NOT_COMPUTED));
  printf(",\n  \"processes\": %d,\n  \"locations\": %d", (int)p->processes, (int)p->locations);
  const struct {
    const char *key;
    double v;
  } inputs[] = {{"runtime", p->runtime},
                {"useful_avg", p->useful_avg},
                {"useful_max", p->useful_max},
                {"outside_mpi_avg", p->outside_mpi_avg},
                {"outside_mpi_max", p->outside_mpi_max},
                {"ideal_runtime", p->ideal_runtime}};
  for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
    printf(",\n  \"%s\": ", inputs[i].key);
    put_json_number(inputs[i].v);
  }
  for (int k = 0; k < POMP_REPORT_POP_COUNT; k++) {
    printf(",\n  \"%s\": ", pomp_report_pop_describe((pomp_report_pop_kind)k)->name);
    put_json_number(p->value[k]);
  }
  fputs(",\n  \"not_available\": {", stdout);
  int first = 1;
  for (int k = 0; k < POMP_REPORT_POP_COUNT; k++) {
    if (!p->why[k]) continue;
    printf("%s\n    \"%s\": ", first ? "" : ",",
           pomp_report_pop_describe((pomp_report_pop_kind)k)->name);
    cli_put_json_string(p->why[k]);
    first = 0;
  }
  fputs(first ? "}\n}\n" : "\n  }\n}\n", stdout);
}

/* "2.50 s", "394 µs": as pomp-tui and stat show seconds (the JSON has
   every digit). */
static const char *seconds(double v, char *buf, size_t size) {
  pu_format_seconds(buf, size, v);
  return buf;
}

static void print_text(const char *path, const char *callpath, const pomp_report_pop *p) {
  char a[64], b[64];
  printf("POP efficiencies of %s, %s%s\n", path, callpath ? "call path " : "whole run",
         callpath ? callpath : "");
  printf("%d processes, %d locations; runtime %s\n", (int)p->processes, (int)p->locations,
         seconds(p->runtime, a, sizeof a));
  printf("useful computation per location: average %s, maximum %s\n",
         seconds(p->useful_avg, a, sizeof a), seconds(p->useful_max, b, sizeof b));
  printf("outside MPI per process (master thread): average %s, maximum %s\n",
         seconds(p->outside_mpi_avg, a, sizeof a), seconds(p->outside_mpi_max, b, sizeof b));
  if (p->has_critical_path)
    printf("ideal runtime (computation on the critical path, at least the busiest location's): "
           "%s\n",
           seconds(p->ideal_runtime, a, sizeof a));
  putchar('\n');
  for (int k = 0; k < POMP_REPORT_POP_COUNT; k++) {
    char line[256];
    pomp_report_pop_line(p, (pomp_report_pop_kind)k, line, sizeof line);
    puts(line);
  }
}

int cmd_pop(int argc, char **argv) {
  static const char *const formats[] = {"text", "json", NULL};
  const char *path, *callpath = NULL;
  int json = 0; /* index in formats */
  const pu_option options[] = {
      {"callpath", 'c', "P",
       "only the sub-tree of call path P: the region names from a root, joined by ';' "
       "(\"main;solve\", as dump prints them)",
       PU_STRING(&callpath)},
      {"format", 'f', "text|json", "output format (default text)", PU_CHOICE(&json, formats)},
      PU_OPT_END};
  const pu_opt_command cmd = {
      "pop", "REPORT", 1, 1, .summary = summary, .options = options, .failure = CLI_FAILURE};
  pu_opt_parse(&cmd, argc, argv, &path);
  pomp_report *r = cli_open(path);
  int32_t *roots = pu_malloc(((size_t)pomp_report_num_cnodes(r) + 1) * sizeof *roots);
  int32_t nroots = 0;
  if (callpath && (nroots = find_callpath(r, callpath, roots)) == 0)
    die_no_callpath(r, path, callpath);
  pomp_report_pop pop;
  pomp_report_error err;
  if (pomp_report_pop_compute(r, roots, nroots, &pop, &err) != POMP_REPORT_OK)
    pu_die(POMP_EXIT_FAILURE, "%s", err.message);
  if (json) print_json(r, path, callpath, &pop);
  else {
    cli_print_warnings(r);
    print_text(path, callpath, &pop);
  }
  free(roots);
  pomp_report_free(r);
  return POMP_EXIT_OK;
}
