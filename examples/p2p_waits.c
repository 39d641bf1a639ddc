/*
 * p2p_waits.c -- point-to-point wait states, planted between pairs of ranks.
 *
 * Ranks are paired (0,1), (2,3), ...; with an odd number of ranks the last
 * one sits out.  Needs at least 2 ranks; any number of threads.  Every
 * "computation" is team_work: all threads of the rank busy until the stated
 * time after the partner started the problem (plant.h), so while a master
 * waits in MPI its workers are idle threads.
 *
 * Planted problems (sizes in seconds; see expect/p2p_waits.txt):
 *
 *   late_sender    the odd rank computes LATE_SENDER_S before MPI_Send;
 *                  its even partner is already in MPI_Recv.
 *                  -> mpi_latesender 0.300 at late_sender;MPI_Recv,
 *                     every even rank, master thread.
 *   late_receiver  the even rank calls MPI_Ssend at once; the odd partner
 *                  computes LATE_RECEIVER_S before MPI_Recv.  A synchronous
 *                  send cannot complete before the receive starts.
 *                  -> mpi_latereceiver 0.340 at late_receiver;MPI_Ssend,
 *                     every even rank, master thread.
 *   wrong_order    the odd rank sends message B at once, computes
 *                  WRONG_ORDER_S, then sends message A; the even rank
 *                  receives A first, then B.  Waiting for A was avoidable:
 *                  B, sent earlier, was already there.
 *                  -> mpi_latesender_wo 0.320 at wrong_order;MPI_Recv,
 *                     every even rank, master thread.
 *
 * With T >= 2 threads, the workers of a waiting master are idle meanwhile
 * (omp_idle_threads at the same call path, threads 1..T-1): for the wait,
 * plus the time the MPI call then needs to complete.
 */
#include "plant.h"

#include <mpi.h>
#include <stdio.h>

static const double LATE_SENDER_S = 0.300;
static const double LATE_RECEIVER_S = 0.340;
static const double WRONG_ORDER_S = 0.320;

enum { TAG_A = 1, TAG_B = 2 };

/* The partner of this rank, or -1 when it has none (last of an odd count). */
static int partner_of(const plant_world *w) {
  int partner = w->rank ^ 1;
  return partner < w->ranks ? partner : -1;
}

/* Whom a late rank keeps waiting (plant.h: its team_work ends the planted
   time after its partner started). */
static int is_partner(const plant_world *w, int rank) { return rank == partner_of(w); }

static int late_sender(const plant_world *w, int partner) {
  int value = 0;
  if (w->rank % 2 == 0) {
    MPI_Recv(&value, 1, MPI_INT, partner, TAG_A, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return value == partner + 1000;
  }
  team_work(w, is_partner, LATE_SENDER_S);
  value = w->rank + 1000;
  MPI_Send(&value, 1, MPI_INT, partner, TAG_A, MPI_COMM_WORLD);
  return 1;
}

static int late_receiver(const plant_world *w, int partner) {
  int value = 0;
  if (w->rank % 2 == 0) {
    value = w->rank + 2000;
    MPI_Ssend(&value, 1, MPI_INT, partner, TAG_A, MPI_COMM_WORLD);
    return 1;
  }
  team_work(w, is_partner, LATE_RECEIVER_S);
  MPI_Recv(&value, 1, MPI_INT, partner, TAG_A, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return value == partner + 2000;
}

static int wrong_order(const plant_world *w, int partner) {
  int a = 0, b = 0;
  if (w->rank % 2 == 0) {
    MPI_Recv(&a, 1, MPI_INT, partner, TAG_A, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&b, 1, MPI_INT, partner, TAG_B, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return a == 'A' && b == 'B';
  }
  /* Small messages go out eagerly: B is delivered before A is even sent. */
  b = 'B';
  MPI_Send(&b, 1, MPI_INT, partner, TAG_B, MPI_COMM_WORLD);
  team_work(w, is_partner, WRONG_ORDER_S);
  a = 'A';
  MPI_Send(&a, 1, MPI_INT, partner, TAG_A, MPI_COMM_WORLD);
  return 1;
}

int main(int argc, char **argv) {
  plant_world w = plant_init(&argc, &argv, "p2p_waits");
  int ok = 1;
  if (plant_needs(&w, 2, 1, "point-to-point wait states")) {
    int partner = partner_of(&w);
    if (partner < 0) printf("rank %d: no partner, sits out\n", w.rank);
    start_problem(&w, LATE_SENDER_S);
    if (partner >= 0) ok &= late_sender(&w, partner);
    start_problem(&w, LATE_RECEIVER_S);
    if (partner >= 0) ok &= late_receiver(&w, partner);
    start_problem(&w, WRONG_ORDER_S);
    if (partner >= 0) ok &= wrong_order(&w, partner);
    start_problem(&w, 0.0); /* the last slot ends before the result */
  }
  return plant_finish(&w, "p2p_waits", ok);
}
