/*
 * bench_mpiwrap.c -- what libpomp-mpi adds to an MPI call.
 *
 *   mpirun -n 2 bench-mpiwrap [ROUNDS]
 *
 * Linked with libpomp-mpi, so MPI_X goes through the wrapper and PMPI_X
 * does not: both are timed in the same run, in alternating blocks, and
 * the fastest block of each counts (the machine is shared and noisy).
 *   pingpong  8-byte messages between two ranks in shared memory; a round
 *             trip has four wrapped calls on its critical path (send and
 *             receive on each rank), so overhead/call = extra RTT / 4
 *   exchange  both ranks Irecv + Isend + Waitall 8 bytes at once (request
 *             tracking): three wrapped calls per rank and exchange, so
 *             overhead/call = extra exchange time / 3
 *   iprobe    MPI_Iprobe that finds nothing, on rank 0 alone
 *   barrier   MPI_Barrier of both ranks: one wrapped call per rank, which
 *             also counts the collective instance on its communicator
 *   self-exchange, self-barrier   the exchange and the barrier on
 *             MPI_COMM_SELF, rank 0 alone: the same wrapper work without
 *             waiting for the other process, so the overhead is not lost
 *             in (or inflated by) the scheduling noise of two processes on
 *             a busy machine
 *   self-bcast, self-allreduce   8-byte MPI_Bcast (rooted: the bytes
 *             depend on the rank, size and intercomm flag) and
 *             MPI_Allreduce on MPI_COMM_SELF, rank 0 alone
 * Each is also timed with recording off (POMP_Off: the wrapper's test
 * only, and the instance count of a collective). The target is <= 150 ns
 * per call above PMPI.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pomp.h"
#include "bench_clock.h"

#define BLOCKS 25 /* short blocks: on a busy machine some run undisturbed */

enum variant { PLAIN, TRACED, OFF, VARIANTS };
static const char *names[VARIANTS] = {"PMPI ns", "record ns", "Off ns"};

/* ns per round trip of `rounds` ping-pongs with rank 1. */
static double pingpong(int rank, int rounds, int traced) {
  char buf[8] = {0};
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = bench_now_ns();
  for (int i = 0; i < rounds; i++) {
    if (rank == 0) {
      if (traced) {
        MPI_Send(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        PMPI_Send(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        PMPI_Recv(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    } else if (rank == 1) {
      if (traced) {
        MPI_Recv(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
      } else {
        PMPI_Recv(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        PMPI_Send(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
      }
    }
  }
  return (bench_now_ns() - t0) / rounds;
}

/* ns per simultaneous Irecv + Isend + Waitall exchange with peer on comm. */
static double exchange_on(MPI_Comm comm, int peer, int rounds, int traced) {
  char out[8] = {0}, in[8];
  MPI_Request r[2];
  double t0 = bench_now_ns();
  for (int i = 0; i < rounds; i++) {
    if (traced) {
      MPI_Irecv(in, 8, MPI_BYTE, peer, 2, comm, &r[0]);
      MPI_Isend(out, 8, MPI_BYTE, peer, 2, comm, &r[1]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else {
      PMPI_Irecv(in, 8, MPI_BYTE, peer, 2, comm, &r[0]);
      PMPI_Isend(out, 8, MPI_BYTE, peer, 2, comm, &r[1]);
      PMPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
  }
  return (bench_now_ns() - t0) / rounds;
}

static double exchange(int rank, int rounds, int traced) {
  MPI_Barrier(MPI_COMM_WORLD);
  return exchange_on(MPI_COMM_WORLD, 1 - rank, rounds, traced);
}

/* ns per MPI_Iprobe that finds no message. */
static double iprobe(int calls, int traced) {
  int flag;
  double t0 = bench_now_ns();
  for (int i = 0; i < calls; i++) {
    if (traced) MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
    else PMPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
  }
  return (bench_now_ns() - t0) / calls;
}

/* ns per MPI_Barrier on comm. */
static double barrier_on(MPI_Comm comm, int rounds, int traced) {
  double t0 = bench_now_ns();
  for (int i = 0; i < rounds; i++) {
    if (traced) MPI_Barrier(comm);
    else PMPI_Barrier(comm);
  }
  return (bench_now_ns() - t0) / rounds;
}

/* ns per 8-byte MPI_Bcast (rooted) or MPI_Allreduce on MPI_COMM_SELF. */
static double self_coll(int calls, int traced, int reduce) {
  double in = 1, out;
  double t0 = bench_now_ns();
  for (int i = 0; i < calls; i++) {
    if (reduce) {
      if (traced) MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF);
      else PMPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF);
    } else if (traced) {
      MPI_Bcast(&in, 1, MPI_DOUBLE, 0, MPI_COMM_SELF);
    } else {
      PMPI_Bcast(&in, 1, MPI_DOUBLE, 0, MPI_COMM_SELF);
    }
  }
  return (bench_now_ns() - t0) / calls;
}

static double barrier(int rounds, int traced) {
  PMPI_Barrier(MPI_COMM_WORLD);
  return barrier_on(MPI_COMM_WORLD, rounds, traced);
}

static double min(double a, double b) { return a < b ? a : b; }

enum pattern {
  PINGPONG,
  EXCHANGE,
  IPROBE,
  BARRIER,
  SELF_EXCHANGE,
  SELF_BARRIER,
  SELF_BCAST,
  SELF_ALLREDUCE,
  PATTERNS
};
static const struct {
  const char *name;
  int calls; /* wrapped calls per timed unit on the critical path */
  int rank0; /* timed on rank 0 alone */
} patterns[PATTERNS] = {
    [PINGPONG] = {"8-byte ping-pong RTT", 4, 0},
    [EXCHANGE] = {"Irecv+Isend+Waitall exchange", 3, 0},
    [IPROBE] = {"MPI_Iprobe finding nothing", 1, 1},
    [BARRIER] = {"MPI_Barrier of 2 ranks", 1, 0},
    [SELF_EXCHANGE] = {"exchange on MPI_COMM_SELF", 3, 1},
    [SELF_BARRIER] = {"MPI_Barrier(MPI_COMM_SELF)", 1, 1},
    [SELF_BCAST] = {"MPI_Bcast(MPI_COMM_SELF)", 1, 1},
    [SELF_ALLREDUCE] = {"MPI_Allreduce(MPI_COMM_SELF)", 1, 1},
};

/* ns per timed unit of pattern p (rank 0's figure for rank-0 patterns). */
static double run(enum pattern p, int rank, int rounds, int traced) {
  switch (p) {
  case PINGPONG: return pingpong(rank, rounds, traced);
  case EXCHANGE: return exchange(rank, rounds, traced);
  case IPROBE: return iprobe(5 * rounds, traced);
  case BARRIER: return barrier(rounds, traced);
  case SELF_EXCHANGE: return exchange_on(MPI_COMM_SELF, 0, rounds, traced);
  case SELF_BARRIER: return barrier_on(MPI_COMM_SELF, 5 * rounds, traced);
  case SELF_BCAST: return self_coll(5 * rounds, traced, 0);
  case SELF_ALLREDUCE: return self_coll(5 * rounds, traced, 1);
  default: return 0;
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rounds = argc > 1 ? atoi(argv[1]) : 4000;
  if (size != 2 || rounds <= 0) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -n 2 bench-mpiwrap [ROUNDS > 0]\n");
    MPI_Finalize();
    return 2;
  }
  double best[PATTERNS][VARIANTS];
  for (int p = 0; p < PATTERNS; p++)
    for (int v = 0; v < VARIANTS; v++) best[p][v] = 1e30;
  for (int b = 0; b < BLOCKS; b++)
    for (int v = 0; v < VARIANTS; v++) {
      if (v == OFF) POMP_Off();
      for (int p = 0; p < PATTERNS; p++)
        if (rank == 0 || !patterns[p].rank0)
          best[p][v] = min(best[p][v], run(p, rank, rounds, v != PLAIN));
      if (v == OFF) POMP_On();
    }
  if (rank == 0) {
    printf("bench-mpiwrap: %d rounds per block (Iprobe, self collectives: %d), best of %d "
           "blocks; +ns/call = (variant - PMPI) / wrapped calls per unit\n",
           rounds, 5 * rounds, BLOCKS);
    printf("%-30s %5s %9s %9s %9s %9s %9s\n", "pattern", "calls", names[PLAIN], names[TRACED],
           "+ns/call", names[OFF], "+ns/call");
    for (int p = 0; p < PATTERNS; p++) {
      const double *t = best[p];
      printf("%-30s %5d %9.1f %9.1f %9.1f %9.1f %9.1f\n", patterns[p].name, patterns[p].calls,
             t[PLAIN], t[TRACED], (t[TRACED] - t[PLAIN]) / patterns[p].calls, t[OFF],
             (t[OFF] - t[PLAIN]) / patterns[p].calls);
    }
    printf("ratio recording/PMPI:");
    for (int p = 0; p < PATTERNS; p++)
      printf(" %s %.2f%s", patterns[p].name, best[p][TRACED] / best[p][PLAIN],
             p + 1 < PATTERNS ? "," : "\n");
    printf("target: <= 150 ns per call above PMPI\n");
  }
  MPI_Finalize();
  return 0;
}
