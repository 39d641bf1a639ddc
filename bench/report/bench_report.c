/* bench_report -- figures of report.pomp on a synthetic report, each next
 * to a baseline measured in the same run on the same machine:
 *   write    pomp_report_generate            vs fwrite of the raw values
 *   rewrite  pomp_report_write of the opened report (the writer alone)
 *   open     definitions + row index          (target < 0.3 s)
 *   size     file bytes / raw 8-byte values   (target <= 1.5)
 *   decode   all rows of the metric holding most values
 *                                            vs fread of its raw values
 *   sums     per-cnode totals of one metric from the row index alone
 * Default: the target, 50,000 call paths x 4,096 locations x 25
 * metrics at 5 % density (about 2.5 GB on disk, two files in DIR).
 * --quick: 5,000 x 512 x 25 at 5 %.   Usage: bench_report [--quick] [DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "pomp_report.h"

static double clock_s(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static double now(void) { return clock_s(CLOCK_MONOTONIC); }
/* CPU time of this process: wall time minus waiting for the disk. */
static double cpu(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

static void die(const char *what, const pomp_report_error *err) {
  fprintf(stderr, "bench_report: %s: %s\n", what, err ? err->message : "");
  exit(1);
}

/* Writes bytes raw bytes with fwrite in 1 MiB blocks; returns seconds,
   CPU seconds in *cpu_s. */
static double raw_write(const char *path, double bytes, double *cpu_s) {
  size_t block = 1 << 20;
  char *buf = calloc(1, block);
  for (size_t i = 0; i < block; i++) buf[i] = (char)(i * 131);
  double t = now(), c = cpu();
  FILE *f = fopen(path, "wb");
  if (!f) die(path, NULL);
  for (double left = bytes; left > 0; left -= (double)block)
    fwrite(buf, 1, left < (double)block ? (size_t)left : block, f);
  fclose(f);
  t = now() - t;
  *cpu_s = cpu() - c;
  free(buf);
  return t;
}

/* Reads bytes raw bytes with fread and adds them up as doubles. */
static double raw_read(const char *path, double bytes, double *sink) {
  size_t block = 1 << 20;
  double *buf = malloc(block);
  double t = now(), s = 0;
  FILE *f = fopen(path, "rb");
  if (!f) die(path, NULL);
  for (double left = bytes; left > 0; left -= (double)block) {
    size_t n = fread(buf, 1, left < (double)block ? (size_t)left : block, f);
    for (size_t i = 0; i < n / 8; i++) s += buf[i];
    if (n == 0) break;
  }
  fclose(f);
  *sink += s;
  free(buf);
  return now() - t;
}

int main(int argc, char **argv) {
  int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  const char *dir = argc > 1 + quick ? argv[1 + quick] : getenv("TMPDIR");
  if (!dir) dir = "/tmp";
  pomp_report_synth p = {quick ? 5000 : 50000, quick ? 512 : 4096, 4, 25, 0.05, 1};
  char path[512], raw[512];
  snprintf(path, sizeof path, "%s/bench_report.pomp", dir);
  snprintf(raw, sizeof raw, "%s/bench_report.raw", dir);
  printf("report: %d call paths x %d locations x %d metrics, density %.2f\n", (int)p.cnodes,
         (int)p.locations, (int)p.metrics, p.density);

  pomp_report_error err;
  double t_write = now(), c_write = cpu();
  if (pomp_report_generate(&p, path, &err)) die("generate", &err);
  t_write = now() - t_write;
  c_write = cpu() - c_write;

  double t_open = 1e9;
  pomp_report *r = NULL;
  for (int i = 0; i < 3; i++) { /* best of 3: the file is in the page cache */
    double t = now();
    pomp_report *o = pomp_report_open(path, &err);
    if (!o) die("open", &err);
    t = now() - t;
    if (t < t_open) t_open = t;
    if (r) pomp_report_free(r);
    r = o;
  }

  /* values per metric: the one holding most is decoded below */
  int32_t nm = pomp_report_num_metrics(r), big = 0;
  double cells = 0, *per_metric = calloc((size_t)nm, sizeof *per_metric);
  for (int64_t i = 0; i < pomp_report_num_rows(r); i++) {
    int32_t m, n;
    pomp_report_row_at(r, i, &m, NULL, &n, NULL);
    cells += n;
    per_metric[m] += n;
  }
  for (int32_t m = 1; m < nm; m++)
    if (per_metric[m] > per_metric[big]) big = m;
  double big_cells = per_metric[big];
  free(per_metric);
  struct stat st;
  stat(path, &st);
  double raw_bytes = 8 * cells;

  double c_raw_write;
  double t_raw_write = raw_write(raw, raw_bytes, &c_raw_write);
  /* the writer alone: copy the opened report's rows to a new file */
  char copy[520];
  snprintf(copy, sizeof copy, "%s.copy", path);
  double t_copy = now(), c_copy = cpu();
  if (pomp_report_write(r, copy, &err)) die("copy", &err);
  t_copy = now() - t_copy;
  c_copy = cpu() - c_copy;
  remove(copy);
  double sink = 0;
  double *out = malloc((size_t)p.locations * sizeof *out);
  pomp_report_selection sel = {big, 0, -1, 1}; /* one metric, all paths */
  double t_decode = 1e9;
  for (int i = 0; i < 3; i++) { /* best of 3: the first maps the pages in */
    double t = now();
    if (pomp_report_location_values(r, &sel, out, &err)) die("decode", &err);
    t = now() - t;
    if (t < t_decode) t_decode = t;
  }
  sink += out[0];
  double t_raw_read = raw_read(raw, 8 * big_cells, &sink);
  double *cv = malloc((size_t)p.cnodes * sizeof *cv);
  double t_sums = now();
  pomp_report_cnode_values(r, 0, 1, cv);
  t_sums = now() - t_sums;
  sink += cv[0];

  printf("values held      %.0f (%.1f MB raw)\n", cells, raw_bytes / 1e6);
  printf("write            %8.3f s  raw fwrite %8.3f s  ratio %.2f\n", t_write, t_raw_write,
         t_write / t_raw_write);
  printf("  of it CPU       %8.3f s  raw fwrite %8.3f s  (the rest is disk)\n", c_write,
         c_raw_write);
  printf("rewrite (copy)   %8.3f s  raw fwrite %8.3f s  ratio %.2f  "
         "(CPU %.3f s; pomp_report_write of the opened report)\n",
         t_copy, t_raw_write, t_copy / t_raw_write, c_copy);
  printf("open             %8.3f s  (definitions + index of %lld rows; "
         "target < 0.3 s)\n",
         t_open, (long long)pomp_report_num_rows(r));
  printf("file size        %8.1f MB  raw %8.1f MB  ratio %.3f (target <= 1.5)\n",
         (double)st.st_size / 1e6, raw_bytes / 1e6, (double)st.st_size / raw_bytes);
  printf("decode metric    %8.3f s  raw fread  %8.3f s  ratio %.2f  "
         "(%s: %.0f values, %.0f M values/s)\n",
         t_decode, t_raw_read, t_decode / t_raw_read, pomp_report_metric(r, big)->name, big_cells,
         big_cells / t_decode / 1e6);
  printf("cnode sums       %8.4f s  (row index only, metric-inclusive time)\n", t_sums);
  fprintf(stderr, "(checksum %g)\n", sink);
  free(out);
  free(cv);
  pomp_report_free(r);
  remove(path);
  remove(raw);
  return 0;
}
