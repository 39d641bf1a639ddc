/* mw_clocksync.c -- offset of this process's clock to rank 0's, measured
   at MPI_Init and MPI_Finalize (libpomp writes them as ClockOffset and
   readers interpolate linearly between the two).

   Rank 0 plays ping-pong with each rank in turn and keeps the exchange
   with the shortest round trip, assuming the reply's time was read halfway
   through it: offset = t_send + rtt/2 - t_reply (Score-P's method). The
   error is at most half the shortest round trip, which on an oversubscribed
   node can be milliseconds. Processes on rank 0's host share its
   CLOCK_MONOTONIC, so their offset is exactly 0 and they skip the
   ping-pong, unless POMP_MPI_CLOCKSYNC=always (for testing). */
#include "mw.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pomp_util.h"

#define ROUNDS 10
#define TAG 1 /* comm is libpomp-mpi's own duplicate of MPI_COMM_WORLD */

static void ping_pong_master(MPI_Comm comm, int peer) {
  uint64_t best_rtt = UINT64_MAX;
  int64_t answer[2] = {0, 0}; /* round of the best exchange, offset */
  for (int k = 0; k < ROUNDS; k++) {
    uint64_t reply;
    uint64_t t1 = pm_now();
    PMPI_Send(NULL, 0, MPI_BYTE, peer, TAG, comm);
    PMPI_Recv(&reply, 1, MPI_UINT64_T, peer, TAG, comm, MPI_STATUS_IGNORE);
    uint64_t rtt = pm_now() - t1;
    if (rtt < best_rtt) {
      best_rtt = rtt;
      answer[0] = k;
      answer[1] = (int64_t)(t1 + rtt / 2) - (int64_t)reply;
    }
  }
  PMPI_Send(answer, 2, MPI_INT64_T, peer, TAG, comm);
}

/* 1 if this process must measure its offset: not on rank 0's host. */
static int needs_ping_pong(MPI_Comm comm) {
  const char *mode = getenv("POMP_MPI_CLOCKSYNC");
  if (mode && !strcasecmp(mode, "always")) return 1; /* as libpomp checks it */
  char mine[MPI_MAX_PROCESSOR_NAME + 1] = "", root[MPI_MAX_PROCESSOR_NAME + 1];
  int len;
  PMPI_Get_processor_name(mine, &len);
  memcpy(root, mine, sizeof root);
  PMPI_Bcast(root, (int)sizeof root, MPI_CHAR, 0, comm);
  return strcmp(root, mine) != 0;
}

int64_t mw_clock_offset(MPI_Comm comm, uint64_t *when) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  int remote = needs_ping_pong(comm);
  int *remotes = rank == 0 ? pu_malloc((size_t)size * sizeof *remotes) : NULL;
  PMPI_Gather(&remote, 1, MPI_INT, remotes, 1, MPI_INT, 0, comm);
  if (rank == 0) {
    for (int p = 1; p < size; p++)
      if (remotes[p]) ping_pong_master(comm, p);
    free(remotes);
  }
  if (rank == 0 || !remote) {
    *when = pm_now();
    return 0;
  }
  uint64_t replies[ROUNDS];
  for (int k = 0; k < ROUNDS; k++) {
    PMPI_Recv(NULL, 0, MPI_BYTE, 0, TAG, comm, MPI_STATUS_IGNORE);
    replies[k] = pm_now();
    PMPI_Send(&replies[k], 1, MPI_UINT64_T, 0, TAG, comm);
  }
  int64_t answer[2];
  PMPI_Recv(answer, 2, MPI_INT64_T, 0, TAG, comm, MPI_STATUS_IGNORE);
  *when = replies[answer[0]];
  return answer[1];
}
