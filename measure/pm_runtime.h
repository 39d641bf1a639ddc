/*
 * pm_runtime.h -- process-wide state of libpomp: the measurement state
 * machine, the clock, the POMP_ configuration and the measure.log.
 * Internal to measure/.
 */
#ifndef PM_RUNTIME_H
#define PM_RUNTIME_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "pm_clock.h"
#include "pomp_measure.h"

#define PM_LIKELY(x) __builtin_expect(!!(x), 1)
#define PM_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ------------------------------------------------------------------ state */

enum pm_state {
  PM_UNSTARTED = 0, /* nothing happened yet */
  PM_RUNNING,       /* events are recorded (into memory until the archive opens) */
  PM_FINISHED,      /* trace written (or given up): events are ignored */
  PM_DISABLED       /* POMP_ENABLE=0 or a fatal set-up error */
};

/* Written only under the runtime's start/finish lock, read everywhere. */
extern _Atomic int pm_state;
/* pm_state == PM_RUNNING && POMP_On: the one flag the hot path tests. */
extern _Atomic int pm_recording;

/* Starts the measurement if it has not started yet (thread-safe, once).
   Returns true when the state is PM_RUNNING afterwards. */
bool pm_start(void);
static inline bool pm_running(void) {
  int s = atomic_load_explicit(&pm_state, memory_order_acquire);
  if (PM_LIKELY(s == PM_RUNNING)) return true;
  return s == PM_UNSTARTED && pm_start();
}
/* Writes the trace of a non-MPI process (POMP_Finalize, atexit). */
void pm_finish(const char *why);

/* The start/finish lock and what runs under it (pm_runtime.c). */
void pm_run_lock(void);
void pm_run_unlock(void);
int pm_run_trylock(void); /* 0 when taken */
void pm_set_state(int state);

void pm_finish_locked(const char *why);
/* Experiment directory + archive of a process without MPI; 0 or -1. */
int pm_open_single_process(void);

/* Parts started by the runtime. */
int pm_user_functions_init(void);     /* filter + symbol tables; -1: disable */
void pm_signals_install(void);        /* pm_signal.c */
void pm_signals_after_mpi_init(void); /* ours back over MPI's own (UCX) */
int pm_registered_descriptors(void);  /* pm_descr.c */
void pm_nested_report(void);          /* pm_pomp_parallel.c: log a summary */

/* An MPI rank ending without MPI_Finalize (pm_alone.c): under the run
   lock, state PM_RUNNING: stop, close the event writers, write the
   complete fragment. Then, without the lock, pm_peers_alert (pm_peers.c)
   has the ranks on this node write theirs and waits for them (bounded). */
void pm_finish_alone_locked(const char *reason, int grace_ms);
/* The rank that finished alone for a peer's death now dies of a signal
   itself: its complete fragment is rewritten with that reason. */
void pm_alone_dies_of(const char *reason);
void pm_peers_alert(const char *reason);
/* Sends sig, marked PM_PEER_RELEASE, to the peers whose complete fragment
   is on disk: they die of it at once, all together (pm_signal.c). */
#define PM_PEER_RELEASE (-0x504f4d50) /* sigqueue value; ranks are >= 0 */
void pm_peers_release(int sig);
/* pm_signal.c installed the peer signal's handler: this rank answers. */
void pm_peers_listening(void);

/* MPI hand-over state (pm_mpi.c). */
extern int pm_rank;        /* rank in MPI_COMM_WORLD, 0 without MPI */
extern int pm_mpi_waiting; /* pm_mpi_expected() called, pm_mpi_init not yet */
extern int pm_mpi_active;  /* between pm_mpi_init and pm_mpi_finalize */
/* At start: after pm_mpi_unbound, warns (or on ranks > 0 returns -1: this
   process is not measured); 0 otherwise. */
int pm_mpi_unbound_check(void);

/* ------------------------------------------------------------------ clock */

/* pm_clock(): pm_clock.h */
/* pm_clock() when the measurement started: ClockProperties' global offset. */
extern uint64_t pm_start_time;

/* ------------------------------------------------------------ configuration */

typedef struct pm_config {
  const char *experiment;  /* POMP_EXPERIMENT, NULL = pomp_<app>_<P>x<T> */
  const char *filter;      /* POMP_FILTER file, NULL = none */
  uint64_t buffer;         /* POMP_BUFFER bytes of event memory per location */
  uint64_t flush_interval; /* POMP_FLUSH_INTERVAL in ns (pm_tail.c), 0 = off */
  int enable;              /* POMP_ENABLE */
  int verbose;             /* POMP_VERBOSE 0..2 */
  int functions;           /* POMP_FUNCTIONS: record -finstrument-functions */
  int signals;             /* POMP_SIGNALS: install the fatal-signal handlers */
  int peer_signal;         /* POMP_PEER_SIGNAL: signal number, 0 = off */
  int clock;               /* POMP_CLOCK: enum pm_clock_source */
  int mode;                /* POMP_MODE: enum pm_mode */
  int io;                  /* POMP_IO: record the I/O calls of libpomp-io */
} pm_config;
#define PM_FLUSH_INTERVAL_DEFAULT 10000000000ull /* ns: POMP_FLUSH_INTERVAL's "10" */
/* POMP_MODE: an OTF2 trace, or a call-path profile (pm_profile.h). */
enum pm_mode { PM_MODE_TRACE = 0, PM_MODE_PROFILE };
extern pm_config pm_cfg;

/* Reads the POMP_ variables; a bad value is reported, then its default used. */
void pm_config_load(void);
/* Writes every POMP_ variable, its value and its meaning to measure.log. */
void pm_config_log(void);

/* pm_build.c: how the program's functions were instrumented (pomp-cc's
   .pomp_instr section): read and logged at the start; the summary line
   (NULL when no object was compiled by pomp-cc); instrumentation.txt in
   the experiment directory (rank 0). */
void pm_build_read(void);
const char *pm_build_instrumentation(void);
void pm_build_write(const char *dir);

/* -------------------------------------------------------------------- log */

/* One line into measure.log ("[rank R] " prefixed in MPI runs); kept in
   memory until pm_log_open. */
void pm_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "libpomp: warning: ..." on stderr, and into the log. */
void pm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pm_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "libpomp: ..." on stderr when POMP_VERBOSE >= level, and into the log. */
void pm_info(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Opens <dir>/measure.log for appending and writes the kept lines. */
void pm_log_open(const char *dir);
/* Async-signal-safe (for the signal handlers): one line made of the
   nparts strings, "[rank R] " prefixed in MPI runs, in one write(2). */
void pm_log_signal_line(const char *const parts[], int nparts);
void pm_log_close(void);
/* In a forked child: drop the parent's log without touching it. */
void pm_log_forget(void);

#endif /* PM_RUNTIME_H */
