/* fixture.h -- a small report with known values, shared by the report
   unit tests:
     metrics  0 time > 1 comp, 2 mpi > 3 mpi_latesender; 4 visits
     cnodes   0 main, 1 main;solve, 2 main;solve;MPI_Recv, 3 main;MPI_Recv
     system   0 machine > 1 node > 2 rank 0 > 3,4 threads 0,1 (loc 0,1)
                                 > 5 rank 1 > 6,7 threads 0,1 (loc 2,3)
   Values are listed in fixture.c (fixture_cells). */
#ifndef FIXTURE_H
#define FIXTURE_H

#include "pomp_report.h"

typedef struct {
  int32_t metric, cnode, location;
  double value;
} fixture_cell;

extern const fixture_cell fixture_cells[];
extern const int fixture_ncells;

pomp_report *fixture_new(void);
/* A unique temporary file name (caller frees); removed by the caller. */
char *fixture_tmpname(const char *tag);

/* Asserts (cmocka) that two reports hold the same definitions, attributes
   and rows, values compared bit for bit. */
void fixture_assert_same(const pomp_report *a, const pomp_report *b);
/* Writes r to a fresh temporary file and opens it again. */
pomp_report *fixture_round_trip(const pomp_report *r);
#endif
