#!/usr/bin/env bash
# diskfull_test.sh -- the disk fills while an MPI run traces (issue 18
# item 1): 2 ranks (1 thread, or 2 OpenMP threads each) with a 256k
# buffer on a 2 MB tmpfs (root only; skipped with a message otherwise).
# Every rank stops recording, the program runs on, stderr has one line,
# measure.log says incomplete, and what fit is analysable by pomp-analyze.
#   diskfull_test.sh WORK ANALYZE STEADY THREADS
set -uo pipefail
work=$1 analyze=$2 steady=$3 threads=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
mounted=
trap '[ -n "$mounted" ] && umount "$mounted"' EXIT
rm -rf "$work" && mkdir -p "$work/small"
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=2m tmpfs "$work/small" 2>/dev/null; then
  echo "skipped: the disk-full case needs root (a 2 MB tmpfs)"
  exit 0
fi
mounted=$work/small
exp=$work/small/e
POMP_BUFFER=256k POMP_EXPERIMENT=$exp OMP_NUM_THREADS=$threads timeout -k 10 120 \
  mpirun -n 2 "$steady" "$work/ready" 2 >"$work/out" 2>"$work/err"
status=$?
# 124/137: the run hung and was stopped (seen once in CI under load, 2026-11-27)
[ $status = 0 ] || fail "exit status $status: $(cat "$work/err"); measure.log: $(tail -5 "$exp/measure.log" 2>/dev/null)"
[ "$(wc -l <"$work/err")" = 1 ] || fail "stderr: $(cat "$work/err")"
grep -Eq "^libpomp: error: trace incomplete: disk full after [0-9]+ events of location [0-9]+ \($exp\); recording stopped, the program runs on$" "$work/err" ||
  fail "message '$(cat "$work/err")'"
for r in 0 1; do
  grep -q "^\[rank $r\] trace incomplete in $exp (incomplete: disk full" "$exp/measure.log" ||
    fail "measure.log: rank $r does not say the trace is incomplete"
done
grep -q "trace written" "$exp/measure.log" && fail "measure.log says the trace was written"
# the analysis hung once in 40 runs under ctest (never in 200 run by hand):
# past 60 s its threads' stacks are printed and the experiment kept
"$analyze" "$exp" -o "$work/report.pomp" >"$work/analysis" 2>"$work/analysis.err" &
pid=$!
for _ in $(seq 600); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
if kill -0 $pid 2>/dev/null; then
  gdb -batch -p $pid -ex 'thread apply all bt' 2>&1 | grep -E '^(#|Thread)' >&2
  cp -a "$exp" "$work/hung-experiment"
  kill -9 $pid
  fail "the analysis hung (stacks above; experiment kept in $work/hung-experiment)"
fi
wait $pid || fail "not analysable: $(cat "$work/analysis.err")"
sed -n 2p "$work/analysis" | grep -q "^incomplete: disk full after [0-9]* events of location [0-9]*; events up to there$" ||
  fail "status line: $(sed -n 2p "$work/analysis")"
echo "ok: disk full, $threads thread(s) per rank: one line, analysable"
