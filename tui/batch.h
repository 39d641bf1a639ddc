/* batch.h -- batch mode: replay a key script, print the screen as text. */
#ifndef TUI_BATCH_H
#define TUI_BATCH_H

#include <stdio.h>

#include "app.h"

/* Replays events at size w x h; prints the screen at each <dump> and at the
   end (screens separated by a form-feed line).  Stops early on quit.
   Returns an exit code: failure when a value could not be read (a corrupt
   row), after saying so on stderr, so scripts notice. */
int tui_run_batch(tui_app *a, const tui_event *events, size_t n, int w, int h, FILE *out);

#endif
