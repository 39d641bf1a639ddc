#!/bin/sh
# Writes a tracegen description (tracegen.c) of a long run to stdout: 4
# ranks in a ring of blocking Send/Recv with work of varying length, so
# that Late Senders and their delays travel around the ring (long-term
# costs across every rank), and a barrier every 8 iterations.  ITERATIONS
# (default 9000) times about 34 events: several replay windows of 65536
# events, so a parallel analysis's backward passes read windows the
# analysis processes noted apart.  Usage: ring_trace.sh [ITERATIONS]
n=${1:-9000}
awk -v n="$n" 'BEGIN {
  R = 4
  print "process 0 threads 1\nprocess 1 threads 1\nprocess 2 threads 1\nprocess 3 threads 1"
  print "region main compiler function main"
  print "region work user function work"
  print "region barrier mpi barrier MPI_Barrier"
  print "region send mpi point2point MPI_Send"
  print "region recv mpi point2point MPI_Recv"
  for (r = 0; r < R; r++) { t[r] = 0; k[r] = 0; add(r, "0 enter main") }
  for (i = 0; i < n; i++) {
    for (r = 0; r < R; r++) {
      w = 100 + ((i * 37 + r * 11) % 7) * 60
      add(r, t[r] " enter work"); add(r, t[r] + w " leave")
      t[r] += w
      s[r] = t[r]
      add(r, t[r] " enter send"); add(r, t[r] " send " (r + 1) % R " 0 0 8"); add(r, t[r] + 5 " leave")
      t[r] += 5
    }
    for (r = 0; r < R; r++) {
      from = (r + R - 1) % R
      done = (t[r] > s[from] ? t[r] : s[from]) + 10
      add(r, t[r] " enter recv"); add(r, done " recv " from " 0 0 8"); add(r, done " leave")
      t[r] = done
    }
    if (i % 8 == 7) {
      last = 0
      for (r = 0; r < R; r++) if (t[r] > last) last = t[r]
      for (r = 0; r < R; r++) {
        add(r, t[r] " enter barrier"); add(r, t[r] " collbegin")
        add(r, last + 20 " collend 0 0 - 8 8"); add(r, last + 20 " leave")
        t[r] = last + 20
      }
    }
  }
  for (r = 0; r < R; r++) {
    print "loc " r ".0"
    for (j = 0; j < k[r]; j++) print ev[r, j]
    print t[r] + 10 " leave"
  }
}
function add(r, line) { ev[r, k[r]++] = line }'
