/* bench_value -- the cost of one pomp_report_value lookup, next to baselines
 * measured in the same run:
 *   array      the same cells decoded beforehand into a dense
 *              [cnode][location] array: the floor (one load)
 *   whole row  what pomp_report_value did before: decode the whole row
 *              (scratch arrays allocated per call) and scan it
 *   cold       pomp_report_value on rows not looked at yet (the first
 *              lookup checks the whole row: checksum, locations, sum)
 *   warm       pomp_report_value on checked rows (read in place)
 * Lookups: N random (call path, location) cells of the metric holding most
 * values, stored or not, the same sequence for every variant.
 * Default: 2,000 call paths x 4,096 locations x 25 metrics at 5 % (about
 * 90 MB, generated into DIR and removed), N = 2,000,000.  --quick: 500 call
 * paths x 1,024 locations, N = 200,000.
 * Usage: bench_value [--quick] [DIR]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pomp_report.h"
#include "bench_clock.h"

static void die(const char *what, const pomp_report_error *err) {
  fprintf(stderr, "bench_value: %s: %s\n", what, err ? err->message : "failed");
  exit(1);
}

static uint64_t rng_state = 42;
static uint64_t rng(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* The former pomp_report_value: whole-row decode into fresh scratch. */
static double value_by_row(const pomp_report *r, int32_t m, int32_t c, int32_t l) {
  size_t nloc = (size_t)pomp_report_num_locations(r);
  int32_t *locs = malloc(nloc * sizeof *locs);
  double *vals = malloc(nloc * sizeof *vals);
  double v = 0;
  int32_t n = pomp_report_row_get(r, m, c, locs, vals, NULL);
  for (int32_t k = 0; k < n; k++)
    if (locs[k] == l) v = vals[k];
  free(locs);
  free(vals);
  return v;
}

typedef struct {
  int32_t *cnode, *loc;
  size_t n;
} lookups;

static pomp_report *open_or_die(const char *path) {
  pomp_report_error err;
  pomp_report *r = pomp_report_open(path, &err);
  if (!r) die(path, &err);
  return r;
}

int main(int argc, char **argv) {
  int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  const char *dir = argc > 1 + quick ? argv[1 + quick] : getenv("TMPDIR");
  if (!dir) dir = "/tmp";
  pomp_report_synth p = {quick ? 500 : 2000, quick ? 1024 : 4096, 4, 25, 0.05, 3};
  size_t nlook = quick ? 200000 : 2000000;
  char path[512];
  snprintf(path, sizeof path, "%s/bench_value.pomp", dir);
  pomp_report_error err;
  if (pomp_report_generate(&p, path, &err)) die("generate", &err);
  pomp_report *r = open_or_die(path);
  int32_t nm = pomp_report_num_metrics(r), nc = pomp_report_num_cnodes(r);
  int32_t nl = pomp_report_num_locations(r);

  /* the metric holding most values, decoded into the baseline array */
  double *per_metric = calloc((size_t)nm, sizeof *per_metric);
  int64_t rows_of_big = 0;
  for (int64_t i = 0; i < pomp_report_num_rows(r); i++) {
    int32_t m, n;
    pomp_report_row_at(r, i, &m, NULL, &n, NULL);
    per_metric[m] += n;
  }
  int32_t big = 0;
  for (int32_t m = 1; m < nm; m++)
    if (per_metric[m] > per_metric[big]) big = m;
  double *dense = calloc((size_t)nc * (size_t)nl, sizeof *dense);
  char *has_row = calloc((size_t)nc, 1);
  int32_t *locs = malloc((size_t)nl * sizeof *locs);
  double *vals = malloc((size_t)nl * sizeof *vals);
  for (int32_t c = 0; c < nc; c++) {
    int32_t n = pomp_report_row_get(r, big, c, locs, vals, &err);
    if (n < 0) die("decode", &err);
    rows_of_big += n > 0;
    has_row[c] = n > 0;
    for (int32_t k = 0; k < n; k++) dense[(size_t)c * (size_t)nl + (size_t)locs[k]] = vals[k];
  }
  pomp_report_free(r);

  lookups q = {malloc(nlook * sizeof(int32_t)), malloc(nlook * sizeof(int32_t)), nlook};
  for (size_t i = 0; i < nlook; i++) {
    q.cnode[i] = (int32_t)(rng() % (uint64_t)nc);
    q.loc[i] = (int32_t)(rng() % (uint64_t)nl);
  }

  double sum_array = 0, t = bench_now();
  for (size_t i = 0; i < nlook; i++)
    sum_array += dense[(size_t)q.cnode[i] * (size_t)nl + (size_t)q.loc[i]];
  double t_array = bench_now() - t;

  r = open_or_die(path); /* fresh: no row checked yet */
  /* its pages mapped in first (row_get does not mark rows checked), so
     that cold and whole-row decode both run on mapped pages */
  for (int32_t c = 0; c < nc; c++) pomp_report_row_get(r, big, c, locs, vals, NULL);
  /* cold: the first lookup of each row of the metric checks the row */
  double sum_cold = 0;
  t = bench_now();
  for (int32_t c = 0; c < nc; c++)
    if (has_row[c]) sum_cold += pomp_report_value(r, big, c, c % nl);
  double t_cold = bench_now() - t;
  double sum_warm = 0;
  t = bench_now();
  for (size_t i = 0; i < nlook; i++) sum_warm += pomp_report_value(r, big, q.cnode[i], q.loc[i]);
  double t_warm = bench_now() - t;
  /* the former way, on fewer lookups (it is slow) */
  size_t nrow = nlook / 20;
  double sum_row = 0, sum_check = 0;
  t = bench_now();
  for (size_t i = 0; i < nrow; i++) sum_row += value_by_row(r, big, q.cnode[i], q.loc[i]);
  double t_row = bench_now() - t;
  for (size_t i = 0; i < nrow; i++)
    sum_check += dense[(size_t)q.cnode[i] * (size_t)nl + (size_t)q.loc[i]];
  if (sum_warm != sum_array || sum_row != sum_check) {
    fprintf(stderr, "bench_value: lookups disagree with the decoded array\n");
    return 1;
  }

  double ns_array = t_array / (double)nlook * 1e9;
  double ns_warm = t_warm / (double)nlook * 1e9;
  double ns_row = t_row / (double)nrow * 1e9;
  double ns_cold = t_cold / (double)rows_of_big * 1e9;
  printf("report: %d call paths x %d locations x %d metrics, density %.2f\n", (int)p.cnodes,
         (int)p.locations, (int)p.metrics, p.density);
  printf("lookups: %zu random cells of %s (%lld rows, %.0f values)\n", nlook,
         pomp_report_metric(r, big)->name, (long long)rows_of_big, per_metric[big]);
  printf("array (baseline)  %9.1f ns/lookup\n", ns_array);
  printf("warm (in place)   %9.1f ns/lookup  x%.1f array\n", ns_warm, ns_warm / ns_array);
  printf("cold (row check)  %9.1f ns/lookup  x%.1f array  (first lookup of a row)\n", ns_cold,
         ns_cold / ns_array);
  printf("whole-row decode  %9.1f ns/lookup  x%.1f array  (the former pomp_report_value, "
         "%zu lookups)\n",
         ns_row, ns_row / ns_array, nrow);
  printf("speed-up warm vs whole-row decode: x%.0f\n", ns_row / ns_warm);
  free(per_metric);
  free(dense);
  free(has_row);
  free(locs);
  free(vals);
  free(q.cnode);
  free(q.loc);
  pomp_report_free(r);
  remove(path);
  return 0;
}
