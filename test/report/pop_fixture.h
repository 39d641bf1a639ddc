/* pop_fixture.h -- reports with planted per-location computation, MPI,
   OpenMP and critical-path times, whose POP efficiencies are computed by
   hand in pop_fixture.c (above each table) and checked exactly by
   test_report_pop.c and the report_cli goldens (pomp-report pop).  The
   metric tree is the catalogue's, plus critical_path >
   critical_path_imbalance where a fixture has a critical path (stored
   metric-exclusive like every metric, so the path's time is the sum of
   both).
     pop_balanced    2 ranks x 1 thread, the same work: LB = 1; no
                     critical path (serialisation/transfer n/a)
     pop_imbalanced  4 ranks x 1 thread, rank 0 does twice the work of
                     the others, who wait in MPI_Allreduce; critical path
     pop_mpi_wait    2 ranks x 1 thread passing a message in a chain:
                     each waits for the other half the run (serialised)
     pop_hybrid      2 ranks x 2 threads, no MPI time; the workers idle
                     in serial code and in the barrier: OpenMP < 1, MPI = 1
     pop_no_cp       pop_imbalanced with critical_path defined but empty
                     (a profile-mode report): n/a as without the metric */
#ifndef POP_FIXTURE_H
#define POP_FIXTURE_H

#include "pomp_report.h"

/* The report of that name (caller frees), NULL for an unknown name. */
pomp_report *pop_fixture_new(const char *name);

#endif
