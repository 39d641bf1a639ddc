#!/bin/sh
# search_test.sh POMP_REPORT MAKE_FIXTURE GOLDEN_DIR [POMP_TUI] -- pomp-report search
# on the reports of known answers of search_fixture.c: exact search history
# graphs, bottlenecks and JSON (three loops of which one holds a third of
# the time and two are pruned; a wait at a collective caused by one rank's
# loop; an imbalanced OpenMP loop with its barrier wait and idle workers;
# a profile, where sync_wait is untestable), thresholds from the command
# line, and its faults; pomp-tui's first screen and search view.
set -u
report=$1 make_fixture=$2 golden=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/pomp-search-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
for v in paths collective omp profile; do
  "$make_fixture" "search_$v" "$v.pomp" || { echo "cannot make search_$v"; exit 1; }
done
mkdir exp && cp collective.pomp exp/report.pomp
failures=0

. "$(dirname "$0")/check.sh"

for v in paths collective omp profile; do
  check "search_$v" 0 "$report" search "$v.pomp"
  check "search_${v}_json" 0 "$report" search "$v.pomp" --format json
done
check search_collective 0 "$report" search exp
# a lower cpu_bound threshold: the loops at 25 % and 20 % hold too
check search_paths_threshold 0 "$report" search paths.pomp --threshold cpu_bound=0.2 \
  --threshold=sync_wait=0.5
check search_bad_hypothesis 2 "$report" search paths.pomp --threshold cpu=0.2
check search_bad_fraction 2 "$report" search paths.pomp --threshold cpu_bound=2
printf 'not a report' > junk.pomp
check search_junk 1 "$report" search junk.pomp
# pomp-tui opens on the top bottleneck: Wait at N x N selected, the call
# tree open down to main;MPI_Allreduce, ranks 0, 2 and 3 at 14 % each
# (a quarter of 56 %), rank 1 at 0, the sentence on the status line.
if [ -n "${4:-}" ]; then
  check_screen search_tui_start.txt "$4" 140x20 "" collective.pomp
  check_screen search_tui_view.txt "$4" 140x30 "b" omp.pomp
fi
echo "$failures failures"
[ "$failures" -eq 0 ]
