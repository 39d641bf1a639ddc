/* sc.h -- hand-instrumented test programs: descriptors as pomp-opari
   generates them (one static OMPRegDescr per construct, data zeroed). */
#ifndef SC_H
#define SC_H

#include "pomp.h"

/* DESCR(var, construct, sub_name, file, first line, last line) */
#define DESCR(var, construct, sub, file, begin, end) \
  static OMPRegDescr var = {construct, sub, 0, file, begin, begin, end, end, {0}, 0}

/* A barrier as pomp-opari instruments it: an explicit one with its own
   descriptor, an implicit one with the enclosing construct's. */
#define SC_BARRIER(descr)  \
  POMP_Barrier_enter(descr); \
  _Pragma("omp barrier")   \
  POMP_Barrier_exit(descr)

#endif
