/*
 * mw.h -- internals of libpomp-mpi shared by the generated wrappers
 * (mw_wrappers.c, from mpi_wrappers.tbl) and the hand-written hooks.
 *
 * A wrapper records  Enter [records before the call] PMPI_X [records after]
 * Leave  on the calling thread's location; everything it needs between
 * Enter and Leave (scratch statuses, the request snapshot) lives in one
 * stack frame, mw_frame, so the hot path never allocates.
 *
 * A wrapper reads the clock twice: at Enter, for the Enter and the records
 * before the PMPI call, and when the call returns, for the records after
 * it and the Leave (a clock read costs about as much as the OTF2 record it
 * stamps; records of one instant need only one). So every MPI record lies
 * inside its call's Enter/Leave, at one of its ends.
 */
#ifndef MW_H
#define MW_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

#include "pomp_measure.h"
#include "mw_fn.h"

/* ------------------------------------------------------------- the frame */

/* Requests/statuses up to this many live in the frame, more on the heap. */
#define MW_SMALL 16

typedef struct mw_frame {
  pm_location *l;
  uint32_t region;
  uint64_t t;        /* timestamp of the records at the current end */
  uint64_t t_enter;  /* timestamp of the Enter */
  MPI_Comm comm;     /* comm of a matched message (Mrecv, Imrecv) */
  int nsnap;         /* requests in snap */
  MPI_Request *snap; /* requests as they were before Wait/Test */
  int nheap;         /* scratch arrays to free at mw_end */
  void *heap[2];
  MPI_Status status; /* stands in for MPI_STATUS_IGNORE */
  MPI_Request snap_small[MW_SMALL];
  MPI_Status statuses_small[MW_SMALL];
} mw_frame;

typedef struct mw_fn_info {
  const char *name;
  OTF2_RegionRole role;
} mw_fn_info;
extern const mw_fn_info mw_fn_table[MW_FN_COUNT];

/* Region id of fn, defined with libpomp at its first use. */
extern _Atomic uint32_t mw_regions[MW_FN_COUNT];
uint32_t mw_region_define(enum mw_fn fn);
static inline uint32_t mw_region(enum mw_fn fn) {
  uint32_t r = atomic_load_explicit(&mw_regions[fn], memory_order_relaxed);
  return r != PM_NO_REGION ? r : mw_region_define(fn);
}

/* Enters fn's region on f->l; 0 when f->l is NULL (nothing recorded). */
static inline int mw_enter(mw_frame *f, enum mw_fn fn) {
  if (!f->l) return 0;
  f->region = mw_region(fn);
  f->nheap = 0;
  f->t = f->t_enter = pm_enter(f->l, f->region); /* returns the Enter's timestamp */
  return 1;
}

/* Starts recording a call: 0 when nothing is recorded on this thread (off,
   not started, or an MPI call made from inside MPI). */
static inline int mw_begin(mw_frame *f, enum mw_fn fn) {
  f->l = pm_location_recording();
  return mw_enter(f, fn);
}

void mw_frame_release(mw_frame *f);
/* Leave at the current time (hand-written wrappers, mw_env.c). */
static inline void mw_end(mw_frame *f) {
  pm_leave(f->l, f->region);
  if (f->nheap) mw_frame_release(f);
}

/* Around the PMPI call of a generated wrapper: nothing is recorded inside
   it; mw_returned takes the instant it returned, the timestamp of the
   records after it and of the Leave that mw_leave writes. */
static inline void mw_calling(mw_frame *f) { pm_pause(f->l); }
static inline void mw_returned(mw_frame *f) {
  pm_resume(f->l);
  f->t = pm_now();
}
static inline void mw_leave(mw_frame *f) {
  pm_leave_at(f->l, f->region, f->t);
  if (f->nheap) mw_frame_release(f);
}

/* True between a successful hand-over at MPI_Init and MPI_Finalize. */
extern _Atomic int mw_running;
static inline int mw_live(void) { return atomic_load_explicit(&mw_running, memory_order_relaxed); }

/* Event writer for one more record, stamped f->t, or NULL (before
   pm_mpi_init). Fetch it right before the record: it may move f->t
   (pm_evt_writer_at). */
static inline OTF2_EvtWriter *mw_writer(mw_frame *f) { return pm_evt_writer_at(f->l, &f->t); }

/* Event writer for a record that belongs to the call's Enter though it
   is written after the PMPI call (MpiIsend, MpiIrecvRequest and
   NonBlockingCollectiveRequest need the request handle the call returns;
   docs/TRACE.md stamps them at the Enter, as Score-P does, so that a send
   never appears to start after the receive that matched it), or NULL. *t:
   the timestamp, later only when a buffer flush came between. */
static inline OTF2_EvtWriter *mw_writer_at_enter(mw_frame *f, uint64_t *t) {
  *t = f->t_enter;
  OTF2_EvtWriter *w = pm_evt_writer_at(f->l, t);
  if (*t > f->t) f->t = *t; /* the records after it and the Leave */
  return w;
}

/* Scratch array of n elements of size elem: `small` (an array of the
   frame) when n <= MW_SMALL, else from the heap until mw_end; at most two
   per frame (requests and statuses). */
void *mw_scratch(mw_frame *f, void *small, int n, size_t elem);

/* ----------------------------------------------------- communicators */

/* What the trace knows about one communicator. Never freed before the end
   of the process, so requests may keep a pointer after MPI_Comm_free. */
typedef struct mw_comm {
  uint32_t id;          /* local comm id from pm_comm_register */
  int size;             /* members of the registered group */
  int rank;             /* this process's rank in its (local) group */
  int peers;            /* mw_comm_shape: its size, or the remote size */
  const uint32_t *peer; /* intercomm: remote rank -> index in the union;
                           NULL for intracomms (rank = index) */
  /* Blocking collectives this process ran on the comm, recorded or not,
     and how many of them the trace accounts for (mw_coll.c). */
  _Atomic uint64_t instances, accounted;
} mw_comm;

/* Registers WORLD (0) and SELF (1); world ranks are ranks in world_comm
   (MPI_COMM_WORLD or, under MPI Sessions, libpomp-mpi's comm of the
   process set mpi://WORLD: the same processes in the same order). */
void mw_comm_init(MPI_Comm world_comm);
const mw_comm *mw_comm_of(MPI_Comm comm); /* NULL if unknown */
/* Index in the comm's registered group of `rank` as MPI sees it in comm
   (the remote group of an intercomm). */
uint32_t mw_comm_peer(const mw_comm *c, int rank);
static inline uint32_t mw_comm_ref(const mw_comm *c) { return c ? c->id : OTF2_UNDEFINED_COMM; }
void mw_comm_new(MPI_Comm newcomm, MPI_Comm parent, MPI_Comm groups_of);
void mw_comm_free(MPI_Comm comm);
/* Registers group's members as a comm named name (libpomp id, or
   OTF2_UNDEFINED_COMM outside MPI_COMM_WORLD); *size: its members. */
uint32_t mw_comm_register_group(const char *name, uint32_t parent, MPI_Group group, int *size);
/* out[i] = MPI_COMM_WORLD rank of group's rank i < n; 0 if one has none. */
int mw_group_world_ranks(MPI_Group group, int n, uint32_t *out);
/* What the bytes of a collective on comm depend on. Taken from the table,
   where the communicator's creation stored it (asking MPI costs a library
   call per item and collective); asked of MPI for a comm the table lacks. */
typedef struct mw_shape {
  int inter; /* an intercommunicator */
  int rank;  /* own rank in the (local) group */
  int peers; /* processes a collective exchanges with: the
                           size, or the remote group's size (intercomm) */
} mw_shape;
mw_shape mw_comm_shape(MPI_Comm comm);
static inline int mw_comm_peers(MPI_Comm comm) { return mw_comm_shape(comm).peers; }
void mw_comm_fini(void); /* after pm_mpi_finalize: frees the table */

/* ------------------------------------------------------- point-to-point */

uint64_t mw_type_bytes(MPI_Count count, MPI_Datatype type);
/* Bytes a receive got, from its status (not the buffer's capacity). */
uint64_t mw_status_bytes(const MPI_Status *s);
/* Enables MPICH shortcuts for the two above if they agree with PMPI. */
void mw_fast_check(void);
MPI_Status *mw_status(mw_frame *f, MPI_Status *s);
MPI_Status *mw_statuses(mw_frame *f, int n, MPI_Status *s);
void mw_send(mw_frame *f, MPI_Comm comm, int dest, int tag, MPI_Count count, MPI_Datatype type);
void mw_recv(mw_frame *f, MPI_Comm comm, const MPI_Status *s);
void mw_message_put(MPI_Message msg, MPI_Comm comm);
MPI_Comm mw_message_take(MPI_Message msg);
void mw_messages_init(void);
void mw_messages_fini(void);

/* ------------------------------------------------------------- requests */

void mw_isend(mw_frame *f, MPI_Comm comm, int dest, int tag, MPI_Count count, MPI_Datatype type,
              MPI_Request req);
void mw_irecv(mw_frame *f, MPI_Comm comm, int source, MPI_Request req);
void mw_isendrecv(mw_frame *f, MPI_Comm comm, int dest, int tag, MPI_Count count, MPI_Datatype type,
                  int source, int rtag, MPI_Count rcount, MPI_Datatype rtype, MPI_Request req);
void mw_psend_init(mw_frame *f, MPI_Comm comm, int dest, int tag, MPI_Count count,
                   MPI_Datatype type, MPI_Request req);
void mw_precv_init(mw_frame *f, MPI_Comm comm, int source, MPI_Request req);
void mw_start(mw_frame *f, int n, const MPI_Request *reqs);
void mw_snap(mw_frame *f, int n, const MPI_Request *reqs);
void mw_complete(mw_frame *f, int i, const MPI_Status *s);
void mw_complete_all(mw_frame *f, int n, const MPI_Status *s);
void mw_complete_some(mw_frame *f, int n, const int *indices, const MPI_Status *s);
void mw_tested(mw_frame *f);
void mw_tested_one(mw_frame *f, MPI_Request req);
void mw_requests_init(void);
void mw_requests_fini(void);
void mw_cancel(MPI_Request req);
void mw_request_free(mw_frame *f, MPI_Request req);

/* ---------------------------------------------------------- collectives */

/* Bytes a process sends and receives in one collective (docs in mw_coll.c) */
typedef struct mw_xfer {
  uint64_t sent, received;
} mw_xfer;

/* Count arrays are int[] or MPI_Count[] (large-count twins). */
typedef struct mw_counts {
  const int *i;
  const MPI_Count *c;
} mw_counts;
static inline mw_counts mw_counts_int(const int *p) { return (mw_counts){p, NULL}; }
static inline mw_counts mw_counts_big(const MPI_Count *p) { return (mw_counts){NULL, p}; }
#define MW_COUNTS(p)                                                                               \
  _Generic((p), const int *: mw_counts_int, int *: mw_counts_int,         \
           const MPI_Count *: mw_counts_big, MPI_Count *: mw_counts_big)(p)

/* mw_begin for a blocking collective on comm: counts the instance even
   when it is not recorded, writes the placeholder of instances that were
   not (docs/TRACE.md) before the Enter, and MpiCollectiveBegin after it. */
int mw_begin_coll(mw_frame *f, enum mw_fn fn, MPI_Comm comm);
/* The same on the communicator c (NULL: counted nowhere), and its
   MpiCollectiveEnd (op BARRIER, no root, no bytes): MPI-IO's collective
   transfers on the file's communicator, kept from MPI_File_open, whose
   handle the program may have freed since (mw_io.c). */
int mw_begin_coll_on(mw_frame *f, enum mw_fn fn, const mw_comm *c);
void mw_coll_end_on(mw_frame *f, const mw_comm *c);
void mw_coll_end(mw_frame *f, OTF2_CollectiveOp op, MPI_Comm comm, int root, mw_xfer x);
void mw_icoll(mw_frame *f, OTF2_CollectiveOp op, MPI_Comm comm, int root, mw_xfer x,
              MPI_Request req, int persistent);
uint32_t mw_root(MPI_Comm comm, int root);

mw_xfer mw_xfer_none(void);
mw_xfer mw_xfer_bcast(MPI_Comm comm, int root, MPI_Count count, MPI_Datatype t);
mw_xfer mw_xfer_scatter(MPI_Comm comm, int root, MPI_Count scount, MPI_Datatype st,
                        const void *recvbuf, MPI_Count rcount, MPI_Datatype rt);
mw_xfer mw_xfer_scatterv(MPI_Comm comm, int root, mw_counts scounts, MPI_Datatype st,
                         const void *recvbuf, MPI_Count rcount, MPI_Datatype rt);
mw_xfer mw_xfer_gather(MPI_Comm comm, int root, const void *sendbuf, MPI_Count scount,
                       MPI_Datatype st, MPI_Count rcount, MPI_Datatype rt);
mw_xfer mw_xfer_gatherv(MPI_Comm comm, int root, const void *sendbuf, MPI_Count scount,
                        MPI_Datatype st, mw_counts rcounts, MPI_Datatype rt);
mw_xfer mw_xfer_reduce(MPI_Comm comm, int root, const void *sendbuf, MPI_Count count,
                       MPI_Datatype t);
mw_xfer mw_xfer_allgather(MPI_Comm comm, const void *sendbuf, MPI_Count scount, MPI_Datatype st,
                          MPI_Count rcount, MPI_Datatype rt);
mw_xfer mw_xfer_allgatherv(MPI_Comm comm, const void *sendbuf, MPI_Count scount, MPI_Datatype st,
                           mw_counts rcounts, MPI_Datatype rt);
mw_xfer mw_xfer_allreduce(MPI_Comm comm, const void *sendbuf, MPI_Count count, MPI_Datatype t);
mw_xfer mw_xfer_alltoall(MPI_Comm comm, const void *sendbuf, MPI_Count scount, MPI_Datatype st,
                         MPI_Count rcount, MPI_Datatype rt);
mw_xfer mw_xfer_alltoallv(MPI_Comm comm, const void *sendbuf, mw_counts scounts, MPI_Datatype st,
                          mw_counts rcounts, MPI_Datatype rt);
mw_xfer mw_xfer_alltoallw(MPI_Comm comm, const void *sendbuf, mw_counts scounts,
                          const MPI_Datatype *sts, mw_counts rcounts, const MPI_Datatype *rts);
mw_xfer mw_xfer_reduce_scatter(MPI_Comm comm, const void *sendbuf, mw_counts rcounts,
                               MPI_Datatype t);
mw_xfer mw_xfer_reduce_scatter_block(MPI_Comm comm, const void *sendbuf, MPI_Count rcount,
                                     MPI_Datatype t);
mw_xfer mw_xfer_scan(MPI_Comm comm, const void *sendbuf, MPI_Count count, MPI_Datatype t,
                     int exclusive);
mw_xfer mw_xfer_neighbor(MPI_Comm comm, MPI_Count scount, MPI_Datatype st, MPI_Count rcount,
                         MPI_Datatype rt);
mw_xfer mw_xfer_neighbor_v(MPI_Comm comm, MPI_Count scount, MPI_Datatype st, mw_counts rcounts,
                           MPI_Datatype rt);
mw_xfer mw_xfer_neighbor_vv(MPI_Comm comm, mw_counts scounts, MPI_Datatype st, mw_counts rcounts,
                            MPI_Datatype rt);
mw_xfer mw_xfer_neighbor_w(MPI_Comm comm, mw_counts scounts, const MPI_Datatype *sts,
                           mw_counts rcounts, const MPI_Datatype *rts);

/* ------------------------------------------- one-sided (mw_rma.c) */

uint32_t mw_win_ref(MPI_Win handle); /* OTF2_UNDEFINED_RMA_WIN if unknown */
void mw_win_new(mw_frame *f, MPI_Win handle, MPI_Comm comm);
uint32_t mw_win_forget(MPI_Win handle);
void mw_win_freed(mw_frame *f, uint32_t id);
void mw_rma_coll_begin(mw_frame *f);
void mw_rma_op(mw_frame *f, MPI_Win handle, int target, int get, MPI_Count count,
               MPI_Datatype type);
void mw_rma_atomic(mw_frame *f, MPI_Win handle, int target, OTF2_RmaAtomicType kind, uint64_t sent,
                   uint64_t received);
void mw_rma_fence(mw_frame *f, MPI_Win handle);
/* Post and start pass their group, the others MPI_GROUP_NULL. */
void mw_rma_group_sync(mw_frame *f, MPI_Win handle, MPI_Group group, int completes);
void mw_rma_lock(mw_frame *f, MPI_Win handle, int rank, int exclusive, int before);
void mw_rma_unlock(mw_frame *f, MPI_Win handle, int rank);
void mw_rma_flush(mw_frame *f, MPI_Win handle, int rank);
void mw_rma_lock_all(mw_frame *f, MPI_Win handle, int before);
void mw_rma_unlock_all(mw_frame *f, MPI_Win handle);
void mw_rma_flush_all(mw_frame *f, MPI_Win handle);
void mw_rma_fini(void);

/* --------------------------------------------------------------- MPI-IO */

/* A request of MPI_File_iread/iwrite... completed (from mw_complete):
   IoOperationComplete with the bytes of its status. One relaxed load when
   no MPI-IO operation is outstanding. */
void mw_io_completed(mw_frame *f, MPI_Request req, const MPI_Status *s);

/* ------------------------------------------------ clock and finalisation */

/* Ping-pong with rank 0 over comm; returns rank 0's clock minus ours at
   *when (pm_now clock). Collective. */
int64_t mw_clock_offset(MPI_Comm comm, uint64_t *when);

/* OTF2 collective callbacks implemented with PMPI (mw_otf2coll.c). */
extern const OTF2_CollectiveCallbacks mw_otf2_collectives;
OTF2_CollectiveContext *mw_otf2_context(MPI_Comm comm);
void mw_otf2_context_free(OTF2_CollectiveContext *c);

#endif /* MW_H */
