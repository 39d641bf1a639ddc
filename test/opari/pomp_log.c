/*
 * pomp_log.c -- a POMP library for tests: every function of pomp.h logs
 * "thread N: POMP_<event>(<name>[(<sub_name>)]@<file>:<line>)" into a
 * buffer of its own OpenMP thread (no locking, no interleaving); the
 * buffers are written when the program ends, thread 0 first, to the file
 * named by $POMP_LOG (default stderr).  With POMP_LOG_SORTED=1 the thread
 * prefixes are dropped and the lines sorted, for constructs whose thread
 * assignment is not deterministic (sections, tasks).
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp.h"

enum { MAX_THREADS = 64 };

typedef struct {
  char *text;
  size_t len, cap;
} Log;

static Log logs[MAX_THREADS];

static void add(const char *fmt, ...) {
  int t = omp_get_thread_num();
  if (t < 0 || t >= MAX_THREADS) t = MAX_THREADS - 1;
  Log *l = &logs[t];
  char line[512];
  int k = snprintf(line, sizeof line, "thread %d: ", t);
  va_list ap;
  va_start(ap, fmt);
  k += vsnprintf(line + k, sizeof line - (size_t)k, fmt, ap);
  va_end(ap);
  if ((size_t)k >= sizeof line - 1) k = sizeof line - 2;
  line[k++] = '\n';
  if (l->len + (size_t)k > l->cap) {
    l->cap = (l->len + (size_t)k) * 2;
    l->text = realloc(l->text, l->cap);
    if (!l->text) abort();
  }
  memcpy(l->text + l->len, line, (size_t)k);
  l->len += (size_t)k;
}

static void event(const char *what, const OMPRegDescr *d) {
  const char *file = strrchr(d->file_name, '/');
  file = file ? file + 1 : d->file_name;
  if (d->sub_name[0])
    add("POMP_%s(%s(%s)@%s:%d)", what, d->name, d->sub_name, file, d->begin_line1);
  else add("POMP_%s(%s@%s:%d)", what, d->name, file, d->begin_line1);
}

static int by_text(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void dump_sorted(FILE *f) {
  char **lines = NULL;
  size_t n = 0;
  for (int t = 0; t < MAX_THREADS; t++)
    for (char *p = logs[t].text, *end = p + logs[t].len; p && p < end;) {
      char *nl = memchr(p, '\n', (size_t)(end - p));
      *nl = 0;
      lines = realloc(lines, (n + 1) * sizeof *lines);
      lines[n++] = strchr(p, ':') + 2;
      p = nl + 1;
    }
  qsort(lines, n, sizeof *lines, by_text);
  for (size_t i = 0; i < n; i++) fprintf(f, "%s\n", lines[i]);
  free(lines);
}

__attribute__((destructor)) static void dump(void) {
  const char *path = getenv("POMP_LOG");
  FILE *f = path ? fopen(path, "w") : stderr;
  if (!f) return;
  const char *sorted = getenv("POMP_LOG_SORTED");
  if (sorted && strcmp(sorted, "1") == 0) dump_sorted(f);
  else
    for (int t = 0; t < MAX_THREADS; t++)
      fwrite(logs[t].text ? logs[t].text : "", 1, logs[t].len, f);
  if (f != stderr) fclose(f);
  for (int t = 0; t < MAX_THREADS; t++) free(logs[t].text);
}

void POMP_Register(OMPRegDescr **d, int count) {
  add("POMP_Register(%d)", count);
  for (int i = 0; i < count; i++)
    if (!d[i] || !d[i]->name || !d[i]->file_name) abort();
}

void POMP_Fortran_program(const char *name) { add("POMP_Fortran_program(%s)", name); }
void POMP_Init(void) { add("POMP_Init"); }
void POMP_Finalize(void) { add("POMP_Finalize"); }
void POMP_On(void) { add("POMP_On"); }
void POMP_Off(void) { add("POMP_Off"); }

/* Task ids: POMP_Task_new hands out 1, 2, ...; a task's body must pass its
   own id to run_begin and run_end (checked: tasks run inside a task's
   body end before it, so the ids of one thread nest), or the test
   aborts. */
static unsigned long long tasks_made;
static _Thread_local unsigned long long running[64];
static _Thread_local int nrunning;

unsigned long long POMP_Task_new(OMPRegDescr *d) {
  event("Task_new", d);
  unsigned long long id;
#pragma omp atomic capture
  id = ++tasks_made;
  return id;
}

void POMP_Task_run_begin(OMPRegDescr *d, unsigned long long task) {
  event("Task_run_begin", d);
  unsigned long long made;
#pragma omp atomic read
  made = tasks_made;
  if (task == 0 || task > made || nrunning == 64) abort();
  running[nrunning++] = task;
}

void POMP_Task_run_end(OMPRegDescr *d, unsigned long long task) {
  event("Task_run_end", d);
  if (nrunning == 0 || running[--nrunning] != task) abort();
}

#define EVENT(fn)                                                                                  \
  void POMP_##fn(OMPRegDescr *d) { event(#fn, d); }
/* one generated function per event, grouped as in pomp.h */
// clang-format off
EVENT(Begin) EVENT(End)
EVENT(Parallel_fork) EVENT(Parallel_begin) EVENT(Parallel_end) EVENT(Parallel_join)
EVENT(For_enter) EVENT(For_exit) EVENT(Do_enter) EVENT(Do_exit)
EVENT(Sections_enter) EVENT(Sections_exit) EVENT(Section_begin) EVENT(Section_end)
EVENT(Single_enter) EVENT(Single_begin) EVENT(Single_end) EVENT(Single_exit)
EVENT(Workshare_enter) EVENT(Workshare_exit)
EVENT(Master_begin) EVENT(Master_end)
EVENT(Critical_enter) EVENT(Critical_begin) EVENT(Critical_end) EVENT(Critical_exit)
EVENT(Atomic_enter) EVENT(Atomic_exit) EVENT(Barrier_enter) EVENT(Barrier_exit)
EVENT(Join_barrier_enter)
EVENT(Flush_enter) EVENT(Flush_exit)
EVENT(Ordered_enter) EVENT(Ordered_begin) EVENT(Ordered_end) EVENT(Ordered_exit)
EVENT(Task_create_begin) EVENT(Task_create_end) EVENT(Task_begin) EVENT(Task_end)
EVENT(Taskwait_enter) EVENT(Taskwait_exit)
EVENT(Loop_enter) EVENT(Loop_exit)
// clang-format on

#define LOCK(fn, type, call)                                                                       \
  void POMP_##fn(type *s) {                                                                        \
    add("POMP_" #fn);                                                                              \
    call(s);                                                                                       \
  }
                        LOCK(Init_lock, omp_lock_t, omp_init_lock) LOCK(Destroy_lock, omp_lock_t,
                                                                        omp_destroy_lock)
                            LOCK(Set_lock, omp_lock_t,
                                 omp_set_lock) LOCK(Unset_lock, omp_lock_t,
                                                    omp_unset_lock) LOCK(Init_nest_lock,
                                                                         omp_nest_lock_t,
                                                                         omp_init_nest_lock)
                                LOCK(Destroy_nest_lock, omp_nest_lock_t,
                                     omp_destroy_nest_lock) LOCK(Set_nest_lock, omp_nest_lock_t,
                                                                 omp_set_nest_lock)
                                    LOCK(Unset_nest_lock, omp_nest_lock_t,
                                         omp_unset_nest_lock) int POMP_Test_lock(omp_lock_t *s) {
  add("POMP_Test_lock");
  return omp_test_lock(s);
}
int POMP_Test_nest_lock(omp_nest_lock_t *s) {
  add("POMP_Test_nest_lock");
  return omp_test_nest_lock(s);
}

/* --loops: the C guard's calls */
OMPRegDescr *POMP_Loop_begin(OMPRegDescr *d) {
  POMP_Loop_enter(d);
  return d;
}

void POMP_Loop_cleanup(OMPRegDescr *const *d) { POMP_Loop_exit(*d); }
