/* mpiio_counts.c -- every rank of 2 writes and reads known amounts of one
   shared file through MPI-IO: individual (write_at/read_at), collective
   (write_at_all/read_at_all; rank 1 enters the write 0.3 s late),
   non-blocking (iwrite_at/iread_at + Wait).
   test/iowrap/iowrap_mpiio.sh checks trace and report against the numbers
   in the comments (bytes per rank). Built by pomp-cc. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum { IND = 1000, COLL = 500, NB = 200, SLICE = IND + COLL + NB };
static char buf[SLICE];

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  memset(buf, 'a' + rank, sizeof buf);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, "mpiio.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  MPI_Offset at = (MPI_Offset)rank * SLICE;
  MPI_Request req;
  /* written: 1000 + 500 + 200 */
  MPI_File_write_at(fh, at, buf, IND, MPI_BYTE, MPI_STATUS_IGNORE);
  /* rank 1 enters the collective write 0.3 s late: rank 0 waits in it */
  struct timespec late = {0, 300000000};
  if (rank == 1) nanosleep(&late, NULL);
  MPI_File_write_at_all(fh, at + IND, buf, COLL, MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_iwrite_at(fh, at + IND + COLL, buf, NB, MPI_BYTE, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  /* read: 1000 + 500 + 200 (100 ints) */
  MPI_File_read_at(fh, at, buf, IND, MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_read_at_all(fh, at + IND, buf, COLL, MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_iread_at(fh, at + IND + COLL, buf, NB / 4, MPI_INT, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  if (rank == 0) MPI_File_delete("mpiio.dat", MPI_INFO_NULL);
  MPI_Finalize();
  return 0;
}
