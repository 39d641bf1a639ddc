/* p2p.c -- point-to-point wait states: messages are matched by
 * (communicator, source, destination, tag) in posting order, as MPI's
 * non-overtaking rule guarantees; then
 *   Late Sender       at the receiver's completing call,
 *   wrong order       LS instances reclassified when an earlier-sent
 *                     message is received after them,
 *   Late Receiver     at the sender's completing call.
 * Formulas and edge cases: docs/PROPERTIES.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_cells.h"
#include "az_common.h"
#include "az_defs.h"
#include "az_diag.h"
#include "az_metrics.h"
#include "az_p2p.h"
#include "az_records.h"
#include "pomp_util.h"

enum { AZ_WO_WINDOW = 100 }; /* LS instances a receiver remembers */

static int cmp_key(const az_msg *a, const az_msg *b) {
  if (a->comm != b->comm) return a->comm < b->comm ? -1 : 1;
  if (a->src != b->src) return a->src < b->src ? -1 : 1;
  if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
  if (a->tag != b->tag) return a->tag < b->tag ? -1 : 1;
  return 0;
}

/* The orders records are sorted in (az_sort_row): matching order: key, then
   posting time, location and posting number; completion order: location,
   completing call, event position.  Both are total (a location's records
   have distinct positions). */
enum { P2P_MATCH, P2P_DONE };

static az_sort_row row_of(const az_msg *m, size_t i, int order) {
  if (order == P2P_MATCH)
    return (az_sort_row){{(uint64_t)m->comm << 32 | m->src, (uint64_t)m->dst << 32 | m->tag,
                          m->e_post, m->loc, m->pos},
                         i};
  return (az_sort_row){{m->loc, m->e_done, m->x_done, m->pos, 0}, i};
}

/* Which messages take part in matching: sends not matched yet (nor
   cancelled), receives whose completing call was left (all when last). */
static int sendable(const az_msg *m, int last) {
  (void)last;
  return m->state != AZ_MSG_CANCELLED && !m->matched && m->src != UINT32_MAX &&
         m->dst != UINT32_MAX;
}

static int receivable(const az_msg *m, int last) {
  return (m->left || last) && m->src != UINT32_MAX && m->dst != UINT32_MAX;
}

/* Releases the slot of an evaluated record. */
static void release(az_msg *m, size_t i, az_slots *released) {
  m[i].state = AZ_MSG_FREE;
  az_slot_give(released, i);
}

/* Indices of the messages (those with ok(m, last), or all) in the order
   (P2P_MATCH or P2P_DONE).  A window's records lie in a few runs in order
   or in reverse order (az_sort_rows takes them as they are). */
static size_t *sorted_indices(const az_msg *m, size_t n, int order, int (*ok)(const az_msg *, int),
                              int last, size_t *count) {
  az_sort_row *rows = pu_malloc((n ? n : 1) * sizeof *rows);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (m[i].state == AZ_MSG_FREE || (ok && !ok(&m[i], last))) continue;
    rows[k++] = row_of(&m[i], i, order);
  }
  az_sort_rows(rows, k);
  size_t *idx = pu_malloc((k ? k : 1) * sizeof *idx);
  for (size_t i = 0; i < k; i++) idx[i] = rows[i].i;
  free(rows);
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
          is_send ? m->dst : m->src, m->comm, m->tag, is_send ? "receive" : "send");
}

/* Several locations among the records idx[a..b) (threads of one process
   sending, or receiving, on one communicator, peer and tag). */
static int several_locations(const az_msg *m, const size_t *idx, size_t a, size_t b) {
  for (size_t k = a + 1; k < b; k++)
    if (m[idx[k]].loc != m[idx[a]].loc) return 1;
  return 0;
}

static const az_msg *done_base;

/* Receives by the end of their completing call. */
static int cmp_recv_end(const void *pa, const void *pb) {
  const az_msg *a = &done_base[*(const size_t *)pa];
  const az_msg *b = &done_base[*(const size_t *)pb];
  if (a->x_done != b->x_done) return a->x_done < b->x_done ? -1 : 1;
  return (a->pos > b->pos) - (a->pos < b->pos);
}

/* One key's sends s[0..ns) and receives r[0..nr), both in posting order,
   paired in that order.  Threads of one process are not ordered by MPI:
   when several send or receive on the key, posting order is only one
   order MPI could have matched them in, and a pairing that has a receive
   end before its send began is certainly not the one it took.  Then the
   receives are paired, in the order their calls ended, each with the
   earliest-posted send left: an order MPI could have taken in which no
   receive ends before its send began (if there is one).  1 if re-paired. */
static int pair_key(const az_msg *sends, const size_t *s, size_t ns, const az_msg *recvs,
                    const size_t *r, size_t nr, size_t *match) {
  size_t n = ns < nr ? ns : nr;
  int violated = 0;
  for (size_t k = 0; k < n; k++) {
    match[r[k]] = s[k];
    violated |= recvs[r[k]].x_done < sends[s[k]].e_post;
  }
  if (!violated || n < 2 ||
      (!several_locations(sends, s, 0, ns) && !several_locations(recvs, r, 0, nr)))
    return 0;
  size_t *by_end = pu_malloc(nr * sizeof *by_end);
  memcpy(by_end, r, nr * sizeof *r);
  done_base = recvs;
  az_sort(by_end, nr, sizeof *by_end, cmp_recv_end);
  for (size_t k = 0; k < nr; k++) match[r[k]] = SIZE_MAX;
  /* the first n receives to end take the n earliest sends, in order */
  for (size_t k = 0; k < n; k++) match[by_end[k]] = s[k];
  free(by_end);
  return 1;
}

/* match[r] = index of the send received by r, or SIZE_MAX.  What stays
   unmatched is reported only at the last step: a later window may still
   bring its partner. */
static size_t *match_messages(az_analysis *a, const az_msg *sends, size_t nsends,
                              const az_msg *recvs, size_t nrecvs, int last) {
  size_t ns, nr;
  size_t *s = sorted_indices(sends, nsends, P2P_MATCH, sendable, last, &ns);
  size_t *r = sorted_indices(recvs, nrecvs, P2P_MATCH, receivable, last, &nr);
  size_t *match = pu_malloc((nrecvs ? nrecvs : 1) * sizeof *match);
  for (size_t i = 0; i < nrecvs; i++) match[i] = SIZE_MAX;
  size_t i = 0, j = 0;
  while (i < ns || j < nr) {
    int c = i == ns ? 1 : j == nr ? -1 : cmp_key(&sends[s[i]], &recvs[r[j]]);
    if (c < 0) {
      if (last) unmatched(a, &sends[s[i]], 1);
      i++;
    } else if (c > 0) {
      if (last) unmatched(a, &recvs[r[j]], 0);
      j++;
    } else { /* one key: its sends s[i..i2) and receives r[j..j2) */
      size_t i2 = i, j2 = j;
      while (i2 < ns && !cmp_key(&sends[s[i2]], &sends[s[i]])) i2++;
      while (j2 < nr && !cmp_key(&recvs[r[j2]], &sends[s[i]])) j2++;
      a->p2p_ambiguous += (uint64_t)pair_key(sends, s + i, i2 - i, recvs, r + j, j2 - j, match);
      size_t n = i2 - i < j2 - j ? i2 - i : j2 - j;
      for (size_t k = n; k < i2 - i && last; k++) unmatched(a, &sends[s[i + k]], 1);
      for (size_t k = n; k < j2 - j && last; k++) unmatched(a, &recvs[r[j + k]], 0);
      i = i2, j = j2;
    }
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

static int cmp_call_key(const void *pa, const void *pb) {
  const az_call_key *a = pa, *b = pb;
  if (a->loc != b->loc) return a->loc < b->loc ? -1 : 1;
  if (a->e != b->e) return a->e < b->e ? -1 : 1;
  return (a->x > b->x) - (a->x < b->x);
}

/* Both messages were completed by the same call. */
static int same_call(const az_msg *a, const az_msg *b) {
  return a->loc == b->loc && a->e_done == b->e_done && a->x_done == b->x_done;
}

/* The Late Sender instances a receiving location remembers (the last
   AZ_WO_WINDOW: buf[first .. first + n)), and the latest send among them
   (most messages arrive in order: one comparison).  The buffer holds twice
   that: forgetting the oldest moves the window, and only a full buffer
   moves the instances, once per AZ_WO_WINDOW new ones. */
typedef struct {
  ls_instance buf[2 * AZ_WO_WINDOW];
  size_t first, n;
  az_time latest_send;
} wo_window;

/* Earlier-sent message m received now: remembered LS instances that waited
   for later-sent messages were received in the wrong order. */
static void reclassify(az_cells *cells, wo_window *w, az_time m_send) {
  if (w->latest_send <= m_send) return;
  ls_instance *in = w->buf + w->first;
  size_t k = 0;
  w->latest_send = 0;
  for (size_t i = 0; i < w->n; i++) {
    if (in[i].send_enter > m_send) {
      int64_t *v = az_cell(cells, in[i].cnode);
      v[AZ_MPI_LATESENDER] -= in[i].idle;
      v[AZ_MPI_LATESENDER_WO] += in[i].idle;
      continue;
    }
    if (in[i].send_enter > w->latest_send) w->latest_send = in[i].send_enter;
    in[k++] = in[i];
  }
  w->n = k;
}

static void remember(wo_window *w, ls_instance in) {
  if (w->n == AZ_WO_WINDOW) { /* forget the oldest */
    w->first++;
    w->n--;
    /* latest_send may now be an over-estimate: only costs a scan */
  }
  if (w->first + w->n == 2 * AZ_WO_WINDOW) {
    memmove(w->buf, w->buf + w->first, w->n * sizeof *w->buf);
    w->first = 0;
  }
  w->buf[w->first + w->n++] = in;
  if (in.send_enter > w->latest_send) w->latest_send = in.send_enter;
}

static void check_clock(az_analysis *a, const az_msg *r, const az_msg *s) {
  if (r->x_done >= s->e_post) return;
  char label[160];
  az_loc_label(&a->defs, r->loc, label, sizeof label);
  az_warn(&a->diag, AZ_W_CLOCK,
          "%s: event %llu: receive ends %llu ticks before its send began "
          "(clock condition violation)",
          label, (unsigned long long)r->pos, (unsigned long long)(s->e_post - r->x_done));
}

/* Late Sender and wrong order, receivers in completion order.  Fills
   posted/has for every matched send and returns the completing calls that
   hold a Late Sender (sorted). */
static az_call_key *late_sender(az_analysis *a, const az_msg *sends, const az_msg *recvs,
                                size_t nrecvs, const size_t *match, az_p2p_answer *answer,
                                size_t *nkeys, wo_window **kept) {
  size_t n;
  size_t *r = sorted_indices(recvs, nrecvs, P2P_DONE, NULL, 0, &n);
  az_call_key *keys = NULL;
  size_t cap = 0;
  *nkeys = 0;
  wo_window scratch = {.first = 0, .n = 0, .latest_send = 0}, *win = &scratch;
  for (size_t i = 0, j; i < n; i = j) {
    const az_msg *first = &recvs[r[i]];
    if (kept) { /* windows kept per location from step to step */
      if (!kept[first->loc]) kept[first->loc] = pu_calloc(1, sizeof **kept);
      win = kept[first->loc];
    } else if (i == 0 || recvs[r[i - 1]].loc != first->loc) {
      scratch.first = 0, scratch.n = 0, scratch.latest_send = 0;
    }
    az_cells *cells = &a->cells[first->loc];
    ls_instance worst = {0, 0, first->cnode_done};
    for (j = i; j < n && same_call(&recvs[r[j]], first); j++) {
      const az_msg *m = &recvs[r[j]];
      if (match[r[j]] == SIZE_MAX) continue;
      const az_msg *s = &sends[match[r[j]]];
      answer[match[r[j]]] = (az_p2p_answer){m->e_post, 1};
      check_clock(a, m, s);
      reclassify(cells, win, s->e_post);
      if (m->by_test) continue;
      az_time until = s->e_post < m->x_done ? s->e_post : m->x_done;
      int64_t idle = until > m->e_done ? (int64_t)(until - m->e_done) : 0;
      if (idle > worst.idle) worst = (ls_instance){s->e_post, idle, m->cnode_done};
    }
    if (worst.idle <= 0) continue;
    az_cell(cells, worst.cnode)[AZ_MPI_LATESENDER] += worst.idle;
    remember(win, worst);
    az_call_key key = {first->loc, first->e_done, first->x_done};
    PU_PUSH(keys, *nkeys, cap, key);
  }
  free(r);
  return keys; /* already in (loc, call) order */
}

/* Late Receiver of one completing call (sends s[i..j)): the largest wait
   for a receive to be posted among its matched sends. */
static int64_t late_receiver(const az_msg *sends, const size_t *s, size_t i, size_t j,
                             const az_p2p_answer *answer) {
  int64_t worst = 0;
  for (size_t k = i; k < j; k++) {
    const az_msg *m = &sends[s[k]];
    int matched = answer ? answer[s[k]].matched : m->matched;
    if (!matched || m->state != AZ_MSG_DONE || m->by_test) continue;
    az_time rp = answer ? answer[s[k]].posted : m->e_post;
    if (m->x_done > rp && rp > m->e_done && (int64_t)(rp - m->e_done) > worst)
      worst = (int64_t)(rp - m->e_done);
  }
  return worst;
}

static int holds_late_sender(const az_msg *first, const az_call_key *ls, size_t nls) {
  az_call_key key = {first->loc, first->e_done, first->x_done};
  return first->ls_call || (nls && bsearch(&key, ls, nls, sizeof *ls, cmp_call_key));
}

/* A completing call's sends can be evaluated once it was left and all of
   them are matched (or cancelled); at the last step, whatever there is. */
static int group_ready(const az_msg *sends, const size_t *s, size_t i, size_t j, int last) {
  if (last) return 1;
  for (size_t k = i; k < j; k++) {
    const az_msg *m = &sends[s[k]];
    if (m->state == AZ_MSG_CANCELLED) continue;
    if (!m->left || !m->matched) return 0;
  }
  return 1;
}

az_call_key *az_p2p_receive_step(az_analysis *a, az_msg *pool, size_t npool, az_slots *release_to,
                                 int last, az_p2p_answer *answer, size_t *nls) {
  az_mpi_records *mp = &a->mpi;
  if (!a->wo) a->wo = pu_calloc(a->defs.num_locs + 1, sizeof(wo_window *));
  size_t *match = match_messages(a, pool, npool, mp->recvs, mp->nrecvs, last);
  memset(answer, 0, npool * sizeof *answer);
  az_call_key *ls = late_sender(a, pool, mp->recvs, mp->nrecvs, match, answer, nls, a->wo);
  for (size_t i = 0; i < mp->nrecvs; i++)
    if (mp->recvs[i].state != AZ_MSG_FREE && (last || match[i] != SIZE_MAX))
      release(mp->recvs, i, &mp->free_recvs);
  if (release_to)
    for (size_t i = 0; i < npool; i++)
      if (pool[i].state != AZ_MSG_FREE && (last || answer[i].matched)) release(pool, i, release_to);
  free(match);
  return ls;
}

/* Once per analysis: the message groups matched in an order of our
   choosing (pair_key). */
static void note_ambiguous(az_analysis *a) {
  if (!a->p2p_ambiguous || a->diag.verbosity < 1) return;
  fprintf(stderr,
          "%s: note: %llu times several threads of a process sent or received on one "
          "communicator, peer and tag, and the order of their calls left it open which "
          "message MPI matched with which receive: matched in an order MPI could have "
          "taken, one without clock condition violations (Late Sender / Late Receiver "
          "there follow that choice)\n",
          pu_progname(), (unsigned long long)a->p2p_ambiguous);
  a->p2p_ambiguous = 0;
}

void az_p2p_send_step(az_analysis *a, const az_call_key *ls, size_t nls, int last) {
  az_mpi_records *mp = &a->mpi;
  size_t n;
  size_t *s = sorted_indices(mp->sends, mp->nsends, P2P_DONE, NULL, 0, &n);
  for (size_t i = 0, j; i < n; i = j) {
    az_msg *first = &mp->sends[s[i]];
    for (j = i; j < n && same_call(&mp->sends[s[j]], first); j++) {
    }
    int has_ls = holds_late_sender(first, ls, nls);
    int ready = group_ready(mp->sends, s, i, j, last);
    int64_t worst = ready ? late_receiver(mp->sends, s, i, j, NULL) : 0;
    if (worst > 0 && !has_ls)
      az_cell(&a->cells[first->loc], first->cnode_done)[AZ_MPI_LATERECEIVER] += worst;
    for (size_t k = i; k < j; k++) {
      mp->sends[s[k]].ls_call |= (unsigned)has_ls;
      if (ready || mp->sends[s[k]].state == AZ_MSG_CANCELLED)
        release(mp->sends, s[k], &mp->free_sends);
    }
  }
  free(s);
  if (last) note_ambiguous(a);
}

void az_p2p_answered(az_msg *send, az_time posted) {
  send->matched = 1;
  send->e_post = posted; /* its send time is used up */
}

void az_p2p_step(az_analysis *a, int last) {
  az_mpi_records *mp = &a->mpi;
  az_p2p_answer *answer = pu_calloc(mp->nsends ? mp->nsends : 1, sizeof *answer);
  size_t nls;
  az_call_key *ls = az_p2p_receive_step(a, mp->sends, mp->nsends, NULL, last, answer, &nls);
  for (size_t i = 0; i < mp->nsends; i++)
    if (answer[i].matched) az_p2p_answered(&mp->sends[i], answer[i].posted);
  az_p2p_send_step(a, ls, nls, last);
  free(ls);
  free(answer);
}

void az_p2p_free(az_analysis *a) {
  wo_window **wo = a->wo;
  if (wo)
    for (size_t l = 0; l < a->defs.num_locs; l++) free(wo[l]);
  free(wo);
  a->wo = NULL;
}
