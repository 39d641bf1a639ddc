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
for case in "warning:" "details:i"; do
  name=${case%%:*} keys=${case#*:}
  "$tui" --batch --size 100x16 --keys "$keys" d.pomp >"$name.txt" 2>err.txt ||
    { echo "$name: pomp-tui exited $?: $(cat err.txt)"; failures=$((failures + 1)); }
  diff -u "$golden/diff_tui_$name.txt" "$name.txt" ||
    { echo "$name: screen differs"; failures=$((failures + 1)); }
done
echo "$failures failures"
[ "$failures" -eq 0 ]
