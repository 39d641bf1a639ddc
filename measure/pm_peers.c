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
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pm_frag.h"
#include "pm_runtime.h"
#include "pm_trace.h"
#include "pm_unify.h"
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
  pm_log("%d ranks on this node (peers told to write their fragments if a rank dies)", n);
}

/* 1 when the rank's fragment says complete (async-signal-safe reads). */
static int fragment_complete(int rank) {
  char path[4300];
  pm_fragment_path(path, sizeof path, (uint32_t)rank);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  unsigned char head[PM_FRAG_COMPLETE_AT + 4];
  ssize_t n = read(fd, head, sizeof head);
  close(fd);
  return n == (ssize_t)sizeof head && !memcmp(head, PM_FRAG_MAGIC, 8) &&
         head[PM_FRAG_COMPLETE_AT] == 1;
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
      else
        k++;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!npending || now.tv_sec - t0.tv_sec >= PEER_WAIT_S) break;
    nanosleep(&tick, NULL);
  }
  pm_log("%s: %d peer(s) on this node asked for their fragments, %d did not answer "
         "within %d s", reason, asked, npending, PEER_WAIT_S);
}
