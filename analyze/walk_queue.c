/* walk_queue.c -- the critical path's walk on a thread of its own
   (docs/analyze/critical-path.md, "The walker thread"): the replay thread
   hands each window's arrays of the first stage over and goes on with the
   next window while the walker thread walks this one (az_cp_walker).
   Used by the serial analysis (analyze.c, with decoding threads) and by a
   parallel analysis's process 1 (parallel.c), whose windows hold every
   delay process's arrays.  The walker charges its own call tree and
   cells, added to the analysis's once it has ended.
   The hand-over is a ring of `cap` windows under a mutex: the replay
   thread fills the next free one, waiting while the walker still has all
   of them, so memory stays bounded by cap windows' arrays. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "az.h"
#include "az_critical.h"
#include "pomp_util.h"

/* Windows in flight to the walker thread: enough to ride out one slow
   window without holding many (POMP_ANALYZE_WALK_QUEUE: another number;
   0 walks on the replay thread). */
enum { WALK_QUEUE = 4 };

struct az_cp_queue {
  az_cp_walker *w;
  const az_analysis *a;
  int senders;
  az_cp_job *ring;
  size_t cap, first, filled; /* ring[first] walked next; filled: handed, not walked yet */
  int threaded;
  unsigned limits; /* the end's */
  pthread_t tid;
  pthread_mutex_t mu;
  pthread_cond_t handed, walked;
};

size_t az_cp_head_words(const az_analysis *a) { return 2 + 2 * (size_t)a->defs.num_locs; }

/* The job's arrays into the walk, then its window walked or the end. */
static void job_run(az_cp_queue *q, const az_cp_job *job) {
  size_t nl = q->a->defs.num_locs;
  for (size_t l = 0; job->taken && job->what != AZ_CP_FAILED && l < nl; l++) {
    const az_cp_part *t = &job->taken[l];
    az_cp_walker_add(q->w, (uint32_t)l, t->recs, t->rec_bytes, t->steps, t->step_bytes);
  }
  for (int r = 0; job->what != AZ_CP_FAILED && r < q->senders; r++) {
    if (!job->arrays[r].len) continue; /* nothing from r (its counts are 0) */
    const uint64_t *n = job->head + (size_t)r * az_cp_head_words(q->a) + 2;
    const char *p = job->arrays[r].p;
    for (size_t l = 0; l < nl; p += n[2 * l] + n[2 * l + 1], l++)
      az_cp_walker_add(q->w, (uint32_t)l, p, n[2 * l], p + n[2 * l], n[2 * l + 1]);
  }
  if (job->what == AZ_CP_WINDOW) az_cp_walker_window(q->w, job->bound);
  else q->limits = az_cp_walker_end(q->w, job->what == AZ_CP_LAST);
}

static void *walker_thread(void *arg) {
  az_cp_queue *q = arg;
  for (int end = 0; !end;) {
    pthread_mutex_lock(&q->mu);
    while (!q->filled) pthread_cond_wait(&q->handed, &q->mu);
    az_cp_job *job = &q->ring[q->first];
    pthread_mutex_unlock(&q->mu);
    job_run(q, job);
    end = job->what != AZ_CP_WINDOW;
    pthread_mutex_lock(&q->mu);
    q->first = (q->first + 1) % q->cap;
    q->filled--;
    pthread_cond_signal(&q->walked);
    pthread_mutex_unlock(&q->mu);
  }
  return NULL;
}

long az_cp_queue_windows(int beside) {
  const char *env = getenv("POMP_ANALYZE_WALK_QUEUE");
  if (env && *env) {
    long cap = strtol(env, NULL, 10);
    return cap > 0 ? cap : 0;
  }
  return beside && az_usable_cpus() > 1 ? WALK_QUEUE : 0;
}

az_cp_queue *az_cp_queue_new(az_analysis *a, int senders, long windows) {
  az_cp_queue *q = pu_calloc(1, sizeof *q);
  q->w = az_cp_walker_new(a);
  q->a = a;
  q->senders = senders;
  q->threaded = windows > 0;
  q->cap = windows > 0 ? (size_t)windows : 1;
  q->ring = pu_calloc(q->cap, sizeof *q->ring);
  for (size_t k = 0; k < q->cap; k++) {
    q->ring[k].head = pu_calloc((size_t)senders * az_cp_head_words(a), sizeof(uint64_t));
    q->ring[k].arrays = pu_calloc((size_t)senders, sizeof(pu_bytes));
  }
  pthread_mutex_init(&q->mu, NULL);
  pthread_cond_init(&q->handed, NULL);
  pthread_cond_init(&q->walked, NULL);
  if (q->threaded && pthread_create(&q->tid, NULL, walker_thread, q)) q->threaded = 0;
  return q;
}

int az_cp_queue_threaded(const az_cp_queue *q) { return q->threaded; }

az_cp_job *az_cp_queue_slot(az_cp_queue *q) {
  pthread_mutex_lock(&q->mu);
  while (q->filled == q->cap) pthread_cond_wait(&q->walked, &q->mu);
  az_cp_job *job = &q->ring[(q->first + q->filled) % q->cap];
  pthread_mutex_unlock(&q->mu);
  memset(job->head, 0, (size_t)q->senders * az_cp_head_words(q->a) * sizeof(uint64_t));
  for (int r = 0; r < q->senders; r++) job->arrays[r].len = 0;
  job->bound = 0;
  job->what = AZ_CP_WINDOW;
  return job;
}

void az_cp_job_put(az_cp_job *job, const az_analysis *a, int sender, const az_cp_part *parts) {
  uint64_t *n = job->head + (size_t)sender * az_cp_head_words(a) + 2;
  pu_bytes *b = &job->arrays[sender];
  for (uint32_t l = 0; l < a->defs.num_locs; l++) {
    n[2 * l] = parts[l].rec_bytes;
    n[2 * l + 1] = parts[l].step_bytes;
    pu_bytes_put(b, parts[l].recs, parts[l].rec_bytes); /* the arrays may be NULL */
    pu_bytes_put(b, parts[l].steps, parts[l].step_bytes);
  }
}

void az_cp_job_take(az_cp_job *job, const az_analysis *a, az_cp_part *parts) {
  size_t nl = a->defs.num_locs;
  if (!job->taken) job->taken = pu_calloc(nl ? nl : 1, sizeof *job->taken);
  for (size_t l = 0; l < nl; l++) {
    az_cp_part mine = job->taken[l];
    job->taken[l] = parts[l];
    parts[l] = mine;
  }
}

void az_cp_queue_hand(az_cp_queue *q, az_cp_job *job) {
  if (!q->threaded) {
    job_run(q, job);
    return;
  }
  pthread_mutex_lock(&q->mu);
  q->filled++;
  pthread_cond_signal(&q->handed);
  pthread_mutex_unlock(&q->mu);
}

unsigned az_cp_queue_free(az_cp_queue *q, az_analysis *into) {
  if (q->threaded) pthread_join(q->tid, NULL);
  az_cp_walker_free(q->w, into);
  for (size_t k = 0; k < q->cap; k++) {
    for (int r = 0; r < q->senders; r++) free(q->ring[k].arrays[r].p);
    for (size_t l = 0; q->ring[k].taken && l < q->a->defs.num_locs; l++) {
      free(q->ring[k].taken[l].recs);
      free(q->ring[k].taken[l].steps);
    }
    free(q->ring[k].taken);
    free(q->ring[k].arrays);
    free(q->ring[k].head);
  }
  free(q->ring);
  pthread_mutex_destroy(&q->mu);
  pthread_cond_destroy(&q->handed);
  pthread_cond_destroy(&q->walked);
  unsigned limits = q->limits;
  free(q);
  return limits;
}
