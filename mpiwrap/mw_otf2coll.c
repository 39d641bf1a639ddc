/* mw_otf2coll.c -- OTF2's collective callbacks implemented with PMPI, so
   libpomp (which does not link MPI) can open and close the archive and
   unify definitions across ranks. Contexts wrap a communicator; the world
   context is libpomp-mpi's own duplicate of MPI_COMM_WORLD. */
#include "mw.h"

#include <stdlib.h>

#include "pomp_util.h"

struct OTF2_CollectiveContext {
  MPI_Comm comm;
};

OTF2_CollectiveContext *mw_otf2_context(MPI_Comm comm) {
  OTF2_CollectiveContext *c = pu_malloc(sizeof *c);
  c->comm = comm;
  return c;
}

void mw_otf2_context_free(OTF2_CollectiveContext *c) { free(c); }

static MPI_Datatype mpi_type(OTF2_Type t) {
  switch (t) {
  case OTF2_TYPE_UINT8: return MPI_UINT8_T;
  case OTF2_TYPE_UINT16: return MPI_UINT16_T;
  case OTF2_TYPE_UINT32: return MPI_UINT32_T;
  case OTF2_TYPE_UINT64: return MPI_UINT64_T;
  case OTF2_TYPE_INT8: return MPI_INT8_T;
  case OTF2_TYPE_INT16: return MPI_INT16_T;
  case OTF2_TYPE_INT32: return MPI_INT32_T;
  case OTF2_TYPE_INT64: return MPI_INT64_T;
  case OTF2_TYPE_FLOAT: return MPI_FLOAT;
  case OTF2_TYPE_DOUBLE: return MPI_DOUBLE;
  case OTF2_TYPE_LOCATION: return MPI_UINT64_T;
  case OTF2_TYPE_STRING:
  case OTF2_TYPE_ATTRIBUTE:
  case OTF2_TYPE_REGION:
  case OTF2_TYPE_GROUP:
  case OTF2_TYPE_METRIC:
  case OTF2_TYPE_COMM:
  case OTF2_TYPE_PARAMETER: return MPI_UINT32_T; /* definition references */
  default: return MPI_DATATYPE_NULL;
  }
}

static OTF2_CallbackCode result(int rc) {
  return rc == MPI_SUCCESS ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR;
}

static void release(void *u, OTF2_CollectiveContext *g, OTF2_CollectiveContext *l) {
  (void)u, (void)g, (void)l; /* contexts are freed by their creators */
}

static OTF2_CallbackCode get_size(void *u, OTF2_CollectiveContext *c, uint32_t *size) {
  (void)u;
  int n;
  int rc = PMPI_Comm_size(c->comm, &n);
  *size = (uint32_t)n;
  return result(rc);
}

static OTF2_CallbackCode get_rank(void *u, OTF2_CollectiveContext *c, uint32_t *rank) {
  (void)u;
  int r;
  int rc = PMPI_Comm_rank(c->comm, &r);
  *rank = (uint32_t)r;
  return result(rc);
}

static OTF2_CallbackCode create_local(void *u, OTF2_CollectiveContext **local,
                                      OTF2_CollectiveContext *global, uint32_t grank,
                                      uint32_t gsize, uint32_t lrank, uint32_t lsize, uint32_t file,
                                      uint32_t nfiles) {
  (void)u, (void)grank, (void)gsize, (void)lsize, (void)nfiles;
  MPI_Comm comm;
  int rc = PMPI_Comm_split(global->comm, (int)file, (int)lrank, &comm);
  *local = rc == MPI_SUCCESS ? mw_otf2_context(comm) : NULL;
  return result(rc);
}

static OTF2_CallbackCode free_local(void *u, OTF2_CollectiveContext *local) {
  (void)u;
  int rc = PMPI_Comm_free(&local->comm);
  mw_otf2_context_free(local);
  return result(rc);
}

static OTF2_CallbackCode barrier(void *u, OTF2_CollectiveContext *c) {
  (void)u;
  return result(PMPI_Barrier(c->comm));
}

static OTF2_CallbackCode bcast(void *u, OTF2_CollectiveContext *c, void *data, uint32_t n,
                               OTF2_Type t, uint32_t root) {
  (void)u;
  return result(PMPI_Bcast(data, (int)n, mpi_type(t), (int)root, c->comm));
}

static OTF2_CallbackCode gather(void *u, OTF2_CollectiveContext *c, const void *in, void *out,
                                uint32_t n, OTF2_Type t, uint32_t root) {
  (void)u;
  return result(PMPI_Gather(in, (int)n, mpi_type(t), out, (int)n, mpi_type(t), (int)root, c->comm));
}

static OTF2_CallbackCode scatter(void *u, OTF2_CollectiveContext *c, const void *in, void *out,
                                 uint32_t n, OTF2_Type t, uint32_t root) {
  (void)u;
  return result(
      PMPI_Scatter(in, (int)n, mpi_type(t), out, (int)n, mpi_type(t), (int)root, c->comm));
}

/* Counts and displacements as MPI wants them (only the root has them). */
static int *counts_displs(OTF2_CollectiveContext *c, const uint32_t *counts, uint32_t root) {
  int rank, size;
  PMPI_Comm_rank(c->comm, &rank);
  PMPI_Comm_size(c->comm, &size);
  if ((uint32_t)rank != root) return NULL;
  int *cd = pu_malloc(2 * (size_t)size * sizeof *cd);
  for (int i = 0, at = 0; i < size; at += (int)counts[i], i++) {
    cd[i] = (int)counts[i];
    cd[size + i] = at;
  }
  return cd;
}

static OTF2_CallbackCode gatherv(void *u, OTF2_CollectiveContext *c, const void *in, uint32_t nin,
                                 void *out, const uint32_t *nout, OTF2_Type t, uint32_t root) {
  (void)u;
  int size;
  PMPI_Comm_size(c->comm, &size);
  int *cd = counts_displs(c, nout, root);
  int rc = PMPI_Gatherv(in, (int)nin, mpi_type(t), out, cd, cd ? cd + size : NULL, mpi_type(t),
                        (int)root, c->comm);
  free(cd);
  return result(rc);
}

static OTF2_CallbackCode scatterv(void *u, OTF2_CollectiveContext *c, const void *in,
                                  const uint32_t *nin, void *out, uint32_t nout, OTF2_Type t,
                                  uint32_t root) {
  (void)u;
  int size;
  PMPI_Comm_size(c->comm, &size);
  int *cd = counts_displs(c, nin, root);
  int rc = PMPI_Scatterv(in, cd, cd ? cd + size : NULL, mpi_type(t), out, (int)nout, mpi_type(t),
                         (int)root, c->comm);
  free(cd);
  return result(rc);
}

const OTF2_CollectiveCallbacks mw_otf2_collectives = {
    .otf2_release = release,
    .otf2_get_size = get_size,
    .otf2_get_rank = get_rank,
    .otf2_create_local_comm = create_local,
    .otf2_free_local_comm = free_local,
    .otf2_barrier = barrier,
    .otf2_bcast = bcast,
    .otf2_gather = gather,
    .otf2_gatherv = gatherv,
    .otf2_scatter = scatter,
    .otf2_scatterv = scatterv,
};
