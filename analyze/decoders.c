/* decoders.c -- the decoding threads of `--threads N` (az_replay.h), for
   the replay driver (replay.c).

   With az_analysis.threads = N > 1, N - 1 threads decode the event files
   of the locations replayed here while this thread (the replay) runs the
   passes' handlers on what they decoded, in the order of the serial
   replay: the same handlers see the same events in the same order, so the
   report is the same.  Each decoding thread has an OTF2 reader of its own
   (OTF2 3.0's reader objects are not for several threads) and the
   locations given to it, about the same number of events each.

   Forward pass: a location's events go to the replay in segments, each
   up to the first event at or after the end of a window (or at most
   AZ_SEG_EVENTS): a decoding thread decodes up to AZ_AHEAD_WINDOWS
   windows after the one the replay reads, at most AZ_AHEAD_EVENTS events
   of all locations together (a few windows: waking a thread per window
   cost more than it saved on the 2-core machine).  Where a window ends
   stays the pass's business (az_next); a segment only paces the
   decoding.  The last segment says how the reading ended (as
   OTF2_Reader_ReadLocalEvents would have told advance).  A segment is
   decoded from the file's records (az_decode_block, replay_back.c: "a
   block decoded here") where the location's file allows; where the
   decoder meets anything it does not know, OTF2's reader reads that
   segment (brought to where the decoding stopped first, reading the
   events decoded here again without callbacks), so a damaged file ends
   with OTF2's words at the same event.  Without decoding threads
   (--threads 1) the replay thread decodes the segments itself, when it
   needs the next one (an inline pool: no thread, the same segments).

   Backward passes: the blocks read_back reads, in the same order, one
   block a location ahead of the one it delivers from (so twice the memory
   of the serial backward reading).

   Jobs: the replay thread may also hand the decoding threads work of its
   own (az_pool_job: the handlers of the backward passes that touch only
   their location's state, replay.c); a decoding thread takes a job before
   it decodes ahead, and the replay thread runs the jobs still queued
   itself when it waits for them (az_pool_finish_jobs).

   A decoding thread touches nothing of the analysis but the definitions
   (and what a job gives it); errors go back in the segments, the replay
   says them. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <otf2/otf2.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "az.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_pass.h"
#include "az_replay.h"
#include "pomp_util.h"

enum { AZ_AHEAD_WINDOWS = 4, AZ_AHEAD_EVENTS = 1 << 17, AZ_FALLBACKS_MAX = 8 };

typedef struct az_seg { /* decoded events of one location */
  az_rev_buffer b;
  size_t next;         /* forward: b.ev[next ..] not delivered yet */
  uint64_t lo, to;     /* backward: the block (lo, to] */
  int last;            /* forward: its events end here (rc, hit_limit, read_pos) */
  int failed;          /* backward: the block could not be read (why) */
  OTF2_ErrorCode rc;   /* forward: how the reading ended */
  int hit_limit;       /* ... it read as many events as its chunks hold */
  uint64_t read_pos;   /* ... the position of the last event read */
  char why[512];       /* OTF2's words for a failure */
  struct az_seg *tail; /* the next segment of the queue */
} az_seg;

/* How a decoding thread's first opening of a location went. */
enum { FEED_OPEN, FEED_NO_DEFS, FEED_NO_READER, FEED_NO_ARCHIVE };

typedef struct {
  int worker; /* the decoding thread that owns it; -1: not replayed here */
  /* the decoding thread's alone until `opened` */
  int open;         /* FEED_* */
  char *open_error; /* FEED_NO_DEFS: why */
  int fresh;        /* er not read yet */
  /* the decoding thread's alone */
  OTF2_EvtReader *er;
  int defs_read;
  uint64_t limit, pos; /* forward: events its chunks hold; the last read */
  uint64_t otf2_pos;   /* forward: the last event OTF2's reader (er) read */
  int fallbacks;       /* forward: segments OTF2 read after the decoder refused */
  az_time maxt;        /* forward: the latest time decoded */
  size_t target;       /* forward: the window it decodes up to */
  size_t bw;           /* backward: windows left to look for blocks in */
  uint64_t blo;        /* backward: where the last block starts */
  const uint64_t *chunk;
  size_t nchunks;
  uint64_t chunk_size;          /* backward: its blocks may be decoded here (az_decode_block) */
  const struct az_loc_map *map; /* ... with these tables (az_rev_buffer.map) */
  az_resume resume;             /* ... from these points (kept from block to block) */
  uint64_t events;              /* declared: to share the locations out */
  /* under the pool's lock */
  az_seg *head, *end;
  size_t queued;
  int opened, busy, ended, wanted;
} az_feed;

typedef struct {
  void (*fn)(void *);
  void *arg;
} az_job;

typedef struct {
  az_pool *pool;
  int id;
  pthread_t tid;
  int started;
} az_decoder;

struct az_pool {
  pthread_mutex_t mu;
  pthread_cond_t work, ready; /* for the decoding threads; for the replay */
  const az_analysis *a;
  const az_event_handlers *on;
  uint32_t kinds; /* the kinds its buffers hold (az_buffered_kinds) */
  int forward;
  /* inline (ndec 0): the replay thread's reader, its callbacks, none */
  OTF2_Reader *reader;
  OTF2_EvtReaderCallbacks *cb, *none;
  char *anchor;
  az_feed *feed; /* per location */
  uint32_t nlocs;
  az_decoder *dec;
  int ndec, quit;
  int go;        /* the replay opened every location: limits and chunks known */
  size_t window; /* forward: the window the replay reads */
  size_t ahead;  /* forward: events decoded, not delivered */
  int idle;      /* decoding threads waiting for work */
  az_time offset, length;
  const az_marks *m; /* backward */
  uint64_t budget;
  az_seg *spare;
  struct { /* the replay thread's jobs: queued from head on, running */
    az_job *v;
    size_t head, n, cap;
    int running;
  } jobs;
};

long az_usable_cpus(void) {
  cpu_set_t set;
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                     : sysconf(_SC_NPROCESSORS_ONLN);
}

int az_default_threads(int procs) {
  long n = az_usable_cpus() / (procs > 0 ? procs : 1);
  return n < 1 ? 1 : n > AZ_THREADS_USEFUL ? AZ_THREADS_USEFUL : (int)n;
}

/* The end of forward window k, as run_forward counts them. */
static az_time window_stop(const az_pool *p, size_t k) {
  if (p->length == UINT64_MAX) return UINT64_MAX;
  uint64_t room = (UINT64_MAX - p->offset) / p->length;
  return (uint64_t)k + 1 > room ? UINT64_MAX : p->offset + ((uint64_t)k + 1) * p->length;
}

static void seg_failed(az_seg *s, const char *why) {
  if (why != s->why) snprintf(s->why, sizeof s->why, "%s", why);
  s->failed = s->last = 1;
  s->rc = OTF2_ERROR_INVALID;
}

/* The first event reader of the location, its local definitions read
   first (by this thread's reader), as az_open_location does: FEED_*. */
static int open_first(az_pool *p, OTF2_Reader *reader, az_feed *f, uint32_t loc) {
  char err[4600];
  if (!reader) return FEED_NO_ARCHIVE;
  az_otf2_message[0] = 0;
  if (az_load_local_defs(p->a, loc, reader, err, sizeof err)) {
    f->open_error = pu_strdup(err);
    return FEED_NO_DEFS;
  }
  az_otf2_message[0] = 0;
  f->er = az_event_reader(reader, p->a->defs.locs[loc].id);
  if (!f->er) return FEED_NO_READER;
  f->fresh = 1;
  return FEED_OPEN;
}

/* The location's event reader: the first one until it read, then a new
   one (a backward block: OTF2's Seek back); 0, or -1 with the segment
   failed. */
static int open_feed(OTF2_Reader *reader, az_feed *f, uint64_t id, az_seg *s) {
  if (f->fresh) {
    f->fresh = 0;
    return 0;
  }
  if (f->er) OTF2_Reader_CloseEvtReader(reader, f->er);
  f->er = az_event_reader(reader, id);
  if (!f->er) {
    seg_failed(s, "no event reader");
    return -1;
  }
  return 0;
}

/* The end of the location's reading, in its last segment: rc and what
   OTF2 says, as OTF2_Reader_ReadLocalEvents would have told advance. */
static void seg_last(az_seg *s, az_feed *f, OTF2_ErrorCode rc, int hit_limit) {
  s->last = 1;
  s->rc = rc;
  s->hit_limit = hit_limit;
  s->read_pos = f->pos;
  if (rc != OTF2_SUCCESS) snprintf(s->why, sizeof s->why, "%s", az_otf2_why(rc));
}

/* A forward segment from the file's records: 1 when decoded (b->upto the
   last event), 0 when OTF2's reader must read it.  A segment spans fewer
   than 2^31 positions (az_rev_event.dpos). */
static int decode_here(az_pool *p, az_feed *f, uint32_t loc, az_seg *s, az_time stop) {
  uint64_t to = f->limit - f->pos > (1u << 31) ? f->pos + (1u << 31) : f->limit;
  if (az_decode_block(p->a, loc, f->chunk, f->nchunks, f->chunk_size, f->map, &s->b, &f->resume,
                      f->pos, to)) {
    s->b.maxt = f->maxt;
    return 0;
  }
  f->pos = s->b.upto;
  f->maxt = s->b.maxt;
  if (f->pos == f->limit) seg_last(s, f, OTF2_SUCCESS, 1); /* as OTF2 reading up to the limit */
  else if (f->maxt >= stop) f->target++;
  return 1;
}

/* OTF2's reader brought to the event where the decoding stopped: the
   events decoded here read again without callbacks (OTF2's reader then
   in the state of a reading that took them all); 0, or -1 with the
   segment the last (OTF2's words; it read them before, so unlikely). */
static int otf2_catch_up(OTF2_Reader *reader, OTF2_EvtReaderCallbacks *none, az_feed *f,
                         az_seg *s) {
  if (f->otf2_pos >= f->pos) return 0;
  uint64_t want = f->pos - f->otf2_pos, n = 0;
  OTF2_Reader_RegisterEvtCallbacks(reader, f->er, none, NULL);
  az_otf2_message[0] = 0;
  OTF2_ErrorCode rc = OTF2_Reader_ReadLocalEvents(reader, f->er, want, &n);
  if (rc == OTF2_SUCCESS && n == want) {
    f->otf2_pos = f->pos;
    return 0;
  }
  seg_last(s, f, rc == OTF2_SUCCESS ? OTF2_ERROR_INVALID : rc, 0);
  return -1;
}

/* Forward: the location's events up to the end of its target window. */
static void decode_segment(az_pool *p, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb,
                           OTF2_EvtReaderCallbacks *none, az_feed *f, uint32_t loc, az_seg *s) {
  uint64_t want = f->limit > f->pos ? f->limit - f->pos : 0, n = 0;
  if (!want) { /* as advance: nothing asked, n == want */
    s->last = s->hit_limit = 1;
    s->read_pos = f->pos;
    return;
  }
  if (f->fresh) f->fresh = 0;
  az_time stop = window_stop(p, f->target);
  while (stop <= f->maxt && stop != UINT64_MAX) stop = window_stop(p, ++f->target);
  s->b.pace = 1;
  s->b.lo = f->pos;
  s->b.stop = stop;
  s->b.maxt = f->maxt;
  if (f->chunk_size && decode_here(p, f, loc, s, stop)) return;
  /* a file the decoder keeps refusing (OpenMP's old events, records of
     a later OTF2) is read by OTF2 alone: no segment decoded twice */
  if (f->chunk_size && ++f->fallbacks == AZ_FALLBACKS_MAX) f->chunk_size = 0;
  if (otf2_catch_up(reader, none, f, s)) return;
  OTF2_Reader_RegisterEvtCallbacks(reader, f->er, cb, &s->b);
  az_otf2_message[0] = 0;
  OTF2_ErrorCode rc = OTF2_Reader_ReadLocalEvents(reader, f->er, want, &n);
  OTF2_EvtReader_GetPos(f->er, &f->pos);
  f->otf2_pos = f->pos;
  f->maxt = s->b.maxt;
  if (rc == OTF2_ERROR_INTERRUPTED_BY_CALLBACK) {
    if (f->maxt >= stop) f->target++;
    return;
  }
  seg_last(s, f, rc, n == want);
}

/* Backward: the next block read_back will ask for, as it computes it; 0
   when there is none. */
static int decode_block(az_pool *p, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb, az_feed *f,
                        uint32_t loc, az_seg *s) {
  const az_marks *m = p->m;
  const uint64_t *at = m->at + loc;
  uint64_t from = 0, to = 0;
  size_t w = 0;
  int found = 0;
  while (f->bw > 0 && !found) {
    w = --f->bw;
    from = w ? at[(w - 1) * m->nlocs] : 0, to = at[w * m->nlocs];
    if (to <= from && !to) f->bw = 0; /* nothing before either */
    found = to > from && from < f->blo;
  }
  if (!found) return 0;
  s->lo = f->blo = az_block_lo(at, m->nlocs, f->chunk, f->nchunks, w, from, to, p->budget);
  s->to = to;
  if (to - s->lo > AZ_BLOCK_SPAN_MAX) { /* read_back says so */
    seg_failed(s, "block too large");
    return 1;
  }
  az_block_room(&s->b, to - s->lo);
  s->b.lo = s->lo;
  /* from the file's records where OTF2's reading changes nothing, as
     az_read_block */
  if (f->chunk_size && !az_decode_block(p->a, loc, f->chunk, f->nchunks, f->chunk_size, f->map,
                                        &s->b, &f->resume, s->lo, to))
    return 1;
  /* a new reader per block, as az_read_block (OTF2's Seek back) */
  if (open_feed(reader, f, p->a->defs.locs[loc].id, s)) return 1;
  OTF2_Reader_RegisterEvtCallbacks(reader, f->er, cb, &s->b);
  az_otf2_message[0] = 0;
  uint64_t n = 0;
  OTF2_ErrorCode rc = s->lo ? OTF2_EvtReader_Seek(f->er, s->lo + 1) : OTF2_SUCCESS;
  if (rc == OTF2_SUCCESS) rc = OTF2_Reader_ReadLocalEvents(reader, f->er, to - s->lo, &n);
  if (rc != OTF2_SUCCESS && !az_cut_files_read(p->a)) seg_failed(s, az_otf2_why(rc));
  /* as az_read_block: the next block opens its own */
  OTF2_Reader_CloseEvtReader(reader, f->er);
  f->er = NULL;
  return 1;
}

/* What a decoding thread does next: the location the replay waits for,
   else the one needed soonest that may be decoded ahead. */
static az_feed *pick(az_pool *p, int me, uint32_t *loc) {
  az_feed *best = NULL;
  for (uint32_t l = 0; l < p->nlocs; l++) {
    az_feed *f = &p->feed[l];
    if (f->worker != me || f->busy || f->ended || !p->go) continue;
    if (f->wanted) {
      *loc = l;
      return f;
    }
    if (p->forward ? p->ahead >= AZ_AHEAD_EVENTS || f->target > p->window + AZ_AHEAD_WINDOWS
                   : f->queued >= 1)
      continue;
    if (!best || (p->forward ? f->target < best->target : f->bw > best->bw)) {
      best = f;
      *loc = l;
    }
  }
  return best;
}

static az_seg *spare_seg(az_pool *p) {
  az_seg *s = p->spare;
  if (s) p->spare = s->tail;
  else s = pu_calloc(1, sizeof *s);
  az_rev_buffer kept = s->b; /* its arrays */
  memset(s, 0, sizeof *s);
  s->b.ev = kept.ev, s->b.kind = kept.kind, s->b.cap = kept.cap;
  s->b.more = kept.more, s->b.capmore = kept.capmore;
  s->b.off_region = p->a->defs.off_region;
  s->b.kinds = p->kinds;
  return s;
}

/* Under the lock: runs the first job queued (without the lock); 0 when
   none is queued.  The last one done wakes the replay. */
static int run_job(az_pool *p) {
  if (p->jobs.head == p->jobs.n) return 0;
  az_job j = p->jobs.v[p->jobs.head++];
  p->jobs.running++;
  pthread_mutex_unlock(&p->mu);
  j.fn(j.arg);
  pthread_mutex_lock(&p->mu);
  if (!--p->jobs.running && p->jobs.head == p->jobs.n) pthread_cond_broadcast(&p->ready);
  return 1;
}

void az_pool_job(az_pool *p, void (*fn)(void *), void *arg) {
  pthread_mutex_lock(&p->mu);
  if (p->jobs.head == p->jobs.n && !p->jobs.running) p->jobs.head = p->jobs.n = 0;
  az_job j = {fn, arg};
  PU_PUSH(p->jobs.v, p->jobs.n, p->jobs.cap, j);
  if (p->idle) pthread_cond_signal(&p->work);
  pthread_mutex_unlock(&p->mu);
}

void az_pool_finish_jobs(az_pool *p) {
  pthread_mutex_lock(&p->mu);
  for (;;) {
    if (run_job(p)) continue;
    if (!p->jobs.running) break;
    pthread_cond_wait(&p->ready, &p->mu);
  }
  p->jobs.head = p->jobs.n = 0;
  pthread_mutex_unlock(&p->mu);
}

/* Under the lock: the next segment (forward) or block (backward) of
   location l decoded (without the lock) and queued. */
static void feed_one(az_pool *p, OTF2_Reader *reader, OTF2_EvtReaderCallbacks *cb,
                     OTF2_EvtReaderCallbacks *none, az_feed *f, uint32_t l) {
  f->busy = 1;
  az_seg *s = spare_seg(p);
  pthread_mutex_unlock(&p->mu);
  int made = 1;
  if (p->forward) decode_segment(p, reader, cb, none, f, l, s);
  else made = decode_block(p, reader, cb, f, l, s);
  pthread_mutex_lock(&p->mu);
  f->busy = 0;
  if (made && f->ended) { /* the replay ended the location meanwhile */
    s->tail = p->spare;
    p->spare = s;
  } else if (made) {
    if (f->end) f->end->tail = s;
    else f->head = s;
    f->end = s;
    f->queued++;
    p->ahead += s->b.len;
  } else {
    s->tail = p->spare;
    p->spare = s;
  }
  if (!made || s->last) f->ended = 1;
  if (f->wanted) pthread_cond_broadcast(&p->ready);
}

/* 1 + the decoding thread's index; 0: the replay thread (az_pool_slot). */
static _Thread_local int pool_slot;

int az_pool_slot(void) { return pool_slot; }

int az_pool_decoders(const az_pool *p) { return p->ndec; }

static void *decoder_main(void *arg) {
  az_decoder *d = arg;
  az_pool *p = d->pool;
  pool_slot = d->id + 1;
  OTF2_Reader *reader = OTF2_Reader_Open(p->anchor);
  if (reader) OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  OTF2_EvtReaderCallbacks *cb = az_make_rev_callbacks(p->on, p->forward);
  OTF2_EvtReaderCallbacks *none = OTF2_EvtReaderCallbacks_New();
  for (uint32_t l = 0; l < p->nlocs; l++)
    if (p->feed[l].worker == d->id) p->feed[l].open = open_first(p, reader, &p->feed[l], l);
  pthread_mutex_lock(&p->mu);
  for (uint32_t l = 0; l < p->nlocs; l++)
    if (p->feed[l].worker == d->id) p->feed[l].opened = 1;
  pthread_cond_broadcast(&p->ready);
  for (;;) {
    if (!p->quit && run_job(p)) continue;
    uint32_t l = 0;
    az_feed *f = p->quit ? NULL : pick(p, d->id, &l);
    if (!f) {
      if (p->quit) break;
      p->idle++;
      pthread_cond_wait(&p->work, &p->mu);
      p->idle--;
      continue;
    }
    feed_one(p, reader, cb, none, f, l);
  }
  pthread_mutex_unlock(&p->mu);
  for (uint32_t l = 0; l < p->nlocs; l++)
    if (p->feed[l].worker == d->id && p->feed[l].er)
      OTF2_Reader_CloseEvtReader(reader, p->feed[l].er);
  if (reader) OTF2_Reader_Close(reader);
  OTF2_EvtReaderCallbacks_Delete(cb);
  OTF2_EvtReaderCallbacks_Delete(none);
  return NULL;
}

/* The locations replayed here to the decoding threads: the largest
   first, each to the thread with the fewest events so far. */
static void share_out(az_pool *p) {
  uint64_t *load = pu_calloc((size_t)p->ndec, sizeof *load);
  for (;;) {
    az_feed *big = NULL;
    for (uint32_t l = 0; l < p->nlocs; l++)
      if (p->feed[l].worker == -2 && (!big || p->feed[l].events > big->events)) big = &p->feed[l];
    if (!big) break;
    int least = 0;
    for (int i = 1; i < p->ndec; i++)
      if (load[i] < load[least]) least = i;
    big->worker = least;
    load[least] += big->events + 1;
  }
  free(load);
}

az_pool *az_pool_start(az_replay *r, const az_event_handlers *on, const az_marks *m,
                       uint64_t budget, az_time length, OTF2_Reader *reader) {
  const az_analysis *a = r->a;
  uint32_t mine = 0;
  for (uint32_t l = 0; l < a->defs.num_locs; l++) mine += az_replay_loc(r, l)->a != NULL;
  int ndec = a->threads - 1 < (int)mine ? a->threads - 1 : (int)mine;
  if (ndec < 1 && (m || !reader)) return NULL;
  if (ndec < 1) ndec = 0; /* inline */
  az_pool *p = pu_calloc(1, sizeof *p);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  pthread_cond_init(&p->ready, NULL);
  p->a = a;
  p->on = on;
  p->forward = m == NULL;
  p->kinds = az_buffered_kinds(on, p->forward);
  p->anchor = pu_malloc(strlen(a->files) + 6);
  sprintf(p->anchor, "%s.otf2", a->files);
  p->nlocs = a->defs.num_locs;
  p->feed = pu_calloc(p->nlocs ? p->nlocs : 1, sizeof *p->feed);
  p->offset = a->defs.global_offset;
  p->length = length;
  p->m = m;
  p->budget = budget;
  p->ndec = ndec;
  for (uint32_t l = 0; l < p->nlocs; l++) {
    const az_cursor *c = az_replay_loc(r, l);
    az_feed *f = &p->feed[l];
    f->worker = c->a && ndec ? -2 : -1; /* inline: az_pool_go adopts */
    f->events = a->defs.locs[l].events;
    f->blo = UINT64_MAX;
    f->bw = m ? m->windows : 0;
  }
  if (!ndec) {
    p->reader = reader;
    p->cb = az_make_rev_callbacks(on, 1);
    p->none = OTF2_EvtReaderCallbacks_New();
    return p;
  }
  share_out(p);
  p->dec = pu_calloc((size_t)ndec, sizeof *p->dec);
  int ok = 1;
  for (int i = 0; i < ndec && ok; i++) {
    p->dec[i] = (az_decoder){p, i, 0, 0};
    ok = p->dec[i].started = !pthread_create(&p->dec[i].tid, NULL, decoder_main, &p->dec[i]);
  }
  if (ok) return p;
  az_pool_stop(p); /* no threads: the replay reads alone */
  return NULL;
}

/* az_open_location, the event reader opened by the decoding thread: the
   same errors; the limit of its events computed here.  Inline: as
   az_open_location (cb registered until az_pool_go adopts the reader). */
int az_open_fed(az_cursor *s, OTF2_Reader *reader, az_pool *p, OTF2_EvtReaderCallbacks *cb,
                uint8_t *defs_read) {
  if (!p->ndec) return az_open_location(s, reader, cb, defs_read);
  az_feed *f = &p->feed[s->loc];
  pthread_mutex_lock(&p->mu);
  while (!f->opened) pthread_cond_wait(&p->ready, &p->mu);
  pthread_mutex_unlock(&p->mu);
  switch (f->open) {
  case FEED_NO_DEFS:
    az_fail(&s->a->diag, "%s", f->open_error);
    s->failed = 1;
    return -1;
  case FEED_NO_ARCHIVE: az_unreadable(s, "cannot open the trace archive", NULL); return -1;
  case FEED_NO_READER:
    if (az_cut_files_read(s->a)) { /* as az_open_location */
      s->limit = 0;
      return 0;
    }
    az_unreadable(s, "no event reader", NULL);
    return -1;
  default: s->limit = az_chunk_limit(s, reader); return 0;
  }
}

/* An inline pool decodes the locations whose files the decoder reads
   (chunk_size), with the event reader az_open_location opened (for what
   the decoder refuses); the replay reads the others itself (advance). */
static void adopt(az_pool *p, az_cursor *c, az_feed *f) {
  if (p->ndec || !c->a || !c->er || !f->chunk_size) return;
  f->er = c->er;
  c->er = NULL;
  f->worker = -3;
  f->open = FEED_OPEN;
  f->opened = 1;
}

int az_pool_feeds(const az_pool *p, uint32_t l) { return p->ndec || p->feed[l].worker == -3; }

/* The replay opened the locations: the decoding threads may start (what
   they need of the replay's cursors and buffers, read once). */
void az_pool_go(az_pool *p, az_replay *r, const az_rev_buffer *bufs) {
  pthread_mutex_lock(&p->mu);
  for (uint32_t l = 0; l < p->nlocs; l++) {
    az_feed *f = &p->feed[l];
    f->limit = az_replay_loc(r, l)->limit;
    if (bufs) f->chunk = bufs[l].chunk, f->nchunks = bufs[l].nchunks;
    if (bufs) f->chunk_size = bufs[l].chunk_size, f->map = bufs[l].map;
    adopt(p, az_replay_loc(r, l), f);
  }
  p->go = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

void az_pool_window(az_pool *p, size_t window) {
  pthread_mutex_lock(&p->mu);
  p->window = window;
  if (p->idle && window % (AZ_AHEAD_WINDOWS / 2) == 0) pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

static void free_segs(az_seg *s) {
  while (s) {
    az_seg *next = s->tail;
    free(s->b.ev);
    free(s->b.kind);
    free(s->b.more);
    free(s);
    s = next;
  }
}

void az_pool_stop(az_pool *p) {
  pthread_mutex_lock(&p->mu);
  p->quit = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->ndec; i++)
    if (p->dec[i].started) pthread_join(p->dec[i].tid, NULL);
  for (uint32_t l = 0; l < p->nlocs && !p->ndec; l++) /* inline: the readers adopted */
    if (p->feed[l].er) OTF2_Reader_CloseEvtReader(p->reader, p->feed[l].er);
  if (p->cb) OTF2_EvtReaderCallbacks_Delete(p->cb);
  if (p->none) OTF2_EvtReaderCallbacks_Delete(p->none);
  for (uint32_t l = 0; l < p->nlocs; l++) {
    free_segs(p->feed[l].head);
    free(p->feed[l].open_error);
  }
  free_segs(p->spare);
  free(p->jobs.v);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->ready);
  free(p->feed);
  free(p->dec);
  free(p->anchor);
  free(p);
}

/* The first segment of location l not delivered yet, once decoded; NULL
   when its decoding thread has none (a fault of the driver). */
static az_seg *pool_head(az_pool *p, uint32_t l) {
  az_feed *f = &p->feed[l];
  pthread_mutex_lock(&p->mu);
  while (!f->head && !f->ended) {
    if (!p->ndec) { /* inline: decoded now */
      feed_one(p, p->reader, p->cb, p->none, f, l);
      continue;
    }
    f->wanted = 1;
    pthread_cond_broadcast(&p->work);
    pthread_cond_wait(&p->ready, &p->mu);
  }
  f->wanted = 0;
  az_seg *s = f->head;
  pthread_mutex_unlock(&p->mu);
  return s;
}

/* The first segment of location l delivered: to be decoded into again. */
static void pool_pop(az_pool *p, uint32_t l) {
  az_feed *f = &p->feed[l];
  pthread_mutex_lock(&p->mu);
  az_seg *s = f->head;
  f->head = s->tail;
  if (!f->head) f->end = NULL;
  f->queued--;
  size_t had = p->ahead;
  p->ahead -= s->b.len;
  s->tail = p->spare;
  p->spare = s;
  /* backward: its next block; forward: room for more again */
  if (p->idle && (!p->forward || (had >= AZ_AHEAD_EVENTS / 2 && p->ahead < AZ_AHEAD_EVENTS / 2)))
    pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

/* The replay ended location l (a run that did not finish: its clock went
   back): what was decoded ahead of it is not needed. */
static void pool_drop(az_pool *p, uint32_t l) {
  az_feed *f = &p->feed[l];
  pthread_mutex_lock(&p->mu);
  while (f->head) {
    az_seg *s = f->head;
    f->head = s->tail;
    p->ahead -= s->b.len;
    s->tail = p->spare;
    p->spare = s;
  }
  f->end = NULL;
  f->queued = 0;
  f->ended = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

static int driver_fault(az_cursor *c) {
  az_fail(&c->a->diag, "%s: internal error: the decoding thread delivered no events", c->label);
  c->failed = 1;
  return -1;
}

/* Event i of segment buffer b to location s's handlers: Enter and Leave,
   most events, straight to the pass's (enter, leave: s->on's, read once
   by the caller), the rest through az_deliver_forward. */
static inline OTF2_CallbackCode deliver_fed(az_cursor *s, const az_rev_buffer *b, size_t i,
                                            OTF2_LocationRef id, OTF2_EvtReaderCallback_Enter enter,
                                            OTF2_EvtReaderCallback_Leave leave) {
  const az_rev_event *e = &b->ev[i];
  uint8_t k = b->kind[i];
  return k == REV_ENTER   ? enter(id, e->t, b->lo + e->dpos, s, NULL, e->arg)
         : k == REV_LEAVE ? leave(id, e->t, b->lo + e->dpos, s, NULL, e->arg)
                          : az_deliver_forward(s, b, i);
}

/* advance, on the events a decoding thread decoded: the same handlers
   on the same events, the window ending where the pass says so; the end
   of the events as advance meets it. */
int az_advance_fed(az_replay *r, az_cursor *s, OTF2_Reader *reader, az_pool *p, az_time stop) {
  s->stop = stop;
  az_seg *seg;
  int interrupted = 0;
  uint64_t at = 0;
  /* Enter and Leave, most events, straight to the handlers (buffered only
     when the pass handles them) */
  OTF2_LocationRef id = s->a->defs.locs[s->loc].id;
  OTF2_EvtReaderCallback_Enter enter = s->on->enter;
  OTF2_EvtReaderCallback_Leave leave = s->on->leave;
  while ((seg = pool_head(p, s->loc)) != NULL) {
    const az_rev_buffer *b = &seg->b;
    size_t i = seg->next;
    while (i < b->len) {
      OTF2_CallbackCode rc = deliver_fed(s, b, i++, id, enter, leave);
      if (rc == OTF2_CALLBACK_INTERRUPT) {
        interrupted = 1, at = b->lo + b->ev[i - 1].dpos;
        break;
      }
    }
    seg->next = i;
    if (interrupted || seg->last) break;
    pool_pop(p, s->loc);
  }
  if (!seg) return driver_fault(s);
  int no_reader = p->feed[s->loc].open != FEED_OPEN;
  s->read_pos = s->stale || no_reader ? s->pos : interrupted ? at : seg->read_pos;
  if (s->failed) return -1;
  if (s->stale) {
    pool_drop(p, s->loc);
    return az_end_of_file(r, s, reader, "timestamps go backwards");
  }
  if (interrupted) return 0;
  char why[sizeof seg->why];
  memcpy(why, seg->why, sizeof why);
  OTF2_ErrorCode rc = seg->rc;
  int hit = seg->hit_limit;
  pool_pop(p, s->loc);
  if (rc == OTF2_SUCCESS)
    return az_end_of_file(r, s, reader,
                          hit && s->limit_is_size ? "more events than the file has bytes" : NULL);
  return az_end_of_file(r, s, reader, why);
}

/* The first segment of location l not delivered yet, if decoded by now;
   NULL else (a job never waits for decoding: its own thread may be the
   one to decode it). */
static az_seg *pool_head_ready(az_pool *p, uint32_t l) {
  pthread_mutex_lock(&p->mu);
  az_seg *s = p->feed[l].head;
  pthread_mutex_unlock(&p->mu);
  return s;
}

int az_fed_job(az_pool *p, az_cursor *s, uint64_t *read_pos) {
  OTF2_LocationRef id = s->a->defs.locs[s->loc].id;
  OTF2_EvtReaderCallback_Enter enter = s->on->enter;
  OTF2_EvtReaderCallback_Leave leave = s->on->leave;
  az_seg *seg;
  while ((seg = pool_head_ready(p, s->loc)) != NULL) {
    const az_rev_buffer *b = &seg->b;
    size_t i = seg->next;
    for (; i < b->len; i++) {
      if (b->kind[i] >= REV_TASK_CREATE) break; /* the driver's handlers: the replay thread's */
      if (deliver_fed(s, b, i, id, enter, leave) != OTF2_CALLBACK_INTERRUPT) continue;
      if (s->failed) { /* deferred: the replay thread delivers this event */
        seg->next = i;
        return AZ_FED_MORE;
      }
      seg->next = i + 1;
      *read_pos = p->feed[s->loc].open != FEED_OPEN ? s->pos : b->lo + b->ev[i].dpos;
      return AZ_FED_WINDOW_END;
    }
    seg->next = i;
    if (i < b->len || seg->last) break;
    pool_pop(p, s->loc);
  }
  return AZ_FED_MORE;
}

/* az_read_block, from the block a decoding thread read: its arrays swapped
   with the buffer's. */
int az_take_block(az_pool *p, az_cursor *c, az_rev_buffer *b, uint64_t lo, uint64_t to) {
  az_seg *s = pool_head(p, c->loc);
  if (!s || s->lo != lo || s->to != to) return driver_fault(c);
  if (s->failed) {
    az_unreadable(c, s->why, NULL);
    return -1;
  }
  az_rev_buffer t = *b;
  b->ev = s->b.ev, b->kind = s->b.kind, b->len = s->b.len, b->cap = s->b.cap;
  b->more = s->b.more, b->nmore = s->b.nmore, b->capmore = s->b.capmore;
  s->b.ev = t.ev, s->b.kind = t.kind, s->b.cap = t.cap;
  s->b.more = t.more, s->b.capmore = t.capmore;
  b->end = b->len;
  b->lo = lo;
  pool_pop(p, c->loc);
  return 0;
}
