/* mw_f08.h -- the helpers of libpomp-mpi's `use mpi_f08` routines
   (MPICH): defined in mw_f08.c, called by the routines gen_f08.py writes
   from mpi_f08.tbl (mw_f08_gen.c). */
#ifndef MW_F08_H
#define MW_F08_H

#include <stdlib.h>

#include "mw.h"

#ifdef MPICH
/* The C status of an f08 TYPE(MPI_Status) argument (MPI_STATUS_IGNORE
   for the f08 module's MPI_STATUS_IGNORE object). */
MPI_Status *mw_f08_status(MPI_Fint *s);
/* The same for an array of statuses (MPI_STATUSES_IGNORE). */
MPI_Status *mw_f08_statuses(MPI_Fint *s);
/* A malloc'ed C copy of Fortran characters (len of them, no NUL), without
   the trailing blanks, as MPICH's f08 routines pass strings on; NULL when
   memory is short. */
char *mw_f08_string(const char *f, size_t len);
/* C's weights array for an f08 one: MPI_UNWEIGHTED or MPI_WEIGHTS_EMPTY
   for the f08 module's objects of those names, else w. */
const int *mw_f08_weights(const int *w);
/* Sets the optional IERROR (NULL when absent) to rc. */
void mw_f08_done(MPI_Fint *ierror, int rc);
#endif

#endif
