/* bench_tui -- pomp-tui's figures on a synthetic report, each next to a
 * baseline measured in the same run:
 *   first screen  open + model + first frame      vs pomp_report_open alone
 *                 (target < 0.5 s), as in the terminal: location values
 *                 are summed in slices (a key's work plus its slice take at
 *                 most 15 ms); also the time until the visible location
 *                 rows are final and until all location values are there
 *                 vs pomp_report_location_values of the same selection
 *                 in one call (the library's own sum, no slices, no frames)

 *   keys          each key of a browsing script, event + frame, in batch
 *                 mode (target < 30 ms each)      vs a frame with no change
 *   memory        peak RSS / report file size     (target < 2)
 * Default: the size, 50,000 call paths x 4,096 locations x 25
 * metrics at 5 % density (generated once into DIR, about 2.5 GB).
 * --quick: 5,000 x 512 x 25.  --report FILE: an existing report.
 * Usage: bench_tui [--quick] [--report FILE] [DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "app.h"
#include "bench_clock.h"

static double peak_rss_bytes(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss * 1024.0;
}

static pomp_report *open_or_die(const char *path) {
  pomp_report_error err = {0};
  pomp_report *r = pomp_report_open(path, &err);
  if (!r) {
    fprintf(stderr, "bench_tui: %s\n", err.message);
    exit(1);
  }
  return r;
}

/* Are the values of the location pane's visible rows final? */
static int visible_known(const tui_app *a) {
  const tui_pane *pn = &a->pane[TUI_PANE_SYSTEM];
  for (int32_t i = pn->top; i < pn->top + a->rows_h && i < (int32_t)pn->nrows; i++) {
    const tui_row *r = &pn->rows[i];
    if (r->kind != TUI_ROW_NODE ||
        !tui_model_location_known(&a->model, r->node, tui_pane_is_inclusive(pn, r->node)))
      return !tui_app_busy(a);
  }
  return 1;
}

/* A browsing session: moves in every pane, expansions, the hottest path,
   modes, sorting, search, help, narrow layout. */
static const char *const script[] = {
    "<Down>", "<Down>",  "<Down>",           "<Tab>",  "x",      "<Up>",    "<Up>",
    "<Home>", "<Right>", "<Down>",           "<Down>", "<Tab>",  "E",       "<End>",
    "<PgUp>", "m",       "<S-Tab>",          "s",      "<End>",  "<Home>",  "E",
    "<PgDn>", "C",       "<S-Tab>",          "<Down>", "<Down>", "<Enter>", "<Tab>",
    "*",      "<PgDn>",  "/MPI_Wait<Enter>", "n",      "?",      "q",       "<resize 80x24>",
    "<Tab>",
};

int main(int argc, char **argv) {
  int quick = 0;
  const char *report = NULL, *dir = "/tmp";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) quick = 1;
    else if (strcmp(argv[i], "--report") == 0 && i + 1 < argc) report = argv[++i];
    else dir = argv[i];
  }
  char path[4096];
  if (!report) {
    pomp_report_synth p = {quick ? 5000 : 50000, quick ? 512 : 4096, 8, 25, 0.05, 42};
    snprintf(path, sizeof path, "%s/bench_tui_%d.pomp", dir, (int)p.cnodes);
    struct stat st;
    if (stat(path, &st) != 0) {
      printf("generating %s (%d call paths x %d locations x %d metrics, density %.2f)\n", path,
             (int)p.cnodes, (int)p.locations, (int)p.metrics, p.density);
      pomp_report_error err = {0};
      if (pomp_report_generate(&p, path, &err) != POMP_REPORT_OK) {
        fprintf(stderr, "bench_tui: %s\n", err.message);
        return 1;
      }
    }
    report = path;
  }
  struct stat st;
  if (stat(report, &st) != 0) {
    perror(report);
    return 1;
  }
  double size = (double)st.st_size;

  /* Baseline: the report library's open alone. */
  double t0 = bench_now();
  pomp_report *base = open_or_die(report);
  double open_s = bench_now() - t0;
  printf("report %s: %.1f MB, %d call paths, %d locations, %d metrics\n", report, size / 1e6,
         (int)pomp_report_num_cnodes(base), (int)pomp_report_num_locations(base),
         (int)pomp_report_num_metrics(base));
  /* Baseline of the location values: the library's sum of the root
     selection (every row), one call. */
  double *per_loc = malloc(sizeof *per_loc * (size_t)pomp_report_num_locations(base));
  pomp_report_selection root = {0, 1, 0, 1};
  pomp_report_error lerr = {0};
  t0 = bench_now();
  if (pomp_report_location_values(base, &root, per_loc, &lerr) != POMP_REPORT_OK) {
    fprintf(stderr, "bench_tui: %s\n", lerr.message);
    return 1;
  }
  double library_s = bench_now() - t0;
  free(per_loc);
  pomp_report_free(base);

  t0 = bench_now();
  pomp_report *r = open_or_die(report);
  tui_options o;
  tui_options_default(&o);
  o.budget = TUI_FRAME_BUDGET; /* as the terminal front end */
  static tui_app app;
  tui_app_init(&app, r, report, &o);
  tui_app_resize(&app, 160, 48);
  tui_app_render(&app);
  double first = bench_now() - t0;
  printf("first screen      %8.1f ms  (open alone %.1f ms, ratio %.2f; target < 500 ms)\n",
         first * 1e3, open_s * 1e3, first / open_s);
  int frames = 1;
  double visible = visible_known(&app) ? first : -1;
  while (tui_app_busy(&app)) {
    tui_app_work(&app, o.budget);
    tui_app_render(&app);
    frames++;
    if (visible < 0 && visible_known(&app)) visible = bench_now() - t0;
  }
  double complete = bench_now() - t0;
  if (visible < 0) visible = complete;
  printf("visible locations %8.1f ms  (the location rows on the first screen are final)\n",
         visible * 1e3);
  printf("location values   %8.1f ms  (all rows of the root selection, %d frames; library sum "
         "%.1f ms, ratio %.2f)\n",
         complete * 1e3, frames, library_s * 1e3, complete / library_s);

  /* Baseline per key: a frame with nothing changed. */
  double idle = 1e9;
  for (int i = 0; i < 20; i++) {
    t0 = bench_now();
    tui_app_render(&app);
    double d = bench_now() - t0;
    if (d < idle) idle = d;
  }
  double worst = 0, total = 0;
  const char *worst_key = "";
  size_t nkeys = sizeof script / sizeof script[0];
  printf("keys (event + frame; baseline: unchanged frame %.3f ms)\n", idle * 1e3);
  for (size_t k = 0; k < nkeys; k++) {
    tui_event *ev;
    size_t n;
    char err[128];
    if (tui_parse_keys(script[k], &ev, &n, err, sizeof err) != 0) {
      fprintf(stderr, "bench_tui: %s\n", err);
      return 1;
    }
    t0 = bench_now();
    for (size_t i = 0; i < n; i++) tui_app_event(&app, &ev[i]);
    tui_app_render(&app);
    double d = bench_now() - t0;
    free(ev);
    /* Let a started location sum finish before the next key (not timed:
       the terminal shows progress meanwhile). */
    double t1 = bench_now();
    int busy = tui_app_busy(&app);
    while (tui_app_busy(&app)) tui_app_work(&app, 0);
    if (busy)
      printf("  %-18s %8.2f ms  (location values completed after the frame)\n", "",
             (bench_now() - t1) * 1e3);
    total += d;
    if (d > worst) worst = d, worst_key = script[k];
    printf("  %-18s %8.2f ms  (x%.0f baseline)\n", script[k], d * 1e3, d / idle);
  }
  printf("keys: %zu, mean %.2f ms, worst %.2f ms (%s); target < 30 ms each\n", nkeys,
         total / (double)nkeys * 1e3, worst * 1e3, worst_key);
  double rss = peak_rss_bytes();
  printf("peak memory       %8.1f MB  (report %.1f MB, ratio %.2f; target < 2)\n", rss / 1e6,
         size / 1e6, rss / size);
  tui_app_free(&app);
  return 0;
}
