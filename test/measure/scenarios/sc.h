/* sc.h -- hand-instrumented test programs: descriptors as pomp-opari
   generates them (one static OMPRegDescr per construct, data zeroed). */
#ifndef SC_H
#define SC_H

#include "pomp.h"

/* DESCR(var, construct, sub_name, file, first line, last line) */
#define DESCR(var, construct, sub, file, begin, end) \
  static OMPRegDescr var = {construct, sub, 0, file, begin, begin, end, end, {0}, 0}

#endif
