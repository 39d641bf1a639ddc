/* guard.c -- see guard.h. */
#include "guard.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "pomp_util.h"

sigjmp_buf tui_guard_env;
static volatile sig_atomic_t armed;
static struct sigaction previous;

/* SIGBUS is synchronous: it interrupts the instruction that read the
   vanished page, inside pomp-tui's own decoding or drawing code (never
   inside the terminal library, which does not see the report), so
   jumping out of the handler leaves no library half way through. */
static void on_sigbus(int sig) {
  if (armed) {
    armed = 0;
    siglongjmp(tui_guard_env, 1);
  }
  /* Not ours: the default action, when the access is retried. */
  signal(sig, SIG_DFL);
}

void tui_guard_arm(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigbus;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGBUS, &sa, &previous);
  armed = 1;
}

void tui_guard_disarm(void) {
  armed = 0;
  sigaction(SIGBUS, &previous, NULL);
}

int tui_guard_failed(tui_app *a) {
  tui_guard_disarm();
  /* The file the report library mapped: the path itself, or the
     report.pomp of an experiment directory (pomp_report_open). */
  struct stat st;
  int dir = stat(a->path, &st) == 0 && S_ISDIR(st.st_mode);
  tui_app_message(a, 1, "%s%s: changed on disk while open; reopen it", a->path,
                  dir ? "/report.pomp" : "");
  pu_error("%s", a->message);
  return POMP_EXIT_FAILURE;
}
