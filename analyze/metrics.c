/* metrics.c -- the catalogue names behind the cell slots of az_metrics.h.  The
   metric tree itself (parents, descriptions, units) comes from
   pomp_report_add_catalogue; these names only locate our slots in it. */
#include "az_metrics.h"

#include <string.h>

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
    [AZ_DELAY_N21_AGGREGATE] = "delay_n21_aggregate",
    [AZ_DELAY_N21] = "delay_n21",
    [AZ_DELAY_N21_LONGTERM] = "delay_n21_longterm",
    [AZ_DELAY_12N_AGGREGATE] = "delay_12n_aggregate",
    [AZ_DELAY_12N] = "delay_12n",
    [AZ_DELAY_12N_LONGTERM] = "delay_12n_longterm",
    [AZ_DELAY_P2P] = "delay_p2p",
    [AZ_DELAY_LATESENDER_AGGREGATE] = "delay_latesender_aggregate",
    [AZ_DELAY_LATESENDER] = "delay_latesender",
    [AZ_DELAY_LATESENDER_LONGTERM] = "delay_latesender_longterm",
    [AZ_DELAY_LATERECEIVER_AGGREGATE] = "delay_latereceiver_aggregate",
    [AZ_DELAY_LATERECEIVER] = "delay_latereceiver",
    [AZ_DELAY_LATERECEIVER_LONGTERM] = "delay_latereceiver_longterm",
    [AZ_WAITSTATES_PROPAGATING_VS_TERMINAL] = "waitstates_propagating_vs_terminal",
    [AZ_MPI_WAIT_PROPAGATING] = "mpi_wait_propagating",
    [AZ_MPI_WAIT_PROPAGATING_LATESENDER] = "mpi_wait_propagating_latesender",
    [AZ_MPI_WAIT_PROPAGATING_LATERECEIVER] = "mpi_wait_propagating_latereceiver",
    [AZ_MPI_WAIT_TERMINAL] = "mpi_wait_terminal",
    [AZ_MPI_WAIT_TERMINAL_LATESENDER] = "mpi_wait_terminal_latesender",
    [AZ_MPI_WAIT_TERMINAL_LATERECEIVER] = "mpi_wait_terminal_latereceiver",
    [AZ_WAITSTATES_DIRECT_VS_INDIRECT] = "waitstates_direct_vs_indirect",
    [AZ_MPI_WAIT_DIRECT] = "mpi_wait_direct",
    [AZ_MPI_WAIT_DIRECT_LATESENDER] = "mpi_wait_direct_latesender",
    [AZ_MPI_WAIT_DIRECT_LATERECEIVER] = "mpi_wait_direct_latereceiver",
    [AZ_MPI_WAIT_INDIRECT] = "mpi_wait_indirect",
    [AZ_MPI_WAIT_INDIRECT_LATESENDER] = "mpi_wait_indirect_latesender",
    [AZ_MPI_WAIT_INDIRECT_LATERECEIVER] = "mpi_wait_indirect_latereceiver",
    [AZ_DELAY_OMP] = "delay_omp",
    [AZ_DELAY_OMPBARRIER_AGGREGATE] = "delay_ompbarrier_aggregate",
    [AZ_DELAY_OMPBARRIER] = "delay_ompbarrier",
    [AZ_DELAY_OMPBARRIER_LONGTERM] = "delay_ompbarrier_longterm",
    [AZ_DELAY_OMPIDLE_AGGREGATE] = "delay_ompidle_aggregate",
    [AZ_DELAY_OMPIDLE] = "delay_ompidle",
    [AZ_DELAY_OMPIDLE_LONGTERM] = "delay_ompidle_longterm",
    [AZ_CRITICAL_PATH] = "critical_path",
    [AZ_CRITICAL_PATH_IMBALANCE] = "critical_path_imbalance",
    [AZ_PERFORMANCE_IMPACT] = "performance_impact",
    [AZ_PERFORMANCE_IMPACT_CRITICALPATH] = "performance_impact_criticalpath",
    [AZ_CRITICAL_PATH_ACTIVITIES] = "critical_path_activities",
    [AZ_CRITICAL_IMBALANCE_IMPACT] = "critical_imbalance_impact",
    [AZ_NON_CRITICAL_PATH_ACTIVITIES] = "non_critical_path_activities",
    [AZ_IO] = "io",
    [AZ_POSIX_IO] = "posix_io",
    [AZ_MPI_IO] = "mpi_io",
    [AZ_IO_BYTES_WRITTEN] = "io_bytes_written",
    [AZ_IO_BYTES_READ] = "io_bytes_read",
    [AZ_MPI_IO_COLLECTIVE_WAIT] = "mpi_io_collective_wait",
    [AZ_MPI_RMA_SYNCHRONIZATION] = "mpi_rma_synchronization",
    [AZ_MPI_RMA_SYNC_ACTIVE] = "mpi_rma_sync_active",
    [AZ_MPI_RMA_WAIT_AT_FENCE] = "mpi_rma_wait_at_fence",
    [AZ_MPI_RMA_SYNC_LATE_POST] = "mpi_rma_sync_late_post",
    [AZ_MPI_RMA_EARLY_WAIT] = "mpi_rma_early_wait",
    [AZ_MPI_RMA_LATE_COMPLETE] = "mpi_rma_late_complete",
    [AZ_MPI_RMA_SYNC_PASSIVE] = "mpi_rma_sync_passive",
    [AZ_MPI_RMA_SYNC_LOCK_COMPETITION] = "mpi_rma_sync_lock_competition",
    [AZ_MPI_RMA_COMMUNICATION] = "mpi_rma_communication",
    [AZ_MPI_RMA_COMM_LATE_POST] = "mpi_rma_comm_late_post",
    [AZ_MPI_RMA_COMM_LOCK_COMPETITION] = "mpi_rma_comm_lock_competition",
    [AZ_MPI_RMA_WAIT_AT_CREATE] = "mpi_rma_wait_at_create",
    [AZ_MPI_RMA_WAIT_AT_FREE] = "mpi_rma_wait_at_free",
    [AZ_BYTES_PUT] = "bytes_put",
    [AZ_BYTES_GET] = "bytes_get",
    [AZ_MPI_RMA_EARLY_FENCE] = "mpi_rma_early_fence",
    [AZ_MPI_FINALIZE_WAIT] = "mpi_finalize_wait",
};

int az_metric_slot(const char *name) {
  for (int m = 0; name && m < AZ_NUM_METRICS; m++)
    if (!strcmp(az_metric_name[m], name)) return m;
  return -1;
}

int az_metric_is_time(int m) {
  switch (m) {
  case AZ_VISITS:
  case AZ_BYTES_SENT:
  case AZ_BYTES_RECEIVED:
  case AZ_IO_BYTES_WRITTEN:
  case AZ_IO_BYTES_READ:
  case AZ_BYTES_PUT:
  case AZ_BYTES_GET: return 0;
  default: return m >= 0 && m < AZ_NUM_METRICS;
  }
}

int az_metric_in_time_tree(int m) {
  /* the delay costs, the wait-state classifications, the critical path and
     the performance impact: trees of their own that count time again */
  int again = m >= AZ_RECOUNT_FIRST && m <= AZ_RECOUNT_LAST;
  return az_metric_is_time(m) && !again;
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
  case AZ_OMP_LOCK_CONTENTION:
  case AZ_MPI_IO_COLLECTIVE_WAIT:
  case AZ_MPI_RMA_WAIT_AT_FENCE:
  case AZ_MPI_RMA_SYNC_LATE_POST:
  case AZ_MPI_RMA_EARLY_WAIT:
  case AZ_MPI_RMA_LATE_COMPLETE:
  case AZ_MPI_RMA_SYNC_LOCK_COMPETITION:
  case AZ_MPI_RMA_COMM_LATE_POST:
  case AZ_MPI_RMA_COMM_LOCK_COMPETITION:
  case AZ_MPI_RMA_WAIT_AT_CREATE:
  case AZ_MPI_RMA_WAIT_AT_FREE:
  case AZ_MPI_RMA_EARLY_FENCE:
  case AZ_MPI_FINALIZE_WAIT: return 1;
  default: return 0;
  }
}
