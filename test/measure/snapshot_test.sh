#!/bin/sh
# snapshot_test.sh SC_SNAPSHOT POMP_REPORT POMP_TUI
# POMP_MODE=profile POMP_SNAPSHOT=1: while sc_snapshot runs, its
# snapshot.pomp is copied each time it changes (polled; the file is
# replaced by rename, so a copy is always whole). Each copy opens with
# pomp-report, says it is a snapshot (run_status running,
# snapshot_seconds), and the visits of main;tick never go down and grow
# across the copies; pomp-tui --follow shows one. The test then lets the
# program end: the final report has at least the last snapshot's visits,
# run_status complete, and the snapshot is gone. No timing is asserted:
# the bounds on the polls only end a hung run.
. "$(dirname "$0")/snapshot_common.sh"

# main;tick's visits in a report
tick_visits() { "$report" dump "$1" --metric visits | awk -F, '$2 == "main;tick" { print $5 }'; }

POMP_MODE=profile POMP_SNAPSHOT=1 POMP_EXPERIMENT="$exp" "$sc" "$work/stop" >"$work/out" 2>&1 &
pid=$!

n=0 first= last= polls=0
while [ $polls -lt 1200 ]; do # 0.1 s each: a bound for a hung run only
  polls=$((polls + 1))
  sleep 0.1
  cp "$exp/snapshot.pomp" "$work/copy" 2>/dev/null || continue
  [ $n -gt 0 ] && cmp -s "$work/copy" "$work/snap$n" && continue
  n=$((n + 1))
  mv "$work/copy" "$work/snap$n"
  v=$(tick_visits "$work/snap$n") || fail "snapshot $n does not open"
  [ -n "$v" ] || fail "snapshot $n has no main;tick: $("$report" dump "$work/snap$n" --metric visits)"
  [ "$(attr "$work/snap$n" run_status)" = running ] || fail "snapshot $n: run_status not running"
  [ -n "$(attr "$work/snap$n" snapshot_seconds)" ] || fail "snapshot $n: no snapshot_seconds"
  [ -z "$last" ] || [ "$v" -ge "$last" ] || fail "snapshot $n: visits went down ($last -> $v)"
  [ -n "$first" ] || first=$v
  last=$v
  [ $n -ge 2 ] && [ "$last" -gt "$first" ] && break
done
[ $n -ge 2 ] || fail "only $n snapshot(s) seen"
[ "$last" -gt "$first" ] || fail "visits of main;tick did not grow ($first -> $last)"

# pomp-tui --follow on the running program: the follow line of a snapshot
"$tui" --follow --batch --at-top --size 120x12 "$exp" >"$work/tui" 2>&1 ||
  { [ -f "$exp/report.pomp" ] || fail "pomp-tui --follow: $(cat "$work/tui")"; }
grep -q 'following: snapshot of [0-9.]* s, updated [0-9:]*' "$work/tui" ||
  fail "pomp-tui --follow: no follow line: $(cat "$work/tui")"

touch "$work/stop"
wait "$pid" || fail "the program failed: $(cat "$work/out")"
pid=
final=$(tick_visits "$exp") || fail "no final report"
[ "$final" -ge "$last" ] || fail "final visits $final below the last snapshot's $last"
[ "$(attr "$exp/report.pomp" run_status)" = complete ] || fail "final run_status"
[ ! -e "$exp/snapshot.pomp" ] || fail "snapshot.pomp left after the final report"
"$tui" --follow --batch --at-top --size 120x12 "$exp" | grep -q 'following: run finished' ||
  fail "pomp-tui --follow on the finished run"
echo "ok: $n snapshots, main;tick visits $first .. $last, final $final"
