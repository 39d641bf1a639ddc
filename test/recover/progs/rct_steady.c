/* rct_steady.c -- MPI ranks that record steadily until they are killed:
   each rank writes its pid to READY.<rank> once it records, then repeats
   a user region around a few microseconds of work for at most SECONDS
   (then MPI_Finalize), or STEPS times where given; built with RCT_OMP,
   every thread of an OpenMP team does. Usage: rct_steady READY SECONDS
   [STEPS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "pomp.h"

static OMPRegDescr step = {"region", "step", 0, "rct_steady.c", 12, 12, 13, 13, {0}, 0};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double seconds = argc > 2 ? atof(argv[2]) : 10, end = now() + seconds;
  long steps = argc > 3 ? atol(argv[3]) : -1;
  POMP_Begin(&step);
  POMP_End(&step);
  char path[4096];
  snprintf(path, sizeof path, "%s.%d", argc > 1 ? argv[1] : "ready", rank);
  FILE *f = fopen(path, "w");
  if (f) {
    fprintf(f, "%d\n", (int)getpid());
    fclose(f);
  }
#ifdef RCT_OMP
#pragma omp parallel
#endif
  {
    volatile double x = 0;
    for (long done = 0; done != steps && now() < end; done++) {
      POMP_Begin(&step);
      for (int i = 0; i < 2000; i++) x += i * 0.5;
      POMP_End(&step);
    }
  }
  MPI_Finalize();
  return 0;
}
