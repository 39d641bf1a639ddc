/* bench_unify.c -- the unification of definitions at MPI_Finalize
 * (unify/pm_merge.c, pm_unify_merge) against the number of communicators
 * a rank created: RANKS ranks, each with N communicators (MPI_COMM_WORLD
 * duplicates and halves, as a dup/free or split/free loop leaves them),
 * 200 regions and 4 threads. Prints the time per rank and per comm for N =
 * 10^3, 10^4, 10^5 and the ratio of each to the first: a linear merge
 * keeps the time per comm flat (the quadratic one multiplied it by 10 per
 * step: 40,000 comms took 11.3 s at MPI_Finalize). The baseline, measured
 * in the same run, is one pass of reading the blobs (pm_get_* over every
 * byte, what any merge must at least do).
 * usage: bench-unify [RANKS]   (default 4)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pomp_unify.h"
#include "bench_clock.h"

#define ROUNDS 3
#ifndef MAX_COMMS
#define MAX_COMMS 100000
#endif

static void put_comm(pm_blob *b, const char *name, uint32_t parent, int is_self, uint32_t n,
                     const uint32_t *ranks) {
  pm_blob_str(b, name);
  pm_blob_u32(b, parent);
  pm_blob_u32(b, (uint32_t)is_self);
  pm_blob_u32(b, n);
  pm_blob_put(b, ranks, n * sizeof *ranks);
}

/* One rank's blob (pomp_unify.h): WORLD, SELF, then ncomms comms, every
   third one the rank's half of WORLD (split by parity). */
static void rank_defs(pm_blob *b, uint32_t rank, uint32_t nranks, uint32_t ncomms) {
  pm_blob_str(b, "benchnode");
  pm_blob_u64(b, 1000);
  pm_blob_u64(b, 9000);
  pm_blob_u32(b, 4);
  for (uint32_t t = 0; t < 4; t++) {
    pm_blob_u32(b, t);
    pm_blob_u64(b, 0);
  }
  pm_blob_u32(b, 200);
  for (uint32_t i = 0; i < 200; i++) {
    char name[64];
    snprintf(name, sizeof name, "solver_step_%u", i);
    pm_blob_str(b, name);
    pm_blob_str(b, "/home/user/app/solver.c");
    uint32_t nums[4] = {i, i + 9, 3, 15};
    for (int k = 0; k < 4; k++) pm_blob_u32(b, nums[k]);
  }
  uint32_t *all = malloc(nranks * sizeof *all), *half = malloc(nranks * sizeof *half), nhalf = 0;
  for (uint32_t r = 0; r < nranks; r++) {
    all[r] = r;
    if (r % 2 == rank % 2) half[nhalf++] = r;
  }
  pm_blob_u32(b, ncomms + 2);
  put_comm(b, "MPI_COMM_WORLD", UINT32_MAX, 0, nranks, all);
  put_comm(b, "MPI_COMM_SELF", UINT32_MAX, 1, 1, &rank);
  for (uint32_t i = 0; i < ncomms; i++) {
    if (i % 3 == 2) put_comm(b, "", 0, 0, nhalf, half);
    else put_comm(b, "", 0, 0, nranks, all);
  }
  pm_blob_u32(b, 1);
  pm_blob_u32(b, 4);
  free(all);
  free(half);
}

/* Reads every field of the blobs once: the floor of any merge. */
static uint64_t read_once(const unsigned char *blobs, const uint32_t *sizes, uint32_t nranks) {
  uint64_t sum = 0;
  for (uint32_t r = 0; r < nranks; r++) {
    pm_cursor c = {blobs, blobs + sizes[r], 0};
    blobs += sizes[r];
    while (!c.bad && c.p + 4 <= c.end) sum += pm_get_u32(&c);
  }
  return sum;
}

static void run(uint32_t nranks, uint32_t ncomms, double *per_comm0) {
  pm_blob all = {0};
  uint32_t *sizes = calloc(nranks, sizeof *sizes);
  for (uint32_t r = 0; r < nranks; r++) {
    size_t before = all.len;
    rank_defs(&all, r, nranks, ncomms);
    sizes[r] = (uint32_t)(all.len - before);
  }
  double best = 1e30, floor = 1e30;
  volatile uint64_t sink = 0;
  for (int k = 0; k < ROUNDS; k++) {
    double t0 = bench_now();
    sink += read_once(all.data, sizes, nranks);
    double t1 = bench_now();
    pm_blob *maps = calloc(nranks, sizeof *maps);
    pm_merge_error err;
    if (pm_unify_merge(NULL, all.data, sizes, nranks, 1, 0, 0, maps, &err) != 0) {
      fprintf(stderr, "bench-unify: merge refused rank %u at %zu\n", err.rank, err.offset);
      exit(1);
    }
    double t2 = bench_now();
    for (uint32_t r = 0; r < nranks; r++) pm_blob_free(&maps[r]);
    free(maps);
    if (t2 - t1 < best) best = t2 - t1;
    if (t1 - t0 < floor) floor = t1 - t0;
  }
  double per_comm = best / nranks / ncomms * 1e9;
  if (*per_comm0 == 0) *per_comm0 = per_comm;
  printf("%8u comms x %u ranks: merge %9.3f ms (%7.1f ns per comm, %5.2fx the first row), "
         "reading the blobs once %8.3f ms (merge %.1fx)\n",
         ncomms, nranks, best * 1e3, per_comm, per_comm / *per_comm0, floor * 1e3, best / floor);
  pm_blob_free(&all);
  free(sizes);
}

int main(int argc, char **argv) {
  uint32_t nranks = argc > 1 ? (uint32_t)atoi(argv[1]) : 4;
  if (nranks < 1 || nranks > 1024) {
    fprintf(stderr, "usage: bench-unify [RANKS (1-1024)]\n");
    return 2;
  }
  printf("bench-unify: pm_unify_merge of %u ranks, best of %d (shared machine)\n", nranks, ROUNDS);
  double first = 0;
  for (uint32_t n = 1000; n <= MAX_COMMS; n *= 10) run(nranks, n, &first);
  return 0;
}
