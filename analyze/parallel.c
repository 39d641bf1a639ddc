/*
 * parallel.c -- pomp-analyze under `mpirun -n P`: the processes of the
 * trace are divided among the P analysis processes (contiguous blocks of
 * about equal event counts); each replays its own, then they exchange what
 * matching needs:
 *
 *   sends          -> the analysis process owning the destination, which
 *                     matches them with its receives (Late Sender) and
 *                     answers when each receive was posted (Late Receiver
 *                     is then computed by the sender's owner);
 *   collectives    -> an owner per communicator, which sends back the charges
 *                     for other processes' locations;
 *   call trees and values -> analysis process 0, which writes the report;
 *   the delay pass's records -> between the delay processes (all of
 *                     them), each with its share of the instances; their
 *                     delay costs to process 0 at the end;
 *   the critical path's records -> process 1, which walks the path besides
 *                     its share, on a thread of its own.
 *
 * All values are integer ticks and the report orders its call tree
 * canonically, so the report is identical to a serial analysis (tested).
 * Buffers travel as bytes: the analysis processes must share one ABI.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <mpi.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "az.h"
#include "az_archive.h"
#include "az_calltree.h"
#include "az_cells.h"
#include "az_collective.h"
#include "az_common.h"
#include "az_critical.h"
#include "az_defs.h"
#include "az_delay.h"
#include "az_diag.h"
#include "az_metrics.h"
#include "az_nested.h"
#include "az_p2p.h"
#include "az_parallel.h"
#include "az_pass.h"
#include "az_progress.h"
#include "az_records.h"
#include "pomp_util.h"

typedef struct {
  int rank, size;
  int *owner; /* trace process -> analysis process */
} team;

/* 1 when started by an MPI launcher (mpirun/mpiexec). */
static int launched(void) {
  /* MPICH/Hydra, Open MPI and PMIx launchers */
  return getenv("PMI_SIZE") || getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK");
}

/* How a process waits for the others (wait_until).  A blocking MPI call
   polls (MPICH ch4/UCX spins) until the slower process arrives; on a
   machine whose cores are shared with other work, the spinning process
   takes CPU time the slower one needs (measured on 2 cores: two processes
   slower than one under a load of one other busy process), so there a
   wait tests now and then and sleeps in between.  But a sleep costs its
   wake-up (tens of microseconds, the timer's slack) at each of the
   thousands of window exchanges, and where every analysis process has
   cores of its own nobody needs the CPU a poll takes: on 16 cores
   (bench_analyze's traces, docs/analyze/parallel.md) polling took 30 M events on
   16 processes from 3.5 to 1.2-1.3 s and 100 M events on 8 from 11.6 to
   5.7-7.9 s.  So the short waits poll where the processes of this node
   times their threads fit its CPUs (POMP_ANALYZE_WAIT=poll or sleep
   decides otherwise); long waits (the other one may run a whole pass: the
   gather, the end) always sleep, their pause growing to 1 ms. */
static int poll_short_waits;

/* Sets poll_short_waits for this process (every process calls it: it
   counts the node's processes). */
static void choose_waits(int threads) {
  int node_procs = az_parallel_node_procs();
  const char *how = getenv("POMP_ANALYZE_WAIT");
  if (how && !strcmp(how, "poll")) poll_short_waits = 1;
  else if (how && !strcmp(how, "sleep")) poll_short_waits = 0;
  else poll_short_waits = (long)node_procs * (threads > 0 ? threads : 1) <= az_usable_cpus();
}

/* Until the n requests at req are complete (a test progresses them all:
   one test a round, of the first not known complete). */
static void wait_until(int n, MPI_Request *req, int long_wait) {
  int done = 0, k = 0;
  long pause_ns = 20000;
  int polling = poll_short_waits && !long_wait;
  for (int polls = 0;; polls++) {
    for (; k < n; k++) {
      MPI_Test(&req[k], &done, MPI_STATUS_IGNORE);
      if (!done) break;
    }
    if (k == n) return;
    if (polls >= 64 && !polling) { /* no quick answer: the other one is busy */
      struct timespec pause = {0, pause_ns};
      nanosleep(&pause, NULL);
      if (long_wait && polls >= 1024 && pause_ns < 1000000) pause_ns *= 2;
    }
  }
}

static void wait_for(MPI_Request *req) { wait_until(1, req, 0); }
static void wait_long(MPI_Request *req) { wait_until(1, req, 1); }

/* A trace process's events (one more per location: an empty one costs too). */
static uint64_t proc_events(const az_defs *d, size_t p) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < d->procs[p].num_locs; i++)
    n += d->locs[d->procs[p].first_loc + i].events + 1;
  return n;
}

/* Contiguous blocks of processes with about total/size events each (the
   first pass's shares): a trace process goes to the analysis process
   whose share holds its first event. */
static void assign(team *t, const az_defs *d) {
  t->owner = pu_malloc((d->num_procs ? d->num_procs : 1) * sizeof *t->owner);
  uint64_t total = 0, before = 0;
  for (size_t p = 0; p < d->num_procs; p++) total += proc_events(d, p);
  for (size_t p = 0; p < d->num_procs; p++) {
    double at = total ? (double)before / (double)total * t->size : 0;
    int o = (int)at;
    t->owner[p] = o < t->size ? o : t->size - 1;
    before += proc_events(d, p);
  }
}

/* ---- the first pass's exchange ----------------------------------------- */

/* After each window the first pass exchanges in two rounds (exchange_waits),
   each one MPI_Ialltoall of counts and one MPI_Ialltoallv of bytes that
   carry two kinds of items: per pair one block, the first kind's items,
   then the second's. */
enum { ROUND_KINDS = 2 };

typedef struct { /* one kind of item going out in a round */
  void *items;   /* n items of elem bytes, each to dest[i] */
  int *dest;
  size_t n, elem;
  size_t cap, capdest; /* round_put's room */
} round_out;

typedef struct { /* what a round brought in */
  int size;      /* analysis processes */
  int *rcounts;  /* [source * ROUND_KINDS + kind]: items from it */
  size_t *block; /* per source: where its block starts in in */
  size_t elem[ROUND_KINDS];
  char *in;
} round_in;

/* One round: out[k]'s items to their destinations, what came in into *x
   (round_free frees it).  The counts travel (ROUND_KINDS ints a pair)
   while the blocks are laid out. */
static void round_exchange(const team *t, const round_out out[ROUND_KINDS], round_in *x) {
  size_t np = (size_t)t->size;
  int *counts = pu_calloc(np * ROUND_KINDS, sizeof *counts);
  x->size = t->size;
  x->rcounts = pu_malloc(np * ROUND_KINDS * sizeof *x->rcounts);
  for (int k = 0; k < ROUND_KINDS; k++) {
    x->elem[k] = out[k].elem;
    for (size_t i = 0; i < out[k].n; i++) counts[out[k].dest[i] * ROUND_KINDS + k]++;
  }
  MPI_Request req;
  MPI_Ialltoall(counts, ROUND_KINDS, MPI_INT, x->rcounts, ROUND_KINDS, MPI_INT, MPI_COMM_WORLD,
                &req);
  int *sbytes = pu_malloc(np * 4 * sizeof *sbytes);
  int *sdispl = sbytes + np, *rbytes = sdispl + np, *rdispl = rbytes + np;
  size_t *next = pu_malloc(np * ROUND_KINDS * sizeof *next), so = 0;
  for (size_t r = 0; r < np; r++) {
    sdispl[r] = (int)so;
    for (int k = 0; k < ROUND_KINDS; k++) {
      next[r * ROUND_KINDS + k] = so;
      so += (size_t)counts[r * ROUND_KINDS + k] * out[k].elem;
    }
    sbytes[r] = (int)(so - (size_t)sdispl[r]);
  }
  char *block = pu_malloc(so ? so : 1);
  for (int k = 0; k < ROUND_KINDS; k++)
    for (size_t i = 0; i < out[k].n; i++) {
      size_t *at = &next[out[k].dest[i] * ROUND_KINDS + k];
      memcpy(block + *at, (char *)out[k].items + i * out[k].elem, out[k].elem);
      *at += out[k].elem;
    }
  wait_for(&req);
  x->block = pu_malloc(np * sizeof *x->block);
  size_t ro = 0;
  for (size_t r = 0; r < np; r++) {
    x->block[r] = ro;
    rdispl[r] = (int)ro;
    for (int k = 0; k < ROUND_KINDS; k++)
      ro += (size_t)x->rcounts[r * ROUND_KINDS + k] * x->elem[k];
    rbytes[r] = (int)(ro - x->block[r]);
  }
  x->in = pu_malloc(ro ? ro : 1);
  MPI_Ialltoallv(block, sbytes, sdispl, MPI_BYTE, x->in, rbytes, rdispl, MPI_BYTE, MPI_COMM_WORLD,
                 &req);
  wait_for(&req);
  free(next);
  free(block);
  free(sbytes);
  free(counts);
}

/* How many items of kind k came from process `from`. */
static int round_count(const round_in *x, int from, int k) {
  return x->rcounts[from * ROUND_KINDS + k];
}

/* Item i of kind k from process `from`, copied to item (in the block it
   may lie unaligned). */
static void round_item(const round_in *x, int from, int k, int i, void *item) {
  size_t at = x->block[from];
  for (int j = 0; j < k; j++) at += (size_t)round_count(x, from, j) * x->elem[j];
  memcpy(item, x->in + at + (size_t)i * x->elem[k], x->elem[k]);
}

static void round_free(round_in *x) {
  free(x->rcounts);
  free(x->block);
  free(x->in);
}

/* item (o->elem bytes) appended to o, to go to process dest. */
static void round_put(round_out *o, const void *item, int dest) {
  pu_reserve(&o->items, &o->cap, o->n + 1, o->elem);
  pu_reserve((void **)&o->dest, &o->capdest, o->n + 1, sizeof *o->dest);
  memcpy((char *)o->items + o->n * o->elem, item, o->elem);
  o->dest[o->n++] = dest;
}

static void round_out_free(round_out *o) {
  free(o->items);
  free(o->dest);
}

typedef struct { /* a send travelling to the owner of its dst */
  az_msg msg;
  uint64_t slot; /* its slot at the origin */
} shipped_send;

typedef struct { /* when the receive of a shipped send was posted */
  uint64_t slot;
  az_time posted;
} answer_back;

typedef struct {
  uint32_t loc;
  int32_t cnode, metric;
  int64_t v;
} remote_charge;

/* What an analysis process keeps between windows: the sends addressed to
   its processes (with where they came from) and the collective instances
   it owns. */
typedef struct {
  const team *t;
  az_msg *pool;
  size_t npool, cappool;
  az_slots free_pool;
  int *from_rank;
  uint64_t *from_slot;
  size_t capfrom;
  az_coll *cpool;
  size_t ncpool, capcpool;
  az_slots free_cpool;
  remote_charge *c;
  size_t nc, capc; /* charges for other processes */
} par_state;

/* The first round's two kinds, and the second's. */
enum { SENDS, COLLS };
enum { ANSWERS, CHARGES };

/* Sends not shipped yet: each to the analysis process of its destination,
   which keeps it until it is matched (items and dest: free them). */
static round_out pick_sends(az_analysis *a, const team *t) {
  az_mpi_records *m = &a->mpi;
  round_out o = {.elem = sizeof(shipped_send)};
  for (size_t i = 0; i < m->nsends; i++) {
    az_msg *s = &m->sends[i];
    if (s->state == AZ_MSG_FREE || s->state == AZ_MSG_CANCELLED || s->shipped) continue;
    s->shipped = 1;
    if (s->dst >= a->defs.num_procs) continue; /* cannot be matched */
    shipped_send item = {*s, i};
    round_put(&o, &item, t->owner[s->dst]);
  }
  return o;
}

/* The shipped sends that came, into the pool of those addressed here. */
static void take_sends(par_state *ps, const round_in *x) {
  for (int r = 0; r < ps->t->size; r++)
    for (int k = 0; k < round_count(x, r, SENDS); k++) {
      shipped_send got;
      round_item(x, r, SENDS, k, &got);
      size_t slot = az_slot_take((void **)&ps->pool, &ps->npool, &ps->cappool, sizeof *ps->pool,
                                 &ps->free_pool);
      if (ps->npool > ps->capfrom) {
        ps->capfrom = ps->cappool;
        ps->from_rank = pu_realloc(ps->from_rank, ps->capfrom * sizeof(int));
        ps->from_slot = pu_realloc(ps->from_slot, ps->capfrom * sizeof(uint64_t));
      }
      ps->pool[slot] = got.msg;
      ps->from_rank[slot] = r;
      ps->from_slot[slot] = got.slot;
    }
}

/* Records of finished collective operations: each to the owner of its
   communicator, their slots released here (items and dest: free them). */
static round_out pick_colls(az_analysis *a, const team *t) {
  az_mpi_records *m = &a->mpi;
  round_out o = {.elem = sizeof(az_coll)};
  for (size_t i = 0; i < m->ncolls; i++) {
    az_coll *c = &m->colls[i];
    if (c->free || !c->left) continue;
    /* one owner per communicator: a mismatch stops the analysis of its
       later instances (collective.c), which the owner must know */
    round_put(&o, c, (int)(c->comm * 2654435761u % (uint64_t)t->size));
    c->free = 1;
    az_slot_give(&m->free_colls, i);
  }
  return o;
}

/* The collective records that came, into the pool of owned instances. */
static void take_colls(par_state *ps, const round_in *x) {
  for (int r = 0; r < ps->t->size; r++)
    for (int k = 0; k < round_count(x, r, COLLS); k++) {
      size_t slot = az_slot_take((void **)&ps->cpool, &ps->ncpool, &ps->capcpool, sizeof *ps->cpool,
                                 &ps->free_cpool);
      round_item(x, r, COLLS, k, &ps->cpool[slot]);
    }
}

/* Late Sender of the sends addressed here; the answers (when each matched
   receive was posted) to the sends' origins (items and dest: free them).
   *ls: the calls holding a Late Sender, for az_p2p_send_step. */
static round_out match_sends(az_analysis *a, par_state *ps, int last, az_call_key **ls,
                             size_t *nls) {
  az_p2p_answer *answer = pu_calloc(ps->npool ? ps->npool : 1, sizeof *answer);
  *ls = az_p2p_receive_step(a, ps->pool, ps->npool, &ps->free_pool, last, answer, nls);
  round_out o = {.elem = sizeof(answer_back)};
  for (size_t i = 0; i < ps->npool; i++) {
    if (!answer[i].matched) continue;
    answer_back b = {ps->from_slot[i], answer[i].posted};
    round_put(&o, &b, ps->from_rank[i]);
  }
  free(answer);
  return o;
}

static void collect(az_analysis *a, uint32_t loc, int32_t cnode, int metric, int64_t v) {
  par_state *ps = a->hook_data;
  if (ps->t->owner[a->defs.locs[loc].process] == ps->t->rank) {
    az_cell(&a->cells[loc], cnode)[metric] += v;
    return;
  }
  remote_charge c = {loc, cnode, metric, v};
  PU_PUSH(ps->c, ps->nc, ps->capc, c);
}

/* Swaps the own collective records with the pool of owned instances. */
static void swap_colls(az_mpi_records *m, par_state *ps) {
  az_coll *c = m->colls;
  size_t n = m->ncolls, cap = m->capcolls;
  az_slots f = m->free_colls;
  m->colls = ps->cpool, m->ncolls = ps->ncpool, m->capcolls = ps->capcpool;
  m->free_colls = ps->free_cpool;
  ps->cpool = c, ps->ncpool = n, ps->capcpool = cap, ps->free_cpool = f;
}

/* The complete collective instances owned here evaluated; the charges
   for other processes' locations, each to its location's owner (items:
   ps->c, emptied after the round; dest: free it). */
static round_out evaluate_colls(az_analysis *a, par_state *ps, int last) {
  swap_colls(&a->mpi, ps);
  a->charge_hook = collect;
  a->hook_data = ps;
  az_collective_step(a, last);
  a->charge_hook = NULL;
  swap_colls(&a->mpi, ps);
  int *dest = pu_malloc((ps->nc ? ps->nc : 1) * sizeof *dest);
  for (size_t i = 0; i < ps->nc; i++) dest[i] = ps->t->owner[a->defs.locs[ps->c[i].loc].process];
  return (round_out){.items = ps->c, .dest = dest, .n = ps->nc, .elem = sizeof *ps->c};
}

/* The answers that came: Late Receiver of the own sends then. */
static void take_answers(az_analysis *a, const round_in *x) {
  for (int r = 0; r < x->size; r++)
    for (int k = 0; k < round_count(x, r, ANSWERS); k++) {
      answer_back got;
      round_item(x, r, ANSWERS, k, &got);
      az_p2p_answered(&a->mpi.sends[got.slot], got.posted);
    }
}

static void take_charges(az_analysis *a, const round_in *x) {
  for (int r = 0; r < x->size; r++)
    for (int k = 0; k < round_count(x, r, CHARGES); k++) {
      remote_charge got;
      round_item(x, r, CHARGES, k, &got);
      az_cell(&a->cells[got.loc], got.cnode)[got.metric] += got.v;
    }
}

/* After each window, all analysis processes agree on going on (any of
   them still reading) and on failure (any of them failed). */
static int agree(az_analysis *a, int active, int *failed) {
  (void)a;
  int in[2] = {active != 0, *failed != 0}, out[2];
  MPI_Request req;
  MPI_Iallreduce(in, out, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
  wait_for(&req);
  *failed = out[1];
  return out[1] ? 0 : out[0];
}

/* The MPI version of the wait-state pass's exchange (pass_waits.c): what
   is complete in this window, among all analysis processes, in two
   rounds.  The first takes the new sends to their destination's owner and
   the finished collective operations to their communicator's owner; each
   owner then evaluates Late Sender and the complete collective instances;
   the second round takes the answers (when each matched receive was
   posted) to the sends' origins, which then evaluate Late Receiver, and
   the collectives' charges to their locations' owners.  Point-to-point
   and collectives share no records, and every value is an integer added
   where it lands: the two interleave in any order. */
static void exchange_waits(az_analysis *a, int last) {
  par_state *ps = a->exchange_data;
  round_out out[ROUND_KINDS];
  round_in in;
  out[SENDS] = pick_sends(a, ps->t);
  out[COLLS] = pick_colls(a, ps->t);
  round_exchange(ps->t, out, &in);
  round_out_free(&out[SENDS]);
  round_out_free(&out[COLLS]);
  take_sends(ps, &in);
  take_colls(ps, &in);
  round_free(&in);
  az_call_key *ls;
  size_t nls;
  out[ANSWERS] = match_sends(a, ps, last, &ls, &nls);
  out[CHARGES] = evaluate_colls(a, ps, last);
  round_exchange(ps->t, out, &in);
  round_out_free(&out[ANSWERS]);
  free(out[CHARGES].dest); /* its items: ps->c */
  ps->nc = 0;
  take_answers(a, &in);
  az_p2p_send_step(a, ls, nls, last);
  take_charges(a, &in);
  round_free(&in);
  free(ls);
}

static void free_par_state(par_state *ps) {
  free(ps->pool);
  free(ps->free_pool.idx);
  free(ps->from_rank);
  free(ps->from_slot);
  free(ps->cpool);
  free(ps->free_cpool.idx);
  free(ps->c);
}

/* ---- gathering the result on analysis process 0 ----------------------- */

/* Messages of a window after window to one analysis process, two in
   flight at most (the one before last is waited for before its buffer is
   used again): the sender reads on while the receiver works. */
typedef struct {
  pu_bytes out[2]; /* a window's message in flight, and the next */
  MPI_Request req[2][2];
  int next;
} pipe_out;

static void pipe_init(pipe_out *po) {
  memset(po, 0, sizeof *po);
  for (int i = 0; i < 2; i++) po->req[i][0] = po->req[i][1] = MPI_REQUEST_NULL;
}

/* The buffer of the next message, empty. */
static pu_bytes *pipe_buffer(pipe_out *po) {
  int k = po->next;
  if (po->req[k][0] != MPI_REQUEST_NULL) { /* the one before last still in flight */
    wait_for(&po->req[k][0]);
    wait_for(&po->req[k][1]);
  }
  po->out[k].len = 0;
  return &po->out[k];
}

/* Sends the buffer pipe_buffer gave in two messages: its first head
   bytes with tag (a size the receiver knows, saying what the second
   holds: it receives that straight where it goes), the rest with
   tag + 1; the last one: until all arrived. */
static void pipe_send(pipe_out *po, int to, int tag, MPI_Comm comm, int last, size_t head) {
  int k = po->next;
  MPI_Isend(po->out[k].p, (int)head, MPI_BYTE, to, tag, comm, &po->req[k][0]);
  MPI_Isend(po->out[k].p + head, (int)(po->out[k].len - head), MPI_BYTE, to, tag + 1, comm,
            &po->req[k][1]);
  po->next ^= 1;
  for (int i = 0; last && i < 2; i++)
    for (int j = 0; j < 2; j++)
      if (po->req[i][j] != MPI_REQUEST_NULL) wait_for(&po->req[i][j]);
}

static void pipe_free(pipe_out *po) {
  for (int i = 0; i < 2; i++) free(po->out[i].p);
}

/* A message send_to_0 sent from `from` (its length with tag, its bytes with
   tag + 1) into b (its storage reused);
   long_wait: the sender may be far behind. */
static void pipe_receive_into(int from, int tag, MPI_Comm comm, int long_wait, pu_bytes *b) {
  uint64_t len;
  MPI_Request req;
  MPI_Irecv(&len, 1, MPI_UINT64_T, from, tag, comm, &req);
  wait_until(1, &req, long_wait);
  pu_reserve((void **)&b->p, &b->cap, len ? len : 1, 1);
  b->len = len;
  MPI_Irecv(b->p, (int)len, MPI_BYTE, from, tag + 1, comm, &req);
  wait_for(&req);
}

/* The same, malloc'd (its length in *len). */
static char *pipe_receive(int from, int tag, MPI_Comm comm, int long_wait, uint64_t *len) {
  pu_bytes b = {0};
  pipe_receive_into(from, tag, comm, long_wait, &b);
  *len = b.len;
  return b.p;
}

/* [ntree][tree][nrows]{loc, cnode, row}... for the own locations (every
   location with t NULL), after the bytes already in b. */
static void pack_result(pu_bytes *b, const az_analysis *a, const team *t) {
  uint64_t n = a->tree.len;
  pu_bytes_put(b, &n, sizeof n);
  pu_bytes_put(b, a->tree.nodes, n * sizeof *a->tree.nodes);
  for (uint32_t l = 0; l < a->defs.num_locs; l++) {
    if (t && t->owner[a->defs.locs[l].process] != t->rank) continue;
    const az_cells *c = &a->cells[l];
    for (size_t r = 0; r < c->nrows; r++) {
      pu_bytes_put(b, &l, sizeof l);
      pu_bytes_put(b, &c->row_cnode[r], sizeof c->row_cnode[r]);
      pu_bytes_put(b, c->rows[r], sizeof c->rows[r]);
    }
  }
}

static void unpack_result(az_analysis *a, const char *p, size_t len) {
  uint64_t n;
  memcpy(&n, p, sizeof n);
  const char *q = p + sizeof n;
  int32_t *map = pu_malloc((n ? n : 1) * sizeof *map);
  for (uint64_t i = 0; i < n; i++, q += sizeof(az_cnode)) {
    az_cnode c;
    memcpy(&c, q, sizeof c);
    /* parents precede their children in every call tree */
    map[i] = az_calltree_child(&a->tree, c.parent < 0 ? -1 : map[c.parent], c.region);
  }
  while (q < p + len) {
    uint32_t loc;
    int32_t cnode;
    az_row row;
    memcpy(&loc, q, sizeof loc);
    memcpy(&cnode, q + sizeof loc, sizeof cnode);
    memcpy(row, q + sizeof loc + sizeof cnode, sizeof row);
    q += sizeof loc + sizeof cnode + sizeof row;
    int64_t *v = az_cell(&a->cells[loc], map[cnode]);
    for (int m = 0; m < AZ_NUM_SLOTS; m++) v[m] += row[m];
  }
  free(map);
}

/* Bytes to analysis process 0 (tag: tag and tag + 1). */
static void send_to_0(const pu_bytes *b, int tag) {
  uint64_t len = b->len;
  MPI_Request req[2];
  MPI_Isend(&len, 1, MPI_UINT64_T, 0, tag, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(b->p, (int)len, MPI_BYTE, 0, tag + 1, MPI_COMM_WORLD, &req[1]);
  wait_long(&req[0]); /* until process 0 has finished its own part */
  wait_long(&req[1]);
}

/* What send_to_0 sent from process `from` (malloc'd; its length in *len):
   the others may still be finishing. */
static char *receive_on_0(int from, int tag, uint64_t *len) {
  return pipe_receive(from, tag, MPI_COMM_WORLD, 1, len);
}

/* --skip-damaged: the locations another analysis process read up to a
   damage join process 0's list (in the order of the analysis processes,
   which is the serial one's unless two damages met in different windows
   lie in the reverse order of their locations). */
static void add_damaged(az_analysis *a, const char *more, size_t n) {
  if (!n) return;
  a->diag.incomplete = 1; /* as note_damaged (replay_file.c) */
  size_t had = a->damaged ? strlen(a->damaged) : 0, sep = had ? 2 : 0;
  a->damaged = pu_realloc(a->damaged, had + sep + n + 1);
  memcpy(a->damaged + had, "; ", sep);
  memcpy(a->damaged + had + sep, more, n);
  a->damaged[had + sep + n] = 0;
}

/* [damaged locations' text][the result] of every analysis process to 0. */
static void gather(az_analysis *a, const team *t) {
  if (t->rank) {
    pu_bytes b = {NULL, 0, 0};
    uint64_t n = a->damaged ? strlen(a->damaged) : 0;
    pu_bytes_put(&b, &n, sizeof n);
    pu_bytes_put(&b, a->damaged, n);
    pack_result(&b, a, t);
    send_to_0(&b, 1);
    free(b.p);
    return;
  }
  for (int r = 1; r < t->size; r++) {
    uint64_t len, n;
    char *buf = receive_on_0(r, 1, &len);
    memcpy(&n, buf, sizeof n);
    add_damaged(a, buf + sizeof n, n);
    unpack_result(a, buf + sizeof n + n, len - sizeof n - n);
    free(buf);
  }
}

static void reduce_diag(az_analysis *a, const team *t) {
  uint64_t local[AZ_W_NUM_KINDS + 1], sum[AZ_W_NUM_KINDS + 1];
  memcpy(local, a->diag.count, sizeof a->diag.count);
  local[AZ_W_NUM_KINDS] = a->events_read;
  MPI_Request req;
  MPI_Ireduce(local, sum, AZ_W_NUM_KINDS + 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD, &req);
  wait_long(&req); /* process 0 may still run RMA or derive the critical path */
  if (t->rank) return;
  memcpy(a->diag.count, sum, sizeof a->diag.count);
  a->events_read = sum[AZ_W_NUM_KINDS];
}

/* One line for a failure, as the serial analysis says it: every
   process's az_fail kept its message (errors_later); process 0 says its
   own first error, else the first of the lowest process that met one,
   else (no process met an error of the input) that WHAT failed.
   Collective; whether any process failed, on every process (so that all
   stop together). */
static int say_first_error(az_analysis *a, const team *t, int failed, const char *anchor,
                           const char *what) {
  struct {
    int failed, errors;
    char text[sizeof a->diag.first_error];
  } mine = {failed != 0, a->diag.errors, {0}}, *all;
  memcpy(mine.text, a->diag.first_error, sizeof mine.text);
  all = pu_calloc((size_t)t->size, sizeof *all);
  MPI_Request req;
  MPI_Iallgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, MPI_COMM_WORLD,
                 &req);
  wait_long(&req); /* process 0 may still run RMA or derive the critical path */
  a->diag.errors_later = 0;
  int any = 0, said = -1;
  for (int r = 0; r < t->size; r++) {
    any |= all[r].failed;
    if (said < 0 && all[r].errors) said = r;
  }
  if (!t->rank && any) {
    if (said > 0) { /* process 0 met no error of its own */
      a->diag.errors = 0;
      az_fail(&a->diag, "%s", all[said].text);
    } else if (said < 0) {
      az_fail(&a->diag, "%s: %s failed in another analysis process", anchor, what);
    } else if (a->diag.verbosity) {
      pu_error("%s", a->diag.first_error);
    }
  }
  free(all);
  return any;
}

static int replay_own(az_analysis *a, OTF2_Reader *reader, const team *t, az_marks *marks) {
  uint8_t *mine = pu_calloc(a->defs.num_procs ? a->defs.num_procs : 1, 1);
  size_t locations = 0;
  for (uint32_t p = 0; p < a->defs.num_procs; p++)
    if ((mine[p] = t->owner[p] == t->rank)) locations += a->defs.procs[p].num_locs;
  for (size_t i = 0; i < a->defs.num_locs; i++)
    if (mine[a->defs.locs[i].process]) OTF2_Reader_SelectLocation(reader, a->defs.locs[i].id);
  int defs_open = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  int rc = OTF2_Reader_OpenEvtFiles(reader) == OTF2_SUCCESS ? 0 : -1;
  if (rc) az_fail(&a->diag, "cannot open the event files");
  if (!rc) rc = az_check_open_files(a, locations, "the trace");
  /* the passes of az_analyze, each with its MPI exchange */
  az_pass waits = az_pass_waits;
  waits.exchange = exchange_waits;
  const az_pass *passes[] = {&waits};
  if (!rc)
    rc = az_replay_run_marked(a, reader, mine, passes, sizeof passes / sizeof *passes, marks);
  else agree(a, 0, &rc); /* the others learn it at their window */
  free(mine);
  if (defs_open) OTF2_Reader_CloseDefFiles(reader);
  OTF2_Reader_CloseEvtFiles(reader);
  return rc;
}

/* ---- the backward passes ------------------------------------------------ */

/* Where each window of the distributed first pass ended in every
   location's file, on every analysis process: each noted its own
   locations (the others' positions are 0) and all ran the same windows
   (they agreed after each). */
static void share_marks(az_marks *m) {
  MPI_Request req;
  MPI_Iallreduce(MPI_IN_PLACE, m->at, (int)(m->windows * m->nlocs), MPI_UINT64_T, MPI_MAX,
                 MPI_COMM_WORLD, &req);
  wait_for(&req);
}

/* Backward passes over the locations of the trace processes p with
   mine[p] (all: NULL) on this analysis process, in the windows of the
   first pass (marks).  Their reading's warnings were counted by the first
   pass: not again. */
static int backward_mine(az_analysis *a, const char *anchor, az_marks *marks,
                         const az_pass *const *passes, size_t npasses, const uint8_t *mine) {
  OTF2_Reader *reader = OTF2_Reader_Open(anchor);
  if (!reader) {
    az_fail(&a->diag, "%s: cannot open the trace archive again", anchor);
    return -1;
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  size_t locations = 0;
  for (size_t i = 0; i < a->defs.num_locs; i++)
    if (!mine || mine[a->defs.locs[i].process]) {
      OTF2_Reader_SelectLocation(reader, a->defs.locs[i].id);
      locations++;
    }
  int defs_open = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  int rc = OTF2_Reader_OpenEvtFiles(reader) == OTF2_SUCCESS ? 0 : -1;
  if (rc) az_fail(&a->diag, "cannot open the event files");
  if (!rc) rc = az_check_open_files(a, locations, anchor);
  az_diag before = a->diag;
  uint64_t events = a->events_read;
  int progress = a->progress;
  a->diag.verbosity = 0;
  a->progress = 0;
  memset(marks->defs_read, 0, marks->nlocs); /* a new reader */
  if (!rc) rc = az_replay_run_marked(a, reader, mine, passes, npasses, marks);
  else if (a->agree_hook) a->agree_hook(a, 0, &rc); /* the others learn it at their window */
  if (!rc) a->diag = before;
  a->diag.verbosity = before.verbosity;
  /* an error of its own: process 0 says it (say_first_error) */
  a->events_read = events;
  a->progress = progress;
  if (defs_open) OTF2_Reader_CloseDefFiles(reader);
  OTF2_Reader_CloseEvtFiles(reader);
  OTF2_Reader_Close(reader);
  return rc;
}

static int backward_whole(az_analysis *a, const char *anchor, az_marks *marks,
                          const az_pass *const *passes, size_t npasses) {
  return backward_mine(a, anchor, marks, passes, npasses, NULL);
}

/* ---- the delay pass divided (docs/analyze/delay.md, "Delay costs in a
   parallel analysis") ------------------------------------------------- */

/* Its analysis processes: all of them; process 1 walks the critical path
   besides.  Each replays the locations of its
   own trace processes backwards (the local part) and applies their logs
   (its share of the central part); after each window they exchange the
   records of the divided central part (az_delay.h), and at the end their
   delay costs go to process 0. */
enum { DL_TAG = 5 };

typedef struct {
  MPI_Comm comm;
  int rank, size;
  int32_t base; /* call paths of process 0's tree when it was shared */
  size_t sent;  /* call paths of this tree the others know */
  /* per other: this process's call path of each one it created */
  int32_t **map;
  size_t *nmap, *capmap;
  uint64_t *in; /* the exchange's buffer, reused */
  size_t capin;
  int *counts;       /* per other: words to it, from it, their displacements */
  MPI_Request *reqs; /* the exchange's: a receive and a send per other */
  size_t lag_bound;  /* instances one process may hold before lag_rounds */
  int over;          /* the last agreement: one held more */
  uint32_t *idle;    /* per trace process: its OpenMP workers (process 0's cells) */
  int64_t *finalize; /* per location: its Wait at Finalize (likewise) */
} delay_team;

/* Every delay process takes process 0's call tree (after the gather), so
   that the call paths in the logs are process 0's; those created later
   elsewhere travel with the logs (ship_logs). */
static void share_tree(az_analysis *a, delay_team *dt) {
  uint64_t n = a->tree.len;
  MPI_Request req;
  MPI_Ibcast(&n, 1, MPI_UINT64_T, 0, dt->comm, &req);
  wait_for(&req);
  az_cnode *nodes = dt->rank ? pu_malloc((n ? n : 1) * sizeof *nodes) : a->tree.nodes;
  MPI_Ibcast(nodes, (int)(n * sizeof *nodes), MPI_BYTE, 0, dt->comm, &req);
  wait_for(&req);
  dt->base = (int32_t)n;
  dt->sent = n;
  /* the workers of every trace process: the cells that say so are process 0's */
  dt->idle = dt->rank ? pu_calloc(a->defs.num_procs ? a->defs.num_procs : 1, sizeof *dt->idle)
                      : dl_idle_workers(a);
  MPI_Ibcast(dt->idle, (int)a->defs.num_procs, MPI_UINT32_T, 0, dt->comm, &req);
  wait_for(&req);
  dt->finalize = dt->rank ? pu_calloc(a->defs.num_locs ? a->defs.num_locs : 1, sizeof *dt->finalize)
                          : dl_finalize_waits(a);
  MPI_Ibcast(dt->finalize, (int)a->defs.num_locs, MPI_INT64_T, 0, dt->comm, &req);
  wait_for(&req);
  if (!dt->rank) return;
  /* their own tree's numbers are not used again: its values were gathered */
  az_calltree_free(&a->tree);
  az_calltree_init(&a->tree);
  for (uint64_t i = 0; i < n; i++) az_calltree_child(&a->tree, nodes[i].parent, nodes[i].region);
  free(nodes);
}

/* the records' call paths travel as whole words */
_Static_assert(sizeof(az_cnode) % sizeof(uint64_t) == 0, "call path records in whole words");

/* The call paths process `from` created (n nodes at q), after those it
   sent before: named here (parents precede their children). */
static void map_nodes(az_analysis *a, delay_team *dt, int from, const uint64_t *q, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    az_cnode c;
    memcpy(&c, (const char *)q + i * sizeof c, sizeof c);
    int32_t parent = c.parent < dt->base ? c.parent : dt->map[from][c.parent - dt->base];
    PU_PUSH(dt->map[from], dt->nmap[from], dt->capmap[from],
            az_calltree_child(&a->tree, parent, c.region));
  }
}

/* One exchange among the delay processes: to each other one
   [records][collective posts][call paths created here since the last]
   [their three lengths], sent from the records' own log (the posts and
   call paths, a few words, appended to it) with one message per pair: no
   copy into a buffer of all (an MPI_Alltoallv's); none to a process it
   has nothing for (its count 0: 17 % of the pairs of t16 at -n 16).
   What arrives is received in the order of the senders (the records
   first, the posts then wait for their locations' turn:
   dl_central_apply). */
enum { DL_REC_TAG = 11, DL_TRAILER_WORDS = 3 };

static void exchange_records(az_analysis *a, delay_team *dt) {
  dl_central *c = a->delay_link->central_part;
  int *counts = dt->counts, *rcounts = counts + dt->size, *rdispl = rcounts + dt->size;
  uint64_t nodes = a->tree.len - dt->sent;
  size_t node_words = nodes * sizeof(az_cnode) / sizeof(uint64_t);
  for (int r = 0; r < dt->size; r++) {
    counts[r] = 0;
    if (r == dt->rank) continue;
    dl_log *rec = dl_central_records(c, r), *posts = dl_central_coll_posts(c, r);
    if (!rec->n && !posts->n && !nodes) continue; /* nothing for r: no message */
    size_t nrec = rec->n, n = nrec + posts->n + node_words + DL_TRAILER_WORDS;
    pu_reserve((void **)&rec->w, &rec->cap, n, sizeof *rec->w);
    uint64_t *w = rec->w + nrec;
    if (posts->n) memcpy(w, posts->w, posts->n * sizeof *w);
    w += posts->n;
    if (node_words) memcpy(w, a->tree.nodes + dt->sent, node_words * sizeof *w);
    w += node_words;
    w[0] = nodes, w[1] = nrec, w[2] = posts->n;
    rec->n = n;
    posts->n = 0;
    counts[r] = (int)n;
  }
  dt->sent = a->tree.len;
  MPI_Request req;
  MPI_Ialltoall(counts, 1, MPI_INT, rcounts, 1, MPI_INT, dt->comm, &req);
  wait_for(&req);
  size_t rtotal = 0;
  for (int r = 0; r < dt->size; r++) {
    rdispl[r] = (int)rtotal;
    rtotal += (size_t)rcounts[r];
  }
  pu_reserve((void **)&dt->in, &dt->capin, rtotal ? rtotal : 1, sizeof *dt->in);
  size_t nreq = 0;
  for (int r = 0; r < dt->size; r++) {
    if (rcounts[r])
      MPI_Irecv(dt->in + rdispl[r], rcounts[r], MPI_UINT64_T, r, DL_REC_TAG, dt->comm,
                &dt->reqs[nreq++]);
    if (counts[r])
      MPI_Isend(dl_central_records(c, r)->w, counts[r], MPI_UINT64_T, r, DL_REC_TAG, dt->comm,
                &dt->reqs[nreq++]);
  }
  wait_until((int)nreq, dt->reqs, 0);
  /* sent: the records the received ones make go out with the next exchange */
  for (int r = 0; r < dt->size; r++)
    if (r != dt->rank) dl_central_records(c, r)->n = 0;
  for (int r = 0; r < dt->size; r++) {
    if (!rcounts[r]) continue;
    const uint64_t *w = dt->in + rdispl[r], *trailer = w + rcounts[r] - DL_TRAILER_WORDS;
    const uint64_t *posts = w + trailer[1], *tree = posts + trailer[2];
    map_nodes(a, dt, r, tree, trailer[0]);
    dl_central_receive(c, w, trailer[1], dt->map[r], dt->base);
    dl_central_receive_posts(c, posts, trailer[2]);
  }
}

/* Records still to send on any process (for all of them: a reduction);
   *over: on entry whether this one holds too many, on return whether one
   does. */
static int any_records(const delay_team *dt, dl_central *c, int *over) {
  uint64_t v[2] = {0, (uint64_t)*over};
  for (int r = 0; r < dt->size; r++) v[0] += dl_central_records(c, r)->n;
  MPI_Request req;
  MPI_Iallreduce(MPI_IN_PLACE, v, 2, MPI_UINT64_T, MPI_MAX, dt->comm, &req);
  wait_for(&req);
  *over = v[1] != 0;
  return v[0] != 0;
}

/* One process holds more instances than the bound (a long chain of
   waits across processes: each hop costs an exchange): rounds of records
   until none does, or nothing is left to send.  The window's agreement
   said so; the reading goes on after them. */
enum { DL_LAG_BOUND = 32768, DL_LAG_ROUNDS = 64 };

static void lag_rounds(az_analysis *a, delay_team *dt) {
  dl_central *c = a->delay_link->central_part;
  int over = dl_central_held(c) > dt->lag_bound;
  for (int i = 0; i < DL_LAG_ROUNDS && any_records(dt, c, &over) && over; i++) {
    exchange_records(a, dt);
    dl_central_window(c);
    over = dl_central_held(c) > dt->lag_bound;
  }
}

/* After each window all agreed on (last: after the pass): its collective
   posts and the records to the others, theirs here; the logs are applied
   then (pass_delay.c). */
static void ship_records(az_analysis *a, dl_log *logs, int last) {
  delay_team *dt = a->delay_link->data;
  if (dt->size > 1) {
    dl_central *c = a->delay_link->central_part;
    if (dt->over) lag_rounds(a, dt);
    for (uint32_t l = 0; l < a->defs.num_locs; l++)
      if (logs[l].ncolls) dl_central_scan(c, l, &logs[l]);
    exchange_records(a, dt);
  }
  if (last) a->delay_link->ended = 1;
}

/* After the pass: one more exchange while any process has records to
   send (the last instances wait for waiters of other processes). */
static int round_records(az_analysis *a) {
  delay_team *dt = a->delay_link->data;
  int over = 0;
  if (!any_records(dt, a->delay_link->central_part, &over)) return 0;
  exchange_records(a, dt);
  return 1;
}

/* The delay costs each delay process charged (its cells held nothing else:
   emptied before the pass) to process 0, which adds them (integer ticks:
   any order). */
static void gather_delay(az_analysis *a, const delay_team *dt) {
  if (dt->rank) {
    pu_bytes b = {NULL, 0, 0};
    pack_result(&b, a, NULL);
    send_to_0(&b, DL_TAG);
    free(b.p);
    return;
  }
  for (int r = 1; r < dt->size; r++) { /* every analysis process */
    uint64_t len;
    char *buf = receive_on_0(r, DL_TAG, &len);
    unpack_result(a, buf, len);
    free(buf);
  }
}

/* The delay pass's exchange: after each window all agreed on, the logs
   shipped and applied (after the pass: its end does it). */
static void exchange_delay(az_analysis *a, int last) {
  if (!last) az_delay_deliver(a);
}

/* agree among the delay processes; and whether one holds more instances
   than the bound (lag_rounds) */
static int agree_delay(az_analysis *a, int active, int *failed) {
  delay_team *dt = a->exchange_data;
  const dl_central *c = a->delay_link ? a->delay_link->central_part : NULL;
  int in[3] = {active != 0, *failed != 0, c && dl_central_held(c) > dt->lag_bound}, out[3];
  MPI_Request req;
  MPI_Iallreduce(in, out, 3, MPI_INT, MPI_MAX, dt->comm, &req);
  wait_for(&req);
  *failed = out[1];
  dt->over = out[2];
  return out[1] ? 0 : out[0];
}

/* ---- the critical path divided (docs/analyze/critical-path.md, "The
   critical path in a parallel analysis") ----------------------------- */

/* The delay processes run the pass's first stage on their locations in
   the same backward replay as the delay pass's local part, and send each
   window's arrays to process 1, which walks them (az_critical.h).  Two
   messages: [what, bound][per location its records' and steps' bytes],
   then [per location its records, then its steps], which the walker
   receives straight into its arrays. */
enum { CW_TAG = 7 };

static size_t critical_head_bytes(const az_analysis *a) {
  return az_cp_head_words(a) * sizeof(uint64_t);
}

static void ship_critical(az_analysis *a, az_cp_part *parts, az_time bound, enum az_cp_ship what) {
  pipe_out *po = a->critical_link->data;
  pu_bytes *b = pipe_buffer(po);
  uint64_t head[2] = {what, bound};
  pu_bytes_put(b, head, sizeof head);
  for (uint32_t l = 0; l < a->defs.num_locs; l++) {
    uint64_t n[2] = {parts ? parts[l].rec_bytes : 0, parts ? parts[l].step_bytes : 0};
    pu_bytes_put(b, n, sizeof n);
  }
  for (uint32_t l = 0; parts && l < a->defs.num_locs; l++) {
    pu_bytes_put(b, parts[l].recs, parts[l].rec_bytes);
    pu_bytes_put(b, parts[l].steps, parts[l].step_bytes);
  }
  pipe_send(po, 1, CW_TAG, MPI_COMM_WORLD, what != AZ_CP_WINDOW, critical_head_bytes(a));
}

/* ---- the local parts on the delay processes ---------------------------- */

/* What process 1's walk costs per event of the whole trace, against a
   delay process's backward work per event of its share: the walk merges
   every location's records.  Callgrind, bench_analyze's 8-rank trace
   (8.14 M events), mpiexec -n 8: the walk's part of process 1 0.64 G
   instructions, a delay process's backward reading of one rank (1.02 M
   events) 1.69 G with the delay pass; with the first stage alone
   estimated from the serial analysis's profile (decoding and the first
   stage, about 0.23 G a rank). */
#define CP_WALK_PER_DELAY 0.047
#define CP_WALK_PER_STAGE 0.35
/* ... and what is left of it on the replay thread when process 1 walks
   on a walker thread: receiving the arrays and copying its own (the same
   trace at -n 8: walk_mine 0.034 G on process 1's replay thread, waits
   for the others' messages included). */
#define CP_WALK_BESIDE 0.0025

/* Does every trace process fit, in order, into blocks of at most cap
   (process 1's less by walk)?  The owners as it fills them. */
static int blocks_fit(team *t, const az_defs *d, double cap, double walk) {
  int o = 0;
  double load = 0;
  for (size_t p = 0; p < d->num_procs;) {
    double e = (double)proc_events(d, p);
    if (load + e > cap) { /* full (or too small for it): the next one */
      if (++o == t->size) return 0;
      load = o == 1 ? walk : 0;
      continue;
    }
    load += e;
    t->owner[p++] = o;
  }
  return 1;
}

/* Where process 1 walks (every delay process must know: they all
   compute the shares). */
enum cp_walk_where { WALK_NOWHERE, WALK_ON_REPLAY, WALK_BESIDE };

/* The backward reading's shares: contiguous blocks of trace processes
   whose largest load is least, the walk counted on process 1 as r times
   the whole trace's events (a bisection over the bound; blocks_fit is
   exact for blocks in a fixed order).  So at P = ranks process 1 takes a
   rank when the walk costs less than one, and with more ranks a share
   smaller by the walk; with the walk on a thread of its own, smaller by
   what the replay thread still does for it. */
static void backward_shares(team *t, const az_defs *d, enum cp_walk_where walk, int rootcause) {
  t->owner = pu_calloc(d->num_procs ? d->num_procs : 1, sizeof *t->owner);
  double total = 0, largest = 0;
  for (size_t p = 0; p < d->num_procs; p++) {
    double e = (double)proc_events(d, p);
    total += e;
    largest = e > largest ? e : largest;
  }
  double r = walk == WALK_BESIDE ? CP_WALK_BESIDE
             : rootcause         ? CP_WALK_PER_DELAY
                                 : CP_WALK_PER_STAGE;
  double w = walk != WALK_NOWHERE && t->size > 1 ? r * total : 0;
  double lo = largest, hi = total + w + 1;
  for (int i = 0; i < 64 && hi - lo > 0.5; i++) {
    double mid = (lo + hi) / 2;
    if (blocks_fit(t, d, mid, w)) hi = mid;
    else lo = mid;
  }
  blocks_fit(t, d, hi, w);
}

typedef struct cp_walk_team cp_walk_team;
static void walk_mine(az_analysis *a, az_cp_part *parts, az_time bound, enum az_cp_ship what);
static void walk_team_end(az_analysis *a, cp_walk_team *wt);
static enum cp_walk_where walk_where(const cp_walk_team *walker, MPI_Comm comm);

/* The delay processes: every analysis process (process 1 walks the
   critical path besides: walker, else NULL).  Each replays its share of
   the trace processes (contiguous blocks of about equal event counts,
   process 1's smaller by its walk) backwards once, for the delay pass's
   local part (rootcause) and the critical-path pass's first stage
   (critical). */
static int local_parts(az_analysis *a, const char *anchor, az_marks *marks, MPI_Comm comm,
                       int rootcause, int critical, cp_walk_team *walker) {
  delay_team dt = {.comm = comm};
  MPI_Comm_rank(comm, &dt.rank);
  MPI_Comm_size(comm, &dt.size);
  if (rootcause) share_tree(a, &dt);
  /* each takes a share of the locations and of the central part */
  team shares = {.rank = dt.rank, .size = dt.size};
  backward_shares(&shares, &a->defs, critical ? walk_where(walker, comm) : WALK_NOWHERE, rootcause);
  uint8_t *mine = pu_calloc(a->defs.num_procs ? a->defs.num_procs : 1, 1);
  for (uint32_t p = 0; p < a->defs.num_procs; p++) mine[p] = shares.owner[p] == dt.rank;
  dt.map = pu_calloc((size_t)dt.size, sizeof *dt.map);
  dt.nmap = pu_calloc((size_t)dt.size * 2, sizeof *dt.nmap);
  dt.capmap = dt.nmap + dt.size;
  dt.counts = pu_malloc((size_t)dt.size * 3 * sizeof *dt.counts);
  dt.reqs = pu_malloc((size_t)dt.size * 2 * sizeof *dt.reqs);
  /* POMP_ANALYZE_LAG_BOUND: another bound (tests: 0 makes every window
     exchange until nothing is left) */
  const char *bound = getenv("POMP_ANALYZE_LAG_BOUND");
  dt.lag_bound = bound && *bound ? strtoull(bound, NULL, 10) : DL_LAG_BOUND;
  /* only delay costs go to process 0 from here: the rest was gathered */
  if (rootcause && dt.rank)
    for (uint32_t l = 0; l < a->defs.num_locs; l++) az_cells_free(&a->cells[l]);
  dl_link link = {.ship = ship_records,
                  .round = round_records,
                  .data = &dt,
                  .idle = dt.idle,
                  .finalize = dt.finalize,
                  .owner = shares.owner,
                  .rank = dt.rank,
                  .size = dt.size};
  int fused = rootcause && critical && az_backward_fused(a->threads);
  az_pass delay = fused ? az_pass_delay_feeding : az_pass_delay;
  delay.exchange = exchange_delay;
  pipe_out to_1;
  pipe_init(&to_1);
  az_cp_link clink = {.ship = walker ? walk_mine : ship_critical,
                      .data = walker ? (void *)walker : &to_1};
  az_pass walk = fused ? az_pass_critical_fed : az_pass_critical;
  walk.exchange = az_critical_exchange; /* after each window all agreed on */
  const az_pass *passes[2];
  size_t npasses = 0;
  if (rootcause) passes[npasses++] = &delay;
  if (critical) passes[npasses++] = &walk;
  a->delay_link = rootcause ? &link : NULL;
  a->critical_link = critical ? &clink : NULL;
  a->agree_hook = agree_delay;
  a->exchange_data = &dt;
  int rc = backward_mine(a, anchor, marks, passes, npasses, mine);
  /* a failure before the pass began (the files): process 1 must learn it */
  if (critical && !clink.ended) clink.ship(a, NULL, 0, AZ_CP_FAILED);
  if (walker) walk_team_end(a, walker);
  a->agree_hook = NULL;
  a->exchange_data = NULL;
  a->delay_link = NULL;
  a->critical_link = NULL;
  pipe_free(&to_1);
  if (rootcause && dt.size > 1) gather_delay(a, &dt);
  for (int r = 0; r < dt.size; r++) free(dt.map[r]);
  free(dt.map);
  free(dt.in);
  free(dt.counts);
  free(dt.reqs);
  free(dt.nmap);
  free(dt.idle);
  free(dt.finalize);
  free(mine);
  free(shares.owner);
  return rc;
}

/* Process 1 walks the critical path besides its share of the backward
   reading (the delay processes are every analysis process; its share is
   smaller by the walk's cost, backward_shares), on a walker thread
   (below).  After each window all agreed on, it takes its own arrays and
   every other process's of that window (ship_critical) and hands them to
   the walk, which walks them as the serial pass does, inside
   its own pass's exchange: the others send theirs in theirs, after the
   delay pass's exchange (every process runs the passes' exchanges in the
   same order), so nobody waits for a message not yet sent.  Then it sends
   its walk's values (on its own call tree, remapped as the gather's:
   with the delay costs, else alone) and the model's limits it met;
   process 0 derives the rest of the critical path's metrics from them,
   as the serial pass does at its end. */
enum { CP_TAG = 3 };

/* ---- process 1's walker thread ------------------------------------------

   The walk runs on a thread of its own (walk_queue.c; docs/analyze/
   critical-path.md, "The walker thread"): the replay thread receives a
   window's arrays and hands them over, then goes on with the next window
   while the walker walks this one.  Every MPI call stays on the replay
   thread (MPI is initialised MPI_THREAD_FUNNELED). */

struct cp_walk_team {
  az_cp_queue *q; /* senders: every delay process */
  int size;
  uint8_t *ended; /* per analysis process: its end was received */
  int failed;
  int end_handed; /* walk_mine handed the end (its limits are the model's) */
};

/* Process 1 (walker: its walk) tells every delay process (comm) whether
   it walks on a thread of its own (a choice of its own: its CPUs). */
static enum cp_walk_where walk_where(const cp_walk_team *walker, MPI_Comm comm) {
  int beside = walker && az_cp_queue_threaded(walker->q);
  MPI_Request req;
  MPI_Ibcast(&beside, 1, MPI_INT, 1, comm, &req);
  wait_for(&req);
  return beside ? WALK_BESIDE : WALK_ON_REPLAY;
}

/* One message of ship_critical from `from` into job (its head and its
   arrays, contiguous: no datatype to unpack); returns what it is. */
static enum az_cp_ship receive_critical(az_analysis *a, az_cp_job *job, int from) {
  uint64_t *head = job->head + (size_t)from * az_cp_head_words(a);
  MPI_Request req;
  MPI_Irecv(head, (int)critical_head_bytes(a), MPI_BYTE, from, CW_TAG, MPI_COMM_WORLD, &req);
  wait_long(&req); /* the others may still read their window: the walk waits */
  if (head[1] > job->bound) job->bound = head[1];
  uint64_t total = 0;
  for (size_t i = 0; i < 2 * (size_t)a->defs.num_locs; i++) total += head[2 + i];
  pu_bytes *b = &job->arrays[from];
  pu_reserve((void **)&b->p, &b->cap, total ? total : 1, 1);
  b->len = total;
  MPI_Irecv(b->p, (int)total, MPI_BYTE, from, CW_TAG + 1, MPI_COMM_WORLD, &req);
  wait_for(&req);
  return (enum az_cp_ship)head[0];
}

/* The other delay processes' messages of this window into job (at the
   end: each one's end); the delay processes agree after each window, so
   all end together: a window against an end is a failure.  After a
   failure nothing more is walked: what came is not handed over. */
static void receive_window(az_analysis *a, cp_walk_team *wt, az_cp_job *job, int end) {
  for (int r = 0; r < wt->size; r++) {
    if (r == 1) continue;
    while (!wt->ended[r]) {
      enum az_cp_ship got = receive_critical(a, job, r);
      if (got == AZ_CP_WINDOW && !end) break;
      if (got == AZ_CP_WINDOW) { /* received, not walked: on to its end */
        wt->failed = 1;
        continue;
      }
      wt->ended[r] = 1;
      wt->failed |= got == AZ_CP_FAILED || !end;
    }
  }
}

/* Process 1's critical link (az_cp_link.ship): its own arrays and the
   others' of the same window to the walker, which walks up to the
   largest bound; at the end the rest of the walk. */
static void walk_mine(az_analysis *a, az_cp_part *parts, az_time bound, enum az_cp_ship what) {
  cp_walk_team *wt = a->critical_link->data;
  if (wt->end_handed) return;
  wt->failed |= what == AZ_CP_FAILED;
  az_cp_job *job = az_cp_queue_slot(wt->q);
  job->bound = bound;
  if (!wt->failed && parts) az_cp_job_put(job, a, 1, parts);
  receive_window(a, wt, job, what != AZ_CP_WINDOW);
  if (what == AZ_CP_WINDOW && wt->failed) return; /* the slot is filled again */
  if (what != AZ_CP_WINDOW) job->what = wt->failed ? AZ_CP_FAILED : AZ_CP_LAST;
  wt->end_handed = what != AZ_CP_WINDOW;
  az_cp_queue_hand(wt->q, job);
}

/* After the backward reading: a walk never ended (the pass never began
   here) ends failed, once the others' ends are in.  Then the walker's
   end is waited for and its values join a's. */
static void walk_team_end(az_analysis *a, cp_walk_team *wt) {
  int began = wt->end_handed;
  if (!began) {
    wt->failed = 1;
    az_cp_job *job = az_cp_queue_slot(wt->q);
    receive_window(a, wt, job, 1);
    job->what = AZ_CP_FAILED;
    az_cp_queue_hand(wt->q, job);
  }
  unsigned limits = az_cp_queue_free(wt->q, a);
  if (began) a->model_limits = limits;
}

/* Process 1: a delay process that walks (critical) besides.  0 on
   success. */
/* With two analysis processes the divided delay pass costs more than it
   balances (its instances with members on both processes exist twice:
   bench_analyze's 8-rank trace, CPU seconds of processes 0 / 1, medians
   of 3 on the loaded 2-core machine: 1.34 / 0.46 s with process 0 alone,
   1.57 / 1.59 s divided; at P = 4 the division balances: the largest
   process 1.08 s against 1.23 s): process 0 does
   the delay pass alone and process 1 reads the whole trace backwards for
   the critical path's first stage, its arrays going to its own walker
   (the same arrays, windows and walk). */
static void walk_here(az_analysis *a, az_cp_part *parts, az_time bound, enum az_cp_ship what) {
  az_cp_walker *w = a->critical_link->data;
  for (uint32_t l = 0; l < a->defs.num_locs; l++)
    az_cp_walker_add(w, l, parts[l].recs, parts[l].rec_bytes, parts[l].steps, parts[l].step_bytes);
  if (what == AZ_CP_WINDOW) {
    az_cp_walker_window(w, bound);
    return;
  }
  a->model_limits = az_cp_walker_end(w, what == AZ_CP_LAST);
  az_cp_walker_free(w, a);
}

static int walk_whole(az_analysis *a, const char *anchor, az_marks *marks) {
  az_cp_link link = {.ship = walk_here, .data = az_cp_walker_new(a)};
  az_pass walk = az_pass_critical;
  walk.exchange = az_critical_exchange; /* after each window all agreed on */
  const az_pass *passes[] = {&walk};
  a->critical_link = &link;
  int rc = backward_whole(a, anchor, marks, passes, 1);
  a->critical_link = NULL;
  if (!link.ended) az_cp_walker_free(link.data, NULL); /* the pass never began */
  return rc;
}

/* Process 1's backward passes as a delay process that walks (critical)
   besides. */
static int walk_and_delay(az_analysis *a, const char *anchor, az_marks *marks, MPI_Comm comm,
                          cp_walk_team *wt) {
  int rootcause = !(a->switched_off & AZ_OFF_ROOTCAUSE);
  int critical = !(a->switched_off & AZ_OFF_CRITICAL_PATH);
  MPI_Comm_size(comm, &wt->size);
  if (critical) {
    wt->q = az_cp_queue_new(a, wt->size, az_cp_queue_windows(1));
    wt->ended = pu_calloc((size_t)wt->size, 1);
  }
  int rc = local_parts(a, anchor, marks, comm, rootcause, critical, critical ? wt : NULL);
  free(wt->ended);
  /* with the delay costs, the walk's values went to process 0 already */
  if (rootcause)
    for (uint32_t l = 0; l < a->defs.num_locs; l++) az_cells_free(&a->cells[l]);
  return rc || wt->failed;
}

/* Process 1: a delay process that walks besides, or (comm MPI_COMM_NULL:
   two analysis processes) the walk alone.  0 on success. */
static int delay_on_process_1(az_analysis *a, const char *anchor, az_marks *marks, MPI_Comm comm) {
  int rootcause = !(a->switched_off & AZ_OFF_ROOTCAUSE);
  int critical = !(a->switched_off & AZ_OFF_CRITICAL_PATH);
  int alone = comm == MPI_COMM_NULL;
  if (!critical && (alone || !rootcause)) return 0;
  /* only the backward passes' values travel: the first pass's were gathered */
  for (uint32_t l = 0; l < a->defs.num_locs; l++) az_cells_free(&a->cells[l]);
  a->model_limits = 0;
  cp_walk_team wt = {.size = 0};
  int rc = alone ? walk_whole(a, anchor, marks) : walk_and_delay(a, anchor, marks, comm, &wt);
  if (!critical) return rc;
  uint32_t head[2] = {a->model_limits, rc != 0};
  pu_bytes b = {NULL, 0, 0};
  pu_bytes_put(&b, head, sizeof head);
  pack_result(&b, a, NULL);
  send_to_0(&b, CP_TAG);
  free(b.p);
  return rc;
}

/* Process 0: a delay process (the critical path's first stage too, ship;
   with two analysis processes process 1 reads for it itself), then RMA
   over the whole trace, the walk's values from process 1 and what
   derives from them. */
static int delay_on_process_0(az_analysis *a, const char *anchor, az_marks *marks, MPI_Comm comm,
                              int ship) {
  int rootcause = !(a->switched_off & AZ_OFF_ROOTCAUSE);
  int critical = !(a->switched_off & AZ_OFF_CRITICAL_PATH);
  int rc = rootcause || ship ? local_parts(a, anchor, marks, comm, rootcause, ship, NULL) : 0;
  const az_pass *rma[] = {&az_pass_rma};
  if (!rc) rc = backward_whole(a, anchor, marks, rma, 1);
  if (!rc) az_model_limits_without_walk(a);
  if (!critical) return rc; /* process 1 sends nothing */
  uint64_t len;
  char *buf = receive_on_0(1, CP_TAG, &len);
  uint32_t head[2];
  memcpy(head, buf, sizeof head);
  if (!rc && head[1]) rc = -1; /* process 1 met the error (say_first_error) */
  if (!rc) {
    unpack_result(a, buf + sizeof head, len - sizeof head);
    az_critical_derive(a, head[0]);
  }
  free(buf);
  return rc;
}

int az_analyze_parallel(az_analysis *a, const char *anchor, const az_options *opt) {
  team t;
  MPI_Comm_rank(MPI_COMM_WORLD, &t.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &t.size);
  az_options mine = *opt;
  if (t.rank) mine.progress = 0;
  choose_waits(opt->threads);
  /* the serial analysis's windows (replay.c): the backward passes read
     the first pass's windows, and their instances in flight grow with a
     window (bench_analyze, 8.1 M events: the delay pass took 1.8 s CPU in
     windows of 2^20 events, 0.73 s in 2^16); the forward pass's
     agreements cost about as much as the larger pools of 2^20 save */
  a->diag.errors_later = 1; /* say_first_error says one */
  OTF2_Reader *reader = az_open(a, anchor, &mine);
  int failed = !reader;
  t.owner = NULL;
  az_marks marks = {0};
  /* every process reads the same definitions: all fail alike here */
  if (!failed) {
    assign(&t, &a->defs);
    par_state ps = {.t = &t};
    a->agree_hook = agree;
    a->exchange_data = &ps;
    failed = replay_own(a, reader, &t, &marks) != 0;
    OTF2_Reader_Close(reader);
    a->agree_hook = NULL;
    free_par_state(&ps);
  }
  if (say_first_error(a, &t, failed, anchor, "the analysis")) {
    free(t.owner);
    az_marks_free(&marks);
    return -1;
  }
  share_marks(&marks);
  for (size_t l = 0; l < a->defs.num_locs; l++)
    if (t.owner[a->defs.locs[l].process] == t.rank)
      az_cells_finish(&a->cells[l], &a->tree, &a->defs);
  gather(a, &t);
  a->cells_finished = 1;
  /* the others go on to reduce_diag; a failure: process 0's, or where
     one failed with its own error (say_first_error tells process 0) */
  int delay_failed = 0;
  MPI_Comm delay_comm;     /* every analysis process (but 1 with two): the backward passes' */
  int alone = t.size == 2; /* process 1 walks alone (walk_here) */
  MPI_Comm_split(MPI_COMM_WORLD, alone && t.rank == 1 ? MPI_UNDEFINED : 0, t.rank, &delay_comm);
  int rootcause = !(a->switched_off & AZ_OFF_ROOTCAUSE);
  int critical = !(a->switched_off & AZ_OFF_CRITICAL_PATH);
  if (t.rank == 0)
    delay_failed = delay_on_process_0(a, anchor, &marks, delay_comm, critical && !alone);
  else if (t.rank == 1)
    delay_failed = delay_on_process_1(a, anchor, &marks, delay_comm) && a->diag.errors;
  else if (rootcause || critical)
    delay_failed =
        local_parts(a, anchor, &marks, delay_comm, rootcause, critical, NULL) && a->diag.errors;
  if (delay_comm != MPI_COMM_NULL) MPI_Comm_free(&delay_comm);
  az_marks_free(&marks);
  if (t.rank == 0) az_nested_graft(a); /* on the whole tree, as serially */
  reduce_diag(a, &t);
  delay_failed = say_first_error(a, &t, delay_failed, anchor, "the backward passes");
  az_progress_done(a);
  free(t.owner);
  return delay_failed ? -1 : 0;
}

int az_parallel_begin(void) {
  if (!launched()) return -1;
  int rank, size, provided;
  /* the replay's decoding threads call no MPI (decoders.c) */
  MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 1) return rank;
  MPI_Finalize(); /* one process: the serial analysis */
  return -1;
}

/* The processes the launcher started on this node, where it says so
   (MPICH's Hydra: MPI_LOCALNRANKS, Open MPI: OMPI_COMM_WORLD_LOCAL_SIZE),
   the launcher of the MPI linked in asked first: the other's variable may
   be left over from a launcher outside (a job script run under another
   MPI's mpirun).  0 where none says, or says more than the processes of
   MPI_COMM_WORLD (a value left over from an outer run). */
static int launcher_node_procs(void) {
#ifdef OMPI_MAJOR_VERSION
  static const char *const says[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"};
#else
  static const char *const says[] = {"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE"};
#endif
  int world;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  for (size_t i = 0; i < sizeof says / sizeof *says; i++) {
    const char *v = getenv(says[i]);
    char *end;
    long n = v ? strtol(v, &end, 10) : 0;
    if (n > 0 && n <= world && !*end) return (int)n;
  }
  return 0;
}

int az_parallel_node_procs(void) {
  static int n; /* counted once: --threads' default and the waits ask */
  if (n) return n;
  /* where the launcher says, no collective: MPI_Comm_split_type cost
     every process 21.8 M instructions at -n 16 (MPICH 4.0, its waiting
     included), 3.6 % of a process's analysis of a 4 M-event trace.  Every
     process reads the same variables: all of them skip it or none. */
  if ((n = launcher_node_procs())) return n;
  MPI_Comm node;
  n = 1;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node)) return 1;
  MPI_Comm_size(node, &n);
  MPI_Comm_free(&node);
  return n;
}

void az_parallel_share(int *verdict, char **status) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int head[2] = {*verdict, *status ? (int)strlen(*status) + 1 : 0};
  MPI_Request req;
  MPI_Ibcast(head, 2, MPI_INT, 0, MPI_COMM_WORLD, &req);
  wait_long(&req); /* recovery may take a while */
  *verdict = head[0];
  if (!head[1]) return;
  if (rank) *status = pu_malloc((size_t)head[1]);
  MPI_Ibcast(*status, head[1], MPI_CHAR, 0, MPI_COMM_WORLD, &req);
  wait_for(&req);
}

void az_parallel_end(void) {
  /* the others wait here while process 0 writes the report: gently */
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  wait_long(&req);
  MPI_Finalize();
}
