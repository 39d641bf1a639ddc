#!/bin/sh
# loops_report.sh SC_LOOPS POMP_ANALYZE POMP_REPORT
# Loops are ordinary call-tree nodes after the analysis: the trace of
# sc_loops (pomp-opari --loops), analysed, gives exactly these visits per
# call path, in the trace's report and in the profile mode's report; fold
# and stat name the loops in their call paths.
set -u
sc=$1 analyze=$2 report=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
expected="visits,loop @sc_loops.c:17,0,0,1
visits,loop @sc_loops.c:26,0,0,1
visits,loop @sc_loops.c:26;loop @sc_loops.c:27,0,0,3
visits,!\$omp parallel @sc_loops.c:52;loop @sc_loops.c:55,0,0,1
visits,!\$omp parallel @sc_loops.c:52;loop @sc_loops.c:55;loop @sc_loops.c:40,0,0,50"
for mode in trace profile; do
  POMP_MODE=$mode POMP_EXPERIMENT="$work/$mode" "$sc" >/dev/null || { echo "FAIL: $mode run"; exit 1; }
  [ $mode = trace ] && { "$analyze" "$work/$mode" >/dev/null || { echo "FAIL: analyze"; exit 1; }; }
  "$report" dump "$work/$mode" --metric visits | grep 'loop @' | sort >"$work/visits.$mode"
  echo "$expected" | sort | diff -u - "$work/visits.$mode" || { echo "FAIL: $mode visits"; exit 1; }
done
"$report" fold "$work/trace" --metric time | grep -q '^!\$omp parallel @sc_loops.c:52;loop @sc_loops.c:55;loop @sc_loops.c:40 ' ||
  { echo "FAIL: fold"; exit 1; }
"$report" stat "$work/trace" -n 10 | grep -q 'loop @sc_loops.c:55;loop @sc_loops.c:40' ||
  { echo "FAIL: stat"; exit 1; }
echo ok
