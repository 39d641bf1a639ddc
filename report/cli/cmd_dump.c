/* cmd_dump.c -- pomp-report dump: every stored value, exclusive along the
   metric and call trees, as CSV (metric,callpath,rank,thread,value) or as
   a JSON array of the same records. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pomp_util.h"

static const char summary[] =
    "Prints every stored value (exclusive in metric and call tree), one per\n"
    "(metric, call path, location), in metric then call-path order.\n"
    "CSV header: metric,callpath,rank,thread,value (callpath: region names\n"
    "joined by ';').  JSON: an array of objects with the same keys.\n";

/* A CSV field, quoted (RFC 4180) only when it must be. */
static void put_csv(const char *s) {
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, stdout);
    return;
  }
  putchar('"');
  for (; *s; s++) {
    if (*s == '"') putchar('"');
    putchar(*s);
  }
  putchar('"');
}

/* A JSON string: valid UTF-8 whatever the name's bytes (a byte outside a
   valid sequence becomes U+FFFD, docs/FORMAT.md). */
static void put_json_string(const char *s) {
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

int cmd_dump(int argc, char **argv) {
  static const char *const formats[] = {"csv", "json", NULL};
  const char *path, *metric_name = NULL;
  int json = 0; /* index in formats */
  const pu_option options[] = {
      {"metric", 'm', "M", "only the values of metric M", PU_STRING(&metric_name)},
      {"format", 'f', "csv|json", "output format (default csv)", PU_CHOICE(&json, formats)},
      PU_OPT_END};
  const pu_opt_command cmd = {
      "dump", "REPORT", 1, 1, .summary = summary, .options = options, .failure = CLI_FAILURE};
  pu_opt_parse(&cmd, argc, argv, &path);
  pomp_report *r = cli_open(path);
  int32_t only = metric_name ? cli_metric(r, metric_name, path) : -1;

  size_t nloc = (size_t)pomp_report_num_locations(r) + 1, cap = 0;
  int32_t *locs = pu_malloc(nloc * sizeof *locs);
  double *vals = pu_malloc(nloc * sizeof *vals);
  char *cp = NULL, num[40];
  int rc = POMP_EXIT_OK, first = 1;
  fputs(json ? "[" : "metric,callpath,rank,thread,value\n", stdout);
  for (int64_t i = 0; i < pomp_report_num_rows(r); i++) {
    int32_t m, c;
    pomp_report_row_at(r, i, &m, &c, NULL, NULL);
    if (only >= 0 && m != only) continue;
    pomp_report_error err;
    int32_t n = pomp_report_row_get(r, m, c, locs, vals, &err);
    if (n < 0) {
      pu_error("%s", err.message);
      rc = POMP_EXIT_FAILURE;
      break;
    }
    const char *metric = pomp_report_metric(r, m)->name;
    const char *callpath = cli_callpath(r, c, &cp, &cap);
    for (int32_t k = 0; k < n; k++) {
      const pomp_sysnode *t = pomp_report_sysnode(r, pomp_report_location_sysnode(r, locs[k]));
      cli_format_double(num, sizeof num, vals[k]);
      if (json && !isfinite(vals[k])) strcpy(num, "null"); /* not JSON */
      if (json) {
        fputs(first ? "\n" : ",\n", stdout);
        fputs("{\"metric\":", stdout);
        put_json_string(metric);
        fputs(",\"callpath\":", stdout);
        put_json_string(callpath);
        printf(",\"rank\":%d,\"thread\":%d,\"value\":%s}", (int)t->rank, (int)t->thread, num);
      } else {
        put_csv(metric);
        putchar(',');
        put_csv(callpath);
        printf(",%d,%d,%s\n", (int)t->rank, (int)t->thread, num);
      }
      first = 0;
    }
  }
  if (json) fputs(first ? "]\n" : "\n]\n", stdout);
  free(locs);
  free(vals);
  free(cp);
  pomp_report_free(r);
  return rc;
}
