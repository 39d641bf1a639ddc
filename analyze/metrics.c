/* metrics.c -- the catalogue names behind the cell slots of az_metrics.h.  The
   metric tree itself (parents, descriptions, units) comes from
   pomp_report_add_catalogue; these names only locate our slots in it. */
#include "az_metrics.h"

const char *const az_metric_name[AZ_NUM_METRICS] = {
    [AZ_TIME] = "time",
    [AZ_EXECUTION] = "execution",
    [AZ_COMP] = "comp",
    [AZ_MPI] = "mpi",
    [AZ_MPI_MANAGEMENT] = "mpi_management",
    [AZ_MPI_SYNCHRONIZATION] = "mpi_synchronization",
    [AZ_MPI_BARRIER_WAIT] = "mpi_barrier_wait",
    [AZ_MPI_BARRIER_COMPLETION] = "mpi_barrier_completion",
    [AZ_MPI_COMMUNICATION] = "mpi_communication",
    [AZ_MPI_POINT2POINT] = "mpi_point2point",
    [AZ_MPI_LATESENDER] = "mpi_latesender",
    [AZ_MPI_LATESENDER_WO] = "mpi_latesender_wo",
    [AZ_MPI_LATERECEIVER] = "mpi_latereceiver",
    [AZ_MPI_COLLECTIVE] = "mpi_collective",
    [AZ_MPI_EARLYREDUCE] = "mpi_earlyreduce",
    [AZ_MPI_EARLYSCAN] = "mpi_earlyscan",
    [AZ_MPI_LATEBROADCAST] = "mpi_latebroadcast",
    [AZ_MPI_WAIT_NXN] = "mpi_wait_nxn",
    [AZ_MPI_NXN_COMPLETION] = "mpi_nxn_completion",
    [AZ_OMP] = "omp",
    [AZ_OMP_MANAGEMENT] = "omp_management",
    [AZ_OMP_SYNCHRONIZATION] = "omp_synchronization",
    [AZ_OMP_BARRIER] = "omp_barrier",
    [AZ_OMP_EBARRIER_WAIT] = "omp_ebarrier_wait",
    [AZ_OMP_IBARRIER_WAIT] = "omp_ibarrier_wait",
    [AZ_OMP_CRITICAL_CONTENTION] = "omp_critical_contention",
    [AZ_OMP_LOCK_CONTENTION] = "omp_lock_contention",
    [AZ_OMP_ORDERED] = "omp_ordered",
    [AZ_OMP_TASKWAIT] = "omp_taskwait",
    [AZ_OMP_FLUSH] = "omp_flush",
    [AZ_OMP_IDLE_THREADS] = "omp_idle_threads",
    [AZ_OMP_LIMITED_PARALLELISM] = "omp_limited_parallelism",
    [AZ_VISITS] = "visits",
    [AZ_BYTES_SENT] = "bytes_sent",
    [AZ_BYTES_RECEIVED] = "bytes_received",
    [AZ_DELAY] = "delay",
    [AZ_DELAY_MPI] = "delay_mpi",
    [AZ_DELAY_COLLECTIVE] = "delay_collective",
    [AZ_DELAY_BARRIER_AGGREGATE] = "delay_barrier_aggregate",
    [AZ_DELAY_BARRIER] = "delay_barrier",
    [AZ_DELAY_BARRIER_LONGTERM] = "delay_barrier_longterm",
    [AZ_DELAY_N2N_AGGREGATE] = "delay_n2n_aggregate",
    [AZ_DELAY_N2N] = "delay_n2n",
    [AZ_DELAY_N2N_LONGTERM] = "delay_n2n_longterm",
    [AZ_CRITICAL_PATH] = "critical_path",
    [AZ_CRITICAL_PATH_IMBALANCE] = "critical_path_imbalance",
    [AZ_PERFORMANCE_IMPACT] = "performance_impact",
    [AZ_PERFORMANCE_IMPACT_CRITICALPATH] = "performance_impact_criticalpath",
    [AZ_CRITICAL_PATH_ACTIVITIES] = "critical_path_activities",
    [AZ_CRITICAL_IMBALANCE_IMPACT] = "critical_imbalance_impact",
    [AZ_NON_CRITICAL_PATH_ACTIVITIES] = "non_critical_path_activities",
};

int az_metric_is_time(int m) {
  return (m >= 0 && m < AZ_VISITS) || (m >= AZ_DELAY && m < AZ_NUM_METRICS);
}

int az_metric_is_part(int m) {
  switch (m) {
  case AZ_MPI_BARRIER_WAIT:
  case AZ_MPI_BARRIER_COMPLETION:
  case AZ_MPI_LATESENDER:
  case AZ_MPI_LATESENDER_WO:
  case AZ_MPI_LATERECEIVER:
  case AZ_MPI_EARLYREDUCE:
  case AZ_MPI_LATEBROADCAST:
  case AZ_MPI_WAIT_NXN:
  case AZ_MPI_EARLYSCAN:
  case AZ_MPI_NXN_COMPLETION:
  case AZ_OMP_MANAGEMENT:
  case AZ_OMP_EBARRIER_WAIT:
  case AZ_OMP_IBARRIER_WAIT:
  case AZ_OMP_CRITICAL_CONTENTION:
  case AZ_OMP_LOCK_CONTENTION: return 1;
  default: return 0;
  }
}
