/* roles.c -- which metric a region's exclusive time belongs to, from its
   paradigm, role and name (docs/PROPERTIES.md, "Time breakdown"; the rules
   follow Scalasca's remapping so both tools bucket a trace alike). */
#include <otf2/otf2.h>
#include <string.h>

#include "az_defs.h"
#include "az_metrics.h"
#include "otf2_names.h"

static int has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static void classify_mpi(az_region *r) {
  switch (r->role) {
  case OTF2_REGION_ROLE_BARRIER:
    r->bucket = AZ_MPI_SYNCHRONIZATION;
    r->kind = AZ_RK_MPI_COLL;
    return;
  case OTF2_REGION_ROLE_POINT2POINT: r->bucket = AZ_MPI_POINT2POINT; return;
  case OTF2_REGION_ROLE_COLL_ONE2ALL:
  case OTF2_REGION_ROLE_COLL_ALL2ONE:
  case OTF2_REGION_ROLE_COLL_ALL2ALL:
  case OTF2_REGION_ROLE_COLL_OTHER:
    r->bucket = AZ_MPI_COLLECTIVE;
    r->kind = AZ_RK_MPI_COLL;
    return;
  default: break;
  }
  int rma = az_metric_slot(pu_mpi_rma_metric(r->name));
  if (rma >= 0) r->bucket = (uint8_t)rma;
  else if (pu_mpi_is_management(r->name)) r->bucket = AZ_MPI_MANAGEMENT;
  else if (has_prefix(r->name, "MPI_Wait") || has_prefix(r->name, "MPI_Test"))
    r->bucket = AZ_MPI_POINT2POINT;
  else r->bucket = AZ_MPI;
}

/* Score-P's OMPT adapter gives taskwait and taskgroup the role BARRIER:
   one thread waits for its child tasks there, not the team for each other. */
static int is_task_wait(const az_region *r) {
  return r->role == OTF2_REGION_ROLE_BARRIER &&
         (has_prefix(r->name, "!$omp taskwait") || has_prefix(r->name, "!$omp taskgroup"));
}

static void classify_openmp(az_region *r) {
  if (is_task_wait(r)) {
    r->bucket = AZ_OMP_TASKWAIT;
    return;
  }
  switch (r->role) {
  case OTF2_REGION_ROLE_PARALLEL:
    r->kind = AZ_RK_PARALLEL;
    r->bucket = AZ_COMP;
    return;
  case OTF2_REGION_ROLE_BARRIER:
    r->kind = AZ_RK_EBARRIER;
    r->bucket = AZ_OMP_BARRIER;
    return;
  case OTF2_REGION_ROLE_IMPLICIT_BARRIER:
    r->kind = AZ_RK_IBARRIER;
    r->bucket = AZ_OMP_BARRIER;
    return;
  case OTF2_REGION_ROLE_CRITICAL:
    r->kind = AZ_RK_CRITICAL;
    r->bucket = AZ_OMP_SYNCHRONIZATION;
    return;
  case OTF2_REGION_ROLE_ATOMIC: r->bucket = AZ_OMP_SYNCHRONIZATION; return;
  /* Scalasca's own buckets: the exclusive time of the region is waiting
     for the previous iteration / for child tasks (the ordered body and the
     tasks run meanwhile are regions of their own) */
  case OTF2_REGION_ROLE_ORDERED: r->bucket = AZ_OMP_ORDERED; return;
  case OTF2_REGION_ROLE_TASK_WAIT: r->bucket = AZ_OMP_TASKWAIT; return;
  case OTF2_REGION_ROLE_FLUSH: r->bucket = AZ_OMP_FLUSH; return;
  case OTF2_REGION_ROLE_TASK_CREATE: r->bucket = AZ_OMP; return;
  default: break;
  }
  if (has_prefix(r->name, "omp_") && strstr(r->name, "lock")) {
    r->bucket = AZ_OMP_SYNCHRONIZATION;
    if (!strcmp(r->name, "omp_set_lock") || !strcmp(r->name, "omp_set_nest_lock"))
      r->kind = AZ_RK_LOCK_SET;
    return;
  }
  r->bucket = AZ_COMP; /* parallel, loop, single, master bodies: user code */
}

void az_region_classify(az_region *r) {
  r->kind = AZ_RK_PLAIN;
  r->bucket = AZ_COMP;
  /* nothing waits in a Test, nor in the MPI_Request_free that hands an
     active send over to MPI: decided once here, not per completion */
  r->no_wait = has_prefix(r->name, "MPI_Test") || !strcmp(r->name, "MPI_Request_free");
  /* file I/O by its role, whatever the paradigm (libpomp-io's regions
     have none: OTF2 has no I/O paradigm) */
  if (r->role == OTF2_REGION_ROLE_FILE_IO || r->role == OTF2_REGION_ROLE_FILE_IO_METADATA) {
    r->bucket = r->paradigm == OTF2_PARADIGM_MPI ? AZ_MPI_IO : AZ_POSIX_IO;
    return;
  }
  switch (r->paradigm) {
  case OTF2_PARADIGM_MPI: classify_mpi(r); break;
  case OTF2_PARADIGM_OPENMP: classify_openmp(r); break;
  case OTF2_PARADIGM_MEASUREMENT_SYSTEM: r->bucket = AZ_EXECUTION; break;
  default: break;
  }
}
