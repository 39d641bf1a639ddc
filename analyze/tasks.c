/* tasks.c -- see az_tasks.h.  Per location a stack of the tasks it runs
   (started, not completed: innermost last); across locations a table of
   every task started with the location that ran it and whether it
   completed, so a task showing up on a second location is seen in
   whichever order the replay's windows read the two (16 bytes per task,
   freed after the first pass).
   Implicit tasks (generation number 0) are each thread's own and stay out
   of both (Score-P's OPARI2 adapter names every thread's implicit task
   alike). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "az_defs.h"
#include "az_diag.h"
#include "az_pass.h"
#include "az_tasks.h"
#include "pomp_util.h"

typedef struct {
  uint32_t team, creator, generation;
} task_key;

typedef struct {
  task_key key;
  uint32_t loc; /* location index + 1 (| DONE: completed); 0: a free slot */
} task_slot;

enum { DONE = 0x80000000u };

typedef struct {
  task_key *v;
  size_t n, cap;
} task_stack;

struct az_tasks {
  task_slot *slots; /* open addressing, linear probing; cap a power of 2 */
  size_t cap, used;
  task_stack *stacks; /* per location */
  uint32_t nlocs;
  int checked; /* the first pass is over */
};

static int same(const task_key *a, const task_key *b) {
  return a->team == b->team && a->creator == b->creator && a->generation == b->generation;
}

static size_t home(const az_tasks *s, const task_key *k) {
  uint64_t h = (uint64_t)k->team * 0x9e3779b97f4a7c15u ^
               (uint64_t)k->creator * 0xc2b2ae3d27d4eb4fu ^
               (uint64_t)k->generation * 0x165667b19e3779f9u;
  h ^= h >> 29;
  return (size_t)h & (s->cap - 1);
}

/* The slot of k, or of the free slot where it would go. */
static size_t probe(const az_tasks *s, const task_key *k) {
  size_t i = home(s, k);
  while (s->slots[i].loc && !same(&s->slots[i].key, k)) i = (i + 1) & (s->cap - 1);
  return i;
}

static void insert(az_tasks *s, const task_key *k, uint32_t value);

static void grow(az_tasks *s) {
  task_slot *old = s->slots;
  size_t n = s->cap;
  s->cap = n ? 2 * n : 1024;
  s->slots = pu_calloc(s->cap, sizeof *s->slots);
  s->used = 0;
  for (size_t i = 0; i < n; i++)
    if (old[i].loc) insert(s, &old[i].key, old[i].loc);
  free(old);
}

/* k with its slot value (location + 1, maybe | DONE). */
static void insert(az_tasks *s, const task_key *k, uint32_t value) {
  if (2 * (s->used + 1) > s->cap) grow(s);
  size_t i = probe(s, k);
  if (!s->slots[i].loc) s->used++;
  s->slots[i] = (task_slot){*k, value};
}

/* k's slot, or NULL: never started. */
static task_slot *find(const az_tasks *s, const task_key *k) {
  if (!s->cap) return NULL;
  task_slot *e = &s->slots[probe(s, k)];
  return e->loc ? e : NULL;
}

static az_tasks *tasks_of(az_analysis *a) {
  if (!a->tasks) {
    a->tasks = pu_calloc(1, sizeof *a->tasks);
    a->tasks->nlocs = a->defs.num_locs;
    a->tasks->stacks = pu_calloc(a->defs.num_locs ? a->defs.num_locs : 1, sizeof(task_stack));
  }
  return a->tasks;
}

/* "task 3 of thread 1 (team 7)" */
static void task_name(const task_key *k, char *buf, size_t size) {
  snprintf(buf, size, "task %u of thread %u (team %u)", k->generation, k->creator, k->team);
}

/* The trace's task regions do not nest on c's location: not analysed. */
static OTF2_CallbackCode refuse(az_cursor *c, uint64_t pos, const char *record, const task_key *k,
                                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static OTF2_CallbackCode refuse(az_cursor *c, uint64_t pos, const char *record, const task_key *k,
                                const char *fmt, ...) {
  char task[96], why[512];
  task_name(k, task, sizeof task);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  az_fail(&c->a->diag,
          "%s: event %llu: %s of %s: %s; the task regions do not nest on the location, which "
          "pomp-analyze needs (tied tasks); not analysed",
          c->label, (unsigned long long)pos, record, task, why);
  c->failed = 1;
  return OTF2_CALLBACK_INTERRUPT;
}

/* A record of a task that ran on location other. */
static OTF2_CallbackCode ran_elsewhere(az_cursor *c, uint64_t pos, const char *record,
                                       const task_key *k, uint32_t other) {
  char where[160];
  az_loc_label(&c->a->defs, other, where, sizeof where);
  return refuse(c, pos, record, k, "it also ran on %s, so it changed threads (an untied task)",
                where);
}

static OTF2_CallbackCode interrupted(az_cursor *c, uint64_t pos, const char *record,
                                     const task_key *k, const task_key *top) {
  char inner[96];
  task_name(top, inner, sizeof inner);
  return refuse(c, pos, record, k, "%s, which started after it here, has not completed", inner);
}

OTF2_CallbackCode az_task_create(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_CommRef team, uint32_t creator,
                                 uint32_t generation) {
  (void)l, (void)t, (void)pos, (void)al, (void)team, (void)creator, (void)generation;
  return az_next(u);
}

/* A switch to task k (complete: 0) or k's completion (1) on c's location. */
static OTF2_CallbackCode check(az_cursor *c, uint64_t pos, int complete, task_key k) {
  az_tasks *s = tasks_of(c->a);
  if (s->checked) return az_next(c);
  task_stack *st = &s->stacks[c->loc];
  const char *record = complete ? "ThreadTaskComplete" : "ThreadTaskSwitch";
  if (!complete && k.generation == 0) /* back to the thread's implicit task */
    return st->n ? refuse(c, pos, record, &st->v[st->n - 1],
                          "the thread went back to its implicit task before it completed")
                 : az_next(c);
  if (st->n && same(&st->v[st->n - 1], &k)) { /* it resumes, or completes */
    if (complete) {
      st->n--;
      find(s, &k)->loc |= DONE;
    }
    return az_next(c);
  }
  for (size_t i = 0; i < st->n; i++)
    if (same(&st->v[i], &k)) return interrupted(c, pos, record, &k, &st->v[st->n - 1]);
  const task_slot *e = find(s, &k);
  uint32_t other = e ? (e->loc & ~DONE) - 1 : c->loc;
  if (other != c->loc) return ran_elsewhere(c, pos, record, &k, other);
  /* the same task again after its completion here: an id used twice
     (accepted: its regions nest all the same) */
  if (complete) { /* its start was not recorded, or is on a location not read yet */
    insert(s, &k, (c->loc + 1) | DONE);
    return az_next(c);
  }
  PU_PUSH(st->v, st->n, st->cap, k); /* it starts */
  insert(s, &k, c->loc + 1);
  return az_next(c);
}

OTF2_CallbackCode az_task_switch(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *al, OTF2_CommRef team, uint32_t creator,
                                 uint32_t generation) {
  (void)l, (void)t, (void)al;
  return check(u, pos, 0, (task_key){(uint32_t)team, creator, generation});
}

OTF2_CallbackCode az_task_complete(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *al, OTF2_CommRef team, uint32_t creator,
                                   uint32_t generation) {
  (void)l, (void)t, (void)al;
  return check(u, pos, 1, (task_key){(uint32_t)team, creator, generation});
}

void az_tasks_checked(az_analysis *a) {
  if (!a->tasks) return;
  az_tasks *s = a->tasks;
  for (uint32_t l = 0; l < s->nlocs; l++) free(s->stacks[l].v);
  free(s->stacks);
  free(s->slots);
  *s = (az_tasks){.checked = 1};
}

void az_tasks_free(az_analysis *a) {
  az_tasks_checked(a);
  free(a->tasks);
  a->tasks = NULL;
}
