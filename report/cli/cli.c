/* cli.c -- helpers shared by the pomp-report subcommands. */
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pomp_rerun.h"
#include "pomp_util.h"

/* As pomp-tui opens a report: the command to run when it was not analysed yet. */
static pomp_report *open_report(const char *path) {
  pomp_report_error err;
  pomp_report *r = pomp_report_open(path, &err);
  if (!r && pu_say_not_analysed(path)) exit(POMP_EXIT_FAILURE);
  if (!r) pu_die(POMP_EXIT_FAILURE, "%s", err.message);
  return r;
}

/* As pomp-tui, a note when a re-run of the experiment is newer. */
pomp_report *cli_open(const char *path) {
  pu_note_newer_rerun(path);
  return open_report(path);
}

/* Whether arg (an experiment directory or a file in one) names dir. */
static int names_experiment(const char *arg, const char *dir) {
  struct stat a, d;
  if (stat(arg, &a) != 0 || stat(dir, &d) != 0) return 0;
  if (a.st_dev == d.st_dev && a.st_ino == d.st_ino) return 1;
  const char *slash = strrchr(arg, '/');
  if (S_ISDIR(a.st_mode) || !slash) return 0; /* a file here is in no experiment */
  char *parent = pu_strdup(arg);
  parent[slash - arg + 1] = '\0';
  int in_dir = stat(parent, &a) == 0 && a.st_dev == d.st_dev && a.st_ino == d.st_ino;
  free(parent);
  return in_dir;
}

pomp_report *cli_open_compared(const char *path, const char *other) {
  char newer[PU_PATH_MAX];
  long long written;
  if (!pu_newer_rerun(path, newer, sizeof newer, &written) || !names_experiment(other, newer))
    pu_note_newer_rerun(path);
  return open_report(path);
}

void cli_refuse_difference(const pomp_report *r, const char *path, const char *what) {
  const char *diff = pomp_report_attr(r, "diff");
  if (diff)
    pu_die(POMP_EXIT_FAILURE,
           "%s: a difference of two runs (%s): %s are a run's, not a difference's", path, diff,
           what);
}

/* Whether word occurs in text, ignoring case. */
static int contains_word(const char *text, const char *word) {
  size_t n = strlen(word);
  for (; text && *text; text++)
    if (strncasecmp(text, word, n) == 0) return 1;
  return 0;
}

int32_t cli_metric(const pomp_report *r, const char *name, const char *path) {
  int32_t m = pomp_report_find_metric(r, name);
  if (m >= 0) return m;
  /* What the user may have meant: the metrics whose name or display name
     holds the word typed ("latesender", "late sender"), else where the
     names are. */
  enum { MAX_SUGGESTED = 6 };
  char list[512] = "";
  int found = 0;
  for (int32_t i = 0; i < pomp_report_num_metrics(r) && *name; i++) {
    const pomp_metric *cand = pomp_report_metric(r, i);
    if (!contains_word(cand->name, name) && !contains_word(cand->display, name)) continue;
    if (found++ < MAX_SUGGESTED)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", found > 1 ? ", " : "",
               cand->name);
  }
  if (found > MAX_SUGGESTED) snprintf(list + strlen(list), sizeof list - strlen(list), ", ...");
  if (found) pu_die(POMP_EXIT_FAILURE, "%s: no metric '%s'; did you mean: %s", path, name, list);
  pu_die(POMP_EXIT_FAILURE, "%s: no metric '%s'; 'pomp-report defs %s' lists the metrics", path,
         name, path);
}

void cli_format_double(char *buf, size_t size, double v) {
  /* Any decimal of at most 15 digits survives a trip through a double
     (DBL_DIG), so when 15 digits read back as v they are its shortest
     form (%g drops the trailing zeros); otherwise 16, else 17 digits. */
  int digits = 15;
  for (;; digits++) {
    snprintf(buf, size, "%.*g", digits, v);
    double back = strtod(buf, NULL);
    if (digits == 17 || (back == v && signbit(back) == signbit(v))) break;
  }
  /* Whole numbers below 1e17 without an exponent: "10", not "1e+01". */
  double mag = fabs(v);
  if (isfinite(v) && mag >= 1 && mag < 1e17) {
    int whole = (int)floor(log10(mag)) + 1;
    if (whole > digits) snprintf(buf, size, "%.*g", whole, v);
  }
}

const char *cli_callpath(const pomp_report *r, int32_t cnode, char **buf, size_t *cap) {
  size_t need = pomp_report_callpath(r, cnode, ";", NULL, 0) + 1;
  if (need > *cap) {
    *buf = pu_realloc(*buf, need);
    *cap = need;
  }
  pomp_report_callpath(r, cnode, ";", *buf, *cap);
  return *buf;
}

/* A JSON string: valid UTF-8 whatever the name's bytes (a byte outside a
   valid sequence becomes U+FFFD, docs/FORMAT.md). */
void cli_put_json_string(const char *s) {
  putchar('"');
  while (*s) {
    unsigned char c = (unsigned char)*s;
    size_t n = pu_utf8_sequence(s);
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else if (n) fwrite(s, 1, n, stdout);
    else fputs("\xEF\xBF\xBD", stdout);
    s += n ? n : 1;
  }
  putchar('"');
}

/* The analyzer's one-line description of how the run ended, with control
   characters shown as '?' (the report may come from anywhere). */
static void print_run_warning(const char *status) {
  fputs("WARNING: incomplete run: ", stdout);
  for (const char *c = status; *c; c++) putchar((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c);
  fputs("\n", stdout);
}

void cli_print_warnings(const pomp_report *r) {
  const char *incomplete = pomp_report_run_incomplete(r);
  const char *snapshot = pomp_report_attr(r, "snapshot_seconds"); /* libpomp, POMP_SNAPSHOT */
  const char *ranks = pomp_report_attr(r, "snapshot_ranks");      /* MPI: "K of N ranks" merged */
  if (snapshot)
    printf("snapshot of a running program at %s s%s%s%s: the values so far\n", snapshot,
           ranks ? " (" : "", ranks ? ranks : "", ranks ? ")" : "");
  else if (incomplete) print_run_warning(incomplete);
  char perturbation[256];
  if (pomp_report_perturbation_warning(r, perturbation, sizeof perturbation))
    printf("WARNING: %s\n", perturbation);
  const char *mode_note = pomp_report_mode_note(r);
  if (mode_note) printf("%s\n", mode_note);
}

/* Whether writing out would replace the report that arg names (a report
   file or an experiment directory holding report.pomp).  The output is
   written while the inputs are still being read, so that must be refused. */
int cli_same_file(const char *arg, const char *out) {
  struct stat in_st, out_st;
  if (stat(out, &out_st) != 0 || stat(arg, &in_st) != 0) return 0;
  if (S_ISDIR(in_st.st_mode)) {
    size_t len = strlen(arg) + sizeof "/report.pomp";
    char *file = pu_malloc(len);
    snprintf(file, len, "%s/report.pomp", arg);
    int missing = stat(file, &in_st) != 0;
    free(file);
    if (missing) return 0;
  }
  return in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino;
}

/* Whether the default output may be written: nothing there yet, or an
   earlier output of the command (running it again is what replaces it). */
static int default_output_free(const char *path, const cli_earlier_output *earlier) {
  if (access(path, F_OK) != 0) return 1;
  pomp_report_error err;
  pomp_report *old = pomp_report_open(path, &err);
  int replaceable = old && earlier->is_earlier(old);
  pomp_report_free(old);
  return replaceable;
}

cli_output cli_choose_output(const char *named, const char *default_path,
                             const char *const inputs[], int n, const cli_earlier_output *earlier) {
  cli_output out = {named ? named : default_path, named == NULL};
  for (int i = 0; i < n; i++)
    if (cli_same_file(inputs[i], out.path))
      pu_die(POMP_EXIT_USAGE, "output %s would overwrite input %s%s", out.path, inputs[i],
             out.is_default ? " (the default output: name another with -o)" : "");
  if (out.is_default && !default_output_free(out.path, earlier))
    pu_die(POMP_EXIT_USAGE, "%s exists and is not %s; name the output with -o", out.path,
           earlier->what);
  return out;
}

void cli_say_written(cli_output out, const char *why_fmt, ...) {
  if (!out.is_default) return;
  pu_print_prefix(stderr);
  fprintf(stderr, "wrote %s (", out.path);
  va_list ap;
  va_start(ap, why_fmt);
  vfprintf(stderr, why_fmt, ap);
  va_end(ap);
  fputs(")\n", stderr);
}
