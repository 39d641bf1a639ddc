/* bench_funcs.c -- the instrumented side of bench-measure (compiled with
   -finstrument-functions): tiny functions whose only cost is their
   instrumentation. */
#include "pomp.h"

__attribute__((noinline)) void recorded_fn(void) { __asm__ volatile(""); }
__attribute__((noinline)) void filtered_fn(void) { __asm__ volatile(""); }
__attribute__((noinline)) void throttled_fn(void) { __asm__ volatile(""); }
/* the same empty function without instrumentation: the call's own cost */
__attribute__((noinline, no_instrument_function)) void plain_fn(void) { __asm__ volatile(""); }

void call_recorded(long n) {
  for (long i = 0; i < n; i++) recorded_fn();
}

void call_filtered(long n) {
  for (long i = 0; i < n; i++) filtered_fn();
}

void call_throttled(long n) {
  for (long i = 0; i < n; i++) throttled_fn();
}

void call_plain(long n) {
  for (long i = 0; i < n; i++) plain_fn();
}
