/*
 * pm_fortran.c -- the POMP lock twins for Fortran callers (pomp.h).
 *
 * A Fortran lock is an INTEGER of kind omp_lock_kind (4) or
 * omp_nest_lock_kind (8) in gfortran's omp_lib.  libgomp keeps the C lock
 * in that integer when it fits, and otherwise keeps a pointer to a lock it
 * allocates at init and frees at destroy (its fortran.c, omp_lock_arg).
 * The twins follow the same rule, so a lock may be created by
 * instrumented code and used by uninstrumented code and vice versa; they
 * then call the C twins, which record the events.  The test twins are
 * reached through the omp_test_[nest_]lock_ a unit's companion defines
 * (opari/f_unit.c: the Fortran source keeps the function's name).
 *
 * Everything else Fortran needs lives in the companion C file pomp-opari
 * writes per unit (descriptors and pomp_<unit>_<event> routines): no
 * global table, no state file.  Only the public POMP API is used here, so
 * a test POMP library can link this file too.
 */
#include <omp.h>
#include <stdlib.h>

#include "pomp.h"

/* gfortran's omp_lib kinds */
enum { FORTRAN_LOCK_KIND = 4, FORTRAN_NEST_LOCK_KIND = 8 };

#define IN_PLACE(type, kind) (sizeof(type) == (kind) && _Alignof(type) <= (kind))

/* The C lock behind a Fortran lock variable. */
#define C_LOCK(type, kind, f) (IN_PLACE(type, kind) ? (type *)(f) : *(type **)(f))

/* A fresh C lock for an init: in place, or allocated like libgomp does. */
#define NEW_LOCK(type, kind, f)                                                                    \
  (IN_PLACE(type, kind) ? (type *)(f) : (*(type **)(f) = malloc(sizeof(type))))

static void no_memory(void) { abort(); /* as libgomp's allocation failure */ }

void POMP_Fortran_init_lock(void *f) {
  omp_lock_t *l = NEW_LOCK(omp_lock_t, FORTRAN_LOCK_KIND, f);
  if (!l) no_memory();
  POMP_Init_lock(l);
}

void POMP_Fortran_destroy_lock(void *f) {
  POMP_Destroy_lock(C_LOCK(omp_lock_t, FORTRAN_LOCK_KIND, f));
  if (!IN_PLACE(omp_lock_t, FORTRAN_LOCK_KIND)) free(*(omp_lock_t **)f);
}

void POMP_Fortran_set_lock(void *f) { POMP_Set_lock(C_LOCK(omp_lock_t, FORTRAN_LOCK_KIND, f)); }

void POMP_Fortran_unset_lock(void *f) { POMP_Unset_lock(C_LOCK(omp_lock_t, FORTRAN_LOCK_KIND, f)); }

int POMP_Fortran_test_lock(void *f) {
  return POMP_Test_lock(C_LOCK(omp_lock_t, FORTRAN_LOCK_KIND, f));
}

void POMP_Fortran_init_nest_lock(void *f) {
  omp_nest_lock_t *l = NEW_LOCK(omp_nest_lock_t, FORTRAN_NEST_LOCK_KIND, f);
  if (!l) no_memory();
  POMP_Init_nest_lock(l);
}

void POMP_Fortran_destroy_nest_lock(void *f) {
  POMP_Destroy_nest_lock(C_LOCK(omp_nest_lock_t, FORTRAN_NEST_LOCK_KIND, f));
  if (!IN_PLACE(omp_nest_lock_t, FORTRAN_NEST_LOCK_KIND)) free(*(omp_nest_lock_t **)f);
}

void POMP_Fortran_set_nest_lock(void *f) {
  POMP_Set_nest_lock(C_LOCK(omp_nest_lock_t, FORTRAN_NEST_LOCK_KIND, f));
}

void POMP_Fortran_unset_nest_lock(void *f) {
  POMP_Unset_nest_lock(C_LOCK(omp_nest_lock_t, FORTRAN_NEST_LOCK_KIND, f));
}

int POMP_Fortran_test_nest_lock(void *f) {
  return POMP_Test_nest_lock(C_LOCK(omp_nest_lock_t, FORTRAN_NEST_LOCK_KIND, f));
}
