/* test_decode.c -- a backward block decoded from the event file's records
   (replay_back.c, az_decode_block) holds what OTF2's reader gives the
   backward callbacks: every kind the passes buffer, with its values, times
   and positions, including undefined and many-byte values, events at equal
   times, blocks that start inside a chunk and span several chunks; the
   kinds only counted (a request test, a collective's begin, a sample,
   tasks) keep the positions right.  Where the local definitions hold id
   mapping tables (dense and sparse, as libpomp writes them for every rank
   but 0) and clock offsets (libpomp's at MPI_Init and MPI_Finalize), the
   decoded block holds the mapped regions and communicators and the
   corrected times, as OTF2's. */
#include <otf2/otf2.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "az_archive.h"
#include "az_pass.h"
#include "az_replay.h"
#include "az_test.h"
#include "tracegen.h"

enum { ITERATIONS = 3000, CHUNK = 256 * 1024 };

/* One rank of two threads and a second rank; location 0.0 writes every
   kind of event over several chunks of 256 KiB. */
static char *every_kind_trace(const char *offset) {
  size_t size = 8u << 20, n = 0;
  char *t = malloc(size);
  assert_non_null(t);
  n += (size_t)snprintf(t + n, size - n,
                        "process 0 threads 2\nprocess 1 threads 1\nteam 5\ncomm 3 ranks 0 1\n"
                        "region main user function main\nregion work user function work\n"
                        "region call mpi point2point MPI_Sendrecv\n%sloc 0.0\n0 enter main\n",
                        offset);
  for (uint64_t i = 0, at = 10; i < ITERATIONS; i++, at += 40) {
    uint64_t req = 0xfffffffffffull + i, big = 1ull << 40;
    n += (size_t)snprintf(
        t + n, size - n,
        "%llu enter work\n%llu leave\n%llu enter call\n%llu send 1 3 70000 %llu\n"
        "%llu isend 1 3 7 64 %llu\n%llu isendcomplete %llu\n%llu irecvreq 9\n"
        "%llu irecv 1 3 5 8 9\n%llu recv 1 3 4294967295 128\n%llu test 9\n%llu cancel 9\n"
        "%llu collbegin\n%llu collend 2 3 - 16 32\n%llu collend 5 3 1 0 0\n%llu leave\n"
        "%llu fork 2\n%llu teambegin 5\n%llu acquire 3 1\n%llu release 3 1\n%llu teamend 5\n"
        "%llu join\n%llu off\n%llu on\n%llu sample\n%llu taskcreate 5 0 1\n"
        "%llu iobegin 4 1 2 100 %llu\n%llu iocomplete 4 100 %llu\n%llu taskcomplete 5 0 1\n",
        (unsigned long long)at, (unsigned long long)at, (unsigned long long)at + 1,
        (unsigned long long)at + 2, (unsigned long long)big, (unsigned long long)at + 3,
        (unsigned long long)req, (unsigned long long)at + 4, (unsigned long long)req,
        (unsigned long long)at + 5, (unsigned long long)at + 6, (unsigned long long)at + 7,
        (unsigned long long)at + 8, (unsigned long long)at + 9, (unsigned long long)at + 10,
        (unsigned long long)at + 11, (unsigned long long)at + 12, (unsigned long long)at + 13,
        (unsigned long long)at + 14, (unsigned long long)at + 15, (unsigned long long)at + 16,
        (unsigned long long)at + 17, (unsigned long long)at + 18, (unsigned long long)at + 19,
        (unsigned long long)at + 20, (unsigned long long)at + 21, (unsigned long long)at + 22,
        (unsigned long long)at + 23, (unsigned long long)at + 24, (unsigned long long)i,
        (unsigned long long)at + 25, (unsigned long long)i, (unsigned long long)at + 25);
  }
  n += (size_t)snprintf(t + n, size - n,
                        "200000 leave\nloc 0.1\n5 enter work\n6 leave\nloc 1.0\n5 enter main\n"
                        "6 leave\n");
  assert_true(n < size);
  return t;
}

/* Location 0.0's local definitions replaced by ones written by OTF2: a
   dense region table, a sparse communicator table (one far local id, as
   libpomp's thread teams), a group table, and three clock offsets whose
   slopes round both ways; written as an archive of their own, its
   location's file copied over the trace's. */
static void write_tables(const char *dir) {
  char sub[300], from[400], to[400];
  snprintf(sub, sizeof sub, "%s/tables", dir);
  OTF2_Archive *ar = OTF2_Archive_Open(dir, "tables", OTF2_FILEMODE_WRITE, CHUNK, 4 * 1024 * 1024,
                                       OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  assert_non_null(ar);
  static OTF2_FlushCallbacks flush = {NULL, NULL};
  OTF2_Archive_SetFlushCallbacks(ar, &flush, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(ar);
  OTF2_Archive_OpenDefFiles(ar);
  OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, 0);
  assert_non_null(dw);
  const uint64_t regions[] = {2, 0, 1, 7}; /* main -> 2, work -> 0, call -> 1 */
  OTF2_IdMap *region = OTF2_IdMap_CreateFromUint64Array(4, regions, false);
  OTF2_IdMap *comm = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, 4);
  OTF2_IdMap_AddIdPair(comm, 3, 6);        /* the comm */
  OTF2_IdMap_AddIdPair(comm, 5, 8);        /* the team */
  OTF2_IdMap_AddIdPair(comm, 1u << 30, 9); /* none of its events */
  const uint64_t groups[] = {1, 0};
  OTF2_IdMap *group = OTF2_IdMap_CreateFromUint64Array(2, groups, false);
  OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_REGION, region);
  OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_COMM, comm);
  OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_GROUP, group);
  /* the forward pass's I/O handles and samples */
  const uint64_t handles[] = {0, 1, 2, 3, 11}, contexts[] = {6}, generators[] = {3};
  OTF2_IdMap *handle = OTF2_IdMap_CreateFromUint64Array(5, handles, false);
  OTF2_IdMap *context = OTF2_IdMap_CreateFromUint64Array(1, contexts, false);
  OTF2_IdMap *generator = OTF2_IdMap_CreateFromUint64Array(1, generators, false);
  OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_IO_HANDLE, handle);
  OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_CALLING_CONTEXT, context);
  OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_INTERRUPT_GENERATOR, generator);
  OTF2_DefWriter_WriteClockOffset(dw, 50, 0, 0.0);
  OTF2_DefWriter_WriteClockOffset(dw, 90050, 333, 0.0);
  OTF2_DefWriter_WriteClockOffset(dw, 150000, -77, 0.0);
  OTF2_Archive_CloseDefWriter(ar, dw);
  OTF2_Archive_CloseDefFiles(ar);
  OTF2_Archive_Close(ar);
  OTF2_IdMap_Free(region);
  OTF2_IdMap_Free(comm);
  OTF2_IdMap_Free(group);
  OTF2_IdMap_Free(handle);
  OTF2_IdMap_Free(context);
  OTF2_IdMap_Free(generator);
  snprintf(from, sizeof from, "%s/0.def", sub);
  snprintf(to, sizeof to, "%s/traces/0.def", dir);
  assert_int_equal(rename(from, to), 0);
}

typedef struct {
  az_run run;
  az_analysis a;
  OTF2_Reader *reader;
} opened;

static void open_trace(opened *o, const char *offset, int tables) {
  memset(o, 0, sizeof *o);
  char *text = every_kind_trace(offset), err[512], anchor[300];
  az_run_mkdir(&o->run);
  tg_writer *w = tg_open_chunks(o->run.dir, CHUNK, err, sizeof err);
  if (!w || tg_text(w, text, err, sizeof err) || tg_close(w, err, sizeof err))
    fail_msg("tracegen: %s", err);
  free(text);
  if (tables) write_tables(o->run.dir);
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", o->run.dir);
  az_options opt = {0};
  o->reader = az_open(&o->a, anchor, &opt);
  assert_non_null(o->reader);
  char why[4600];
  assert_int_equal(az_load_local_defs(&o->a, 0, o->reader, why, sizeof why), 0);
}

static void close_trace(opened *o) {
  OTF2_Reader_Close(o->reader);
  az_analysis_free(&o->a);
  az_run_free(&o->run);
}

/* Events lo+1 .. to of location 0 as OTF2's reader buffers them (for a
   backward pass, or a forward one). */
static void read_by_otf2(opened *o, const az_event_handlers *on, int forward, az_rev_buffer *b,
                         uint64_t lo, uint64_t to) {
  az_block_room(b, to - lo);
  b->lo = lo;
  OTF2_EvtReaderCallbacks *cb = az_make_rev_callbacks(on, forward);
  OTF2_EvtReader *er = az_event_reader(o->reader, o->a.defs.locs[0].id);
  assert_non_null(er);
  OTF2_Reader_RegisterEvtCallbacks(o->reader, er, cb, b);
  if (lo) assert_int_equal(OTF2_EvtReader_Seek(er, lo + 1), OTF2_SUCCESS);
  uint64_t n = 0;
  assert_int_equal(OTF2_Reader_ReadLocalEvents(o->reader, er, to - lo, &n), OTF2_SUCCESS);
  assert_int_equal(n, to - lo);
  OTF2_Reader_CloseEvtReader(o->reader, er);
  OTF2_EvtReaderCallbacks_Delete(cb);
}

/* Event i of here is event j of otf2: kind, time, position, values. */
static void assert_same_event(const az_rev_buffer *otf2, size_t j, const az_rev_buffer *here,
                              size_t i) {
  assert_true(j < otf2->len);
  const az_rev_event *x = &otf2->ev[j], *y = &here->ev[i];
  assert_int_equal(here->kind[i], otf2->kind[j]);
  assert_int_equal(y->t, x->t);
  assert_int_equal(here->lo + y->dpos, otf2->lo + x->dpos);
  if (here->kind[i] == REV_ENTER || here->kind[i] == REV_LEAVE) {
    assert_int_equal(y->arg, x->arg);
  } else { /* its values (at most 5; the last kind's may be fewer) */
    for (uint32_t v = 0; v < 5 && x->arg + v < otf2->nmore && y->arg + v < here->nmore; v++)
      assert_int_equal(here->more[y->arg + v], otf2->more[x->arg + v]);
  }
}

/* The decoded block, its kinds the handlers take, event by event as
   OTF2's. */
static void assert_same_events(const az_rev_buffer *otf2, const az_rev_buffer *here,
                               uint32_t kinds) {
  size_t j = 0;
  for (size_t i = 0; i < here->len; i++) {
    if (!(kinds >> here->kind[i] & 1)) continue;
    assert_same_event(otf2, j++, here, i);
  }
  assert_int_equal(j, otf2->len);
}

static void free_buffer(az_rev_buffer *b) {
  free(b->ev);
  free(b->kind);
  free(b->more);
  free(b->chunk);
}

/* Blocks decoded and read by OTF2 alike; returns the last event's time
   OTF2 gave. */
static az_time check_blocks(const char *offsets, int tables) {
  opened o;
  open_trace(&o, offsets, tables);
  assert_int_equal(o.a.defs.locs[0].id, 0);
  const az_event_handlers *on = &az_pass_waits.on; /* the forward pass takes most kinds */
  az_cursor c = {.a = &o.a, .loc = 0, .on = on};
  az_rev_buffer here = {.off_region = o.a.defs.off_region, .kinds = az_buffered_kinds(on, 0)};
  az_chunk_starts(&c, o.reader, &here);
  assert_true(here.nchunks >= 3);
  assert_int_equal(here.chunk_size, CHUNK);
  assert_true((here.map != NULL) == (tables || *offsets));
  az_time last = 0;
  uint64_t all = o.a.defs.locs[0].events, second = here.chunk[1] - 1;
  const uint64_t blocks[][2] = {
      {0, all}, {all / 3, 2 * all / 3}, {second, all}, {second + 1, second + 2}, {all - 1, all}};
  for (size_t k = 0; k < sizeof blocks / sizeof *blocks; k++) {
    az_rev_buffer otf2 = {.off_region = o.a.defs.off_region};
    read_by_otf2(&o, on, 0, &otf2, blocks[k][0], blocks[k][1]);
    az_block_room(&here, blocks[k][1] - blocks[k][0]);
    here.lo = blocks[k][0];
    assert_int_equal(az_decode_block(&o.a, 0, here.chunk, here.nchunks, here.chunk_size, here.map,
                                     &here, &here.resume, blocks[k][0], blocks[k][1]),
                     0);
    assert_int_equal(here.len, otf2.len); /* the kinds the callbacks buffer, no more */
    assert_same_events(&otf2, &here, az_handled_kinds(on));
    if (k == 0) { /* the first event, main entered at 0: main's global id */
      assert_int_equal(otf2.kind[0], REV_ENTER);
      assert_int_equal(otf2.ev[0].arg, tables ? 2 : 0);
    }
    last = otf2.ev[otf2.len - 1].t;
    free_buffer(&otf2);
  }
  free_buffer(&here);
  close_trace(&o);
  return last;
}

static void decoded_blocks_hold_what_otf2_reads(void **state) {
  (void)state;
  assert_int_equal(check_blocks("", 0), 200000);
}

/* The tables and offsets change what OTF2 reads (the last event, 200000,
   by 333 + rint(-410 / 59950 * 109950) = -419), and the decoder the same. */
static void mapping_tables_and_clock_offsets_applied_as_otf2_does(void **state) {
  (void)state;
  assert_int_equal(check_blocks("", 1), 199581);
}

/* A single clock offset makes no interval: OTF2 corrects nothing. */
static void a_single_clock_offset_corrects_nothing(void **state) {
  (void)state;
  assert_int_equal(check_blocks("offset 0 50 1000\n", 0), 200000);
}

/* Offsets that are all 0 correct nothing (the decoder skips the
   correction, replay_back.c identity_clock); equal offsets other than 0
   move every time by them, as OTF2 does (200000 + 1000). */
static void zero_clock_offsets_correct_nothing_equal_ones_shift(void **state) {
  (void)state;
  assert_int_equal(check_blocks("offset 0 50 0\noffset 0 150000 0\n", 0), 200000);
  assert_int_equal(check_blocks("offset 0 50 1000\noffset 0 150000 1000\n", 0), 201000);
}

/* A forward pass's segments (the decoding threads', and the replay
   thread's at --threads 1: decoders.c) decoded one after the other, each
   ending at the first event at or after its stop, hold what OTF2's reader
   gives the forward callbacks, the tasks, samples and I/O records too,
   mapped and corrected alike, at the same positions; a segment goes on
   where the one before ended (its resume point).  Returns the number of
   segments. */
static size_t check_forward(const char *offsets, int tables) {
  opened o;
  open_trace(&o, offsets, tables);
  const az_event_handlers *on = &az_pass_waits.on;
  az_cursor c = {.a = &o.a, .loc = 0, .on = on};
  az_rev_buffer files = {0};
  az_chunk_starts(&c, o.reader, &files);
  assert_int_equal(files.chunk_size, CHUNK);
  uint64_t all = o.a.defs.locs[0].events;
  az_rev_buffer otf2 = {.off_region = o.a.defs.off_region};
  read_by_otf2(&o, on, 1, &otf2, 0, all);
  az_rev_buffer seg = {.off_region = o.a.defs.off_region, .kinds = az_buffered_kinds(on, 1)};
  az_resume res = {0};
  size_t j = 0, segments = 0;
  uint32_t seen = 0;
  for (uint64_t pos = 0; pos < all; segments++) {
    seg.len = seg.nmore = 0;
    seg.pace = 1, seg.lo = pos, seg.stop = seg.maxt + 3001;
    assert_int_equal(az_decode_block(&o.a, 0, files.chunk, files.nchunks, files.chunk_size,
                                     files.map, &seg, &res, pos, all),
                     0);
    assert_true(seg.upto > pos && seg.len > 0);
    for (size_t i = 0; i < seg.len; i++) {
      assert_same_event(&otf2, j++, &seg, i);
      seen |= 1u << seg.kind[i];
    }
    const az_rev_event *last = &seg.ev[seg.len - 1];
    if (seg.upto < all) { /* it ends at the first event at or after its stop */
      assert_true(last->t >= seg.stop);
      assert_int_equal(seg.lo + last->dpos, seg.upto);
      assert_true(seg.len < 2 || seg.ev[seg.len - 2].t < seg.stop);
    }
    pos = seg.upto;
  }
  assert_int_equal(j, otf2.len);
  const uint32_t forward_only = 1u << REV_TASK_CREATE | 1u << REV_TASK_COMPLETE | 1u << REV_SAMPLE |
                                1u << REV_IO_BEGIN | 1u << REV_IO_COMPLETE;
  assert_int_equal(seen & forward_only, forward_only);
  if (tables) { /* handle 4, context 0 and generator 0 mapped (write_tables) */
    size_t k = 0;
    while (otf2.kind[k] != REV_IO_BEGIN) k++;
    assert_int_equal(otf2.more[otf2.ev[k].arg], 11);
    while (otf2.kind[k] != REV_SAMPLE) k = (k + 1) % otf2.len;
    assert_int_equal(otf2.more[otf2.ev[k].arg], 6);
    assert_int_equal(otf2.more[otf2.ev[k].arg + 2], 3);
  }
  free_buffer(&otf2);
  free_buffer(&seg);
  free(files.chunk);
  close_trace(&o);
  return segments;
}

static void forward_segments_hold_what_otf2_gives_the_forward_pass(void **state) {
  (void)state;
  assert_true(check_forward("", 0) > 20);
  assert_true(check_forward("", 1) > 20);
  assert_true(check_forward("offset 0 50 1000\noffset 0 150000 -1000\n", 0) > 20);
}

/* Location 0's event file, its n bytes (the caller frees them). */
static unsigned char *event_file(const opened *o, char *path, size_t size, size_t *n) {
  az_loc_file(&o->a, o->a.defs.locs[0].id, "evt", path, size);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  unsigned char *data = malloc(8u << 20);
  assert_non_null(data);
  *n = fread(data, 1, 8u << 20, f);
  fclose(f);
  return data;
}

static void write_file(const char *path, const unsigned char *data, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, n, f), n);
  fclose(f);
}

/* Where the first MpiIsend from byte `from` lies: type 15, length 15,
   receiver 1, communicator 3, tag 7, 64 bytes (a byte each) and its
   request; a timestamp and its MpiIsendComplete (type 16, its request's
   size, the request) follow it. */
static size_t isend_at(const unsigned char *data, size_t from, size_t to) {
  static const unsigned char isend[] = {15, 15, 1, 1, 1, 3, 1, 7, 1, 64, 6};
  for (size_t i = from; i + sizeof isend + 16 < to; i++)
    if (!memcmp(data + i, isend, sizeof isend)) return i;
  fail_msg("no MpiIsend after byte %zu", from);
  return 0;
}

/* The last events of chunk 1, decoded with no resume point: every record
   before them passed over; 0, or -1 when the decoder refuses. */
static int decode_end_of_chunk_1(opened *o, az_rev_buffer *here) {
  uint64_t lo = here->chunk[2] - 51, to = here->chunk[2] - 1;
  az_resume fresh = {0};
  az_block_room(here, to - lo);
  here->lo = lo;
  return az_decode_block(&o->a, 0, here->chunk, here->nchunks, here->chunk_size, here->map, here,
                         &fresh, lo, to);
}

/* A damaged record among those passed over before a block (a singleton's
   size byte too large, an Isend's length running past its chunk, the file
   cut 8 KiB into the chunk, so its mapping ends there) makes the decoder
   refuse the block, which OTF2 reads then (and names what it cannot),
   without reading past the chunk. */
static void damage_before_a_block_refuses_it(void **state) {
  (void)state;
  opened o;
  open_trace(&o, "", 0);
  az_cursor c = {.a = &o.a, .loc = 0, .on = &az_pass_waits.on};
  az_rev_buffer here = {.off_region = o.a.defs.off_region,
                        .kinds = az_buffered_kinds(&az_pass_waits.on, 0)};
  az_chunk_starts(&c, o.reader, &here);
  assert_true(here.nchunks >= 3);
  char path[4096];
  size_t n = 0;
  unsigned char *good = event_file(&o, path, sizeof path, &n), *bad = malloc(n);
  assert_non_null(bad);
  assert_true(n > 2 * CHUNK);
  assert_int_equal(decode_end_of_chunk_1(&o, &here), 0);
  assert_true(here.len > 20);
  size_t isend = isend_at(good, CHUNK + 1024, 2 * CHUNK), complete = isend + 2 + 15 + 9;
  assert_int_equal(good[complete], 16);
  memcpy(bad, good, n);
  bad[complete + 1] = 9; /* a compressed value of 9 bytes */
  write_file(path, bad, n);
  assert_int_equal(decode_end_of_chunk_1(&o, &here), -1);
  assert_int_equal(here.len, 0);
  memcpy(bad, good, n);
  bad[isend + 1] = 0xff; /* its values read as an 8-byte length */
  write_file(path, bad, n);
  assert_int_equal(decode_end_of_chunk_1(&o, &here), -1);
  write_file(path, good, CHUNK + 8192);
  assert_int_equal(decode_end_of_chunk_1(&o, &here), -1);
  write_file(path, good, n);
  assert_int_equal(decode_end_of_chunk_1(&o, &here), 0);
  free(good);
  free(bad);
  free_buffer(&here);
  close_trace(&o);
}

/* Records the decoder does not know in the middle of a file of several
   chunks (Enters whose type byte became 200, a type after OTF2 3.0's:
   OTF2 takes each for a record of unknown type, of the Enter's length):
   OTF2 reads the segments that hold them, its reader brought there
   first, then the decoder goes on (after a few such segments OTF2 reads
   the rest of the file alone).  Each is warned of once, every other
   event reaches the pass, serially and with decoding threads alike, in
   windows large and small (az_run_dir). */
static void unknown_records(size_t patched) {
  enum { PAIRS = 100000 };
  az_run run;
  az_run_write_pairs(&run, CHUNK, PAIRS);
  char path[400];
  snprintf(path, sizeof path, "%s/traces/0.evt", run.dir);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  unsigned char *data = malloc(8u << 20);
  assert_non_null(data);
  size_t n = fread(data, 1, 8u << 20, f);
  fclose(f);
  assert_true(n > 3 * CHUNK);
  /* Enters of f after their timestamp: 5, 8 bytes of time, 12, 1, 1 */
  size_t done = 0, step = (n - CHUNK) / patched;
  for (size_t at = CHUNK / 2; done < patched && at + 12 < n; at++)
    if (data[at] == 5 && data[at + 9] == 12 && data[at + 10] == 1 && data[at + 11] == 1) {
      data[at + 9] = 200;
      done++;
      at += step;
    }
  assert_int_equal(done, patched);
  write_file(path, data, n);
  free(data);
  az_run_dir(&run);
  assert_int_equal(run.status, 0);
  assert_int_equal(run.a.diag.count[AZ_W_UNKNOWN_RECORD], patched);
  assert_int_equal(run.a.events_read, 2 * PAIRS + 2 - patched);
  az_run_free(&run);
}

static void unknown_records_are_read_by_otf2_the_others_decoded(void **state) {
  (void)state;
  unknown_records(3);
  unknown_records(40);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(decoded_blocks_hold_what_otf2_reads),
      cmocka_unit_test(mapping_tables_and_clock_offsets_applied_as_otf2_does),
      cmocka_unit_test(forward_segments_hold_what_otf2_gives_the_forward_pass),
      cmocka_unit_test(unknown_records_are_read_by_otf2_the_others_decoded),
      cmocka_unit_test(a_single_clock_offset_corrects_nothing),
      cmocka_unit_test(zero_clock_offsets_correct_nothing_equal_ones_shift),
      cmocka_unit_test(damage_before_a_block_refuses_it),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
