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
echo "$failures failures"
[ "$failures" -eq 0 ]
