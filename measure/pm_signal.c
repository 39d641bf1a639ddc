/* pm_signal.c -- SIGINT, SIGTERM, SIGABRT: write the trace before dying.
 *
 * Writing the trace is not async-signal-safe (OTF2 allocates and does
 * stdio), so the handler bounds the risk: it stops recording on every
 * thread, waits for threads in the middle of a record to finish, and
 * arms alarm(10) so that a deadlock (signal taken inside malloc) ends the
 * process instead of hanging it. Then the signal's previous disposition
 * runs (default: the process dies with that signal). An MPI run cannot
 * unify definitions without its peers, so there the log just says so.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "pm_location.h"

static const int handled[] = {SIGINT, SIGTERM, SIGABRT};
static struct sigaction previous[3];

static const char *signal_name(int sig) {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGABRT";
}

/* "signal SIG received: <what>", one line. */
static void say(int sig, const char *what) {
  const char *parts[] = {"signal ", signal_name(sig), " received: ", what};
  pm_log_signal_line(parts, 4);
}

_Atomic int pm_deferred_signal;
static _Atomic int taken; /* one thread writes the trace, once */

static int index_of(int sig) { return sig == SIGINT ? 0 : sig == SIGTERM ? 1 : 2; }

/* Writes the trace (if that can be done here), then lets the signal's
   previous disposition run: by default the process dies of it. */
static void finish_and_die(int sig) {
  if (pm_mpi_active) {
    say(sig, "MPI run, the trace cannot be unified without MPI_Finalize; not written");
  } else if (atomic_load(&pm_state) == PM_RUNNING && pm_run_trylock() == 0) {
    say(sig, "writing the trace of the events so far");
    alarm(10);
    pm_set_state(PM_FINISHED); /* no thread starts a record any more */
    pm_locations_quiesce(2);    /* records in flight finish */
    pm_finish_locked(signal_name(sig));
    pm_run_unlock();
    alarm(0);
    const char *parts[] = {"trace written; the program dies of ", signal_name(sig)};
    pm_log_signal_line(parts, 2);
  } else {
    say(sig, "measurement not running or busy; trace not written");
  }
  sigaction(sig, &previous[index_of(sig)], NULL);
  if (previous[index_of(sig)].sa_handler != SIG_IGN) raise(sig);
}

/* A signal that interrupts its own thread in the middle of a record must
   not write the trace under that record's feet: it is handed to the end
   of the record (pm_signal_deferred), which the thread reaches as soon as
   the handler returns. */
static void on_signal(int sig) {
  pm_location *l = pm_tls_location;
  if (l && atomic_load(&l->writing)) {
    int none = 0;
    if (atomic_compare_exchange_strong(&pm_deferred_signal, &none, sig)) return;
  }
  if (atomic_exchange(&taken, 1)) { /* already being handled: just die */
    sigaction(sig, &previous[index_of(sig)], NULL);
    raise(sig);
    return;
  }
  finish_and_die(sig);
}

void pm_signal_deferred(void) {
  int sig = atomic_exchange(&pm_deferred_signal, 0);
  if (sig && !atomic_exchange(&taken, 1)) finish_and_die(sig);
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
