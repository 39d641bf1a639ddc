/* pm_signal.c -- SIGINT, SIGTERM, SIGABRT: write the trace before dying.
 *
 * Writing the trace is not async-signal-safe (OTF2 allocates and does
 * stdio), so the handler bounds the risk: it stops recording on every
 * thread, gives threads in the middle of a record a moment to finish, and
 * arms alarm(10) so that a deadlock (signal taken inside malloc) ends the
 * process instead of hanging it. Then the signal's previous disposition
 * runs (default: the process dies with that signal). An MPI run cannot
 * unify definitions without its peers, so there the log just says so.
 */
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pm_runtime.h"

static const int handled[] = {SIGINT, SIGTERM, SIGABRT};
static struct sigaction previous[3];
static volatile sig_atomic_t in_handler;

static const char *signal_name(int sig) {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGABRT";
}

static void say(const char *a, const char *b, const char *c) {
  pm_log_raw(a);
  pm_log_raw(b);
  pm_log_raw(c);
}

static void on_signal(int sig) {
  int i = sig == SIGINT ? 0 : sig == SIGTERM ? 1 : 2;
  if (!in_handler) {
    in_handler = 1;
    say("signal ", signal_name(sig), " received: ");
    if (pm_mpi_active) {
      pm_log_raw("MPI run, the trace cannot be unified without MPI_Finalize; not written\n");
    } else if (atomic_load(&pm_state) == PM_RUNNING && pm_run_trylock() == 0) {
      pm_log_raw("writing the trace of the events so far\n");
      alarm(10);
      atomic_store(&pm_recording, 0);
      struct timespec grace = {0, 2000000}; /* records in flight finish */
      nanosleep(&grace, NULL);
      pm_finish_locked(signal_name(sig));
      pm_run_unlock();
      alarm(0);
      say("trace written; the program dies of ", signal_name(sig), "\n");
    } else {
      pm_log_raw("measurement not running or busy; trace not written\n");
    }
  }
  sigaction(sig, &previous[i], NULL);
  if (previous[i].sa_handler != SIG_IGN) raise(sig); /* delivered on return */
}

void pm_signals_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; i++) {
    sigaction(handled[i], NULL, &previous[i]);
    /* keep the program's own handlers and ignored signals */
    if (previous[i].sa_handler == SIG_DFL) sigaction(handled[i], &sa, NULL);
  }
}
