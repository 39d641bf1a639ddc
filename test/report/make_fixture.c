/* make_fixture VARIANT FILE -- writes a fixture report for the CLI tests:
     plain  the fixture of fixture.h
     empty  its definitions without values
     extra  the fixture plus 1 on comp/main;solve/rank 0 thread 0, and a
            new metric bytes_sent = 64 on a new call path main;MPI_Send of
            a new location rank 2 thread 0
     incomplete  the fixture of a run that did not finish (run_status)
     own    the fixture with more in the own parts of time and mpi: time
            0.5 s on main;TRACE BUFFER FLUSH (rank 1 thread 0) and 0.25 s
            on main;solve;TRACE BUFFER FLUSH (rank 0 thread 0), so its own
            part is 1.25 s, 60 % flush; mpi 0.6 s each on main;MPI_Init
            and main;MPI_Barrier (rank 0 thread 0), so its own part is
            2.2 s, 45 % MPI_Recv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "fixture.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: make_fixture plain|empty|extra|incomplete|own FILE\n");
    return 2;
  }
  pomp_report *r = fixture_new();
  if (strcmp(argv[1], "empty") == 0) { /* the writer with no rows */
    pomp_report_writer *w = pomp_report_write_begin(r, argv[2], NULL);
    int rc = !w || pomp_report_write_end(w, NULL) != POMP_REPORT_OK;
    pomp_report_free(r);
    return rc;
  }
  if (strcmp(argv[1], "extra") == 0) {
    pomp_report_add_value(r, 1, 1, 0, 1.0);
    int32_t bytes = pomp_report_add_metric(r, "bytes_sent", "Bytes Sent",
                                           POMP_UNIT_BYTES, "", -1);
    int32_t send = pomp_report_add_region(r, "MPI_Send", "", 0, 0, "mpi",
                                          "point2point");
    int32_t cnode = pomp_report_add_cnode(r, send, 0);
    int32_t p = pomp_report_add_sysnode(r, POMP_SYS_PROCESS, "rank 2", 1, 2, -1);
    pomp_report_add_sysnode(r, POMP_SYS_THREAD, "thread 0", p, 2, 0);
    pomp_report_add_value(r, bytes, cnode, 4, 64.0);
  }
  if (strcmp(argv[1], "own") == 0) {
    int32_t flush = pomp_report_add_region(r, "TRACE BUFFER FLUSH", "", 0, 0,
                                           "measurement", "artificial");
    pomp_report_add_value(r, 0, pomp_report_add_cnode(r, flush, 0), 2, 0.5);
    pomp_report_add_value(r, 0, pomp_report_add_cnode(r, flush, 1), 0, 0.25);
    static const char *const mpi_calls[] = {"MPI_Init", "MPI_Barrier"};
    for (int i = 0; i < 2; i++) {
      int32_t g = pomp_report_add_region(r, mpi_calls[i], "", 0, 0, "mpi",
                                         "function");
      pomp_report_add_value(r, 2, pomp_report_add_cnode(r, g, 0), 0, 0.6);
    }
  }
  if (strcmp(argv[1], "incomplete") == 0)
    pomp_report_set_attr(r, POMP_REPORT_RUN_STATUS,
                         "incomplete: rank 1 called MPI_Abort(MPI_COMM_WORLD, "
                         "3); rank 0 ended at its last flush");
  pomp_report_error err;
  if (pomp_report_write(r, argv[2], &err) != POMP_REPORT_OK) {
    fprintf(stderr, "make_fixture: %s\n", err.message);
    return 1;
  }
  pomp_report_free(r);
  return 0;
}
