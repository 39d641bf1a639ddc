/* az_critical.h -- what the critical-path pass (pass_critical.c) leaves for
   the step that derives Scalasca's critical-path metrics from it
   (pass_critical_impact.c), and the limits of the model.
   Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_CRITICAL_H
#define POMP_AZ_CRITICAL_H

#include <stddef.h>

#include "az.h"

/* Where the model of the delay costs and of the critical path does not
   hold (Scalasca's known limits), as bits. */
enum {
  AZ_LIMIT_TASKS = 1,      /* OpenMP tasks */
  AZ_LIMIT_NESTED = 2,     /* nested parallel regions, threads outside a team */
  AZ_LIMIT_MPI_THREADS = 4 /* MPI calls on a thread other than the first */
};

/* After the backward walk: AZ_CRITICAL_PATH holds each (call path,
   location)'s time on the critical path.  Derives critical_path_imbalance
   and the performance_impact tree from it and from the forward pass's
   times (docs/PROPERTIES.md, "Critical path"). */
void az_critical_impact(az_analysis *a);

/* az_critical_impact, then az_critical_limits when limits is not 0: what
   the critical-path pass does at its end, once the walk's values and
   every other value are in. */
void az_critical_derive(az_analysis *a, unsigned limits);

/* The model's limits met (bits of AZ_LIMIT_*, kept in a->model_limits):
   the delay costs and the critical-path metrics are removed and
   az_critical_warn says why. */
void az_critical_limits(az_analysis *a, unsigned limits);
/* One warning per limit in a->model_limits (again after the parallel
   analysis's re-reading, whose warnings are not counted). */
void az_critical_warn(az_analysis *a);
/* Why the limits void values, for the report ("the trace has OpenMP tasks
   and ...", no parentheses, no ';'), written like snprintf into why;
   returns the first slot they void (AZ_RECOUNT_LAST + 1: none). */
int az_critical_limits_why(unsigned limits, char *why, size_t size);

/* limits.c: the model's limits as the call paths show them (AZ_LIMIT_*
   bits), for an analysis without the critical-path walk that finds them
   (--no-critical-path): a region of an OpenMP task, an MPI call on a
   location other than its process's first, a parallel region inside
   another.  Before the cells are finished (az_cells_finish). */
unsigned az_model_limits_scan(const az_analysis *a);
/* The delay costs computed without the walk (a->switched_off is
   AZ_OFF_CRITICAL_PATH alone): az_critical_limits with the scan's limits;
   else nothing. */
void az_model_limits_without_walk(az_analysis *a);

#endif
