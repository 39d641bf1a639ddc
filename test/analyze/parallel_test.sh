#!/bin/sh
# A parallel analysis (MPIEXEC -n P pomp-analyze) must write the very same
# report as the serial one, byte for byte, for every test trace.
# Usage: parallel_test.sh MPIEXEC POMP_ANALYZE POMP_TRACEGEN DATA_DIR POMP_REPORT
set -u
mpiexec=$1 analyze=$2 tracegen=$3 data=$4 report=$5
here=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-az-par.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
# a long run: several replay windows, delays around a ring of 4 ranks
"$here/ring_trace.sh" 9000 >"$work/ring.trace" || { echo "FAIL: ring_trace.sh"; exit 1; }
# the same with non-blocking messages: Late Receivers of Isend completions
# and Irecv postings read in different windows from their messages
"$here/ring_trace.sh" 4000 nonblocking >"$work/nbring.trace" ||
  { echo "FAIL: ring_trace.sh nonblocking"; exit 1; }
for trace in "$data"/*.trace "$work/ring.trace" "$work/nbring.trace"; do
  name=$(basename "$trace" .trace)
  "$tracegen" "$trace" "$work/$name" || { echo "FAIL: tracegen $name"; exit 1; }
  "$analyze" -q "$work/$name" || { echo "FAIL: serial $name"; failures=$((failures + 1)); }
  # the delay pass's local part on analysis process 0 (2), 2 (3), 2 and 3
  # (4), its central part on 0; 1 walks the critical path
  for p in 2 3 4; do
    if ! "$mpiexec" -n $p "$analyze" -q -o "$work/$name.$p.pomp" "$work/$name"; then
      echo "FAIL: $mpiexec -n $p on $name exited $?"
      failures=$((failures + 1))
    elif ! cmp -s "$work/$name/report.pomp" "$work/$name.$p.pomp"; then
      echo "FAIL: $name: the report of $p analysis processes differs"
      failures=$((failures + 1))
    else
      echo "ok: $name, $p analysis processes: identical report"
    fi
  done
done

# The reports compared above hold what the backward passes computed on
# processes split among analysis processes: delay costs (short- and
# long-term, through chains of 3+ ranks), the classification, OpenMP
# delays, the critical path.  Each must be there (non-zero), or the
# comparison proves nothing.
nonzero() { # TRACE METRIC: some value of METRIC in the 3-process report
  if "$report" dump "$work/$1.3.pomp" --metric "$2" --format csv |
    awk -F, 'NR > 1 && $5 + 0 != 0 { found = 1 } END { exit !found }'; then
    echo "ok: $1: $2 non-zero under -n 3"
  else
    echo "FAIL: $1: no $2 under -n 3"
    failures=$((failures + 1))
  fi
}
for m in delay_latesender delay_latesender_longterm delay_barrier mpi_wait_indirect_latesender \
  mpi_wait_propagating_latesender critical_path critical_imbalance_impact; do
  nonzero ring "$m"
done
nonzero delay_chain delay_barrier_longterm
nonzero delay_p2p delay_latereceiver
for m in delay_latereceiver delay_latereceiver_longterm mpi_wait_indirect_latereceiver \
  mpi_wait_propagating_latereceiver; do
  nonzero nbring "$m"
done
for m in delay_ompbarrier delay_ompidle delay_ompidle_longterm delay_n21 delay_12n; do
  nonzero hybrid "$m"
done
for m in delay_n2n delay_12n delay_n21 mpi_wait_nxn mpi_latebroadcast mpi_earlyreduce \
  mpi_earlyscan mpi_io_collective_wait; do
  nonzero coll_kinds "$m"
done
nonzero critical_chain critical_path_imbalance
nonzero finalize mpi_finalize_wait
nonzero late_receiver mpi_latereceiver
nonzero late_isend_receiver mpi_latereceiver

# Messages whose other side's parts are stubs under -n 3 (rank 0 on
# process 0, rank 1 on process 1; data/stub_parts.trace): exact values.
exact() { # METRIC CALLPATH RANK VALUE: the cell in stub_parts' 3-process report
  if "$report" dump "$work/stub_parts.3.pomp" --metric "$1" --format csv |
    awk -F, -v p="$2" -v r="$3" -v v="$4" '$2 == p && $3 == r && $5 == v { found = 1 }
      END { exit !found }'; then
    echo "ok: stub_parts: $1 at $2 on rank $3 is $4 under -n 3"
  else
    echo "FAIL: stub_parts: $1 at $2 on rank $3 is not $4 under -n 3"
    failures=$((failures + 1))
  fi
}
exact mpi_latereceiver 'main;MPI_Wait' 0 2e-07
exact delay_latereceiver 'main;work' 1 2e-07
exact mpi_latesender 'main;MPI_Wait' 0 4e-08
exact delay_latesender 'main;work' 1 4e-08

# The trace of a run that did not finish (a recovered experiment: its
# record fragments/RECOVERED), analysed as such: the same report too.
"$tracegen" "$data/unfinished.trace" "$work/recovered" || exit 1
mkdir "$work/recovered/fragments"
printf '%s\n' "recovered by pomp-recover 0.1.0: 2 ranks, 0 complete, 2 partial, 0 missing" \
  "reason: rank 0: buffer flush" >"$work/recovered/fragments/RECOVERED"
"$analyze" -q "$work/recovered" || { echo "FAIL: serial recovered"; failures=$((failures + 1)); }
grep -q '"run_status":"incomplete: rank 0: buffer flush;' "$work/recovered/report.pomp" ||
  { echo "FAIL: recovered: no run_status"; failures=$((failures + 1)); }
for p in 2 3; do
  if "$mpiexec" -n $p "$analyze" -q -o "$work/recovered.$p.pomp" "$work/recovered" &&
     cmp -s "$work/recovered/report.pomp" "$work/recovered.$p.pomp"; then
    echo "ok: recovered experiment, $p analysis processes: identical report"
  else
    echo "FAIL: recovered experiment: $p analysis processes"
    failures=$((failures + 1))
  fi
done

# The switches (--no-rootcause, --no-critical-path): the parallel analysis
# runs only the passes asked for, and writes the serial one's report.
# --no-rootcause at 4: the critical path's first stage runs alone on the
# delay processes (at 2: process 1 reads for it, process 0 only RMA).
for sw in --no-rootcause --no-critical-path "--no-rootcause --no-critical-path"; do
  for name in ring hybrid omp_tasks nested; do
    for p in 3 $([ "$sw" = --no-rootcause ] && echo 2 4); do
      # shellcheck disable=SC2086 # $sw: one or two options
      if "$analyze" -q $sw -o "$work/$name.sw.pomp" "$work/$name" &&
        "$mpiexec" -n $p "$analyze" -q $sw -o "$work/$name.sw$p.pomp" "$work/$name" &&
        cmp -s "$work/$name.sw.pomp" "$work/$name.sw$p.pomp" &&
        grep -q '"not_computed"' "$work/$name.sw.pomp"; then
        echo "ok: $name $sw, $p analysis processes: identical report"
      else
        echo "FAIL: $name $sw: $p analysis processes"
        failures=$((failures + 1))
      fi
    done
  done
done

# Process 1's walker thread (docs/analyze/critical-path.md, "The walker
# thread"): its hand-over held to one window in flight (the replay thread
# waits for every walk: the queue at its bound each window), and the walk
# on the replay thread itself (0), as on a process with one CPU.
for queue in 1 0; do
  for name in ring nbring hybrid critical_chain; do
    for p in 3 5; do
      if POMP_ANALYZE_WALK_QUEUE=$queue "$mpiexec" -n $p "$analyze" -q \
        -o "$work/$name.q$queue.pomp" "$work/$name" &&
        cmp -s "$work/$name/report.pomp" "$work/$name.q$queue.pomp"; then
        echo "ok: $name, $p analysis processes, walk queue $queue: identical report"
      else
        echo "FAIL: $name: $p analysis processes, walk queue $queue"
        failures=$((failures + 1))
      fi
    done
  done
done

# Five analysis processes: three send each window's critical-path records
# to process 1 (OpenMP teams, chains through 4 ranks) and the delay logs
# to process 0.
for name in hybrid ring nbring critical_chain; do
  if "$mpiexec" -n 5 "$analyze" -q -o "$work/$name.5.pomp" "$work/$name" &&
    cmp -s "$work/$name/report.pomp" "$work/$name.5.pomp"; then
    echo "ok: $name, 5 analysis processes: identical report"
  else
    echo "FAIL: $name: 5 analysis processes"
    failures=$((failures + 1))
  fi
done

# The central part divided (docs/analyze/parallel.md, "Dividing the
# central part"): rings of 6 ranks, blocking and non-blocking, whose chains of
# delays cross from one delay process to the next at every hop under
# -n 3 .. 5; and delay_chain with a barrier on communicator 2 (ranks 0 and
# 1) posted by rank 3 too (damaged: more members than the communicator),
# a member every delay process must leave out as the serial analysis does,
# or the chain of barriers behind it is lost.
"$here/ring_trace.sh" 3000 blocking 6 >"$work/ring6.trace" || { echo "FAIL: ring6"; exit 1; }
"$here/ring_trace.sh" 2000 nonblocking 6 >"$work/nbring6.trace" || { echo "FAIL: nbring6"; exit 1; }
awk '/^loc 3.0/ { l3 = 1 }
  l3 && $0 == "400 leave" && !done {
    print "200 leave"; print "200 enter barrier"; print "200 collbegin"
    print "250 collend 0 2 - 8 8"; print "250 leave"; print "250 enter work"; done = 1
  }
  { print }' "$data/delay_chain.trace" >"$work/coll_extra.trace"
# identical NAME P [WHAT]: mpiexec -n P writes NAME's serial report
identical() {
  out="$work/$1.$2${3:+.$3}.pomp"
  if "$mpiexec" -n "$2" "$analyze" -q -o "$out" "$work/$1" && cmp -s "$work/$1/report.pomp" "$out"
  then
    echo "ok: $1, $2 analysis processes${3:+, $3}: identical report"
  else
    echo "FAIL: $1: $2 analysis processes${3:+, $3}"
    failures=$((failures + 1))
  fi
}
for name in ring6 nbring6 coll_extra; do
  "$tracegen" "$work/$name.trace" "$work/$name" || { echo "FAIL: tracegen $name"; exit 1; }
  "$analyze" -q "$work/$name" || { echo "FAIL: serial $name"; failures=$((failures + 1)); }
  for p in 3 4 5; do identical "$name" $p; done
done
# the lag bounded (POMP_ANALYZE_LAG_BOUND=0: after every window, rounds of
# records until nothing is left to send)
export POMP_ANALYZE_LAG_BOUND=0
for name in ring6 nbring6 hybrid; do identical "$name" 4 rounds; done
unset POMP_ANALYZE_LAG_BOUND
# both ways of waiting for the other processes (POMP_ANALYZE_WAIT: poll
# where each has a core of its own, else sleep between tests)
for how in poll sleep; do
  export POMP_ANALYZE_WAIT=$how
  for p in 2 3; do identical nbring6 $p "${how}_waits"; done
done
unset POMP_ANALYZE_WAIT
# a warning names each collective by its own record, not by a call path of
# the tree of the process that evaluates it (another's record: rank 1's
# Allreduce is evaluated on process 0 at -n 3)
"$tracegen" "$data/coll_mismatch.trace" "$work/mismatch" || { echo "FAIL: tracegen mismatch"; exit 1; }
"$mpiexec" -n 3 "$analyze" -o "$work/mismatch.pomp" "$work/mismatch" 2>"$work/mismatch.err" >/dev/null
if grep -q "is MPI_Barrier, but on rank 1 thread 0 (location 1) (event 4) MPI_Allreduce;" \
  "$work/mismatch.err"; then
  echo "ok: mismatched collectives named by their records under -n 3"
else
  echo "FAIL: mismatch warning under -n 3: $(cat "$work/mismatch.err")"
  failures=$((failures + 1))
fi
for m in delay_latesender_longterm mpi_wait_indirect_latesender delay_barrier; do
  nonzero ring6 "$m"
done
for m in delay_latereceiver_longterm mpi_wait_propagating_latereceiver; do
  nonzero nbring6 "$m"
done
nonzero coll_extra delay_barrier_longterm

# --skip-damaged: a location read up to its damage in every backward
# replay; process 1 walks what the others shipped of it (issue 18).
cp -r "$work/hybrid" "$work/skipped"
truncate -s "$(($(stat -c %s "$work/skipped/traces/1.evt") / 2))" "$work/skipped/traces/1.evt"
"$analyze" -q --skip-damaged -o "$work/skipped.pomp" "$work/skipped" 2>/dev/null ||
  { echo "FAIL: serial --skip-damaged"; failures=$((failures + 1)); }
for p in 2 3 4; do
  if "$mpiexec" -n $p "$analyze" -q --skip-damaged -o "$work/skipped.$p.pomp" "$work/skipped" \
    2>/dev/null && cmp -s "$work/skipped.pomp" "$work/skipped.$p.pomp"; then
    echo "ok: damaged location skipped, $p analysis processes: identical report"
  else
    echo "FAIL: --skip-damaged: $p analysis processes"
    failures=$((failures + 1))
  fi
done

# A damaged trace fails on every analysis process (never a hang): exit 1.
"$tracegen" "$data/late_sender.trace" "$work/damaged" || exit 1
rm "$work/damaged/traces/1.evt" # rank 1 thread 0 (thread << 32 | rank)
for p in 2 4; do
  "$mpiexec" -n $p "$analyze" -q "$work/damaged" 2>"$work/err"
  status=$?
  if [ "$status" = 0 ] || ! grep -q "cannot read the event file" "$work/err"; then
    echo "FAIL: damaged trace, $p analysis processes: exit $status, $(cat "$work/err")"
    failures=$((failures + 1))
  else
    echo "ok: damaged trace refused by $p analysis processes"
  fi
done
exit "$failures"
