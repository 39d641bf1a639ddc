/* sc_stress.c -- many more threads than cores hammering libpomp at once:
   instrumented functions (racing to fill the function cache), a shared
   user-region descriptor (racing to define its region), critical sections
   and lock-API calls, in pthreads and in an OpenMP team. For the
   ThreadSanitizer build (-DPOMP_TSAN=ON) and as a load test.
   usage: sc_stress [THREADS [ITERATIONS]] */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "sc.h"

DESCR(step, "region", "step", "sc_stress.c", 10, 11);
DESCR(crit, "critical", "", "sc_stress.c", 12, 13);
DESCR(par, "parallel", "", "sc_stress.c", 14, 20);

static long iterations = 200;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static long shared;

#define F(n) \
  __attribute__((noinline)) static long f##n(long x) { return x + n; }
F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11) F(12) F(13) F(14) F(15)
static long (*const fns[16])(long) = {f0, f1, f2, f3, f4, f5, f6, f7,
                                      f8, f9, f10, f11, f12, f13, f14, f15};

/* A critical section as pomp-opari instruments one, around a mutex. */
static void critical_add(long v) {
  POMP_Critical_enter(&crit);
  pthread_mutex_lock(&mutex);
  POMP_Critical_begin(&crit);
  shared += v;
  POMP_Critical_end(&crit);
  pthread_mutex_unlock(&mutex);
  POMP_Critical_exit(&crit);
}

static void *body(void *arg) {
  long id = (long)(intptr_t)arg, sum = 0;
  for (long i = 0; i < iterations; i++) {
    POMP_Begin(&step);
    sum += fns[(id + i) % 16](i);
    POMP_End(&step);
    if (i % 16 == 0) critical_add(1);
  }
  return (void *)(intptr_t)sum;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 32;
  if (argc > 2) iterations = atol(argv[2]);
  if (threads < 1 || threads > 1000) threads = 32;
  pthread_t *t = malloc(sizeof *t * (size_t)threads);
  for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, body, (void *)(intptr_t)i);
  for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
  free(t);
  POMP_Parallel_fork(&par);
#pragma omp parallel num_threads(threads)
  {
    POMP_Parallel_begin(&par);
    body((void *)(intptr_t)omp_get_thread_num());
    POMP_Parallel_end(&par);
  }
  POMP_Parallel_join(&par);
  pthread_mutex_lock(&mutex);
  printf("shared=%ld\n", shared);
  pthread_mutex_unlock(&mutex);
  return 0;
}
