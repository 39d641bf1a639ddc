#!/bin/sh
# The first pass's exchange under mpiexec: two rounds after each window
# (parallel.c, exchange_waits), each one MPI_Ialltoall of counts and one
# MPI_Ialltoallv of the items (sends with collective records, then
# answers with charges), and the serial report.  EXCHANGE_COUNT
# (exchange_count.c, preloaded) says each agreement (one a window) and
# each all-to-all of MPI_COMM_WORLD.
# Usage: exchanges_test.sh MPIEXEC POMP_ANALYZE POMP_TRACEGEN EXCHANGE_COUNT
set -u
mpiexec=$1 analyze=$2 tracegen=$3 shim=$4
here=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-az-exch.XXXXXX")
trap 'rm -rf "$work"' EXIT
# messages and a barrier every 8 iterations, over several windows
"$here/ring_trace.sh" 6000 >"$work/ring.trace" || { echo "FAIL: ring_trace.sh"; exit 1; }
"$tracegen" "$work/ring.trace" "$work/t" || { echo "FAIL: tracegen"; exit 1; }
"$analyze" -q "$work/t" || { echo "FAIL: serial analysis"; exit 1; }
# an ASan build: the preloaded library comes before ASan's runtime
asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
failures=0
for p in 2 3; do
  "$mpiexec" -n $p env LD_PRELOAD="$shim" ASAN_OPTIONS="$asan" \
    "$analyze" -q -o "$work/p.pomp" "$work/t" 2>"$work/err"
  rc=$?
  # every process says its own: per process, the counts over p
  windows=$(($(grep -c '^agreement$' "$work/err") / p))
  counts=$(($(grep -c '^MPI_Ialltoall$' "$work/err") / p))
  items=$(($(grep -c '^MPI_Ialltoallv$' "$work/err") / p))
  if [ $rc -ne 0 ] || ! cmp -s "$work/t/report.pomp" "$work/p.pomp"; then
    echo "FAIL: -n $p: exit $rc or a report unlike the serial one"
    cat "$work/err"
    failures=$((failures + 1))
  elif [ "$windows" -lt 3 ] || [ "$counts" -ne $((2 * windows)) ] ||
    [ "$items" -ne $((2 * windows)) ]; then
    echo "FAIL: -n $p: $windows windows, $counts MPI_Ialltoall, $items MPI_Ialltoallv" \
      "(want 2 of each a window, 3 windows or more)"
    failures=$((failures + 1))
  else
    echo "ok: -n $p: $windows windows, $counts MPI_Ialltoall and $items MPI_Ialltoallv," \
      "identical report"
  fi
done
[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
