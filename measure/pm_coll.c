/* pm_coll.c -- the collectives libpomp and OTF2 run on. A process without
   MPI is a group of one: every collective is a copy. With MPI,
   libpomp-mpi's PMPI implementations replace them at pm_mpi_init. */
#include <string.h>

#include "pm_trace.h"

static size_t type_size(OTF2_Type t) {
  switch (t) {
  case OTF2_TYPE_UINT8:
  case OTF2_TYPE_INT8: return 1;
  case OTF2_TYPE_UINT16:
  case OTF2_TYPE_INT16: return 2;
  case OTF2_TYPE_UINT32:
  case OTF2_TYPE_INT32:
  case OTF2_TYPE_FLOAT: return 4;
  default: return 8;
  }
}

static OTF2_CallbackCode s_size(void *u, OTF2_CollectiveContext *c, uint32_t *size) {
  (void)u, (void)c;
  *size = 1;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode s_rank(void *u, OTF2_CollectiveContext *c, uint32_t *rank) {
  (void)u, (void)c;
  *rank = 0;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode s_barrier(void *u, OTF2_CollectiveContext *c) {
  (void)u, (void)c;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode s_bcast(void *u, OTF2_CollectiveContext *c, void *d, uint32_t n,
                                 OTF2_Type t, uint32_t root) {
  (void)u, (void)c, (void)d, (void)n, (void)t, (void)root;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode s_copy(void *u, OTF2_CollectiveContext *c, const void *in, void *out,
                                uint32_t n, OTF2_Type t, uint32_t root) {
  (void)u, (void)c, (void)root;
  if (n) memmove(out, in, n * type_size(t));
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode s_gatherv(void *u, OTF2_CollectiveContext *c, const void *in, uint32_t n,
                                   void *out, const uint32_t *counts, OTF2_Type t, uint32_t root) {
  (void)counts;
  return s_copy(u, c, in, out, n, t, root);
}

static OTF2_CallbackCode s_scatterv(void *u, OTF2_CollectiveContext *c, const void *in,
                                    const uint32_t *counts, void *out, uint32_t n, OTF2_Type t,
                                    uint32_t root) {
  (void)counts;
  return s_copy(u, c, in, out, n, t, root);
}

const OTF2_CollectiveCallbacks pm_serial_collectives = {
    .otf2_get_size = s_size,
    .otf2_get_rank = s_rank,
    .otf2_barrier = s_barrier,
    .otf2_bcast = s_bcast,
    .otf2_gather = s_copy,
    .otf2_gatherv = s_gatherv,
    .otf2_scatter = s_copy,
    .otf2_scatterv = s_scatterv,
};

pm_collectives pm_coll = {&pm_serial_collectives, NULL, NULL, 0, 1};

static int ok(OTF2_CallbackCode c) { return c == OTF2_CALLBACK_SUCCESS ? 0 : -1; }

int pm_coll_bcast(void *data, uint32_t n) {
  return ok(pm_coll.cb->otf2_bcast(pm_coll.data, pm_coll.ctx, data, n, OTF2_TYPE_UINT8, 0));
}

int pm_coll_gather_u64(uint64_t value, uint64_t *all) {
  return ok(
      pm_coll.cb->otf2_gather(pm_coll.data, pm_coll.ctx, &value, all, 1, OTF2_TYPE_UINT64, 0));
}

int pm_coll_gatherv(const void *in, uint32_t n, void *out, const uint32_t *counts) {
  return ok(
      pm_coll.cb->otf2_gatherv(pm_coll.data, pm_coll.ctx, in, n, out, counts, OTF2_TYPE_UINT8, 0));
}

int pm_coll_scatterv(const void *in, const uint32_t *counts, void *out, uint32_t n) {
  return ok(
      pm_coll.cb->otf2_scatterv(pm_coll.data, pm_coll.ctx, in, counts, out, n, OTF2_TYPE_UINT8, 0));
}
