#!/bin/sh
# End-to-end: pomp-analyze on the experiment of an MPI run that died.
# unfinished_mpi plants a Late Sender of 0.2 s on rank 0, then rank 1
# calls MPI_Abort(MPI_COMM_WORLD, 3): the run leaves fragments, no trace.
# pomp-analyze recovers the trace by itself (process 0 alone under
# mpiexec), finds the Late Sender within 10 % and says how the run ended
# (stderr, summary, run_status); --no-recover refuses instead.
# Usage: unfinished_test.sh MPIEXEC UNFINISHED_MPI POMP_ANALYZE POMP_REPORT
set -u
mpiexec=$1 prog=$2 analyze=$3 report=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-az-unfinished.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

exp=$work/exp
POMP_EXPERIMENT=$exp timeout 60 "$mpiexec" -n 2 "$prog" >"$work/run.out" 2>&1
status=$?
[ "$status" = 0 ] && fail "the run did not die"
[ -d "$exp/fragments" ] && [ ! -e "$exp/traces.otf2" ] ||
  { fail "no fragments, or a trace: $(ls "$exp")"; exit 1; }
cp -r "$exp" "$work/refused" && cp -r "$exp" "$work/parallel"

status="rank 1: MPI_Abort(MPI_COMM_WORLD, 3)"
counts="trace recovered from 2 ranks (2 complete, 0 up to their last flush, 0 missing)"

# --no-recover: exit 1, naming the command to run; nothing written
"$analyze" --no-recover "$work/refused" >"$work/out" 2>"$work/err"
[ $? = 1 ] || fail "--no-recover did not exit 1"
printf '%s\n' "pomp-analyze: $work/refused: the run did not finish and its trace was not recovered: run 'pomp-recover $work/refused' (or pomp-analyze without --no-recover)" |
  cmp -s - "$work/err" || fail "--no-recover said: $(cat "$work/err")"
[ -e "$work/refused/traces.otf2" ] && fail "--no-recover recovered"

# serial: recovery, one line on stderr, the status first in the summary
"$analyze" "$exp" >"$work/out" 2>"$work/err" || fail "pomp-analyze exited $?"
printf '%s\n' "pomp-analyze: $exp: the run did not finish ($status); $counts" |
  cmp -s - "$work/err" || fail "stderr: $(cat "$work/err")"
[ "$(sed -n 2p "$work/out")" = "incomplete: $status; $counts" ] ||
  fail "summary: $(cat "$work/out")"
"$report" stat "$exp" >"$work/stat" 2>&1 || fail "pomp-report stat exited $?"
[ "$(head -n 1 "$work/stat")" = "WARNING: incomplete run: $status; $counts" ] ||
  fail "run_status: $(head -n 1 "$work/stat")"

# the planted Late Sender on rank 0 thread 0 (0.2 s, or more on a loaded
# machine: the wait the program saw), within 10 %
seen=$(sed -n 's/^late sender //p' "$work/run.out")
awk -v s="$seen" 'BEGIN { exit !(s >= 0.19) }' ||
  fail "the program saw a Late Sender of '$seen' s, not 0.2: $(cat "$work/run.out")"
"$report" dump "$exp" --metric mpi_latesender --format csv >"$work/ls.csv"
awk -F, -v want="$seen" '$3 == 0 && $4 == 0 { s += $5 }
  END { exit !(s >= 0.9 * want && s <= 1.1 * want) }' "$work/ls.csv" ||
  fail "Late Sender of rank 0, $seen s seen: $(cat "$work/ls.csv")"

# analysed again: the experiment remembers how the run ended
"$analyze" -q -o "$work/again.pomp" "$exp" || fail "second analysis exited $?"
"$report" stat "$work/again.pomp" | head -n 1 | grep -qF "WARNING: incomplete run: $status" ||
  fail "second analysis: no run_status"

# parallel: process 0 recovers, once; the same report as the serial one
"$mpiexec" -n 2 "$analyze" -q -o "$work/parallel.pomp" "$work/parallel" ||
  fail "$mpiexec -n 2 pomp-analyze exited $?"
[ "$(grep -c 'pomp-recover: trace completed' "$work/parallel/measure.log")" = 1 ] ||
  fail "recovered $(grep -c 'pomp-recover: trace completed' "$work/parallel/measure.log") times"
"$report" dump "$exp" >"$work/serial.csv"
"$report" dump "$work/parallel.pomp" >"$work/parallel.csv"
cmp -s "$work/serial.csv" "$work/parallel.csv" || fail "parallel report differs"

[ "$failures" = 0 ] && echo "all checks of an unfinished run passed"
exit "$failures"
