/* otf2_names.c -- see otf2_names.h. */
#include "otf2_names.h"

#include <string.h>

static const char *const paradigm_names[] = {[OTF2_PARADIGM_USER] = "user",
                                             [OTF2_PARADIGM_COMPILER] = "compiler",
                                             [OTF2_PARADIGM_OPENMP] = "openmp",
                                             [OTF2_PARADIGM_MPI] = "mpi",
                                             [OTF2_PARADIGM_MEASUREMENT_SYSTEM] = "measurement"};

/* Indexed by OTF2_RegionRole, whose values are dense from 0. */
static const char *const role_names[] = {"unknown",
                                         "function",
                                         "wrapper",
                                         "loop",
                                         "code",
                                         "parallel",
                                         "sections",
                                         "section",
                                         "workshare",
                                         "single",
                                         "single_sblock",
                                         "master",
                                         "critical",
                                         "critical_sblock",
                                         "atomic",
                                         "barrier",
                                         "implicit_barrier",
                                         "flush",
                                         "ordered",
                                         "ordered_sblock",
                                         "task",
                                         "task_create",
                                         "task_wait",
                                         "coll_one2all",
                                         "coll_all2one",
                                         "coll_all2all",
                                         "coll_other",
                                         "file_io",
                                         "point2point",
                                         "rma",
                                         "data_transfer",
                                         "artificial",
                                         "thread_create",
                                         "thread_wait",
                                         "task_untied",
                                         "allocate",
                                         "deallocate",
                                         "reallocate",
                                         "file_io_metadata"};

#define COUNT(a) (sizeof(a) / sizeof *(a))

static const char *name_at(const char *const *names, size_t n, unsigned i) {
  return i < n && names[i] ? names[i] : "unknown";
}

static int index_of(const char *const *names, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (names[i] && strcmp(names[i], s) == 0) return (int)i;
  return -1;
}

const char *pu_paradigm_name(OTF2_Paradigm p) {
  return name_at(paradigm_names, COUNT(paradigm_names), p);
}

const char *pu_role_name(OTF2_RegionRole r) { return name_at(role_names, COUNT(role_names), r); }

int pu_paradigm_by_name(const char *name) {
  return index_of(paradigm_names, COUNT(paradigm_names), name);
}

int pu_role_by_name(const char *name) { return index_of(role_names, COUNT(role_names), name); }

static int has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

int pu_mpi_is_management(const char *name) {
  static const char *const prefixes[] = {
      "MPI_Init",      "MPI_Finalize",    "MPI_Comm_",          "MPI_Group_",
      "MPI_Cart_",     "MPI_Graph",       "MPI_Dist_graph",     "MPI_Intercomm_",
      "MPI_Topo_test", "MPI_Dims_create", "MPI_Is_thread_main", "MPI_Query_thread"};
  for (size_t i = 0; i < COUNT(prefixes); i++)
    if (has_prefix(name, prefixes[i])) return 1;
  return 0;
}

/* The metric of an MPI one-sided call's time (Scalasca's buckets), or
   NULL for other calls. Names are matched whole (MPI_Get is RMA,
   MPI_Get_count is not), with or without the large-count "_c". */
const char *pu_mpi_rma_metric(const char *name) {
  static const struct {
    const char *name, *metric;
  } calls[] = {
      {"MPI_Win_create", "mpi_management"},
      {"MPI_Win_allocate", "mpi_management"},
      {"MPI_Win_allocate_shared", "mpi_management"},
      {"MPI_Win_create_dynamic", "mpi_management"},
      {"MPI_Win_attach", "mpi_management"},
      {"MPI_Win_detach", "mpi_management"},
      {"MPI_Win_free", "mpi_management"},
      {"MPI_Win_fence", "mpi_rma_sync_active"},
      {"MPI_Win_post", "mpi_rma_sync_active"},
      {"MPI_Win_start", "mpi_rma_sync_active"},
      {"MPI_Win_complete", "mpi_rma_sync_active"},
      {"MPI_Win_wait", "mpi_rma_sync_active"},
      {"MPI_Win_test", "mpi_rma_sync_active"},
      {"MPI_Win_lock", "mpi_rma_sync_passive"},
      {"MPI_Win_unlock", "mpi_rma_sync_passive"},
      {"MPI_Win_lock_all", "mpi_rma_sync_passive"},
      {"MPI_Win_unlock_all", "mpi_rma_sync_passive"},
      {"MPI_Win_flush", "mpi_rma_sync_passive"},
      {"MPI_Win_flush_all", "mpi_rma_sync_passive"},
      {"MPI_Win_flush_local", "mpi_rma_sync_passive"},
      {"MPI_Win_flush_local_all", "mpi_rma_sync_passive"},
      {"MPI_Win_sync", "mpi_rma_sync_passive"},
      {"MPI_Put", "mpi_rma_communication"},
      {"MPI_Get", "mpi_rma_communication"},
      {"MPI_Accumulate", "mpi_rma_communication"},
      {"MPI_Get_accumulate", "mpi_rma_communication"},
      {"MPI_Fetch_and_op", "mpi_rma_communication"},
      {"MPI_Compare_and_swap", "mpi_rma_communication"},
      {"MPI_Rput", "mpi_rma_communication"},
      {"MPI_Rget", "mpi_rma_communication"},
      {"MPI_Raccumulate", "mpi_rma_communication"},
      {"MPI_Rget_accumulate", "mpi_rma_communication"},
  };
  if (!has_prefix(name, "MPI_")) return NULL;
  size_t len = strlen(name);
  if (len > 2 && !strcmp(name + len - 2, "_c")) len -= 2;
  for (size_t i = 0; i < COUNT(calls); i++)
    if (strlen(calls[i].name) == len && !strncmp(name, calls[i].name, len)) return calls[i].metric;
  return NULL;
}

/* Region roles whose time has a metric of its own, per paradigm. */
static const struct {
  OTF2_Paradigm paradigm;
  OTF2_RegionRole role;
  const char *metric;
} role_metrics[] = {
    {OTF2_PARADIGM_MPI, OTF2_REGION_ROLE_BARRIER, "mpi_synchronization"},
    {OTF2_PARADIGM_MPI, OTF2_REGION_ROLE_POINT2POINT, "mpi_point2point"},
    {OTF2_PARADIGM_MPI, OTF2_REGION_ROLE_COLL_ONE2ALL, "mpi_collective"},
    {OTF2_PARADIGM_MPI, OTF2_REGION_ROLE_COLL_ALL2ONE, "mpi_collective"},
    {OTF2_PARADIGM_MPI, OTF2_REGION_ROLE_COLL_ALL2ALL, "mpi_collective"},
    {OTF2_PARADIGM_MPI, OTF2_REGION_ROLE_COLL_OTHER, "mpi_collective"},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_BARRIER, "omp_barrier"},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_IMPLICIT_BARRIER, "omp_barrier"},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_CRITICAL, "omp_synchronization"},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_ATOMIC, "omp_synchronization"},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_ORDERED, "omp_ordered"},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_TASK_WAIT, "omp_taskwait"},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_FLUSH, "omp_flush"},
    {OTF2_PARADIGM_OPENMP, OTF2_REGION_ROLE_TASK_CREATE, "omp"},
};

const char *pu_region_time_metric(OTF2_Paradigm paradigm, OTF2_RegionRole role, const char *name) {
  if (role == OTF2_REGION_ROLE_FILE_IO || role == OTF2_REGION_ROLE_FILE_IO_METADATA)
    return paradigm == OTF2_PARADIGM_MPI ? "mpi_io" : "posix_io";
  for (size_t i = 0; i < COUNT(role_metrics); i++)
    if (role_metrics[i].paradigm == paradigm && role_metrics[i].role == role)
      return role_metrics[i].metric;
  switch (paradigm) {
  case OTF2_PARADIGM_MPI:
    if (pu_mpi_rma_metric(name)) return pu_mpi_rma_metric(name);
    if (pu_mpi_is_management(name)) return "mpi_management";
    if (has_prefix(name, "MPI_Wait") || has_prefix(name, "MPI_Test")) return "mpi_point2point";
    return "mpi";
  case OTF2_PARADIGM_OPENMP: /* the lock API; constructs' bodies are user code */
    return has_prefix(name, "omp_") && strstr(name, "lock") ? "omp_synchronization" : "comp";
  case OTF2_PARADIGM_MEASUREMENT_SYSTEM: return "execution";
  default: return "comp";
  }
}
