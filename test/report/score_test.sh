#!/bin/sh
# score_test.sh POMP_REPORT MAKE_FIXTURE PRINT_SUMMARY POMP_TUI MATCH_FILTER
# GOLDEN_DIR -- pomp-report score on the score fixture (make_fixture.c:
# known visits and times), exact tables and filter files; the filter's
# rules applied as libpomp applies them exclude exactly the suggested
# functions, never one with MPI below it; the warning of a run whose buffer
# flushes took 14 % of the time, and the short function names, in
# pomp-analyze's summary, pomp-report stat and pomp-tui (which starts on
# the heaviest root, not on the static initialisers defined first).
set -u
report=$1 make_fixture=$2 summary=$3 tui=$4 match=$5 golden=$6
dir=$(mktemp -d "${TMPDIR:-/tmp}/pomp-score-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
"$make_fixture" score s.pomp && "$make_fixture" own o.pomp &&
  mkdir exp && cp s.pomp exp/report.pomp || { echo "cannot make fixtures"; exit 1; }
failures=0

. "$(dirname "$0")/check.sh"

check score 0 "$report" score s.pomp
check score_dir_top3 0 "$report" score exp -n 3
check score_filter 0 "$report" score s.pomp --suggest-filter
cp out suggested.filter
# stricter thresholds: only what makes a fifth of the bytes at <= 0.2 us
check score_filter_strict 0 "$report" score s.pomp --suggest-filter \
  --min-share 20 --max-time-per-visit=0.2
"$report" generate -o novisits.pomp --cnodes 5 --locations 2 --threads 1 \
  --metrics 1 > /dev/null || { echo "cannot generate"; exit 1; }
check score_no_visits 1 "$report" score novisits.pomp
printf 'not a report' > junk.pomp
check score_junk 1 "$report" score junk.pomp
check score_bad_share 2 "$report" score s.pomp --min-share lots
check score_filter_applied 0 "$match" suggested.filter tiny helper kernel main \
  "exchange(int*)" "Vec<double>::operator[](unsigned long) const" \
  "Vec<double>::operator*(unsigned long) const" MPI_Send
# perturbation above 5 %: one warning line in each summary
check stat_perturbed 0 "$report" stat s.pomp -n 1
check summary_perturbed 0 "$summary" s.pomp 3
# 4.3 % of flushes: no warning
check summary_own 0 "$summary" o.pomp 2
# from the top of the trees (--at-top), not from the top bottleneck
check_screen score_tui_start.txt "$tui" 100x18 2 s.pomp --at-top
check_screen score_tui_hottest.txt "$tui" 100x18 2x s.pomp --at-top
echo "$failures failures"
[ "$failures" -eq 0 ]
