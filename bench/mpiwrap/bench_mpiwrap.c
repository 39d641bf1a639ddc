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

#define BLOCKS 25   /* short blocks: on a busy machine some run undisturbed */

enum variant { PLAIN, TRACED, OFF, VARIANTS };
static const char *names[VARIANTS] = {"PMPI (baseline)", "MPI, recording", "MPI, POMP_Off"};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

/* ns per round trip of `rounds` ping-pongs with rank 1. */
static double pingpong(int rank, int rounds, int traced) {
  char buf[8] = {0};
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now();
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
  return (now() - t0) / rounds;
}

/* ns per simultaneous Irecv + Isend + Waitall exchange with the peer. */
static double exchange(int rank, int rounds, int traced) {
  char out[8] = {0}, in[8];
  MPI_Request r[2];
  int peer = 1 - rank;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now();
  for (int i = 0; i < rounds; i++) {
    if (traced) {
      MPI_Irecv(in, 8, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &r[0]);
      MPI_Isend(out, 8, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &r[1]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else {
      PMPI_Irecv(in, 8, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &r[0]);
      PMPI_Isend(out, 8, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &r[1]);
      PMPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
  }
  return (now() - t0) / rounds;
}

/* ns per MPI_Iprobe that finds no message. */
static double iprobe(int calls, int traced) {
  int flag;
  double t0 = now();
  for (int i = 0; i < calls; i++) {
    if (traced)
      MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
    else
      PMPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
  }
  return (now() - t0) / calls;
}

/* ns per MPI_Barrier of the two ranks. */
static double barrier(int rounds, int traced) {
  PMPI_Barrier(MPI_COMM_WORLD);
  double t0 = now();
  for (int i = 0; i < rounds; i++) {
    if (traced)
      MPI_Barrier(MPI_COMM_WORLD);
    else
      PMPI_Barrier(MPI_COMM_WORLD);
  }
  return (now() - t0) / rounds;
}

static double min(double a, double b) { return a < b ? a : b; }

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
  double pp[VARIANTS], ex[VARIANTS], ip[VARIANTS], ba[VARIANTS];
  for (int v = 0; v < VARIANTS; v++) pp[v] = ex[v] = ip[v] = ba[v] = 1e30;
  for (int b = 0; b < BLOCKS; b++)
    for (int v = 0; v < VARIANTS; v++) {
      if (v == OFF) POMP_Off();
      pp[v] = min(pp[v], pingpong(rank, rounds, v != PLAIN));
      ex[v] = min(ex[v], exchange(rank, rounds, v != PLAIN));
      if (rank == 0) ip[v] = min(ip[v], iprobe(5 * rounds, v != PLAIN));
      ba[v] = min(ba[v], barrier(rounds, v != PLAIN));
      if (v == OFF) POMP_On();
    }
  if (rank == 0) {
    printf("bench-mpiwrap: %d ping-pong rounds and %d MPI_Iprobe per block, best of %d blocks\n",
           rounds, 5 * rounds, BLOCKS);
    printf("%-16s %9s %9s %11s %9s %9s %9s %10s %9s\n", "variant", "RTT ns", "+ns/call",
           "exchange ns", "+ns/call", "Iprobe ns", "+ns/call", "Barrier ns", "+ns/call");
    for (int v = 0; v < VARIANTS; v++)
      printf("%-16s %9.1f %9.1f %11.1f %9.1f %9.1f %9.1f %10.1f %9.1f\n", names[v], pp[v],
             (pp[v] - pp[PLAIN]) / 4, ex[v], (ex[v] - ex[PLAIN]) / 3, ip[v],
             ip[v] - ip[PLAIN], ba[v], ba[v] - ba[PLAIN]);
    printf("ratio recording/baseline: ping-pong %.2f, exchange %.2f, Iprobe %.2f, "
           "Barrier %.2f (target: <= 150 ns/call above)\n",
           pp[TRACED] / pp[PLAIN], ex[TRACED] / ex[PLAIN], ip[TRACED] / ip[PLAIN],
           ba[TRACED] / ba[PLAIN]);
  }
  MPI_Finalize();
  return 0;
}
