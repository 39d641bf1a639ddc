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
   mw_f08_gen.c, calling the helpers below); written here: Init and
   Init_thread, whose f08 forms lack C's argc/argv, and the MPI-IO routines
   without a buffer (mpio.h's prototypes, which the generator reads, name
   no parameter). An MPI_File is a pointer in MPICH: the program holds the
   integer MPI_File_c2f gave, as with MPICH's own routines, whose buffered
   File_ routines (File_write_all, ...) reach the C wrappers through
   MPI_File_f2c. Not covered: routines with output strings or callbacks
   (README, Known limits). */
#include "mw_f08.h"

#include <string.h>

#ifdef MPICH

_Static_assert(sizeof(MPI_Comm) == sizeof(MPI_Fint) && sizeof(MPI_Request) == sizeof(MPI_Fint) &&
                   sizeof(MPI_Group) == sizeof(MPI_Fint) && sizeof(MPI_Win) == sizeof(MPI_Fint) &&
                   sizeof(MPI_Info) == sizeof(MPI_Fint) &&
                   sizeof(MPI_Datatype) == sizeof(MPI_Fint) &&
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

/* MPICH's f08 module (gfortran) defines MPI_UNWEIGHTED and
   MPI_WEIGHTS_EMPTY as objects of module mpi_f08_link_constants; MPICH's
   own f08 routines compare a weights argument's address with theirs.  Weak:
   a program that does not use the f08 module does not load them. */
extern int __mpi_f08_link_constants_MOD_mpi_unweighted __attribute__((weak));
extern int __mpi_f08_link_constants_MOD_mpi_weights_empty __attribute__((weak));

const int *mw_f08_weights(const int *w) {
  if (w && w == &__mpi_f08_link_constants_MOD_mpi_unweighted) return MPI_UNWEIGHTED;
  if (w && w == &__mpi_f08_link_constants_MOD_mpi_weights_empty) return MPI_WEIGHTS_EMPTY;
  return w;
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

/* ------------------------------------------------------------------ files */

void mpi_file_open_f08_(const MPI_Fint *comm, const char *filename, const MPI_Fint *amode,
                        const MPI_Fint *info, MPI_Fint *fh, MPI_Fint *ierror, size_t filename_len) {
  char *name = mw_f08_string(filename, filename_len);
  MPI_File file = MPI_FILE_NULL;
  int rc = name ? MPI_File_open(*comm, name, *amode, *info, &file) : MPI_ERR_NO_MEM;
  free(name);
  *fh = MPI_File_c2f(file);
  mw_f08_done(ierror, rc);
}

void mpi_file_close_f08_(MPI_Fint *fh, MPI_Fint *ierror) {
  MPI_File file = MPI_File_f2c(*fh);
  int rc = MPI_File_close(&file);
  *fh = MPI_File_c2f(file);
  mw_f08_done(ierror, rc);
}

void mpi_file_delete_f08_(const char *filename, const MPI_Fint *info, MPI_Fint *ierror,
                          size_t filename_len) {
  char *name = mw_f08_string(filename, filename_len);
  mw_f08_done(ierror, name ? MPI_File_delete(name, *info) : MPI_ERR_NO_MEM);
  free(name);
}

void mpi_file_set_view_f08_(const MPI_Fint *fh, const MPI_Offset *disp, const MPI_Fint *etype,
                            const MPI_Fint *filetype, const char *datarep, const MPI_Fint *info,
                            MPI_Fint *ierror, size_t datarep_len) {
  char *rep = mw_f08_string(datarep, datarep_len);
  mw_f08_done(ierror,
              rep ? MPI_File_set_view(MPI_File_f2c(*fh), *disp, *etype, *filetype, rep, *info)
                  : MPI_ERR_NO_MEM);
  free(rep);
}

void mpi_file_set_size_f08_(const MPI_Fint *fh, const MPI_Offset *size, MPI_Fint *ierror) {
  mw_f08_done(ierror, MPI_File_set_size(MPI_File_f2c(*fh), *size));
}

void mpi_file_preallocate_f08_(const MPI_Fint *fh, const MPI_Offset *size, MPI_Fint *ierror) {
  mw_f08_done(ierror, MPI_File_preallocate(MPI_File_f2c(*fh), *size));
}

void mpi_file_seek_f08_(const MPI_Fint *fh, const MPI_Offset *offset, const MPI_Fint *whence,
                        MPI_Fint *ierror) {
  mw_f08_done(ierror, MPI_File_seek(MPI_File_f2c(*fh), *offset, *whence));
}

void mpi_file_seek_shared_f08_(const MPI_Fint *fh, const MPI_Offset *offset, const MPI_Fint *whence,
                               MPI_Fint *ierror) {
  mw_f08_done(ierror, MPI_File_seek_shared(MPI_File_f2c(*fh), *offset, *whence));
}

void mpi_file_sync_f08_(const MPI_Fint *fh, MPI_Fint *ierror) {
  mw_f08_done(ierror, MPI_File_sync(MPI_File_f2c(*fh)));
}

#endif
