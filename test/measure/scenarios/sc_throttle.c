/* sc_throttle.c -- automatic throttling: tiny() is called CALLS times
   (argv[1], default 300000) by every thread of a team of argv[2] threads
   (default 1), slow() 200 times by the master; prints the sums. Every
   thread calls start() first: a thread becomes a location at its first
   recorded event, and only a location counts the calls not recorded. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int tiny(int x) { return x * 3 + 1; }

__attribute__((noinline)) int start(void) { return omp_get_thread_num() >= 0; }

__attribute__((noinline)) int slow(int x) {
  volatile double s = 0;
  for (int i = 0; i < 2000; i++) s += i * x;
  return (int)s > 0;
}

int main(int argc, char **argv) {
  long calls = argc > 1 ? atol(argv[1]) : 300000;
  int threads = argc > 2 ? atoi(argv[2]) : 1;
  long sum = 0;
#pragma omp parallel num_threads(threads) reduction(+ : sum)
  {
    sum -= start();
    for (long i = 0; i < calls; i++) sum += tiny((int)i) & 1;
    sum += 1;
  }
  int slow_sum = 0;
  for (int i = 1; i <= 200; i++) slow_sum += slow(i);
  printf("%ld %d\n", sum, slow_sum);
  return 0;
}
