/* mw_env.c -- the hand-written wrappers: MPI_Init(_thread) hands the run
   over to libpomp (rank, size, thread level, collectives, communicators,
   clock offset, the ranks on this node), MPI_Finalize has libpomp write
   the trace, MPI_Abort has the rank finish alone (its fragment, for
   pomp-recover), MPI_Pcontrol switches recording.

   MPI Sessions: a program that never calls MPI_Init hands the run over at
   its first MPI_Session_init, over a communicator of libpomp-mpi's own
   made from the process set mpi://WORLD of a session of its own (ranks
   are ranks in that set, as MPI_COMM_WORLD's would be); the trace is
   written when the program finalizes its last session. Whichever of
   MPI_Init and MPI_Session_init comes first hands over, once. */
#define _GNU_SOURCE /* dladdr, RTLD_DEFAULT */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mw.h"

#include "pomp.h"
#include "pomp_util.h"

/* Our own duplicate of MPI_COMM_WORLD (or, handed over by a session, our
   own comm of mpi://WORLD): clock ping-pong and OTF2's collectives never
   mix with the application's messages. */
static MPI_Comm world = MPI_COMM_NULL;
/* Under env_lock: the run was handed over (once per process); by a
   session (world belongs to own_session); the program's live sessions. */
static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;
static int handed_over, by_session, sessions;
static MPI_Session own_session = MPI_SESSION_NULL;
static OTF2_CollectiveContext *world_context;
static pm_mpi_handover handover;
_Atomic int mw_running;

/* The program's MPI_Init must be ours: a build system that links the MPI
   library before libpomp-mpi binds every MPI_* to the MPI library, and
   nothing would be recorded without a word. */
static void __attribute__((constructor)) expect_mpi(void) {
  Dl_info ours, bound;
  void *init = dlsym(RTLD_DEFAULT, "MPI_Init");
  if (init && dladdr((void *)expect_mpi, &ours) && dladdr(init, &bound) &&
      ours.dli_fbase != bound.dli_fbase) {
    pm_mpi_unbound(bound.dli_fname);
    return;
  }
  pm_mpi_expected();
}

/* The processes on this node (world rank, pid if it answers libpomp's
   peer signal): a rank that dies alone asks them to write their complete
   fragments before mpirun kills them (pm_peers.c). Collective over WORLD. */
static void register_node_peers(void) {
  MPI_Comm node;
  if (PMPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS)
    return;
  int n = 0;
  PMPI_Comm_size(node, &n);
  int mine[2] = {handover.rank, pm_mpi_peer_pid()};
  int *all = malloc(2 * (size_t)n * sizeof *all), *ranks = malloc((size_t)n * sizeof *ranks);
  if (all && ranks && PMPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, node) == MPI_SUCCESS) {
    for (int i = 0; i < n; i++) {
      ranks[i] = all[2 * i];
      all[i] = all[2 * i + 1]; /* pids, packed in place (i <= 2i + 1) */
    }
    pm_mpi_node_peers(n, ranks, all);
  }
  free(all);
  free(ranks);
  PMPI_Comm_free(&node);
}

/* Everything after a successful PMPI_Init* or the first
   PMPI_Session_init: collective over base (MPI_COMM_WORLD, duplicated, or
   our own comm of mpi://WORLD, kept). */
static void hand_over(int provided, MPI_Comm base) {
  if (base == MPI_COMM_WORLD) PMPI_Comm_dup(MPI_COMM_WORLD, &world);
  else world = base;
  mw_fast_check();
  mw_requests_init();
  mw_messages_init();
  uint64_t when;
  int64_t offset = mw_clock_offset(world, &when);
  pm_clock_offset(when, offset);
  world_context = mw_otf2_context(world);
  handover.thread_level = provided == MPI_THREAD_MULTIPLE     ? 3
                          : provided == MPI_THREAD_SERIALIZED ? 2
                          : provided == MPI_THREAD_FUNNELED   ? 1
                                                              : 0;
  PMPI_Comm_rank(world, &handover.rank);
  PMPI_Comm_size(world, &handover.size);
  handover.collectives = &mw_otf2_collectives;
  handover.collectives_data = NULL;
  handover.world = world_context;
  if (pm_mpi_init(&handover) == 0) {
    register_node_peers();
    mw_comm_init(world);
    atomic_store(&mw_running, 1);
  }
}

/* MPI_Init and MPI_Init_thread differ only in the PMPI call. */
static int init(enum mw_fn fn, int *argc, char ***argv, int required, int *provided) {
  mw_frame f;
  int recording = mw_begin(&f, fn);
  if (recording) pm_pause(f.l);
  int rc =
      fn == MW_FN_Init ? PMPI_Init(argc, argv) : PMPI_Init_thread(argc, argv, required, provided);
  if (recording) pm_resume(f.l);
  pthread_mutex_lock(&env_lock);
  if (rc == MPI_SUCCESS && !handed_over) {
    handed_over = 1;
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    hand_over(level, MPI_COMM_WORLD);
  }
  pthread_mutex_unlock(&env_lock);
  if (recording) mw_end(&f);
  return rc;
}

int MPI_Init(int *argc, char ***argv) {
  return init(MW_FN_Init, argc, argv, MPI_THREAD_SINGLE, NULL);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  return init(MW_FN_Init_thread, argc, argv, required, provided);
}

/* The end of the measurement (collective over world), inside fn's region,
   which pm_mpi_finalize leaves. */
static void finish(enum mw_fn fn) {
  mw_frame f;
  mw_begin(&f, fn);
  uint64_t when;
  int64_t offset = mw_clock_offset(world, &when);
  pm_clock_offset(when, offset);
  /* MPI_Finalize synchronises: no rank leaves it (pm_mpi_finalize writes
     the Leave) before every rank entered it, or Scalasca reports a
     clock-condition violation (docs/TRACE.md) */
  PMPI_Barrier(world);
  atomic_store(&mw_running, 0);
  pm_mpi_finalize();
  mw_requests_fini();
  mw_messages_fini();
  mw_rma_fini();
  mw_comm_fini();
  mw_otf2_context_free(world_context);
  PMPI_Comm_free(&world);
  if (own_session != MPI_SESSION_NULL) PMPI_Session_finalize(&own_session);
}

int MPI_Finalize(void) {
  pthread_mutex_lock(&env_lock);
  if (world != MPI_COMM_NULL && !by_session) finish(MW_FN_Finalize);
  pthread_mutex_unlock(&env_lock);
  return PMPI_Finalize();
}

/* ---------------------------------------------------------- MPI Sessions */

/* Our own comm of the process set mpi://WORLD, in a session of our own
   (errors returned: a failure leaves the run unmeasured, not aborted). */
static MPI_Comm session_world(void) {
  MPI_Group g = MPI_GROUP_NULL;
  MPI_Comm c = MPI_COMM_NULL;
  if (PMPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &own_session) != MPI_SUCCESS) {
    own_session = MPI_SESSION_NULL;
    return MPI_COMM_NULL;
  }
  if (PMPI_Group_from_session_pset(own_session, "mpi://WORLD", &g) != MPI_SUCCESS ||
      PMPI_Comm_create_from_group(g, "org.pomp.world", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c) !=
          MPI_SUCCESS)
    c = MPI_COMM_NULL;
  if (g != MPI_GROUP_NULL) PMPI_Group_free(&g);
  if (c == MPI_COMM_NULL) PMPI_Session_finalize(&own_session);
  return c;
}

/* The thread level a session provides (its info's "thread_level"). */
static int session_thread_level(MPI_Session session) {
  static const char *const names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                      "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
  static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                               MPI_THREAD_MULTIPLE};
  MPI_Info info = MPI_INFO_NULL;
  char value[64] = "";
  int found = 0, level = MPI_THREAD_SINGLE;
  if (PMPI_Session_get_info(session, &info) != MPI_SUCCESS) return level;
  PMPI_Info_get(info, "thread_level", (int)sizeof value - 1, value, &found);
  for (int i = 0; found && i < 4; i++)
    if (!strcmp(value, names[i])) level = levels[i];
  PMPI_Info_free(&info);
  return level;
}

int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session) {
  mw_frame f;
  int recording = mw_begin(&f, MW_FN_Session_init);
  if (recording) pm_pause(f.l);
  int rc = PMPI_Session_init(info, errhandler, session);
  if (recording) pm_resume(f.l);
  pthread_mutex_lock(&env_lock);
  if (rc == MPI_SUCCESS) sessions++;
  if (rc == MPI_SUCCESS && !handed_over) {
    handed_over = 1;
    MPI_Comm c = session_world();
    if (c != MPI_COMM_NULL) {
      by_session = 1;
      hand_over(session_thread_level(*session), c);
    } else {
      pu_warn("MPI Sessions: no communicator of mpi://WORLD; MPI calls are not recorded");
    }
  }
  pthread_mutex_unlock(&env_lock);
  if (recording) mw_end(&f);
  return rc;
}

/* The program's last session: the trace is written first (over our own
   session, still alive), inside MPI_Session_finalize's region. */
int MPI_Session_finalize(MPI_Session *session) {
  pthread_mutex_lock(&env_lock);
  int last = sessions > 0 && --sessions == 0 && by_session && world != MPI_COMM_NULL;
  if (last) finish(MW_FN_Session_finalize);
  pthread_mutex_unlock(&env_lock);
  if (last) return PMPI_Session_finalize(session);
  mw_frame f;
  if (!mw_begin(&f, MW_FN_Session_finalize)) return PMPI_Session_finalize(session);
  pm_pause(f.l);
  int rc = PMPI_Session_finalize(session);
  pm_resume(f.l);
  mw_end(&f);
  return rc;
}

/* The rank finishes alone (complete fragment, same-node peers asked for
   theirs) before PMPI_Abort: mpirun kills every process right after. */
int MPI_Abort(MPI_Comm comm, int errorcode) {
  mw_frame f;
  if (mw_begin(&f, MW_FN_Abort)) mw_end(&f);
  char name[MPI_MAX_OBJECT_NAME] = "", reason[MPI_MAX_OBJECT_NAME + 48];
  int len = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_get_name(comm, name, &len) != MPI_SUCCESS || !len)
    snprintf(name, sizeof name, "a communicator");
  snprintf(reason, sizeof reason, "MPI_Abort(%s, %d)", name, errorcode);
  pm_rank_ends_alone(reason);
  return PMPI_Abort(comm, errorcode);
}

/* Levels of the MPI standard's profiling control: 0 off, 1 on; others
   (2 = flush) are accepted and ignored. */
int MPI_Pcontrol(const int level, ...) {
  if (level == 0) POMP_Off();
  if (level == 1) POMP_On();
  return MPI_SUCCESS;
}
