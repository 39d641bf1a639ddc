/* mw_env.c -- the hand-written wrappers: MPI_Init(_thread) hands the run
   over to libpomp (rank, size, thread level, collectives, communicators,
   clock offset), MPI_Finalize has libpomp write the trace, MPI_Abort saves
   what was recorded, MPI_Pcontrol switches recording. */
#include "mw.h"

#include "pomp.h"

/* Our own duplicate of MPI_COMM_WORLD: clock ping-pong and OTF2's
   collectives never mix with the application's messages. */
static MPI_Comm world = MPI_COMM_NULL;
static OTF2_CollectiveContext *world_context;
static pm_mpi_handover handover;
_Atomic int mw_running;

/* Flushes this process's buffers without any collective. Not (yet) in
   pomp_measure.h: declared weak, so it is called only once libpomp
   exports it, and its absence costs nothing. */
extern void pm_abort_flush(void) __attribute__((weak));

static void __attribute__((constructor)) expect_mpi(void) { pm_mpi_expected(); }

/* Everything after a successful PMPI_Init*: collective over WORLD. */
static void hand_over(int provided) {
  PMPI_Comm_dup(MPI_COMM_WORLD, &world);
  mw_fast_check();
  mw_requests_init();
  mw_messages_init();
  uint64_t when;
  int64_t offset = mw_clock_offset(world, &when);
  pm_clock_offset(when, offset);
  world_context = mw_otf2_context(world);
  handover.thread_level = provided == MPI_THREAD_MULTIPLE ? 3
                          : provided == MPI_THREAD_SERIALIZED ? 2
                          : provided == MPI_THREAD_FUNNELED ? 1 : 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &handover.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &handover.size);
  handover.collectives = &mw_otf2_collectives;
  handover.collectives_data = NULL;
  handover.world = world_context;
  if (pm_mpi_init(&handover) == 0) {
    mw_comm_init();
    atomic_store(&mw_running, 1);
  }
}

/* MPI_Init and MPI_Init_thread differ only in the PMPI call. */
static int init(enum mw_fn fn, int *argc, char ***argv, int required,
                int *provided) {
  mw_frame f;
  int recording = mw_begin(&f, fn);
  if (recording) pm_pause(f.l);
  int rc = fn == MW_FN_Init ? PMPI_Init(argc, argv)
                            : PMPI_Init_thread(argc, argv, required, provided);
  if (recording) pm_resume(f.l);
  if (rc == MPI_SUCCESS) {
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    hand_over(level);
  }
  if (recording) mw_end(&f);
  return rc;
}

int MPI_Init(int *argc, char ***argv) {
  return init(MW_FN_Init, argc, argv, MPI_THREAD_SINGLE, NULL);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  return init(MW_FN_Init_thread, argc, argv, required, provided);
}

int MPI_Finalize(void) {
  if (world != MPI_COMM_NULL) {
    mw_frame f;
    mw_begin(&f, MW_FN_Finalize);   /* left by pm_mpi_finalize */
    uint64_t when;
    int64_t offset = mw_clock_offset(world, &when);
    pm_clock_offset(when, offset);
    atomic_store(&mw_running, 0);
    pm_mpi_finalize();
    mw_requests_fini();
    mw_messages_fini();
    mw_comm_fini();
    mw_otf2_context_free(world_context);
    PMPI_Comm_free(&world);
  }
  return PMPI_Finalize();
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  mw_frame f;
  if (mw_begin(&f, MW_FN_Abort)) mw_end(&f);
  if (pm_abort_flush) pm_abort_flush();
  return PMPI_Abort(comm, errorcode);
}

/* Levels of the MPI standard's profiling control: 0 off, 1 on; others
   (2 = flush) are accepted and ignored. */
int MPI_Pcontrol(const int level, ...) {
  if (level == 0) POMP_Off();
  if (level == 1) POMP_On();
  return MPI_SUCCESS;
}
