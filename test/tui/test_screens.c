/*
 * test_screens.c -- exact screens: a fixture report, a size, a key script,
 * and the expected screen in golden/<case>.txt (checked by hand against
 * the fixture's values, see fixture.c).  The screens come from the same
 * code path as `pomp-tui --batch`.  A mismatch prints both screens; a
 * missing golden fails.  POMP_TUI_UPDATE_GOLDEN=1 rewrites the goldens
 * (then review them with git diff).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "batch.h"
#include "fixture.h"
#include "follow.h"

typedef struct {
  const char *name;    /* golden/<name>.txt */
  const char *fixture; /* small, wide, diff */
  int w, h;
  int top_k, ascii;
  const char *keys;
} screen_case;

/* Cases named bottleneck_* open on the top bottleneck as pomp-tui does;
   the others start at the top of the trees (--at-top), the state their
   keys assume. */
static int opens_on_bottleneck(const screen_case *c) {
  return strncmp(c->name, "bottleneck_", 11) == 0;
}

static const screen_case cases[] = {
    /* Start: everything collapsed, inclusive, % of total time; with no
       bottleneck to open on, the status line says where to start and
       the legend line names the value mode and the first keys. */
    {"start", "small", 160, 14, 10, 0, ""},
    /* m: one value mode for the three panes, named on the legend line. */
    {"mode_all_panes", "small", 160, 14, 10, 0, "<Tab>xm"},
    /* / finds properties by meaning: "imbal" matches the wait states. */
    {"search_meaning", "small", 160, 14, 10, 0, "/imbal<Enter>"},
    {"search_meaning_next", "small", 160, 14, 10, 0, "/imbal<Enter>n"},
    /* Details of the selected call path: its value, the focus named. */
    {"details_call_focus", "small", 100, 24, 10, 0, "<Tab>x<Down>i"},
    /* Too small: keys wait (the selection does not move unseen). */
    {"too_small_keys_wait", "small", 160, 14, 10, 0, "<resize 20x5>jjj<Tab>x<resize 160x14>"},
    /* Expanded nodes show exclusive values in all three trees. */
    {"expand_all", "small", 160, 14, 10, 0, "E<Tab>E<Tab>E"},
    /* Linked weighting: Late Sender on the left, MPI_Recv in the middle. */
    {"linked", "small", 160, 14, 10, 0, "E<Down><Down><Down><Down><Tab>E<End><Up><Up><Tab>E"},
    /* Selection in the call pane kept while the property changes. */
    {"keep_place", "small", 160, 14, 10, 0, "<Tab>E<Down><S-Tab>E<Down><Down>"},
    {"mode_selection", "small", 160, 14, 10, 0, "E<Down><Down><Down><Down><Tab>Em"},
    {"mode_absolute", "small", 160, 14, 10, 0, "<End><Tab>mm<Tab>E"},
    /* Absolute properties: each root in its own unit and colour range. */
    {"metric_absolute", "small", 120, 8, 10, 0, "mm<End>"},
    /* Absolute locations: coloured from the smallest to the largest peer. */
    {"peers_absolute", "wide", 80, 18, 20, 0, "3mmE<End>"},
    {"narrow", "small", 70, 14, 10, 0, "<Tab>E"},
    {"help", "small", 80, 40, 10, 0, "?"},
    /* A page taller than the screen scrolls (keys and wheel); q closes. */
    {"help_scrolled", "small", 80, 12, 10, 0, "?<PgDn>j<wheeldown 5,5>"},
    {"help_closed", "small", 80, 12, 10, 0, "?<PgDn>q"},
    {"search", "small", 160, 14, 10, 0, "/recv<Enter>"},
    {"search_next", "small", 160, 14, 10, 0, "/s<Enter>nnn"},
    /* The heaviest MPI_Recv first (solve's 4 s, though setup's 0.5 s
       comes first in the tree and on screen), then the next by weight;
       N goes back. */
    {"search_heaviest_first", "alike", 80, 12, 10, 0, "<Tab>/MPI_Recv<Enter>"},
    {"search_heaviest_next", "alike", 80, 12, 10, 0, "<Tab>/MPI_Recv<Enter>n"},
    {"search_heaviest_previous", "alike", 80, 12, 10, 0, "<Tab>/MPI_Recv<Enter>nN"},
    /* Two properties alike for 31 characters keep their distinguishing
       ends ("...terminal)", "...indirect)") in the 36 columns of a pane at
       the narrowest three-pane width; at 80 columns (one pane, tabs) the
       whole names fit. */
    {"names_alike_narrow", "alike", 110, 12, 10, 0, "E"},
    {"names_alike_80", "alike", 80, 12, 10, 0, "E"},
    {"sort_name", "small", 160, 14, 10, 0, "<Tab>Es"},
    {"hottest", "small", 160, 14, 10, 0, "<Down><Tab>x"},
    {"parent", "small", 160, 14, 10, 0, "<Tab>E<End><Left><Left>"},
    {"top_k", "wide", 80, 14, 3, 0, "3E<End>"},
    {"more_opened", "wide", 80, 14, 3, 0, "3E<End><Enter>"},
    {"diff", "diff", 160, 14, 10, 0, "E<Down><Down><Down><Down>"},
    /* A difference opens at the top, quietly; its POP efficiencies and
       its search are refused, saying why (a run's, not a difference's). */
    {"bottleneck_diff", "diff", 100, 8, 10, 0, ""},
    {"diff_pop_refused", "diff", 100, 8, 10, 0, "p"},
    {"diff_search_refused", "diff", 100, 8, 10, 0, "b"},
    {"diff_search_refused_again", "diff", 100, 8, 10, 0, "b<Down>b"},
    {"ascii", "small", 160, 14, 10, 1, "E<Tab>E<Tab>E"},
    {"resize_narrow", "small", 160, 14, 10, 0, "<Tab>E<resize 60x12>"},
    {"too_small", "small", 160, 14, 10, 0, "<resize 20x5>"},
    {"details", "small", 100, 24, 10, 0, "<Tab>x<Tab>i"},
    {"source", "small", 100, 16, 10, 0, "<Tab>Ej<Enter>v"},
    {"source_missing", "small", 100, 14, 10, 0, "<Tab>x<Tab>v"},
    {"click", "small", 160, 14, 10, 0, "<click 60,2><click 60,2><click 60,3><click 60,3>"},
    {"wheel", "wide", 80, 10, 20, 0, "3E<wheeldown 5,5>"},
    /* Narrow: a click on the third tab shows the location pane. */
    {"tab_click", "small", 70, 10, 10, 0, "<click 60,1>"},
    {"page_keys", "wide", 80, 10, 20, 0, "3E<PgDn><PgDn><PgUp>"},
    {"unknown_key", "small", 160, 14, 10, 0, "Z"},
    {"yank", "small", 100, 8, 10, 0, "<Tab>xy"},
    {"bad_pattern", "small", 160, 14, 10, 0, "/a(<Enter>"},
    /* A run that did not finish: a warning line under the title, the
       panes one line lower; cut with an ellipsis when narrow, where a
       click on the (moved) tabs still picks a pane. */
    {"incomplete", "incomplete", 160, 14, 10, 0, "E"},
    {"incomplete_narrow", "incomplete", 70, 14, 10, 0, "<click 40,2>"},
    {"incomplete_too_small", "incomplete", 160, 14, 10, 0, "<resize 60x7>"},
    /* A description too long for the line: cut, with where to read it
       whole; the details page starts with it, wrapped (attributes too),
       scrolls, and wraps again for a new width. */
    {"incomplete_hint", "incomplete_long", 120, 8, 10, 0, ""},
    {"incomplete_details", "incomplete_long", 80, 30, 10, 0, "i"},
    {"details_scrolled", "incomplete_long", 60, 12, 10, 0, "i<End>"},
    {"details_rewrapped", "incomplete_long", 80, 30, 10, 0, "i<resize 50x30>"},
    /* POP efficiencies (values by hand in test/report/pop_fixture.c): of
       the whole run at the call pane's first root, of a parallel region's
       sub-tree, and n/a without a critical path; p closes the page. */
    {"pop_hybrid", "pop_hybrid", 100, 24, 10, 0, "p"},
    {"pop_parallel_region", "pop_hybrid", 100, 24, 10, 0, "<Tab>E<Down>p"},
    {"pop_no_critical_path", "pop_balanced", 80, 24, 10, 0, "p"},
    {"pop_closed", "pop_hybrid", 100, 12, 10, 0, "pp"},
    /* Metrics the analysis did not compute (report attribute
       not_computed): POP says why, the property pane shows "n/c" and the
       status line the reason. */
    {"pop_not_computed", "not_computed", 80, 24, 10, 0, "p"},
    {"not_computed", "not_computed", 120, 18, 10, 0, "jjjjljj"},
    {"not_computed_details", "not_computed", 100, 20, 10, 0, "jjjjljji"},
    /* A report without computation: the reason on the status line. */
    {"pop_no_comp", "wide", 80, 10, 20, 0, "p"},
    /* Loops (pomp-opari --loops) are call-tree nodes with a mark; an
       OpenMP loop is not marked; ASCII marks them with "@". */
    {"loops", "loops", 100, 10, 10, 0, "<Tab>E"},
    {"loops_ascii", "loops", 100, 10, 10, 1, "<Tab>E"},
    /* pomp-tui opens on the top bottleneck of the automated search
       (Computation in main;solve): property and call path selected,
       their ancestors expanded, the sentence on the status line. */
    {"bottleneck_start", "small", 160, 14, 10, 0, ""},
    /* b: the search history graph, the cursor on the top bottleneck. */
    {"bottleneck_view", "small", 120, 24, 10, 0, "b"},
    /* Enter on a node selects it in the three panes: the load imbalance
       of main;solve on rank 1 (comp, main;solve, rank 1). */
    {"bottleneck_choose", "small", 160, 14, 10, 0, "b<End>kkk<Enter>"},
    /* A digit selects bottleneck N at once: two keys to any of the
       first nine problems (here 1, the computation in main;solve, which
       the first screen skips for the idle threads). */
    {"bottleneck_digit", "small", 160, 14, 10, 0, "b1"},
    /* w: the wait states and overheads by own seconds; a digit selects
       one (its property and call path, expanded to their own parts). */
    {"problems", "small", 120, 16, 10, 0, "w"},
    {"problems_choose", "small", 160, 14, 10, 0, "w2"},
    /* q closes the view and leaves the panes as they were. */
    {"bottleneck_closed", "small", 160, 14, 10, 0, "bjq"},
    /* pomp-tui --follow: a snapshot, then the final report (render_follow). */
    {"follow", NULL, 120, 14, 10, 0, "<Tab><Right><Down><Right><dump><reload> | <reload>"},
};

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  int c;
  while ((c = fgetc(f)) != EOF) fputc(c, mem);
  fclose(f);
  fclose(mem);
  return buf;
}

static char *render_case(const screen_case *c) {
  pomp_report *r = tui_fixture(c->fixture);
  assert_non_null(r);
  tui_options o;
  tui_options_default(&o);
  o.top_k = c->top_k;
  o.ascii = c->ascii;
  o.at_top = !opens_on_bottleneck(c);
  /* The report "lives" next to data/app.c, so the source view finds it.
     The path is relative to the data directory (main() changes into it):
     the screens then do not depend on where the checkout lives, and the
     title is cut at the same column in every clone. */
  tui_app app;
  tui_app_init(&app, r, "data/report.pomp", &o);
  tui_event *ev;
  size_t n;
  char err[128];
  assert_int_equal(tui_parse_keys(c->keys, &ev, &n, err, sizeof err), 0);
  char *out = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&out, &len);
  tui_run_batch(&app, ev, n, c->w, c->h, mem);
  fclose(mem);
  free(ev);
  tui_app_free(&app);
  return out;
}

/* Fixture name as exp/file with modification time mtime (UTC seconds). */
static void put_fixture(const char *name, const char *file, time_t mtime) {
  pomp_report *r = tui_fixture(name);
  char path[64];
  snprintf(path, sizeof path, "exp/%s", file);
  pomp_report_error err = {0};
  assert_int_equal(pomp_report_write(r, path, &err), POMP_REPORT_OK);
  pomp_report_free(r);
  struct timespec t[2] = {{mtime, 0}, {mtime, 0}};
  assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
}

/* pomp-tui --follow exp: the snapshot (2.0 s, written 12:00:02 UTC) with
   main;solve selected and expanded, a <reload> that finds nothing new,
   then the final report (12:00:05) read by <reload>: the selection and
   the expansion kept by name though main;solve's id changed, the values
   and the bottleneck of the final report, "run finished". */
static char *render_follow(void) {
  char here[4096], dir[] = "/tmp/pomp-tui-follow-XXXXXX";
  assert_non_null(getcwd(here, sizeof here));
  assert_non_null(mkdtemp(dir));
  assert_int_equal(chdir(dir), 0); /* relative paths: the same title in every run */
  assert_int_equal(mkdir("exp", 0755), 0);
  setenv("TZ", "UTC", 1);
  tzset();
  const time_t noon = 1767268800; /* 2026-01-01 12:00:00 UTC */
  put_fixture("snapshot", "snapshot.pomp", noon + 2);
  tui_follow f;
  pomp_report_error err = {0};
  pomp_report *r = tui_follow_open(&f, "exp", &err);
  assert_non_null(r);
  tui_options o;
  tui_options_default(&o);
  o.at_top = 1;
  tui_app app;
  tui_app_init(&app, r, f.file, &o);
  app.follow = &f;
  tui_follow_announce(&app);
  char *out = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&out, &len);
  tui_event *ev;
  size_t n;
  char why[128];
  assert_int_equal(
      tui_parse_keys("<Tab><Right><Down><Right><dump><reload>", &ev, &n, why, sizeof why), 0);
  tui_run_batch(&app, ev, n, 120, 14, mem);
  free(ev);
  fputs("\f\n", mem);
  assert_int_equal(f.reloads, 0); /* nothing new: no reload */
  put_fixture("small", "report.pomp", noon + 5);
  assert_int_equal(tui_parse_keys("<reload>", &ev, &n, why, sizeof why), 0);
  tui_run_batch(&app, ev, n, 120, 14, mem);
  free(ev);
  fclose(mem);
  assert_int_equal(f.reloads, 1);
  assert_true(f.finished);
  tui_app_free(&app);
  tui_follow_free(&f);
  unlink("exp/snapshot.pomp");
  unlink("exp/report.pomp");
  rmdir("exp");
  assert_int_equal(chdir(here), 0);
  rmdir(dir);
  return out;
}

static void check_case(void **state) {
  const screen_case *c = *state;
  char *got = c->fixture ? render_case(c) : render_follow();
  char golden[4096];
  snprintf(golden, sizeof golden, "golden/%s.txt", c->name);
  if (getenv("POMP_TUI_UPDATE_GOLDEN")) {
    FILE *f = fopen(golden, "wb");
    assert_non_null(f);
    fputs(got, f);
    fclose(f);
  }
  char *want = read_file(golden);
  if (!want) fail_msg("missing golden %s", golden);
  if (strcmp(got, want) != 0) {
    print_error("case %s (keys \"%s\")\n--- expected\n%s--- got\n%s", c->name, c->keys, want, got);
    fail();
  }
  free(want);
  free(got);
}

int main(void) {
  if (!getenv("POMP_TEST_DATA")) {
    fprintf(stderr, "POMP_TEST_DATA is not set\n");
    return 1;
  }
  if (chdir(getenv("POMP_TEST_DATA")) != 0) {
    perror(getenv("POMP_TEST_DATA"));
    return 1;
  }
  enum { N = sizeof cases / sizeof cases[0] };
  struct CMUnitTest tests[N];
  for (size_t i = 0; i < N; i++) {
    struct CMUnitTest t = {cases[i].name, check_case, NULL, NULL, (void *)&cases[i]};
    tests[i] = t;
  }
  return cmocka_run_group_tests(tests, NULL, NULL);
}
