/* main.c -- pomp-tui's command line: options, opening the report (before
   the terminal is touched, so errors never garble it), then the terminal
   or batch front end. */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "batch.h"
#include "pomp_util.h"
#include "term.h"

static void usage(FILE *out) {
  fprintf(out,
          "Usage: %s [OPTION]... EXPERIMENT_DIR|REPORT\n"
          "Browse a pomp report: property, call and location trees, linked.\n"
          "\n"
          "  --batch          no terminal: replay --keys, print the screen, exit\n"
          "  --keys SCRIPT    keys to replay in batch mode (\"jj<Enter>\", <Down>, <dump>)\n"
          "  --size WxH       batch screen size (default 160x48)\n"
          "  --mono           no colours (also when NO_COLOR is set)\n"
          "  --ascii          ASCII line drawing and weight glyphs\n"
          "  --no-mouse       leave the mouse to the terminal (text selection)\n"
          "  --top N          location children shown before \"... N more\" (default 10)\n"
          "  --help           this help\n"
          "  --version        version\n"
          "\n"
          "Press ? inside for the keys.  Exit status: 0 ok, 1 failure, 2 usage.\n",
          pu_progname());
}

static _Noreturn void usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "%s: ", pu_progname());
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry '%s --help'.\n", pu_progname());
  exit(POMP_EXIT_USAGE);
}

static void parse_size(const char *s, int *w, int *h) {
  char *end;
  long x = strtol(s, &end, 10);
  if (end == s || *end != 'x') usage_error("--size: expected WxH, got '%s'", s);
  const char *t = end + 1;
  long y = strtol(t, &end, 10);
  if (end == t || *end || x < 1 || y < 1 || x > 10000 || y > 10000)
    usage_error("--size: expected WxH, got '%s'", s);
  *w = (int)x;
  *h = (int)y;
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  setlocale(LC_ALL, "");
  tui_options opt;
  tui_options_default(&opt);
  int batch = 0, mono = 0, w = 160, h = 48;
  const char *keys = NULL, *path = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0) {
      usage(stdout);
      return POMP_EXIT_OK;
    } else if (strcmp(a, "--version") == 0) {
      pu_print_version();
      return POMP_EXIT_OK;
    } else if (strcmp(a, "--batch") == 0) {
      batch = 1;
    } else if (strcmp(a, "--mono") == 0) {
      mono = 1;
    } else if (strcmp(a, "--ascii") == 0) {
      opt.ascii = 1;
    } else if (strcmp(a, "--no-mouse") == 0) {
      opt.mouse = 0;
    } else if (strcmp(a, "--keys") == 0 || strcmp(a, "--size") == 0 || strcmp(a, "--top") == 0) {
      if (!next) usage_error("%s needs an argument", a);
      i++;
      if (a[2] == 'k') {
        keys = next;
      } else if (a[2] == 's') {
        parse_size(next, &w, &h);
      } else {
        char *end;
        long k = strtol(next, &end, 10);
        if (end == next || *end || k < 1 || k > 1000000) usage_error("--top: bad count '%s'", next);
        opt.top_k = (int32_t)k;
      }
    } else if (a[0] == '-' && a[1]) {
      usage_error("unknown option '%s'", a);
    } else if (path) {
      usage_error("one report only (extra '%s')", a);
    } else {
      path = a;
    }
  }
  if (!path) usage_error("%s", "missing EXPERIMENT_DIR or REPORT operand");
  if (keys && !batch) usage_error("%s", "--keys needs --batch");
  tui_event *events = NULL;
  size_t nevents = 0;
  char err[256];
  if (keys && tui_parse_keys(keys, &events, &nevents, err, sizeof err) != 0)
    usage_error("--keys: %s", err);
  /* Glyphs follow the locale: UTF-8 line drawing only where it can show. */
  if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0) opt.ascii = 1;

  /* The file first: what is wrong with it matters more than where the
     output goes. */
  pomp_report_error rerr = {0};
  pomp_report *r = pomp_report_open(path, &rerr);
  if (!r) {
    pu_error("%s", rerr.message[0] ? rerr.message : "cannot open report");
    free(events);
    return POMP_EXIT_FAILURE;
  }
  if (!batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
    pu_error("not a terminal; use --batch for scripted output");
    pomp_report_free(r);
    free(events);
    return POMP_EXIT_FAILURE;
  }
  tui_app app;
  tui_app_init(&app, r, path, &opt);
  int rc = POMP_EXIT_OK;
  if (batch) rc = tui_run_batch(&app, events, nevents, w, h, stdout);
  else rc = tui_run_terminal(&app, mono);
  tui_app_free(&app);
  free(events);
  if (fflush(stdout) != 0) {
    pu_error("cannot write the screen");
    rc = POMP_EXIT_FAILURE;
  }
  return rc;
}
