/* mw_f08.c -- `use mpi_f08` programs with MPICH.

   MPICH 4.0.2's mpi_f08 routines that take a choice buffer (Send, Recv,
   Isend, Allreduce, ...) reach the C MPI_ functions and so the wrappers;
   the others call PMPI_ directly (checked with objdump: mpi_barrier_f08_
   calls PMPI_Barrier, mpi_init_f08_ PMPI_Init, mpi_wait_f08_ PMPI_Wait),
   so a program would be recorded without MPI_Init, its Waits or its
   communicators. The routines below take their place, under the same
   symbols (mpi_<name>_f08_), and do what MPICH's do -- pass the arguments
   to the C binding, absent optional IERROR = NULL, the f08 STATUS(ES)_IGNORE
   objects mapped to C's -- but call the C MPI_ wrapper instead of PMPI_.
   In MPICH a Fortran handle, request array and TYPE(MPI_Status) have the
   C layout (handles are ints), and, like MPICH 4.0.2's own f08 routines,
   the indices of Waitany/Waitsome/Testany/Testsome are passed through
   unchanged. The routines are generated from mpi_f08.tbl (gen_f08.py,
   mw_f08_gen.c, calling the helpers below); only Init and Init_thread, whose f08
   forms lack C's argc/argv, are written here. Not covered: routines with
   output strings, callbacks, weights or files (README, Known limits). */
#include "mw_f08.h"

#include <string.h>

#ifdef MPICH

_Static_assert(sizeof(MPI_Comm) == sizeof(MPI_Fint) && sizeof(MPI_Request) == sizeof(MPI_Fint) &&
                   sizeof(MPI_Group) == sizeof(MPI_Fint) && sizeof(MPI_Win) == sizeof(MPI_Fint) &&
                   sizeof(MPI_Info) == sizeof(MPI_Fint) &&
                   sizeof(MPI_Message) == sizeof(MPI_Fint) &&
                   sizeof(MPI_Errhandler) == sizeof(MPI_Fint) &&
                   sizeof(MPI_Session) == sizeof(MPI_Fint) && sizeof(int) == sizeof(MPI_Fint),
               "MPICH handles are Fortran integers");
_Static_assert(sizeof(MPI_Status) == sizeof(MPI_F08_status), "f08 statuses have the C layout");

/* The f08 module's MPI_STATUS(ES)_IGNORE are objects whose addresses the
   C binding knows (MPI-4: MPI_F08_STATUS(ES)_IGNORE). */
MPI_Status *mw_f08_status(MPI_Fint *s) {
  return (MPI_F08_status *)s == MPI_F08_STATUS_IGNORE ? MPI_STATUS_IGNORE : (MPI_Status *)s;
}

MPI_Status *mw_f08_statuses(MPI_Fint *s) {
  return (MPI_F08_status *)s == MPI_F08_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : (MPI_Status *)s;
}

char *mw_f08_string(const char *f, size_t len) {
  while (len > 0 && f[len - 1] == ' ') len--;
  char *c = malloc(len + 1);
  if (!c) return NULL;
  memcpy(c, f, len);
  c[len] = '\0';
  return c;
}

void mw_f08_done(MPI_Fint *ierror, int rc) {
  if (ierror) *ierror = rc;
}

/* ----------------------------------------------------------- environment */

void mpi_init_f08_(MPI_Fint *ierror) { mw_f08_done(ierror, MPI_Init(NULL, NULL)); }

void mpi_init_thread_f08_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror) {
  int p = 0, rc = MPI_Init_thread(NULL, NULL, *required, &p);
  *provided = p;
  mw_f08_done(ierror, rc);
}

#endif
