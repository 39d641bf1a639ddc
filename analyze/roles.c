/* roles.c -- which metric a region's exclusive time belongs to, from its
   paradigm, role and name (docs/PROPERTIES.md, "Time breakdown"; the rules
   follow Scalasca's remapping so both tools bucket a trace alike), and
   what kind of synchronisation an MPI collective in it is (az_coll_kind,
   for every pass). */
#include <otf2/otf2.h>
#include <string.h>
#include <strings.h>

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

/* The MPI calls whose instances synchronise, by name without "MPI_", as
   Scalasca 2.6 lists them (pearl's Region.cpp, classify_mpi): every other
   collective (neighbourhood, non-blocking, communicator and window
   creation, ...) is no synchronisation point, whatever its
   MpiCollectiveEnd's operation or its role say.  MPI_Finalize records
   no collective, but all processes synchronise there (Scalasca's Wait
   at Finalize; pass_waits.c makes its records). */
static const struct {
  const char *call;
  uint8_t coll;
} mpi_collectives[] = {
    {"barrier", AZ_COLL_BARRIER},
    {"bcast", AZ_COLL_12N},
    {"scatter", AZ_COLL_12N},
    {"scatterv", AZ_COLL_12N},
    {"reduce", AZ_COLL_N21},
    {"gather", AZ_COLL_N21},
    {"gatherv", AZ_COLL_N21},
    {"allgather", AZ_COLL_NXN},
    {"allgatherv", AZ_COLL_NXN},
    {"allreduce", AZ_COLL_NXN},
    {"alltoall", AZ_COLL_NXN},
    {"alltoallv", AZ_COLL_NXN},
    {"alltoallw", AZ_COLL_NXN},
    {"reduce_scatter", AZ_COLL_NXN},
    {"reduce_scatter_block", AZ_COLL_NXN},
    {"scan", AZ_COLL_PREFIX},
    {"exscan", AZ_COLL_PREFIX},
    {"finalize", AZ_COLL_FINALIZE},
};

/* An MPI region's az_coll_kind: a collective MPI-IO transfer by its role
   (pomp's own wait state; Scalasca has none), the rest by the call's name
   in any case (Scalasca lower-cases it), an MPI-4 large-count twin
   (MPI_Bcast_c) as its call. */
static uint8_t mpi_collective_kind(const az_region *r) {
  if (r->role == OTF2_REGION_ROLE_FILE_IO) return AZ_COLL_IO;
  if (strncasecmp(r->name, "MPI_", 4)) return AZ_COLL_NONE;
  const char *call = r->name + 4;
  size_t n = strlen(call);
  if (n > 2 && !strcasecmp(call + n - 2, "_c")) n -= 2;
  for (size_t i = 0; i < sizeof mpi_collectives / sizeof *mpi_collectives; i++)
    if (strlen(mpi_collectives[i].call) == n && !strncasecmp(call, mpi_collectives[i].call, n))
      return mpi_collectives[i].coll;
  return AZ_COLL_NONE;
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
  /* likewise the kind of a collective, for all passes alike */
  r->coll = r->paradigm == OTF2_PARADIGM_MPI ? mpi_collective_kind(r) : AZ_COLL_NONE;
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
