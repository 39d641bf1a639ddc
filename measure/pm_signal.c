/* pm_signal.c -- fatal signals (SIGINT, SIGTERM, SIGABRT, SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL) and the peer signal (POMP_PEER_SIGNAL, pm_peers.c).
 *
 * A process alone writes its trace, then dies of the signal. An MPI rank
 * cannot unify definitions without its peers: it finishes alone
 * (pm_alone.c: complete fragment), asks its same-node peers for theirs,
 * then dies. A rank that gets the peer signal writes its complete
 * fragment and goes on (mpirun is about to kill it).
 *
 * Writing is not async-signal-safe (OTF2 allocates and does stdio), so
 * the handler bounds the risk: it stops recording on every thread, waits
 * for threads in the middle of a record to finish, and arms alarm() so
 * that a deadlock (signal taken inside malloc) ends the process instead
 * of hanging it. Then the signal's previous disposition runs (default: the
 * process dies with that signal). Handlers are installed only where the
 * program has none of its own.
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pm_location.h"
#include "pm_profile.h"

#define NFATAL 7
static const int fatal[NFATAL] = {SIGINT, SIGTERM, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
static const char *const fatal_names[NFATAL] = {"SIGINT", "SIGTERM", "SIGABRT", "SIGSEGV",
                                                "SIGBUS", "SIGFPE",  "SIGILL"};
static struct sigaction previous[NFATAL + 1]; /* + the peer signal */
static int installed[NFATAL];                 /* ours is (was) in place */
static int peer_signal;                       /* 0 = none */
static _Atomic int peer_sender = -1;          /* rank that sent it (sigqueue) */

static int index_of(int sig) {
  for (int i = 0; i < NFATAL; i++)
    if (fatal[i] == sig) return i;
  return NFATAL;
}

/* What the kernel said with each signal's latest arrival (a fault's
   address and code, a kill's sender), for resend. */
static siginfo_t arrived[NFATAL + 1];

/* Sends sig to this thread again, to end the process (or reach the
   handler we chain to) once its disposition is back: with the siginfo it
   came with, so a library's crash report (UCX's), a debugger or the core
   file sees the faulting address and code, not raise()'s SI_TKILL. A
   process may queue any si_code to its own thread (rt_tgsigqueueinfo). */
static void resend(int sig) {
  siginfo_t info = arrived[index_of(sig)];
  if (info.si_signo == sig && syscall(SYS_rt_tgsigqueueinfo, (long)getpid(),
                                      (long)syscall(SYS_gettid), (long)sig, &info) == 0)
    return;
  raise(sig);
}

static const char *signal_name(int sig) {
  int i = index_of(sig);
  return i < NFATAL ? fatal_names[i] : "POMP_PEER_SIGNAL";
}

/* A fault: re-running the interrupted code faults again, so it is never
   handed to the end of a record. */
static int synchronous(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL;
}

/* "signal SIG received: <what>", one line. */
static void say(int sig, const char *what) {
  const char *parts[] = {"signal ", signal_name(sig), " received: ", what};
  pm_log_signal_line(parts, 4);
}

static _Atomic int taken;         /* one thread handles a signal, once */
static _Atomic int fragment_done; /* this rank's complete fragment is on disk */
static _Atomic int pending_fatal; /* a fatal signal that came while writing */
static _Atomic int dying;         /* die_of() started */

/* Lets sig end the process: its previous disposition back (default: the
   process dies of it) and unblocked on this thread (the handler runs with
   it blocked). From here on a peer's kill() with sig ends this process at
   once, and the kernel records sig as the cause, whatever comes next. */
static void let_kill(int sig) {
  sigaction(sig, &previous[index_of(sig)], NULL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/* The end of a rank (or process) that got a fatal signal and has written
   what it could. An MPI rank first waits for its same-node peers'
   complete fragments: mpirun (hydra) SIGKILLs every rank still alive as
   soon as one dies, and reports the OR of all exit statuses (SIGINT 2 |
   SIGKILL 9 = "signal 11"). On SIGINT and SIGTERM, which mpirun forwards
   to every rank, the ranks therefore end together: whichever sees every
   fragment first sends the others that signal (pm_peers_release), so
   mpirun sees only it, as without pomp. A fault or SIGABRT is one rank's
   own: the others are left to mpirun, as without pomp. */
static void die_of(int sig) {
  atomic_store(&dying, 1);
  let_kill(sig);
  if (pm_mpi_active && atomic_load(&fragment_done)) {
    alarm(10 + 5);
    pm_peers_alert(signal_name(sig));
    if (sig == SIGINT || sig == SIGTERM) pm_peers_release(sig);
  }
  if (previous[index_of(sig)].sa_handler != SIG_IGN) resend(sig);
}

/* An MPI rank: complete fragment; peers asked too unless this is the
   peer signal itself. Called under the run lock (the caller's trylock);
   releases it. Writing a rank's events may take seconds: the fragment
   of the events so far comes first (periodic), so a kill during the
   writing still leaves what reached the disk readable. */
static void rank_alone(int sig) {
  char reason[64];
  if (sig == peer_signal) {
    int r = atomic_load(&peer_sender);
    if (r >= 0) snprintf(reason, sizeof reason, "rank %d on this node ends alone", r);
    else snprintf(reason, sizeof reason, "a rank on this node ends alone");
    say(sig, "a rank on this node ends alone; writing this rank's complete fragment");
  } else {
    snprintf(reason, sizeof reason, "%s", signal_name(sig));
    say(sig, "MPI run: writing this rank's complete fragment");
  }
  alarm(15); /* a deadlock while writing ends the process */
  pm_finish_alone_locked(reason, 2);
  atomic_store(&fragment_done, 1);
  pm_run_unlock();
  alarm(0);
}

/* Writes what can be written here, then (except for the peer signal)
   dies of the signal (die_of). */
static void finish_and_die(int sig) {
  int running = atomic_load(&pm_state) == PM_RUNNING;
  if (running && pm_run_trylock() == 0) {
    if (atomic_load(&pm_state) != PM_RUNNING) {
      pm_run_unlock();
      say(sig, "measurement already finished");
    } else if (pm_mpi_active) {
      rank_alone(sig);
    } else if (sig != peer_signal) {
      say(sig, pm_profiling() ? "writing the profile of the events so far"
                              : "writing the trace of the events so far");
      alarm(10);
      pm_set_state(PM_FINISHED); /* no thread starts a record any more */
      pm_locations_quiesce(2);   /* records in flight finish */
      pm_finish_locked(signal_name(sig));
      pm_run_unlock();
      alarm(0);
      const char *parts[] = {pm_profiling() ? "profile written; the program dies of "
                                            : "trace written; the program dies of ",
                             signal_name(sig)};
      pm_log_signal_line(parts, 2);
    } else {
      pm_run_unlock();
    }
  } else {
    say(sig, "measurement not running or busy; nothing written");
  }
  if (sig == peer_signal && (sig = atomic_exchange(&pending_fatal, 0)))
    pm_alone_dies_of(signal_name(sig));
  if (sig) die_of(sig); /* else the peer goes on */
}

/* A signal while one is handled already. The peer signal: nothing more
   to do. A fault: it cannot wait (re-running the code faults again), the
   process dies of it. SIGINT/SIGTERM while writing (Ctrl-C reaches a rank
   in the middle of its peer-signal fragment, or twice): kept for the end
   of the writing, which must not be cut short. Once written, it ends the
   rank as a first one would. */
static void another_signal(int sig) {
  if (sig == peer_signal) return;
  if (synchronous(sig) || atomic_load(&dying)) {
    let_kill(sig);
    resend(sig);
    return;
  }
  if (!atomic_load(&fragment_done)) {
    atomic_store(&pending_fatal, sig);
    return;
  }
  pm_alone_dies_of(signal_name(sig)); /* it was written for a peer's death */
  die_of(sig);
}

/* A signal that interrupts its own thread in the middle of a record must
   not write the trace under that record's feet: it is handed to the end
   of the record (handle_deferred), which the thread reaches as soon as
   the handler returns. A fault there cannot wait: the process just dies. */
static void on_signal(int sig, siginfo_t *info, void *context) {
  (void)context;
  if (info) arrived[index_of(sig)] = *info;
  int queued = info && info->si_code == SI_QUEUE;
  if (queued && sig != peer_signal && info->si_value.sival_int == PM_PEER_RELEASE &&
      atomic_load(&fragment_done)) { /* a peer's die_of: end now, with it */
    let_kill(sig);
    resend(sig);
    return;
  }
  if (sig == peer_signal && queued) atomic_store(&peer_sender, info->si_value.sival_int);
  pm_location *l = pm_tls_location;
  int in_record = l && atomic_load(&l->writing);
  if (in_record && !synchronous(sig)) {
    int none = 0;
    if (atomic_compare_exchange_strong(&pm_deferred_signal, &none, sig)) return;
    if (sig != peer_signal) atomic_store(&pending_fatal, sig); /* one is deferred already */
    return;
  }
  if (in_record) { /* a fault in the middle of a record */
    let_kill(sig);
    resend(sig);
    return;
  }
  if (atomic_exchange(&taken, 1)) another_signal(sig);
  else finish_and_die(sig);
}

/* Registered with the event path (pm_ev_on_deferred_signal): runs at the
   end of the record a signal interrupted. */
static void handle_deferred(void) {
  int sig = atomic_exchange(&pm_deferred_signal, 0);
  if (!sig) return;
  if (atomic_exchange(&taken, 1)) another_signal(sig);
  else finish_and_die(sig);
}

/* dl_iterate_phdr visits the main program first: is addr in one of its
   loaded segments? */
static int in_program(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  uintptr_t *addr = data;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *p = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + p->p_vaddr;
    if (p->p_type == PT_LOAD && *addr >= lo && *addr < lo + p->p_memsz) return 1;
  }
  return -1; /* stop after the first object: 1 = yes, -1 = no */
}

/* A handler the program installed itself is kept; one of a library it
   links (UCX puts its own on the fault signals, for backtraces) is
   chained: ours runs first, then theirs. */
static int programs_own(const struct sigaction *sa) {
  uintptr_t addr =
      (sa->sa_flags & SA_SIGINFO) ? (uintptr_t)sa->sa_sigaction : (uintptr_t)sa->sa_handler;
  if (sa->sa_handler == SIG_DFL || sa->sa_handler == SIG_IGN) return sa->sa_handler == SIG_IGN;
  return dl_iterate_phdr(in_program, &addr) == 1;
}

static int install(int sig, struct sigaction *prev) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, NULL, prev);
  if ((prev->sa_flags & SA_SIGINFO) && prev->sa_sigaction == on_signal) return 1;
  if (programs_own(prev)) return 0; /* and ignored signals stay ignored */
  return sigaction(sig, &sa, NULL) == 0;
}

void pm_signals_install(void) {
  pm_ev_on_deferred_signal(handle_deferred); /* before any handler can defer */
  for (int i = 0; i < NFATAL; i++) installed[i] = install(fatal[i], &previous[i]);
  int p = pm_cfg.peer_signal;
  if (p > 0 && index_of(p) == NFATAL && install(p, &previous[NFATAL])) {
    peer_signal = p;
    pm_peers_listening();
  }
}

/* MPI_Init may put handlers of its own on the fault signals over ours:
   ours go back on top and chain to theirs. */
void pm_signals_after_mpi_init(void) {
  for (int i = 0; i < NFATAL; i++) {
    struct sigaction prev;
    if (!installed[i] || !install(fatal[i], &prev)) continue;
    if (!((prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction == on_signal)) previous[i] = prev;
  }
}
