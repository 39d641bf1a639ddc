/* pm_peers.c -- the ranks on this node. When a rank dies alone
   (pm_alone.c), mpirun kills the others soon after, MPICH's hydra with
   SIGKILL, which no handler sees: their events since their last buffer
   flush would be lost. So the dying rank first sends its same-node peers
   the signal POMP_PEER_SIGNAL (a real-time signal; sigqueue carries the
   sender's rank), on which each writes its complete fragment and goes on
   (pm_signal.c), and waits for their fragments, at most PEER_WAIT_S
   seconds. Ranks on other nodes keep their periodic fragments. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pm_runtime.h"
#include "pm_trace.h"
#include "pm_unify.h"
#include "pomp_unify.h"
#include "pomp_util.h"

#define PEER_WAIT_S 10

static int npeers;
static int *peer_rank, *peer_pid;
static _Atomic int listening; /* the peer signal's handler is installed */

void pm_peers_listening(void) { atomic_store(&listening, 1); }

int pm_mpi_peer_pid(void) { return atomic_load(&listening) ? (int)getpid() : 0; }

void pm_mpi_node_peers(int n, const int *world_ranks, const int *pids) {
  if (n <= 0) return;
  int *r = pu_malloc((size_t)n * sizeof *r), *p = pu_malloc((size_t)n * sizeof *p);
  memcpy(r, world_ranks, (size_t)n * sizeof *r);
  memcpy(p, pids, (size_t)n * sizeof *p);
  peer_rank = r;
  peer_pid = p;
  npeers = n;
  if (pm_cfg.peer_signal) /* off: POMP_PEER_SIGNAL=0, or profile mode */
    pm_log("%d ranks on this node (peers told to write their fragments if a rank dies)", n);
}

/* 1 when the rank's fragment says complete (async-signal-safe reads). */
static int fragment_complete(int rank) {
  char path[PU_PATH_MAX];
  pm_fragment_path(path, sizeof path, (uint32_t)rank);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  unsigned char head[PM_FRAG_COMPLETE_AT + 4];
  ssize_t n = read(fd, head, sizeof head);
  close(fd);
  return n == (ssize_t)sizeof head && !memcmp(head, PM_FRAG_MAGIC, 8) &&
         head[PM_FRAG_COMPLETE_AT] == 1;
}

/* 1 when process pid no longer catches sig (its die_of restored the
   default: a kill() with sig ends it in the sender's own call), or is
   gone. From /proc/<pid>/status, SigCgt (hex mask); async-signal-safe. */
static int lets_sig_kill(int pid, int sig) {
  char path[64], buf[2048];
  snprintf(path, sizeof path, "/proc/%d/status", pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 1;
  buf[n] = '\0';
  const char *p = strstr(buf, "SigCgt:\t");
  if (!p) return 0;
  p += 8;
  size_t digits = strspn(p, "0123456789abcdef");
  int nibble = (sig - 1) / 4; /* from the right */
  if ((size_t)nibble >= digits) return 1;
  char c = p[digits - 1 - (size_t)nibble];
  int v = c <= '9' ? c - '0' : c - 'a' + 10;
  return !(v >> ((sig - 1) % 4) & 1);
}

/* The ranks dying of the same signal end at the same moment: hydra
   SIGKILLs whoever is still alive when the first dies. So once every
   peer's fragment is complete, this waits (at most RELEASE_WAIT_MS) until
   each has restored sig's default, then sends them sig, marked
   PM_PEER_RELEASE (a peer still in our handler dies of it at once,
   pm_signal.c); the kernel starts each one's exit right in these calls,
   before this rank dies. */
#define RELEASE_WAIT_MS 1000
void pm_peers_release(int sig) {
  pid_t self = getpid();
  struct timespec tick = {0, 1000000};
  for (int waited = 0; waited < RELEASE_WAIT_MS; waited++) {
    int ready = 1;
    for (int i = 0; i < npeers && ready; i++)
      if (peer_pid[i] && peer_pid[i] != self && fragment_complete(peer_rank[i]))
        ready = lets_sig_kill(peer_pid[i], sig);
    if (ready) break;
    nanosleep(&tick, NULL);
  }
  /* between the first release and this rank's own raise() nothing may
     keep it off the CPU (a released peer's death gets it SIGKILLed): the
     fragment reads first, then the sends back to back on a fresh slice */
  int release[256], n = 0;
  for (int i = 0; i < npeers && n < 256; i++)
    if (peer_pid[i] && peer_pid[i] != self && fragment_complete(peer_rank[i])) release[n++] = i;
  sched_yield();
  for (int k = 0; k < n; k++) {
    int i = release[k];
    union sigval v = {.sival_int = PM_PEER_RELEASE};
    sigqueue(peer_pid[i], sig, v);
  }
}

void pm_peers_alert(const char *reason) {
  int sig = pm_cfg.peer_signal;
  if (!sig || npeers <= 1) return;
  int pending[256], npending = 0; /* indexes into the peer table */
  pid_t self = getpid();
  for (int i = 0; i < npeers && npending < 256; i++) {
    if (!peer_pid[i] || peer_pid[i] == self) continue;
    union sigval v = {.sival_int = pm_rank};
    if (sigqueue(peer_pid[i], sig, v) == 0) pending[npending++] = i;
  }
  int asked = npending;
  struct timespec t0, now, tick = {0, 5000000};
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (npending) {
    for (int k = 0; k < npending;) {
      int i = pending[k];
      /* done: fragment complete, or the peer is gone */
      if (fragment_complete(peer_rank[i]) || (kill(peer_pid[i], 0) != 0 && errno == ESRCH))
        pending[k] = pending[--npending];
      else k++;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!npending || now.tv_sec - t0.tv_sec >= PEER_WAIT_S) break;
    nanosleep(&tick, NULL);
  }
  pm_log("%s: %d peer(s) on this node asked for their fragments, %d did not answer "
         "within %d s",
         reason, asked, npending, PEER_WAIT_S);
}
