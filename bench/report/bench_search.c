/* bench_search -- pomp-report search (pomp_report_search_run) on a
 * synthetic report, next to a baseline measured in the same run: one pass
 * that decodes every stored value of metric "time" and its sub-metrics
 * (pomp_report_location_values over everything, what pomp-report stat
 * reads), the least any per-location view of the whole report costs.
 * Default: 10,000 call paths x 1,024 locations x the whole catalogue (34
 * metrics, visits and comp included) at 5 %: about 17 M stored values,
 * more (call path, location) cells than a 10 M-event trace (5 M visits)
 * can fill; the target is < 1 s.  --quick: 2,000 x 256.  The
 * report is generated into DIR (default $TMPDIR or /tmp) and removed.
 * Usage: bench_search [--quick] [DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pomp_report.h"
#include "bench_clock.h"

static void die(const char *what, const pomp_report_error *err) {
  fprintf(stderr, "bench_search: %s: %s\n", what, err ? err->message : "failed");
  exit(1);
}

int main(int argc, char **argv) {
  int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  const char *dir = argc > 1 + quick ? argv[1 + quick] : getenv("TMPDIR");
  if (!dir) dir = "/tmp";
  pomp_report_synth p = {
      quick ? 2000 : 10000, quick ? 256 : 1024, 8, pomp_report_catalogue_size(), 0.05, 7};
  char path[512];
  snprintf(path, sizeof path, "%s/bench_search.pomp", dir);
  pomp_report_error err;
  if (pomp_report_generate(&p, path, &err)) die("generate", &err);
  pomp_report *r = pomp_report_open(path, &err);
  if (!r) die(path, &err);
  printf("report: %d call paths x %d locations x %d metrics, %lld rows\n",
         (int)pomp_report_num_cnodes(r), (int)pomp_report_num_locations(r),
         (int)pomp_report_num_metrics(r), (long long)pomp_report_num_rows(r));
  /* Each measured twice, the better kept: the first run also faults in
     the mapped file. */
  double base = 1e30, search = 1e30;
  double *per_loc = malloc(sizeof *per_loc * (size_t)pomp_report_num_locations(r));
  int32_t nodes = 0, bottlenecks = 0;
  for (int rep = 0; rep < 2; rep++) {
    double t0 = bench_now();
    pomp_report_selection all = {pomp_report_find_metric(r, "time"), 1, -1, 1};
    if (pomp_report_location_values(r, &all, per_loc, &err)) die("values", &err);
    double t1 = bench_now();
    pomp_report_search *s = pomp_report_search_run(r, NULL, &err);
    if (!s) die("search", &err);
    double t2 = bench_now();
    nodes = pomp_report_search_num_nodes(s);
    bottlenecks = pomp_report_search_num_bottlenecks(s);
    pomp_report_search_free(s);
    if (t1 - t0 < base) base = t1 - t0;
    if (t2 - t1 < search) search = t2 - t1;
  }
  printf("baseline: decode all of time  %8.3f s\n", base);
  printf("search (%d nodes, %d bottlenecks) %8.3f s  (%.2f x baseline; target < 1 s)\n", (int)nodes,
         (int)bottlenecks, search, search / base);
  free(per_loc);
  pomp_report_free(r);
  remove(path);
  return 0;
}
