/*
 * test_units.c -- the pieces under the screens: value formatting, the
 * colour spectrum, key scripts, the virtual screen, the weighting model,
 * and the attributes the text goldens cannot show (selection, cursor,
 * weight colours, quiet zeros).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"
#include "batch.h"
#include "fixture.h"
#include "format.h"
#include "pomp_util.h"

static void percent_format(void **state) {
  (void)state;
  char b[32];
  tui_format_percent(b, sizeof b, 8, 82);
  assert_string_equal(b, "9.76");
  tui_format_percent(b, sizeof b, -8, 82);
  assert_string_equal(b, "-9.76");
  tui_format_percent(b, sizeof b, 0, 0);
  assert_string_equal(b, "0.00");
  tui_format_percent(b, sizeof b, 1, 0);
  assert_string_equal(b, "-");
  tui_format_percent(b, sizeof b, NAN, 10);
  assert_string_equal(b, "-");
  /* above zero, below two decimals: not a "0.00" next to a glyph */
  tui_format_percent(b, sizeof b, 4e-5, 1);
  assert_string_equal(b, "<0.01");
  tui_format_percent(b, sizeof b, -4e-5, 1);
  assert_string_equal(b, ">-0.01");
  tui_format_percent(b, sizeof b, 6e-5, 1);
  assert_string_equal(b, "0.01");
}

static void absolute_format(void **state) {
  (void)state;
  static const struct {
    double v;
    pomp_unit u;
    const char *want;
  } cases[] = {
      {1.234, POMP_UNIT_SEC, "1.23 s"},
      {0.0456, POMP_UNIT_SEC, "45.6 ms"},
      {789e-6, POMP_UNIT_SEC, "789 µs"},
      {3e-9, POMP_UNIT_SEC, "3.00 ns"},
      {1234, POMP_UNIT_SEC, "1234 s"},
      {0, POMP_UNIT_SEC, "0"},
      {52, POMP_UNIT_OCC, "52"},
      {3400, POMP_UNIT_OCC, "3.40 k"},
      {12288, POMP_UNIT_BYTES, "12.0 KiB"},
      {512, POMP_UNIT_BYTES, "512 B"},
      {-2.5, POMP_UNIT_SEC, "-2.50 s"},
      {2e12, POMP_UNIT_SEC, "2.0e+12"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char b[32];
    tui_format_absolute(b, sizeof b, cases[i].v, cases[i].u);
    assert_string_equal(b, cases[i].want);
  }
}

static void spectrum_levels(void **state) {
  (void)state;
  assert_int_equal(tui_level(0), 0);
  assert_int_equal(tui_level(NAN), 0);
  assert_int_equal(tui_level(1e-9), 1); /* tiny but not zero: visible */
  assert_int_equal(tui_level(0.5), 12);
  assert_int_equal(tui_level(1), TUI_LEVELS);
  assert_int_equal(tui_level(7), TUI_LEVELS);
  assert_int_equal(tui_level(-0.5), -12);
  assert_int_equal(tui_level_height(0), 0);
  assert_int_equal(tui_level_height(1), 1);
  assert_int_equal(tui_level_height(12), 4);
  assert_int_equal(tui_level_height(-24), 8);
  /* Eight colours: blue, cyan, green, yellow, red along the scale. */
  assert_int_equal(tui_level_color(2, 0, TUI_COLOR_8), 4);
  assert_int_equal(tui_level_color(7, 0, TUI_COLOR_8), 6);
  assert_int_equal(tui_level_color(12, 0, TUI_COLOR_8), 2);
  assert_int_equal(tui_level_color(18, 0, TUI_COLOR_8), 3);
  assert_int_equal(tui_level_color(24, 0, TUI_COLOR_8), 1);
  assert_int_equal(tui_level_color(-24, 1, TUI_COLOR_8), 4);
  assert_int_equal(tui_level_color(24, 1, TUI_COLOR_8), 1);
  /* 256 colours: viridis ends (violet 60 .. yellow 227), red 196 and blue
     27 ends of the diverging scale. */
  assert_int_equal(tui_level_color(1, 0, TUI_COLOR_256), 60);
  assert_int_equal(tui_level_color(24, 0, TUI_COLOR_256), 227);
  assert_int_equal(tui_level_color(24, 1, TUI_COLOR_256), 196);
  assert_int_equal(tui_level_color(-24, 1, TUI_COLOR_256), 27);
}

static void key_scripts(void **state) {
  (void)state;
  tui_event *ev;
  size_t n;
  char err[128];
  assert_int_equal(tui_parse_keys("j<Down><S-Tab><lt><resize 80x24><click 3,4><dump>\n<reload>",
                                  &ev, &n, err, sizeof err),
                   0);
  assert_int_equal(n, 9);
  assert_int_equal(ev[0].key, 'j');
  assert_int_equal(ev[1].key, TUI_KEY_DOWN);
  assert_int_equal(ev[2].key, TUI_KEY_BTAB);
  assert_int_equal(ev[3].key, '<');
  assert_int_equal(ev[4].type, TUI_EV_RESIZE);
  assert_int_equal(ev[4].x, 80);
  assert_int_equal(ev[4].y, 24);
  assert_int_equal(ev[5].type, TUI_EV_CLICK);
  assert_int_equal(ev[5].x, 3);
  assert_int_equal(ev[5].y, 4);
  assert_int_equal(ev[6].type, TUI_EV_DUMP);
  assert_int_equal(ev[7].key, TUI_KEY_ENTER);
  assert_int_equal(ev[8].type, TUI_EV_RELOAD);
  free(ev);
  assert_int_equal(tui_parse_keys("jj<Bogus>", &ev, &n, err, sizeof err), -1);
  assert_string_equal(err, "offset 2: unknown key token starting '<Bogus>'");
  assert_null(ev);
  assert_int_equal(tui_parse_keys("<resize 80>", &ev, &n, err, sizeof err), -1);
  assert_int_equal(tui_parse_keys("<Down", &ev, &n, err, sizeof err), -1);
  char buf[8];
  assert_string_equal(tui_key_name(TUI_KEY_PGDN, buf, sizeof buf), "PgDn");
  assert_string_equal(tui_key_name(' ', buf, sizeof buf), "Space");
  assert_string_equal(tui_key_name(3, buf, sizeof buf), "C-c");
}

/* What tui_vs_print shows of vs (freed by the caller). */
static char *printed(const tui_vscreen *vs) {
  char *out = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&out, &len);
  tui_vs_print(vs, mem);
  fclose(mem);
  return out;
}

/* A name cut in the middle keeps its end: two loops of one file, two
   properties named alike up to their last words, stay apart. */
static void long_names_keep_their_distinguishing_end(void **state) {
  (void)state;
  tui_vscreen vs = {0};
  tui_vs_resize(&vs, 10, 4);
  tui_style st = {0, 0, 0, 0};
  assert_int_equal(tui_vs_put_middle(&vs, 0, 0, 10, "loop @heat.c:118", st, "…"), 10);
  assert_int_equal(tui_vs_put_middle(&vs, 0, 1, 10, "loop @heat.c:123", st, "…"), 10);
  assert_int_equal(tui_vs_put_middle(&vs, 0, 2, 7, "漢字漢字ab", st, "…"), 7);
  assert_int_equal(tui_vs_put_middle(&vs, 0, 3, 10, "MPI_Recv", st, "…"), 8);
  char *out = printed(&vs);
  assert_string_equal(out, "loop …:118\nloop …:123\n漢…字ab\nMPI_Recv\n");
  free(out);
  tui_vs_free(&vs);
}

static void vscreen_text(void **state) {
  (void)state;
  tui_vscreen vs = {0};
  tui_vs_resize(&vs, 10, 2);
  tui_style st = {0, 0, 0, 0};
  assert_int_equal(tui_vs_put_clipped(&vs, 0, 0, 6, "MPI_Allreduce", st, "…"), 6);
  assert_int_equal(tui_vs_put(&vs, 0, 1, 10, "a\x01\xff漢z", st), 6);
  char *out = printed(&vs);
  assert_string_equal(out, "MPI_A…\na??漢z\n");
  assert_int_equal(tui_text_width("漢字ab"), 6);
  free(out);
  tui_vs_free(&vs);
}

/* Wrapping for the pages: at spaces (dropped), else after ';' or '/'
   (kept), else a hard cut that never splits a character; a hanging first
   line; an empty text is one line of its lead. */
static void overlay_wrapping(void **state) {
  (void)state;
  assert_int_equal(tui_text_fit("漢字ab", 3), 3); /* 漢 only: 字 would need column 4 */
  assert_int_equal(tui_text_fit("漢字ab", 5), 7); /* 漢字a */
  assert_int_equal(tui_text_fit("漢", 1), 3);     /* one character at least */
  assert_int_equal(tui_text_fit("", 4), 0);
  tui_overlay o = {0};
  tui_overlay_add_hanging(&o, "Run  ", "     ", "rank 1 called MPI_Abort(MPI_COMM_WORLD, 3)", 18);
  tui_overlay_add_wrapped(&o, "  ", "main;solve;MPI_Recv /a/b/c.c", 14);
  tui_overlay_add_wrapped(&o, "", "/a/bcdefghijklmnop", 12);
  tui_overlay_add_wrapped(&o, "", "漢字漢字漢字漢字漢字漢字", 11);
  tui_overlay_add_hanging(&o, "key  ", "     ", "", 20);
  static const char *const want[] = {"Run  rank 1 called",
                                     "     MPI_Abort(MPI",
                                     "     _COMM_WORLD,",
                                     "     3)",
                                     "  main;solve;",
                                     "  MPI_Recv",
                                     "  /a/b/c.c",
                                     "/a/bcdefghij",
                                     "klmnop",
                                     "漢字漢字漢",
                                     "字漢字漢字",
                                     "漢字",
                                     "key  "};
  /* "MPI_Abort(MPI_COMM_WORLD," has no break within 13 columns: a hard
     cut; a space wins over a '/'; a '/' in the first half of the line is
     no break; 11 columns hold five wide characters, not five and a half. */
  assert_int_equal(o.nlines, sizeof want / sizeof want[0]);
  for (size_t i = 0; i < o.nlines; i++) assert_string_equal(o.lines[i], want[i]);
  tui_overlay_clear(&o);
}

static tui_app *small_app(int w, int h) {
  tui_app *a = malloc(sizeof *a);
  tui_options o;
  tui_options_default(&o);
  o.at_top = 1; /* the trees from the top, as these tests assume */
  tui_app_init(a, tui_fixture("small"), "small.pomp", &o);
  tui_app_resize(a, w, h);
  return a;
}

static void run_keys(tui_app *a, const char *keys) {
  tui_event *ev;
  size_t n;
  char err[128];
  assert_int_equal(tui_parse_keys(keys, &ev, &n, err, sizeof err), 0);
  for (size_t i = 0; i < n; i++) tui_app_event(a, &ev[i]);
  free(ev);
  tui_app_render(a);
}

static void free_app(tui_app *a) {
  tui_app_free(a);
  free(a);
}

/* Values of the call tree for Late Sender: 8 s, all at main;solve;MPI_Recv. */
static void weighting_values(void **state) {
  (void)state;
  tui_app *a = small_app(160, 14);
  run_keys(a, "E<Down><Down><Down><Down>");
  const tui_tree *ct = &a->model.tree[TUI_PANE_CALL];
  static const double incl[] = {8, 0, 8, 8, 0}, excl[] = {0, 0, 0, 8, 0};
  for (int i = 0; i < 5; i++) {
    assert_true(ct->incl[i] == incl[i]);
    assert_true(ct->excl[i] == excl[i]);
  }
  /* Selecting MPI (expanded: exclusive) re-weights by MPI's own 8 s. */
  run_keys(a, "<Up>");
  assert_int_equal(a->model.call_metric, 3);
  assert_int_equal(a->model.call_metric_incl, 0);
  assert_true(ct->incl[0] == 8 && ct->incl[4] == 6);
  free_app(a);
}

/* What the text screens cannot show: the selection bar, the hardware
   cursor, weight levels and quiet zeros. */
static void attributes(void **state) {
  (void)state;
  tui_app *a = small_app(160, 14);
  run_keys(a, "E<Down><Down><Tab>");
  tui_vscreen *vs = &a->vs;
  /* Focused pane (calls): row 0 reversed across the pane, cursor on it. */
  int cx = a->pane_x[TUI_PANE_CALL];
  assert_int_equal(vs->cursor_y, 2);
  assert_int_equal(vs->cursor_x, cx);
  for (int x = cx; x < cx + a->pane_w[TUI_PANE_CALL]; x++)
    assert_true(tui_vs_at(vs, x, 2)->st.attr & TUI_A_REVERSE);
  /* Property pane: Computation (row 2) underlined, not reversed. */
  assert_true(tui_vs_at(vs, 5, 4)->st.attr & TUI_A_UNDERLINE);
  assert_false(tui_vs_at(vs, 5, 4)->st.attr & TUI_A_REVERSE);
  /* Computation's icon (after "│├─ ") is level 14 of 24 (58 %). */
  assert_int_equal(tui_vs_at(vs, 4, 4)->st.level, 14);
  /* Time expanded: exclusive 0 -> no icon, dim value. */
  assert_int_equal(tui_vs_at(vs, 2, 2)->st.level, 0);
  assert_true(tui_vs_at(vs, 10, 2)->st.attr & TUI_A_DIM);
  free_app(a);
}

/* The warning line of an incomplete run: bold and reversed (visible in
   monochrome), in the error colour; a complete run has none. */
static void run_warning_line(void **state) {
  (void)state;
  tui_options o;
  tui_options_default(&o);
  o.at_top = 1; /* the trees from the top, as these tests assume */
  tui_app a;
  tui_app_init(&a, tui_fixture("incomplete"), "i.pomp", &o);
  tui_app_resize(&a, 160, 12);
  tui_app_render(&a);
  assert_int_equal(a.warning_y, 1);
  assert_int_equal(a.rows_y, 3);
  for (int x = 0; x < 160; x++) {
    tui_style st = tui_vs_at(&a.vs, x, 1)->st;
    assert_int_equal(st.attr, TUI_A_BOLD | TUI_A_REVERSE);
    assert_int_equal(st.color, TUI_C_ERROR);
  }
  tui_app_free(&a);
  tui_app *s = small_app(160, 12);
  assert_null(s->incomplete);
  assert_int_equal(s->warning_y, -1);
  assert_int_equal(s->rows_y, 2);
  free_app(s);
}

static void search_marks_matches(void **state) {
  (void)state;
  tui_app *a = small_app(160, 14);
  run_keys(a, "/^MPI<Enter>");
  /* Hits: property MPI, Late Sender (its name is mpi_latesender), calls
     MPI_Recv and MPI_Send; the first is MPI. */
  assert_int_equal(a->search.nhits, 4);
  assert_int_equal(a->focus, TUI_PANE_METRIC);
  assert_int_equal(tui_pane_selected_node(&a->pane[0]), 3);
  assert_int_equal(tui_vs_at(&a->vs, 14, 5)->st.color, TUI_C_MATCH); /* "│└▾ ▁    8.00 MPI" */
  assert_int_equal(tui_vs_at(&a->vs, 14, 4)->st.color, TUI_C_DEFAULT);
  run_keys(a, "nn");
  assert_int_equal(a->focus, TUI_PANE_CALL);
  assert_int_equal(tui_pane_selected_node(&a->pane[1]), 3);
  run_keys(a, "N<Esc>/<Enter>");
  assert_int_equal(a->search.nhits, 0);
  /* Patterns that would make the regex library explode are refused. */
  run_keys(a, "/a+++++<Enter>");
  assert_string_equal(a->message, "bad pattern 'a+++++': at most four '+'");
  run_keys(a, "/(a{9}){9}<Enter>");
  assert_string_equal(a->message, "bad pattern '(a{9}){9}': no {m,n} repetition");
  run_keys(a, "/(a)\\1<Enter>");
  assert_string_equal(a->message, "bad pattern '(a)\\1': no back-references");
  run_keys(a, "/MPI\\+<Enter>"); /* an escaped + is a character */
  assert_int_equal(a->search.nhits, 0);
  assert_string_equal(a->message, "no match for 'MPI\\+'");
  free_app(a);
}

/* Text of n cells of row y from x, as UTF-8 (the glyphs used are BMP). */
static void row_text(const tui_vscreen *vs, int x, int y, int n, char *buf) {
  char *o = buf;
  for (int i = x; i < x + n && i < vs->w; i++) {
    uint32_t c = vs->cells[(size_t)y * (size_t)vs->w + (size_t)i].ch;
    if (c < 0x80) *o++ = (char)c;
    else if (c < 0x800) *o++ = (char)(0xC0 | (c >> 6)), *o++ = (char)(0x80 | (c & 0x3F));
    else
      *o++ = (char)(0xE0 | (c >> 12)), *o++ = (char)(0x80 | ((c >> 6) & 0x3F)),
      *o++ = (char)(0x80 | (c & 0x3F));
  }
  *o = 0;
}

/* With a time budget the location sums run in slices: the pane says how
   far it got and shows no stale values, then fills in.  The lone root's
   value, the selection's total, comes from the row sums at once. */
static void location_values_in_slices(void **state) {
  (void)state;
  tui_app *a = small_app(160, 14);
  a->opt.budget = 1e-12; /* stops after the first of the 8 rows */
  tui_app_render(a);
  assert_true(tui_app_busy(a));
  assert_int_equal(a->model.job.done, 1);
  assert_int_equal(a->model.job.total, 8);
  char text[512];
  int x = a->pane_x[TUI_PANE_SYSTEM];
  row_text(&a->vs, x, 1, 36, text);
  assert_string_equal(text, "Locations [% of total] computing 12%");
  row_text(&a->vs, x, 2, 20, text);
  assert_string_equal(text, "▸ █  100.00 cluster ");
  run_keys(a, "3E"); /* expanded: exclusive, and the nodes below wait */
  for (int y = 2; y < 5; y++) {
    static const char *const want[] = {"▾         … cluster ", "└▾         … node0  ",
                                       " ├▾         … rank 0"};
    row_text(&a->vs, x, y, 20, text);
    assert_string_equal(text, want[y - 2]);
  }
  assert_int_equal(tui_app_work(a, 0), 1);
  tui_app_render(a);
  assert_false(tui_app_busy(a));
  row_text(&a->vs, x, 5, 23, text);
  assert_string_equal(text, " │├─ ▃   29.50 thread 0");
  free_app(a);
}

/* While the sums run, summary and "... N more" rows show no figures. */
static void summary_rows_wait_for_sums(void **state) {
  (void)state;
  tui_options o;
  tui_options_default(&o);
  o.at_top = 1; /* the trees from the top, as these tests assume */
  o.top_k = 1;  /* each rank: a summary row, its top thread, "... 1 more" */
  o.budget = 1e-12;
  tui_app a;
  tui_app_init(&a, tui_fixture("small"), "small.pomp", &o);
  tui_app_resize(&a, 160, 14);
  run_keys(&a, "3E");
  assert_true(tui_app_busy(&a));
  char text[512];
  int x = a.pane_x[TUI_PANE_SYSTEM];
  /* rank 0's top thread is the first of equals until the values are in */
  static const char *const busy[] = {"▾         … cluster",       "└▾         … node0",
                                     " ├≡ min …  mean …  max …",  " ├▾         … rank 0",
                                     " │├≡ min …  mean …  max …", " │├─         … thread 0",
                                     " │└▸         … … 1 more",   " └▸         … … 1 more"};
  for (int y = 2; y < 10; y++) {
    row_text(&a.vs, x, y, tui_text_width(busy[y - 2]), text);
    assert_string_equal(text, busy[y - 2]);
  }
  assert_int_equal(tui_app_work(&a, 0), 1);
  tui_app_render(&a);
  static const char *const done[] = {
      " ├≡ min 40.00  mean 50.00  max 60.00  imbalance 17%", " ├▾         - rank 0",
      " │├≡ min 29.50  mean 30.00  max 30.50  imbalance 2%", " │├─ ▃   30.50 thread 1"};
  for (int y = 4; y < 8; y++) {
    row_text(&a.vs, x, y, tui_text_width(done[y - 4]), text);
    assert_string_equal(text, done[y - 4]);
  }
  tui_app_free(&a);
}

/* Going back to a selection reuses its location values: no rows summed. */
static void location_values_cached(void **state) {
  (void)state;
  tui_app *a = small_app(160, 14);
  tui_app_render(a); /* Time incl @ main incl: 6 metrics x 5 call paths */
  assert_int_equal(a->model.ncache, 1);
  run_keys(a, "<Tab><Right>"); /* main excl (each run_keys draws a frame) */
  run_keys(a, "<Down>");       /* solve incl */
  assert_int_equal(a->model.ncache, 3);
  const tui_tree *st = &a->model.tree[TUI_PANE_SYSTEM];
  assert_true(st->incl[0] == 64); /* solve: 42 + 6 + 10 + 6 */
  pomp_report_selection root = {0, 1, 0, 1};
  assert_int_equal(tui_model_weigh_locations(&a->model, &root), 1);
  assert_int_equal(a->model.job.total, 0); /* nothing to sum */
  assert_int_equal(tui_model_work(&a->model, 0), 1);
  assert_true(st->incl[0] == 100);
  assert_true(a->model.per_location[0] == 29.5 && a->model.per_location[3] == 24.5);
  free_app(a);
}

/* The sliced location sums equal the report library's own, on a synthetic
   report, for inclusive and exclusive selections all over both trees. */
static void location_values_match_library(void **state) {
  (void)state;
  char path[] = "/tmp/tui-synth-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  pomp_report_synth p = {300, 48, 4, 25, 0.2, 7};
  pomp_report_error err = {0};
  assert_int_equal(pomp_report_generate(&p, path, &err), POMP_REPORT_OK);
  pomp_report *r = pomp_report_open(path, &err);
  assert_non_null(r);
  tui_model m;
  tui_model_init(&m, r);
  int32_t nloc = pomp_report_num_locations(r);
  double *want = malloc(sizeof *want * (size_t)nloc);
  int checked = 0;
  for (int32_t metric = 0; metric < pomp_report_num_metrics(r); metric += 3)
    for (int32_t cnode = 0; cnode < pomp_report_num_cnodes(r); cnode += 37)
      for (int incl = 0; incl < 4; incl++) {
        pomp_report_selection s = {metric, incl & 1, cnode, incl >> 1};
        assert_int_equal(pomp_report_location_values(r, &s, want, &err), POMP_REPORT_OK);
        assert_int_equal(tui_model_weigh_locations(&m, &s), 1);
        while (m.job.active) tui_model_work(&m, 1e-9); /* in slices of 16 rows */
        for (int32_t l = 0; l < nloc; l++)
          assert_true(fabs(m.per_location[l] - want[l]) <= 1e-9 * (1 + fabs(want[l])));
        checked++;
      }
  assert_true(checked > 100);
  free(want);
  tui_model_free(&m);
  unlink(path);
}

/* A region file that is a device or a named pipe is refused without being
   opened (reading it would never end, opening a pipe would block). */
static void source_view_refuses_special_files(void **state) {
  (void)state;
  char fifo[] = "/tmp/tui-fifo-XXXXXX";
  int fd = mkstemp(fifo);
  assert_true(fd >= 0);
  close(fd);
  unlink(fifo);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  const char *files[] = {"/dev/zero", fifo};
  for (int i = 0; i < 2; i++) {
    pomp_report *r = pomp_report_new();
    int32_t m = pomp_report_add_metric(r, "time", "Time", POMP_UNIT_SEC, "", -1);
    int32_t c = pomp_report_add_cnode(
        r, pomp_report_add_region(r, "f", files[i], 1, 2, "user", "function"), -1);
    int32_t node = pomp_report_add_sysnode(r, POMP_SYS_MACHINE, "m", -1, -1, -1);
    node = pomp_report_add_sysnode(r, POMP_SYS_NODE, "n", node, -1, -1);
    node = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, "p", node, 0, -1);
    pomp_report_add_sysnode(r, POMP_SYS_THREAD, "t", node, 0, 0);
    pomp_report_add_value(r, m, c, 0, 1.0);
    tui_options o;
    tui_options_default(&o);
    o.at_top = 1; /* the trees from the top, as these tests assume */
    tui_app a;
    tui_app_init(&a, r, "x.pomp", &o);
    run_keys(&a, "v");
    char want[128];
    snprintf(want, sizeof want, "%s: not a regular source file of at most 64 MiB", files[i]);
    assert_string_equal(a.message, want);
    assert_int_equal(a.overlay.kind, TUI_OVERLAY_NONE);
    tui_app_free(&a);
  }
  unlink(fifo);
}

/* Moving over summary and "more" rows: Left goes to the parent, Right
   opens the more row, Home/End/PgUp stop at the ends. */
static void navigation_over_special_rows(void **state) {
  (void)state;
  tui_options o;
  tui_options_default(&o);
  o.at_top = 1; /* the trees from the top, as these tests assume */
  o.top_k = 3;
  tui_app a;
  tui_app_init(&a, tui_fixture("wide"), "wide.pomp", &o);
  tui_app_resize(&a, 80, 14);
  const tui_pane *p = &a.pane[TUI_PANE_SYSTEM];
  run_keys(&a, "3E<Home><Down><Down><Down>"); /* cluster, node0, rank 0, summary */
  assert_int_equal(p->sel.kind, TUI_ROW_SUMMARY);
  assert_int_equal(p->sel.node, 2);
  run_keys(&a, "<Left>");
  assert_int_equal(p->sel.kind, TUI_ROW_NODE);
  assert_int_equal(p->sel.node, 2);
  run_keys(&a, "<End>");
  assert_int_equal(p->sel.kind, TUI_ROW_MORE);
  assert_int_equal(p->nrows, 8);
  run_keys(&a, "<Right>");
  assert_int_equal(p->nrows, 16); /* 3 + summary + 12 threads, no more row */
  assert_int_equal(p->sel.kind, TUI_ROW_NODE);
  run_keys(&a, "<PgUp><PgUp><PgUp><Up>");
  assert_int_equal(p->cur, 0);
  run_keys(&a, "<End><Down>");
  assert_int_equal(p->cur, 15);
  tui_app_free(&a);
}

static void base64(void **state) {
  (void)state;
  char out[32];
  assert_int_equal(tui_base64("main", 4, out), 8);
  assert_string_equal(out, "bWFpbg==");
  assert_int_equal(tui_base64("MPI", 3, out), 4);
  assert_string_equal(out, "TVBJ");
  assert_int_equal(tui_base64("", 0, out), 0);
  assert_string_equal(out, "");
}

static void yank_copies_selection(void **state) {
  (void)state;
  tui_app *a = small_app(100, 8);
  run_keys(a, "<Tab>xy");
  assert_true(a->clipboard_pending);
  assert_string_equal(a->clipboard, "main;solve;MPI_Recv  incl 10.00 [% of total]");
  free_app(a);
}

static void quit_key(void **state) {
  (void)state;
  tui_app *a = small_app(80, 24);
  run_keys(a, "?q");
  assert_false(a->quit); /* q closes the help first */
  run_keys(a, "q");
  assert_true(a->quit);
  free_app(a);
}

/* The jump out of the SIGBUS handler abandons what the interrupted code
   had allocated (pomp-tui exits right after): the sanitizer build's leak
   checker looks past allocations made under the test below only. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:report_truncated_while_open\n"; }

/* A report truncated on disk while open (cp over it): the next read of its
   mapping raises SIGBUS; batch mode stops with the file named (the
   report.pomp of the experiment directory given) and exit 1, and prints
   no screen. */
static void report_truncated_while_open(void **state) {
  (void)state;
  char dir[] = "/tmp/tui-live-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char file[64];
  snprintf(file, sizeof file, "%s/report.pomp", dir);
  pomp_report *fixture = tui_fixture("small");
  pomp_report_error err;
  assert_int_equal(pomp_report_write(fixture, file, &err), POMP_REPORT_OK);
  pomp_report_free(fixture);
  pomp_report *r = pomp_report_open(dir, &err);
  assert_non_null(r);
  tui_options o;
  tui_options_default(&o);
  o.at_top = 1; /* the trees from the top, as these tests assume */
  tui_app a;
  tui_app_init(&a, r, dir, &o);
  assert_int_equal(truncate(file, 0), 0);
  tui_event *ev;
  size_t n;
  char perr[128];
  /* New selections: rows not decoded before the truncation are read. */
  const char *keys = "E<Down><Down><Down><Down><Tab>E<End><Up><Up><Tab>E";
  assert_int_equal(tui_parse_keys(keys, &ev, &n, perr, sizeof perr), 0);
  char *out = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&out, &len);
  assert_int_equal(tui_run_batch(&a, ev, n, 120, 20, mem), POMP_EXIT_FAILURE);
  fclose(mem);
  assert_int_equal(len, 0);
  char want[128];
  snprintf(want, sizeof want, "%s: changed on disk while open; reopen it", file);
  assert_string_equal(a.message, want);
  free(out);
  free(ev);
  tui_app_free(&a);
  unlink(file);
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(percent_format),
      cmocka_unit_test(absolute_format),
      cmocka_unit_test(spectrum_levels),
      cmocka_unit_test(key_scripts),
      cmocka_unit_test(vscreen_text),
      cmocka_unit_test(long_names_keep_their_distinguishing_end),
      cmocka_unit_test(weighting_values),
      cmocka_unit_test(attributes),
      cmocka_unit_test(search_marks_matches),
      cmocka_unit_test(run_warning_line),
      cmocka_unit_test(overlay_wrapping),
      cmocka_unit_test(location_values_in_slices),
      cmocka_unit_test(location_values_cached),
      cmocka_unit_test(summary_rows_wait_for_sums),
      cmocka_unit_test(location_values_match_library),
      cmocka_unit_test(source_view_refuses_special_files),
      cmocka_unit_test(navigation_over_special_rows),
      cmocka_unit_test(base64),
      cmocka_unit_test(yank_copies_selection),
      cmocka_unit_test(quit_key),
      cmocka_unit_test(report_truncated_while_open),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
