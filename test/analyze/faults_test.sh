#!/bin/bash
# Fault injection for pomp-analyze (issue 18): corrupt trace files (byte
# changes and truncations at many offsets, a time limit per case),
# concurrent analyses of one experiment, a run that died of a signal or
# is still going. Each case asserts the exit status, the exact message
# where there is one, and what was kept.
# Usage: faults_test.sh POMP_ANALYZE POMP_TRACEGEN DATA_DIR SC_SIGNAL SC_FLUSH
set -u
analyze=$1 tracegen=$2 data=$3 sc_signal=$4 sc_flush=$5
work=$(mktemp -d "${TMPDIR:-/tmp}/pomp-az-faults.XXXXXX")
holder= mounted=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; [ -n "$mounted" ] && umount "$mounted"; rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"; }

# Per case: OTF2 used to spend up to 80 s in its anchor loader on one
# changed byte; every corrupt input must now end well inside this.
LIMIT=10

"$tracegen" "$data/hybrid.trace" "$work/good" || { echo "tracegen failed"; exit 1; }

# run_case DIR WHAT: analyses DIR with a time limit; exit 0 or 1 only,
# and a failure is one line saying where (the experiment's file, or the
# location and event of the replay).
run_case() {
  timeout "$LIMIT" "$analyze" -q "$1" >/dev/null 2>"$work/err"
  local rc=$?
  case $rc in
  0) ;;
  1) [ "$(wc -l <"$work/err")" = 1 ] && grep -Eq "^pomp-analyze: ($1[/:]|rank [0-9]+ thread [0-9]+ \(location [0-9]+\): )" "$work/err" || fail "$2: message '$(head -c 200 "$work/err")'" ;;
  124) fail "$2: still busy after $LIMIT s" ;;
  *) fail "$2: exit $rc: $(head -c 200 "$work/err")" ;;
  esac
  return $rc
}

# corrupt FILE OFFSET BYTE: a copy of the good experiment with that byte
corrupt() {
  rm -rf "$work/bad" && cp -r "$work/good" "$work/bad"
  printf "\\x$3" | dd of="$work/bad/$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# --- the anchor: every offset, values that make counts large -----------
anchor_size=$(stat -c %s "$work/good/traces.otf2")
for off in $(seq 0 $((anchor_size - 1))); do
  for v in 10 50 ff; do
    corrupt traces.otf2 "$off" "$v"
    run_case "$work/bad" "traces.otf2 byte $off = 0x$v"
  done
  rm -rf "$work/bad" && cp -r "$work/good" "$work/bad"
  truncate -s "$off" "$work/bad/traces.otf2"
  run_case "$work/bad" "traces.otf2 truncated to $off bytes"
done
# the case of the issue (the count before the trace id): the exact message
corrupt traces.otf2 52 50
run_case "$work/bad" "traces.otf2 byte 52 = 0x50"
expect_eq "anchor byte 52: message" "$(cat "$work/err")" \
  "pomp-analyze: $work/bad/traces.otf2: cannot open the trace archive (corrupt anchor file)"

# --- definitions and events: sampled offsets, and truncations -----------
for file in traces.def traces/0.def traces/0.evt traces/4294967296.evt; do
  size=$(stat -c %s "$work/good/$file")
  step=$(((size + 39) / 40))
  for off in $(seq 0 "$step" $((size - 1))); do
    for v in 50 ff; do
      corrupt "$file" "$off" "$v"
      run_case "$work/bad" "$file byte $off = 0x$v"
    done
    rm -rf "$work/bad" && cp -r "$work/good" "$work/bad"
    truncate -s "$off" "$work/bad/$file"
    run_case "$work/bad" "$file truncated to $off bytes"
  done
done

# --- two or more analyses of one experiment at once ---------------------
# (they shared report.pomp.part: all but one failed)
for round in 1 2 3; do
  pids=
  for i in 1 2 3 4 5 6; do
    "$analyze" -q "$work/good" 2>"$work/conc.$i" &
    pids="$pids $!"
  done
  i=0
  for p in $pids; do
    i=$((i + 1))
    wait "$p" || fail "concurrent analysis $round.$i: exit $?: $(cat "$work/conc.$i")"
  done
done
expect_eq "concurrent: temporary files left" "$(ls "$work/good" | grep -c part)" 0
"$analyze" -q "$work/good" -o "$work/single.pomp" || fail "single analysis"
cmp -s "$work/good/report.pomp" "$work/single.pomp" || fail "concurrent: report differs from a single analysis"

# --- a process that died of a signal: the report says incomplete --------
for how in int term abort; do
  exp=$work/died_$how
  POMP_EXPERIMENT=$exp "$sc_signal" "$how" >/dev/null 2>&1
  out=$("$analyze" "$exp" 2>/dev/null) || fail "died of $how: analysis failed"
  sig=$(case $how in int) echo SIGINT ;; term) echo SIGTERM ;; abort) echo SIGABRT ;; esac)
  expect_eq "died of $how: status line" "$(echo "$out" | sed -n 2p)" \
    "incomplete: the program died of $sig; events up to the signal"
done
# a crash: the trace is written, and the fault is re-sent with the
# siginfo the kernel gave (a chained crash reporter sees the address):
# strace shows the second delivery as the first, not SI_TKILL
exp=$work/died_segv
if strace -qq -e trace=none true 2>/dev/null; then
  POMP_EXPERIMENT=$exp strace -f -qq -e trace=none -e signal=SIGSEGV "$sc_signal" segv \
    >/dev/null 2>"$work/strace"
  expect_eq "segv: deliveries" "$(grep '^--- SIGSEGV' "$work/strace" | sort | uniq -c | sed 's/^ *//')" \
    "2 --- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10} ---"
else
  echo "strace cannot trace here: the siginfo of a re-sent crash is not checked"
  POMP_EXPERIMENT=$exp "$sc_signal" segv >/dev/null 2>&1
fi
out=$("$analyze" "$exp" 2>/dev/null) || fail "died of segv: analysis failed"
expect_eq "died of segv: status line" "$(echo "$out" | sed -n 2p)" \
  "incomplete: the program died of SIGSEGV; events up to the signal"
out=$("$analyze" "$work/good" 2>/dev/null)
expect_eq "a complete run: no status line" "$(echo "$out" | grep -c incomplete)" 0

# --- a run still going ---------------------------------------------------
exp=$work/running
POMP_EXPERIMENT=$exp "$sc_signal" hold >"$work/hold.out" 2>/dev/null &
holder=$!
for i in $(seq 1 200); do [ -s "$work/hold.out" ] && break; sleep 0.05; done
"$analyze" "$exp" >/dev/null 2>"$work/err"
expect_eq "running: exit" $? 1
expect_eq "running: message" "$(cat "$work/err")" \
  "pomp-analyze: $exp: the run is still going (pid $holder holds its measure.log); analyse it once it has ended"
kill -TERM "$holder"
wait "$holder" 2>/dev/null
holder=
out=$("$analyze" "$exp" 2>/dev/null) || fail "running, then killed: analysis failed"
expect_eq "running, then killed: status" "$(echo "$out" | sed -n 2p)" \
  "incomplete: the program died of SIGTERM; events up to the signal"

# --- the disk fills while tracing (a 2 MB tmpfs, root only) -------------
# (was: a crash inside OTF2, or 0-byte definitions and ~30 OTF2 lines)
mkdir "$work/small"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=2m tmpfs "$work/small" 2>/dev/null; then
  mounted=$work/small
  exp=$work/small/e
  POMP_BUFFER=256k POMP_EXPERIMENT=$exp "$sc_flush" 400000 >"$work/out" 2>"$work/err"
  expect_eq "disk full: exit" $? 0
  expect_eq "disk full: the program ran on" "$(cat "$work/out")" "400000 visits"
  expect_eq "disk full: stderr lines" "$(wc -l <"$work/err")" 1
  grep -Eq "^libpomp: error: trace incomplete: disk full after [0-9]+ events of location 0 \($exp: file system $work/small \(tmpfs\), 2\.0 MiB, [0-9.]+ ([KMG]i)?B free\); recording stops on every location, every event recorded is kept; the program runs on$" "$work/err" ||
    fail "disk full: message '$(cat "$work/err")'"
  grep -q "^trace incomplete in $exp (incomplete: disk full after" "$exp/measure.log" ||
    fail "disk full: measure.log does not say the trace is incomplete"
  expect_eq "disk full: measure.log says written" "$(grep -c 'trace written' "$exp/measure.log")" 0
  "$analyze" -q "$exp" -o "$work/full.pomp" 2>"$work/err" || fail "disk full: not analysable: $(cat "$work/err")"
  umount "$mounted" && mounted=
else
  echo "skipped: the disk-full case needs root (a 2 MB tmpfs)"
fi

[ "$failures" = 0 ] && echo "all fault-injection cases passed" && exit 0
echo "$failures failures"
exit 1
