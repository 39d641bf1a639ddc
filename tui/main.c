/* main.c -- pomp-tui's command line: options, opening the report (before
   the terminal is touched, so errors never garble it), then the terminal
   or batch front end. */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"
#include "batch.h"
#include "follow.h"
#include "pomp_opt.h"
#include "pomp_rerun.h"
#include "pomp_util.h"
#include "term.h"

static const char summary[] = "Browse a pomp report: property, call and location trees, linked.\n"
                              "Press ? inside for the keys.\n";

/* "WxH" into int[2]. */
static int parse_size(const char *s, void *target, char *why, size_t size) {
  int *wh = target;
  char *end;
  long x = strtol(s, &end, 10), y = 0;
  if (end != s && *end == 'x') {
    const char *t = end + 1;
    y = strtol(t, &end, 10);
    if (end == t) y = 0;
  }
  if (*end || x < 1 || y < 1 || x > 10000 || y > 10000) {
    snprintf(why, size, "'%s' is not WxH (1 to 10000 each)", s);
    return -1;
  }
  wh[0] = (int)x;
  wh[1] = (int)y;
  return 0;
}

typedef struct {
  tui_options opt;
  int batch, mono, size[2], follow;
  const char *keys, *path;
} tui_cli;

/* The command line into c; a bad one ends the program (pomp_opt.h). */
static void parse(int argc, char **argv, tui_cli *c) {
  long long top = c->opt.top_k;
  const pu_option options[] = {
      {"batch", 0, NULL, "no terminal: replay --keys, print the screen, exit",
       PU_FLAG(&c->batch, 1)},
      {"keys", 0, "SCRIPT",
       "keys to replay in batch mode (\"jj<Enter>\", "
       "<Down>, <dump>)",
       PU_STRING(&c->keys)},
      {"size", 0, "WxH", "batch screen size (default 160x48)", PU_CALL(parse_size, c->size)},
      {"follow", 0, NULL,
       "EXPERIMENT_DIR of a running program (POMP_MODE=profile POMP_SNAPSHOT=S): show its "
       "snapshots, re-read when they change, then its final report",
       PU_FLAG(&c->follow, 1)},
      {"mono", 0, NULL, "no colours (also when NO_COLOR is set)", PU_FLAG(&c->mono, 1)},
      {"ascii", 0, NULL, "ASCII line drawing and weight glyphs", PU_FLAG(&c->opt.ascii, 1)},
      {"no-mouse", 0, NULL, "leave the mouse to the terminal (text selection)",
       PU_FLAG(&c->opt.mouse, 0)},
      {"at-top", 0, NULL,
       "open at the top of the trees, not on the top bottleneck of the automated search",
       PU_FLAG(&c->opt.at_top, 1)},
      {"top", 0, "N",
       "children of a location node listed, heaviest first, the rest in one "
       "\"... K more\" row (default 10)",
       PU_INT(&top, 1, 1000000)},
      PU_OPT_END};
  const pu_opt_command cmd = {NULL,
                              "EXPERIMENT_DIR|REPORT",
                              1,
                              1,
                              .summary = summary,
                              .options = options,
                              .failure = "failure (unreadable report, no terminal)"};
  pu_opt_parse(&cmd, argc, argv, &c->path);
  c->opt.top_k = (int32_t)top;
  if (c->keys && !c->batch) pu_usage_error(NULL, "option '--keys' needs --batch");
}

/* --follow: the experiment's newest file; in the terminal, a run that has
   not written its first snapshot yet is waited for (a look a second). */
static pomp_report *open_followed(tui_cli *c, tui_follow *f, pomp_report_error *err) {
  struct stat st;
  if (stat(c->path, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(err->message, sizeof err->message, "%s: not an experiment directory", c->path);
    return NULL;
  }
  pomp_report *r = tui_follow_open(f, c->path, err);
  for (int said = 0; !r && !c->batch && strstr(err->message, "no snapshot.pomp"); said = 1) {
    if (!said) pu_error("%s: waiting for the first snapshot (Ctrl-C ends)", c->path);
    sleep(1);
    tui_follow_free(f);
    r = tui_follow_open(f, c->path, err);
  }
  return r;
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  setlocale(LC_ALL, "");
  tui_cli c = {.size = {160, 48}};
  tui_options_default(&c.opt);
  parse(argc, argv, &c);
  tui_event *events = NULL;
  size_t nevents = 0;
  char err[256];
  if (c.keys && tui_parse_keys(c.keys, &events, &nevents, err, sizeof err) != 0)
    pu_usage_error(NULL, "option '--keys': %s", err);
  /* Glyphs follow the locale: UTF-8 line drawing only where it can show. */
  if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0) c.opt.ascii = 1;

  /* The file first: what is wrong with it matters more than where the
     output goes. */
  pomp_report_error rerr = {0};
  tui_follow follow = {0};
  /* on stderr: a --batch screen (stdout) stays the same */
  pu_note_newer_rerun(c.path);
  pomp_report *r = c.follow ? open_followed(&c, &follow, &rerr) : pomp_report_open(c.path, &rerr);
  if (!r && !c.follow && pu_say_not_analysed(c.path)) {
    free(events);
    return POMP_EXIT_FAILURE;
  }
  if (!r) {
    pu_error("%s", rerr.message[0] ? rerr.message : "cannot open report");
    tui_follow_free(&follow);
    free(events);
    return POMP_EXIT_FAILURE;
  }
  if (!c.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
    pu_error("not a terminal; use --batch for scripted output");
    pomp_report_free(r);
    tui_follow_free(&follow);
    free(events);
    return POMP_EXIT_FAILURE;
  }
  tui_app app;
  tui_app_init(&app, r, c.follow ? follow.file : c.path, &c.opt);
  if (c.follow) {
    app.follow = &follow;
    tui_app_resize(&app, app.w, app.h); /* a line for the follow state */
    tui_follow_announce(&app);
  }
  int rc = POMP_EXIT_OK;
  if (c.batch) rc = tui_run_batch(&app, events, nevents, c.size[0], c.size[1], stdout);
  else rc = tui_run_terminal(&app, c.mono);
  tui_app_free(&app);
  tui_follow_free(&follow);
  free(events);
  if (fflush(stdout) != 0) {
    pu_error("cannot write the screen");
    rc = POMP_EXIT_FAILURE;
  }
  return rc;
}
