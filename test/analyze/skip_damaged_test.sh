#!/bin/bash
# --skip-damaged (issue 18 item 10): a finished trace with one truncated
# event file. Without the option pomp-analyze refuses with one line that
# names the file and the location and suggests the option; with it the
# other locations are analysed whole and the damaged one up to the
# damage, and the report says so: its run_status and damaged_locations
# attributes, the summary's status line, pomp-report stat's warning and
# pomp-tui's status line. Truncations at several offsets of two files.
# Usage: skip_damaged_test.sh POMP_ANALYZE POMP_TRACEGEN POMP_REPORT POMP_TUI DATA_DIR
set -u
analyze=$1 tracegen=$2 report=$3 tui=$4 data=$5
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-az-damaged.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"; }

"$tracegen" "$data/hybrid.trace" "$work/good" || { echo "tracegen failed"; exit 1; }
"$analyze" -q "$work/good" -o "$work/good.pomp" || { echo "the good trace fails"; exit 1; }

# label FILE: the location its event file belongs to, as messages name it
label() {
  case $1 in
  traces/0.evt) echo "rank 0 thread 0" ;;
  traces/1.evt) echo "rank 1 thread 0" ;; # Score-P ids: thread << 32 | rank
  esac
}

cases=0
for file in traces/0.evt traces/1.evt; do
  size=$(stat -c %s "$work/good/$file")
  for off in $((size / 5)) $((size / 2)) $((size * 4 / 5)) $((size - 3)); do
    cases=$((cases + 1))
    what="$file truncated to $off of $size bytes"
    rm -rf "$work/bad" "$work/bad.pomp" && cp -r "$work/good" "$work/bad"
    truncate -s "$off" "$work/bad/$file"
    # refused: one line naming the file and location, with the hint
    "$analyze" -q "$work/bad" -o "$work/bad.pomp" 2>"$work/err"
    expect_eq "$what: exit without the option" $? 1
    expect_eq "$what: lines" "$(wc -l <"$work/err")" 1
    grep -Eq "^pomp-analyze: $work/bad/$file: $(label $file) \(location [0-9]+\): event [0-9]+: cannot read the event file: truncated or corrupt \(.*\); --skip-damaged analyses the other locations, and this one up to the damage$" "$work/err" ||
      fail "$what: message '$(cat "$work/err")'"
    [ -e "$work/bad.pomp" ] && fail "$what: a report was written without the option"
    # analysed with it
    "$analyze" --skip-damaged "$work/bad" -o "$work/bad.pomp" >"$work/out" 2>"$work/err" ||
      { fail "$what: --skip-damaged: exit $?: $(head -c 300 "$work/err")"; continue; }
    damaged=$("$report" defs "$work/bad.pomp" 2>/dev/null | grep -o '"damaged_locations":[[:space:]]*"[^"]*"' | sed 's/^[^:]*:[[:space:]]*"//; s/"$//')
    echo "$damaged" | grep -Eqx "$(label $file) \(location [0-9]+\) up to event [0-9]+" ||
      fail "$what: damaged_locations '$damaged'"
    status="incomplete: damaged event files analysed up to the damage (--skip-damaged): $damaged"
    expect_eq "$what: summary status line" "$(sed -n 2p "$work/out")" "$status"
    expect_eq "$what: stat warning" "$("$report" stat "$work/bad.pomp" | grep -m1 '^WARNING')" \
      "WARNING: incomplete run: damaged event files analysed up to the damage (--skip-damaged): $damaged"
    "$tui" --batch --size=400x10 "$work/bad.pomp" >"$work/screen" 2>&1 ||
      fail "$what: pomp-tui failed"
    grep -qF "WARNING: incomplete run: damaged event files analysed up to the damage (--skip-damaged): $damaged" "$work/screen" ||
      fail "$what: pomp-tui status line: $(grep -m1 WARNING "$work/screen")"
    grep -q "the event file is damaged; analysed up to there (--skip-damaged)" "$work/err" ||
      fail "$what: no warning naming the damage: $(head -c 300 "$work/err")"
  done
done
# the other locations are whole: an untouched trace analysed with the
# option is the report without it
"$analyze" -q --skip-damaged "$work/good" -o "$work/good2.pomp" || fail "good trace with the option"
cmp -s "$work/good.pomp" "$work/good2.pomp" || fail "the option changes the report of a whole trace"
[ "$failures" = 0 ] && echo "all $cases damaged-file cases passed" && exit 0
echo "$failures failures"
exit 1
