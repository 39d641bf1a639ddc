#!/bin/sh
# diff_tui_test.sh POMP_REPORT MAKE_FIXTURE POMP_TUI GOLDEN_DIR -- a
# difference of a finished and an unfinished run, end to end: pomp-report
# diff writes it, and pomp-tui (batch mode) shows its warning line, cut at
# 100 columns with the hint, and the details page with the whole status.
set -u
report=$1 make_fixture=$2 tui=$3 golden=$4
dir=$(mktemp -d "${TMPDIR:-/tmp}/pomp-difftui-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
"$make_fixture" plain f.pomp && "$make_fixture" incomplete i.pomp &&
  "$report" diff f.pomp i.pomp -o d.pomp || { echo "cannot make the difference"; exit 1; }
failures=0
. "$(dirname "$0")/check.sh"
check_screen diff_tui_warning.txt "$tui" 100x16 "" d.pomp
check_screen diff_tui_details.txt "$tui" 100x16 i d.pomp
# a difference with a negative total (issue 18): percentages of B's
# total time, stated; what shrank is negative, in stat and in pomp-tui
"$make_fixture" own o.pomp && "$report" diff f.pomp o.pomp -o neg.pomp ||
  { echo "cannot make the negative difference"; exit 1; }
got=$("$report" stat neg.pomp | sed -n 1,5p)
want="neg.pomp: total time -1.95 s on 4 locations, 8 call paths
difference f.pomp - o.pomp: % of B's total time 17.6 s

 1. time (Time, own part): -4.27 % of time, -750 ms
    region      -4.27 %   -750 ms  TRACE BUFFER FLUSH (measurement)"
[ "$got" = "$want" ] || { echo "negative diff stat: got"; echo "$got"; failures=$((failures + 1)); }
got=$("$tui" --batch --size 120x10 neg.pomp | sed -n 3p | sed 's/│.*//')
want="▸ █ -100.00 Time                       "
[ "$got" = "$want" ] || { echo "negative diff tui: got '$got'"; failures=$((failures + 1)); }
echo "$failures failures"
[ "$failures" -eq 0 ]
