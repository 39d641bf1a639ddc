/* az_metrics.h -- the cell slots: one per catalogue metric, then the
   internal slots the finishing step needs (metrics.c names them).
   Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_METRICS_H
#define POMP_AZ_METRICS_H

/* Cell slots.  The first AZ_NUM_METRICS are the catalogue metrics (names in
   metrics.c, which must exist in pomp_report_add_catalogue), stored
   exclusive along the metric tree.  The internal slots after them feed the
   finishing step (cells.c). */
enum {
  AZ_TIME,
  AZ_EXECUTION,
  AZ_COMP,
  AZ_MPI,
  AZ_MPI_MANAGEMENT,
  AZ_MPI_SYNCHRONIZATION,
  AZ_MPI_BARRIER_WAIT,
  AZ_MPI_BARRIER_COMPLETION,
  AZ_MPI_COMMUNICATION,
  AZ_MPI_POINT2POINT,
  AZ_MPI_LATESENDER,
  AZ_MPI_LATESENDER_WO,
  AZ_MPI_LATERECEIVER,
  AZ_MPI_COLLECTIVE,
  AZ_MPI_EARLYREDUCE,
  AZ_MPI_EARLYSCAN,
  AZ_MPI_LATEBROADCAST,
  AZ_MPI_WAIT_NXN,
  AZ_MPI_NXN_COMPLETION,
  AZ_OMP,
  AZ_OMP_MANAGEMENT,
  AZ_OMP_SYNCHRONIZATION,
  AZ_OMP_BARRIER,
  AZ_OMP_EBARRIER_WAIT,
  AZ_OMP_IBARRIER_WAIT,
  AZ_OMP_CRITICAL_CONTENTION,
  AZ_OMP_LOCK_CONTENTION,
  AZ_OMP_ORDERED,
  AZ_OMP_TASKWAIT,
  AZ_OMP_FLUSH,
  AZ_OMP_IDLE_THREADS,
  AZ_OMP_LIMITED_PARALLELISM,
  AZ_VISITS,
  AZ_BYTES_SENT,
  AZ_BYTES_RECEIVED,
  /* delay costs (pass_delay.c): what caused the waits, on the call paths
     and locations that caused them; a tree of their own */
  AZ_DELAY,
  AZ_DELAY_MPI,
  AZ_DELAY_COLLECTIVE,
  AZ_DELAY_BARRIER_AGGREGATE,
  AZ_DELAY_BARRIER,
  AZ_DELAY_BARRIER_LONGTERM,
  AZ_DELAY_N2N_AGGREGATE,
  AZ_DELAY_N2N,
  AZ_DELAY_N2N_LONGTERM,
  AZ_DELAY_N21_AGGREGATE,
  AZ_DELAY_N21,
  AZ_DELAY_N21_LONGTERM,
  AZ_DELAY_12N_AGGREGATE,
  AZ_DELAY_12N,
  AZ_DELAY_12N_LONGTERM,
  AZ_DELAY_P2P,
  AZ_DELAY_LATESENDER_AGGREGATE,
  AZ_DELAY_LATESENDER,
  AZ_DELAY_LATESENDER_LONGTERM,
  AZ_DELAY_LATERECEIVER_AGGREGATE,
  AZ_DELAY_LATERECEIVER,
  AZ_DELAY_LATERECEIVER_LONGTERM,
  /* the classification of point-to-point waits (pass_delay.c): two
     partitions of Late Sender and Late Receiver, trees of their own */
  AZ_WAITSTATES_PROPAGATING_VS_TERMINAL,
  AZ_MPI_WAIT_PROPAGATING,
  AZ_MPI_WAIT_PROPAGATING_LATESENDER,
  AZ_MPI_WAIT_PROPAGATING_LATERECEIVER,
  AZ_MPI_WAIT_TERMINAL,
  AZ_MPI_WAIT_TERMINAL_LATESENDER,
  AZ_MPI_WAIT_TERMINAL_LATERECEIVER,
  AZ_WAITSTATES_DIRECT_VS_INDIRECT,
  AZ_MPI_WAIT_DIRECT,
  AZ_MPI_WAIT_DIRECT_LATESENDER,
  AZ_MPI_WAIT_DIRECT_LATERECEIVER,
  AZ_MPI_WAIT_INDIRECT,
  AZ_MPI_WAIT_INDIRECT_LATESENDER,
  AZ_MPI_WAIT_INDIRECT_LATERECEIVER,
  /* OpenMP delay costs (issue 15) */
  AZ_DELAY_OMP,
  AZ_DELAY_OMPBARRIER_AGGREGATE,
  AZ_DELAY_OMPBARRIER,
  AZ_DELAY_OMPBARRIER_LONGTERM,
  AZ_DELAY_OMPIDLE_AGGREGATE,
  AZ_DELAY_OMPIDLE,
  AZ_DELAY_OMPIDLE_LONGTERM,
  /* the critical path (pass_critical.c) and the performance impact derived
     from it (pass_critical_impact.c): trees of their own */
  AZ_CRITICAL_PATH,
  AZ_CRITICAL_PATH_IMBALANCE,
  AZ_PERFORMANCE_IMPACT,
  AZ_PERFORMANCE_IMPACT_CRITICALPATH,
  AZ_CRITICAL_PATH_ACTIVITIES,
  AZ_CRITICAL_IMBALANCE_IMPACT,
  AZ_NON_CRITICAL_PATH_ACTIVITIES,
  /* file I/O (issue 19): time by interface, bytes moved */
  AZ_IO,
  AZ_POSIX_IO,
  AZ_MPI_IO,
  AZ_IO_BYTES_WRITTEN,
  AZ_IO_BYTES_READ,
  AZ_MPI_IO_COLLECTIVE_WAIT,
  /* one-sided communication (issue 21, pass_rma.c): Scalasca's buckets,
     wait states and bytes */
  AZ_MPI_RMA_SYNCHRONIZATION,
  AZ_MPI_RMA_SYNC_ACTIVE,
  AZ_MPI_RMA_WAIT_AT_FENCE,
  AZ_MPI_RMA_SYNC_LATE_POST,
  AZ_MPI_RMA_EARLY_WAIT,
  AZ_MPI_RMA_LATE_COMPLETE,
  AZ_MPI_RMA_SYNC_PASSIVE,
  AZ_MPI_RMA_SYNC_LOCK_COMPETITION,
  AZ_MPI_RMA_COMMUNICATION,
  AZ_MPI_RMA_COMM_LATE_POST,
  AZ_MPI_RMA_COMM_LOCK_COMPETITION,
  AZ_MPI_RMA_WAIT_AT_CREATE,
  AZ_MPI_RMA_WAIT_AT_FREE,
  AZ_BYTES_PUT,
  AZ_BYTES_GET,
  /* appended after the first RMA block: Wait at Fence's part */
  AZ_MPI_RMA_EARLY_FENCE,
  /* appended: Wait at Finalize (collective.c), a part of mpi_management */
  AZ_MPI_FINALIZE_WAIT,
  AZ_NUM_METRICS,
  /* internal: call-exclusive time the location really executed here */
  AZ_X_RUN = AZ_NUM_METRICS,
  /* internal: the part of AZ_X_RUN outside any parallel region (master) */
  AZ_X_SERIAL,
  /* internal: time of the outermost team instances forked here (master) */
  AZ_X_TEAM,
  /* internal: the part of AZ_X_TEAM this location took part in (worker),
     and, for a worker whose record was cut off, the team time after its
     end, which it is not charged for either */
  AZ_X_MEMBER,
  /* internal: for a worker whose record was cut off by the end of the
     run, the master's AZ_X_SERIAL time after its end (not idle: unknown) */
  AZ_X_AFTER_END,
  AZ_NUM_SLOTS
};

/* The slots of the trees that count time of the time tree again (delay
   costs, wait-state classifications, OpenMP delays, critical path,
   performance impact): metrics of those trees are appended inside this
   range (az_metric_in_time_tree; cleared together where the root-cause
   model does not hold, az_critical_limits). */
enum { AZ_RECOUNT_FIRST = AZ_DELAY, AZ_RECOUNT_LAST = AZ_NON_CRITICAL_PATH_ACTIVITIES };

extern const char *const az_metric_name[AZ_NUM_METRICS];
/* The slot of a catalogue metric's name, or -1 (NULL: -1). */
int az_metric_slot(const char *name);
/* 1 for metrics measured in clock ticks (converted to seconds). */
int az_metric_is_time(int m);
/* 1 for the metrics of the time tree: in seconds, not one of the trees that
   count its time again (delay costs ... performance impact, one range of
   slots: metrics of those trees are appended inside it). */
int az_metric_in_time_tree(int m);
/* Metric slots that are a part of execution time, carved out of the
   bucket of their cell (wait states, management). */
int az_metric_is_part(int m);

#endif
