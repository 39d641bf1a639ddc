/* omp.h comes from another header: the lock call cannot be declared, so
   it is left alone with a warning (never an undeclared call). */
#include "locks_header.h"
void k(omp_lock_t *l) { omp_set_lock(l); omp_unset_lock(l); }
