/* report_catalogue.c -- the performance-property tree of
   docs/ARCHITECTURE.md §4: names (what scripts use), display names, units
   and the formula of each property.  Values are stored metric-exclusive: a
   parent's own value is what none of its children explains. */
#include <string.h>

#include "report_internal.h"

typedef struct {
  const char *name, *parent, *display;
  pomp_unit unit;
  const char *description;
} catalogue_entry;

static const catalogue_entry catalogue[] = {
    {"time", NULL, "Time", POMP_UNIT_SEC,
     "Total CPU allocation time: wall-clock time multiplied by the number of "
     "locations, idle threads included. Its own (exclusive) value is the time "
     "no child property explains; time = execution + omp_idle_threads."},
    {"execution", "time", "Execution", POMP_UNIT_SEC,
     "Time spent executing the program: time minus omp_idle_threads, split "
     "into computation, MPI and OpenMP."},
    {"comp", "execution", "Computation", POMP_UNIT_SEC,
     "Time spent outside MPI and OpenMP operations: execution - mpi - omp, "
     "attributed to user and compiler regions."},
    {"mpi", "execution", "MPI", POMP_UNIT_SEC,
     "Time spent in MPI calls (regions of paradigm mpi); its own value is MPI "
     "time not classified by a child property."},
    {"mpi_management", "mpi", "MPI Management", POMP_UNIT_SEC,
     "Time in MPI_Init, MPI_Finalize and communicator or group creation."},
    {"mpi_synchronization", "mpi", "MPI Synchronization", POMP_UNIT_SEC,
     "Time in MPI operations that only synchronize (MPI_Barrier)."},
    {"mpi_barrier_wait", "mpi_synchronization", "Wait at MPI Barrier", POMP_UNIT_SEC,
     "Idle time in MPI_Barrier waiting for the last process: latest enter of "
     "all participants - own enter, if positive."},
    {"mpi_barrier_completion", "mpi_synchronization", "MPI Barrier Completion", POMP_UNIT_SEC,
     "Time to leave MPI_Barrier after the last process entered: own exit - "
     "max(earliest exit, latest enter), if positive."},
    {"mpi_communication", "mpi", "MPI Communication", POMP_UNIT_SEC,
     "Time in MPI operations that move data: point-to-point and collective."},
    {"mpi_point2point", "mpi_communication", "MPI Point-to-point", POMP_UNIT_SEC,
     "Time in point-to-point operations (send, receive, wait, test); its own "
     "value is the part not lost to wait states."},
    {"mpi_latesender", "mpi_point2point", "Late Sender", POMP_UNIT_SEC,
     "A receive posted before the matching send: min(send enter, receive "
     "exit) - receive enter, if positive, charged to the receiver's call "
     "path of the receive or wait."},
    {"mpi_latesender_wo", "mpi_latesender", "Late Sender, Wrong Order", POMP_UNIT_SEC,
     "Late Sender time of messages received in a different order than they "
     "were sent: the receiver waited for a message sent after another one "
     "it could have received first."},
    {"mpi_latereceiver", "mpi_point2point", "Late Receiver", POMP_UNIT_SEC,
     "A blocking or synchronous send waiting for the receiver: receive post "
     "- send enter, if the send ended after the receive was posted, charged "
     "to the sender."},
    {"mpi_collective", "mpi_communication", "MPI Collective", POMP_UNIT_SEC,
     "Time in collective operations; its own value is the part not lost to "
     "wait states."},
    {"mpi_earlyreduce", "mpi_collective", "Early Reduce", POMP_UNIT_SEC,
     "The root of an N-to-1 operation (Reduce, Gather) waiting for the "
     "senders: min(latest sender enter, root exit) - root enter, if "
     "positive, charged to the root."},
    {"mpi_latebroadcast", "mpi_collective", "Late Broadcast", POMP_UNIT_SEC,
     "Non-roots of a 1-to-N operation (Bcast, Scatter) waiting for the root: "
     "min(root enter, own exit) - own enter, if positive."},
    {"mpi_wait_nxn", "mpi_collective", "Wait at N x N", POMP_UNIT_SEC,
     "Idle time in an N-to-N operation (Allreduce, Alltoall, Allgather): "
     "min(latest enter, own exit) - own enter, if positive."},
    {"mpi_nxn_completion", "mpi_collective", "N x N Completion", POMP_UNIT_SEC,
     "Time to leave an N-to-N operation after the last process entered: own "
     "exit - max(earliest exit, latest enter), if positive."},
    {"omp", "execution", "OpenMP", POMP_UNIT_SEC,
     "Time in OpenMP constructs and runtime calls; its own value is OpenMP "
     "time not classified by a child property."},
    {"omp_management", "omp", "OpenMP Management", POMP_UNIT_SEC,
     "Fork and join overhead of parallel regions: (own parallel enter - "
     "fork) + (join - own parallel exit), each if positive, on every thread "
     "of the team."},
    {"omp_synchronization", "omp", "OpenMP Synchronization", POMP_UNIT_SEC,
     "Time in OpenMP synchronization: barriers, critical sections, locks."},
    {"omp_barrier", "omp_synchronization", "OpenMP Barrier", POMP_UNIT_SEC,
     "Time in OpenMP barriers; its own value is the part not spent waiting "
     "for other threads."},
    {"omp_ebarrier_wait", "omp_barrier", "Wait at Explicit OpenMP Barrier", POMP_UNIT_SEC,
     "Idle time in an explicit barrier: latest enter of the team - own "
     "enter."},
    {"omp_ibarrier_wait", "omp_barrier", "Wait at Implicit OpenMP Barrier", POMP_UNIT_SEC,
     "Idle time in the implicit barrier at the end of a worksharing "
     "construct or parallel region (made explicit by pomp-opari): latest "
     "enter of the team - own enter."},
    {"omp_critical_contention", "omp_synchronization", "Critical Section Contention", POMP_UNIT_SEC,
     "Waiting to enter a critical section held by another thread: last "
     "release by another thread - own enter, if positive."},
    {"omp_lock_contention", "omp_synchronization", "Lock Contention", POMP_UNIT_SEC,
     "Waiting in omp_set_lock for a lock held by another thread: last "
     "release by another thread - own enter of omp_set_lock, if positive."},
    {"omp_flush", "omp", "OpenMP Flush", POMP_UNIT_SEC, "Time in OpenMP flush operations."},
    {"omp_idle_threads", "time", "Idle Threads", POMP_UNIT_SEC,
     "Worker threads idle outside parallel regions: the master's exclusive "
     "time on each serial call path, copied to every worker thread."},
    {"omp_limited_parallelism", "omp_idle_threads", "Limited Parallelism", POMP_UNIT_SEC,
     "Workers idle inside a parallel region that ran with fewer threads: "
     "master's inclusive time in the region - this worker's inclusive time."},
    {"visits", NULL, "Visits", POMP_UNIT_OCC,
     "Number of times each call path was entered on each location."},
    {"bytes_sent", NULL, "Bytes Sent", POMP_UNIT_BYTES,
     "Payload bytes sent by point-to-point and collective operations."},
    {"bytes_received", NULL, "Bytes Received", POMP_UNIT_BYTES,
     "Payload bytes received by point-to-point and collective operations."},
    /* Added after v1 (Scalasca parity).  Appended, so that the metric ids
       of v1 stay what they were; a display orders siblings by id. */
    {"mpi_earlyscan", "mpi_collective", "Early Scan", POMP_UNIT_SEC,
     "A rank of MPI_Scan or MPI_Exscan waiting for a lower rank whose "
     "contribution it needs: min(latest enter of the lower communicator "
     "ranks, own exit) - own enter, if positive."},
    {"omp_ordered", "omp_synchronization", "OpenMP Ordered", POMP_UNIT_SEC,
     "Time in ordered constructs outside their body: a thread waiting for "
     "the previous iterations to finish their ordered part."},
    {"omp_taskwait", "omp_synchronization", "OpenMP Taskwait", POMP_UNIT_SEC,
     "Time in taskwait not spent running tasks: waiting for child tasks "
     "that other threads run."},
    /* Delay costs (issue 15): the root causes of wait states, charged to
       the call paths and locations whose extra work made others wait.
       Scalasca's names and nesting. */
    {"delay", NULL, "Delay Costs", POMP_UNIT_SEC,
     "Waiting time charged to its causes: the call paths on which the late "
     "party ran longer than the waiting one since their last common "
     "synchronisation (docs/PROPERTIES.md, Delay costs)."},
    {"delay_mpi", "delay", "MPI Delay Costs", POMP_UNIT_SEC, "Delay costs of MPI wait states."},
    {"delay_collective", "delay_mpi", "MPI Collective Delay Costs", POMP_UNIT_SEC,
     "Delay costs of waits in MPI collective operations."},
    {"delay_barrier_aggregate", "delay_collective", "Wait at Barrier Delay Costs", POMP_UNIT_SEC,
     "Delay costs of Wait at MPI Barrier: short-term plus long-term."},
    {"delay_barrier", "delay_barrier_aggregate", "Short-term", POMP_UNIT_SEC,
     "Wait at MPI Barrier charged to the delays of the last member to enter: "
     "each waiter's wait x delay / (sum of delays + the late member's own "
     "waiting since the last common synchronisation), at most the delay."},
    {"delay_barrier_longterm", "delay_barrier_aggregate", "Long-term", POMP_UNIT_SEC,
     "Waiting elsewhere, later, that a Wait at MPI Barrier caused in turn, "
     "charged to the delays that caused this barrier wait."},
    {"delay_n2n_aggregate", "delay_collective", "Wait at N x N Delay Costs", POMP_UNIT_SEC,
     "Delay costs of Wait at N x N: short-term plus long-term."},
    {"delay_n2n", "delay_n2n_aggregate", "Short-term", POMP_UNIT_SEC,
     "Wait at N x N charged to the delays of the last member to enter, as "
     "for delay_barrier."},
    {"delay_n2n_longterm", "delay_n2n_aggregate", "Long-term", POMP_UNIT_SEC,
     "Waiting that a Wait at N x N caused in turn, charged to the delays that "
     "caused it."},
    {"delay_n21_aggregate", "delay_collective", "Early Reduce Delay Costs", POMP_UNIT_SEC,
     "Delay costs of Early Reduce: short-term plus long-term."},
    {"delay_n21", "delay_n21_aggregate", "Short-term", POMP_UNIT_SEC,
     "Early Reduce (the root of an N-to-1 operation waiting) charged to the "
     "delays of the last non-root to enter, as for delay_barrier."},
    {"delay_n21_longterm", "delay_n21_aggregate", "Long-term", POMP_UNIT_SEC,
     "Waiting that an Early Reduce caused in turn, charged to the delays that "
     "caused it."},
    {"delay_12n_aggregate", "delay_collective", "Late Broadcast Delay Costs", POMP_UNIT_SEC,
     "Delay costs of Late Broadcast: short-term plus long-term."},
    {"delay_12n", "delay_12n_aggregate", "Short-term", POMP_UNIT_SEC,
     "Late Broadcast (ranks of a 1-to-N operation waiting for its root) "
     "charged to the delays of the root, as for delay_barrier."},
    {"delay_12n_longterm", "delay_12n_aggregate", "Long-term", POMP_UNIT_SEC,
     "Waiting that a Late Broadcast caused in turn, charged to the delays "
     "that caused it."},
    {"delay_p2p", "delay_mpi", "MPI Point-to-point Delay Costs", POMP_UNIT_SEC,
     "Delay costs of waits in MPI point-to-point communication."},
    {"delay_latesender_aggregate", "delay_p2p", "Late Sender Delay Costs", POMP_UNIT_SEC,
     "Delay costs of Late Sender: short-term plus long-term."},
    {"delay_latesender", "delay_latesender_aggregate", "Short-term", POMP_UNIT_SEC,
     "Late Sender charged to the delays of the sender since the last "
     "synchronisation of the two processes: wait x delay / (sum of delays + "
     "the sender's own waiting there), at most the delay."},
    {"delay_latesender_longterm", "delay_latesender_aggregate", "Long-term", POMP_UNIT_SEC,
     "Waiting that a Late Sender caused in turn, charged to the delays that "
     "caused it."},
    {"delay_latereceiver_aggregate", "delay_p2p", "Late Receiver Delay Costs", POMP_UNIT_SEC,
     "Delay costs of Late Receiver: short-term plus long-term."},
    {"delay_latereceiver", "delay_latereceiver_aggregate", "Short-term", POMP_UNIT_SEC,
     "Late Receiver charged to the delays of the receiver, as for "
     "delay_latesender."},
    {"delay_latereceiver_longterm", "delay_latereceiver_aggregate", "Long-term", POMP_UNIT_SEC,
     "Waiting that a Late Receiver caused in turn, charged to the delays that "
     "caused it."},
    /* The classification of point-to-point waits (issue 15): two
       partitions of the same waits, trees of their own, as in Scalasca. */
    {"waitstates_propagating_vs_terminal", NULL,
     "MPI Point-to-point Wait States (propagating vs. terminal)", POMP_UNIT_SEC,
     "Late Sender and Late Receiver waits split into the part that caused "
     "waiting elsewhere later and the rest."},
    {"mpi_wait_propagating", "waitstates_propagating_vs_terminal", "Propagating Wait States",
     POMP_UNIT_SEC,
     "The part of a point-to-point wait that explains a later wait: the "
     "largest share of one later wait charged to it."},
    {"mpi_wait_propagating_latesender", "mpi_wait_propagating", "Late Sender", POMP_UNIT_SEC,
     "Propagating part of Late Sender waits."},
    {"mpi_wait_propagating_latereceiver", "mpi_wait_propagating", "Late Receiver", POMP_UNIT_SEC,
     "Propagating part of Late Receiver waits."},
    {"mpi_wait_terminal", "waitstates_propagating_vs_terminal", "Terminal Wait States",
     POMP_UNIT_SEC, "The part of a point-to-point wait that made no one wait later."},
    {"mpi_wait_terminal_latesender", "mpi_wait_terminal", "Late Sender", POMP_UNIT_SEC,
     "Terminal part of Late Sender waits."},
    {"mpi_wait_terminal_latereceiver", "mpi_wait_terminal", "Late Receiver", POMP_UNIT_SEC,
     "Terminal part of Late Receiver waits."},
    {"waitstates_direct_vs_indirect", NULL, "MPI Point-to-point Wait States (direct vs. indirect)",
     POMP_UNIT_SEC,
     "Late Sender and Late Receiver waits split into the part the late "
     "party's extra work caused and the part its own waiting passed on."},
    {"mpi_wait_direct", "waitstates_direct_vs_indirect", "Direct Wait States", POMP_UNIT_SEC,
     "The part of a point-to-point wait caused by the late party's delays."},
    {"mpi_wait_direct_latesender", "mpi_wait_direct", "Late Sender", POMP_UNIT_SEC,
     "Direct part of Late Sender waits."},
    {"mpi_wait_direct_latereceiver", "mpi_wait_direct", "Late Receiver", POMP_UNIT_SEC,
     "Direct part of Late Receiver waits."},
    {"mpi_wait_indirect", "waitstates_direct_vs_indirect", "Indirect Wait States", POMP_UNIT_SEC,
     "The part of a point-to-point wait that the late party's own waiting "
     "explains: wait propagated from earlier wait states."},
    {"mpi_wait_indirect_latesender", "mpi_wait_indirect", "Late Sender", POMP_UNIT_SEC,
     "Indirect part of Late Sender waits."},
    {"mpi_wait_indirect_latereceiver", "mpi_wait_indirect", "Late Receiver", POMP_UNIT_SEC,
     "Indirect part of Late Receiver waits."},
    /* OpenMP delay costs (issue 15): analyze/pass_delay.c */
    {"delay_omp", "delay", "OpenMP Delay Costs", POMP_UNIT_SEC,
     "Delay costs of OpenMP wait states: barrier waits and idle threads."},
    {"delay_ompbarrier_aggregate", "delay_omp", "Wait at OpenMP Barrier Delay Costs", POMP_UNIT_SEC,
     "Short-term plus long-term delay costs of OpenMP barrier waits."},
    {"delay_ompbarrier", "delay_ompbarrier_aggregate", "Short-term", POMP_UNIT_SEC,
     "Wait at an OpenMP barrier (explicit or implicit) charged to the extra "
     "work of the last thread to arrive since the team's previous "
     "synchronisation (barrier or fork), as for delay_barrier."},
    {"delay_ompbarrier_longterm", "delay_ompbarrier_aggregate", "Long-term", POMP_UNIT_SEC,
     "Waiting that an OpenMP barrier wait caused in turn, charged to the "
     "delays that caused this barrier wait."},
    {"delay_ompidle_aggregate", "delay_omp", "OpenMP Thread Idleness Delay Costs", POMP_UNIT_SEC,
     "Short-term plus long-term delay costs of idle OpenMP threads."},
    {"delay_ompidle", "delay_ompidle_aggregate", "Short-term", POMP_UNIT_SEC,
     "Time the worker threads are idle while the master runs outside "
     "parallel regions, charged to the master's call paths there: "
     "idle threads x the master's time on the call path."},
    {"delay_ompidle_longterm", "delay_ompidle_aggregate", "Long-term", POMP_UNIT_SEC,
     "Worker idleness while the master waited outside parallel regions, "
     "charged to the delays that caused the master's wait."},
    /* Critical path (issue 15): the chain of work without wait states that
       determined the run's length, and the performance impact derived from
       it.  Trees of their own (they count time of the time tree again);
       Scalasca's names and nesting. */
    {"critical_path", NULL, "Critical Path", POMP_UNIT_SEC,
     "Time each call path and location spent on the critical path: walking "
     "back from the end of the location that finished last, at every wait "
     "state (Late Sender, MPI collective or barrier, OpenMP barrier, join, "
     "fork) the path moves to the location that caused it, so it holds no "
     "waiting time; its own value is the part critical_path_imbalance does "
     "not explain (docs/PROPERTIES.md, Critical path)."},
    {"critical_path_imbalance", "critical_path", "Imbalance", POMP_UNIT_SEC,
     "The part of a call path's critical-path time above its average "
     "execution time over all locations: max(0, critical path - average), "
     "shared among the locations that carried it in proportion to their "
     "critical-path time."},
    {"performance_impact", NULL, "Performance Impact", POMP_UNIT_SEC,
     "Resource consumption of each call path on each location, split into "
     "critical-path activities (with the waiting their imbalance causes "
     "elsewhere) and activities off the critical path."},
    {"performance_impact_criticalpath", "performance_impact", "Critical-path Activities",
     POMP_UNIT_SEC,
     "Resource consumption of call paths that appear on the critical path: "
     "their own execution and the waiting their imbalance causes."},
    {"critical_path_activities", "performance_impact_criticalpath", "Activity Impact",
     POMP_UNIT_SEC,
     "min(critical-path time of the call path, the location's non-waiting "
     "time there), for call paths on the critical path."},
    {"critical_imbalance_impact", "performance_impact_criticalpath", "Imbalance Impact",
     POMP_UNIT_SEC,
     "Waiting time of every location, spread over the call paths whose "
     "critical-path time exceeds its non-waiting time there (in proportion to "
     "the excess), summed over locations and charged to the locations that "
     "carried each call path on the critical path."},
    {"non_critical_path_activities", "performance_impact", "Non-critical-path Activities",
     POMP_UNIT_SEC,
     "Non-waiting time of a location on a call path beyond the call path's "
     "critical-path time: optimising it does not shorten the run."},
    /* File I/O (issue 19): libpomp-io's POSIX and ISO C calls and
       libpomp-mpi's MPI_File_* calls, by the role of their regions. */
    {"io", "execution", "File I/O", POMP_UNIT_SEC,
     "Time in file I/O calls (regions of role file_io or file_io_metadata); "
     "its own value is I/O time of no child's interface."},
    {"posix_io", "io", "POSIX I/O", POMP_UNIT_SEC,
     "Time in POSIX (open, read, write, lseek, fsync, ...) and ISO C stream "
     "(fopen, fread, fwrite, fprintf, ...) calls: data transfer and metadata."},
    {"mpi_io", "io", "MPI File I/O", POMP_UNIT_SEC,
     "Time in MPI-IO calls (MPI_File_*): individual, collective, shared and "
     "non-blocking transfers, open, close, set_view, sync."},
    {"io_bytes_written", NULL, "I/O Bytes Written", POMP_UNIT_BYTES,
     "Bytes the program handed to file write calls (fwrite counts what it "
     "was given), on the call path of the call."},
    {"io_bytes_read", NULL, "I/O Bytes Read", POMP_UNIT_BYTES,
     "Bytes the program got from file read calls, on the call path of the "
     "call that completed the read."},
    {"mpi_io_collective_wait", "mpi_io", "Wait in Collective MPI-IO", POMP_UNIT_SEC,
     "Idle time in a collective MPI-IO transfer (MPI_File_read_all, "
     "write_at_all, ..._ordered) waiting for the last process of the file's "
     "communicator to enter: min(latest enter, own exit) - own enter, if "
     "positive."},
    /* one-sided communication (issue 21): Scalasca's names */
    {"mpi_rma_synchronization", "mpi_synchronization", "MPI RMA Synchronization", POMP_UNIT_SEC,
     "Time in the synchronisation calls of one-sided communication."},
    {"mpi_rma_sync_active", "mpi_rma_synchronization", "MPI RMA Active Target Synchronization",
     POMP_UNIT_SEC,
     "Time in MPI_Win_fence, MPI_Win_post, MPI_Win_start, MPI_Win_complete, "
     "MPI_Win_wait and MPI_Win_test."},
    {"mpi_rma_wait_at_fence", "mpi_rma_sync_active", "Wait at Fence", POMP_UNIT_SEC,
     "Idle time in MPI_Win_fence waiting for the last member of the window "
     "to enter it: min(latest enter, own exit) - own enter, if positive."},
    {"mpi_rma_sync_late_post", "mpi_rma_sync_active", "Late Post (synchronization)", POMP_UNIT_SEC,
     "An origin's MPI_Win_start or MPI_Win_complete waiting for a target's "
     "MPI_Win_post: min(latest post enter of its targets, own exit) - own "
     "enter, if positive."},
    {"mpi_rma_early_wait", "mpi_rma_sync_active", "Early Wait", POMP_UNIT_SEC,
     "A target's MPI_Win_wait (or successful MPI_Win_test) waiting for its "
     "origins' MPI_Win_complete: min(latest complete enter, own exit) - own "
     "enter, if positive, less its Late Complete part."},
    {"mpi_rma_late_complete", "mpi_rma_early_wait", "Late Complete", POMP_UNIT_SEC,
     "The part of Early Wait after the origins' last RMA operation of the "
     "epoch had ended: they could have called MPI_Win_complete earlier."},
    {"mpi_rma_sync_passive", "mpi_rma_synchronization", "MPI RMA Passive Target Synchronization",
     POMP_UNIT_SEC,
     "Time in MPI_Win_lock, MPI_Win_unlock, their _all forms, MPI_Win_flush* "
     "and MPI_Win_sync."},
    {"mpi_rma_sync_lock_competition", "mpi_rma_sync_passive", "Lock Competition (synchronization)",
     POMP_UNIT_SEC,
     "Time in MPI_Win_lock/unlock waiting while another origin held a "
     "conflicting lock on the same target: min(other's unlock exit, own "
     "exit) - own enter, if positive."},
    {"mpi_rma_communication", "mpi_communication", "MPI RMA Communication", POMP_UNIT_SEC,
     "Time in MPI_Put, MPI_Get, the accumulate and atomic operations and "
     "their request-based forms."},
    {"mpi_rma_comm_late_post", "mpi_rma_communication", "Late Post (communication)", POMP_UNIT_SEC,
     "An RMA operation of an access epoch waiting for its target's "
     "MPI_Win_post: min(post enter, own exit) - own enter, if positive."},
    {"mpi_rma_comm_lock_competition", "mpi_rma_communication", "Lock Competition (communication)",
     POMP_UNIT_SEC,
     "An RMA operation of a lock epoch waiting while another origin held a "
     "conflicting lock on its target."},
    {"mpi_rma_wait_at_create", "mpi_management", "Wait at Window Create", POMP_UNIT_SEC,
     "Idle time in MPI_Win_create/allocate waiting for the last member to "
     "enter: min(latest enter, own exit) - own enter, if positive."},
    {"mpi_rma_wait_at_free", "mpi_management", "Wait at Window Free", POMP_UNIT_SEC,
     "Idle time in MPI_Win_free waiting for the last member to enter."},
    {"bytes_put", NULL, "Bytes Put", POMP_UNIT_BYTES,
     "Bytes this process wrote into other processes' windows (MPI_Put, the "
     "data an accumulate or atomic sends), on the call path of the call."},
    {"bytes_get", NULL, "Bytes Get", POMP_UNIT_BYTES,
     "Bytes this process read from windows (MPI_Get, the result an atomic "
     "returns), on the call path of the call."},
    /* appended after the first RMA block */
    {"mpi_rma_early_fence", "mpi_rma_wait_at_fence", "Early Fence", POMP_UNIT_SEC,
     "The part of Wait at Fence before the last RMA operation of the epoch "
     "that targets this process had ended (its origin's call returned): the "
     "process entered the fence while others still accessed its window; "
     "min(last such operation's end, latest enter) - own enter, if the "
     "fence waited and that end lies within it."},
    /* appended in session 10 (Scalasca parity): Scalasca's parent
       mpi_init_exit is a hidden pattern of scout, not a pomp bucket */
    {"mpi_finalize_wait", "mpi_management", "Wait at MPI Finalize", POMP_UNIT_SEC,
     "Idle time in MPI_Finalize waiting for the last process to enter it: "
     "min(latest enter of all processes, own exit) - own enter, if positive "
     "(the first MPI_Finalize of each process)."},
};

int32_t pomp_report_catalogue_size(void) {
  return (int32_t)(sizeof catalogue / sizeof catalogue[0]);
}

int report_catalogue_has(const char *name) {
  for (size_t i = 0; i < sizeof catalogue / sizeof catalogue[0]; i++)
    if (strcmp(catalogue[i].name, name) == 0) return 1;
  return 0;
}

int32_t pomp_report_add_catalogue_n(pomp_report *r, int32_t n) {
  int32_t added = 0;
  for (int32_t i = 0; i < n && i < pomp_report_catalogue_size(); i++) {
    const catalogue_entry *c = &catalogue[i];
    int32_t parent = c->parent ? pomp_report_find_metric(r, c->parent) : -1;
    if (c->parent && parent < 0) continue; /* parent refused: skip subtree */
    if (pomp_report_add_metric(r, c->name, c->display, c->unit, c->description, parent) >= 0)
      added++;
  }
  return added;
}

int32_t pomp_report_add_catalogue(pomp_report *r) {
  return pomp_report_add_catalogue_n(r, pomp_report_catalogue_size());
}
