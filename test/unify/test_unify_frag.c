/* test_unify_frag.c -- the fragment format (unify/pm_frag.c) and the
   definition merge pomp-recover runs on it: a fragment decodes to what
   was encoded; every truncation and every single-bit flip is refused with
   an offset inside the fragment; the merge accepts a missing rank. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pomp_unify.h"

/* A rank's definitions as libpomp describes them (pomp_unify.h): host,
   start, end, 2 locations, 1 region, MPI_COMM_WORLD of 2, 1 team comm. */
static void describe(pm_blob *b, uint32_t rank) {
  pm_blob_str(b, "node7");
  pm_blob_u64(b, 1000);
  pm_blob_u64(b, 5000);
  pm_blob_u32(b, 2);
  for (uint32_t t = 0; t < 2; t++) {
    pm_blob_u32(b, t);
    pm_blob_u64(b, 10 + t);
  }
  pm_blob_u32(b, 1); /* regions */
  pm_blob_str(b, "MPI_Send");
  pm_blob_str(b, "");
  for (int i = 0; i < 4; i++) pm_blob_u32(b, (uint32_t)i);
  pm_blob_u32(b, 1); /* comms */
  pm_blob_str(b, "MPI_COMM_WORLD");
  pm_blob_u32(b, UINT32_MAX);
  pm_blob_u32(b, 0);
  pm_blob_u32(b, 2);
  pm_blob_u32(b, 0);
  pm_blob_u32(b, 1);
  pm_blob_u32(b, 1); /* team comms */
  pm_blob_u32(b, 2);
  (void)rank;
}

static void encode(pm_blob *out, pm_blob *defs, uint32_t rank) {
  describe(defs, rank);
  pm_frag f = {.rank = rank,
               .nranks = 2,
               .mpi = 1,
               .complete = 1,
               .noffsets = 2,
               .evt_chunk = 1u << 20,
               .def_chunk = 4u << 20,
               .mono_now = 7,
               .real_now = 8,
               .reason = "MPI_Abort(MPI_COMM_WORLD, 3)",
               .host = "node7",
               .boot_id = "0f3c",
               .pid = 4242,
               .start = 123456789012ull,
               .defs = defs->data,
               .defs_len = (uint32_t)defs->len};
  f.offset_time[0] = 100, f.offset[0] = -5;
  f.offset_time[1] = 200, f.offset[1] = 6;
  pm_frag_encode(out, &f);
}

/* This process is alive with a start time; a pid that is not is not. */
static void process_identity(void **state) {
  (void)state;
  uint64_t start = 0, again = 1;
  assert_int_equal(pm_frag_process_start((uint32_t)getpid(), &start), 0);
  assert_int_equal(pm_frag_process_start((uint32_t)getpid(), &again), 0);
  assert_int_equal(start, again);
  assert_true(start > 0);
  assert_int_equal(pm_frag_process_start(0x3fffffff, &start), -1);
  char boot[64];
  pm_frag_boot_id(boot, sizeof boot);
  assert_int_equal(strlen(boot), 36); /* a UUID */
}

static void round_trip(void **state) {
  (void)state;
  pm_blob out = {0}, defs = {0};
  encode(&out, &defs, 1);
  pm_frag f;
  size_t at = 99;
  const char *what = NULL;
  assert_int_equal(pm_frag_decode(out.data, out.len, &f, &at, &what), 0);
  assert_int_equal(f.rank, 1);
  assert_int_equal(f.nranks, 2);
  assert_int_equal(f.mpi, 1);
  assert_int_equal(f.complete, 1);
  assert_int_equal(f.evt_chunk, 1u << 20);
  assert_int_equal(f.def_chunk, 4u << 20);
  assert_string_equal(f.reason, "MPI_Abort(MPI_COMM_WORLD, 3)");
  assert_string_equal(f.host, "node7");
  assert_string_equal(f.boot_id, "0f3c");
  assert_int_equal(f.pid, 4242);
  assert_int_equal(f.start, 123456789012ull);
  assert_int_equal(f.noffsets, 2);
  assert_int_equal(f.offset[0], -5);
  assert_int_equal(f.offset_time[1], 200);
  assert_int_equal(f.defs_len, defs.len);
  assert_memory_equal(f.defs, defs.data, defs.len);
  /* the complete flag sits where peers read it */
  assert_int_equal(out.data[PM_FRAG_COMPLETE_AT], 1);
  pm_blob_free(&out);
  pm_blob_free(&defs);
}

/* Decoding data[0..len) fails, naming an offset not past `limit`. */
static void assert_refused(const unsigned char *data, size_t len, size_t limit) {
  pm_frag f;
  size_t at = SIZE_MAX;
  const char *what = NULL;
  assert_int_equal(pm_frag_decode(data, len, &f, &at, &what), -1);
  assert_true(at <= limit);
  assert_non_null(what);
}

static void every_truncation_refused(void **state) {
  (void)state;
  pm_blob out = {0}, defs = {0};
  encode(&out, &defs, 0);
  for (size_t len = 0; len < out.len; len++) assert_refused(out.data, len, len);
  pm_blob_free(&out);
  pm_blob_free(&defs);
}

static void every_bit_flip_refused(void **state) {
  (void)state;
  pm_blob out = {0}, defs = {0};
  encode(&out, &defs, 0);
  for (size_t i = 0; i < out.len * 8; i++) {
    out.data[i / 8] ^= (unsigned char)(1u << (i % 8));
    assert_refused(out.data, out.len, out.len - 1);
    out.data[i / 8] ^= (unsigned char)(1u << (i % 8));
  }
  pm_blob_free(&out);
  pm_blob_free(&defs);
}

static void exact_messages(void **state) {
  (void)state;
  pm_blob out = {0}, defs = {0};
  encode(&out, &defs, 0);
  pm_frag f;
  size_t at;
  const char *what;
  assert_int_equal(pm_frag_decode(out.data, 4, &f, &at, &what), -1);
  assert_int_equal(at, 0);
  assert_string_equal(what, "not a pomp fragment (no POMPFRAG magic)");
  assert_int_equal(pm_frag_decode(out.data, 70, &f, &at, &what), -1);
  assert_int_equal(at, 64);
  assert_string_equal(what, "reason text is cut or not terminated");
  out.data[12] = 2; /* rank 2 of 2 */
  assert_int_equal(pm_frag_decode(out.data, out.len, &f, &at, &what), -1);
  assert_int_equal(at, 12);
  assert_string_equal(what, "rank not below the number of ranks");
  out.data[12] = 0;
  out.data[8] = 2; /* a run before issue 17: event files named by other ids */
  assert_int_equal(pm_frag_decode(out.data, out.len, &f, &at, &what), -1);
  assert_int_equal(at, 8);
  assert_string_equal(what, "fragment version 2 (location ids rank << 32 | thread): recover it "
                            "with the pomp that wrote it");
  out.data[8] = PM_FRAG_VERSION;
  out.data[out.len - 1] ^= 1;
  assert_int_equal(pm_frag_decode(out.data, out.len, &f, &at, &what), -1);
  assert_int_equal(at, out.len - 8);
  assert_string_equal(what, "checksum mismatch (the fragment is damaged)");
  pm_blob_free(&out);
  pm_blob_free(&defs);
}

/* Two ranks, rank 1 missing: merged all the same; rank 0 keeps its ids. */
static void merge_with_missing_rank(void **state) {
  (void)state;
  pm_blob defs = {0}, maps[2] = {{0}};
  describe(&defs, 0);
  uint32_t sizes[2] = {(uint32_t)defs.len, 0};
  pm_merge_error err = {9, 9};
  assert_int_equal(pm_unify_merge(NULL, defs.data, sizes, 2, 1, 0, 0, maps, &err), 0);
  /* region map (1: 0), comm map (1: 0), team map (1: 1), no I/O map
     (0), window map (1: the comm is no window), group map (1: group 1,
     the first after the MPI locations) */
  uint32_t expect[] = {1, 0, 1, 0, 1, 1, 0, 1, OTF2_UNDEFINED_RMA_WIN, 1, 1};
  assert_int_equal(maps[0].len, sizeof expect);
  assert_memory_equal(maps[0].data, expect, sizeof expect);
  assert_int_equal(maps[1].len, 0);
  uint32_t *threads, n;
  assert_int_equal(pm_unify_threads(defs.data, (uint32_t)defs.len, &threads, &n), 0);
  assert_int_equal(n, 2);
  assert_int_equal(threads[1], 1);
  free(threads);
  assert_int_equal(pm_unify_set_events(defs.data, (uint32_t)defs.len, 1, 42), 0);
  assert_int_equal(pm_unify_set_events(defs.data, (uint32_t)defs.len, 2, 42), -1);
  /* cut definitions: refused, with the offset where they end */
  sizes[0] = (uint32_t)defs.len - 3;
  assert_int_equal(pm_unify_merge(NULL, defs.data, sizes, 1, 1, 0, 0, NULL, &err), -1);
  assert_int_equal(err.rank, 0);
  assert_true(err.offset <= defs.len - 3);
  for (int r = 0; r < 2; r++) pm_blob_free(&maps[r]);
  pm_blob_free(&defs);
}

/* Two ranks whose blobs end with I/O handles: a handle per rank and
   (paradigm, file), so rank 1's come after rank 0's; the map blob gets
   its I/O part (docs/TRACE.md, "I/O"). */
static void describe_io(pm_blob *b, uint32_t paradigm) {
  describe(b, 0);
  pm_blob_u32(b, 2);
  pm_blob_str(b, "out.dat");
  pm_blob_u32(b, paradigm);
  pm_blob_str(b, "stdout");
  pm_blob_u32(b, 0);
}

static void io_handles_merge_per_rank_and_files_by_name(void **state) {
  (void)state;
  pm_blob defs = {0}, maps[2] = {{0}};
  describe_io(&defs, 1);
  size_t one = defs.len;
  describe_io(&defs, 1);
  uint32_t sizes[2] = {(uint32_t)one, (uint32_t)(defs.len - one)};
  pm_merge_error err = {9, 9};
  assert_int_equal(pm_unify_merge(NULL, defs.data, sizes, 2, 1, 0, 0, maps, &err), 0);
  /* region map (1: 0), comm map (1: 0), team map (1: 1 or 2), I/O map,
     window map (1: no window), group map (1: group 1) */
  uint32_t expect0[] = {1, 0, 1, 0, 1, 1, 2, 0, 1, 1, OTF2_UNDEFINED_RMA_WIN, 1, 1};
  uint32_t expect1[] = {1, 0, 1, 0, 1, 2, 2, 2, 3, 1, OTF2_UNDEFINED_RMA_WIN, 1, 1};
  assert_int_equal(maps[0].len, sizeof expect0);
  assert_memory_equal(maps[0].data, expect0, sizeof expect0);
  assert_int_equal(maps[1].len, sizeof expect1);
  assert_memory_equal(maps[1].data, expect1, sizeof expect1);
  for (int r = 0; r < 2; r++) pm_blob_free(&maps[r]);
  pm_blob_free(&defs);
}

static void a_bad_io_paradigm_is_refused_where_it_is(void **state) {
  (void)state;
  pm_blob defs = {0}, maps[1] = {{0}};
  describe_io(&defs, 7); /* no such I/O paradigm */
  uint32_t sizes[1] = {(uint32_t)defs.len};
  pm_merge_error err = {9, 9};
  assert_int_equal(pm_unify_merge(NULL, defs.data, sizes, 1, 1, 0, 0, maps, &err), -1);
  assert_int_equal(err.rank, 0);
  /* right after the bad paradigm: the second handle ("stdout", 0) is left */
  assert_int_equal(err.offset, defs.len - (4 + sizeof "stdout" + 4));
  pm_blob_free(&maps[0]);
  pm_blob_free(&defs);
}

/* A rank's blob with comms WORLD, a window, a WORLD duplicate and a
   second window (both ranks create them in the same order). */
static void describe_windows(pm_blob *b) {
  pm_blob_str(b, "node7");
  pm_blob_u64(b, 1000);
  pm_blob_u64(b, 5000);
  pm_blob_u32(b, 1); /* one location: thread 0 */
  pm_blob_u32(b, 0);
  pm_blob_u64(b, 10);
  pm_blob_u32(b, 0); /* regions */
  static const char *const names[] = {"MPI_COMM_WORLD", PM_WIN_COMM_NAME, "", PM_WIN_COMM_NAME};
  pm_blob_u32(b, 4); /* comms */
  for (uint32_t i = 0; i < 4; i++) {
    pm_blob_str(b, names[i]);
    pm_blob_u32(b, i ? 0 : UINT32_MAX); /* parent: WORLD */
    pm_blob_u32(b, 0);
    pm_blob_u32(b, 2);
    pm_blob_u32(b, 0);
    pm_blob_u32(b, 1);
  }
  pm_blob_u32(b, 0); /* team comms */
}

/* Windows unify as comms; each gets a dense RmaWin id, and the map blob
   ends with the window map (local comm id -> RmaWin id) and the group map
   (local comm id -> Group id). */
static void windows_merge_as_comms_with_dense_ids(void **state) {
  (void)state;
  pm_blob defs = {0}, maps[2] = {{0}};
  describe_windows(&defs);
  size_t one = defs.len;
  describe_windows(&defs);
  uint32_t sizes[2] = {(uint32_t)one, (uint32_t)(defs.len - one)};
  pm_merge_error err = {9, 9};
  assert_int_equal(pm_unify_merge(NULL, defs.data, sizes, 2, 1, 0, 0, maps, &err), 0);
  /* no regions, comm map (4: 0..3), no teams, no I/O, window map, group
     map (4: the one group of ranks 0 and 1, id 1) */
  const uint32_t U = OTF2_UNDEFINED_RMA_WIN;
  uint32_t expect[] = {0, 4, 0, 1, 2, 3, 0, 0, 4, U, 0, U, 1, 4, 1, 1, 1, 1};
  for (int r = 0; r < 2; r++) {
    assert_int_equal(maps[r].len, sizeof expect);
    assert_memory_equal(maps[r].data, expect, sizeof expect);
    pm_blob_free(&maps[r]);
  }
  pm_blob_free(&defs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(process_identity),
      cmocka_unit_test(round_trip),
      cmocka_unit_test(every_truncation_refused),
      cmocka_unit_test(every_bit_flip_refused),
      cmocka_unit_test(exact_messages),
      cmocka_unit_test(merge_with_missing_rank),
      cmocka_unit_test(io_handles_merge_per_rank_and_files_by_name),
      cmocka_unit_test(a_bad_io_paradigm_is_refused_where_it_is),
      cmocka_unit_test(windows_merge_as_comms_with_dense_ids),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
