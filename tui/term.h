/* term.h -- the interactive ncurses front end (see term.c). */
#ifndef TUI_TERM_H
#define TUI_TERM_H

#include "app.h"

/* Runs the session on the terminal until the user quits; returns an exit
   code.  mono: no colours even where the terminal has them. */
int tui_run_terminal(tui_app *a, int mono);

#endif
