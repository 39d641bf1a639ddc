/* bench_recover.c -- what fragments and recovery cost (bench/README.md):
 *   - writing one fragment (definitions of a rank with REGIONS regions and
 *     4 threads: encode, write to a temporary file, rename), against the
 *     write of one 256 KiB event chunk that every buffer flush does anyway
 *     (the periodic fragment is written once per flush, never per event);
 *   - pomp_recover on an experiment of N ranks (N = 4, 16, 64), per rank.
 * Each figure is the best of ROUNDS runs (the machine is shared).
 * usage: bench-recover [REGIONS]   (default 200)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pomp_recover.h"
#include "pomp_unify.h"
#include "pomp_util.h"
#include "bench_clock.h"

#define ROUNDS 9

/* A rank's definitions (unify/pomp_unify.h): nthreads locations, nregions
   regions, MPI_COMM_WORLD and MPI_COMM_SELF, one team comm. */
static void rank_defs(pm_blob *b, uint32_t rank, uint32_t nranks, uint32_t nregions) {
  pm_blob_str(b, "benchnode");
  pm_blob_u64(b, 1000000);
  pm_blob_u64(b, 9000000);
  pm_blob_u32(b, 4);
  for (uint32_t t = 0; t < 4; t++) {
    pm_blob_u32(b, t);
    pm_blob_u64(b, 0);
  }
  pm_blob_u32(b, nregions);
  for (uint32_t i = 0; i < nregions; i++) {
    char name[64];
    snprintf(name, sizeof name, "solver_step_%u", i);
    pm_blob_str(b, name);
    pm_blob_str(b, "/home/user/app/solver.c");
    uint32_t nums[4] = {i, i + 9, 3 /* COMPILER */, 15 /* FUNCTION */};
    for (int k = 0; k < 4; k++) pm_blob_u32(b, nums[k]);
  }
  pm_blob_u32(b, 2);
  pm_blob_str(b, "MPI_COMM_WORLD");
  pm_blob_u32(b, UINT32_MAX);
  pm_blob_u32(b, 0);
  pm_blob_u32(b, nranks);
  for (uint32_t r = 0; r < nranks; r++) pm_blob_u32(b, r);
  pm_blob_str(b, "MPI_COMM_SELF");
  pm_blob_u32(b, UINT32_MAX);
  pm_blob_u32(b, 1);
  pm_blob_u32(b, 1);
  pm_blob_u32(b, rank);
  pm_blob_u32(b, 1);
  pm_blob_u32(b, 4);
}

static void fragment(pm_blob *out, uint32_t rank, uint32_t nranks, uint32_t nregions) {
  pm_blob defs = {0};
  rank_defs(&defs, rank, nranks, nregions);
  pm_frag f = {.rank = rank,
               .nranks = nranks,
               .mpi = 1,
               .complete = 1,
               .noffsets = 1,
               .evt_chunk = 1u << 20,
               .def_chunk = 4u << 20,
               .mono_now = 9000000,
               .real_now = 1700000000000000000ull,
               .reason = "MPI_Abort(MPI_COMM_WORLD, 3)",
               .defs = defs.data,
               .defs_len = (uint32_t)defs.len};
  pm_frag_encode(out, &f);
  pm_blob_free(&defs);
}

static void write_file(const char *path, const void *data, size_t n) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || write(fd, data, n) != (ssize_t)n || close(fd) != 0)
    pu_die(POMP_EXIT_FAILURE, "%s: cannot write", path);
}

/* Best time of writing bytes as a fragment is written (temp + rename). */
static double best_write(const char *dir, const void *data, size_t n, int rename_it) {
  char tmp[400], path[400];
  snprintf(tmp, sizeof tmp, "%s/x.tmp", dir);
  snprintf(path, sizeof path, "%s/x", dir);
  double best = 1e9;
  for (int i = 0; i < ROUNDS * 5; i++) {
    double t0 = bench_now();
    write_file(tmp, data, n);
    if (rename_it && rename(tmp, path) != 0) pu_die(POMP_EXIT_FAILURE, "rename");
    double t = bench_now() - t0;
    if (t < best) best = t;
  }
  return best;
}

static double best_recover(const char *base, uint32_t nranks, uint32_t nregions) {
  double best = 1e9;
  for (int round = 0; round < ROUNDS / 3; round++) {
    char dir[300], cmd[700];
    snprintf(dir, sizeof dir, "%s/exp%u_%d", base, nranks, round);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/fragments' '%s/traces'", dir, dir);
    if (system(cmd) != 0) pu_die(POMP_EXIT_FAILURE, "mkdir");
    for (uint32_t r = 0; r < nranks; r++) {
      pm_blob f = {0};
      char path[700];
      fragment(&f, r, nranks, nregions);
      snprintf(path, sizeof path, "%s/fragments/%u.frag", dir, r);
      write_file(path, f.data, f.len);
      pm_blob_free(&f);
    }
    pomp_recover_summary s;
    double t0 = bench_now();
    if (pomp_recover(dir, &s) != 0 || s.ranks_complete != nranks)
      pu_die(POMP_EXIT_FAILURE, "%s: recovery failed", dir);
    double t = bench_now() - t0;
    if (t < best) best = t;
  }
  return best;
}

int main(int argc, char **argv) {
  pu_set_progname(argv[0]);
  uint32_t nregions = argc > 1 ? (uint32_t)atoi(argv[1]) : 200;
  char base[256], cmd[300];
  snprintf(base, sizeof base, "/tmp/bench-recover-%ld", (long)getpid());
  if (mkdir(base, 0755) != 0) pu_die(POMP_EXIT_FAILURE, "%s: cannot create", base);

  pm_blob frag = {0};
  double t0 = bench_now();
  for (int i = 0; i < 100; i++) {
    frag.len = 0;
    fragment(&frag, 1, 4, nregions);
  }
  double encode = (bench_now() - t0) / 100;
  double frag_write = best_write(base, frag.data, frag.len, 1);
  char *buffer = calloc(1, 16u << 20);
  double small = best_write(base, buffer, 256u << 10, 0);
  double full = best_write(base, buffer, 16u << 20, 0);
  printf("fragment of %u regions, 4 threads: %zu bytes\n", nregions, frag.len);
  printf("fragment encode: %.1f us; write + rename: %.1f us\n", encode * 1e6, frag_write * 1e6);
  printf("flush of a 256 KiB buffer (POMP_BUFFER minimum, baseline): %.1f us\n", small * 1e6);
  printf("flush of a 16 MiB buffer (POMP_BUFFER default, baseline): %.1f us\n", full * 1e6);
  printf("fragment vs 256 KiB flush: %.2fx; vs 16 MiB flush: %.3fx (only when definitions "
         "changed since the last one; 0 per event)\n",
         (encode + frag_write) / small, (encode + frag_write) / full);
  uint32_t sizes[] = {4, 16, 64};
  double per_rank4 = 0;
  for (int i = 0; i < 3; i++) {
    double t = best_recover(base, sizes[i], nregions);
    if (i == 0) per_rank4 = t / sizes[i];
    printf("pomp_recover of %u ranks x 4 threads: %.1f ms (%.2f ms per rank, %.2fx per rank "
           "vs 4 ranks)\n",
           sizes[i], t * 1e3, t * 1e3 / sizes[i], t / sizes[i] / per_rank4);
  }
  free(buffer);
  pm_blob_free(&frag);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
  return system(cmd) == 0 ? 0 : 1;
}
