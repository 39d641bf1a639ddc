/* test_trace_reader.c -- the tests' trace reader on a trace whose every
   record is known: written by tracegen (test/analyze), with every event
   kind, two ranks, an OpenMP thread, clock offsets and a collective
   placeholder. Asserts the definitions, both
   text forms of every event, the clock offsets applied, and the errors. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "trace_reader.h"
#include "tracegen.h"

static const char trace_text[] =
    "process 0 threads 2\n"
    "process 1 threads 1\n"
    "region main user function main\n"
    "region send mpi point2point MPI_Send\n"
    "region recv mpi point2point MPI_Recv\n"
    "region bar mpi barrier MPI_Barrier\n"
    "team 5\n"
    "offset 1 0 50\n"
    "offset 1 1000 50\n"
    "loc 0.0\n"
    "10 enter main\n"
    "11 fork 2\n"
    "12 teambegin 5\n"
    "13 acquire 3 1\n"
    "14 release 3 1\n"
    "15 teamend 5\n"
    "16 join\n"
    "20 enter send\n"
    "21 send 1 0 7 4\n"
    "22 isend 1 0 8 16 42\n"
    "23 leave send\n"
    "24 enter bar\n"
    "25 collbegin\n"
    "26 collend 0 0 - 0 0\n"
    "27 leave bar\n"
    "28 collend 0 0 3 0 0\n" /* outside MpiCollectiveBegin: 3 instances */
    "29 isendcomplete 42\n"
    "30 test 42\n"
    "31 leave main\n"
    "loc 0.1\n"
    "12 teambegin 5\n"
    "15 teamend 5\n"
    "loc 1.0\n"
    "10 enter main\n"
    "20 enter recv\n"
    "21 irecvreq 9\n"
    "22 irecv 0 0 7 4 9\n"
    "23 recv 0 0 8 16\n"
    "24 cancel 11\n"
    "25 leave recv\n"
    "30 leave main\n";

static char dir[64], archive[128];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

/* The trace above, plus what tracegen's language has no statement for,
   written directly on rank 1. */
static int write_trace(void **state) {
  (void)state;
  strcpy(dir, "/tmp/pomp_trace_reader_XXXXXX");
  if (!mkdtemp(dir)) return -1;
  char err[256];
  tg_writer *w = tg_open(dir, err, sizeof err);
  if (!w || tg_text(w, trace_text, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return -1;
  }
  OTF2_EvtWriter *ew = tg_evt_writer(w, 1, 0);
  OTF2_EvtWriter_NonBlockingCollectiveRequest(ew, NULL, 31, 12);
  OTF2_EvtWriter_NonBlockingCollectiveComplete(ew, NULL, 32, OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
                                               OTF2_UNDEFINED_UINT32, 8, 8, 12);
  OTF2_EvtWriter_BufferFlush(ew, NULL, 33, 34);
  tg_time_span(w, 34);
  if (tg_close(w, err, sizeof err)) return -1;
  snprintf(archive, sizeof archive, "%s/traces.otf2", dir);
  return 0;
}

static int remove_trace(void **state) {
  (void)state;
  return nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static void test_definitions(void **state) {
  (void)state;
  tr_trace t;
  assert_int_equal(tr_read(archive, &t, 0), 0);
  assert_int_equal(t.nlocs, 3);
  /* Score-P's ids thread << 32 | rank, sorted by rank, then thread */
  assert_int_equal(t.id_layout, TR_IDS_SCOREP);
  assert_int_equal(t.locs[0].id, 0);
  assert_int_equal(t.locs[1].id, UINT64_C(1) << 32);
  assert_int_equal(t.locs[2].id, 1);
  assert_int_equal(t.locs[1].rank, 0);
  assert_int_equal(t.locs[1].thread, 1);
  assert_int_equal(t.locs[2].rank, 1);
  assert_int_equal(t.locs[2].thread, 0);
  assert_ptr_equal(tr_location_by_id(&t, 1), &t.locs[2]);
  assert_ptr_equal(tr_location_by_id(&t, 0), &t.locs[0]);
  assert_null(tr_location_by_id(&t, 2));
  assert_string_equal(t.locs[1].name, "OMP thread 1");
  assert_string_equal(t.locs[2].name, "Master thread");
  assert_int_equal(t.locs[2].group, 1);
  assert_int_equal(t.locs[0].declared_events, 19);
  assert_int_equal(t.locs[2].declared_events, 11);
  assert_int_equal(t.locs[0].type, OTF2_LOCATION_TYPE_CPU_THREAD);
  assert_int_equal(t.nloc_groups, 2);
  assert_string_equal(t.loc_groups[1].name, "MPI Rank 1");
  assert_int_equal(t.loc_groups[1].type, OTF2_LOCATION_GROUP_TYPE_PROCESS);

  assert_int_equal(t.nregions, 4);
  const tr_region *bar = &t.regions[3];
  assert_string_equal(bar->name, "MPI_Barrier");
  assert_string_equal(bar->file, "MPI");
  assert_int_equal(bar->begin, 4);
  assert_int_equal(bar->end, 4);
  assert_int_equal(bar->paradigm, OTF2_PARADIGM_MPI);
  assert_int_equal(bar->role, OTF2_REGION_ROLE_BARRIER);
  assert_int_equal(t.regions[0].paradigm, OTF2_PARADIGM_USER);
  assert_string_equal(tr_region_name(&t, 4), "?");

  /* comms 0 (world) and 1 (self) after team 5; group i + 1 for comm i */
  assert_int_equal(t.ncomms, 6);
  assert_string_equal(t.comms[0].name, "comm 0");
  assert_string_equal(t.comms[5].name, "team 5");
  assert_string_equal(tr_comm_name(&t, 3), "?");
  assert_int_equal(t.comms[3].group, OTF2_UNDEFINED_UINT32);
  const tr_group *world = &t.groups[t.comms[0].group];
  assert_int_equal(world->type, OTF2_GROUP_TYPE_COMM_GROUP);
  assert_int_equal(world->n, 2);
  assert_int_equal(world->members[1], 1);
  assert_int_equal(t.groups[t.comms[1].group].type, OTF2_GROUP_TYPE_COMM_SELF);
  assert_string_equal(t.groups[0].name, "MPI locations");
  assert_int_equal(t.groups[0].members[1], 1);

  assert_int_equal(t.locs[0].noffsets, 0);
  assert_int_equal(t.locs[2].noffsets, 2);
  assert_int_equal(t.locs[2].offsets[1].time, 1000);
  assert_int_equal(t.locs[2].offsets[1].offset, 50);
  assert_null(t.locs[0].lines);
  tr_free(&t);
  assert_int_equal(t.nlocs, 0);
}

/* Location l's events in both forms, one line each. */
static void expect_lines(const tr_trace *t, size_t l, const char *plain, const char *dump) {
  char *joined = tr_join(&t->locs[l], 0, SIZE_MAX);
  assert_string_equal(joined, plain);
  free(joined);
  char all[2048] = "", line[256];
  for (size_t i = 0; i < t->locs[l].nevents; i++) {
    const tr_event *e = tr_event_of(t, &t->locs[l], i);
    char plain_again[256];
    tr_plain(t, e, plain_again, sizeof plain_again);
    assert_string_equal(plain_again, t->locs[l].lines[i]);
    if (tr_dump(t, e, line, sizeof line)) strcat(strcat(all, line), "\n");
  }
  assert_string_equal(all, dump);
}

static void test_events(void **state) {
  (void)state;
  tr_trace t;
  assert_int_equal(tr_read(archive, &t, TR_LINES), 0);
  assert_int_equal(t.nevents, 19 + 2 + 11);
  expect_lines(&t, 0,
               "Enter main\nThreadFork 2\nThreadTeamBegin team 5\nThreadAcquireLock 3 1\n"
               "ThreadReleaseLock 3 1\nThreadTeamEnd team 5\nThreadJoin\nEnter MPI_Send\n"
               "MpiSend 1 comm 0 7 4\nMpiIsend 1 comm 0 8 16 42\nLeave MPI_Send\n"
               "Enter MPI_Barrier\nMpiCollectiveBegin\nMpiCollectiveEnd BARRIER comm 0 -1 0 0\n"
               "Leave MPI_Barrier\nMpiCollectiveEnd BARRIER comm 0 3 0 0\n"
               "MpiIsendComplete 42\nMpiRequestTest 42\nLeave main\n",
               "Enter main\nEnter MPI_Send\nMpiSend to=1 comm=0 tag=7 bytes=4\n"
               "MpiIsend to=1 comm=0 tag=8 bytes=16 req=42\nLeave MPI_Send\n"
               "Enter MPI_Barrier\nMpiCollectiveBegin\n"
               "MpiCollectiveEnd op=BARRIER comm=0 root=-1 sent=0 received=0\n"
               "Leave MPI_Barrier\nunrecorded collectives comm=0 count=3\n"
               "MpiIsendComplete req=42\nMpiRequestTest req=42\nLeave main\n");
  expect_lines(&t, 1, "ThreadTeamBegin team 5\nThreadTeamEnd team 5\n", "");
  expect_lines(&t, 2,
               "Enter main\nEnter MPI_Recv\nMpiIrecvRequest 9\nMpiIrecv 0 comm 0 7 4 9\n"
               "MpiRecv 0 comm 0 8 16\nMpiRequestCancelled 11\nLeave MPI_Recv\nLeave main\n"
               "NonBlockingCollectiveRequest 12\n"
               "NonBlockingCollectiveComplete ALLREDUCE comm 0 -1 8 8 12\nBufferFlush\n",
               "Enter main\nEnter MPI_Recv\nMpiIrecvRequest req=9\n"
               "MpiIrecv from=0 comm=0 tag=7 bytes=4 req=9\n"
               "MpiRecv from=0 comm=0 tag=8 bytes=16\nMpiRequestCancelled req=11\n"
               "Leave MPI_Recv\nLeave main\nNonBlockingCollectiveRequest req=12\n"
               "NonBlockingCollectiveComplete op=ALLREDUCE comm=0 root=-1 sent=8 received=8 "
               "req=12\n");
  assert_int_equal(t.locs[0].decreasing, 0);
  assert_int_equal(t.locs[1].decreasing, 0); /* OTF2 writes no time going back */
  assert_int_equal(t.locs[2].decreasing, 0);
  assert_int_equal(tr_count(&t.locs[0], "MpiCollectiveEnd BARRIER comm 0 3 0 0"), 1);
  assert_int_equal(tr_count(&t.locs[0], "Enter main"), 1);
  /* rank 1's clock is 50 ahead: its first event comes after rank 0's 10..16 */
  const tr_event *first = tr_event_of(&t, &t.locs[2], 0);
  assert_int_equal(first->time, 60);
  assert_int_equal(t.events[0].loc, 0);
  assert_int_equal(t.events[0].time, 10);
  assert_true(first > &t.events[7]);
  const tr_event *placeholder = tr_event_of(&t, &t.locs[0], 15);
  assert_int_equal(placeholder->kind, TR_MPI_COLLECTIVE_END);
  assert_int_equal(placeholder->placeholder, 1);
  assert_int_equal(tr_event_of(&t, &t.locs[0], 13)->placeholder, 0);
  tr_free(&t);
}

static void test_errors(void **state) {
  (void)state;
  tr_trace t;
  /* an archive whose event file of location 0 is gone (not one that
     cannot be opened at all: OTF2_Reader_Open leaks there, which LeakSanitizer
     would report) */
  char evt[160];
  snprintf(evt, sizeof evt, "%s/traces/0.evt", dir);
  char moved[170];
  snprintf(moved, sizeof moved, "%s.away", evt);
  assert_int_equal(rename(evt, moved), 0);
  assert_int_equal(tr_read(archive, &t, TR_LINES), -1);
  assert_int_equal(t.nlocs, 0);
  assert_null(t.events);
  assert_int_equal(rename(moved, evt), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_definitions),
      cmocka_unit_test(test_events),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, write_trace, remove_trace);
}
