#!/bin/sh
# Writes a tracegen description (tracegen.c) of a long run to stdout: 4
# ranks in a ring of blocking Send/Recv with work of varying length, so
# that Late Senders and their delays travel around the ring (long-term
# costs across every rank), and a barrier every 8 iterations.  ITERATIONS
# (default 9000) times about 34 events: several replay windows of 65536
# events, so a parallel analysis's backward passes read windows the
# analysis processes noted apart.
# With `nonblocking`, the messages are non-blocking: in two iterations of
# three each rank posts MPI_Irecv from its left and MPI_Isend to its right,
# works, and completes both in one MPI_Waitall; in the third, MPI_Isend, a
# blocking MPI_Recv, then MPI_Wait.  So Late Receivers too (an Isend's
# completion waiting for the receive's posting: MPI_Irecv or MPI_Recv) and
# calls that hold both; about 56 events an iteration, so an Isend's
# completion and its Isend, an Irecv's completion and its posting, are at
# times read in different windows.
# RANKS (default 4) ranks in the ring: with more, a parallel analysis
# divides the chains of delays among more analysis processes.
# Usage: ring_trace.sh [ITERATIONS [nonblocking|blocking [RANKS]]]
n=${1:-9000}
awk -v n="$n" -v nb="$([ "${2:-}" = nonblocking ] && echo 1 || echo 0)" -v R="${3:-4}" 'BEGIN {
  for (r = 0; r < R; r++) print "process " r " threads 1"
  print "region main compiler function main"
  print "region work user function work"
  print "region barrier mpi barrier MPI_Barrier"
  if (nb) {
    print "region isend mpi point2point MPI_Isend"
    print "region irecv mpi point2point MPI_Irecv"
    print "region wait mpi point2point MPI_Wait"
    print "region waitall mpi point2point MPI_Waitall"
  } else {
    print "region send mpi point2point MPI_Send"
  }
  print "region recv mpi point2point MPI_Recv"
  for (r = 0; r < R; r++) { t[r] = 0; k[r] = 0; req[r] = 0; add(r, "0 enter main") }
  for (i = 0; i < n; i++) {
    if (nb) nonblocking(i % 3 == 2)
    else blocking()
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
function add(r, line) { ev[r, k[r]++] = line }
function work(r, w) { add(r, t[r] " enter work"); add(r, t[r] + w " leave"); t[r] += w }
function blocking(  r, from, done) {
  for (r = 0; r < R; r++) {
    work(r, 100 + ((i * 37 + r * 11) % 7) * 60)
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
}
function nonblocking(recv,  r, from, to, rdone, sdone) {
  for (r = 0; r < R; r++) { # postings
    work(r, 100 + ((i * 37 + r * 11) % 7) * 60)
    if (!recv) {
      posted[r] = t[r]
      add(r, t[r] " enter irecv"); add(r, t[r] + 1 " irecvreq " ++req[r]); add(r, t[r] + 2 " leave")
      rreq[r] = req[r]
      t[r] += 2
    }
    s[r] = t[r]
    add(r, t[r] " enter isend"); add(r, t[r] + 1 " isend " (r + 1) % R " 0 0 8 " ++req[r])
    add(r, t[r] + 2 " leave")
    sreq[r] = req[r]
    t[r] += 2
    work(r, 50 + ((i * 13 + r * 29) % 5) * 70)
    if (recv) posted[r] = t[r]
  }
  for (r = 0; r < R; r++) { # completions
    from = (r + R - 1) % R; to = (r + 1) % R
    rdone = (t[r] > s[from] ? t[r] : s[from]) + 10
    if (recv) {
      add(r, t[r] " enter recv"); add(r, rdone " recv " from " 0 0 8"); add(r, rdone " leave")
      t[r] = rdone + 2
      sdone = (t[r] > posted[to] ? t[r] : posted[to]) + 10
      add(r, t[r] " enter wait"); add(r, sdone " isendcomplete " sreq[r]); add(r, sdone " leave")
      t[r] = sdone
      continue
    }
    sdone = (t[r] > posted[to] ? t[r] : posted[to]) + 10
    add(r, t[r] " enter waitall")
    if (sdone <= rdone) {
      add(r, sdone " isendcomplete " sreq[r]); add(r, rdone " irecv " from " 0 0 8 " rreq[r])
    } else {
      add(r, rdone " irecv " from " 0 0 8 " rreq[r]); add(r, sdone " isendcomplete " sreq[r])
    }
    t[r] = sdone > rdone ? sdone : rdone
    add(r, t[r] " leave")
  }
}'
