/* report_display.c -- what every viewer of a report shows the same way:
   short region labels (C++ functions without their parameter lists,
   static initialisers named as such), call paths cut from the root end so
   that the leaf stays readable, the measurement-perturbation warning
   (pomp-analyze's summary, pomp-report stat and pomp-tui print the same
   line) and what counts as a problem (the summary's and pomp-tui's list of
   wait states and overheads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp_util.h"
#include "report_internal.h"

/* GCC names the function running a translation unit's static constructors
   _GLOBAL__sub_I_<file or mangled key>, and the one it calls
   __static_initialization_and_destruction_0(int, int). */
static const char global_init_prefix[] = "_GLOBAL__sub_I_";
static const char static_init_name[] = "__static_initialization_and_destruction_";

/* Qualifiers that may follow a member function's parameter list. */
static int is_qualifier_tail(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strchr(" &constvlaie", s[i])) return 0; /* const volatile & && */
  return 1;
}

/* Length of name without its trailing parameter list ("ns::f(int) const"
   -> "ns::f", "operator()(int)" -> "operator()"); the whole length where
   there is none. */
static size_t without_parameters(const char *name) {
  size_t n = strlen(name);
  const char *close = strrchr(name, ')');
  if (!close || !is_qualifier_tail(close + 1, n - (size_t)(close + 1 - name))) return n;
  int depth = 0;
  for (const char *c = close; c >= name; c--) {
    if (*c == ')') depth++;
    else if (*c == '(' && --depth == 0) return c > name ? (size_t)(c - name) : n;
  }
  return n;
}

/* The source name of a simple mangled C++ function name, the key GCC
   gives a translation unit's static constructors when it has no file
   name to use: "_Z14CalcElemVolumePKd" -> "CalcElemVolume",
   "_ZN6Domain1xEi" -> "Domain::x".  Returns 0 (nothing written) for
   anything else. */
static int unmangled_function(const char *key, char *buf, size_t size) {
  if (strncmp(key, "_Z", 2) != 0) return 0;
  const char *c = key + 2;
  int nested = *c == 'N';
  if (nested) c++;
  while (nested && (*c == 'K' || *c == 'V' || *c == 'r')) c++;
  size_t used = 0;
  do {
    char *end;
    unsigned long len = strtoul(c, &end, 10);
    if (end == c || len == 0 || strlen(end) < len) return 0;
    int n = snprintf(buf + used, size > used ? size - used : 0, "%s%.*s", used ? "::" : "",
                     (int)len, end);
    used += (size_t)n;
    c = end + len;
  } while (nested && *c != 'E' && *c);
  return !nested || *c == 'E';
}

/* "static init (lulesh.cc)": the file GCC named the function after, the
   region's source file, or the function its mangled key names. */
static size_t static_init_label(const pomp_region *g, const char *key, char *buf, size_t size) {
  char function[256];
  const char *slash = strrchr(g->file, '/');
  if (*g->file) return (size_t)snprintf(buf, size, "static init (%s)", slash ? slash + 1 : g->file);
  if (!*key) return (size_t)snprintf(buf, size, "static init");
  if (unmangled_function(key, function, sizeof function))
    return (size_t)snprintf(buf, size, "static init (file of %s)", function);
  return (size_t)snprintf(buf, size, "static init (%s)", key);
}

static int is_function(const pomp_region *g) {
  return strcmp(g->paradigm, "compiler") == 0 || strcmp(g->paradigm, "user") == 0;
}

size_t pomp_report_region_label(const pomp_report *r, int32_t region, char *buf, size_t size) {
  const pomp_region *g = pomp_report_region(r, region);
  if (!g) return (size_t)snprintf(buf, size, "%s", "");
  if (!is_function(g)) return (size_t)snprintf(buf, size, "%s", g->name);
  size_t prefix = sizeof global_init_prefix - 1;
  if (strncmp(g->name, global_init_prefix, prefix) == 0)
    return static_init_label(g, g->name + prefix, buf, size);
  if (strncmp(g->name, static_init_name, sizeof static_init_name - 1) == 0)
    return static_init_label(g, "", buf, size);
  return (size_t)snprintf(buf, size, "%.*s", (int)without_parameters(g->name), g->name);
}

int pomp_report_is_static_init(const pomp_report *r, int32_t region) {
  const pomp_region *g = pomp_report_region(r, region);
  return g && is_function(g) &&
         (strncmp(g->name, global_init_prefix, sizeof global_init_prefix - 1) == 0 ||
          strncmp(g->name, static_init_name, sizeof static_init_name - 1) == 0);
}

int pomp_report_is_loop(const pomp_report *r, int32_t region) {
  const pomp_region *g = pomp_report_region(r, region);
  return g && g->role && g->paradigm && strcmp(g->role, "loop") == 0 &&
         strcmp(g->paradigm, "user") == 0;
}

/* The labels of a call path, leaf first (freed with free_labels). */
static char **labels_leaf_first(const pomp_report *r, int32_t cnode, int *n) {
  char **labels = NULL, label[512];
  size_t count = 0, cap = 0;
  for (int32_t c = cnode; c >= 0 && pomp_report_cnode(r, c); c = pomp_report_cnode(r, c)->parent) {
    pomp_report_region_label(r, pomp_report_cnode(r, c)->region, label, sizeof label);
    char *copy = pu_strdup(label);
    PU_PUSH(labels, count, cap, copy);
  }
  *n = (int)count;
  return labels;
}

static void free_labels(char **labels, int n) {
  for (int i = 0; i < n; i++) free(labels[i]);
  free(labels);
}

size_t pomp_report_callpath_label(const pomp_report *r, int32_t cnode, const char *sep,
                                  size_t width, char *buf, size_t size) {
  static const char cut[] = "...";
  if (!sep) sep = ";";
  size_t seplen = strlen(sep), cutlen = sizeof cut - 1, total = 0;
  int n;
  char **labels = labels_leaf_first(r, cnode, &n);
  for (int i = 0; i < n; i++) total += strlen(labels[i]) + (i ? seplen : 0);
  /* The deepest labels that fit behind "...;" when the whole does not. */
  int keep = n;
  if (total > width) {
    size_t used = cutlen;
    for (keep = 0; keep < n && used + seplen + strlen(labels[keep]) <= width; keep++)
      used += seplen + strlen(labels[keep]);
  }
  char *out = pu_malloc(total + cutlen + seplen + 1), *at = out;
  if (keep == 0 && n > 0) { /* not even the leaf fits: its end */
    size_t len = strlen(labels[0]), tail = width > cutlen ? width - cutlen : 0;
    at += sprintf(at, "%s%s", cut, labels[0] + len - (tail < len ? tail : len));
  } else {
    if (keep < n) at += sprintf(at, "%s%s", cut, sep);
    for (int i = keep - 1; i >= 0; i--) at += sprintf(at, "%s%s", labels[i], i ? sep : "");
  }
  *at = '\0';
  free_labels(labels, n);
  size_t len = (size_t)snprintf(buf, size, "%s", out);
  free(out);
  return len;
}

double pomp_report_measurement_share(const pomp_report *r) {
  int32_t time = pomp_report_find_metric(r, "time");
  if (time < 0) return 0;
  double total = pomp_report_metric_total(r, time, 1);
  if (!(total > 0)) return 0;
  int32_t nc = pomp_report_num_cnodes(r);
  double *v = pu_malloc((size_t)(nc > 0 ? nc : 1) * sizeof *v), in = 0;
  pomp_report_cnode_values(r, time, 1, v);
  for (int32_t c = 0; c < nc; c++) {
    const pomp_region *g = pomp_report_region(r, pomp_report_cnode(r, c)->region);
    /* paused recording (Score-P's MEASUREMENT OFF) perturbs nothing */
    if (!strcmp(g->paradigm, "measurement") && strcmp(g->name, "MEASUREMENT OFF")) in += v[c];
  }
  free(v);
  return in / total;
}

int pomp_report_perturbation_warning(const pomp_report *r, char *buf, size_t size) {
  double share = pomp_report_measurement_share(r);
  if (size) buf[0] = '\0';
  if (!(share > POMP_REPORT_PERTURBATION_LIMIT)) return 0;
  snprintf(buf, size,
           "measurement perturbation: %.1f %% of the time is trace buffer flushes; "
           "see pomp-report score / POMP_FILTER",
           100 * share);
  return 1;
}

/* ---- problems ------------------------------------------------------------ */

/* Is m in the tree under the catalogue metric named root? */
static int under(const pomp_report *r, int32_t m, const char *root) {
  for (; m >= 0; m = pomp_report_metric(r, m)->parent)
    if (!strcmp(pomp_report_metric(r, m)->name, root)) return 1;
  return 0;
}

int pomp_report_metric_is_problem(const pomp_report *r, int32_t metric) {
  const pomp_metric *m = pomp_report_metric(r, metric);
  /* Only the time tree: the other trees (delay costs, the classifications
     of wait states, the critical path) explain or split time listed there. */
  if (!m || m->unit != POMP_UNIT_SEC || m->parent < 0 || !under(r, metric, "time")) return 0;
  return strcmp(m->name, "comp") && strcmp(m->name, "mpi_management");
}

int pomp_report_cnode_is_startup(const pomp_report *r, int32_t cnode) {
  const pomp_cnode *c = pomp_report_cnode(r, cnode);
  if (!c) return 0;
  const char *name = pomp_report_region(r, c->region)->name;
  return !strcmp(name, "MPI_Init") || !strcmp(name, "MPI_Init_thread") ||
         !strcmp(name, "MPI_Finalize");
}

int pomp_report_startup_left_out(const pomp_report *r, int32_t metric, int32_t cnode) {
  const pomp_metric *m = pomp_report_metric(r, metric);
  return pomp_report_cnode_is_startup(r, cnode) && !(m && !strcmp(m->name, "mpi_finalize_wait"));
}

/* Puts p into out[0..*n) sorted by seconds, keeping the max largest. */
static void keep_largest(pomp_report_problem *out, int32_t *n, int32_t max, pomp_report_problem p) {
  if (*n == max && (max == 0 || out[max - 1].seconds >= p.seconds)) return;
  int32_t i = *n < max ? (*n)++ : max - 1;
  for (; i > 0 && out[i - 1].seconds < p.seconds; i--) out[i] = out[i - 1];
  out[i] = p;
}

int32_t pomp_report_problems(const pomp_report *r, pomp_report_problem *out, int32_t max) {
  int32_t nc = pomp_report_num_cnodes(r), n = 0;
  double *values = pu_malloc(((size_t)nc + 1) * sizeof *values);
  for (int32_t m = 0; m < pomp_report_num_metrics(r); m++) {
    if (!pomp_report_metric_is_problem(r, m)) continue;
    pomp_report_cnode_values(r, m, 0, values);
    for (int32_t c = 0; c < nc; c++)
      if (values[c] > 0 && !pomp_report_startup_left_out(r, m, c))
        keep_largest(out, &n, max, (pomp_report_problem){m, c, values[c]});
  }
  free(values);
  return n;
}
