/* mwt_sessions.c -- an MPI Sessions program (MPI 4; never calls MPI_Init):
   a session, its process sets, a communicator from the group of
   mpi://WORLD with point-to-point and collective traffic, a second session
   with a communicator of mpi://SELF, finalized before the first. Its exact
   records are compared with sessions.expected (2 ranks): the ranks are
   those of mpi://WORLD, the Session calls are regions, and the trace is
   written when the last session is finalized. */
#include <string.h>

#include "mwt.h"

/* A communicator of the process set `pset` of session s. */
static MPI_Comm comm_of(MPI_Session s, const char *pset, const char *tag) {
  MPI_Group g;
  MPI_Comm c;
  mwt_check(MPI_Group_from_session_pset(s, pset, &g), "MPI_Group_from_session_pset");
  mwt_check(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &c),
            "MPI_Comm_create_from_group");
  MPI_Group_free(&g);
  return c;
}

/* The process set mpi://WORLD is one of the session's. */
static int has_world(MPI_Session s) {
  int n = 0, found = 0;
  MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
  for (int i = 0; i < n; i++) {
    char name[256];
    int len = (int)sizeof name;
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name);
    found |= !strcmp(name, "mpi://WORLD");
  }
  return found;
}

int main(void) {
  MPI_Session s, solo;
  if (MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s) != MPI_SUCCESS) return 1;
  if (!has_world(s)) return 1;
  mwt_world = comm_of(s, "mpi://WORLD", "org.pomp.test.world");
  MPI_Comm_rank(mwt_world, &mwt_rank);
  MPI_Comm_size(mwt_world, &mwt_size);
  int right = (mwt_rank + 1) % mwt_size, left = (mwt_rank + mwt_size - 1) % mwt_size;
  int x = mwt_rank + 1, got = -1, sum = 0;
  MPI_Sendrecv(&x, 1, MPI_INT, right, 4, &got, 1, MPI_INT, left, 4, mwt_world,
               MPI_STATUS_IGNORE);
  MWT_MSG(right);
  MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, mwt_world), MWT_COLL();
  mwt_print("ring", got);
  mwt_print("sum", sum);

  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &solo);
  MPI_Comm self = comm_of(solo, "mpi://SELF", "org.pomp.test.self");
  MPI_Barrier(self), MWT_COLL();
  MPI_Comm_free(&self);
  MPI_Session_finalize(&solo);

  /* WORLD, SELF, the comm of mpi://WORLD, one of mpi://SELF per rank;
     groups: WORLD's members, SELF, each rank alone */
  mwt_comms = 3 + mwt_size;
  mwt_groups = 2 + (mwt_size > 1 ? mwt_size : 0);
  mwt_report();
  MPI_Comm_free(&mwt_world);
  MPI_Session_finalize(&s);
  return 0;
}
