/* mw_f08.c -- `use mpi_f08` programs with MPICH.

   MPICH 4.0.2's mpi_f08 routines that take a choice buffer (Send, Recv,
   Isend, Allreduce, ...) reach the C MPI_ functions and so the wrappers;
   the others call PMPI_ directly (checked with objdump: mpi_barrier_f08_
   calls PMPI_Barrier, mpi_init_f08_ PMPI_Init, mpi_wait_f08_ PMPI_Wait),
   so a program would be recorded without MPI_Init, its Waits or its
   communicators. The routines below take their place, under the same
   symbols (mpi_<name>_f08_), and do what MPICH's do -- pass the arguments
   to the C binding, absent optional IERROR = NULL, the f08 STATUS(ES)_IGNORE
   objects mapped to C's -- but call the C MPI_ wrapper instead of PMPI_.
   In MPICH a Fortran handle, request array and TYPE(MPI_Status) have the
   C layout (handles are ints), and, like MPICH 4.0.2's own f08 routines,
   the indices of Waitany/Waitsome/Testany/Testsome are passed through
   unchanged. Not covered (still unrecorded from f08): group calls, window
   creation without a buffer (Win_allocate*, Win_create_dynamic), topology
   queries, dynamic-process and partitioned calls, and the
   communicator constructors that take strings or weights (README). */
#include "mw.h"

#ifdef MPICH

_Static_assert(sizeof(MPI_Comm) == sizeof(MPI_Fint) && sizeof(MPI_Request) == sizeof(MPI_Fint),
               "MPICH handles are Fortran integers");
_Static_assert(sizeof(MPI_Status) == sizeof(MPI_F08_status), "f08 statuses have the C layout");

/* The f08 module's MPI_STATUS(ES)_IGNORE are objects whose addresses the
   C binding knows (MPI-4: MPI_F08_STATUS(ES)_IGNORE). */
static MPI_Status *status_of(MPI_Fint *s) {
  return (MPI_F08_status *)s == MPI_F08_STATUS_IGNORE ? MPI_STATUS_IGNORE : (MPI_Status *)s;
}

static MPI_Status *statuses_of(MPI_Fint *s) {
  return (MPI_F08_status *)s == MPI_F08_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : (MPI_Status *)s;
}

static MPI_Comm comm_of(const MPI_Fint *c) { return MPI_Comm_f2c(*c); }
static MPI_Request *requests_of(MPI_Fint *r) { return (MPI_Request *)r; }

/* The optional IERROR. */
static void done(MPI_Fint *ierror, int rc) {
  if (ierror) *ierror = rc;
}

/* The end of a call that makes (or frees) a communicator: its handle *c
   back to Fortran, and IERROR. Called as comm_done(out, &c, ierror,
   MPI_X(..., &c)), so *c is read after MPI_X set it. */
static void comm_done(MPI_Fint *out, const MPI_Comm *c, MPI_Fint *ierror, int rc) {
  *out = MPI_Comm_c2f(*c);
  done(ierror, rc);
}

/* ----------------------------------------------------------- environment */

void mpi_init_f08_(MPI_Fint *ierror) { done(ierror, MPI_Init(NULL, NULL)); }

void mpi_init_thread_f08_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror) {
  int p = 0, rc = MPI_Init_thread(NULL, NULL, *required, &p);
  *provided = p;
  done(ierror, rc);
}

void mpi_finalize_f08_(MPI_Fint *ierror) { done(ierror, MPI_Finalize()); }

void mpi_abort_f08_(const MPI_Fint *comm, const MPI_Fint *errorcode, MPI_Fint *ierror) {
  done(ierror, MPI_Abort(comm_of(comm), *errorcode));
}

/* ------------------------------------------------------------- completion */

void mpi_wait_f08_(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierror) {
  done(ierror, MPI_Wait(requests_of(request), status_of(status)));
}

void mpi_waitall_f08_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses,
                      MPI_Fint *ierror) {
  done(ierror, MPI_Waitall(*count, requests_of(requests), statuses_of(statuses)));
}

void mpi_waitany_f08_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status,
                      MPI_Fint *ierror) {
  done(ierror, MPI_Waitany(*count, requests_of(requests), index, status_of(status)));
}

void mpi_waitsome_f08_(const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                       MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierror) {
  done(ierror,
       MPI_Waitsome(*incount, requests_of(requests), outcount, indices, statuses_of(statuses)));
}

/* Fortran LOGICAL results: gfortran's .true. is 1, as C's flags are. */
void mpi_test_f08_(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror) {
  done(ierror, MPI_Test(requests_of(request), flag, status_of(status)));
}

void mpi_testall_f08_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses,
                      MPI_Fint *ierror) {
  done(ierror, MPI_Testall(*count, requests_of(requests), flag, statuses_of(statuses)));
}

void mpi_testany_f08_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                      MPI_Fint *status, MPI_Fint *ierror) {
  done(ierror, MPI_Testany(*count, requests_of(requests), index, flag, status_of(status)));
}

void mpi_testsome_f08_(const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                       MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierror) {
  done(ierror,
       MPI_Testsome(*incount, requests_of(requests), outcount, indices, statuses_of(statuses)));
}

void mpi_start_f08_(MPI_Fint *request, MPI_Fint *ierror) {
  done(ierror, MPI_Start(requests_of(request)));
}

void mpi_startall_f08_(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *ierror) {
  done(ierror, MPI_Startall(*count, requests_of(requests)));
}

void mpi_request_free_f08_(MPI_Fint *request, MPI_Fint *ierror) {
  done(ierror, MPI_Request_free(requests_of(request)));
}

void mpi_cancel_f08_(MPI_Fint *request, MPI_Fint *ierror) {
  done(ierror, MPI_Cancel(requests_of(request)));
}

void mpi_probe_f08_(const MPI_Fint *source, const MPI_Fint *tag, const MPI_Fint *comm,
                    MPI_Fint *status, MPI_Fint *ierror) {
  done(ierror, MPI_Probe(*source, *tag, comm_of(comm), status_of(status)));
}

void mpi_iprobe_f08_(const MPI_Fint *source, const MPI_Fint *tag, const MPI_Fint *comm,
                     MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror) {
  done(ierror, MPI_Iprobe(*source, *tag, comm_of(comm), flag, status_of(status)));
}

/* ------------------------------------------------------------ collectives */

void mpi_barrier_f08_(const MPI_Fint *comm, MPI_Fint *ierror) {
  done(ierror, MPI_Barrier(comm_of(comm)));
}

void mpi_ibarrier_f08_(const MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror) {
  done(ierror, MPI_Ibarrier(comm_of(comm), requests_of(request)));
}

/* ---------------------------------------------------------- communicators */

void mpi_comm_dup_f08_(const MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(newcomm, &c, ierror, MPI_Comm_dup(comm_of(comm), &c));
}

void mpi_comm_dup_with_info_f08_(const MPI_Fint *comm, const MPI_Fint *info, MPI_Fint *newcomm,
                                 MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(newcomm, &c, ierror, MPI_Comm_dup_with_info(comm_of(comm), MPI_Info_f2c(*info), &c));
}

/* The new handle exists at once; the request completes the duplication. */
void mpi_comm_idup_f08_(const MPI_Fint *comm, MPI_Fint *newcomm, MPI_Fint *request,
                        MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(newcomm, &c, ierror, MPI_Comm_idup(comm_of(comm), &c, requests_of(request)));
}

void mpi_comm_split_f08_(const MPI_Fint *comm, const MPI_Fint *color, const MPI_Fint *key,
                         MPI_Fint *newcomm, MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(newcomm, &c, ierror, MPI_Comm_split(comm_of(comm), *color, *key, &c));
}

void mpi_comm_split_type_f08_(const MPI_Fint *comm, const MPI_Fint *split_type, const MPI_Fint *key,
                              const MPI_Fint *info, MPI_Fint *newcomm, MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(newcomm, &c, ierror,
            MPI_Comm_split_type(comm_of(comm), *split_type, *key, MPI_Info_f2c(*info), &c));
}

void mpi_comm_create_f08_(const MPI_Fint *comm, const MPI_Fint *group, MPI_Fint *newcomm,
                          MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(newcomm, &c, ierror, MPI_Comm_create(comm_of(comm), MPI_Group_f2c(*group), &c));
}

void mpi_comm_create_group_f08_(const MPI_Fint *comm, const MPI_Fint *group, const MPI_Fint *tag,
                                MPI_Fint *newcomm, MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(newcomm, &c, ierror,
            MPI_Comm_create_group(comm_of(comm), MPI_Group_f2c(*group), *tag, &c));
}

void mpi_comm_free_f08_(MPI_Fint *comm, MPI_Fint *ierror) {
  MPI_Comm c = comm_of(comm);
  comm_done(comm, &c, ierror, MPI_Comm_free(&c));
}

void mpi_cart_create_f08_(const MPI_Fint *comm_old, const MPI_Fint *ndims, const MPI_Fint *dims,
                          const MPI_Fint *periods, const MPI_Fint *reorder, MPI_Fint *comm_cart,
                          MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(comm_cart, &c, ierror,
            MPI_Cart_create(comm_of(comm_old), *ndims, dims, periods, *reorder, &c));
}

void mpi_cart_sub_f08_(const MPI_Fint *comm, const MPI_Fint *remain_dims, MPI_Fint *newcomm,
                       MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(newcomm, &c, ierror, MPI_Cart_sub(comm_of(comm), remain_dims, &c));
}

void mpi_graph_create_f08_(const MPI_Fint *comm_old, const MPI_Fint *nnodes, const MPI_Fint *index,
                           const MPI_Fint *edges, const MPI_Fint *reorder, MPI_Fint *comm_graph,
                           MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(comm_graph, &c, ierror,
            MPI_Graph_create(comm_of(comm_old), *nnodes, index, edges, *reorder, &c));
}

void mpi_intercomm_create_f08_(const MPI_Fint *local_comm, const MPI_Fint *local_leader,
                               const MPI_Fint *peer_comm, const MPI_Fint *remote_leader,
                               const MPI_Fint *tag, MPI_Fint *newintercomm, MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(newintercomm, &c, ierror,
            MPI_Intercomm_create(comm_of(local_comm), *local_leader, comm_of(peer_comm),
                                 *remote_leader, *tag, &c));
}

void mpi_intercomm_merge_f08_(const MPI_Fint *intercomm, const MPI_Fint *high,
                              MPI_Fint *newintracomm, MPI_Fint *ierror) {
  MPI_Comm c = MPI_COMM_NULL;
  comm_done(newintracomm, &c, ierror, MPI_Intercomm_merge(comm_of(intercomm), *high, &c));
}

/* ------------------------------------------- one-sided synchronisation */

static MPI_Win win_of(const MPI_Fint *w) { return MPI_Win_f2c(*w); }

/* The window calls by the arguments they take before the window. */
#define WIN_ONLY(fname, call)                                                                      \
  void fname(const MPI_Fint *win, MPI_Fint *ierror) { done(ierror, call(win_of(win))); }
#define WIN_INT(fname, call)                                                                       \
  void fname(const MPI_Fint *i, const MPI_Fint *win, MPI_Fint *ierror) {                           \
    done(ierror, call(*i, win_of(win)));                                                           \
  }
#define WIN_GROUP(fname, call)                                                                     \
  void fname(const MPI_Fint *group, const MPI_Fint *assert, const MPI_Fint *win,                   \
             MPI_Fint *ierror) {                                                                   \
    done(ierror, call(MPI_Group_f2c(*group), *assert, win_of(win)));                               \
  }

WIN_ONLY(mpi_win_unlock_all_f08_, MPI_Win_unlock_all)
WIN_ONLY(mpi_win_flush_all_f08_, MPI_Win_flush_all)
WIN_ONLY(mpi_win_flush_local_all_f08_, MPI_Win_flush_local_all)
WIN_ONLY(mpi_win_sync_f08_, MPI_Win_sync)
WIN_ONLY(mpi_win_complete_f08_, MPI_Win_complete)
WIN_ONLY(mpi_win_wait_f08_, MPI_Win_wait)
WIN_INT(mpi_win_fence_f08_, MPI_Win_fence)       /* assert */
WIN_INT(mpi_win_lock_all_f08_, MPI_Win_lock_all) /* assert */
WIN_INT(mpi_win_unlock_f08_, MPI_Win_unlock)     /* rank */
WIN_INT(mpi_win_flush_f08_, MPI_Win_flush)       /* rank */
WIN_INT(mpi_win_flush_local_f08_, MPI_Win_flush_local)
WIN_GROUP(mpi_win_post_f08_, MPI_Win_post)
WIN_GROUP(mpi_win_start_f08_, MPI_Win_start)

void mpi_win_lock_f08_(const MPI_Fint *lock_type, const MPI_Fint *rank, const MPI_Fint *assert,
                       const MPI_Fint *win, MPI_Fint *ierror) {
  done(ierror, MPI_Win_lock(*lock_type, *rank, *assert, win_of(win)));
}

void mpi_win_test_f08_(const MPI_Fint *win, MPI_Fint *flag, MPI_Fint *ierror) {
  done(ierror, MPI_Win_test(win_of(win), flag));
}

void mpi_win_free_f08_(MPI_Fint *win, MPI_Fint *ierror) {
  MPI_Win w = win_of(win);
  int rc = MPI_Win_free(&w);
  *win = MPI_Win_c2f(w);
  done(ierror, rc);
}

#endif
