/*
 * guard.h -- a report that changes on disk while it is open.  The report
 * is mapped into memory (report_open.c); when its file is truncated or
 * rewritten in place (cp over it, rsync --inplace), reading a page past
 * the new end raises SIGBUS.  The front ends run the session under a
 * guard: the signal brings control back to them, they restore the
 * terminal and say which file changed, and pomp-tui exits with 1.
 * (pomp-analyze and pomp-report replace reports by rename, which is safe:
 * the old file stays mapped.)
 *
 *   if (sigsetjmp(tui_guard_env, 1)) return tui_guard_failed(a);
 *   tui_guard_arm();
 *   ... events and drawing ...
 *   tui_guard_disarm();
 */
#ifndef TUI_GUARD_H
#define TUI_GUARD_H

#include <setjmp.h>

struct tui_app;

extern sigjmp_buf tui_guard_env;

/* From now on a SIGBUS returns to sigsetjmp(tui_guard_env) with 1. */
void tui_guard_arm(void);
/* Puts the previous SIGBUS handler back. */
void tui_guard_disarm(void);
/* After the jump: disarms, sets the app's message to "FILE: changed on
   disk while open; reopen it", prints it on stderr; returns the exit
   code (failure).  The app's state may be half updated: free it, never
   draw it again. */
int tui_guard_failed(struct tui_app *a);

#endif
