/*
 * follow.h -- pomp-tui --follow EXP: shows the profile snapshots a running
 * program writes (POMP_MODE=profile POMP_SNAPSHOT=SECONDS, libpomp.3) and
 * then its final report, re-reading the file when it changes, keeping the
 * user's place (selections and expanded nodes by name, value modes,
 * sorts, focus, the search view) and re-running the bottleneck search.
 */
#ifndef TUI_FOLLOW_H
#define TUI_FOLLOW_H

#include <stdint.h>
#include <time.h>

#include "app.h"

/* Seconds between two looks at the files in the terminal. */
#define TUI_FOLLOW_PERIOD 1.0

typedef struct tui_follow {
  char *dir;        /* the experiment directory */
  char file[4096];  /* the file shown: report.pomp, else snapshot.pomp, else
                       snapshot.*.pomp (every MPI rank's, merged) */
  uint64_t stamp;   /* of the file(s) when read: changes when one does */
  time_t updated;   /* the newest one's modification time */
  int finished;     /* the final report is shown */
  double last_look; /* tui_clock() of the last look */
  char state[160];  /* "snapshot of 3.0 s, updated 12:00:03" / "run finished, ..." */
  unsigned reloads; /* files read after the first */
} tui_follow;

/* The newest file of experiment directory dir (report.pomp once it
   exists, else the snapshots: snapshot.pomp, or every MPI rank's
   snapshot.<rank>.pomp merged, pomp_report_open_snapshots), opened; NULL with err filled when neither
   can be read (err names the snapshot then). *f is set up for it. */
pomp_report *tui_follow_open(tui_follow *f, const char *dir, pomp_report_error *err);
void tui_follow_free(tui_follow *f);

/* Looks at the files: when the newest one is another file or changed
   since it was read, reads it and rebuilds the session on it, keeping the
   user's place. Returns 1 when the screen changed. A file that cannot be
   read (yet) keeps the old one and says so on the status line. */
int tui_follow_look(tui_app *a);
/* The follow state and the search's top bottleneck on the status line. */
void tui_follow_announce(tui_app *a);

#endif
