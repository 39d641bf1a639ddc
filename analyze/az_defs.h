/* az_defs.h -- the global definitions of a trace as the analysis uses
   them: regions with their time bucket, processes and their locations,
   communicators, the system tree (defs.c; the bucket: roles.c).
   Internal to pomp-analyze (not installed). */
#ifndef POMP_AZ_DEFS_H
#define POMP_AZ_DEFS_H

#include <stddef.h>
#include <stdint.h>

enum az_region_kind {
  AZ_RK_PLAIN = 0,
  AZ_RK_PARALLEL, /* OpenMP parallel region */
  AZ_RK_EBARRIER, /* explicit OpenMP barrier */
  AZ_RK_IBARRIER, /* implicit OpenMP barrier */
  AZ_RK_CRITICAL, /* critical construct (waits for its lock) */
  AZ_RK_LOCK_SET, /* omp_set_lock / omp_set_nest_lock */
  AZ_RK_MPI_COLL  /* MPI collective or barrier */
};

/* The synchronisation an MPI collective's instances are, decided once per
   region (roles.c, az_region.coll) and read by every pass: the forward
   pass's wait states (collective.c), the delay costs (pass_delay.c) and
   the critical path (pass_critical.c).  The rule
   (docs/analyze/collectives.md, "MPI collectives: one classification for
   every pass"): the MPI call the region is, as Scalasca classifies it by
   name; the MpiCollectiveEnd's operation and the region's role do not
   decide. */
enum az_coll_kind {
  AZ_COLL_NONE = 0, /* no synchronisation point: its time only */
  AZ_COLL_BARRIER,  /* MPI_Barrier: everyone waits for the last */
  AZ_COLL_NXN,      /* Allreduce, Allgather(v), Alltoall(v,w), Reduce_scatter(_block) */
  AZ_COLL_12N,      /* Bcast, Scatter(v): the non-roots wait for the root */
  AZ_COLL_N21,      /* Reduce, Gather(v): the root waits for the last non-root */
  AZ_COLL_PREFIX,   /* Scan, Exscan: rank r waits for ranks 0..r-1 (Early Scan);
                       no synchronisation point for delay costs and the path */
  AZ_COLL_IO,       /* a collective MPI-IO transfer (role FILE_IO): as a barrier,
                       its wait in mpi_io_collective_wait */
  AZ_COLL_FINALIZE  /* MPI_Finalize: no collective record; the forward pass
                       makes one per process at its first Finalize's Leave,
                       an instance of all processes (Wait at Finalize); no
                       synchronisation point for delay costs and the path */
};

typedef struct {
  const char *name, *file;
  uint32_t begin_line, end_line;
  int paradigm, role; /* OTF2 values */
  uint8_t bucket;     /* metric receiving the exclusive time */
  uint8_t kind;       /* enum az_region_kind */
  uint8_t no_wait;    /* MPI_Test*, MPI_Request_free: a request completed
                         there was not waited for (p2p.c, the delay pass) */
  uint8_t coll;       /* enum az_coll_kind of a collective recorded in it */
  uint8_t defined;
} az_region;

typedef struct {
  uint64_t id; /* OTF2 location id */
  const char *name;
  uint32_t process; /* index into az_defs.procs */
  uint32_t thread;  /* position inside its process */
  uint64_t events;  /* as declared in the definitions */
} az_location;

typedef struct {
  uint64_t id; /* OTF2 location-group id */
  const char *name;
  uint32_t node;                /* system-tree node id of its host */
  uint32_t first_loc, num_locs; /* locations are numbered process by process */
} az_process;

typedef struct {
  uint32_t size;
  uint32_t *world; /* communicator rank -> process index (world rank) */
  int defined;
  int self; /* MPI_COMM_SELF: rank 0 is the calling process */
} az_comm;

typedef struct {
  uint32_t id, parent;
  const char *name, *cls;
} az_sysnode;

typedef struct az_defs {
  uint64_t resolution, global_offset, trace_length;
  char **strings;
  size_t num_strings;
  az_region *regions;
  size_t num_regions;
  az_location *locs;
  size_t num_locs; /* sorted by (process, thread) */
  az_process *procs;
  size_t num_procs; /* sorted by group id = rank */
  az_comm *comms;
  size_t num_comms;   /* indexed by Comm id */
  uint32_t *win_comm; /* RmaWin id -> its Comm id + 1 (0: undefined) */
  size_t num_wins;
  az_comm *groups; /* Group id -> its members (COMM_GROUP groups; the
                      groups RmaGroupSync names) */
  size_t num_groups;
  az_sysnode *nodes;
  size_t num_nodes;
  uint64_t total_events;
  uint32_t off_region; /* appended: "MEASUREMENT OFF", the time between a
                          MeasurementOnOff(off) and (on); not reported
                          unless a call path has it */
} az_defs;

/* roles.c: sets bucket, kind, no_wait and coll from paradigm, role and
   name. */
void az_region_classify(az_region *r);

/* Reads the global definitions of an archive (file: their path, for
   messages); 0 on success, else diag says why. */
struct OTF2_Reader_struct;
struct az_diag;
int az_defs_read(az_defs *defs, struct OTF2_Reader_struct *reader, const char *file,
                 struct az_diag *diag);
void az_defs_free(az_defs *defs);
const char *az_defs_string(const az_defs *defs, uint32_t id);
/* World rank (process index) of a communicator rank, as seen by process
   caller, or UINT32_MAX. */
uint32_t az_comm_world(const az_defs *defs, uint32_t comm, uint32_t rank, uint32_t caller);
/* The members of an MPI group (RmaGroupSync's), NULL if undefined. */
const az_comm *az_group(const az_defs *defs, uint32_t group);
/* The same for a rank in an RMA window (the rank in its communicator). */
uint32_t az_win_world(const az_defs *defs, uint32_t win, uint32_t rank, uint32_t caller);
/* Human name of a location for messages: "rank 1 thread 0". */
void az_loc_label(const az_defs *defs, uint32_t loc, char *buf, size_t size);

#endif
