/* The replay driver (analyze/replay.c) and its pass interface
   (analyze/az_pass.h): passes run in order, each over every event of
   every location in time order, window by window, with its callbacks at
   the documented moments; a backward pass sees the same events, last
   first, in the first pass's windows taken in reverse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "az_pass.h"
#include "az_test.h"

/* Two ranks, one message with a Late Sender of 45 ticks, 12 Enter/Leave
   events: 14 events. */
static const char *const two_ranks =
    "process 0 threads 1\nprocess 1 threads 1\n"
    "region main compiler function main\n"
    "region send mpi point2point MPI_Send\n"
    "region recv mpi point2point MPI_Recv\n"
    "region work user function work\n"
    "loc 0.0\n0 enter main\n10 enter work\n50 leave\n"
    "50 enter send\n51 send 1 0 0 8\n60 leave\n100 leave\n"
    "loc 1.0\n0 enter main\n5 enter recv\n55 recv 0 0 0 8\n60 leave\n"
    "70 enter work\n90 leave\n100 leave\n";

enum { EVENTS = 14 };

typedef struct { /* per location */
  az_cursor cur;
  uint64_t events, ends;
  az_time latest;
  int out_of_order, past_window;
} count_loc;

typedef struct {          /* the pass's own state */
  uint64_t events_before; /* a->events_read when it began */
  size_t cnodes_before;   /* call-tree nodes the earlier pass made */
  int windows, exchanges, last_exchanges, ended;
  uint64_t events, loc_ends;
} count_data;

static count_data seen;             /* what the counting pass saw, for the test */
static uint64_t events_per_loc = 7; /* what each location of the trace writes */

/* Every event of the kinds in two_ranks: counted, in time order, and
   none read after one that reached the end of the window. */
static OTF2_CallbackCode count(void *u, OTF2_TimeStamp t, uint64_t pos) {
  count_loc *s = u;
  if (az_cursor_at(&s->cur, &t, pos)) return az_next(&s->cur);
  /* the previous event already reached the window's end */
  if (s->events && s->latest >= s->cur.stop) s->past_window = 1;
  s->events++;
  if (t < s->latest) s->out_of_order = 1;
  s->latest = t;
  return az_next(&s->cur);
}

static OTF2_CallbackCode count_region(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                      OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  (void)r;
  return count(u, t, pos);
}

static OTF2_CallbackCode count_send(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                    OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef c,
                                    uint32_t tag, uint64_t bytes) {
  (void)l;
  (void)al;
  (void)peer;
  (void)c;
  (void)tag;
  (void)bytes;
  return count(u, t, pos);
}

static void count_begin(az_replay *r) {
  seen.events_before = r->a->events_read;
  seen.cnodes_before = r->a->tree.len;
  r->data = &seen;
}

/* Every location still reading stopped at the window's end. */
static void count_window(az_replay *r, az_time stop) {
  count_data *d = r->data;
  d->windows++;
  for (uint32_t l = 0; l < r->a->defs.num_locs; l++) {
    const az_cursor *c = az_replay_loc(r, l);
    assert_true(c->done || c->last >= stop);
  }
}

static void count_exchange(az_analysis *a, int last) {
  (void)a;
  if (last) seen.last_exchanges++;
  else seen.exchanges++;
}

static void count_loc_end(az_replay *r, az_cursor *c, const char *cut) {
  (void)r;
  assert_null(cut);
  count_loc *s = (count_loc *)c;
  s->ends++;
  seen.loc_ends++;
}

static void count_end(az_replay *r, int ok) {
  count_data *d = r->data;
  assert_true(ok);
  d->ended++;
  for (uint32_t l = 0; l < r->a->defs.num_locs; l++) {
    count_loc *s = (count_loc *)az_replay_loc(r, l);
    assert_int_equal(s->ends, 1);
    assert_false(s->out_of_order);
    assert_false(s->past_window);
    d->events += s->events;
  }
}

static const az_pass count_pass = {
    .name = "count",
    .direction = AZ_FORWARD,
    .loc_size = sizeof(count_loc),
    .on = {.enter = count_region, .leave = count_region, .mpi_send = count_send},
    .begin = count_begin,
    .window = count_window,
    .exchange = count_exchange,
    .loc_end = count_loc_end,
    .end = count_end,
};

static void analyse(az_run *run, const az_pass *const *passes, size_t n, uint64_t window_events) {
  az_run_write(run, two_ranks);
  char anchor[300];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", run->dir);
  az_options opt = {.window_events = window_events};
  memset(&seen, 0, sizeof seen);
  run->status = az_analyze_passes(&run->a, anchor, &opt, passes, n);
  if (!run->status) run->report = az_report_build(&run->a, anchor, NULL);
}

static void passes_run_in_order_over_every_event(void **state) {
  (void)state;
  az_run run;
  const az_pass *passes[] = {&az_pass_waits, &count_pass};
  analyse(&run, passes, 2, 0);
  assert_int_equal(run.status, 0);
  /* the second pass began after the first one read every event */
  assert_int_equal(seen.events_before, EVENTS);
  assert_int_equal(seen.cnodes_before, 4); /* main, work, send, recv */
  /* it saw every Enter, Leave and MpiSend (the MpiRecv has no handler:
     skipped); events_read stays the trace's count */
  assert_int_equal(seen.events, EVENTS - 1);
  assert_int_equal(run.a.events_read, EVENTS);
  assert_int_equal(seen.loc_ends, 2);
  assert_int_equal(seen.ended, 1);
  assert_int_equal(seen.last_exchanges, 1);
  /* the first pass's result is untouched by the second */
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 1) == 45e-9);
  assert_true(az_run_value(&run, "visits", "main;work", 0) == 1);
  az_run_free(&run);
}

static void small_windows_call_window_and_exchange_each_time(void **state) {
  (void)state;
  az_run run;
  const az_pass *passes[] = {&count_pass};
  analyse(&run, passes, 1, 2); /* about 2 events a window: 8 windows */
  assert_int_equal(run.status, 0);
  assert_int_equal(seen.events, EVENTS - 1);
  assert_true(seen.windows >= 4);
  assert_int_equal(seen.exchanges, seen.windows);
  assert_int_equal(seen.last_exchanges, 1);
  az_run_free(&run);
}

/* A backward pass: every event of every kind in two_ranks, positions
   going down one by one from the last, time never going up, and after each
   window no location still reading has gone below its lower bound. */
typedef struct {
  az_cursor cur;
  uint64_t events, ends, first_pos, next_pos;
  int out_of_order, below_window;
} back_loc;

static OTF2_CallbackCode back(void *u, OTF2_TimeStamp t, uint64_t pos) {
  back_loc *s = u;
  az_time before = s->cur.last;
  if (az_cursor_at_back(&s->cur, &t, pos)) return az_next_back(&s->cur);
  if (!s->events) s->first_pos = pos;
  else if (pos != s->next_pos || t > before) s->out_of_order = 1;
  s->next_pos = pos - 1;
  s->events++;
  return az_next_back(&s->cur);
}

static OTF2_CallbackCode back_region(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                     OTF2_AttributeList *al, OTF2_RegionRef r) {
  (void)l;
  (void)al;
  (void)r;
  return back(u, t, pos);
}

static OTF2_CallbackCode back_message(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                      OTF2_AttributeList *al, uint32_t peer, OTF2_CommRef c,
                                      uint32_t tag, uint64_t bytes) {
  (void)l;
  (void)al;
  (void)c;
  (void)tag;
  /* the message's fields arrive as written */
  back_loc *s = u;
  if (bytes != 8 || peer != 1 - s->cur.proc) s->out_of_order = 1;
  return back(u, t, pos);
}

static void back_window(az_replay *r, az_time low) {
  seen.windows++;
  for (uint32_t l = 0; l < r->a->defs.num_locs; l++) {
    back_loc *s = (back_loc *)az_replay_loc(r, l);
    if (!s->cur.done && s->cur.last < low) s->below_window = 1;
  }
}

static void back_loc_end(az_replay *r, az_cursor *c, const char *cut) {
  (void)r;
  assert_null(cut);
  ((back_loc *)c)->ends++;
  seen.loc_ends++;
}

static void back_end(az_replay *r, int ok) {
  assert_true(ok);
  seen.ended++;
  for (uint32_t l = 0; l < r->a->defs.num_locs; l++) {
    back_loc *s = (back_loc *)az_replay_loc(r, l);
    assert_int_equal(s->ends, 1);
    assert_int_equal(s->first_pos, events_per_loc);
    assert_int_equal(s->next_pos, 0); /* ... and the first came last */
    assert_false(s->out_of_order);
    assert_false(s->below_window);
    seen.events += s->events;
  }
}

static const az_pass back_pass = {
    .name = "back",
    .direction = AZ_BACKWARD,
    .loc_size = sizeof(back_loc),
    .on = {.enter = back_region,
           .leave = back_region,
           .mpi_send = back_message,
           .mpi_recv = back_message},
    .window = back_window,
    .exchange = count_exchange,
    .loc_end = back_loc_end,
    .end = back_end,
};

static void backward_pass_sees_every_event_last_first(uint64_t window_events) {
  az_run run;
  const az_pass *passes[] = {&az_pass_waits, &back_pass};
  analyse(&run, passes, 2, window_events);
  assert_int_equal(run.status, 0);
  assert_int_equal(seen.events, EVENTS);
  assert_int_equal(seen.loc_ends, 2);
  assert_int_equal(seen.ended, 1);
  assert_int_equal(seen.exchanges, seen.windows);
  assert_int_equal(seen.last_exchanges, 1);
  assert_int_equal(run.a.events_read, EVENTS);
  assert_true(az_run_value(&run, "mpi_latesender", "main;MPI_Recv", 1) == 45e-9);
  az_run_free(&run);
}

static void a_backward_pass_reads_every_event_last_first(void **state) {
  (void)state;
  backward_pass_sees_every_event_last_first(0);
}

static void a_backward_pass_reads_small_windows_in_reverse(void **state) {
  (void)state;
  backward_pass_sees_every_event_last_first(2); /* about 2 events a window */
  assert_true(seen.windows >= 4);
}

/* One location entering and leaving f PAIRS times inside main: event
   files of several 256 KiB chunks (OTF2's smallest). */
enum { CHUNK = 256 * 1024, PAIRS = 40000 };

/* Blocks of backward reading start at the start of a chunk where one is
   near (replay.c, block_start): windows of about 1000 events (blocks of
   8000) over a file of several chunks still come every event, last
   first, none missing or twice. */
static void a_backward_pass_reads_files_of_several_chunks_in_reverse(void **state) {
  (void)state;
  az_run run;
  az_run_write_pairs(&run, CHUNK, PAIRS);
  char anchor[300];
  snprintf(anchor, sizeof anchor, "%s/traces.otf2", run.dir);
  az_options opt = {.window_events = 1000};
  const az_pass *passes[] = {&az_pass_waits, &back_pass};
  memset(&seen, 0, sizeof seen);
  events_per_loc = 2 * PAIRS + 2;
  run.status = az_analyze_passes(&run.a, anchor, &opt, passes, 2);
  events_per_loc = 7;
  assert_int_equal(run.status, 0);
  assert_int_equal(seen.events, 2 * PAIRS + 2);
  assert_int_equal(seen.loc_ends, 1);
  assert_true(seen.windows >= 40);
  az_run_free(&run);
}

static void a_backward_pass_needs_a_forward_pass_before_it(void **state) {
  (void)state;
  az_run run;
  const az_pass *passes[] = {&back_pass};
  analyse(&run, passes, 1, 0);
  assert_int_equal(run.status, -1);
  assert_non_null(strstr(run.a.diag.first_error, "'back'"));
  assert_non_null(strstr(run.a.diag.first_error, "forward pass before it"));
  assert_int_equal(seen.ended, 0);
  az_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(passes_run_in_order_over_every_event),
      cmocka_unit_test(small_windows_call_window_and_exchange_each_time),
      cmocka_unit_test(a_backward_pass_reads_every_event_last_first),
      cmocka_unit_test(a_backward_pass_reads_small_windows_in_reverse),
      cmocka_unit_test(a_backward_pass_reads_files_of_several_chunks_in_reverse),
      cmocka_unit_test(a_backward_pass_needs_a_forward_pass_before_it),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
