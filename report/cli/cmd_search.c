/* cmd_search.c -- pomp-report search: the automated search for bottlenecks
   (Paradyn's Performance Consultant, report/report_search.c) printed as
   its search history graph and the bottlenecks it ends at, in words or as
   JSON for scripts.  The rules are in docs/PROPERTIES.md ("The automated
   search"). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pomp_util.h"

static const char summary[] =
    "Tests each hypothesis against its threshold (a fraction of the time):\n"
    "  cpu_bound          computation (comp)\n"
    "  sync_wait          the wait states (Late Sender, Wait at N x N,\n"
    "                     barrier waits, lock contention, ...)\n"
    "  parallel_overhead  OpenMP and MPI management, idle threads\n"
    "  load_imbalance     computation unequal among the locations\n"
    "  io_blocking        file I/O (POSIX, ISO C, MPI-IO)\n"
    "  small_io_ops       I/O of calls moving under 4 KiB each\n"
    "and refines each true one top-down: along the property hierarchy, down\n"
    "the call tree (functions and loops), then along the locations (ranks,\n"
    "threads).  Refinements under the threshold are pruned; the deepest true\n"
    "nodes are the bottlenecks.  Prints the search history graph (true /\n"
    "false / pruned / untestable, value) and the bottlenecks ranked by\n"
    "seconds, one sentence each.\n";

static const char more[] = "Default thresholds: cpu_bound=0.3 sync_wait=0.2 parallel_overhead=0.1\n"
                           "load_imbalance=0.1 io_blocking=0.2 small_io_ops=0.1.\n";

static const char *const verdict_names[] = {"true", "false", "pruned", "untestable"}; /* JSON */

/* "HYP=F" into thresholds[HYP]. */
static int parse_threshold(const char *value, void *target, char *why, size_t why_size) {
  double *thresholds = target;
  const char *eq = strchr(value, '=');
  char name[64];
  size_t len = eq ? (size_t)(eq - value) : 0;
  if (!eq || len >= sizeof name) {
    snprintf(why, why_size, "'%s' is not HYPOTHESIS=FRACTION", value);
    return -1;
  }
  memcpy(name, value, len);
  name[len] = '\0';
  int32_t h = pomp_report_search_find_hypothesis(name);
  if (h < 0) {
    snprintf(why, why_size,
             "no hypothesis '%s' (cpu_bound, sync_wait, parallel_overhead, "
             "load_imbalance, io_blocking, small_io_ops)",
             name);
    return -1;
  }
  char *end;
  double f = strtod(eq + 1, &end);
  if (end == eq + 1 || *end || !(f >= 0 && f <= 1)) {
    snprintf(why, why_size, "'%s' is not a fraction between 0 and 1", eq + 1);
    return -1;
  }
  thresholds[h] = f;
  return 0;
}

static const char *node_callpath(const pomp_report *r, const pomp_report_search_node *n, char **buf,
                                 size_t *cap) {
  return n->cnode < 0 ? "" : cli_callpath(r, n->cnode, buf, cap);
}

/* One line per node, children under their parent. */
static void print_graph_node(const pomp_report_search *s, int32_t id, int depth, char **line,
                             size_t *cap) {
  size_t need = pomp_report_search_node_label(s, id, NULL, 0) + 1;
  if (need > *cap) {
    *line = pu_realloc(*line, need);
    *cap = need;
  }
  pomp_report_search_node_label(s, id, *line, *cap);
  printf("%*s%s\n", 2 * depth, "", *line);
  int32_t n = pomp_report_search_node_children(s, id, NULL, 0);
  int32_t *kids = pu_malloc(((size_t)n + 1) * sizeof *kids);
  pomp_report_search_node_children(s, id, kids, n);
  for (int32_t i = 0; i < n; i++) print_graph_node(s, kids[i], depth + 1, line, cap);
  free(kids);
}

static void print_text(const pomp_report_search *s) {
  char *line = NULL, sentence[2048];
  size_t cap = 0;
  printf("search history graph (value: share of the time of the node's locations; total %.6g "
         "s)\n",
         pomp_report_search_total(s));
  print_graph_node(s, 0, 0, &line, &cap);
  int32_t nb = pomp_report_search_num_bottlenecks(s);
  printf("\nbottlenecks (%d, most seconds first):\n", (int)nb);
  if (nb == 0) puts("  none: no hypothesis holds above its threshold");
  for (int32_t i = 0; i < nb; i++) {
    int32_t id = pomp_report_search_bottleneck(s, i);
    pomp_report_search_sentence(s, id, sentence, sizeof sentence);
    printf("%2d. %s [node %d]\n", (int)i + 1, sentence, (int)id);
  }
  free(line);
}

static void print_json_node(const pomp_report *r, const pomp_report_search *s, int32_t id,
                            char **cp, size_t *cap) {
  const pomp_report_search_node *n = pomp_report_search_node_at(s, id);
  char num[40];
  printf("%s\n  {\"id\": %d, \"parent\": ", id ? "," : "", (int)id);
  if (n->parent < 0) fputs("null", stdout);
  else printf("%d", (int)n->parent);
  fputs(", \"hypothesis\": ", stdout);
  cli_put_json_string(pomp_report_search_node_name(s, id));
  fputs(", \"callpath\": ", stdout);
  cli_put_json_string(node_callpath(r, n, cp, cap));
  fputs(", \"locations\": ", stdout);
  if (n->num_locations == 0) fputs("\"all\"", stdout);
  for (int32_t i = 0; i < n->num_locations; i++)
    printf("%s%d", i ? ", " : "[", (int)n->locations[i]);
  if (n->num_locations) putchar(']');
  cli_format_double(num, sizeof num, n->value);
  printf(", \"value\": %s", num);
  cli_format_double(num, sizeof num, n->threshold);
  printf(", \"threshold\": %s, \"verdict\": \"%s\"}", num, verdict_names[n->verdict]);
}

static void print_json(const pomp_report *r, const pomp_report_search *s) {
  char *cp = NULL, num[40];
  size_t cap = 0;
  cli_format_double(num, sizeof num, pomp_report_search_total(s));
  printf("{\"total_seconds\": %s, \"nodes\": [", num);
  for (int32_t id = 0; id < pomp_report_search_num_nodes(s); id++)
    print_json_node(r, s, id, &cp, &cap);
  fputs("\n], \"bottlenecks\": [", stdout);
  for (int32_t i = 0; i < pomp_report_search_num_bottlenecks(s); i++)
    printf("%s%d", i ? ", " : "", (int)pomp_report_search_bottleneck(s, i));
  fputs("]}\n", stdout);
  free(cp);
}

int cmd_search(int argc, char **argv) {
  static const char *const formats[] = {"text", "json", NULL};
  const char *path;
  int json = 0;
  double thresholds[POMP_SEARCH_HYPOTHESES];
  for (int32_t h = 0; h < POMP_SEARCH_HYPOTHESES; h++)
    thresholds[h] = pomp_report_search_default_threshold(h);
  const pu_option options[] = {
      {"format", 'f', "text|json", "output format (default text)", PU_CHOICE(&json, formats)},
      {"threshold", 't', "HYP=F",
       "threshold of hypothesis HYP as a fraction of the time (repeatable)",
       PU_CALL(parse_threshold, thresholds)},
      PU_OPT_END};
  const pu_opt_command cmd = {"search",
                              "REPORT",
                              1,
                              1,
                              .summary = summary,
                              .more = more,
                              .options = options,
                              .failure = CLI_FAILURE};
  pu_opt_parse(&cmd, argc, argv, &path);
  pomp_report *r = cli_open(path);
  pomp_report_error err;
  pomp_report_search *s = pomp_report_search_run(r, thresholds, &err);
  if (!s) pu_die(POMP_EXIT_FAILURE, "%s", err.message);
  if (json) print_json(r, s);
  else print_text(s);
  pomp_report_search_free(s);
  pomp_report_free(r);
  return POMP_EXIT_OK;
}
