/* test_unify_merge.c -- the comm unification of pm_unify_merge
   (unify/pm_merge.c) on many communicators: 3 ranks, each with
   MPI_COMM_WORLD, MPI_COMM_SELF and 20,000 comms, alternately a duplicate
   of WORLD and the rank's half of WORLD (split by parity: {0,2} and {1}).
   The k-th comm with a member list is the same comm on every member, so
   every rank's k-th duplicate maps to rank 0's, rank 2's halves to rank
   0's, and rank 1's halves are new comms numbered after rank 0's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pomp_unify.h"

#define NRANKS 3
#define NCOMMS 20000u /* besides WORLD and SELF */

static void put_comm(pm_blob *b, const char *name, uint32_t parent, int is_self, uint32_t n,
                     const uint32_t *ranks) {
  pm_blob_str(b, name);
  pm_blob_u32(b, parent);
  pm_blob_u32(b, (uint32_t)is_self);
  pm_blob_u32(b, n);
  pm_blob_put(b, ranks, n * sizeof *ranks);
}

static int is_half(uint32_t i) { return i % 2 == 1; }

static void describe(pm_blob *b, uint32_t rank) {
  pm_blob_str(b, "node1");
  pm_blob_u64(b, 10);
  pm_blob_u64(b, 20);
  pm_blob_u32(b, 1); /* one location */
  pm_blob_u32(b, 0);
  pm_blob_u64(b, 5);
  pm_blob_u32(b, 0); /* no regions */
  const uint32_t world[NRANKS] = {0, 1, 2}, even[2] = {0, 2}, odd[1] = {1};
  pm_blob_u32(b, NCOMMS + 2);
  put_comm(b, "MPI_COMM_WORLD", UINT32_MAX, 0, NRANKS, world);
  put_comm(b, "MPI_COMM_SELF", UINT32_MAX, 1, 1, &rank);
  for (uint32_t i = 0; i < NCOMMS; i++) {
    if (!is_half(i)) put_comm(b, "", 0, 0, NRANKS, world);
    else if (rank % 2 == 0) put_comm(b, "", 0, 0, 2, even);
    else put_comm(b, "", 0, 0, 1, odd);
  }
  pm_blob_u32(b, 0); /* no team comms */
}

/* The comm map of a map blob: after the region map (count 0). */
static const uint32_t *comm_map(const pm_blob *map, uint32_t *n) {
  const uint32_t *w = (const uint32_t *)map->data;
  assert_int_equal(w[0], 0);
  *n = w[1];
  return w + 2;
}

static void many_comms(void **state) {
  (void)state;
  pm_blob all = {0}, maps[NRANKS] = {{0}};
  uint32_t sizes[NRANKS];
  for (uint32_t r = 0; r < NRANKS; r++) {
    size_t before = all.len;
    describe(&all, r);
    sizes[r] = (uint32_t)(all.len - before);
  }
  pm_merge_error err;
  assert_int_equal(pm_unify_merge(NULL, all.data, sizes, NRANKS, 1, 0, 0, maps, &err), 0);
  const uint32_t first_odd = NCOMMS + 2; /* rank 1's halves come after rank 0's comms */
  for (uint32_t r = 0; r < NRANKS; r++) {
    uint32_t n;
    const uint32_t *ids = comm_map(&maps[r], &n);
    assert_int_equal(n, NCOMMS + 2);
    assert_int_equal(ids[0], 0);
    assert_int_equal(ids[1], 1);
    for (uint32_t i = 0, halves = 0; i < NCOMMS; i++) {
      uint32_t want = i + 2; /* rank 0's id */
      if (r == 1 && is_half(i)) want = first_odd + halves;
      halves += is_half(i);
      if (ids[i + 2] != want)
        fail_msg("rank %u comm %u: id %u, expected %u", r, i + 2, ids[i + 2], want);
    }
  }
  for (uint32_t r = 0; r < NRANKS; r++) pm_blob_free(&maps[r]);
  pm_blob_free(&all);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(many_comms)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
