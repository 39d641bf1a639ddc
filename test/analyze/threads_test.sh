#!/bin/sh
# pomp-analyze --threads N (decoding threads, analyze/replay.c) must write
# the very same report as --threads 1, byte for byte, and fail with the
# same message: every test trace, a long ring of 4 ranks, a trace of one
# rank with 12 threads, a recovered run, a damaged file with and without
# --skip-damaged, forward and backward passes, serially and under MPIEXEC;
# and --threads refuses what is not a thread count.
# Usage: threads_test.sh MPIEXEC POMP_ANALYZE POMP_TRACEGEN DATA_DIR
set -u
mpiexec=$1 analyze=$2 tracegen=$3 data=$4
here=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-az-thr.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# same NAME DIR [OPTION...]: --threads 2 and 4 against 1: exit status,
# stderr and report
same() {
  name=$1 dir=$2
  shift 2
  "$analyze" -q --threads 1 -o "$work/$name.1.pomp" "$@" "$dir" 2>"$work/$name.1.err"
  want=$?
  for n in 2 4; do
    "$analyze" -q --threads $n -o "$work/$name.$n.pomp" "$@" "$dir" 2>"$work/$name.$n.err"
    got=$?
    if [ $got -ne $want ]; then
      fail "$name: --threads $n exited $got, --threads 1 $want"
    elif ! cmp -s "$work/$name.1.err" "$work/$name.$n.err"; then
      fail "$name: --threads $n says something else than --threads 1"
    elif [ $want -eq 0 ] && ! cmp -s "$work/$name.1.pomp" "$work/$name.$n.pomp"; then
      fail "$name: the report of --threads $n differs"
    else
      echo "ok: $name $*: --threads $n as --threads 1 (exit $want)"
    fi
  done
}

"$here/ring_trace.sh" 9000 >"$work/ring.trace" || { echo "FAIL: ring_trace.sh"; exit 1; }
"$here/omp_threads_trace.sh" 12 8000 >"$work/omp12.trace" || { echo "FAIL: omp_threads_trace.sh"; exit 1; }
for trace in "$data"/*.trace "$work/ring.trace" "$work/omp12.trace"; do
  name=$(basename "$trace" .trace)
  "$tracegen" "$trace" "$work/$name" || { echo "FAIL: tracegen $name"; exit 1; }
  same "$name" "$work/$name"
done
# the report compared holds what the passes computed from decoded events
grep -q '"omp_ibarrier_wait"' "$work/omp12.1.pomp" || fail "omp12: no OpenMP barrier waits"
# the forward pass alone; the backward passes alone after it
same omp12-forward "$work/omp12" --no-rootcause --no-critical-path
same hybrid-forward "$work/hybrid" --no-rootcause --no-critical-path
same omp12-delay "$work/omp12" --no-critical-path

# a recovered run (docs/PROPERTIES.md, "Runs that did not finish")
"$tracegen" "$data/unfinished.trace" "$work/recovered" || exit 1
mkdir "$work/recovered/fragments"
printf '%s\n' "recovered by pomp-recover 0.1.0: 2 ranks, 0 complete, 2 partial, 0 missing" \
  "reason: rank 0: buffer flush" >"$work/recovered/fragments/RECOVERED"
same recovered "$work/recovered"

# damaged event files: an error naming the file, or with --skip-damaged
# the location up to the damage, whichever thread decodes it
for name in hybrid omp12; do
  cp -r "$work/$name" "$work/$name-cut"
  # shellcheck disable=SC2012 # the files are numbered: the second largest
  f=$(ls -S "$work/$name-cut/traces/"*.evt | sed -n 2p) # a worker's (hybrid: rank 1's)
  truncate -s "$(($(stat -c %s "$f") / 2))" "$f"
  same "$name-cut" "$work/$name-cut"
  same "$name-cut" "$work/$name-cut" --skip-damaged
done
grep -q "truncated or corrupt" "$work/hybrid-cut.2.err" || fail "hybrid-cut: no error message"
# shellcheck disable=SC2012 # the files are numbered
rm "$(ls -S "$work/omp12-cut/traces/"*.evt | sed -n 3p)"
same omp12-missing "$work/omp12-cut"

# MPI: threads in each analysis process
for name in hybrid ring; do
  for p in 2 3; do
    if "$mpiexec" -n $p "$analyze" -q --threads 2 -o "$work/$name.mpi$p.pomp" "$work/$name" &&
      cmp -s "$work/$name.1.pomp" "$work/$name.mpi$p.pomp"; then
      echo "ok: $name: $mpiexec -n $p with --threads 2 as the serial --threads 1"
    else
      fail "$name: $mpiexec -n $p --threads 2"
    fi
  done
done

# --threads N: a whole number from 1 to 1024, else a usage error (2)
for bad in 0 -1 x 1.5 1025 ""; do
  "$analyze" -q --threads "$bad" "$work/hybrid" 2>"$work/bad.err"
  rc=$?
  if [ $rc -eq 2 ] && grep -q "^pomp-analyze: option '--threads'" "$work/bad.err"; then
    echo "ok: --threads '$bad' refused"
  else
    fail "--threads '$bad': exit $rc: $(cat "$work/bad.err")"
  fi
done
"$analyze" --help | grep -q -- "--threads=N" || fail "--help does not name --threads"

[ $failures -eq 0 ] && echo "all identical" || echo "$failures failure(s)"
[ $failures -eq 0 ]
