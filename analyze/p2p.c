/* p2p.c -- point-to-point wait states: messages are matched by
 * (communicator, source, destination, tag) in posting order, as MPI's
 * non-overtaking rule guarantees; then
 *   Late Sender       at the receiver's completing call,
 *   wrong order       LS instances reclassified when an earlier-sent
 *                     message is received after them,
 *   Late Receiver     at the sender's completing call.
 * Formulas and edge cases: docs/PROPERTIES.md. */
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "pomp_util.h"

enum { AZ_WO_WINDOW = 100 }; /* LS instances a receiver remembers */

static const az_msg *sort_base;

static int cmp_key(const az_msg *a, const az_msg *b) {
  if (a->comm != b->comm) return a->comm < b->comm ? -1 : 1;
  if (a->src != b->src) return a->src < b->src ? -1 : 1;
  if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
  if (a->tag != b->tag) return a->tag < b->tag ? -1 : 1;
  return 0;
}

/* Matching order: key, then posting time, location and posting number. */
static int cmp_match(const void *pa, const void *pb) {
  const az_msg *a = &sort_base[*(const size_t *)pa];
  const az_msg *b = &sort_base[*(const size_t *)pb];
  int c = cmp_key(a, b);
  if (c) return c;
  if (a->e_post != b->e_post) return a->e_post < b->e_post ? -1 : 1;
  if (a->loc != b->loc) return a->loc < b->loc ? -1 : 1;
  return (a->pos > b->pos) - (a->pos < b->pos);
}

/* Completion order: location, completing call, event position. */
static int cmp_done(const void *pa, const void *pb) {
  const az_msg *a = &sort_base[*(const size_t *)pa];
  const az_msg *b = &sort_base[*(const size_t *)pb];
  if (a->loc != b->loc) return a->loc < b->loc ? -1 : 1;
  if (a->call_done != b->call_done) return a->call_done < b->call_done ? -1 : 1;
  return (a->pos > b->pos) - (a->pos < b->pos);
}

static size_t *sorted_indices(const az_msg *m, size_t n,
                              int (*cmp)(const void *, const void *),
                              int skip_cancelled, size_t *count) {
  size_t *idx = pu_malloc((n ? n : 1) * sizeof *idx);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (skip_cancelled && (m[i].state == AZ_MSG_CANCELLED ||
                           m[i].src == UINT32_MAX || m[i].dst == UINT32_MAX))
      continue;
    idx[k++] = i;
  }
  sort_base = m;
  az_sort(idx, k, sizeof *idx, cmp);
  *count = k;
  return idx;
}

static void unmatched(az_analysis *a, const az_msg *m, int is_send) {
  char label[160];
  az_loc_label(&a->defs, m->loc, label, sizeof label);
  az_warn(&a->diag, AZ_W_UNMATCHED_MSG,
          "%s: event %llu: %s rank %u (communicator %u, tag %u) has no "
          "matching %s",
          label, (unsigned long long)m->pos, is_send ? "send to" : "receive from",
          is_send ? m->dst : m->src, m->comm, m->tag,
          is_send ? "receive" : "send");
}

/* recv_match[r] = index of the send received by r, or SIZE_MAX. */
static size_t *match_messages(az_analysis *a) {
  az_mpi_records *mp = &a->mpi;
  size_t ns, nr;
  size_t *s = sorted_indices(mp->sends, mp->nsends, cmp_match, 1, &ns);
  size_t *r = sorted_indices(mp->recvs, mp->nrecvs, cmp_match, 1, &nr);
  size_t *match = pu_malloc((mp->nrecvs ? mp->nrecvs : 1) * sizeof *match);
  for (size_t i = 0; i < mp->nrecvs; i++) match[i] = SIZE_MAX;
  size_t i = 0, j = 0;
  while (i < ns || j < nr) {
    int c = i == ns   ? 1
            : j == nr ? -1
                      : cmp_key(&mp->sends[s[i]], &mp->recvs[r[j]]);
    if (c < 0) unmatched(a, &mp->sends[s[i++]], 1);
    else if (c > 0) unmatched(a, &mp->recvs[r[j++]], 0);
    else match[r[j++]] = s[i++];
  }
  free(s);
  free(r);
  return match;
}

typedef struct {
  az_time send_enter;
  int64_t idle;
  int32_t cnode;
} ls_instance;

typedef struct {
  uint32_t loc;
  uint64_t call;
} call_key;

static int cmp_call_key(const void *pa, const void *pb) {
  const call_key *a = pa, *b = pb;
  if (a->loc != b->loc) return a->loc < b->loc ? -1 : 1;
  return (a->call > b->call) - (a->call < b->call);
}

/* The Late Sender instances a receiving location remembers, and the
   latest send among them (most messages arrive in order: one comparison). */
typedef struct {
  ls_instance buf[AZ_WO_WINDOW];
  size_t n;
  az_time latest_send;
} wo_window;

/* Earlier-sent message m received now: remembered LS instances that waited
   for later-sent messages were received in the wrong order. */
static void reclassify(az_cells *cells, wo_window *w, az_time m_send) {
  if (w->latest_send <= m_send) return;
  size_t k = 0;
  w->latest_send = 0;
  for (size_t i = 0; i < w->n; i++) {
    if (w->buf[i].send_enter > m_send) {
      int64_t *v = az_cell(cells, w->buf[i].cnode);
      v[AZ_MPI_LATESENDER] -= w->buf[i].idle;
      v[AZ_MPI_LATESENDER_WO] += w->buf[i].idle;
      continue;
    }
    if (w->buf[i].send_enter > w->latest_send)
      w->latest_send = w->buf[i].send_enter;
    w->buf[k++] = w->buf[i];
  }
  w->n = k;
}

static void remember(wo_window *w, ls_instance in) {
  if (w->n == AZ_WO_WINDOW) { /* forget the oldest */
    memmove(w->buf, w->buf + 1, (AZ_WO_WINDOW - 1) * sizeof *w->buf);
    w->n--;
    /* latest_send may now be an over-estimate: only costs a scan */
  }
  w->buf[w->n++] = in;
  if (in.send_enter > w->latest_send) w->latest_send = in.send_enter;
}

static void check_clock(az_analysis *a, const az_msg *r, const az_msg *s) {
  if (r->x_done >= s->e_post) return;
  char label[160];
  az_loc_label(&a->defs, r->loc, label, sizeof label);
  az_warn(&a->diag, AZ_W_CLOCK,
          "%s: event %llu: receive ends %llu ticks before its send began "
          "(clock condition violation)",
          label, (unsigned long long)r->pos,
          (unsigned long long)(s->e_post - r->x_done));
}

/* Late Sender and wrong order, receivers in completion order.  Returns
   the completing calls that hold a Late Sender (sorted). */
static call_key *late_sender(az_analysis *a, const size_t *match,
                             size_t *nkeys) {
  az_mpi_records *mp = &a->mpi;
  size_t n;
  size_t *r = sorted_indices(mp->recvs, mp->nrecvs, cmp_done, 0, &n);
  call_key *keys = NULL;
  size_t cap = 0;
  *nkeys = 0;
  wo_window win = {.n = 0, .latest_send = 0};
  for (size_t i = 0, j; i < n; i = j) {
    const az_msg *first = &mp->recvs[r[i]];
    if (i == 0 || mp->recvs[r[i - 1]].loc != first->loc)
      win.n = 0, win.latest_send = 0;
    az_cells *cells = &a->cells[first->loc];
    ls_instance worst = {0, 0, first->cnode_done};
    for (j = i; j < n && mp->recvs[r[j]].loc == first->loc &&
                mp->recvs[r[j]].call_done == first->call_done;
         j++) {
      const az_msg *m = &mp->recvs[r[j]];
      if (match[r[j]] == SIZE_MAX) continue;
      const az_msg *s = &mp->sends[match[r[j]]];
      check_clock(a, m, s);
      reclassify(cells, &win, s->e_post);
      if (m->by_test) continue;
      az_time until = s->e_post < m->x_done ? s->e_post : m->x_done;
      int64_t idle = until > m->e_done ? (int64_t)(until - m->e_done) : 0;
      if (idle > worst.idle) worst = (ls_instance){s->e_post, idle, m->cnode_done};
    }
    if (worst.idle <= 0) continue;
    az_cell(cells, worst.cnode)[AZ_MPI_LATESENDER] += worst.idle;
    remember(&win, worst);
    call_key key = {first->loc, first->call_done};
    PU_PUSH(keys, *nkeys, cap, key);
  }
  free(r);
  return keys; /* already in (loc, call) order */
}

/* Late Receiver: a send completing call that waited for the receive to be
   posted; multi-waits take the largest, and are skipped when they also
   hold a Late Sender. */
static void late_receiver(az_analysis *a, const size_t *match,
                          const call_key *ls, size_t nls) {
  az_mpi_records *mp = &a->mpi;
  az_time *posted = pu_malloc((mp->nsends ? mp->nsends : 1) * sizeof *posted);
  uint8_t *has = pu_calloc(mp->nsends ? mp->nsends : 1, 1);
  for (size_t i = 0; i < mp->nrecvs; i++)
    if (match[i] != SIZE_MAX) {
      posted[match[i]] = mp->recvs[i].e_post;
      has[match[i]] = 1;
    }
  size_t n;
  size_t *s = sorted_indices(mp->sends, mp->nsends, cmp_done, 0, &n);
  for (size_t i = 0, j; i < n; i = j) {
    const az_msg *first = &mp->sends[s[i]];
    int64_t worst = 0;
    for (j = i; j < n && mp->sends[s[j]].loc == first->loc &&
                mp->sends[s[j]].call_done == first->call_done;
         j++) {
      const az_msg *m = &mp->sends[s[j]];
      if (!has[s[j]] || m->state != AZ_MSG_DONE || m->by_test) continue;
      az_time rp = posted[s[j]];
      if (m->x_done > rp && rp > m->e_done && (int64_t)(rp - m->e_done) > worst)
        worst = (int64_t)(rp - m->e_done);
    }
    call_key key = {first->loc, first->call_done};
    if (worst <= 0 || (nls && bsearch(&key, ls, nls, sizeof *ls, cmp_call_key)))
      continue;
    az_cell(&a->cells[first->loc], first->cnode_done)[AZ_MPI_LATERECEIVER] +=
        worst;
  }
  free(s);
  free(has);
  free(posted);
}

void az_p2p_analyze(az_analysis *a) {
  size_t *match = match_messages(a);
  size_t nls;
  call_key *ls = late_sender(a, match, &nls);
  late_receiver(a, match, ls, nls);
  free(ls);
  free(match);
}
