#!/bin/sh
# Writes a tracegen description (tracegen.c) of one rank with THREADS
# OpenMP threads (default 12) to stdout: ITERATIONS (default 8000)
# parallel regions of unequal work ending in an implicit barrier, every
# fourth with a critical section (lock contention), serial work of the
# master between them and now and then a CallingContextSample.  About 90
# events an iteration: many replay windows, and several backward blocks
# per location, for a trace that one analysis process replays with
# several threads (pomp-analyze --threads).
# Usage: omp_threads_trace.sh [THREADS [ITERATIONS]]
awk -v T="${1:-12}" -v n="${2:-8000}" 'BEGIN {
  print "process 0 threads " T
  print "team 5"
  print "region main compiler function main"
  print "region serial user function serial"
  print "region work user function work"
  print "region par openmp parallel !$omp parallel @threads.c:10"
  print "region ibar openmp implicit_barrier !$omp implicit barrier @threads.c:20"
  print "region crit openmp critical !$omp critical @threads.c:12"
  print "region critsb openmp critical_sblock !$omp critical sblock @threads.c:12"
  # location by location (awk builds long strings slowly): each replays
  # the same iterations and prints its own events
  for (me = 0; me < T; me++) {
  print "loc 0." me
  t = 0
  add(0, "0 enter main")
  for (i = 0; i < n; i++) {
    s = 50 + (i * 13) % 40
    add(0, t " enter serial"); add(0, t + s " leave")
    if (i % 64 == 0) add(0, t + s " sample")
    t += s + 1
    add(0, t " fork " T)
    end = 0
    for (k = 0; k < T; k++) { w[k] = 100 + ((i * 37 + k * 11) % 9) * 30; if (w[k] > end) end = w[k] }
    end += t + 40
    for (k = 0; k < T; k++) {
      add(k, t + 1 " teambegin 5"); add(k, t + 2 " enter par")
      add(k, t + 3 " enter work"); add(k, t + 3 + w[k] " leave")
      c = t + 3 + w[k]
      if (i % 4 == 0) {
        a = c + k  # threads queue for the lock one after the other
        add(k, c " enter crit"); add(k, a + 1 " acquire 1 " (i / 4) * T + k + 1)
        add(k, a + 1 " enter critsb"); add(k, a + 2 " leave")
        add(k, a + 2 " release 1 " (i / 4) * T + k + 1); add(k, a + 3 " leave")
        c = a + 3
      }
      add(k, c " enter ibar"); add(k, end + T " leave")
      add(k, end + T + 1 " leave"); add(k, end + T + 2 " teamend 5")
    }
    t = end + T + 3
    add(0, t " join")
    t += 1
  }
  add(0, t " leave")
  }
}
function add(k, line) { if (k == me) print line }'
