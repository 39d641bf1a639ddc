/*
 * bench_parts.c -- where the ns of a recorded MPI call go.
 *
 *   mpirun -n 1 bench-mpiwrap-parts [CALLS]
 *
 * Times, on one process with the measurement running, each piece a
 * libpomp-mpi wrapper is made of, through the same functions the wrappers
 * call: a clock read (pm_now), an Enter+Leave pair at a given timestamp
 * (two OTF2 records, no clock), one MPI record (MpiSend through
 * pm_evt_writer_at), the re-entry guard (pm_pause + pm_resume), the
 * recording test (pm_location_recording), and one request's bookkeeping
 * (put at the call + finish at the completion in the request table, the
 * way mw_request.c does). Best of several blocks, ns per operation; an
 * empty loop is the baseline. bench-mpiwrap measures whole calls; this
 * explains them (mpiwrap/README.md, "Where the time goes").
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mw_reqtable.h"
#include "pomp_measure.h"
#include "bench_clock.h"

#define BLOCKS 10

enum part { EMPTY, CLOCK, ENTER_LEAVE, MPI_RECORD, GUARD, RECORDING, REQUEST, PARTS };
static const char *names[PARTS] = {
    [EMPTY] = "empty loop (baseline)",
    [CLOCK] = "clock read (pm_now)",
    [ENTER_LEAVE] = "Enter+Leave records, no clock",
    [MPI_RECORD] = "MpiSend record, no clock",
    [GUARD] = "pm_pause + pm_resume",
    [RECORDING] = "pm_location_recording",
    [REQUEST] = "request table put + finish",
};

/* Keeps the compiler from dropping a loop whose result is unused. */
static volatile uint64_t sink;

static double run(enum part p, pm_location *l, uint32_t region, mw_reqtable *table, int calls) {
  uint64_t t = pm_now(), acc = 0;
  double t0 = bench_now_ns();
  for (int i = 0; i < calls; i++) {
    switch (p) {
    case EMPTY: acc += (uint64_t)i; break;
    case CLOCK: acc += pm_now(); break;
    case ENTER_LEAVE:
      t = pm_enter_at(l, region, t);
      t = pm_leave_at(l, region, t);
      break;
    case MPI_RECORD: {
      OTF2_EvtWriter *w = pm_evt_writer_at(l, &t);
      if (w) OTF2_EvtWriter_MpiSend(w, NULL, t, 0, 0, 1, 8);
      break;
    }
    case GUARD:
      pm_pause(l);
      pm_resume(l);
      break;
    case RECORDING: acc += (uintptr_t)pm_location_recording(); break;
    case REQUEST: {
      mw_req r = {.id = (uint64_t)i + 1, .kind = MW_REQ_SEND, .owner = mw_reqtable_thread()};
      uint64_t key = 0x2c000000u + (uint64_t)(i & 7);
      mw_reqtable_put(table, key, &r);
      mw_reqtable_finish(table, key, r.owner, &r);
      acc += r.id;
      break;
    }
    default: break;
    }
  }
  double ns = (bench_now_ns() - t0) / calls;
  sink = acc;
  return ns;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int calls = argc > 1 ? atoi(argv[1]) : 50000;
  pm_location *l = pm_location_recording();
  if (calls <= 0 || !l) {
    fprintf(stderr, calls <= 0 ? "usage: bench-mpiwrap-parts [CALLS > 0]\n"
                               : "bench-mpiwrap-parts: the measurement is not running\n");
    MPI_Finalize();
    return calls <= 0 ? 2 : 1;
  }
  uint32_t region =
      pm_region_define("bench part", NULL, 0, 0, OTF2_PARADIGM_USER, OTF2_REGION_ROLE_FUNCTION);
  mw_reqtable *table = mw_reqtable_new();
  double best[PARTS];
  for (int p = 0; p < PARTS; p++) best[p] = 1e30;
  for (int b = 0; b < BLOCKS; b++)
    for (int p = 0; p < PARTS; p++) {
      double ns = run((enum part)p, l, region, table, calls);
      if (ns < best[p]) best[p] = ns;
    }
  printf("bench-mpiwrap-parts: %d operations per block, best of %d blocks\n", calls, BLOCKS);
  printf("%-32s %8s %8s\n", "part", "ns", "-empty");
  for (int p = 0; p < PARTS; p++)
    printf("%-32s %8.1f %8.1f\n", names[p], best[p], best[p] - best[EMPTY]);
  mw_reqtable_free(table);
  MPI_Finalize();
  return 0;
}
