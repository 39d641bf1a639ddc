/*
 * main.c -- pomp-e2e-check: does a report hold the planted problems of an
 * example program, and nothing else large?
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_check.h"
#include "pomp_util.h"

static const char USAGE[] =
    "usage: pomp-e2e-check --ranks R --threads T [--trace-values CSV] EXPECTATIONS\n"
    "                      REPORT_CSV\n"
    "\n"
    "Compares the CSV of `pomp-report dump --format csv` (REPORT_CSV, '-' for\n"
    "standard input) with an example's expectation file (format in\n"
    "test/e2e/README.md) for a run of R ranks x T threads.  --trace-values:\n"
    "values computed from the trace itself (completions.awk), in the same\n"
    "CSV: the report's values of each metric they name must equal them, and\n"
    "are then not held to `large`.  Prints one line per check; exits 0 when\n"
    "all pass, 1 when one fails or a file is bad, 2 on a bad command line.\n";

/* The whole file, NUL-terminated, or NULL with a message. */
static char *read_all(const char *path) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) {
    pu_error("%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  size_t n = 0, cap = 0;
  char *text = NULL, chunk[65536];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    pu_reserve((void **)&text, &cap, n + got + 1, 1);
    memcpy(text + n, chunk, got);
    n += got;
  }
  int bad = ferror(f) || memchr(text ? text : "", '\0', n) != NULL;
  if (f != stdin) fclose(f);
  if (bad) {
    pu_error("%s: cannot read, or holds a NUL byte", path);
    free(text);
    return NULL;
  }
  if (!text) text = pu_calloc(1, 1);
  text[n] = '\0';
  return text;
}

static int parse_count(const char *opt, const char *text) {
  char *end;
  long v = text ? strtol(text, &end, 10) : 0;
  if (!text || end == text || *end || v < 1 || v > 1 << 20)
    pu_die(POMP_EXIT_USAGE, "%s needs a count of 1 or more\n%s", opt, USAGE);
  return (int)v;
}

/* The report's values against those computed from the trace (path): the
   number of failures, 1 for a file that cannot be read. */
static int check_trace_values(const char *path, e2e_rows *rows) {
  char err[512];
  char *text = read_all(path);
  if (!text) return 1;
  e2e_rows trace;
  int failures = 1;
  if (e2e_rows_parse(&trace, text, path, err, sizeof err) < 0) {
    pu_error("%s", err);
  } else {
    failures = e2e_check_trace(&trace, rows, stdout);
    printf("%s: %zu values from the trace, %d differ%s\n", failures ? "FAIL" : "ok", trace.n,
           failures, failures == 1 ? "s" : "");
    e2e_rows_free(&trace);
  }
  free(text);
  return failures;
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  int ranks = 0, threads = 0;
  const char *files[2], *trace_values = NULL;
  int nfiles = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0) {
      fputs(USAGE, stdout);
      return POMP_EXIT_OK;
    } else if (strcmp(argv[i], "--version") == 0) {
      pu_print_version();
      return POMP_EXIT_OK;
    } else if (strcmp(argv[i], "--ranks") == 0) {
      ranks = parse_count("--ranks", i + 1 < argc ? argv[++i] : NULL);
    } else if (strcmp(argv[i], "--threads") == 0) {
      threads = parse_count("--threads", i + 1 < argc ? argv[++i] : NULL);
    } else if (strcmp(argv[i], "--trace-values") == 0) {
      if (i + 1 >= argc) pu_die(POMP_EXIT_USAGE, "--trace-values needs a file\n%s", USAGE);
      trace_values = argv[++i];
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      pu_die(POMP_EXIT_USAGE, "unknown option '%s'\n%s", argv[i], USAGE);
    } else if (nfiles < 2) {
      files[nfiles++] = argv[i];
    } else {
      pu_die(POMP_EXIT_USAGE, "too many arguments\n%s", USAGE);
    }
  }
  if (nfiles != 2 || ranks == 0 || threads == 0)
    pu_die(POMP_EXIT_USAGE, "need --ranks, --threads and two files\n%s", USAGE);

  char err[512];
  char *spec_text = read_all(files[0]), *csv_text = read_all(files[1]);
  if (!spec_text || !csv_text) return POMP_EXIT_FAILURE;
  e2e_spec spec;
  e2e_rows rows;
  int status = POMP_EXIT_FAILURE;
  if (e2e_spec_parse(&spec, spec_text, files[0], err, sizeof err) < 0) {
    pu_error("%s", err);
  } else {
    if (e2e_rows_parse(&rows, csv_text, files[1], err, sizeof err) < 0) {
      pu_error("%s", err);
    } else {
      int failures = trace_values ? check_trace_values(trace_values, &rows) : 0;
      failures += e2e_check(&spec, &rows, ranks, threads, stdout);
      printf("%s: %d failure%s at %dx%d\n", failures ? "FAILED" : "PASSED", failures,
             failures == 1 ? "" : "s", ranks, threads);
      status = failures ? POMP_EXIT_FAILURE : POMP_EXIT_OK;
      e2e_rows_free(&rows);
    }
    e2e_spec_free(&spec);
  }
  free(spec_text);
  free(csv_text);
  return status;
}
