/* follow.c -- pomp-tui --follow (follow.h).  A reload builds a new session
   on the new report: the user's place is written down by name first (the
   ids of call paths and locations differ between snapshots: a new call
   path gets a new id), then looked up in the new trees. */
#include "follow.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "pomp_util.h"

/* ---- the files --------------------------------------------------------- */

/* What the experiment holds now: the final report once it exists, else
   the snapshots (one file, or one per MPI rank: merged by the report
   library). */
typedef struct {
  int which; /* 0: report.pomp, 1: snapshots, -1: neither */
  char file[sizeof((tui_follow *)0)->file];
  uint64_t stamp; /* changes when any of its files changes */
  time_t updated; /* the newest file's modification time */
} experiment_files;

static experiment_files look_at_files(const char *dir) {
  experiment_files e = {-1, "", 0, 0};
  struct stat st;
  snprintf(e.file, sizeof e.file, "%s/report.pomp", dir);
  if (stat(e.file, &st) == 0) {
    uint64_t id[5] = {(uint64_t)st.st_dev, (uint64_t)st.st_ino, (uint64_t)st.st_size,
                      (uint64_t)st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec};
    e.stamp = 0;
    for (size_t i = 0; i < 5; i++) e.stamp = (e.stamp ^ id[i]) * 0x100000001b3u;
    e.stamp |= 1;
    e.updated = st.st_mtim.tv_sec;
    e.which = 0;
    return e;
  }
  pomp_report_snapshots snap = pomp_report_snapshots_look(dir);
  if (!snap.files) return e;
  snprintf(e.file, sizeof e.file, "%s/%s", dir, POMP_REPORT_SNAPSHOT);
  if (stat(e.file, &st) != 0) snprintf(e.file, sizeof e.file, "%s/snapshot.*.pomp", dir);
  e.stamp = snap.stamp;
  e.updated = (time_t)snap.newest_mtime;
  e.which = 1;
  return e;
}

/* "snapshot of 3.0 s, updated 12:00:03" or "run finished, updated ...":
   the snapshot's own time (attribute snapshot_seconds, libpomp), in an
   MPI run how many ranks' snapshots it merges, and the newest file's
   local modification time. */
static void describe_state(tui_follow *f, const pomp_report *r) {
  char updated[16] = "?", ranks[64] = "";
  struct tm tm;
  time_t t = f->updated;
  if (localtime_r(&t, &tm)) strftime(updated, sizeof updated, "%H:%M:%S", &tm);
  const char *seconds = pomp_report_attr(r, "snapshot_seconds");
  const char *merged = pomp_report_attr(r, "snapshot_ranks");
  if (merged) snprintf(ranks, sizeof ranks, " (%s)", merged);
  if (f->finished) snprintf(f->state, sizeof f->state, "run finished, updated %s", updated);
  else
    snprintf(f->state, sizeof f->state, "snapshot of %s s%s, updated %s", seconds ? seconds : "?",
             ranks, updated);
}

/* The newest file(s) read into a report, *f describing it; NULL when none
   can be read. */
static pomp_report *read_newest(tui_follow *f, pomp_report_error *err) {
  experiment_files e = look_at_files(f->dir);
  if (e.which < 0) {
    snprintf(err->message, sizeof err->message,
             "%s: no snapshot.pomp or report.pomp (run with POMP_MODE=profile POMP_SNAPSHOT=1)",
             f->dir);
    return NULL;
  }
  pomp_report *r =
      e.which == 0 ? pomp_report_open(e.file, err) : pomp_report_open_snapshots(f->dir, err);
  if (!r) return NULL;
  memcpy(f->file, e.file, sizeof e.file);
  f->stamp = e.stamp;
  f->updated = e.updated;
  f->finished = e.which == 0;
  describe_state(f, r);
  return r;
}

pomp_report *tui_follow_open(tui_follow *f, const char *dir, pomp_report_error *err) {
  memset(f, 0, sizeof *f);
  f->dir = pu_strdup(dir);
  f->last_look = tui_clock();
  return read_newest(f, err);
}

void tui_follow_free(tui_follow *f) {
  free(f->dir);
  f->dir = NULL;
}

/* ---- the user's place, by name ----------------------------------------- */

typedef struct {
  char **expanded; /* full names, sorted */
  size_t nexpanded;
  char *selected; /* full name of the selected node, NULL when none */
  tui_mode mode;
  tui_sort sort;
} pane_place;

typedef struct {
  pane_place pane[TUI_NPANES];
  int focus;
  tui_overlay_kind overlay;
} place;

static int by_name(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

static char *full_name(const tui_app *a, int p, int32_t node) {
  char buf[2048];
  tui_app_full_name(a, p, node, buf, sizeof buf);
  return pu_strdup(buf);
}

static void write_down(tui_app *a, place *pl) {
  pl->focus = a->focus;
  pl->overlay = a->overlay.kind;
  for (int p = 0; p < TUI_NPANES; p++) {
    tui_app_ready(a, p);
    const tui_pane *pn = &a->pane[p];
    pane_place *pp = &pl->pane[p];
    *pp = (pane_place){NULL, 0, NULL, pn->mode, pn->sort};
    for (int32_t i = 0; i < pn->tree->n; i++)
      if (pn->expanded[i]) {
        pp->expanded = pu_realloc(pp->expanded, (pp->nexpanded + 1) * sizeof *pp->expanded);
        pp->expanded[pp->nexpanded++] = full_name(a, p, i);
      }
    if (pp->nexpanded) qsort(pp->expanded, pp->nexpanded, sizeof *pp->expanded, by_name);
    int32_t sel = tui_pane_selected_node(pn);
    if (sel >= 0) pp->selected = full_name(a, p, sel);
  }
}

/* The place in the new session: nodes of the same name expanded and
   selected (one that vanished leaves the pane at its start). */
static void restore(tui_app *a, place *pl) {
  for (int p = 0; p < TUI_NPANES; p++) {
    tui_pane *pn = &a->pane[p];
    pane_place *pp = &pl->pane[p];
    pn->mode = pp->mode;
    pn->sort = pp->sort;
    int32_t selected = -1;
    for (int32_t i = 0; i < pn->tree->n; i++) {
      char *name = full_name(a, p, i);
      if (pp->nexpanded &&
          bsearch(&name, pp->expanded, pp->nexpanded, sizeof *pp->expanded, by_name))
        pn->expanded[i] = 1;
      if (pp->selected && selected < 0 && strcmp(name, pp->selected) == 0) selected = i;
      free(name);
    }
    pn->stale = 1;
    tui_app_ready(a, p); /* the left panes weigh this one */
    if (selected >= 0) tui_pane_reveal(pn, selected);
    for (size_t k = 0; k < pp->nexpanded; k++) free(pp->expanded[k]);
    free(pp->expanded);
    free(pp->selected);
  }
  a->focus = pl->focus;
}

/* ---- a reload ----------------------------------------------------------- */

/* A new session on r, in a's place. */
static void rebuild(tui_app *a, pomp_report *r) {
  place pl;
  write_down(a, &pl);
  tui_follow *f = a->follow;
  tui_options o = a->opt;
  int w = a->w, h = a->h;
  a->follow = NULL;
  tui_app_free(a);
  o.at_top = 1; /* the user's place, not the first screen's */
  tui_app_init(a, r, f->file, &o);
  a->opt.at_top = o.at_top;
  a->follow = f;
  tui_app_resize(a, w, h);
  restore(a, &pl);
  if (pl.overlay == TUI_OVERLAY_BOTTLENECKS) tui_open_bottlenecks(a);
}

int tui_follow_look(tui_app *a) {
  tui_follow *f = a->follow;
  if (!f || a->prompt) return 0; /* a pattern being typed: the next look */
  f->last_look = tui_clock();
  experiment_files e = look_at_files(f->dir);
  if (e.which < 0 || (strcmp(e.file, f->file) == 0 && e.stamp == f->stamp)) return 0;
  pomp_report_error err = {0};
  pomp_report *r = read_newest(f, &err);
  if (!r) { /* a file in the way of being replaced: the next look reads it */
    tui_app_message(a, 1, "following: %s; keeping the last one", err.message);
    return 1;
  }
  f->reloads++;
  rebuild(a, r);
  tui_follow_announce(a);
  return 1;
}

void tui_follow_announce(tui_app *a) {
  char top[1024];
  if (tui_bottleneck_summary(a, top, sizeof top))
    tui_app_message(a, 0, "following: %s; top bottleneck: %s", a->follow->state, top);
  else tui_app_message(a, 0, "following: %s; no bottleneck above its threshold", a->follow->state);
}
